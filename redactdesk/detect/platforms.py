"""Services everybody uses and media everybody reads are nobody's organisation: "post it on
facebook", "what's new on the new york times", "yahoo news" (the issue's precision guard: media
types stay unflagged). One that an employer, greeting or market cue names ("i work at google",
"thank you for calling spotify", "stock prices for google"), or a job before it ("a reporter at The
New York Times"), stays: there it says where someone works or whom they called. The words: the
lexicon's ``media_platforms`` and the ``media_words`` said after them ("yahoo news", "spotify app").
"""

from __future__ import annotations

import functools

from redactdesk.core.types import Span
from redactdesk.detect.lists import DENY_SOURCE
from redactdesk.detect.occupations import job_before
from redactdesk.detect.sources import DetectDoc
from redactdesk.lang.lexicon import Lexicon, word_list

_CUES_BEFORE = ("org_cue_employer", "org_cue_greeting", "org_cue_market_before")
_CUE_WORDS_BEFORE = 4


def _bare(word: str) -> str:
    return word.strip(".,;:!?\"").lower().removesuffix("'s").removesuffix("’s")


@functools.lru_cache(maxsize=4)
def _platforms(lex: Lexicon) -> frozenset[tuple[str, ...]]:
    return frozenset(tuple(p.split()) for p in word_list(lex, "media_platforms"))


def platforms_are_no_employers(doc: DetectDoc, spans: list[Span]) -> list[Span]:
    """The spans without the organisations that are a service or medium said as such."""
    if doc.lex is None or not any(s.category == "ORGANIZATION" for s in spans):
        return spans
    platforms = _platforms(doc.lex)
    if not platforms:
        return spans
    media_words = word_list(doc.lex, "media_words")
    before = [ph for key in _CUES_BEFORE for ph in doc.lex.hot(key)]
    after = list(doc.lex.hot("org_cue_market_after"))
    out = []
    for s in spans:
        if s.category == "ORGANIZATION" and DENY_SOURCE not in s.sources:
            words = [_bare(w) for w in doc.words[s.start_word:s.end_word]]
            while len(words) > 1 and words[-1] in media_words:
                words.pop()
            start = s.start_word - (1 if s.start_word and doc.lower[s.start_word - 1] == "the" else 0)
            if tuple(words) in platforms and doc.find_phrase(before, start - _CUE_WORDS_BEFORE, start) is None \
                    and doc.find_phrase(after, s.end_word, s.end_word + 3) is None and not job_before(doc, start):
                continue
        out.append(s)
    return out
