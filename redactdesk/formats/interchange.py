"""Text views of a conversation shared by the annotation-tool formats (Label Studio, Prodigy,
doccano, spaCy): turns as paragraphs of words joined by single spaces, with every word's character
offsets, so that labels drawn over characters map back to whole words.

Why one module: every tool counts characters over the text we gave it; writing and reading must
build that text the same way, or offsets drift.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from redactdesk.core.types import Conversation, Span, SpanStatus, Word


@dataclass(frozen=True)
class Paragraph:
    """One turn as text: ``offsets[k]`` = (word index, first char, char after) of its k-th word."""

    speaker: str
    text: str
    start: float
    end: float
    offsets: tuple[tuple[int, int, int], ...]


def join_words(words: Sequence[Word], first_index: int = 0) -> tuple[str, tuple[tuple[int, int, int], ...]]:
    """Words joined by single spaces, and each word's (index, start char, end char)."""
    parts: list[str] = []
    offsets: list[tuple[int, int, int]] = []
    pos = 0
    for k, w in enumerate(words):
        if k:
            pos += 1
        parts.append(w.text)
        offsets.append((first_index + k, pos, pos + len(w.text)))
        pos += len(w.text)
    return " ".join(parts), tuple(offsets)


def paragraphs(conv: Conversation) -> list[Paragraph]:
    """The conversation's turns as paragraphs (a turnless conversation is one paragraph)."""
    turns = conv.turns or conv.turns_from_speakers()
    out = []
    for t in turns:
        ws = conv.words[t.start_word:t.end_word]
        if not ws:
            continue
        text, offsets = join_words(ws, t.start_word)
        out.append(Paragraph(t.speaker, text, ws[0].start, ws[-1].end, offsets))
    return out


def whole_text(conv: Conversation) -> tuple[str, tuple[tuple[int, int, int], ...]]:
    """All words of the conversation as one text (turn breaks as single spaces)."""
    return join_words(conv.words)


def words_in_chars(offsets: Sequence[tuple[int, int, int]], start: int, end: int) -> tuple[int, int] | None:
    """The word range ``[first, last + 1)`` of the words overlapping characters ``[start, end)``."""
    inside = [i for i, a, b in offsets if a < end and start < b]
    return (inside[0], inside[-1] + 1) if inside else None


def char_range(offsets: Sequence[tuple[int, int, int]], start_word: int, end_word: int) -> tuple[int, int] | None:
    """Characters ``[start, end)`` of the words ``[start_word, end_word)`` (None when not all present)."""
    by_word = {i: (a, b) for i, a, b in offsets}
    if start_word not in by_word or end_word - 1 not in by_word:
        return None
    return by_word[start_word][0], by_word[end_word - 1][1]


def shown_spans(conv: Conversation) -> list[Span]:
    """The spans an annotation tool is shown: every one not rejected, by position."""
    return sorted((s for s in conv.spans if s.status != SpanStatus.REJECTED), key=lambda s: (s.start_word, s.end_word))
