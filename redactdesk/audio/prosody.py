"""How much prosody a masker keeps (seed 001): pitch and energy RMSD against the original.

Per masked range, the pitch contour (Praat's autocorrelation method through parselmouth; unvoiced
frames count as 0 Hz) and the energy contour (frame RMS, full scale = 1) of the masked audio are
compared with the original's by root-mean-square deviation, and so are those of plain silence
(whose pitch and energy are all zero). The summary adds the per-range RMSDs up, as the seed does, and
gives the gain over silence: ``(silence - masked) / silence`` -- the share of pitch or energy
information the masker keeps that silence loses.
"""

from __future__ import annotations

import math
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import parselmouth

from redactdesk.audio.engine import AudioSource
from redactdesk.audio.errors import MaskError
from redactdesk.audio.ranges import MaskRange, SpanKey


@dataclass(frozen=True)
class RangeProsody:
    """Pitch (Hz) and energy RMSDs of one range: masked vs original and silence vs original."""

    range_index: int
    start: float
    end: float
    span_ids: tuple[SpanKey, ...]
    frames: int
    pitch_rmsd: float
    energy_rmsd: float
    pitch_rmsd_silence: float
    energy_rmsd_silence: float

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["span_ids"] = list(self.span_ids)
        return d


@dataclass
class ProsodySummary:
    """Totals over ranges and the gain over silence (NaN when the original has no pitch/energy)."""

    method: str
    ranges: list[RangeProsody] = field(default_factory=list)

    def _total(self, name: str) -> float:
        return float(sum(getattr(r, name) for r in self.ranges))

    @property
    def pitch_rmsd(self) -> float:
        return self._total("pitch_rmsd")

    @property
    def energy_rmsd(self) -> float:
        return self._total("energy_rmsd")

    @property
    def pitch_rmsd_silence(self) -> float:
        return self._total("pitch_rmsd_silence")

    @property
    def energy_rmsd_silence(self) -> float:
        return self._total("energy_rmsd_silence")

    @property
    def pitch_gain(self) -> float:
        s = self.pitch_rmsd_silence
        return (s - self.pitch_rmsd) / s if s > 0 else math.nan

    @property
    def energy_gain(self) -> float:
        s = self.energy_rmsd_silence
        return (s - self.energy_rmsd) / s if s > 0 else math.nan

    def to_dict(self) -> dict[str, Any]:
        return {"method": self.method, "pitch_rmsd": self.pitch_rmsd, "energy_rmsd": self.energy_rmsd,
                "pitch_rmsd_silence": self.pitch_rmsd_silence, "energy_rmsd_silence": self.energy_rmsd_silence,
                "pitch_gain": self.pitch_gain, "energy_gain": self.energy_gain,
                "ranges": [r.to_dict() for r in self.ranges]}


def pitch_at(x: np.ndarray, rate: int, times: np.ndarray, *, floor: float = 75.0, ceiling: float = 500.0,
             time_step: float = 0.01) -> np.ndarray:
    """Pitch in Hz at ``times`` (seconds into ``x``); 0 where Praat finds the frame unvoiced."""
    if len(x) < int(rate * 3.0 / floor) + 1 or not np.any(x):
        return np.zeros(len(times))
    snd = parselmouth.Sound(np.asarray(x, dtype=np.float64), sampling_frequency=float(rate))
    pitch = snd.to_pitch(time_step=time_step, pitch_floor=floor, pitch_ceiling=ceiling)
    xs = pitch.xs()
    f0 = np.nan_to_num(pitch.selected_array["frequency"], nan=0.0)
    if len(xs) == 0:
        return np.zeros(len(times))
    idx = np.clip(np.rint((times - xs[0]) / pitch.dt).astype(int), 0, len(xs) - 1)
    near = np.abs(xs[idx] - times) <= pitch.dt
    return np.where(near, f0[idx], 0.0)


def energy_at(x: np.ndarray, rate: int, times: np.ndarray, window: float = 0.02) -> np.ndarray:
    """Frame RMS of ``x`` over ``window`` seconds centred on each of ``times``."""
    half = max(1, int(round(window * rate / 2)))
    centres = np.rint(times * rate).astype(int)
    out = np.zeros(len(times))
    sq = np.concatenate([[0.0], np.cumsum(np.square(x, dtype=np.float64))])
    lo = np.clip(centres - half, 0, len(x))
    hi = np.clip(centres + half, 0, len(x))
    n = hi - lo
    ok = n > 0
    out[ok] = np.sqrt(np.maximum(sq[hi[ok]] - sq[lo[ok]], 0.0) / n[ok])
    return out


def _rmsd(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.sqrt(np.mean((a - b) ** 2))) if len(a) else 0.0


def _listen(x: np.ndarray, r: MaskRange) -> np.ndarray:
    if r.channel is not None and 0 <= r.channel < x.shape[1]:
        return x[:, r.channel]
    return x.mean(axis=1)


def range_prosody(original: np.ndarray, masked: np.ndarray, rate: int, r: MaskRange, index: int,
                  window_start: float, time_step: float = 0.01) -> RangeProsody:
    """RMSDs for one range given the two signals over a window starting at ``window_start`` seconds."""
    o, m = _listen(original, r), _listen(masked, r)
    n = max(1, int((r.end - r.start) / time_step))
    times = r.start - window_start + (np.arange(n) + 0.5) * time_step
    po, pm = pitch_at(o, rate, times, time_step=time_step), pitch_at(m, rate, times, time_step=time_step)
    eo, em = energy_at(o, rate, times), energy_at(m, rate, times)
    zeros = np.zeros(n)
    return RangeProsody(index, round(r.start, 3), round(r.end, 3), r.span_ids, n,
                        _rmsd(pm, po), _rmsd(em, eo), _rmsd(zeros, po), _rmsd(zeros, eo))


def prosody_report(original_path: str | os.PathLike[str], masked_path: str | os.PathLike[str],
                   ranges: list[MaskRange], *, method: str = "", pad: float = 0.1,
                   time_step: float = 0.01) -> ProsodySummary:
    """Pitch/energy RMSDs of every range, masked and silenced, against the original recording."""
    out = ProsodySummary(method)
    with AudioSource(Path(original_path)) as orig, AudioSource(Path(masked_path)) as masked:
        if (orig.rate, orig.channels, orig.frames) != (masked.rate, masked.channels, masked.frames):
            raise MaskError("masked audio does not match the original (rate, channels or length differ)")
        rate = orig.rate
        for i, r in enumerate(ranges):
            a = max(0, int((r.start - pad) * rate))
            b = min(orig.frames, int(math.ceil((r.end + pad) * rate)))
            out.ranges.append(range_prosody(orig.read(a, b), masked.read(a, b), rate, r, i, a / rate, time_step))
    return out


def prosody_metrics(original_path: str | os.PathLike[str], masked_path: str | os.PathLike[str],
                    conv: Any, ranges: list[MaskRange]) -> list[RangeProsody]:
    """Per-range rows for a release report (``conv`` is accepted for the caller's convenience)."""
    return prosody_report(original_path, masked_path, ranges).ranges
