"""Services everybody uses and media everybody reads are nobody's organisation: "post it on
facebook", "what's new on the new york times", "yahoo news" (the issue's precision guard: media
types stay unflagged). One that an employer, greeting or market cue names ("i work at google",
"thank you for calling spotify", "stock prices for google"), or a job before it ("a reporter at The
New York Times"), stays: there it says where someone works or whom they called. The words: the
lexicon's ``media_platforms`` and the ``media_words`` said after them ("yahoo news", "spotify app").
Kinds of music are media types too (:func:`genres_are_no_names`). SLURP devel odd ids: character
precision 83.4 -> 84.1 % for both, no item lost on any public dev set (``benchmarks/bench_detect_public.py``).
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
    if doc.lex is None or not any(s.category in ("ORGANIZATION", "LOCATION") for s in spans):
        return spans
    platforms = _platforms(doc.lex)
    if not platforms:
        return spans
    media_words = word_list(doc.lex, "media_words")
    before = [ph for key in _CUES_BEFORE for ph in doc.lex.hot(key)]
    after = list(doc.lex.hot("org_cue_market_after"))
    out = []
    for s in spans:
        if s.category == "LOCATION" and DENY_SOURCE not in s.sources and tuple(
                _bare(w) for w in doc.words[s.start_word:s.end_word]) in platforms:
            continue  # "my mom just discovered tiktok": a tagger's place that is a platform's name, no place
        if s.category == "ORGANIZATION" and DENY_SOURCE not in s.sources:
            words = [_bare(w) for w in doc.words[s.start_word:s.end_word]]
            while len(words) > 1 and words[-1] in media_words:
                words.pop()
            start = s.start_word - (1 if s.start_word and doc.lower[s.start_word - 1] == "the" else 0)
            if _said_as_platform(doc, s, words, platforms) and doc.find_phrase(
                    before, start - _CUE_WORDS_BEFORE, start) is None and doc.find_phrase(
                    after, s.end_word, s.end_word + 3) is None and not job_before(doc, start):
                continue
        out.append(s)
    return out


def _said_as_platform(doc: DetectDoc, s: Span, words: list[str], platforms: frozenset[tuple[str, ...]]) -> bool:
    """Is the organisation a platform's name: the whole of it ("yahoo"), its start with the rest of the
    name after the span ("new york" | "times": a tagger stopped early), or a platform and then only
    everyday words a tagger ran on over ("google the word")?"""
    if tuple(words) in platforms:
        return True
    rest = [_bare(w) for w in doc.words[s.end_word:s.end_word + 2]]
    if any(tuple(words + rest[:k]) in platforms for k in (1, 2)):
        return True
    from redactdesk.detect.worldnames import everyday_words

    everyday, stop = everyday_words(), doc.lex.stop_words if doc.lex else frozenset()
    raw = doc.words[s.start_word:s.end_word]
    return any(tuple(words[:k]) in platforms and all(w in stop or w in everyday for w in words[k:])
               and not any(w[:1].isupper() for w in raw[k:])  # "The Times Literary Supplement": a paper's name
               for k in range(1, len(words)))


_NAME_KINDS = frozenset({"PERSON", "ORGANIZATION", "LOCATION", "SPELLED_LETTERS"})


@functools.lru_cache(maxsize=4)
def _genres(lex: Lexicon) -> dict[str, tuple[tuple[str, ...], ...]]:
    """The lexicon's ``media_genres`` by their first word."""
    out: dict[str, list[tuple[str, ...]]] = {}
    for p in word_list(lex, "media_genres"):
        words = tuple(p.split())
        if words:
            out.setdefault(words[0], []).append(words)
    return {k: tuple(v) for k, v in out.items()}


@functools.lru_cache(maxsize=4)
def _genre_company(lex: Lexicon) -> frozenset[str]:
    """Words that may come with a kind of music in a span that names no one: the lexicon's function
    words and ``genre_modifiers`` ("garage rock", "electro synthpop")."""
    return lex.stop_words | frozenset(word_list(lex, "genre_modifiers"))


def genres_are_no_names(doc: DetectDoc, spans: list[Span]) -> list[Span]:
    """The spans without the kinds of music read as names: "who are the greatest hip hop artists", "i
    like r n b", "i am hip hop", "the garage rock of the late sixties", "an English punk rock band"
    (the issue's precision guard: media types). A span goes when it holds a genre of the lexicon's
    ``media_genres`` and its other words are function words, words said of music (``genre_modifiers``)
    or a nationality; with any other word in it ("Iggy Pop", "Rock Hudson", "Kid Rock") it stays."""
    from redactdesk.lang.folding import fold_key
    from redactdesk.lang.groups import load_groups

    if doc.lex is None or not any(s.category in _NAME_KINDS for s in spans):
        return spans
    genres = _genres(doc.lex)
    if not genres:
        return spans
    company = _genre_company(doc.lex)
    groups = load_groups(doc.language)
    out = []
    for s in spans:
        if s.category in _NAME_KINDS and DENY_SOURCE not in s.sources:
            words = [_bare(w) for w in doc.words[s.start_word:s.end_word]]
            inside = [(k, k + len(g)) for k, w in enumerate(words) for g in genres.get(w, ())
                      if tuple(words[k:k + len(g)]) == g]
            genre_words = {i for a, b in inside for i in range(a, b)}
            if inside and all(w in company or (groups is not None and (fold_key(w),) in groups.by_key)
                              for i, w in enumerate(words) if i not in genre_words):
                continue
        out.append(s)
    return out
