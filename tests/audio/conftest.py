"""Fixtures for the audio tests: small files in every supported layout, and espeak-ng speech."""

from __future__ import annotations

import io
import shutil
import subprocess
from math import gcd
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf
from scipy.signal import resample_poly

from redactdesk.core.types import Conversation, Span, SpanStatus, Word


def speechlike(seconds: float, rate: int, channels: int, seed: int = 1) -> np.ndarray:
    """A voiced-looking test signal: a 140 Hz harmonic buzz with a syllable-rate envelope plus noise."""
    rng = np.random.default_rng(seed)
    t = np.arange(int(seconds * rate)) / rate
    buzz = sum(np.sin(2 * np.pi * 140 * k * t) / k for k in range(1, 8))
    env = 0.5 + 0.5 * np.sin(2 * np.pi * 3.0 * t) ** 2
    cols = [0.25 * buzz * env * (1 + 0.3 * c) + 0.01 * rng.standard_normal(len(t)) for c in range(channels)]
    return np.clip(np.stack(cols, axis=1) / 4.0, -0.99, 0.99)


@pytest.fixture
def make_audio(tmp_path: Path):
    """make_audio(name, fmt, subtype, channels, seconds=2.0, rate=16000) -> path of a written file."""

    def make(name: str = "in.wav", fmt: str = "WAV", subtype: str = "PCM_16", channels: int = 1,
             seconds: float = 2.0, rate: int = 16000) -> Path:
        path = tmp_path / name
        sf.write(str(path), speechlike(seconds, rate, channels), rate, format=fmt, subtype=subtype)
        return path

    return make


def say(text: str, rate: int = 16000, wpm: int = 150) -> np.ndarray:
    out = subprocess.run(["espeak-ng", "-v", "en-us", "-s", str(wpm), "--stdout"], input=text.encode(),
                         capture_output=True, check=True).stdout
    x, r = sf.read(io.BytesIO(out), dtype="float64")
    x = resample_poly(x, rate // gcd(rate, r), r // gcd(rate, r))
    loud = np.flatnonzero(np.abs(x) > 0.01 * np.abs(x).max())
    return x[loud[0]:loud[-1] + 1]


def _spoken_conversation(words: list[str], accepted: list[tuple[int, int, str]], rate: int = 16000,
                         gap: float = 0.06) -> tuple[np.ndarray, Conversation]:
    """Words synthesised one by one and concatenated, so every word's time is exact."""
    parts, out, t = [np.zeros(int(0.3 * rate))], [], 0.3
    for w in words:
        x = say(w, rate)
        out.append(Word(w, round(t, 4), round(t + len(x) / rate, 4), 0.99, "caller", 0))
        parts += [x, np.zeros(int(gap * rate))]
        t += len(x) / rate + gap
    parts.append(np.zeros(int(0.4 * rate)))
    audio = 0.5 * np.concatenate(parts)
    spans = [Span(a, b, cat, SpanStatus.ACCEPTED, id=i + 1) for i, (a, b, cat) in enumerate(accepted)]
    conv = Conversation(id="spoken", sample_rate=rate, channels=1, duration=len(audio) / rate, words=out,
                        spans=spans)
    return audio, conv


@pytest.fixture
def espeak():
    """Skips the test where espeak-ng is not installed."""
    if shutil.which("espeak-ng") is None:
        pytest.skip("espeak-ng is not installed")


@pytest.fixture
def spoken_conversation(espeak):
    """spoken_conversation(words, [(start_word, end_word, category)]) -> (audio, Conversation); needs espeak-ng."""
    return _spoken_conversation
