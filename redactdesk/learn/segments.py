"""Utterance segments: the stretches of a call the learner is asked about, never a whole call.

Active learning ranks *utterances*. A turn of one speaker is the natural one, but a mono call
without speaker turns (one speaker, or words without speakers) is one long "turn": it used to top
the queue with an entropy sum of 80+ next to single turns at 9, and asking a person to settle a
whole call is not a question. So:

- speaker turns (``conv.turns``, else consecutive words of one speaker) are kept as they are when
  they last at most :data:`MAX_SECONDS` and hold at most :data:`MAX_WORDS` words;
- a longer stretch is cut at its longest pause between words, again and again, until every piece
  fits (pieces without times are cut in the middle, so the word cap still holds).

Every segment is a :class:`~redactdesk.core.types.Turn` over the conversation's word indices, so
the labelled rule of :mod:`redactdesk.learn.utterances` applies to it unchanged.
"""

from __future__ import annotations

from redactdesk.core.types import Conversation, Turn, Word

MAX_SECONDS = 30.0  # the longest segment a person is asked to settle
MAX_WORDS = 100  # and its most words (also when times are missing or bogus)


def _fits(words: list[Word], a: int, b: int, max_seconds: float, max_words: int) -> bool:
    if b - a > max_words:
        return False
    return words[b - 1].end - words[a].start <= max_seconds


def _cut(words: list[Word], a: int, b: int) -> int:
    """Where to cut ``words[a:b]``: before the word after the longest pause (ties: nearest the middle)."""
    mid = (a + b) / 2
    best, best_key = a + (b - a) // 2, None
    for i in range(a + 1, b):
        gap = words[i].start - words[i - 1].end
        key = (gap, -abs(i - mid))
        if best_key is None or key > best_key:
            best, best_key = i, key
    return best


def split_turn(words: list[Word], turn: Turn, *, max_seconds: float = MAX_SECONDS,
               max_words: int = MAX_WORDS) -> list[Turn]:
    """``turn`` as pieces of at most ``max_seconds`` and ``max_words``, cut at the longest pauses."""
    out: list[Turn] = []
    stack = [(turn.start_word, turn.end_word)]
    while stack:
        a, b = stack.pop()
        if b <= a:
            continue
        if b - a == 1 or _fits(words, a, b, max_seconds, max_words):
            out.append(Turn(speaker=turn.speaker, start_word=a, end_word=b, channel=turn.channel))
            continue
        c = _cut(words, a, b)
        stack += [(c, b), (a, c)]  # left piece first out
    return out


def utterance_segments(conv: Conversation, *, max_seconds: float = MAX_SECONDS,
                       max_words: int = MAX_WORDS) -> list[Turn]:
    """The conversation's utterances as word ranges (see the module docstring), in word order."""
    turns = conv.turns if conv.turns else conv.turns_from_speakers()
    out: list[Turn] = []
    for t in turns:
        out += split_turn(conv.words, t, max_seconds=max_seconds, max_words=max_words)
    return out
