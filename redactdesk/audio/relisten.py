"""The re-listen check: does the masked audio still let a recogniser hear an accepted personal item?

Each masked range is re-transcribed with ``context`` seconds of audio either side, every channel
on its own (a listener can solo either side of a stereo call). Recognised words whose middle falls inside the range (give or take
``tolerance``) are compared with every accepted item the range covers, written or spoken form
(see :mod:`redactdesk.audio.matching`). The report names span ids, categories and times — never the
words. Export must refuse while a leak remains unless a reviewer overrides it with a written reason.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import soundfile as sf

from redactdesk.audio.errors import MaskCancelled, MaskError
from redactdesk.audio.matching import FULL, match_item
from redactdesk.audio.packing import Placed, pack, split_words, window_audio
from redactdesk.audio.ranges import EVENT_CATEGORY, MaskRange, SpanKey, span_key
from redactdesk.audio.recognise import (
    MAX_WINDOW,
    BatchRecogniser,
    Piece,
    Recogniser,
    group_pieces,
    heard_between,
    listen_windows,
    model_for,
    solo_channels,
    whisper_batch_recogniser,
    whisper_recogniser,
)
from redactdesk.core.progress import CancelFn, FractionFn
from redactdesk.core.types import Conversation, Span, SpanStatus, Word

MIN_REASON_CHARS = 10


@dataclass(frozen=True)
class Leak:
    """One accepted item still recognised in the masked audio (``kind``: "full" or "partial")."""

    range_index: int
    start: float
    end: float
    span_id: SpanKey
    category: str
    kind: str


@dataclass
class LeakReport:
    """The re-listen result for one conversation, and the reviewer's override if any."""

    conversation_id: str
    audio: str
    model: str
    context: float
    ranges_checked: int
    items_checked: int
    leaks: list[Leak] = field(default_factory=list)
    seconds: float = 0.0
    scheme: str = ""  # how clips were laid into recogniser calls (PACKED, PER_PIECE)
    windows: int = 0  # recogniser calls made
    override_reason: str | None = None
    overridden_by: str | None = None
    overridden_at: str | None = None

    @property
    def leaked(self) -> bool:
        return bool(self.leaks)

    @property
    def full_leaks(self) -> list[Leak]:
        return [x for x in self.leaks if x.kind == FULL]

    @property
    def partial_leaks(self) -> list[Leak]:
        return [x for x in self.leaks if x.kind != FULL]

    def override(self, reason: str, by: str | None = None) -> LeakReport:
        """A copy recording that a reviewer releases despite the leaks, with their written reason."""
        if not valid_reason(reason):
            raise MaskError(f"an override needs a written reason of at least {MIN_REASON_CHARS} characters")
        return replace(self, override_reason=reason.strip(), overridden_by=by,
                       overridden_at=datetime.now(UTC).isoformat(timespec="seconds"))

    def summary(self) -> str:
        """One line for a log or status bar (counts only)."""
        state = "overridden" if self.leaked and valid_reason(self.override_reason) else \
            "LEAK" if self.leaked else "clean"
        return (f"{self.conversation_id}: {state}; {len(self.full_leaks)} item(s) still recognised, "
                f"{len(self.partial_leaks)} partly, of {self.items_checked} in {self.ranges_checked} range(s)")

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["leaks"] = [asdict(x) for x in self.leaks]
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> LeakReport:
        return cls(**{**d, "leaks": [Leak(**x) for x in d.get("leaks", [])]})


def valid_reason(reason: str | None) -> bool:
    return reason is not None and len(reason.strip()) >= MIN_REASON_CHARS


def leaks_block_export(report: LeakReport | None, override_reason: str | None = None) -> bool:
    """True when export must refuse: no check was run, or leaks remain without a written override."""
    if report is None:
        return True
    if not report.leaked:
        return False
    return not (valid_reason(override_reason) or valid_reason(report.override_reason))


