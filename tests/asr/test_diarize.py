"""The mono diarizer: pieces, clustering, and speakers found on real two-voice audio."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

from redactdesk.asr import transcribe_file
from redactdesk.asr.diarize import cluster, diarize_words, diarizer_available, pieces
from redactdesk.core.types import Word

SAMPLES = Path(__file__).resolve().parents[2] / "resources" / "samples"
needs_encoder = pytest.mark.skipif(not diarizer_available()[0], reason="speaker encoder not installed "
                                   "(pip install 'redactdesk[diarize]')")


def test_pieces_cut_at_pauses_and_at_the_longest_length():
    words = [Word("a", 0.0, 0.3), Word("b", 0.35, 0.6), Word("c", 1.0, 1.3),  # pause of 0.4 s before c
             *[Word("w", 1.3 + 0.3 * k, 1.6 + 0.3 * k) for k in range(10)]]  # 3 s without a pause
    got = pieces(words)
    assert got[0] == (0, 2) and got[1][0] == 2
    assert all(words[b - 1].end - words[a].start <= 2.0 + 0.3 for a, b in got)
    assert [i for a, b in got for i in range(a, b)] == list(range(len(words)))  # every word once, in order


def test_clustering_finds_two_groups_and_refuses_to_split_one():
    rng = np.random.default_rng(0)
    a, b = rng.normal(size=32), rng.normal(size=32)
    two = np.vstack([a + 0.2 * rng.normal(size=(20, 32)), b + 0.2 * rng.normal(size=(15, 32))])
    labels, score = cluster(two)
    assert len(set(labels[:20])) == 1 and len(set(labels[20:])) == 1 and labels[0] != labels[20]
    assert score is not None and score > 0.5
    one = a + 0.2 * rng.normal(size=(30, 32))
    labels, _ = cluster(one)
    assert set(labels) == {0}
    labels, _ = cluster(two, num_speakers=2)  # a known number is taken as given
    assert len(set(labels)) == 2


def mono_demo_call(name: str, seconds: float = 45.0) -> tuple[list[Word], np.ndarray]:
    """The first ``seconds`` of a (stereo) demo call summed to mono, and its reference words."""
    d = json.loads((SAMPLES / f"{name}.json").read_text())
    audio, rate = sf.read(str(SAMPLES / f"{name}.flac"), dtype="float32", always_2d=True)
    assert rate == 16_000
    words = [Word(w["text"], w["start"], w["end"], speaker=w["speaker"]) for w in d["words"] if w["end"] < seconds]
    return words, np.clip(audio.sum(axis=1), -1, 1)[: int(seconds * rate)]


@needs_encoder
def test_two_voices_mixed_to_mono_are_told_apart():
    ref, mono = mono_demo_call("call_es_1000")  # two different voices, mixed down
    given = [Word(w.text, w.start, w.end) for w in ref]
    hyp, report = diarize_words(mono, given)
    assert report.speakers == 2 and report.silhouette is not None
    mapping = {}
    for r, h in zip(ref, hyp, strict=True):
        mapping.setdefault(h.speaker, {}).setdefault(r.speaker, 0)
        mapping[h.speaker][r.speaker] += 1
    right = sum(max(v.values()) for v in mapping.values())
    assert right / len(ref) >= 0.9
    assert hyp[0].speaker == "SPEAKER_00" and {w.speaker for w in hyp} == {"SPEAKER_00", "SPEAKER_01"}
    assert all(w.speaker is None for w in given)  # inputs are copied, not labelled in place


@needs_encoder
def test_mono_transcription_finds_the_speakers_and_turns_follow_them(tmp_path, words_backend):
    ref, mono = mono_demo_call("call_es_1000")
    wav = tmp_path / "mono.wav"
    sf.write(str(wav), mono, 16_000, subtype="PCM_16")
    backend = words_backend(ref, "es")
    plain = transcribe_file(wav, backend=backend, language="es", refine=False, second_pass=False)
    assert {w.speaker for w in plain.words} == {"SPEAKER_00"}  # without the diarizer: one speaker
    result = transcribe_file(wav, backend=backend, language="es", refine=False, second_pass=False,
                             diarize=True, num_speakers=2)
    assert {w.speaker for w in result.words} == {"SPEAKER_00", "SPEAKER_01"}
    assert any(n.startswith("speakers found by the diarizer: 2") for n in result.notes)
    for t in result.turns:  # a turn never mixes speakers, and speaker changes start a new turn
        assert {w.speaker for w in result.words[t.start_word:t.end_word]} == {t.speaker}
    changes = sum(a.speaker != b.speaker for a, b in zip(result.words, result.words[1:], strict=False))
    assert len(result.turns) >= changes + 1
    truth = {(r.speaker, h.speaker) for r, h in zip(ref, result.words, strict=True)}
    agree = max(sum((r.speaker, h.speaker) in pairs for r, h in zip(ref, result.words, strict=True))
                for pairs in ({("agent", "SPEAKER_00"), ("customer", "SPEAKER_01")},
                              {("agent", "SPEAKER_01"), ("customer", "SPEAKER_00")}))
    assert truth and agree / len(ref) >= 0.9


def test_a_missing_diarizer_is_said_and_keeps_one_speaker(tmp_path, monkeypatch, words_backend):
    import redactdesk.asr.diarize as diarize

    monkeypatch.setattr(diarize, "diarizer_available", lambda: (False, "no speaker diarizer installed (test)"))
    wav = tmp_path / "tone.wav"
    t = np.arange(16_000 * 3) / 16_000
    sf.write(str(wav), (0.3 * np.sin(2 * np.pi * 220 * t)).astype(np.float32), 16_000)
    backend = words_backend([Word("uno", 0.2, 0.5), Word("dos", 1.5, 1.9)], "es")
    result = transcribe_file(wav, backend=backend, language="es", refine=False, second_pass=False,
                             diarize=True)
    assert {w.speaker for w in result.words} == {"SPEAKER_00"}
    assert any("no speaker diarizer installed" in n for n in result.notes)
