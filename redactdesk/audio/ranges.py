"""Which stretches of audio to mask: accepted spans' word times, widened so that nothing slips out.

Fail closed: a word that is unaligned or below ``min_confidence`` has no trustworthy time, so the
range reaches to the nearest trustworthy neighbour on that side (or the start/end of the file).
Event-grammar ranges are masked whole. Overlapping ranges are merged; a range that covers all
channels swallows an overlapping single-channel one.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from redactdesk.audio.errors import MaskError
from redactdesk.core.types import Conversation, Span, SpanStatus, Word

CHANNEL_MODES = ("speaker", "both")
EVENT_CATEGORY = "EVENT"

SpanKey = int | str


@dataclass(frozen=True)
class MaskRange:
    """Seconds ``[start, end)`` to mask on ``channel`` (None: every channel).

    ``span_ids`` are :func:`span_key` values of the spans it covers; ``category`` joins their
    categories with "+" when a merge mixed several.
    """

    start: float
    end: float
    channel: int | None = None
    span_ids: tuple[SpanKey, ...] = ()
    category: str = ""

    @property
    def duration(self) -> float:
        return self.end - self.start

    def to_dict(self) -> dict[str, Any]:
        return {"start": self.start, "end": self.end, "channel": self.channel,
                "span_ids": list(self.span_ids), "category": self.category}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> MaskRange:
        return cls(start=float(d["start"]), end=float(d["end"]), channel=d.get("channel"),
                   span_ids=tuple(d.get("span_ids", ())), category=str(d.get("category", "")))


def span_key(span: Span) -> SpanKey:
    """The id a range uses for a span: its project id, or ``"start:end"`` words for unstored spans."""
    return span.id if span.id is not None else f"{span.start_word}:{span.end_word}"


def word_channel(conv: Conversation, index: int) -> int | None:
    """The channel a word was spoken on (the word's own, else its turn's), None if unknown."""
    w = conv.words[index]
    if w.channel is not None:
        return int(w.channel)
    turn = conv.turn_of_word(index)
    return None if turn is None or turn.channel is None else int(turn.channel)


def _reliable(w: Word, min_confidence: float) -> bool:
    if not w.aligned or not (math.isfinite(w.start) and math.isfinite(w.end)) or w.end < w.start:
        return False
    return w.confidence is None or w.confidence >= min_confidence


def _span_channel(conv: Conversation, span: Span, channel_mode: str) -> int | None:
    if channel_mode == "both" or (conv.channels or 1) < 2:
        return None
    channels = {word_channel(conv, i) for i in span.word_range()}
    if len(channels) == 1 and None not in channels:
        return channels.pop()
    return None  # unknown or mixed: mask every channel


def _span_times(conv: Conversation, span: Span, min_confidence: float, channel: int | None,
                duration: float) -> tuple[float, float]:
    """[start, end) of a span, reaching to trustworthy neighbours past unreliable edge words."""
    words = conv.words

    def ok(i: int) -> bool:
        same_channel = channel is None or word_channel(conv, i) in (channel, None)
        return same_channel and _reliable(words[i], min_confidence)

    # measured times only: an unaligned word's times are estimates (maybe 0/0), its neighbours bound it
    measured = [words[i] for i in span.word_range() if words[i].aligned
                and math.isfinite(words[i].start) and math.isfinite(words[i].end) and words[i].end >= words[i].start]
    start = min((w.start for w in measured), default=math.inf)
    end = max((w.end for w in measured), default=-math.inf)
    if not ok(span.start_word):
        prev = next((words[i].end for i in range(span.start_word - 1, -1, -1) if ok(i)), 0.0)
        start = min(start, prev)
    if not ok(span.end_word - 1):
        nxt = next((words[i].start for i in range(span.end_word, len(words)) if ok(i)), duration)
        end = max(end, nxt)
    if not math.isfinite(start):
        start = 0.0
    if not end > -math.inf:
        end = duration
    return start, end


def _event_range(item: Any) -> MaskRange:
    if isinstance(item, MaskRange):
        return item
    if hasattr(item, "start") and hasattr(item, "end"):
        return MaskRange(float(item.start), float(item.end), getattr(item, "channel", None), (), EVENT_CATEGORY)
    try:
        values = tuple(item)
        start, end = float(values[0]), float(values[1])
        channel = values[2] if len(values) > 2 else None
    except (TypeError, ValueError, IndexError):
        raise MaskError(f"event range {item!r} is not (start, end) or (start, end, channel) seconds") from None
    return MaskRange(start, end, None if channel is None else int(channel), (), EVENT_CATEGORY)


def mask_ranges(
    conv: Conversation,
    *,
    padding: float = 0.05,
    min_confidence: float = 0.5,
    channel_mode: str = "speaker",
    event_ranges: Iterable[Any] = (),
    duration: float | None = None,
) -> list[MaskRange]:
    """Ranges to mask for the conversation's ACCEPTED spans (plus ``event_ranges``), merged and sorted.

    ``padding`` seconds go on each side. ``channel_mode="speaker"`` masks only the speaker's channel of
    a stereo file when every word of the span is known to be on it; otherwise all channels. Ranges
    are clipped to ``[0, duration]`` (``duration`` defaults to the conversation's).
    """
    if channel_mode not in CHANNEL_MODES:
        raise MaskError(f"channel mode {channel_mode!r} is not one of {', '.join(CHANNEL_MODES)}")
    if not (math.isfinite(padding) and padding >= 0):
        raise MaskError(f"padding must be zero or more seconds, got {padding}")
    total = duration if duration is not None else conv.duration
    limit = float(total) if total is not None else math.inf
    out: list[MaskRange] = []
    for span in conv.spans_by_status(SpanStatus.ACCEPTED):
        if span.start_word < 0 or span.end_word > len(conv.words):
            raise MaskError(f"span {span_key(span)} refers to words outside conversation {conv.id!r}; "
                            "reload the transcript before masking")
        channel = _span_channel(conv, span, channel_mode)
        start, end = _span_times(conv, span, min_confidence, channel, limit)
        out.append(MaskRange(start - padding, end + padding, channel, (span_key(span),), span.category))
    for item in event_ranges:
        r = _event_range(item)
        channel = None if channel_mode == "both" else r.channel
        out.append(MaskRange(r.start, r.end, channel, r.span_ids, r.category or EVENT_CATEGORY))
    return merge_ranges(clip_ranges(out, limit))


def clip_ranges(ranges: Iterable[MaskRange], duration: float) -> list[MaskRange]:
    """Ranges cut to ``[0, duration]``; empty ones dropped."""
    out = []
    for r in ranges:
        start, end = max(0.0, r.start), min(duration, r.end)
        if end > start:
            out.append(MaskRange(start, end, r.channel, r.span_ids, r.category))
    return out


def _join(a: MaskRange, b: MaskRange) -> MaskRange:
    channel = a.channel if a.channel == b.channel else None
    ids = tuple(dict.fromkeys(a.span_ids + b.span_ids))
    cats = sorted({c for r in (a, b) for c in r.category.split("+") if c})
    return MaskRange(min(a.start, b.start), max(a.end, b.end), channel, ids, "+".join(cats))


def _touch(a: MaskRange, b: MaskRange) -> bool:
    same = a.channel is None or b.channel is None or a.channel == b.channel
    return same and a.start <= b.end and b.start <= a.end


def merge_ranges(ranges: Iterable[MaskRange]) -> list[MaskRange]:
    """Merge overlapping or touching ranges (on a shared channel), sorted by start then channel."""
    out: list[MaskRange] = []
    for r in sorted(ranges, key=lambda r: (r.start, r.end)):
        merged = True
        while merged:
            merged = False
            for i, o in enumerate(out):
                if _touch(o, r):
                    r = _join(o, r)
                    del out[i]
                    merged = True
                    break
        out.append(r)
    return sorted(out, key=lambda r: (r.start, -1 if r.channel is None else r.channel))
