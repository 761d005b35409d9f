"""The name of an identifier scheme before its number is no person, place or organisation.

"NIF: B64717838", "My CPF is 390.533.447-05", "SIRET 73282932000074", "My European Excise Number is
LU 987ABC": the taggers read the scheme's acronym or name as an organisation (or a person), and the
vote flagged it beside the number. A scheme identifies no one; the number after it does, and stays.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from redactdesk.core.types import Span
from redactdesk.detect.sources import DetectDoc

# numbers a scheme's name may stand before
IDENTIFIERS = frozenset({"ES_ID", "SSN", "NATIONAL_ID", "VAT_ID", "PASSPORT", "GENERIC_ID", "MAC_ADDRESS", "IP_ADDRESS"})
# numbers whose format names a scheme: only before these is an unlisted acronym taken for one ("my HSBC
# number is 12345678" keeps the bank: a reference says nothing of whose it is)
VALIDATED = IDENTIFIERS - {"GENERIC_ID"}
_NAMES = frozenset({"PERSON", "ORGANIZATION", "LOCATION"})
# words before a scheme's name ("my CPF", "the UID") and between it and the number ("NIF: ...", "CPF is ...")
_BEFORE = frozenset({"my", "your", "his", "her", "our", "their", "its", "the", "a", "an",
                     "mi", "tu", "su", "nuestro", "nuestra", "el", "la", "un", "una"})
_BETWEEN = frozenset({"is", "was", "number", "no", "nr", "num", "#", "reads", "of", "=", "-", ":",
                      "es", "era", "número", "numero", "nº", "n.º", "de", "del",  # "mi DNI es 12345678Z"
                      "it's", "it", "that's"})  # asked and answered: "What is Ayumi's SSN? It's 532-41-9987"
_HEADS = frozenset({"number", "numbers", "identifier", "id", "code", "no", "nr"})
_GAP = 3  # words at most between the name and the number
_HOTWORD_KEYS = ("ssn", "passport", "es_id", "generic_id")


def _bare(word: str) -> str:
    return word.strip(".,;:!?\"'()[]")


@functools.lru_cache(maxsize=4)
def scheme_words(lex: Any) -> frozenset[str]:
    """Every word of the lexicon's identifier names (``identifier_words``) and of the identifier
    hotwords: "nif", "cpf", "siret", "vat", "social", "security", "passport" ..."""
    out: set[str] = set()
    for phrases in (lex.raw.get("identifier_words") or {}).values():
        for ph in phrases or ():
            out.update(str(ph).lower().split())
    for key in _HOTWORD_KEYS:
        for ph in lex.hotwords.get(key, ()):
            out.update(ph)
    return frozenset(out)


def _identifier_follows(doc: DetectDoc, end: int, id_starts: dict[int, str]) -> str | None:
    """The category of the identifier starting at most ``_GAP`` words after ``end``, or None."""
    w = end
    for _ in range(_GAP + 1):
        if w >= len(doc.words) or w in doc.breaks:  # another turn is another answer
            return None
        if w in id_starts:
            return id_starts[w]
        token = _bare(doc.lower[w])
        if token and token not in _BETWEEN and not _acronym(doc.words[w]):
            return None
        w += 1
    return None


def _names_a_scheme(doc: DetectDoc, s: Span, words: frozenset[str], before: str) -> bool:
    w0 = s.start_word
    while w0 < s.end_word and _bare(doc.lower[w0]) in _BEFORE:
        w0 += 1
    core = [_bare(w) for w in doc.lower[w0:s.end_word]]
    core = [w for w in core if w]
    if not core:
        return False
    if all(w in words for w in core) or core[-1] in _HEADS:
        return True
    return before in VALIDATED and s.end_word - w0 == 1 and _acronym(doc.words[w0])


def _acronym(word: str) -> bool:
    """One word of 2 to 6 capitals ("CPF", "SIRET"; "NIFp" too): a scheme's short name."""
    token = _bare(word)
    return 2 <= len(token) <= 6 and token.isalpha() and token[:2].isupper() and sum(c.isupper() for c in token) >= len(token) - 1


def schemes_are_no_names(doc: DetectDoc, spans: Sequence[Span]) -> list[Span]:
    """Drop a PERSON, ORGANIZATION or LOCATION that names the identifier scheme of the number right
    after it (at most three words apart: "is", "number", ":", other acronyms — "NIPT, NUIS is"): its words are all the lexicon's
    identifier words ("CPF", "social security"), it ends in "number"/"id"/"code", or it is one
    acronym in capitals before a number of a validated format ("SIRET 73282932000074"; before a mere
    reference, "my HSBC number is 12345678", the acronym stays). Without a number after it, it stays."""
    id_starts = {s.start_word: s.category for s in spans if s.category in IDENTIFIERS}
    if not id_starts or not any(s.category in _NAMES for s in spans):
        return list(spans)
    words = scheme_words(doc.lex) if doc.lex else frozenset()
    out = []
    for s in spans:
        after = _identifier_follows(doc, s.end_word, id_starts) if s.category in _NAMES else None
        if after is None or not _names_a_scheme(doc, s, words, after):
            out.append(s)
    return out
