"""A war, a revolution or an uprising is no name: "the falklands war", "the French Revolution",
"world war two", "la guerra civil española".

The taggers read such events as organisations, and the revised text then put a firm where history
was ("during the lucerne publishing" for "during the falklands war"). An event of history identifies
no one: :func:`events_are_no_names` drops a person or organisation span whose head word is one of
the lexicon's ``event_heads`` (:func:`is_event`). What the project's deny list named stays.
"""

from __future__ import annotations

from collections.abc import Sequence

from redactdesk.core.types import Span
from redactdesk.detect.lists import DENY_SOURCE
from redactdesk.detect.places import load_places
from redactdesk.detect.sources import DetectDoc
from redactdesk.detect.worldnames import strip_word
from redactdesk.lang.digits import NUMBER_WORDS
from redactdesk.lang.folding import fold_key
from redactdesk.lang.lexicon import word_list

_KINDS = frozenset({"PERSON", "ORGANIZATION"})
_NUMERALS = frozenset({"i", "ii", "iii", "iv", "1", "2", "3", "4"})
_HEAD_FIRST = frozenset({"es"})  # languages that name the event first: "guerra de ..."


def is_event(words: Sequence[str], language: str, heads: frozenset[str]) -> bool:
    """Do lower-case ``words`` name an event by its head: the last word before a number ("world war
    two", "the French Revolution"), or the first before "of" ("the Battle of Hastings", "War of
    1812"), and in Spanish the first ("guerra civil española", "batalla de Ayacucho")?"""
    if len(words) < 2:
        return False
    if words[0] in heads and (language in _HEAD_FIRST or words[1] in ("of", "de", "del")):
        return True
    numbers = NUMBER_WORDS.get(language, frozenset())
    k = len(words)
    while k > 1 and (words[k - 1] in _NUMERALS or words[k - 1] in numbers):
        k -= 1
    return language not in _HEAD_FIRST and words[k - 1] in heads


def events_are_no_names(doc: DetectDoc, spans: Sequence[Span]) -> list[Span]:
    """The spans without the events of history read as persons or organisations."""
    if doc.lex is None or not any(s.category in _KINDS for s in spans):
        return list(spans)
    heads = word_list(doc.lex, "event_heads")
    out = []
    for s in spans:
        words = [w for w in (strip_word(x).lower() for x in doc.words[s.start_word:s.end_word]) if w]
        if s.category in _KINDS and DENY_SOURCE not in s.sources and is_event(words, doc.language, heads):
            whose = _place_whose(doc, s)
            if whose is not None:  # "australia's post world war ii ...": the country stays
                out.append(whose)
            continue
        out.append(s)
    return out


def _place_whose(doc: DetectDoc, s: Span) -> Span | None:
    """The place of the list said with a possessive at the start of an event's span ("australia's
    civil war", "Britain's war"), as a span of its own; None where there is none."""
    first = doc.words[s.start_word].replace("’", "'")
    if not first.lower().endswith("'s"):
        return None
    place = load_places().get(fold_key(strip_word(first)))
    if place is None or place.category not in ("CITY", "COUNTRY", "LOCATION"):
        return None
    return Span(s.start_word, s.start_word + 1, place.category, score=s.score, sources=s.sources,
                reason=f"the place whose event this is ({s.reason})")
