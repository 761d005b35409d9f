"""The bundled demo corpus in resources/samples: complete, small, honest ground truth."""

from __future__ import annotations

import json

import numpy as np
import pytest
import soundfile as sf
from stdnum import luhn

from redactdesk.core.types import SpanStatus
from redactdesk.resources import load_taxonomy, samples_dir
from redactdesk.synth import REQUIRED_CATEGORIES, generate_call
from redactdesk.synth.corpus import read_call
from redactdesk.synth.spoken import digits_from_spoken
from redactdesk.synth.voice import TAIL

SAMPLES = samples_dir()
INDEX = json.loads((SAMPLES / "index.json").read_text(encoding="utf-8"))
CALLS = INDEX["calls"]


def test_index_lists_enough_calls_and_nothing_is_missing():
    langs = [c["language"] for c in CALLS]
    assert langs.count("en") >= 12 and langs.count("es") >= 4
    for c in CALLS:
        assert (SAMPLES / c["json"]).is_file() and (SAMPLES / c["audio"]).is_file()
    on_disk = {p.name for p in SAMPLES.iterdir()} - {"index.json", "README.md"}
    assert on_disk == {c["json"] for c in CALLS} | {c["audio"] for c in CALLS}
    assert (SAMPLES / "README.md").is_file()


def test_samples_are_small():
    total = sum(p.stat().st_size for p in SAMPLES.iterdir())
    assert total < 15 * 1024 * 1024


@pytest.mark.parametrize("entry", CALLS, ids=[c["id"] for c in CALLS])
def test_call_integrity(entry):
    conv = read_call(SAMPLES / entry["json"])
    info = sf.info(conv.audio_path)
    assert (info.samplerate, info.channels, info.format) == (16000, 2, "FLAC")  # agent left, customer right
    assert conv.channels == 2 and all(w.channel == {"agent": 0, "customer": 1}[w.speaker] for w in conv.words)
    assert info.frames / info.samplerate == conv.duration
    assert 45.0 <= conv.duration <= 120.0
    # audio ends one short tail after the last word
    assert 0 < conv.duration - conv.words[-1].end <= TAIL + 1e-3
    for a, b in zip(conv.words, conv.words[1:], strict=False):
        assert 0 <= a.start < a.end < b.start
    assert conv.turns[0].start_word == 0 and conv.turns[-1].end_word == len(conv.words)
    assert all(a.end_word == b.start_word and a.speaker != b.speaker
               for a, b in zip(conv.turns, conv.turns[1:], strict=False))
    assert {t.speaker for t in conv.turns} == {"agent", "customer"}

    taxonomy = load_taxonomy()
    for span in conv.spans:
        assert 0 <= span.start_word < span.end_word <= len(conv.words)
        assert span.category in taxonomy and span.status is SpanStatus.ACCEPTED
        assert span.sources == ("ground_truth",)
    assert REQUIRED_CATEGORIES[conv.language] <= {s.category for s in conv.spans}
    cards = [s for s in conv.spans if s.category == "CREDIT_CARD"]
    for card in cards:
        digits = digits_from_spoken([w.text for w in conv.words[card.start_word : card.end_word]], conv.language)
        assert len(digits) == 16 and luhn.is_valid(digits)

    # speech inside every word, silence in the pauses
    audio, _ = sf.read(conv.audio_path, dtype="int16")
    x = audio.astype(np.float64).sum(axis=1)  # the mono call
    rms = [np.sqrt(np.mean(x[round(w.start * 16000) : round(w.end * 16000)] ** 2)) for w in conv.words]
    assert min(rms) > 50
    assert np.max(np.abs(x[: round(conv.words[0].start * 16000) - 1])) == 0


@pytest.mark.parametrize("entry", CALLS, ids=[c["id"] for c in CALLS])
def test_samples_match_the_committed_generator(entry):
    """Regenerate the dialogue from its seed: the bundled ground truth must be what the code makes."""
    conv = read_call(SAMPLES / entry["json"])
    fresh = generate_call(conv.meta["seed"], conv.language)
    assert [w.text for w in conv.words] == [w.text for w in fresh.words]
    assert [(s.start_word, s.end_word, s.category) for s in conv.spans] == \
        [(s.start_word, s.end_word, s.category) for s in fresh.spans]
