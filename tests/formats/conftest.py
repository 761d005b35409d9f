"""Fixtures for format tests: tiny audio files and word lists made on the fly."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

from redactdesk.core.types import Word

DATA = Path(__file__).parent / "data"


@pytest.fixture
def data_dir() -> Path:
    return DATA


@pytest.fixture
def make_audio(tmp_path):
    """make_audio(name, seconds=1.0, rate=16000, channels=1, **sf_kwargs) -> Path (a quiet tone)."""

    def _make(name: str, seconds: float = 1.0, rate: int = 16000, channels: int = 1, **kw) -> Path:
        t = np.arange(int(seconds * rate)) / rate
        tone = (0.2 * np.sin(2 * np.pi * 440 * t)).astype("float32")
        data = np.stack([tone] * channels, axis=1) if channels > 1 else tone
        path = tmp_path / name
        sf.write(str(path), data, rate, **kw)
        return path

    return _make


@pytest.fixture
def sample_words() -> list[Word]:
    """Two speakers, varied times (with sub-millisecond digits), one unaligned word."""
    return [
        Word("Hello", 0.1234, 0.4567, 0.9, "AGENT", None, True),
        Word("my", 0.5, 0.62, 0.8, "AGENT", None, True),
        Word("name", 0.65, 0.9001, None, "AGENT", None, True),
        Word("is", 0.95, 1.05, 0.7, "AGENT", None, True),
        Word("Zoë", 1.1, 1.6, 0.95, "AGENT", None, True),
        Word("hi", 2.0, 2.2, 0.5, "CUSTOMER", None, True),
        Word("Zoë", 2.25, 2.7, 0.6, "CUSTOMER", None, False),
    ]


def assert_same_words(got: list[Word], want: list[Word], tol: float = 0.001, speakers: bool = True) -> None:
    assert [w.text for w in got] == [w.text for w in want]
    for g, w in zip(got, want, strict=True):
        assert abs(g.start - w.start) <= tol, (g, w)
        assert abs(g.end - w.end) <= tol, (g, w)
        if speakers:
            assert g.speaker == w.speaker


@pytest.fixture
def same_words():
    return assert_same_words