def items_in_range(conv: Conversation, r: MaskRange) -> list[Span]:
    """Accepted spans the range names, plus accepted spans whose words fall inside it (event ranges)."""
    keys = {str(k) for k in r.span_ids}
    by_time = not keys or EVENT_CATEGORY in r.category.split("+")
    out = []
    for span in conv.spans_by_status(SpanStatus.ACCEPTED):
        if str(span_key(span)) in keys:
            out.append(span)
        elif by_time:
            start, end = conv.span_times(span)
            if start < r.end and r.start < end:
                out.append(span)
    return out


PER_PIECE = "per-piece"
PACKED = "packed"
SCHEMES = (PER_PIECE, PACKED)
# per-piece hears more: on 3 demo calls tiny.en recognised 43 of 47 unmasked items one clip per call
# and 38-41 with clips packed into 28-s calls (benchmarks/bench_mask.py --schemes): it times the last
# words before a silence into the silence, past their range. A check that hears less is worse than a
# slow one, so packing is opt-in; since the encoder reads only each clip plus a short pad
# (recognise.SHORT_CONTEXT_PAD) it no longer saves CPU either (3 calls: 12.8 s per piece, 15.8 s packed).
DEFAULT_SCHEME = PER_PIECE
PACK_SECONDS = 28.0  # a packed window: under Whisper's 30 s, so nothing is cut at the end
PACK_GAP = 1.0  # silence between two packed clips
# Clips of like length are heard 8 at a time, as one batch (recognise.whisper_batch_recogniser), decoded
# without Whisper's timestamp tokens (words are timed by the alignment either way). On 8 English demo calls
# (benchmarks/bench_mask.py --schemes, tiny.en, 1 thread): one clip per call 50.4 CPU s, hearing 110 of
# 128 unmasked items; batches of 4 with timestamp tokens 27.1 s, 109; batches of 4/8 without 20.9/20.0 s,
# 111 both; batches of 16 23.0 s (more padding). Beam 3 instead of 5 saved nothing in a batch. Decoding is
# batched well; the encoder is now more than half the cost, so the batch's pad is shorter
# (recognise.BATCH_CONTEXT_PAD).
DEFAULT_BATCH = 8


def _one_by_one(recognise: Recogniser) -> BatchRecogniser:
    return lambda clips, rate: [recognise(x, rate) for x in clips]


