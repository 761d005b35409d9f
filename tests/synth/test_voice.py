"""Voicing with espeak-ng word by word, writing calls atomically, joining calls into a long one."""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest
import soundfile as sf

from redactdesk.core.types import Conversation
from redactdesk.synth import SynthError, generate_call
from redactdesk.synth import voice as voice_mod
from redactdesk.synth.corpus import concat_calls, make_corpus, read_call, write_call
from redactdesk.synth.voice import RATE, TAIL, Voicer, synthesize

needs_espeak = pytest.mark.skipif(shutil.which("espeak-ng") is None,
                                  reason="espeak-ng is not installed (apt-get install espeak-ng)")


def _short(conv: Conversation, n_turns: int = 3) -> Conversation:
    """The first turns of a call, with the spans that fall inside them."""
    end = conv.turns[n_turns - 1].end_word
    conv.words = conv.words[:end]
    conv.turns = conv.turns[:n_turns]
    keep = [i for i, s in enumerate(conv.spans) if s.end_word <= end]
    conv.meta["span_values"] = [conv.meta["span_values"][i] for i in keep]
    conv.spans = [conv.spans[i] for i in keep]
    return conv


@pytest.fixture(scope="module")
def voicer():
    if shutil.which("espeak-ng") is None:
        pytest.skip("espeak-ng is not installed (apt-get install espeak-ng)")
    return Voicer()


@needs_espeak
@pytest.mark.parametrize("language", ["en", "es"])
def test_voiced_words_have_exact_ordered_times(voicer, language):
    conv = _short(generate_call(100_020, language))
    voiced, audio = synthesize(conv, voicer=voicer)
    assert [w.text for w in voiced.words] == [w.text for w in conv.words]
    assert audio.dtype == np.int16 and len(audio) == round(voiced.duration * RATE)
    for a, b in zip(voiced.words, voiced.words[1:], strict=False):
        assert a.start < a.end < b.start  # a pause separates every pair of words
    assert voiced.duration == pytest.approx(voiced.words[-1].end + TAIL, abs=1.0 / RATE)
    x = audio.astype(np.float64)
    inside = np.concatenate([x[round(w.start * RATE) : round(w.end * RATE)] for w in voiced.words])
    gaps = np.concatenate([x[round(a.end * RATE) + 1 : round(b.start * RATE) - 1]
                           for a, b in zip(voiced.words, voiced.words[1:], strict=False)])
    assert np.sqrt(np.mean(inside**2)) > 300 and np.max(np.abs(gaps)) == 0  # speech in words, silence between
    assert voiced.meta["voices"]["agent"]["voice"] != voiced.meta["voices"]["customer"]["voice"]


@needs_espeak
def test_voicing_is_deterministic_and_cached(voicer):
    conv = _short(generate_call(100_021, "en"), 2)
    _, a = synthesize(conv, voicer=voicer)
    calls = voicer.calls
    _, b = synthesize(conv, voicer=voicer)
    assert voicer.calls == calls  # every word came from the cache
    assert np.array_equal(a, b)


@needs_espeak
def test_write_call_round_trip(voicer, tmp_path):
    conv = _short(generate_call(100_022, "es"))
    voiced, audio = synthesize(conv, voicer=voicer)
    path = write_call(voiced, audio, tmp_path)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["format"] == "redactdesk-conversation" and data["audio"] == "call_es_100022.flac"
    info = sf.info(tmp_path / data["audio"])
    assert (info.samplerate, info.channels, info.format) == (16000, 1, "FLAC")
    assert info.frames / info.samplerate == data["duration"]
    back = read_call(path)
    assert [w.to_dict() for w in back.words] == [w.to_dict() for w in voiced.words]
    assert [s.to_dict() for s in back.spans] == [s.to_dict() for s in voiced.spans]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["call_es_100022.flac", "call_es_100022.json"]


@needs_espeak
def test_failed_write_leaves_nothing(voicer, tmp_path):
    voiced, audio = synthesize(_short(generate_call(100_023, "en"), 2), voicer=voicer)
    with pytest.raises(SynthError, match="bits"):
        write_call(voiced, audio, tmp_path, bits=4)
    with pytest.raises(SynthError, match="samples"):
        write_call(voiced, audio[:-10], tmp_path)
    assert list(tmp_path.iterdir()) == []


@needs_espeak
def test_concat_calls_shifts_words_and_spans(voicer):
    parts, offsets, pos = [], [], 0.0
    for seed in (100_024, 100_025):
        voiced, audio = synthesize(_short(generate_call(seed, "en")), voicer=voicer)
        parts.append(voiced)
        offsets.append(pos)
        pos += len(audio) / RATE + 1.0
    long = concat_calls(parts, "long_test", offsets)
    n0 = len(parts[0].words)
    assert len(long.words) == n0 + len(parts[1].words)
    assert long.words[n0].start == pytest.approx(parts[1].words[0].start + offsets[1])
    assert all(a.end < b.start for a, b in zip(long.words, long.words[1:], strict=False))
    assert len(long.spans) == len(parts[0].spans) + len(parts[1].spans)
    s = long.spans[len(parts[0].spans)]
    assert long.span_text(s) == parts[1].span_text(parts[1].spans[0]) and s.entity.startswith("1:")
    assert long.turns[-1].end_word == len(long.words)


def test_missing_espeak_is_a_clear_error(monkeypatch):
    monkeypatch.setattr(voice_mod.shutil, "which", lambda name: None)
    with pytest.raises(SynthError, match="apt-get install espeak-ng"):
        Voicer()


def test_text_only_corpus_and_bad_counts(tmp_path):
    paths = make_corpus(tmp_path, 2, 1, 100_030, progress=False, text_only=True)
    assert [p.name for p in paths] == ["call_en_100030.json", "call_en_100031.json", "call_es_100030.json"]
    index = json.loads((tmp_path / "index.json").read_text(encoding="utf-8"))
    assert [c["id"] for c in index["calls"]] == [p.stem for p in paths]
    assert "audio" not in json.loads(paths[0].read_text(encoding="utf-8"))
    with pytest.raises(SynthError, match="nothing to make"):
        make_corpus(tmp_path, 0, 0, 1, progress=False)


@needs_espeak
def test_long_call_streams_parts_to_one_file(voicer, tmp_path):
    from redactdesk.synth.corpus import make_long_call

    path = make_long_call(tmp_path, 100_040, "en", minutes=0.05, voicer=voicer, progress=False)
    conv = read_call(path)
    info = sf.info(conv.audio_path)
    assert info.frames / info.samplerate == conv.duration
    assert conv.meta["long_call"] and len(conv.meta["parts"]) == 1
    assert conv.words[-1].end < conv.duration and conv.spans
