"""The masker protocol and the helpers maskers share.

A masker replaces the samples inside each range. The engine (:mod:`redactdesk.audio.engine`) calls
``prepare`` once with every range (to measure levels, synthesise surrogates, run a recogniser...),
then ``apply`` for each piece of a range that falls inside a streamed block, in file order. ``apply``
must depend only on the state and the position, so a preview of one span equals the same span of
the masked file. This module knows no implementation: the catalogue of maskers by name is
:mod:`redactdesk.audio.registry` (``get_masker(name)``, ``register_masker``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

import numpy as np

from redactdesk.audio.errors import MaskError
from redactdesk.audio.ranges import MaskRange


@dataclass(frozen=True)
class FrameRange:
    """A mask range in frames ``[start, end)`` of one file; ``channels`` are the column indices masked."""

    index: int
    start: int
    end: int
    channels: tuple[int, ...]
    source: MaskRange

    @property
    def frames(self) -> int:
        return self.end - self.start


@runtime_checkable
class SourceReader(Protocol):
    """Random access to the original audio as float64 ``(frames, channels)`` in [-1, 1)."""

    rate: int
    channels: int
    frames: int

    def read(self, start: int, end: int) -> np.ndarray: ...


@runtime_checkable
class Masker(Protocol):
    """One way of hiding speech. ``validate`` returns the full parameter set or raises MaskError."""

    name: str
    description: str

    def available(self) -> tuple[bool, str]: ...

    def validate(self, params: Mapping[str, Any] | None) -> dict[str, Any]: ...

    def prepare(self, source: SourceReader, ranges: Sequence[FrameRange], params: dict[str, Any]) -> list[Any]: ...

    def apply(self, segment: np.ndarray, rng: FrameRange, offset: int, state: Any, rate: int) -> np.ndarray: ...


def check_params(name: str, params: Mapping[str, Any] | None, defaults: Mapping[str, Any]) -> dict[str, Any]:
    """``defaults`` overlaid with ``params``; unknown keys are refused with the list of known ones."""
    given = dict(params or {})
    unknown = sorted(set(given) - set(defaults))
    if unknown:
        raise MaskError(f"masker {name!r} has no parameter(s) {', '.join(unknown)}; "
                        f"known: {', '.join(sorted(defaults))}")
    return {**defaults, **given}


def number(name: str, params: Mapping[str, Any], key: str, lo: float, hi: float) -> float:
    """``params[key]`` as a float within ``[lo, hi]``, else a readable MaskError."""
    try:
        value = float(params[key])
    except (TypeError, ValueError):
        raise MaskError(f"masker {name!r}: {key} must be a number, got {params[key]!r}") from None
    if not lo <= value <= hi:
        raise MaskError(f"masker {name!r}: {key} must be between {lo} and {hi}, got {value}")
    return value


def raised_cosine(n: int, rising: bool = True) -> np.ndarray:
    """``n`` gains of a raised-cosine ramp strictly between 0 and 1 (rising or falling)."""
    k = np.arange(1, n + 1, dtype=np.float64)
    up = 0.5 * (1.0 - np.cos(np.pi * k / (n + 1)))
    return up if rising else up[::-1]


def rms(x: np.ndarray) -> np.ndarray:
    """Root mean square of each column of ``x`` (0 for no rows)."""
    if len(x) == 0:
        return np.zeros(x.shape[1] if x.ndim == 2 else 1)
    return np.sqrt(np.mean(np.square(x, dtype=np.float64), axis=0))


def range_rms(source: SourceReader, rng: FrameRange, chunk: int = 1 << 18) -> np.ndarray:
    """RMS of each masked channel over the range, read in chunks (long event ranges stay cheap)."""
    total = np.zeros(len(rng.channels))
    for a in range(rng.start, rng.end, chunk):
        x = source.read(a, min(rng.end, a + chunk))[:, list(rng.channels)]
        total += np.sum(np.square(x), axis=0)
    return np.sqrt(total / max(1, rng.frames))
