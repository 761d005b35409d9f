"""The lexicon: spoken-form words, hotwords and word lists of a language (loaded once, cached).

resources/detect/lexicon_<lang>.yaml holds what is said ("double", "as in", "arroba", hotwords);
month and weekday names come from :mod:`redactdesk.lang.calendar` (Babel), not from the YAML.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any

from redactdesk.lang.calendar import month_abbreviations, month_words, weekday_words
from redactdesk.lang.errors import UnsupportedLanguageError
from redactdesk.lang.names import lorem_words
from redactdesk.resources import read_yaml, resource

LANGUAGES = ("en", "es")

# Top-level domains accepted at the end of a spoken email or web address.
TLDS = frozenset(
    "com net org edu gov mil int io co uk es us ca de fr it mx ar cl pe cat eu info biz me tv ai app dev "
    "online site store shop xyz ly ie au nz br pt nl be ch at se no dk fi pl ru in jp cn org.uk".split()
)


def phrases(items: list[Any]) -> tuple[tuple[str, ...], ...]:
    """Phrases as tuples of lower-case words (a YAML string may hold several words)."""
    out = []
    for item in items or ():
        if isinstance(item, bool) or (isinstance(item, list) and any(isinstance(w, bool) for w in item)):
            raise ValueError(f"lexicon phrase {item!r} was read as a YAML boolean: quote yes/no/on/off")
        words = tuple(str(w).lower() for w in item) if isinstance(item, list) else tuple(str(item).lower().split())
        if words:
            out.append(words)
    return tuple(out)


@dataclass(frozen=True, eq=False)
class Lexicon:
    """Everything language-specific the normaliser and recognizers use."""

    language: str
    phone_region: str
    double: frozenset[str]
    triple: frozenset[str]
    zero_words: frozenset[str]
    fillers: frozenset[str]
    letter_as: tuple[tuple[str, ...], ...]
    at: tuple[tuple[str, ...], ...]
    dot: tuple[tuple[str, ...], ...]
    underscore: tuple[tuple[str, ...], ...]
    dash: tuple[tuple[str, ...], ...]
    slash: tuple[tuple[str, ...], ...]
    plus: frozenset[str]
    nato: dict[str, str]
    letter_names: dict[str, str]
    unambiguous_letter_names: frozenset[str]
    months: dict[str, int]
    ambiguous_months: frozenset[str]
    weekdays: frozenset[str]
    hotwords: dict[str, tuple[tuple[str, ...], ...]]
    stop_words: frozenset[str]
    raw: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def hot(self, key: str) -> tuple[tuple[str, ...], ...]:
        return self.hotwords.get(key, ())


def check_language(language: str) -> str:
    lang = (language or "en").lower().split("-")[0].split("_")[0]
    if lang not in LANGUAGES:
        raise UnsupportedLanguageError(
            f"detection has no lexicon for language {language!r}; supported: {', '.join(LANGUAGES)}"
        )
    return lang


def _spacy_stop_words(lang: str) -> frozenset[str]:
    if lang == "es":
        from spacy.lang.es.stop_words import STOP_WORDS
    else:
        from spacy.lang.en.stop_words import STOP_WORDS
    return frozenset(STOP_WORDS)


def _months(language: str, abbreviations: bool) -> dict[str, int]:
    """Month words of the lexicon: full names (regional spellings too) and, where the lexicon says
    so, abbreviations ("jan", "sept"; not in Spanish, where "mar" is the sea)."""
    return {**month_words(language), **(month_abbreviations(language) if abbreviations else {})}


@functools.lru_cache(maxsize=4)
def load_lexicon(language: str = "en") -> Lexicon:
    """The lexicon for ``language`` ("en" or "es") from resources/detect/lexicon_<lang>.yaml."""
    lang = check_language(language)
    path = resource("detect", f"lexicon_{lang}.yaml")
    with path.open(encoding="utf-8") as fh:
        data = read_yaml(fh)
    sp = data.get("spoken", {})
    hot = {k: phrases(v) for k, v in (data.get("hotwords") or {}).items()}
    stop = _spacy_stop_words(lang) | {str(w).lower() for w in data.get("stop_extra", ())}
    return Lexicon(
        language=lang,
        phone_region=str(data.get("phone_region", "US")),
        double=frozenset(sp.get("double", ())),
        triple=frozenset(sp.get("triple", ())),
        zero_words=frozenset(sp.get("zero_words", ())),
        fillers=frozenset(sp.get("fillers", ())),
        letter_as=phrases(sp.get("letter_as", ())),
        at=phrases(sp.get("at", ())),
        dot=phrases(sp.get("dot", ())),
        underscore=phrases(sp.get("underscore", ())),
        dash=phrases(sp.get("dash", ())),
        slash=phrases(sp.get("slash", ())),
        plus=frozenset(sp.get("plus", ())),
        nato={str(k).lower(): str(v) for k, v in (sp.get("nato") or {}).items()},
        letter_names={str(k).lower(): str(v) for k, v in (sp.get("letter_names") or {}).items()},
        unambiguous_letter_names=frozenset(sp.get("unambiguous_letter_names", ())),
        months=_months(lang, bool(data.get("month_abbreviations", False))),
        ambiguous_months=frozenset(data.get("ambiguous_months", ())),
        weekdays=weekday_words(lang),
        hotwords=hot,
        stop_words=stop,
        raw=data,
    )


def _read_list(name: str) -> list[str]:
    path = resource("detect", name)
    out = []
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            line = line.split("#", 1)[0].strip().lower()
            if line:
                out.append(line)
    return out


@functools.lru_cache(maxsize=1)
def ambiguous_names() -> frozenset[str]:
    """Names that are also everyday words (resources/detect/ambiguous_names.txt + Faker's lorem words)."""
    names = set(_read_list("ambiguous_names.txt"))
    names |= {w.lower() for w in lorem_words()}
    return frozenset(names)


@functools.lru_cache(maxsize=1)
def default_allow() -> tuple[str, ...]:
    """The bundled allow list (resources/detect/allow_default.txt)."""
    return tuple(_read_list("allow_default.txt"))


@functools.lru_cache(maxsize=1)
def city_names() -> frozenset[str]:
    return frozenset(_read_list("cities.txt"))


@functools.lru_cache(maxsize=4)
def context_words(lex: Lexicon) -> frozenset[str]:
    """Every word of the lexicon's hotword phrases except the name and organisation cues: words
    that frame an item ("number", "card", "email") and are never an item themselves."""
    return frozenset(
        w for key, said in lex.hotwords.items() if not key.startswith(("name", "org_"))
        for ph in said for w in ph
    )


def _lexicon_of(language: str) -> Lexicon:
    """The lexicon of ``language``, English for a language without one."""
    return load_lexicon("es" if language == "es" else "en")


@functools.lru_cache(maxsize=4)
def relative_date_words(language: str) -> frozenset[str]:
    """Words of dates said relative to the call ("tomorrow", "next", "friday", "weekend"): the
    lexicon's ``relative_dates`` block, weekdays and month names. An item made only of these and
    function words identifies no day on its own, so the leak scan does not search for it."""
    lex = _lexicon_of(language)
    rel = lex.raw.get("relative_dates") or {}
    out: set[str] = set(lex.weekdays) | set(lex.months)
    for key in ("days", "modifiers", "units", "ordinals", "tens", "day_prepositions"):
        for w in rel.get(key, ()):
            out |= set(str(w).lower().split())
    for phrase in rel.get("phrases", ()):
        out |= {str(w).lower() for w in phrase}
    return frozenset(out)


@functools.lru_cache(maxsize=4)
def month_and_day_words(language: str) -> tuple[frozenset[str], frozenset[str]]:
    """Month names, and the words that say a day of the month ("fifth", "twenty"), of ``language``."""
    lex = _lexicon_of(language)
    rel = lex.raw.get("relative_dates") or {}
    days = frozenset(str(w).lower() for key in ("ordinals", "tens") for w in rel.get(key, ()))
    return frozenset(lex.months), days


@functools.lru_cache(maxsize=256)
def word_list(lex: Lexicon, key: str) -> frozenset[str]:
    """A plain word list of the lexicon file (``kin_words``, ``name_tail_words`` ...), read once (the
    detectors ask per hit and per number)."""
    return frozenset(str(w) for w in (lex.raw.get(key) or ()))
