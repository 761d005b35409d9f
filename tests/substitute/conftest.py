"""Builders for small conversations with accepted spans, said the way callers say things."""

from __future__ import annotations

import pytest

from redactdesk.core.types import Conversation, Span, SpanStatus, Turn, Word

SECRET = "test-project-secret"


def build(lines: list[tuple[str, str]], spans: list[tuple[int, str, str] | tuple[int, str, str, str]],
          *, cid: str = "call_1", language: str = "en") -> Conversation:
    """``lines``: (speaker, text); ``spans``: (line index, exact phrase in that line, category[, entity]).

    A phrase is found by its words; the n-th repeat of the same (line, phrase) takes the next match.
    """
    words: list[Word] = []
    turns: list[Turn] = []
    starts: list[int] = []
    t = 0.0
    for speaker, text in lines:
        starts.append(len(words))
        first = len(words)
        for tok in text.split():
            words.append(Word(tok, round(t, 3), round(t + 0.3, 3), 0.9, speaker))
            t += 0.4
        turns.append(Turn(speaker, first, len(words)))
        t += 0.5
    out: list[Span] = []
    used: dict[tuple[int, str], int] = {}
    for n, spec in enumerate(spans):
        line, phrase, category = spec[0], spec[1], spec[2]
        entity = spec[3] if len(spec) > 3 else None
        toks = phrase.split()
        a, b = turns[line].start_word, turns[line].end_word
        hits = [i for i in range(a, b - len(toks) + 1) if [w.text for w in words[i : i + len(toks)]] == toks]
        k = used.get((line, phrase), 0)
        if len(hits) <= k:
            raise AssertionError(f"phrase {phrase!r} not found in line {line}")
        used[(line, phrase)] = k + 1
        out.append(Span(hits[k], hits[k] + len(toks), category, SpanStatus.ACCEPTED, 1.0, ("test",), "", entity,
                        id=n + 1))
    return Conversation(id=cid, language=language, words=words, turns=turns, spans=out)


@pytest.fixture
def make_conv():
    return build


@pytest.fixture
def secret() -> str:
    return SECRET