def relisten(
    masked_path: str | os.PathLike[str],
    conv: Conversation,
    ranges: list[MaskRange],
    *,
    context: float = 1.0,
    model: str = "tiny.en",
    tolerance: float = 0.25,
    recogniser: Recogniser | None = None,
    spoken: Mapping[Any, str] | None = None,
    window: float = MAX_WINDOW,
    scheme: str = DEFAULT_SCHEME,
    pack_seconds: float = PACK_SECONDS,
    gap: float = PACK_GAP,
    batch: int = DEFAULT_BATCH,
    timestamps: bool = False,
    progress: FractionFn | None = None,
    cancel: CancelFn | None = None,
) -> LeakReport:
    """Re-transcribe every masked range of ``masked_path`` and report accepted items still heard.

    Ranges close together form one clip of up to ``window`` seconds (each range with at least
    ``context`` seconds either side), every channel its own clip. ``scheme`` "per-piece" (default)
    hears each clip in its own recogniser call; "packed" lays clips end to end, ``gap`` seconds of
    silence apart, in calls of up to ``pack_seconds`` (see :mod:`redactdesk.audio.packing`):
    that was cheaper while Whisper encoded 30 s per call however short the clip; since the encoder
    reads only the clip and a short pad it is not, and tiny.en heard fewer items that way (see
    ``DEFAULT_SCHEME``). Recognised words are assigned to a clip, then to a range, by their times.
    ``batch``: recogniser calls of like length heard together as one Whisper batch (1: one by one;
    see ``DEFAULT_BATCH``); ``timestamps``: decode Whisper's timestamp tokens in a batch.
    ``spoken``: span id -> text deliberately spoken there (voice masking), so words an item shares
    with its surrogate are not taken for a leak. An English-only ``model`` (tiny.en) listening to a
    conversation in another language is swapped for the multilingual ``base``. ``recogniser``
    replaces Whisper (tests, other engines) and hears one call at a time.
    """
    t0 = time.perf_counter()
    if scheme not in SCHEMES:
        raise MaskError(f"unknown re-listen scheme; use one of {', '.join(SCHEMES)}")
    path = Path(masked_path)
    if not path.is_file():
        raise MaskError(f"no masked audio to check at {path}")
    size = 1 if recogniser is not None or batch <= 1 else batch
    recognise_batch = (whisper_batch_recogniser(model, conv.language, timestamps=timestamps) if size > 1
                       else _one_by_one(recogniser or whisper_recogniser(model, conv.language)))
    said = {str(k): v for k, v in (spoken or {}).items()}
    items = [items_in_range(conv, r) for r in ranges]
    texts = [" ".join(said.get(str(k), "") for k in r.span_ids).strip() for r in ranges]
    pieces = [Piece(i, a, b) for i, r in enumerate(ranges) if items[i]
              for a, b in listen_windows(r.start, r.end, context)]
    groups = group_pieces(pieces, context, window)
    found: dict[tuple[int, int], str] = {}

    def hear(group: list[Piece], clip_start: float, words: list[Word]) -> None:
        for p in group:
            heard = heard_between(words, p.start - clip_start, p.end - clip_start, tolerance)
            if not heard:
                continue
            for j, span in enumerate(items[p.range_index]):
                kind = match_item(conv.span_text(span), heard, conv.language, texts[p.range_index])
                if kind and found.get((p.range_index, j)) != FULL:
                    found[(p.range_index, j)] = kind

    try:
        fh = sf.SoundFile(str(path))
    except (sf.LibsndfileError, RuntimeError) as exc:
        raise MaskError(f"cannot read masked audio {path.name}: {exc}") from exc
    with fh:
        rate, channels = fh.samplerate, fh.channels
        spans = [(max(0, int((g[0].start - context) * rate)),
                  min(fh.frames, int(np.ceil((max(p.end for p in g) + context) * rate)))) for g in groups]
        clips = [(g_i, c) for g_i in range(len(groups)) for c in range(channels)]  # every channel on its own
        lengths = [max(0, spans[g_i][1] - spans[g_i][0]) / rate for g_i, _c in clips]
        windows = pack(lengths, pack_seconds if scheme == PACKED else 0.0, gap)

        def signal(placed: list[Placed]) -> np.ndarray:
            audio: dict[int, list[np.ndarray]] = {}
            for g_i in sorted({clips[p.clip][0] for p in placed}):
                a, b = spans[g_i]
                fh.seek(a)
                audio[g_i] = solo_channels(fh.read(b - a, dtype="float32", always_2d=True))
            return window_audio({p.clip: audio[clips[p.clip][0]][clips[p.clip][1]] for p in placed}, placed, rate)

        order = sorted(range(len(windows)), key=lambda w_i: windows[w_i][-1].end)  # a batch of like lengths
        for n in range(0, len(order), size):
            if cancel is not None and cancel():
                raise MaskCancelled("re-listen check cancelled; no report was made")
            chosen = [windows[w_i] for w_i in order[n:n + size]]
            for placed, heard in zip(chosen, recognise_batch([signal(p) for p in chosen], rate), strict=True):
                for clip, words in split_words(heard, placed).items():
                    g_i = clips[clip][0]
                    hear(groups[g_i], spans[g_i][0] / rate, words)
            if progress is not None:
                progress(min(n + size, len(order)) / len(order))
    leaks = []
    for (i, j), kind in sorted(found.items()):
        r, span = ranges[i], items[i][j]
        leaks.append(Leak(i, round(r.start, 3), round(r.end, 3), span_key(span), span.category, kind))
    return LeakReport(conversation_id=conv.id, audio=str(path),
                      model="custom" if recogniser else model_for(model, conv.language), context=context,
                      ranges_checked=len(ranges), items_checked=sum(len(x) for x in items), leaks=leaks,
                      seconds=time.perf_counter() - t0, scheme=scheme, windows=len(windows))
