"""A/B preview for the app: the masked version of any stretch, computed without writing a file."""

from __future__ import annotations

import math
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from redactdesk.audio.engine import DEFAULT_FADE, AudioSource, render_window
from redactdesk.audio.errors import MaskError
from redactdesk.audio.maskfile import prepare_masker
from redactdesk.audio.ranges import MaskRange


def _window(source: AudioSource, start: float, end: float | None) -> tuple[int, int]:
    if start < 0 or (end is not None and end <= start) or not math.isfinite(start):
        raise MaskError(f"preview window {start}-{end} s is not a forward time range")
    a = min(source.frames, int(round(start * source.rate)))
    b = source.frames if end is None else min(source.frames, int(round(end * source.rate)))
    return a, b


def preview(original_path: str | os.PathLike[str], ranges: Sequence[MaskRange], method: str = "silence",
            start: float = 0.0, end: float | None = None, params: Mapping[str, Any] | None = None,
            *, fade: float = DEFAULT_FADE) -> np.ndarray:
    """Masked float32 samples ``(frames, channels)`` of ``[start, end)`` seconds (whole file if end is None).

    Equals the same stretch of :func:`~redactdesk.audio.maskfile.mask_file`'s output (before
    quantisation to the file's bit depth) for the same ranges, method and params.
    """
    return preview_ab(original_path, ranges, method, start, end, params, fade=fade)[1]


def preview_ab(original_path: str | os.PathLike[str], ranges: Sequence[MaskRange], method: str = "silence",
               start: float = 0.0, end: float | None = None, params: Mapping[str, Any] | None = None,
               *, fade: float = DEFAULT_FADE) -> tuple[np.ndarray, np.ndarray, int]:
    """(original, masked, sample rate) of ``[start, end)`` for A/B listening; float32 ``(frames, channels)``."""
    with AudioSource(Path(original_path)) as source:
        a, b = _window(source, start, end)
        masker, franges, states, fade_frames = prepare_masker(
            source, ranges, method, params, fade, only=(a / source.rate, b / source.rate))
        original = source.read(a, b)
        masked = render_window(source, franges, masker, states, a, b, fade_frames)
        return original.astype(np.float32), np.clip(masked, -1.0, 1.0).astype(np.float32), source.rate
