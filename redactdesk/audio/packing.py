"""Short clips packed into full recogniser windows, and each clip given back its own words.

Whisper encodes 30 s of audio per call whatever it is given (faster-whisper pads a 3-s clip with
27 s of silence), and the encoder is most of a call's cost on a CPU. Hearing ten 3-s clips one by
one thus costs ten full passes; laid end to end in one window, with ``gap`` seconds of silence
between them, they cost one. A clip is never split across windows; a clip longer than the window
gets a window of its own. (The re-listen check now has the encoder read only each clip and a short
pad — ``recognise.SHORT_CONTEXT_PAD`` — which made one clip per call the cheaper scheme too.)

The recogniser's words come back in window time. :func:`split_words` hands each word to the clip
it was heard in, in that clip's own time: the clip its middle falls in, a gap being shared evenly
between its two neighbours. A word whose time reaches into another clip as well (stretched across
a gap) cannot be placed for sure, so it is given to each clip it touches (fail closed: a word
counts wherever it may have been said).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np

from redactdesk.core.types import Word


@dataclass(frozen=True)
class Placed:
    """Clip number ``clip`` (an index into the clips packed) at ``offset`` seconds into its window."""

    clip: int
    offset: float
    length: float

    @property
    def end(self) -> float:
        return self.offset + self.length


def pack(lengths: Sequence[float], limit: float, gap: float) -> list[list[Placed]]:
    """Clips of ``lengths`` seconds, in the order given, into windows of at most ``limit`` seconds.

    Each window holds consecutive clips separated by ``gap`` seconds; ``limit`` 0 puts every clip
    in a window of its own (one recogniser call per clip).
    """
    if gap < 0 or limit < 0:
        raise ValueError("a window limit and the gap between clips cannot be negative")
    windows: list[list[Placed]] = []
    for i, length in enumerate(lengths):
        if windows and windows[-1][-1].end + gap + length <= limit:
            windows[-1].append(Placed(i, windows[-1][-1].end + gap, float(length)))
        else:
            windows.append([Placed(i, 0.0, float(length))])
    return windows


def window_audio(clips: Mapping[int, np.ndarray] | Sequence[np.ndarray], window: Sequence[Placed], rate: int) -> np.ndarray:
    """One mono signal: the window's clips at their offsets, silence between them."""
    if len(window) == 1:
        return np.asarray(clips[window[0].clip], dtype=np.float32)
    starts = [int(round(p.offset * rate)) for p in window]
    total = max(s + len(clips[p.clip]) for s, p in zip(starts, window, strict=True))
    out = np.zeros(total, dtype=np.float32)
    for s, p in zip(starts, window, strict=True):
        x = clips[p.clip]
        out[s:s + len(x)] = x
    return out


def split_words(words: Sequence[Word], window: Sequence[Placed]) -> dict[int, list[Word]]:
    """The recognised ``words`` (window time) of each clip of ``window``, in the clip's own time.

    See the module doc: a word goes to the clip its middle falls in (gaps split evenly), and also
    to any other clip its time overlaps.
    """
    out: dict[int, list[Word]] = {p.clip: [] for p in window}
    bounds = [(p.offset + q.offset + p.length) / 2 for p, q in zip(window, window[1:], strict=False)]  # gaps
    for w in words:
        mid = (w.start + w.end) / 2
        home = sum(1 for b in bounds if mid >= b)
        owners = {home} | {k for k, p in enumerate(window) if w.start < p.end and p.offset < w.end}
        for k in sorted(owners):
            p = window[k]
            out[p.clip].append(replace(w, start=w.start - p.offset, end=w.end - p.offset))
    return out

