"""Postcodes as written or spelled: UK, Canada, the Netherlands, Ireland (Eircode), US ZIP / ZIP+4 and the
5-digit codes of Germany, France, Spain, Italy.

UK and Canadian codes have a shape nothing else has (letters and digits in set places): written
with their space they stand alone, in the official pattern or the looser one test data uses (any
letters in those places, "AB12 3CD"); without the space ("M11AA") they need a place beside them.
A Dutch "1012 AB" needs a city name or a postcode word beside it (``needs="place"``); US ZIP,
5-digit and unofficial Canadian codes may also follow a state or province ("IL 62704",
``needs="region"``). 5 digits on their own are a number, never a postcode.
"""

from __future__ import annotations

import functools
import re

from redactdesk.detect.char_spans import CharSpan

# UK: the Government Data Standards pattern (outward code, space, inward code)
_UK_STRICT = (r"(?:GIR ?0AA|[A-PR-UWYZ](?:\d{1,2}|[A-HK-Y]\d{1,2}|\d[A-HJKPSTUW]|[A-HK-Y]\d[ABEHMNPRVWXY])"
              r" ?\d[ABD-HJLNP-UW-Z]{2})")
_UK_LOOSE = r"(?:[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2})"
_CA_STRICT = r"(?:[ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z] ?\d[ABCEGHJ-NPRSTV-Z]\d)"
_CA_LOOSE = r"(?:[A-Z]\d[A-Z] ?\d[A-Z]\d)"
_NL = r"(?:(?:NL-?)?[1-9]\d{3} ?(?!SA|SD|SS)[A-Z]{2})"
_DIGITS = r"(?:\d{5}(?:-\d{4})?)"
# Ireland's Eircode: a routing key (letter and two digits, or "D6W") and a unique identifier of four
# letters and digits from the same reduced alphabet; mixing both, with its space, nothing else looks so
_IE_KEY = r"(?:[AC-FHKNPRTV-Y]\d{2}|D6W)"
_IE_ID = r"[\dAC-FHKNPRTV-Y]{4}"
_IE_MIXED = _IE_KEY + r" (?=[\dAC-FHKNPRTV-Y]{0,3}[A-Z])(?=[\dAC-FHKNPRTV-Y]{0,3}\d)" + _IE_ID
_EDGE_L = r"(?<![\w-])"
_EDGE_R = r"(?![\w-])"

_WRITTEN = [
    (re.compile(_EDGE_L + _UK_STRICT.replace(" ?", " ") + _EDGE_R), "UK", 0.8, ""),
    (re.compile(_EDGE_L + _CA_STRICT.replace(" ?", " ") + _EDGE_R), "Canadian", 0.8, ""),
    (re.compile(_EDGE_L + _UK_STRICT + _EDGE_R), "UK", 0.8, "place"),  # "M11AA": without its space
    (re.compile(_EDGE_L + _CA_STRICT + _EDGE_R), "Canadian", 0.8, "region"),
    (re.compile(_EDGE_L + r"[A-Z]{1,2}\d[A-Z\d]? \d[A-Z]{2}" + _EDGE_R), "UK-shaped", 0.6, ""),
    (re.compile(_EDGE_L + r"[A-Z]\d[A-Z] \d[A-Z]\d" + _EDGE_R), "Canadian-shaped", 0.6, ""),
    (re.compile(_EDGE_L + _UK_LOOSE + _EDGE_R), "UK-shaped", 0.6, "place"),
    (re.compile(_EDGE_L + _CA_LOOSE + _EDGE_R), "Canadian-shaped", 0.6, "region"),
    (re.compile(_EDGE_L + _NL + _EDGE_R), "Dutch", 0.75, "place"),
    (re.compile(_EDGE_L + _IE_MIXED + _EDGE_R), "Irish", 0.75, ""),
    (re.compile(_EDGE_L + _IE_KEY + " ?" + _IE_ID + _EDGE_R), "Irish-shaped", 0.6, "place"),
    (re.compile(_EDGE_L + _DIGITS + _EDGE_R), "5-digit", 0.75, "region"),
    # Japan's, behind its postal mark (the mark says it; "150-0041" alone is any reference)
    (re.compile(r"〒 ?\d{3}-?\d{4}" + _EDGE_R), "Japanese", 0.85, ""),
]
_SPOKEN = [
    (re.compile(_UK_STRICT.replace(" ?", "")), "UK", 0.7, ""),
    (re.compile(_CA_STRICT.replace(" ?", "")), "Canadian", 0.7, ""),
    (re.compile(_UK_LOOSE.replace(" ?", "")), "UK-shaped", 0.6, "place"),
    (re.compile(_CA_LOOSE.replace(" ?", "")), "Canadian-shaped", 0.6, "region"),
    (re.compile(r"[1-9]\d{3}(?!SA|SD|SS)[A-Z]{2}"), "Dutch", 0.7, "place"),
]
_QUICK = re.compile(r"\d")


def find_postcodes(text: str) -> list[CharSpan]:
    """Postcode-shaped strings in written text (case as written: codes are capitals), longest first."""
    if not _QUICK.search(text):
        return []
    found: list[CharSpan] = []
    for rx, kind, score, needs in _WRITTEN:
        for m in rx.finditer(text):
            value = m.group(0)
            need = "" if kind == "Dutch" and value.startswith("NL") else needs
            found.append(CharSpan(m.start(), m.end(), "POSTCODE", score, f"{kind} postcode", need))
    found.sort(key=lambda c: (-(c.end - c.start), c.needs != "", -c.score, c.start))
    out: list[CharSpan] = []
    for c in found:
        if not any(c.start < o.end and o.start < c.end for o in out):
            out.append(c)
    return sorted(out)


def spoken_postcode(compact: str) -> CharSpan | None:
    """A UK, Canadian or Dutch postcode spelled out (``compact``: its letters and digits, upper case)."""
    for rx, kind, score, needs in _SPOKEN:
        if rx.fullmatch(compact):
            return CharSpan(0, len(compact), "POSTCODE", score, f"{kind} postcode spelled out", needs)
    return None


# two-letter codes that are everyday English words: only as capitals in written text
_WORDLIKE = frozenset("in or me ok hi oh de pa ma la al co ga id mo ms mt nd ne wa va ct ar sc on pe nt nb ab".split())
# "ID" is written for "identification" far more often than for Idaho
_NEVER = frozenset({"id"})


@functools.lru_cache(maxsize=1)
def region_codes() -> tuple[frozenset[str], frozenset[str]]:
    """(US state and Canadian province abbreviations, US state and Canadian province names), lower case."""
    from redactdesk.lang.names import address

    Ca, Us = address("en_CA"), address("en_US")

    abbr = {a.lower() for a in (*Us.states_abbr, *Ca.provinces_abbr)}
    names = {n.lower() for n in (*Us.states, *Ca.provinces)}
    return frozenset(abbr), frozenset(names)


def is_region_code(word: str) -> bool:
    """"IL", "ON" as written, or "il" where the code is no English word (spoken transcripts are lower case)."""
    w = word.strip(",.;:")
    abbr, _ = region_codes()
    if w.lower() not in abbr or len(w) != 2 or w.lower() in _NEVER:
        return False
    return w.isupper() or w.lower() not in _WORDLIKE
