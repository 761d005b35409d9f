"""A word someone asks about is no name: "define swerving", "what is the meaning of serendipity",
"synonym for happy", "¿qué significa efímero?".

A tagger reads a rare word as a place or an organisation; asked to be defined, it is a word of the
language, and its surrogate would be somebody's place or firm (the issue's precision guard: what is
not personal data stays unflagged). :func:`asked_words_are_no_names` drops a name of one or two
words right after a cue of the lexicon's ``definition_cues`` unless a word of it is a listed name or
place ("define paris" is still Paris).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from redactdesk.core.types import Span
from redactdesk.detect.lists import DENY_SOURCE
from redactdesk.detect.sources import DetectDoc
from redactdesk.lang.folding import fold_key
from redactdesk.lang.lexicon import Lexicon, phrases

_NAMES = frozenset({"PERSON", "ORGANIZATION", "LOCATION", "CITY", "COUNTRY"})
_MAX_WORDS = 2


@functools.lru_cache(maxsize=4)
def _cues(lex: Lexicon) -> tuple[tuple[str, ...], ...]:
    return phrases((lex.raw or {}).get("definition_cues") or ())


def _listed(word: str) -> bool:
    from redactdesk.detect.places import load_places
    from redactdesk.detect.worldnames import load_world_names

    key = fold_key(word)
    return load_world_names().is_plain_name(key) or load_places().get(key) is not None


def asked_words_are_no_names(doc: DetectDoc, spans: Sequence[Span]) -> list[Span]:
    """The spans without the words asked about."""
    if doc.lex is None or not any(s.category in _NAMES for s in spans):
        return list(spans)
    cues = _cues(doc.lex)
    if not cues:
        return list(spans)
    out = []
    for s in spans:
        if s.category in _NAMES and DENY_SOURCE not in s.sources and s.end_word - s.start_word <= _MAX_WORDS \
                and any(s.start_word - len(ph) >= 0 and tuple(doc.lower[s.start_word - len(ph):s.start_word]) == ph
                        for ph in cues) \
                and not any(_listed(w) for w in doc.words[s.start_word:s.end_word]):
            continue
        out.append(s)
    return out
