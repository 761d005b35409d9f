"""The simple maskers: silence, a beep at the span's level, and white or pink noise at matched RMS.

Random signals are drawn in fixed chunks seeded by (seed, range, chunk), so any piece of a range can
be rendered on its own and still equal the same piece of the whole file.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
from scipy.signal import lfilter

from redactdesk.audio.base import (
    FrameRange,
    SourceReader,
    check_params,
    number,
    range_rms,
)
from redactdesk.audio.errors import MaskError

CHUNK = 1 << 14  # frames per seeded random chunk


def db_to_amp(db: float) -> float:
    return float(10.0 ** (db / 20.0))


def clamp_level(levels: np.ndarray, lo_db: float, hi_db: float) -> np.ndarray:
    """RMS levels clamped to ``[lo_db, hi_db]`` dBFS (a near-silent span still gets an audible mask)."""
    return np.clip(levels, db_to_amp(lo_db), db_to_amp(hi_db))


def seeded_chunks(seed: int, key: int, offset: int, n: int, cols: int,
                  draw: Callable[[np.random.Generator, int, int], np.ndarray]) -> np.ndarray:
    """Frames ``[offset, offset+n)`` of a random stream made of independently seeded chunks."""
    first, last = offset // CHUNK, (offset + n - 1) // CHUNK
    parts = [draw(np.random.default_rng([seed, key, j]), CHUNK, cols) for j in range(first, last + 1)]
    stream = np.concatenate(parts) if len(parts) > 1 else parts[0]
    a = offset - first * CHUNK
    return stream[a:a + n]


# Paul Kellet's economy pink filter (-3 dB/octave), as a 3-pole IIR
_PINK_B = np.array([0.049922035, -0.095993537, 0.050612699, -0.004408786])
_PINK_A = np.array([1.0, -2.494956002, 2.017265875, -0.522189400])
_PINK_WARMUP = 4096


@functools.lru_cache(maxsize=1)
def _pink_gain() -> float:
    impulse = np.zeros(1 << 16)
    impulse[0] = 1.0
    return float(np.sqrt(np.sum(lfilter(_PINK_B, _PINK_A, impulse) ** 2)))


def _white(rng: np.random.Generator, n: int, cols: int) -> np.ndarray:
    return rng.standard_normal((n, cols))


def pink_noise(seed: int, key: int, offset: int, n: int, cols: int) -> np.ndarray:
    """Unit-RMS pink noise, frames ``[offset, offset+n)``; a warm-up keeps pieces continuous."""
    start = max(0, offset - _PINK_WARMUP)
    white = seeded_chunks(seed, key, start, offset + n - start, cols, _white)
    return lfilter(_PINK_B, _PINK_A, white, axis=0)[offset - start:] / _pink_gain()


class SilenceMasker:
    name = "silence"
    description = "digital silence"

    def available(self) -> tuple[bool, str]:
        return True, "ready"

    def validate(self, params: Mapping[str, Any] | None) -> dict[str, Any]:
        return check_params(self.name, params, {})

    def prepare(self, source: SourceReader, ranges: Sequence[FrameRange], params: dict[str, Any]) -> list[Any]:
        return [None] * len(ranges)

    def apply(self, segment: np.ndarray, rng: FrameRange, offset: int, state: Any, rate: int) -> np.ndarray:
        return np.zeros_like(segment)


class BeepMasker:
    name = "beep"
    description = "a sine tone at the span's RMS level"
    defaults = {"frequency": 1000.0, "min_dbfs": -45.0, "max_dbfs": -6.0}

    def available(self) -> tuple[bool, str]:
        return True, "ready"

    def validate(self, params: Mapping[str, Any] | None) -> dict[str, Any]:
        p = check_params(self.name, params, self.defaults)
        p["frequency"] = number(self.name, p, "frequency", 50.0, 8000.0)
        p["min_dbfs"] = number(self.name, p, "min_dbfs", -120.0, 0.0)
        p["max_dbfs"] = number(self.name, p, "max_dbfs", p["min_dbfs"], 0.0)
        return p

    def prepare(self, source: SourceReader, ranges: Sequence[FrameRange], params: dict[str, Any]) -> list[Any]:
        freq = params["frequency"]
        if freq >= source.rate / 2:
            raise MaskError(f"beep frequency {freq:g} Hz is above half the sample rate ({source.rate} Hz)")
        return [(clamp_level(range_rms(source, r), params["min_dbfs"], params["max_dbfs"]) * np.sqrt(2.0), freq)
                for r in ranges]

    def apply(self, segment: np.ndarray, rng: FrameRange, offset: int, state: Any, rate: int) -> np.ndarray:
        amplitude, freq = state
        t = (rng.start + offset + np.arange(len(segment))) / rate
        return np.sin(2 * np.pi * freq * t)[:, None] * amplitude[None, :]


class NoiseMasker:
    name = "noise"
    description = "white or pink noise at the span's RMS level"
    defaults = {"color": "pink", "seed": 0, "min_dbfs": -60.0}

    def available(self) -> tuple[bool, str]:
        return True, "ready"

    def validate(self, params: Mapping[str, Any] | None) -> dict[str, Any]:
        p = check_params(self.name, params, self.defaults)
        if p["color"] not in ("white", "pink"):
            raise MaskError(f"masker 'noise': color must be 'white' or 'pink', got {p['color']!r}")
        if not isinstance(p["seed"], int) or isinstance(p["seed"], bool) or p["seed"] < 0:
            raise MaskError(f"masker 'noise': seed must be a whole number >= 0, got {p['seed']!r}")
        p["min_dbfs"] = number(self.name, p, "min_dbfs", -120.0, 0.0)
        return p

    def prepare(self, source: SourceReader, ranges: Sequence[FrameRange], params: dict[str, Any]) -> list[Any]:
        return [(clamp_level(range_rms(source, r), params["min_dbfs"], 0.0), params["color"], params["seed"])
                for r in ranges]

    def apply(self, segment: np.ndarray, rng: FrameRange, offset: int, state: Any, rate: int) -> np.ndarray:
        level, color, seed = state
        cols = segment.shape[1]
        if color == "pink":
            noise = pink_noise(seed, rng.index, offset, len(segment), cols)
        else:
            noise = seeded_chunks(seed, rng.index, offset, len(segment), cols, _white)
        return noise * level[None, :]

