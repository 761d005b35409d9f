"""Numbered roads: a road's type and its number ("Route 9", "Highway 101", "Interstate 5", "state road
84", "I-95", "route nine", "highway one oh one", "la carretera N-340", "la ruta cinco").

Detection reads them as places (:mod:`redactdesk.detect.address_forms`): "we live just off Route 9"
says where someone lives, as a named street does. Substitution changes the number and keeps the type
(:mod:`redactdesk.substitute.places`): a numbered road read as a place or a firm became a town or a
company's name ("we live just off Kestrel Mutual near the mall", "a crash on Jersey City").
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from redactdesk.lang.digits import NUMBER_WORDS, OTHER_DIGIT_WORDS

# the words of a road's type, longest first where one opens another
ROAD_TYPES: dict[str, tuple[tuple[str, ...], ...]] = {
    "en": (("farm", "to", "market", "road"), ("state", "route"), ("state", "road"), ("state", "highway"),
           ("county", "road"), ("county", "route"), ("us", "route"), ("u.s", "route"), ("us", "highway"),
           ("u.s", "highway"), ("route",), ("rte",), ("highway",),
           ("hwy",), ("interstate",), ("freeway",), ("motorway",), ("turnpike",)),
    "es": (("ruta", "nacional"), ("carretera", "nacional"), ("ruta",), ("carretera",), ("ctra",), ("autovía",),
           ("autovia",), ("autopista",)),
}
# a road's number after its type: "9", "101A", "N-340", "A-7", "BR-116"
ROAD_NUMBER = re.compile(r"(?:[A-Z]{1,2}-?)?\d{1,4}[A-Z]?")
# a road written as one code, without a type word: "I-95", "US-101", "SR-84"
ROAD_CODE = re.compile(r"(?:I|US|SR|CR|FM)-\d{1,4}[A-Z]?")
_EDGE = ".,;:!?\"'()[]“”‘’"
DIRECTIONS = {"en": frozenset({"north", "south", "east", "west", "northbound", "southbound", "eastbound", "westbound",
                               "n", "s", "e", "w"}),
              "es": frozenset({"norte", "sur", "este", "oeste"})}


@functools.lru_cache(maxsize=4)
def _types_by_first(language: str) -> dict[str, tuple[tuple[str, ...], ...]]:
    out: dict[str, list[tuple[str, ...]]] = {}
    for phrase in ROAD_TYPES.get(language, ()):
        out.setdefault(phrase[0], []).append(phrase)
    return {k: tuple(v) for k, v in out.items()}  # longest first, as ROAD_TYPES lists them


@functools.lru_cache(maxsize=8)
def road_type_words(language: str) -> frozenset[str]:
    """The first words of the language's road types ("route", "highway", "state" ...)."""
    return frozenset(_types_by_first(language.split("_")[0]))


def road_type_at(lower: Sequence[str], i: int, language: str) -> int:
    """How many words of a road's type start at ``i`` in the lower-case words (0: none)."""
    phrases = _types_by_first(language.split("_")[0]).get(lower[i].strip(_EDGE)) if i < len(lower) else None
    for phrase in phrases or ():
        if tuple(w.strip(_EDGE) for w in lower[i:i + len(phrase)]) == phrase:  # "U.S." reads "u.s", "Hwy." "hwy"
            return len(phrase)
    return 0


def is_numbered_road(tokens: Sequence[str], language: str) -> bool:
    """Are ``tokens`` (as written, punctuation included) one numbered road and nothing else: its type,
    then its number in digits, as a code or in words ("Route 9", "highway one oh one", "I-95")?"""
    lang = language.split("_")[0]
    cores = [t.strip(_EDGE) for t in tokens]
    cores = [c for c in cores if c]
    if len(cores) > 1 and cores[-1].lower() in DIRECTIONS.get(lang, ()):
        cores = cores[:-1]  # "I-95 north", "Route 9 East": the way one drives on it
    if len(cores) == 1:
        return bool(ROAD_CODE.fullmatch(cores[0]))
    k = road_type_at([c.lower() for c in cores], 0, lang)
    rest = cores[k:]
    if not k or not rest or len(rest) > 5:
        return False
    if len(rest) == 1 and ROAD_NUMBER.fullmatch(rest[0].upper() if lang == "es" else rest[0]):
        return True
    words = NUMBER_WORDS.get(lang, frozenset()) | frozenset(OTHER_DIGIT_WORDS.get(lang, {}))
    return all(c.lower() in words or c.lower() in ("and", "y") for c in rest) and rest[0].lower() not in ("and", "y")
