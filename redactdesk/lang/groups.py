"""Nationalities, ethnic groups, religions and political groups (category NRP): one list per
language (``resources/detect/nrp_<lang>.tsv``), read by detection (which words are such a group)
and substitution (another group of the same kind in its place)."""

from __future__ import annotations

import functools
from dataclasses import dataclass

from redactdesk.lang.folding import fold_key

KINDS = ("nationality", "ethnicity", "religion", "politics")
# a listed phrase with one of these words is a political party's name ("Labour Party", "Partido Popular")
PARTY_WORDS = frozenset({"party", "partido"})


@dataclass(frozen=True)
class Groups:
    """Entries as written, their kind, and an index by folded words (longest phrase first)."""

    entries: dict[str, str]  # written form -> kind
    by_key: dict[tuple[str, ...], str]  # folded words -> written form
    longest: int

    def kind_of(self, text: str) -> str | None:
        key = tuple(fold_key(w) for w in text.split())
        written = self.by_key.get(key) or (self.base_of(key[0]) if len(key) == 1 else None)
        return self.entries[written] if written else None

    def base_of(self, key: str) -> str | None:
        """The listed group (as written) a word is a form of: its plural ("brazilians", "hindus"; Spanish
        "colombianos", "musulmanes") or a person of it ("frenchwoman", "englishmen"); None for other words
        and for the listed words themselves."""
        if len(key) < 5 or (key,) in self.by_key:
            return None
        for ending in ("s", "es"):
            if key.endswith(ending) and (key[:-len(ending)],) in self.by_key:
                return self.by_key[(key[:-len(ending)],)]
        for suffix in ("woman", "women", "man", "men"):
            if key.endswith(suffix) and (key[:-len(suffix)],) in self.by_key:
                return self.by_key[(key[:-len(suffix)],)]
        return None

    def of_kind(self, kind: str) -> list[str]:
        return [w for w, k in self.entries.items() if k == kind]


@functools.lru_cache(maxsize=4)
def load_groups(language: str) -> Groups | None:
    """The list for ``language`` (cached), or None when there is none."""
    from redactdesk.resources import resource

    path = resource("detect", f"nrp_{language}.tsv")
    if not path.exists():
        return None
    entries: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        word, _, kind = line.partition("\t")
        if kind.strip() in KINDS:
            entries[word.strip()] = kind.strip()
    by_key = {tuple(fold_key(w) for w in e.split()): e for e in entries}
    return Groups(entries, by_key, max((len(k) for k in by_key), default=1))
