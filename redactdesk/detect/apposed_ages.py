"""A person's age written beside their name, as news and reports write it: "John Miller, 43, of
Leeds", "Anna Berg, 29, a nurse". No cue word says "age" there; the number is an age because it
stands set off by commas right after a name the vote found. Added after the vote (the rule sources
read no names); in writing, where the commas are the writer's, and in speech only before "of" or
"from" and a place ("marcus whitfield thirty four of dayton").

A number in brackets after a name is no age as often as it is one: sports reports give points and
seeds so ("Dwight Howard (14)", "Amélie Mauresmo (29)": five such in 400 sentences of the written
public dev set, no age among them), so "Rosa Delgado (72)" is left to a cue ("(aged 72)").
"""

from __future__ import annotations

import re

from redactdesk.core.types import Span, SpanStatus
from redactdesk.detect.sources import DetectDoc

SOURCE = "patterns"
MAX_AGE = 120
_BETWEEN_COMMAS = re.compile(r"(\d{1,3})[,;]")  # "43," "43;"


def ages_after_names(doc: DetectDoc, spans: list[Span]) -> list[Span]:
    """The spans with an AGE span for each number set off right after a PERSON span."""
    if not any(s.category == "PERSON" for s in spans):
        return spans
    if not doc.cased():
        spans = _said_ages_after_names(doc, spans)
    if doc.starts is not None:
        return spans  # a timed transcript's commas are the recogniser's guesses
    taken = {k for s in spans for k in range(s.start_word, s.end_word)}
    words, n = doc.words, len(doc.words)
    added = []
    for s in spans:
        w = s.end_word
        if s.category != "PERSON" or w >= n or w in taken:
            continue
        word = words[w].strip()
        m = _BETWEEN_COMMAS.fullmatch(word) if words[w - 1].rstrip().endswith(",") else None
        # "Miller, 43, of Leeds", the sentence going on; not "Miller, 43 Elm Street", nor a list's
        # "Cory Paterson, 13." / "1983 – Dan Petry, 38" (a shirt number, a score: the public dev set's
        # two such at its ends were no ages)
        if m is None or word[-1:] not in ",;" or w + 1 == n or not 1 <= int(m.group(1)) <= MAX_AGE:
            continue
        added.append(Span(w, w + 1, "AGE", SpanStatus.SUGGESTED, 0.7, (SOURCE,),
                          "a number set off right after a person's name: their age"))
    if not added:
        return spans
    return sorted(spans + added, key=lambda s: (s.start_word, s.end_word))


_PLACES = frozenset({"CITY", "LOCATION", "COUNTRY", "ADDRESS"})
_FROM = {"en": frozenset({"of", "from"}), "es": frozenset({"de"})}  # "juan pérez treinta y cuatro de sevilla"


def _said_ages_after_names(doc: DetectDoc, spans: list[Span]) -> list[Span]:
    """Said, news reads the age the same way without the commas: "marcus whitfield thirty four of
    dayton was charged". With no comma to set it off, the number counts only between a person and
    "of" or "from" and a place the vote found ("john smith forty two from leeds")."""
    said_from = _FROM.get(doc.language.split("_")[0], frozenset())
    places = {s.start_word for s in spans if s.category in _PLACES}
    taken = {k for s in spans for k in range(s.start_word, s.end_word)}
    n = len(doc.words)
    added = []
    for s in spans:
        w = s.end_word
        t = doc.norm.token_of_word(w) if s.category == "PERSON" and w < n and w not in taken else None
        if t is None:
            continue
        tok = doc.norm.tokens[t]
        e = tok.w1
        if tok.kind != "num" or tok.w0 != w or tok.ordinal or not tok.text.isdigit() or e + 1 >= n or (
                doc.lower[e] not in said_from or e + 1 not in places or any(k in taken for k in range(w, e))
                or not 1 <= int(tok.text) <= MAX_AGE or any(b in range(w + 1, e + 2) for b in doc.breaks)):
            continue
        added.append(Span(w, e, "AGE", SpanStatus.SUGGESTED, 0.7, (SOURCE,),
                          "a number said right after a person's name, before where they are from: their age"))
    if not added:
        return spans
    return sorted(spans + added, key=lambda s: (s.start_word, s.end_word))

