"""Mono recordings in a project get their speakers from the diarizer; the setting asr.speakers rules it."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

from redactdesk.asr.diarize import diarizer_available
from redactdesk.core.types import Conversation, Word
from redactdesk.pipeline.project_config import SettingError, set_setting
from redactdesk.pipeline.transcription import transcribe_project
from redactdesk.store import Project

SAMPLE = Path(__file__).resolve().parents[2] / "resources" / "samples" / "call_es_1000.json"
SECONDS = 45.0  # the first 45 s of a demo call: both parties speak several times


@pytest.fixture
def mono_project(tmp_path, words_backend):
    if not diarizer_available()[0]:
        pytest.skip("speaker encoder not installed (pip install 'redactdesk[diarize]')")
    data = json.loads(SAMPLE.read_text())
    audio, rate = sf.read(str(SAMPLE.with_suffix(".flac")), dtype="float32", always_2d=True)
    mono = np.clip(audio.sum(axis=1), -1, 1)[: int(SECONDS * rate)]
    wav = tmp_path / "mono.wav"
    sf.write(str(wav), mono, rate, subtype="PCM_16")
    ref = [Word(w["text"], w["start"], w["end"], speaker=w["speaker"]) for w in data["words"] if w["end"] < SECONDS]
    words_backend(ref, "es", name="reference-mono")
    path = tmp_path / "p.rdproj"
    with Project.create(path, actor="tester") as p:
        p.add_conversation(Conversation(id="mono", audio_path=str(wav), sample_rate=rate, channels=1,
                                        duration=len(mono) / rate, language="es"))
    return path, ref


def test_a_mono_call_is_split_into_the_two_parties_by_default(mono_project):
    path, ref = mono_project
    with Project.open(path, actor="tester") as p:
        transcribe_project(p, backend="reference-mono")
        conv = p.load_conversation("mono")
    assert {w.speaker for w in conv.words} == {"SPEAKER_00", "SPEAKER_01"}
    assert len({t.speaker for t in conv.turns}) == 2 and len(conv.turns) >= 4
    pairs = {}
    for r, h in zip(ref, conv.words, strict=True):
        pairs[(r.speaker, h.speaker)] = pairs.get((r.speaker, h.speaker), 0) + 1
    right = max(pairs.get(("agent", a), 0) + pairs.get(("customer", b), 0)
                for a, b in (("SPEAKER_00", "SPEAKER_01"), ("SPEAKER_01", "SPEAKER_00")))
    assert right / len(ref) >= 0.9


def test_the_setting_turns_the_diarizer_off_and_is_checked(mono_project):
    path, _ = mono_project
    with Project.open(path, actor="tester") as p:
        with pytest.raises(SettingError):
            set_setting(p, "asr.speakers", "-1")
        set_setting(p, "asr.speakers", "0")
        transcribe_project(p, backend="reference-mono")
        conv = p.load_conversation("mono")
        assert any(d.action == "setting" for d in p.audit_log())
    assert {w.speaker for w in conv.words} == {"SPEAKER_00"}
