"""Temporary times for words that came without them (e.g. whisperx leaves numbers unaligned).

A simple linear estimate; redactdesk.asr.timing owns the fuller repair and may replace this.
"""

from __future__ import annotations

import math
from dataclasses import replace

from redactdesk.core.types import Word

MIN_WORD = 0.1  # seconds an estimated word lasts at least


def is_missing(w: Word) -> bool:
    """True when the word's start or end is unknown (None/NaN/inf)."""
    return not (_finite(w.start) and _finite(w.end))


def _finite(x: float | None) -> bool:
    return x is not None and math.isfinite(x)


def fill_missing_times(
    words: list[Word], lo: float | None = None, hi: float | None = None, min_word: float = MIN_WORD
) -> list[Word]:
    """Return a copy of ``words`` where each run of words without times gets estimated times.

    A run's starts are spread evenly between the previous word's end and the next word's start
    (or ``lo``/``hi`` at the edges, e.g. the segment's bounds); each estimated word lasts at least
    ``min_word`` seconds, so it may overlap the next word rather than vanish. Starts stay
    non-decreasing. Filled words get ``aligned=False``. A run with nothing to anchor it (no timed
    neighbour and no bound) is left as is.
    """
    out = list(words)
    n = len(out)
    i = 0
    while i < n:
        if not is_missing(out[i]):
            i += 1
            continue
        j = i
        while j < n and is_missing(out[j]):
            j += 1
        k = j - i
        a = out[i - 1].end if i > 0 else lo
        b = out[j].start if j < n else hi
        if a is None and b is None:
            i = j
            continue
        if a is None:
            a = max(0.0, b - k * min_word) if lo is None else max(lo, min(b, b - k * min_word))
        if b is None:
            b = a + k * min_word
        b = max(a, b)
        cap_candidates = [c for c in (out[j].end if j < n else None, hi) if c is not None]
        cap = min(cap_candidates) if cap_candidates else math.inf
        slot = (b - a) / k
        for m in range(k):
            s = a + m * slot
            e = min(max(s + slot, s + min_word), max(cap, s))
            out[i + m] = replace(out[i + m], start=s, end=e, aligned=False)
        i = j
    return out
