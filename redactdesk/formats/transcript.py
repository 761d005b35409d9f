"""What every transcript reader returns, and turn building."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from redactdesk.core.types import Span, Turn, Word

DEFAULT_SPEAKER = "SPEAKER_00"


@dataclass
class TranscriptImport:
    """Words, turns and notes read from one transcript file.

    ``warnings`` are things the user should know but that did not stop the import (e.g. estimated
    times). ``format`` names the reader used. ``spans``, ``duration``, ``audio`` and ``meta`` are
    filled only by formats that carry them (the project's own conversation JSON; TextGrid and EAF
    with an item tier chosen).
    """

    words: list[Word]
    turns: list[Turn]
    language: str | None = None
    warnings: list[str] = field(default_factory=list)
    format: str = ""
    spans: list[Span] = field(default_factory=list)
    duration: float | None = None
    audio: str | None = None
    meta: dict[str, Any] = field(default_factory=dict)
    # labelled intervals of the item tier chosen with ``span_tier`` (TextGrid, EAF); read_transcript
    # turns them into ``spans``
    span_intervals: list[Any] = field(default_factory=list)

    @property
    def unaligned_count(self) -> int:
        return sum(1 for w in self.words if not w.aligned)


def turns_from_words(words: list[Word]) -> list[Turn]:
    """Group consecutive words with the same speaker and channel into turns.

    Words without a speaker belong to ``SPEAKER_00`` (as in ``Conversation.turns_from_speakers``).
    """
    turns: list[Turn] = []
    for i, w in enumerate(words):
        speaker = w.speaker or DEFAULT_SPEAKER
        last = turns[-1] if turns else None
        if last is not None and last.speaker == speaker and last.channel == w.channel and last.end_word == i:
            last.end_word = i + 1
        else:
            turns.append(Turn(speaker=speaker, start_word=i, end_word=i + 1, channel=w.channel))
    return turns


def merge_by_start(items: list[tuple[Word, str]]) -> list[tuple[Word, str]]:
    """Stable sort of (word, where) pairs by start time (for words read tier by tier or channel by channel)."""
    return sorted(items, key=lambda it: it[0].start)


def spread(start: float, end: float, n: int) -> list[tuple[float, float]]:
    """``n`` equal consecutive slots covering ``[start, end]``."""
    if n <= 0:
        return []
    step = (end - start) / n
    return [(start + k * step, start + (k + 1) * step if k < n - 1 else end) for k in range(n)]


def tier_intervals(words: list[Word], min_len: float = 0.001) -> list[tuple[float, float, str]]:
    """Non-overlapping intervals of at least ``min_len`` s for one tier (Praat and ELAN forbid overlaps).

    An overlapping word clips the previous interval's end; two words starting within ``min_len``
    share one interval (their texts joined by a space; a reader spreads them again).
    """
    out: list[tuple[float, float, str]] = []
    for w in sorted(words, key=lambda w: w.start):
        s, e = w.start, max(w.end, w.start + min_len)
        if out and s < out[-1][1]:
            ps, pe, pl = out[-1]
            if s - ps >= min_len:
                out[-1] = (ps, s, pl)
            else:
                out[-1] = (ps, max(pe, e), f"{pl} {w.text}")
                continue
        out.append((s, e, w.text))
    return out
