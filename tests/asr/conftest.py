"""Test speech for the asr tests: espeak-ng says each word alone; concatenation gives exact word times."""

from __future__ import annotations

import functools
import io
import shutil
import subprocess
from dataclasses import dataclass

import numpy as np
import pytest
import soundfile as sf
from scipy.signal import resample_poly

RATE = 16_000


@dataclass
class Clip:
    audio: np.ndarray  # float32 mono at RATE
    words: list[tuple[str, float, float]]  # spoken text, start, end (seconds)

    @property
    def text(self) -> str:
        return " ".join(w for w, _, _ in self.words)


@functools.lru_cache(maxsize=256)
def _say(word: str, voice: str) -> np.ndarray:
    raw = subprocess.run(
        ["espeak-ng", "-v", voice, "-s", "165", "--stdout", word], capture_output=True, check=True
    ).stdout
    x, rate = sf.read(io.BytesIO(raw), dtype="float32")
    g = np.gcd(rate, RATE)
    x = resample_poly(x, RATE // g, rate // g).astype(np.float32)
    loud = np.nonzero(np.abs(x) > 0.02 * np.abs(x).max())[0]
    return x[loud[0] : loud[-1] + 1]


def synth(words: list[str], *, voice: str = "en-us", gap: float = 0.15, lead: float = 0.5, seed: int = 0) -> Clip:
    """Concatenate per-word speech with ``gap`` s between words over a faint noise floor."""
    parts = [np.zeros(int(lead * RATE), np.float32)]
    t = lead
    ref = []
    for w in words:
        a = _say(w, voice)
        ref.append((w, round(t, 3), round(t + len(a) / RATE, 3)))
        parts += [a, np.zeros(int(gap * RATE), np.float32)]
        t += len(a) / RATE + gap
    parts.append(np.zeros(int(0.5 * RATE), np.float32))
    audio = np.concatenate(parts)
    audio += np.random.default_rng(seed).normal(0, 2e-4, len(audio)).astype(np.float32)
    return Clip(audio=audio, words=ref)


SENTENCE = "my name is john and my card number is four one one one".split()


@pytest.fixture(scope="session")
def espeak() -> None:
    if shutil.which("espeak-ng") is None:
        pytest.skip("espeak-ng is not installed (apt install espeak-ng)")


@pytest.fixture(scope="session")
def clip(espeak: None) -> Clip:
    return synth(SENTENCE)


@pytest.fixture(scope="session")
def clip_wav(clip: Clip, tmp_path_factory: pytest.TempPathFactory):
    path = tmp_path_factory.mktemp("asr") / "clip.wav"
    sf.write(path, clip.audio, RATE)
    return path


@pytest.fixture(scope="session")
def make_clip(espeak: None):
    """The :func:`synth` factory, for tests that need their own words."""
    return synth
