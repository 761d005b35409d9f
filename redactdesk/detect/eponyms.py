"""A disease, a law of nature or a method named after its discoverer names no one here: "parkinson's
disease", "Bell's palsy", "the Krebs cycle", "Newton's second law", "la enfermedad de Parkinson".

The taggers and the name lists read the discoverer's name as a person or an organisation, and the
revised text then gave a patient "Mendoza's disease". An eponym identifies no one in a call or a
transcript: :func:`eponyms_are_no_names` drops a person or organisation span of at most three words
right before one of the lexicon's ``eponym_heads``, or ending with one ("Krebs cycle"), or before an
ordinal and a head (with ``eponym_ordinal_heads``: "Newton's second law"; not "Smith's law firm"); in
Spanish after the head and "de" ("síndrome de Down").
What the project's deny list named stays, and so does a person with a title ("Dr. Parkinson").
"""

from __future__ import annotations

from collections.abc import Sequence

from redactdesk.core.types import Span
from redactdesk.detect.lists import DENY_SOURCE
from redactdesk.detect.sources import DetectDoc
from redactdesk.detect.worldnames import strip_word
from redactdesk.lang.lexicon import word_list

_KINDS = frozenset({"PERSON", "ORGANIZATION"})
_ORDINALS = frozenset({"first", "second", "third", "fourth", "zeroth", "primera", "segunda", "tercera", "primer"})
_HEAD_FIRST = frozenset({"es"})
_MAX_WORDS = 3
_TITLES = frozenset({"dr", "doctor", "mr", "mrs", "ms", "prof", "professor"})  # "Dr. Parkinson's clinic" is his


def _bare(word: str) -> str:
    """The word in lower case without its edge punctuation and possessive ("Parkinson's" -> parkinson)."""
    return strip_word(word).lower()


def _is_eponym(doc: DetectDoc, s: Span, heads: frozenset[str], after_ordinal: frozenset[str]) -> bool:
    words = [_bare(w) for w in doc.words[s.start_word:s.end_word]]
    if not words or len(words) > _MAX_WORDS + 1:
        return False
    if doc.language in _HEAD_FIRST:
        w = s.start_word
        return w >= 2 and doc.lower[w - 1] in ("de", "del") and _bare(doc.words[w - 2]) in heads
    if words[-1] in heads:
        return len(words) > 1  # "Krebs cycle"
    if len(words) > _MAX_WORDS or any(w.rstrip(".") in _TITLES for w in words[:1]):
        return False
    k = s.end_word
    if k + 1 < len(doc.words) and _bare(doc.words[k]) in _ORDINALS:
        return _bare(doc.words[k + 1]) in heads | after_ordinal  # "Newton's second law"
    return k < len(doc.words) and _bare(doc.words[k]) in heads


def eponyms_are_no_names(doc: DetectDoc, spans: Sequence[Span]) -> list[Span]:
    """The spans without the discoverers' names of eponyms read as persons or organisations."""
    if doc.lex is None or not any(s.category in _KINDS for s in spans):
        return list(spans)
    heads, after_ordinal = word_list(doc.lex, "eponym_heads"), word_list(doc.lex, "eponym_ordinal_heads")
    return [s for s in spans if not (s.category in _KINDS and DENY_SOURCE not in s.sources
                                     and _is_eponym(doc, s, heads, after_ordinal))]
