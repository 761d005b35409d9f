"""Gazetteers: the lists surrogates are drawn from, per language.

Built from Faker's locale data (first names by gender, surnames, countries, Spanish provinces),
Babel's month names and the spelling alphabet of :mod:`redactdesk.lang`, plus the editable files in ``resources/gazetteers/<language>/`` (see the README there), with a
project's additions and removals applied on top (:func:`load_gazetteer` ``edits``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from redactdesk.lang.alphabet import spelling_words
from redactdesk.lang.calendar import month_names
from redactdesk.lang.names import LOCALES, address, person
from redactdesk.resources import resource
from redactdesk.substitute.errors import SubstitutionError
from redactdesk.substitute.numbers import check_language
from redactdesk.substitute.text import norm

LISTS = (
    "female_names", "male_names", "surnames", "cities", "countries", "streets", "street_types",
    "address_words", "floors", "organizations", "brands", "org_words", "domains", "products", "months",
    "username_words", "titles", "post_nominals", "epithets",
)


@dataclass
class ShortForms:
    """Full names and their short forms (Francisco: Fran, Paco), by gender."""

    full_to_short: dict[str, list[str]] = field(default_factory=dict)  # norm(full) -> short forms
    short_to_full: dict[str, list[tuple[str, str]]] = field(default_factory=dict)  # norm(short) -> [(full, g)]
    gender_of_full: dict[str, str] = field(default_factory=dict)
    display: dict[str, str] = field(default_factory=dict)  # norm(full) -> "Francisco"


@dataclass
class Gazetteer:
    """All lists of one language; names are looked up without case or accents."""

    language: str
    lists: dict[str, list[str]]
    weights: dict[str, dict[str, float]]  # female_names/male_names -> norm(name) -> frequency
    short_forms: ShortForms
    variants: dict[str, str]  # norm(variant) -> norm(canonical)
    spelling_words: dict[str, str]
    _index: dict[str, set[str]] = field(default_factory=dict, repr=False)
    pools: dict[tuple, list[str]] = field(default_factory=dict, repr=False)  # generators' candidate lists

    def pool(self, key: tuple, make: Callable[[], list[str]]) -> list[str]:
        """A generator's candidate list for ``key``, made once per gazetteer by ``make`` (the lists do
        not change after loading; project edits make a new gazetteer)."""
        if key not in self.pools:
            self.pools[key] = make()
        return self.pools[key]

    def entries(self, name: str) -> list[str]:
        if name not in self.lists:
            raise SubstitutionError(f"unknown gazetteer list {name!r}; known: {', '.join(LISTS)}")
        return self.lists[name]

    def contains(self, name: str, text: str) -> bool:
        if name not in self._index:
            self._index[name] = {norm(e) for e in self.entries(name)}
        return norm(text) in self._index[name]

    def is_first_name(self, text: str) -> bool:
        return self.contains("female_names", text) or self.contains("male_names", text) or (
            norm(text) in self.short_forms.short_to_full) or norm(text) in self.short_forms.full_to_short

    def gender(self, name: str) -> str | None:
        """'f', 'm' or None (unknown or used for both), from list membership and Faker's frequencies."""
        if len(name.split()) > 1:
            whole_f, whole_m = self.contains("female_names", name), self.contains("male_names", name)
            if whole_f != whole_m:
                return "f" if whole_f else "m"
        first = name.split()[0] if name.split() else name
        key = norm(first)
        f = self.contains("female_names", first)
        m = self.contains("male_names", first)
        if key in self.short_forms.gender_of_full and not (f or m):
            return self.short_forms.gender_of_full[key]
        if key in self.short_forms.short_to_full and not (f or m):
            genders = {g for _, g in self.short_forms.short_to_full[key]}
            return genders.pop() if len(genders) == 1 else None
        if f and not m:
            return "f"
        if m and not f:
            return "m"
        if f and m:
            wf = self.weights.get("female_names", {}).get(key, 0.0)
            wm = self.weights.get("male_names", {}).get(key, 0.0)
            if wf > 2 * wm:
                return "f"
            if wm > 2 * wf:
                return "m"
            return None
        return self.world_given(first)[1]  # "Priya", "Oluwaseun": a name of another country

    def world_given(self, name: str) -> tuple[bool, str | None]:
        """(a given name somewhere in the world, its gender or None) for a name this language's lists
        do not know at all ("priya", "oluwaseun"): Faker's names of every locale (lang.names)."""
        from redactdesk.lang.folding import fold_key
        from redactdesk.lang.names import world_first_names

        first = name.split()[0] if name.split() else name
        if self.is_first_name(first) or self.contains("surnames", first):
            return False, None
        key = fold_key(first)
        table = world_first_names()
        return (key in table, table.get(key))

    def canonical(self, text: str) -> str:
        """Key of a name after spelling variants (Marc and Mark give the same key)."""
        k = norm(text)
        return self.variants.get(k, k)


