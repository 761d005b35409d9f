"""Where speech is: Silero VAD (bundled with faster-whisper, offline) over audio read block by block.

Whisper's word times tend to run across short silences, so pauses (for turns) and cut points (for
forced alignment) come from the audio itself rather than from gaps between recognised words.
"""

from __future__ import annotations

import bisect
import os
from collections.abc import Callable, Sequence

import numpy as np

from redactdesk.asr.resample import WORK_RATE

Region = tuple[float, float]


def speech_regions(
    read: Callable[[int, int], np.ndarray],
    total: int,
    *,
    min_silence: float = 0.25,
    block_seconds: float = 600.0,
) -> list[Region]:
    """Speech stretches (seconds) of 16 kHz audio delivered by ``read(a, b)``, separated by silences
    of at least ``min_silence`` s. Memory is bounded by ``block_seconds``."""
    os.environ["HF_HUB_OFFLINE"] = "1"
    from faster_whisper.vad import VadOptions, get_speech_timestamps

    options = VadOptions(min_silence_duration_ms=int(min_silence * 1000), speech_pad_ms=30)
    block = int(block_seconds * WORK_RATE)
    regions: list[Region] = []
    for a in range(0, total, block):
        audio = read(a, min(total, a + block))
        for ts in get_speech_timestamps(audio, options, sampling_rate=WORK_RATE):
            start, end = (a + ts["start"]) / WORK_RATE, (a + ts["end"]) / WORK_RATE
            if regions and start - regions[-1][1] < min_silence:  # joined across a block edge
                regions[-1] = (regions[-1][0], end)
            else:
                regions.append((start, end))
    return regions


def merge_regions(regions: Sequence[Region], min_gap: float) -> list[Region]:
    """Regions joined wherever the silence between them is shorter than ``min_gap`` s."""
    out: list[Region] = []
    for start, end in regions:
        if out and start - out[-1][1] < min_gap:
            out[-1] = (out[-1][0], max(out[-1][1], end))
        else:
            out.append((start, end))
    return out


def assign_regions(regions: Sequence[Region], times: Sequence[float]) -> list[int]:
    """For each time, the index of the region holding it or of the nearest one (-1 with no regions)."""
    if not regions:
        return [-1] * len(times)
    starts = [r[0] for r in regions]
    out = []
    for t in times:
        k = bisect.bisect_right(starts, t) - 1
        if k < 0:
            k = 0
        elif t > regions[k][1] and k + 1 < len(regions) and regions[k + 1][0] - t < t - regions[k][1]:
            k += 1
        out.append(k)
    return out
