"""Applying a masker to blocks of samples: frame ranges, fades and exact sample formats.

Integer PCM (and u-law/A-law) is read as int32 and written back as int32, so samples outside the
masked ranges and their fades come out bit-identical; float files go through float64. Inside a
range the masker's signal rises and falls with a short raised cosine; the original fades out just
before the range and back in just after it, so no click gives the edge away.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import soundfile as sf

from redactdesk.audio.base import FrameRange, Masker, raised_cosine
from redactdesk.audio.errors import MaskError
from redactdesk.audio.ranges import MaskRange, merge_ranges

WRITABLE_FORMATS = ("WAV", "WAVEX", "FLAC", "AIFF", "W64", "RF64")
_INT_BITS = {"PCM_S8": 8, "PCM_U8": 8, "PCM_16": 16, "PCM_24": 24, "PCM_32": 32, "ULAW": 16, "ALAW": 16}
_FLOAT_SUBTYPES = ("FLOAT", "DOUBLE")
INT_SCALE = float(2**31)
DEFAULT_FADE = 0.005  # seconds


def sample_kind(fmt: str, subtype: str) -> tuple[str, int]:
    """("int", bits) or ("float", 0) for a writable format/subtype; MaskError for anything else."""
    if fmt not in WRITABLE_FORMATS:
        raise MaskError(f"cannot write a masked {fmt} file without re-encoding the whole recording; "
                        f"convert it to WAV or FLAC first (supported: {', '.join(WRITABLE_FORMATS)})")
    if subtype in _INT_BITS:
        return "int", _INT_BITS[subtype]
    if subtype in _FLOAT_SUBTYPES:
        return "float", 0
    raise MaskError(f"sample format {subtype} is not supported for masking; convert to 16- or 24-bit PCM")


def to_float(block: np.ndarray) -> np.ndarray:
    """Samples as float64 in [-1, 1): int32 blocks are scaled by 2^31."""
    if block.dtype == np.int32:
        return block.astype(np.float64) / INT_SCALE
    return block.astype(np.float64, copy=False)


def to_int(x: np.ndarray, bits: int) -> np.ndarray:
    """float64 samples quantised to ``bits`` and stored left-aligned in int32 (as libsndfile expects)."""
    step = 2.0 ** (32 - bits)
    y = np.round(x * (INT_SCALE / step)) * step
    return np.clip(y, -INT_SCALE, INT_SCALE - step).astype(np.int32)


class AudioSource:
    """Random-access float64 reader of one audio file (the :class:`SourceReader` the maskers use)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        try:
            self._fh = sf.SoundFile(str(self.path))
        except (sf.LibsndfileError, RuntimeError, OSError) as exc:
            raise MaskError(f"cannot open audio {self.path.name}: {exc}") from exc
        self.rate = int(self._fh.samplerate)
        self.channels = int(self._fh.channels)
        self.frames = int(self._fh.frames)
        self.format = str(self._fh.format)
        self.subtype = str(self._fh.subtype)
        self.kind, self.bits = sample_kind(self.format, self.subtype)
        self.dtype = "int32" if self.kind == "int" else "float64"

    def read(self, start: int, end: int) -> np.ndarray:
        start, end = max(0, start), min(self.frames, end)
        if end <= start:
            return np.zeros((0, self.channels))
        self._fh.seek(start)
        return to_float(self._fh.read(end - start, dtype=self.dtype, always_2d=True))

    def close(self) -> None:
        self._fh.close()

    def __enter__(self) -> AudioSource:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def frame_ranges(ranges: Sequence[MaskRange], rate: int, frames: int, channels: int) -> list[FrameRange]:
    """Merged second ranges as frame ranges of a file (outward rounding, clipped to the file)."""
    out = []
    for r in merge_ranges(ranges):
        if math.isnan(r.start) or math.isnan(r.end) or r.start == math.inf:
            raise MaskError(f"mask range {r.start}-{r.end} s is not a usable time range")
        a = max(0, int(math.floor(r.start * rate))) if math.isfinite(r.start) else 0
        b = min(frames, int(math.ceil(r.end * rate)) if math.isfinite(r.end) else frames)
        if b <= a:
            continue
        chans = tuple(range(channels)) if r.channel is None or not 0 <= r.channel < channels else (r.channel,)
        out.append(FrameRange(len(out), a, b, chans, r))
    return out


def touches(rng: FrameRange, start: int, end: int, fade: int) -> bool:
    return rng.start - fade < end and start < rng.end + fade


def apply_block(
    block: np.ndarray,
    block_start: int,
    ranges: Sequence[FrameRange],
    masker: Masker,
    states: Mapping[int, Any],
    rate: int,
    fade: int,
) -> bool:
    """Mask float64 ``block`` (frames ``[block_start, +len)``) in place; True if anything changed.

    ``states`` maps each range's ``index`` to the state its masker prepared.
    """
    n = len(block)
    hits = [r for r in ranges if touches(r, block_start, block_start + n, fade)]
    if not hits:
        return False
    original = block.copy()
    for r in hits:  # 1. the original fades out before and back in after each range
        cols = list(r.channels)
        for lo, gains in ((r.start - fade, raised_cosine(fade, rising=False)), (r.end, raised_cosine(fade))):
            a, b = max(lo, block_start), min(lo + fade, block_start + n)
            if b > a:
                block[a - block_start:b - block_start, cols] *= gains[a - lo:b - lo, None]
    for r in hits:  # 2. the masker's signal replaces the inside, with raised-cosine edges
        a, b = max(r.start, block_start), min(r.end, block_start + n)
        if b <= a:
            continue
        cols = list(r.channels)
        offset = a - r.start
        seg = original[a - block_start:b - block_start][:, cols]
        out = np.asarray(masker.apply(seg, r, offset, states[r.index], rate), dtype=np.float64)
        if out.shape != seg.shape:
            raise MaskError(f"masker {masker.name!r} returned {out.shape} samples for {seg.shape}")
        block[a - block_start:b - block_start, cols] = out * edge_envelope(r, offset, b - a, fade)[:, None]
    return True


def edge_envelope(rng: FrameRange, offset: int, n: int, fade: int) -> np.ndarray:
    """Gains for frames ``[offset, offset+n)`` of a range: raised-cosine rise and fall at its edges."""
    env = np.ones(n)
    f = min(fade, rng.frames // 2)
    if f <= 0:
        return env
    pos = np.arange(offset, offset + n)
    up = pos < f
    env[up] = raised_cosine(f)[pos[up]]
    down = pos >= rng.frames - f
    env[down] = raised_cosine(f, rising=False)[pos[down] - (rng.frames - f)]
    return env


def render_window(source: Any, ranges: Sequence[FrameRange], masker: Masker, states: Mapping[int, Any],
                  start: int, end: int, fade: int) -> np.ndarray:
    """Masked float64 frames ``[start, end)`` of ``source`` — exactly what the masked file holds there."""
    block = source.read(start, end)
    apply_block(block, start, ranges, masker, states, source.rate, fade)
    return block