def _read_list(path: Path) -> tuple[list[str], set[str]]:
    adds: list[str] = []
    removes: set[str] = set()
    if not path.exists():
        return adds, removes
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.split("#", 1)[0].strip() if not raw.lstrip().startswith("#") else ""
        if not line:
            continue
        if line.startswith("-"):
            removes.add(norm(line[1:]))
        else:
            adds.append(line)
    return adds, removes


def _lang_lists(language: str) -> tuple[dict[str, list[str]], dict[str, dict[str, float]]]:
    """Lists that come from redactdesk.lang (Faker's names and places, Babel's months), and the
    names' frequencies where Faker has them."""
    people, places = person(LOCALES[language]), address(LOCALES[language])
    out: dict[str, list[str]] = {"months": list(month_names(language))}
    weights: dict[str, dict[str, float]] = {}
    for name, attr in (("female_names", "first_names_female"), ("male_names", "first_names_male"),
                       ("surnames", "last_names")):
        data: Any = getattr(people, attr)
        out[name] = [str(n) for n in data]
        if isinstance(data, dict):
            weights[name] = {norm(str(k)): float(v) for k, v in data.items()}
    out["countries"] = [str(c) for c in getattr(places, "countries", ())]
    if language == "es":
        out["cities"] = [str(s) for s in getattr(places, "states", ())]
    return out, weights


def _read_table(path: Path, columns: int) -> list[list[str]]:
    rows = []
    if not path.exists():
        return rows
    for raw in path.read_text(encoding="utf-8").splitlines():
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        parts = [p.strip() for p in raw.split("\t")]
        if len(parts) != columns:
            raise SubstitutionError(f"{path}: expected {columns} tab-separated columns in {raw!r}")
        rows.append(parts)
    return rows


def _dedupe(items: Iterable[str], removed: set[str]) -> list[str]:
    seen: set[str] = set()
    out = []
    for it in items:
        k = norm(it)
        if k and k not in seen and k not in removed:
            seen.add(k)
            out.append(it)
    return out


@functools.lru_cache(maxsize=4)
def _base(language: str) -> Gazetteer:
    folder = resource("gazetteers", language)
    if not folder.is_dir():
        raise SubstitutionError(f"no gazetteers for language {language!r} (expected {folder})")
    lang_lists, weights = _lang_lists(language)
    lists: dict[str, list[str]] = {}
    for name in LISTS:
        adds, removes = _read_list(folder / f"{name}.txt")
        lists[name] = _dedupe([*lang_lists.get(name, []), *adds], removes)
    sf = ShortForms()
    for gender, full, shorts in _read_table(folder / "short_forms.tsv", 3):
        if gender not in ("f", "m"):
            raise SubstitutionError(f"short_forms.tsv: gender must be f or m, not {gender!r} ({full})")
        k = norm(full)
        forms = [s.strip() for s in shorts.split(",") if s.strip()]
        sf.full_to_short[k] = forms
        sf.gender_of_full[k] = gender
        sf.display[k] = full
        for s in forms:
            sf.short_to_full.setdefault(norm(s), []).append((full, gender))
    variants: dict[str, str] = {}
    adds, _ = _read_list(folder / "variants.txt")
    for line in adds:
        group = line.split()
        for v in group:
            variants[norm(v)] = norm(group[0])
    return Gazetteer(language, lists, weights, sf, variants, dict(spelling_words(language)))


def load_gazetteer(language: str, edits: Iterable[dict[str, Any]] | None = None) -> Gazetteer:
    """The gazetteer of ``language`` with project edits ``{category, entry, action}`` applied."""
    base = _base(check_language(language))
    edits = list(edits or [])
    if not edits:
        return base
    lists = {k: list(v) for k, v in base.lists.items()}
    for e in edits:
        cat, entry, action = e.get("category"), str(e.get("entry", "")).strip(), e.get("action")
        if cat not in lists:
            raise SubstitutionError(f"gazetteer edit names unknown list {cat!r}; known: {', '.join(LISTS)}")
        if action == "add":
            if norm(entry) not in {norm(x) for x in lists[cat]}:
                lists[cat].append(entry)
        elif action == "remove":
            lists[cat] = [x for x in lists[cat] if norm(x) != norm(entry)]
        else:
            raise SubstitutionError(f"gazetteer edit action must be 'add' or 'remove', not {action!r}")
    return Gazetteer(language, lists, base.weights, base.short_forms, base.variants, base.spelling_words)
