"""A name given to a firm or a place is no person's: "a company called Acme Widgets", "a little town
called Paducah", "una empresa llamada Nortex". The name cue "called" reads a person after it ("a guy
called Dave"), and the revised text put someone's name where a firm or a town was said. After a noun of
the lexicon's ``named_bodies`` (a firm's, a place's) and "called" or "named", the name is that body."""

from __future__ import annotations

import dataclasses

from redactdesk.core.types import Span, SpanStatus
from redactdesk.detect.lists import DENY_SOURCE
from redactdesk.detect.sources import DetectDoc

_WORDS_BETWEEN = 2  # words that qualify the body between it and "called": "a small family company called"


def names_given_to_bodies(doc: DetectDoc, spans: list[Span]) -> list[Span]:
    """The spans with a person named after a firm's or a place's noun and "called" made that body."""
    lex = doc.lex
    if lex is None or not any(s.category == "PERSON" for s in spans):
        return spans
    bodies = lex.raw.get("named_bodies") or {}
    firms = frozenset(str(w) for w in bodies.get("organisations") or ())
    places = frozenset(str(w) for w in bodies.get("places") or ())
    naming = frozenset(str(w) for w in bodies.get("naming_words") or ())
    out = []
    for s in spans:
        w = s.start_word
        if s.category == "PERSON" and s.status == SpanStatus.SUGGESTED and DENY_SOURCE not in s.sources and (
                w >= 2 and doc.lower[w - 1] in naming):
            before = [doc.lower[k].strip(".,;:!?") for k in range(max(0, w - 2 - _WORDS_BETWEEN), w - 1)]
            kind = next(("ORGANIZATION" if b in firms else "LOCATION" for b in reversed(before)
                         if b in firms or b in places), None)
            if kind is not None:
                s = dataclasses.replace(s, category=kind, reason=f"a name given to a {kind.lower()} ({s.reason})")
        out.append(s)
    return out
