"""Second pass over speech the recogniser skipped.

Whisper sometimes jumps over a stretch of speech — on the demo calls a whole spelled surname
("G as in George, A as in Adam …", 30 words) vanished while the words around it came out fine.
Unheard speech is the worst failure a redaction tool can have: nothing there gets detected or
masked. So after the first pass, speech found by the voice-activity detector but holding no
recognised word is cut out (padded to the nearest recognised words) and recognised again on its
own, without the context that led the decoder astray. Only words whose middle falls inside the gap
are kept, so nothing is doubled.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from redactdesk.asr.base import BackendOutput, check_cancel
from redactdesk.core.progress import CancelFn
from redactdesk.core.types import Word

Region = tuple[float, float]
# run(audio, language) -> words with times relative to ``audio``
RunFn = Callable[[np.ndarray, str | None], BackendOutput]
ReadFn = Callable[[int, int], np.ndarray]


@dataclass(frozen=True)
class GapPlan:
    """When a stretch of speech counts as skipped, and how it is cut out for the second pass."""

    min_gap: float = 1.0  # seconds of speech without a word before it is worth a second look
    word_pad: float = 0.25  # a word covers its own span widened by this much (Whisper's times are loose)
    join: float = 1.0  # skipped stretches closer than this are recognised together
    context: float = 0.3  # audio kept on each side of a gap (not past the neighbouring words' middles)
    max_window: float = 28.0  # Whisper hears 30 s at once
    digit_seconds: float = 0.3  # least time one spoken digit takes ("four one one one" ~ 1.2 s)


def _reach(word: Word, plan: GapPlan) -> float:
    """How far a word's cover extends beyond its times on either side.

    Whisper squeezes a long digit token ("813569814", said digit by digit over 3.5 s) into a fraction
    of the time it was said in; the speech around it is not skipped, only mistimed, so such a word
    covers as much time as its digits take to say."""
    digits = sum(c.isdigit() for c in word.text)
    deficit = digits * plan.digit_seconds - (word.end - word.start)
    return max(plan.word_pad, deficit)


def uncovered(speech: Sequence[Region], words: Sequence[Word], plan: GapPlan = GapPlan()) -> list[Region]:
    """Stretches of ``speech`` at least ``plan.min_gap`` long that no word (widened by ``word_pad``)
    covers; stretches closer than ``plan.join`` are joined, none longer than ``plan.max_window``."""
    covered = sorted((w.start - _reach(w, plan), w.end + _reach(w, plan)) for w in words if w.end >= w.start)
    holes: list[Region] = []
    k = 0
    for start, end in speech:
        pos = start
        while k < len(covered) and covered[k][1] <= pos:
            k += 1
        j = k
        while pos < end:
            if j < len(covered) and covered[j][0] < end:
                a, b = covered[j]
                if a > pos:
                    holes.append((pos, a))
                pos = max(pos, b)
                j += 1
            else:
                holes.append((pos, end))
                break
    joined: list[Region] = []
    for a, b in holes:
        if joined and a - joined[-1][1] < plan.join and b - joined[-1][0] <= plan.max_window:
            joined[-1] = (joined[-1][0], b)
        else:
            joined.append((a, b))
    out: list[Region] = []
    for a, b in joined:
        if b - a < plan.min_gap:
            continue
        while b - a > plan.max_window:  # a very long stretch: whole windows, then the rest
            out.append((a, a + plan.max_window))
            a += plan.max_window
        out.append((a, b))
    return [r for r in out if r[1] - r[0] >= plan.min_gap / 2]


def fill_gaps(
    run: RunFn,
    read: ReadFn,
    total: int,
    rate: int,
    words: list[Word],
    speech: Sequence[Region],
    *,
    language: str | None,
    plan: GapPlan = GapPlan(),
    cancel: CancelFn | None = None,
) -> tuple[list[Word], list[Region]]:
    """``words`` (sorted, absolute times) with the words recognised in each skipped stretch added.

    Returns the merged words and the stretches that were recognised again."""
    gaps = uncovered(speech, words, plan)
    if not gaps:
        return words, []
    mids = [(w.start + w.end) / 2 for w in words]
    added: list[Word] = []
    for a, b in gaps:
        check_cancel(cancel)
        before = max((m for m in mids if m <= a), default=0.0)
        after = min((m for m in mids if m >= b), default=total / rate)
        lo = max(before, a - plan.context, 0.0)
        hi = min(after, b + plan.context, total / rate)
        first, last = int(lo * rate), int(hi * rate)
        if last - first < rate // 10:
            continue
        out = run(read(first, last), language)
        near = "".join(c for w in words if w.end > lo - 5 and w.start < hi + 5 for c in w.text if c.isdigit())
        for w in out.words:
            start, end = w.start + lo, w.end + lo
            digits = "".join(c for c in w.text if c.isdigit())
            if len(digits) >= 2 and digits in near:
                continue  # digits already heard next to the gap: a mistimed number, not a skipped one
            if a <= (start + end) / 2 <= b:  # a word cut at the window's edge belongs to a neighbour
                added.append(replace(w, start=round(start, 3), end=round(end, 3)))
    if not added:
        return words, gaps
    merged = sorted(words + added, key=lambda w: (w.start, w.end))
    return merged, gaps
