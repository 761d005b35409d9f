"""Language resources for detection: spoken-form words, hotwords, gazetteers (loaded once, cached)."""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any

import yaml

from redactdesk.detect.errors import UnsupportedLanguageError
from redactdesk.resources import resource

LANGUAGES = ("en", "es")

# Top-level domains accepted at the end of a spoken email or web address.
TLDS = frozenset(
    "com net org edu gov mil int io co uk es us ca de fr it mx ar cl pe cat eu info biz me tv ai app dev "
    "online site store shop xyz ly ie au nz br pt nl be ch at se no dk fi pl ru in jp cn org.uk".split()
)


def phrase_tuples(items: list[Any]) -> tuple[tuple[str, ...], ...]:
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


@functools.lru_cache(maxsize=4)
def load_lexicon(language: str = "en") -> Lexicon:
    """The lexicon for ``language`` ("en" or "es") from resources/detect/lexicon_<lang>.yaml."""
    lang = check_language(language)
    path = resource("detect", f"lexicon_{lang}.yaml")
    with path.open(encoding="utf-8") as fh:
        data = yaml.safe_load(fh)
    sp = data.get("spoken", {})
    hot = {k: phrase_tuples(v) for k, v in (data.get("hotwords") or {}).items()}
    stop = _spacy_stop_words(lang) | {str(w).lower() for w in data.get("stop_extra", ())}
    return Lexicon(
        language=lang,
        phone_region=str(data.get("phone_region", "US")),
        double=frozenset(sp.get("double", ())),
        triple=frozenset(sp.get("triple", ())),
        zero_words=frozenset(sp.get("zero_words", ())),
        fillers=frozenset(sp.get("fillers", ())),
        letter_as=phrase_tuples(sp.get("letter_as", ())),
        at=phrase_tuples(sp.get("at", ())),
        dot=phrase_tuples(sp.get("dot", ())),
        underscore=phrase_tuples(sp.get("underscore", ())),
        dash=phrase_tuples(sp.get("dash", ())),
        slash=phrase_tuples(sp.get("slash", ())),
        plus=frozenset(sp.get("plus", ())),
        nato={str(k).lower(): str(v) for k, v in (sp.get("nato") or {}).items()},
        letter_names={str(k).lower(): str(v) for k, v in (sp.get("letter_names") or {}).items()},
        unambiguous_letter_names=frozenset(sp.get("unambiguous_letter_names", ())),
        months={str(k).lower(): int(v) for k, v in (data.get("months") or {}).items()},
        ambiguous_months=frozenset(data.get("ambiguous_months", ())),
        weekdays=frozenset(data.get("weekdays", ())),
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
    from faker.providers.lorem.en_US import Provider as LoremEn

    names = set(_read_list("ambiguous_names.txt"))
    names |= {w.lower() for w in LoremEn.word_list}
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
    """Every word of the lexicon's hotword phrases except the name cues: words that frame an item
    ("number", "card", "email") and are never an item themselves."""
    return frozenset(
        w for key, phrases in lex.hotwords.items() if not key.startswith("name") and key != "org_suffix"
        for ph in phrases for w in ph
    )
