"""Test-wide settings: Qt renders offscreen, models never reach for a hub."""

import os

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
# batch stages run in the test process unless a test asks for a cluster (--workers N, executor=...)
os.environ.setdefault("REDACTDESK_WORKERS", "1")


@pytest.fixture(autouse=True)
def _private_config_dir(tmp_path_factory, monkeypatch):
    """Every test gets its own redactdesk config folder (reviewers' keys, trust store): none writes
    the real home folder, and no test sees another's keys."""
    monkeypatch.setenv("REDACTDESK_CONFIG_DIR", str(tmp_path_factory.mktemp("config")))
    # the CLI's activity log and crash logs go to the user log folder ($XDG_STATE_HOME/redactdesk/log)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path_factory.mktemp("state")))


@pytest.fixture
def sound_recogniser():
    """``make(text, block=0.1)``: a recogniser that "hears" ``text`` in every ``block`` seconds of audio
    that still hold sound (a stand-in for Whisper in re-listen tests)."""
    import numpy as np

    from redactdesk.core.types import Word

    def make(text, block=0.1):
        def recognise(x, rate):
            n = int(block * rate)
            return [Word(text, i / rate, (i + n) / rate) for i in range(0, len(x) - n + 1, n)
                    if np.sqrt(np.mean(x[i:i + n] ** 2)) > 1e-3]

        return recognise

    return make


@pytest.fixture
def words_backend():
    """``make(words, language)`` registers an ASR backend that gives back ``words`` without their
    speakers (what a recogniser gives on a mono recording) and returns its name."""
    from redactdesk.asr import register_backend
    from redactdesk.asr.base import BackendOutput
    from redactdesk.core.types import Word

    def make(words, language: str = "en", name: str = "fixed-words") -> str:
        given = [Word(w.text, w.start, w.end) for w in words]

        class _FixedWords:
            def __init__(self, model="x", **_):
                self.model = model

            def available(self):
                return True, "ready"

            def transcribe(self, audio, rate, *, language=None, progress=None, cancel=None):
                return BackendOutput(words=list(given), language=language or default_language)

        default_language = language
        register_backend(name, _FixedWords)
        return name

    return make
