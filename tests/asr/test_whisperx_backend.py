"""The whisperx adapter: it cannot run here, so test what it says is missing and its result reader."""

import math

import pytest

from redactdesk.asr import backend_names, get_backend
from redactdesk.asr.base import AsrError
from redactdesk.asr.whisperx_backend import ALIGN_ENV, WhisperxBackend, words_from_whisperx_result


def test_both_backends_are_registered_default_first():
    names = backend_names()
    assert names[0] == "faster-whisper" and "whisperx" in names
    assert get_backend("faster-whisper", model="tiny.en").available() == (True, "ready (tiny.en)")


def test_unavailable_whisperx_names_every_missing_piece(monkeypatch, tmp_path):
    monkeypatch.delenv(ALIGN_ENV, raising=False)
    backend = WhisperxBackend(model="tiny.en")
    ok, message = backend.available()
    problems = backend.missing()
    if not problems:
        pytest.skip("whisperx works on this machine")
    assert not ok and message.startswith("whisperx cannot run: ")
    assert ALIGN_ENV in message
    assert all(p in message for p in problems)
    with pytest.raises(AsrError, match="whisperx cannot run"):
        backend.transcribe(__import__("numpy").zeros(16000, "float32"), 16000)


def test_missing_alignment_folder_is_named(monkeypatch, tmp_path):
    monkeypatch.setenv(ALIGN_ENV, str(tmp_path / "no-such-model"))
    assert any("no-such-model" in p and "does not exist" in p for p in WhisperxBackend().missing())


def test_word_segments_and_speaker_labels_are_read():
    result = {
        "segments": [],
        "word_segments": [
            {"word": " Hello", "start": 0.1, "end": 0.4, "score": 0.99, "speaker": "SPEAKER_00"},
            {"word": "42", "score": None},
            {"word": " ", "start": 1.0, "end": 1.1},
        ],
    }
    words = words_from_whisperx_result(result)
    assert [w.text for w in words] == ["Hello", "42"]
    assert words[0].speaker == "SPEAKER_00" and words[0].aligned and words[0].confidence == 0.99
    assert math.isnan(words[1].start) and not words[1].aligned and words[1].confidence is None
