"""Bring audio to the 16 kHz mono float32 that the recognisers and the aligner work at."""

from __future__ import annotations

from math import gcd

import numpy as np
from scipy.signal import resample_poly

WORK_RATE = 16_000


def to_mono(audio: np.ndarray) -> np.ndarray:
    """Average the channels of a (frames, channels) array; 1-D input is returned as is."""
    audio = np.asarray(audio, dtype=np.float32)
    return audio.mean(axis=1, dtype=np.float32) if audio.ndim == 2 else audio


def to_work_rate(audio: np.ndarray, rate: int, target: int = WORK_RATE) -> np.ndarray:
    """Polyphase-resample 1-D ``audio`` from ``rate`` to ``target`` Hz (8 kHz telephony, 44.1/48 kHz, …)."""
    audio = np.asarray(audio, dtype=np.float32)
    if rate == target or len(audio) == 0:
        return audio
    if rate <= 0:
        raise ValueError(f"sample rate must be positive, got {rate}")
    g = gcd(int(rate), int(target))
    return resample_poly(audio, target // g, int(rate) // g).astype(np.float32)
