"""Chunked transcription so memory stays flat for long recordings.

Audio is cut into ~10-minute chunks at the quietest moment near each nominal boundary; neighbouring
chunks overlap a little and each word is kept by exactly one chunk (the one whose seam interval holds
the word's midpoint), so words at the seams are neither lost nor doubled.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from redactdesk.asr.base import BackendOutput, check_cancel
from redactdesk.core.progress import CancelFn, FractionFn, part
from redactdesk.core.types import Word

# read(start_sample, end_sample) -> mono float32 at the working rate
ReadFn = Callable[[int, int], np.ndarray]
# run(audio, language, progress, cancel) -> BackendOutput with times relative to ``audio``
RunFn = Callable[[np.ndarray, str | None, FractionFn | None, CancelFn | None], BackendOutput]


@dataclass(frozen=True)
class ChunkPlan:
    chunk_seconds: float = 600.0
    overlap_seconds: float = 2.0
    search_seconds: float = 10.0


def quietest_sample(audio: np.ndarray, rate: int, frame_seconds: float = 0.05) -> int:
    """Index (centre of the lowest-energy frame) of the quietest moment of ``audio``."""
    frame = max(1, int(rate * frame_seconds))
    n = len(audio) // frame
    if n == 0:
        return len(audio) // 2
    energy = np.square(audio[: n * frame].astype(np.float64)).reshape(n, frame).mean(axis=1)
    # among equally quiet frames, take the one nearest the middle (the nominal boundary)
    order = np.lexsort((np.abs(np.arange(n) - n / 2), np.round(energy, 12)))
    return int(order[0]) * frame + frame // 2


def transcribe_chunked(
    run: RunFn,
    read: ReadFn,
    total_samples: int,
    rate: int,
    *,
    language: str | None = None,
    plan: ChunkPlan = ChunkPlan(),
    progress: FractionFn | None = None,
    cancel: CancelFn | None = None,
) -> BackendOutput:
    """Transcribe ``total_samples`` of audio delivered by ``read`` chunk by chunk; times are absolute."""
    chunk = int(plan.chunk_seconds * rate)
    overlap = int(plan.overlap_seconds * rate)
    search = int(plan.search_seconds * rate)
    words: list[Word] = []
    detected = language
    info: dict[str, object] = {"chunks": 0}
    pos = 0
    keep_from = 0.0
    span = max(1, total_samples)
    while pos < total_samples:
        check_cancel(cancel)
        nominal = pos + chunk
        if nominal + search >= total_samples:
            seam = end = total_samples
            audio = read(pos, end)
        else:
            block = read(pos, nominal + search)
            window_start = nominal - search - pos
            seam = pos + window_start + quietest_sample(block[window_start:], rate)
            end = min(total_samples, seam + overlap)
            audio = block[: end - pos]
        out = run(audio, detected, part(progress, pos, end - pos, total=span), cancel)
        info["chunks"] = int(info["chunks"]) + 1  # type: ignore[arg-type]
        if "invented_words" in out.info:  # words the backend dropped as invented (see faster_whisper_backend)
            info["invented_words"] = int(info.get("invented_words", 0)) + int(out.info["invented_words"])  # type: ignore[call-overload]
        if detected is None:
            detected = out.language
        offset = pos / rate
        keep_to = seam / rate if seam < total_samples else float("inf")
        for w in out.words:
            mid = offset + (w.start + w.end) / 2
            if keep_from <= mid < keep_to:
                words.append(
                    dataclasses.replace(w, start=round(float(w.start) + offset, 3), end=round(float(w.end) + offset, 3))
                )
        if progress is not None:
            progress(min(1.0, end / span))
        keep_from = seam / rate
        if seam >= total_samples:
            break
        pos = max(pos + 1, seam - overlap)
    return BackendOutput(words=words, language=detected, info=info)
