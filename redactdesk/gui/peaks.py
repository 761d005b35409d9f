"""Min/max peak pyramid for drawing long recordings fast (pure numpy: no Qt, testable alone).

A recording is read once, block by block, into per-bin minima and maxima at ``base`` samples per
bin (level 0); each further level merges ``factor`` bins of the level below. Drawing any time window
at any width then touches at most a few thousand numbers: pick the coarsest level whose bins are no
wider than one pixel, slice it, and merge down to about one bin per pixel. When one pixel covers
fewer samples than a level-0 bin, :meth:`PeakPyramid.window` asks the caller for the raw samples.

Pyramids can be saved to and loaded from ``.npz`` files (a cache keyed by the audio's sha256).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

DEFAULT_BASE = 64
DEFAULT_FACTOR = 4


@dataclass
class PeakWindow:
    """What to draw for one view: ``x`` times (s) and ``y`` values with one row per channel.

    ``kind`` is "peaks" (``x``/``y`` hold min,max pairs per bin: draw vertical segments, i.e.
    connect pairs) or "samples" (a plain line through raw samples).
    """

    kind: str
    x: np.ndarray
    y: np.ndarray  # (channels, len(x))


class PeakPyramid:
    """Min/max decimation levels of a (frames, channels) signal.

    ``mins[k]``/``maxs[k]`` are float32 arrays (channels, n_bins_k) with ``base * factor**k``
    samples per bin.
    """

    def __init__(self, mins: list[np.ndarray], maxs: list[np.ndarray], *, rate: int, frames: int,
                 base: int = DEFAULT_BASE, factor: int = DEFAULT_FACTOR) -> None:
        if not mins or len(mins) != len(maxs):
            raise ValueError("a peak pyramid needs at least one level of minima and maxima")
        self.mins = mins
        self.maxs = maxs
        self.rate = int(rate)
        self.frames = int(frames)
        self.base = int(base)
        self.factor = int(factor)

    # ------------------------------------------------------------------ building
    @classmethod
    def from_blocks(cls, blocks: Iterable[np.ndarray], rate: int, *, base: int = DEFAULT_BASE,
                    factor: int = DEFAULT_FACTOR, min_bins: int = 256, scale: float = 1.0,
                    progress: Callable[[int], None] | None = None) -> PeakPyramid:
        """Build from an iterable of (frames, channels) blocks (any block sizes).

        Blocks may be float or integer samples (integers are cheaper to read and reduce);
        ``scale`` turns them into [-1, 1] floats at the end (1/32768 for int16).
        """
        mins0, maxs0, frames = level0(blocks, base, progress)
        return cls.from_level0(mins0, maxs0, rate=rate, frames=frames, base=base, factor=factor,
                               min_bins=min_bins, scale=scale)

    @classmethod
    def from_level0(cls, mins0: np.ndarray, maxs0: np.ndarray, *, rate: int, frames: int,
                    base: int = DEFAULT_BASE, factor: int = DEFAULT_FACTOR, min_bins: int = 256,
                    scale: float = 1.0) -> PeakPyramid:
        """Build the upper levels over level-0 minima/maxima (channels, bins) of ``base`` samples."""
        if mins0.shape[1] == 0:
            raise ValueError("no audio samples to draw")
        mins = [mins0.astype(np.float32) * np.float32(scale)]
        maxs = [maxs0.astype(np.float32) * np.float32(scale)]
        while mins[-1].shape[1] > min_bins:
            mn, mx = _merge(mins[-1], maxs[-1], factor)
            mins.append(mn)
            maxs.append(mx)
        return cls(mins, maxs, rate=rate, frames=frames, base=base, factor=factor)

    @classmethod
    def from_array(cls, samples: np.ndarray, rate: int, **kw: int) -> PeakPyramid:
        return cls.from_blocks([samples], rate, **kw)

    # ------------------------------------------------------------------ facts
    @property
    def channels(self) -> int:
        return int(self.mins[0].shape[0])

    @property
    def duration(self) -> float:
        return self.frames / self.rate

    def bin_size(self, level: int) -> int:
        return self.base * self.factor ** level

    def level_for(self, samples_per_pixel: float) -> int | None:
        """Coarsest level whose bins are not wider than one pixel; None when raw samples are needed."""
        if samples_per_pixel < self.base:
            return None
        level = int(math.floor(math.log(samples_per_pixel / self.base, self.factor) + 1e-9))
        return max(0, min(level, len(self.mins) - 1))

    # ------------------------------------------------------------------ querying
    def window(self, t0: float, t1: float, pixels: int,
               read_samples: Callable[[int, int], np.ndarray] | None = None) -> PeakWindow:
        """What to draw for times ``[t0, t1]`` on ``pixels`` horizontal pixels.

        ``read_samples(start_frame, end_frame)`` returns raw (frames, channels) samples; it is
        only called when zoomed in below one level-0 bin per pixel (when it is None, level 0 is
        used instead).
        """
        pixels = max(1, int(pixels))
        t0 = max(0.0, t0)
        t1 = min(self.duration, t1)
        if t1 <= t0:
            return PeakWindow("peaks", np.zeros(0), np.zeros((self.channels, 0), dtype=np.float32))
        f0 = int(t0 * self.rate)
        f1 = int(math.ceil(t1 * self.rate))
        spp = (f1 - f0) / pixels
        level = self.level_for(spp)
        if level is None and read_samples is not None:
            a = max(0, f0 - 1)
            b = min(self.frames, f1 + 1)
            data = np.asarray(read_samples(a, b), dtype=np.float32)
            if data.ndim == 1:
                data = data[:, None]
            x = (a + np.arange(len(data))) / self.rate
            return PeakWindow("samples", x, np.ascontiguousarray(data.T))
        level = level or 0
        size = self.bin_size(level)
        b0 = max(0, f0 // size - 1)
        b1 = min(self.mins[level].shape[1], f1 // size + 2)
        mn = self.mins[level][:, b0:b1]
        mx = self.maxs[level][:, b0:b1]
        # merge further so that there are about `pixels` bins
        group = max(1, int((b1 - b0) // pixels))
        if group > 1:
            n = ((b1 - b0) // group) * group
            mn = mn[:, :n].reshape(mn.shape[0], -1, group).min(axis=2)
            mx = mx[:, :n].reshape(mx.shape[0], -1, group).max(axis=2)
        width = size * group
        centres = (b0 * size + (np.arange(mn.shape[1]) + 0.5) * width) / self.rate
        x = np.repeat(centres, 2)
        y = np.empty((mn.shape[0], 2 * mn.shape[1]), dtype=np.float32)
        y[:, 0::2] = mn
        y[:, 1::2] = mx
        return PeakWindow("peaks", x, y)

    # ------------------------------------------------------------------ cache files
    def save(self, path: str | Path) -> None:
        arrays = {f"min{i}": m for i, m in enumerate(self.mins)}
        arrays.update({f"max{i}": m for i, m in enumerate(self.maxs)})
        header = np.array([self.rate, self.frames, self.base, self.factor, len(self.mins)], dtype=np.int64)
        p = Path(path)
        p.parent.mkdir(parents=True, exist_ok=True)
        tmp = p.with_name(p.name + ".tmp.npz")
        np.savez(tmp, header=header, **arrays)
        tmp.replace(p)

    @classmethod
    def load(cls, path: str | Path) -> PeakPyramid:
        with np.load(path) as data:
            rate, frames, base, factor, n = (int(v) for v in data["header"])
            mins = [data[f"min{i}"] for i in range(n)]
            maxs = [data[f"max{i}"] for i in range(n)]
        return cls(mins, maxs, rate=rate, frames=frames, base=base, factor=factor)


def level0(blocks: Iterable[np.ndarray], base: int = DEFAULT_BASE,
           progress: Callable[[int], None] | None = None) -> tuple[np.ndarray, np.ndarray, int]:
    """Per-``base``-samples minima and maxima (channels, bins) of a stream of (frames, ch) blocks.

    Keeps the samples' dtype (int16 stays int16); a last partial bin covers the leftover samples.
    Returns (mins, maxs, frames).
    """
    mins0: list[np.ndarray] = []
    maxs0: list[np.ndarray] = []
    carry: np.ndarray | None = None
    frames = 0
    channels = 1
    for block in blocks:
        block = np.asarray(block)
        if block.dtype.kind not in "iu":
            block = block.astype(np.float32, copy=False)
        if block.ndim == 1:
            block = block[:, None]
        channels = block.shape[1]
        frames += len(block)
        if carry is not None and len(carry):
            block = np.concatenate([carry, block])
        usable = (len(block) // base) * base
        if usable:
            mn, mx = _reduce(block[:usable], base)
            mins0.append(mn)
            maxs0.append(mx)
        carry = block[usable:]
        if progress is not None:
            progress(frames)
    if carry is not None and len(carry):
        mins0.append(carry.min(axis=0)[:, None])
        maxs0.append(carry.max(axis=0)[:, None])
    if not mins0:
        empty = np.zeros((channels, 0), dtype=np.float32)
        return empty, empty, frames
    return np.concatenate(mins0, axis=1), np.concatenate(maxs0, axis=1), frames


def _reduce(block: np.ndarray, base: int) -> tuple[np.ndarray, np.ndarray]:
    """(frames, ch) with frames % base == 0 -> per-bin (ch, bins) minima and maxima."""
    mins, maxs = [], []
    for c in range(block.shape[1]):
        col = np.ascontiguousarray(block[:, c]).reshape(-1, base)  # contiguous rows reduce fastest
        mins.append(col.min(axis=1))
        maxs.append(col.max(axis=1))
    return np.stack(mins), np.stack(maxs)


def _merge(mins: np.ndarray, maxs: np.ndarray, factor: int) -> tuple[np.ndarray, np.ndarray]:
    n = mins.shape[1]
    full = (n // factor) * factor
    mn = mins[:, :full].reshape(mins.shape[0], -1, factor).min(axis=2)
    mx = maxs[:, :full].reshape(maxs.shape[0], -1, factor).max(axis=2)
    if full < n:
        mn = np.concatenate([mn, mins[:, full:].min(axis=1, keepdims=True)], axis=1)
        mx = np.concatenate([mx, maxs[:, full:].max(axis=1, keepdims=True)], axis=1)
    return np.ascontiguousarray(mn), np.ascontiguousarray(mx)
