"""The stereo layout of synthetic calls: each party on its own channel, nothing else changed."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

from redactdesk.core.types import Conversation, Turn, Word
from redactdesk.synth.errors import SynthError
from redactdesk.synth.stereo import to_stereo

SAMPLES = Path(__file__).resolve().parents[2] / "resources" / "samples"
RATE = 100  # samples per second: small numbers that are easy to check by hand


def call() -> tuple[Conversation, np.ndarray]:
    words = [Word("hello", 0.1, 0.3, speaker="agent"), Word("hi", 0.5, 0.6, speaker="customer"),
             Word("name", 0.6, 0.8, speaker="customer"), Word("ok", 1.0, 1.2, speaker="agent")]
    turns = [Turn("agent", 0, 1), Turn("customer", 1, 3), Turn("agent", 3, 4)]
    conv = Conversation(id="c", language="en", words=words, turns=turns, duration=1.3)
    return conv, np.arange(1, 131, dtype=np.int16)


def test_each_turn_goes_to_its_speakers_channel_and_the_mix_is_the_original():
    conv, audio = call()
    stereo, out = to_stereo(conv, audio, RATE)
    assert out.shape == (130, 2) and stereo.channels == 2
    assert np.array_equal(out.sum(axis=1), audio)  # mixing down gives the mono call back
    assert not np.any(out[:40, 1]) and np.all(out[:40, 0])  # agent until half-way through the first pause
    assert not np.any(out[40:90, 0]) and np.all(out[40:90, 1])  # the customer's turn, cut mid-pause on both sides
    assert not np.any(out[90:, 1])
    assert [w.channel for w in stereo.words] == [0, 1, 1, 0] and [t.channel for t in stereo.turns] == [0, 1, 0]
    assert [(w.start, w.end) for w in stereo.words] == [(w.start, w.end) for w in conv.words]  # times kept
    assert conv.channels is None and conv.words[0].channel is None  # the input is not changed


def test_a_third_speaker_or_stereo_input_is_refused():
    conv, audio = call()
    conv.turns[1].speaker = "supervisor"
    for w in conv.words[1:3]:
        w.speaker = "supervisor"
    conv.turns.append(Turn("customer", 3, 4))
    conv.turns[2] = Turn("agent", 3, 3)
    with pytest.raises(SynthError, match="more than two speakers"):
        to_stereo(conv, audio, RATE)
    with pytest.raises(SynthError, match="mono"):
        to_stereo(call()[0], np.zeros((130, 2), dtype=np.int16), RATE)


def test_the_demo_calls_are_stereo_with_one_party_per_channel():
    paths = sorted(SAMPLES.glob("call_*.json"))
    assert len(paths) == 16
    for path in paths:
        d = json.loads(path.read_text())
        audio, rate = sf.read(str(path.with_suffix(".flac")), dtype="int16", always_2d=True)
        assert d["channels"] == 2 and audio.shape[1] == 2
        channel = {"agent": 0, "customer": 1}
        assert all(w["channel"] == channel[w["speaker"]] for w in d["words"])
        for w in d["words"][::7]:  # the word's samples are on its speaker's channel only
            a, b = int(w["start"] * rate), int(w["end"] * rate)
            assert np.any(audio[a:b, w["channel"]]) and not np.any(audio[a:b, 1 - w["channel"]])
