"""mask_project: one masked file per conversation, same format, settings from the project, safe refusals."""

import hashlib

import numpy as np
import pytest
import soundfile as sf

from redactdesk.audio import MaskError
from redactdesk.core.types import Conversation, Span, SpanStatus, Word
from redactdesk.pipeline.audio_project import mask_project
from redactdesk.store import Project


def sha(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def add(project, cid, audio, n_words=4):
    words = [Word(f"w{i}", 0.2 + 0.4 * i, 0.5 + 0.4 * i) for i in range(n_words)]
    conv = Conversation(id=cid, audio_path=None if audio is None else str(audio),
                        audio_sha256=None if audio is None else sha(audio), sample_rate=16000, channels=1,
                        duration=2.0, words=words,
                        spans=[Span(1, 2, "PERSON", SpanStatus.ACCEPTED), Span(3, 4, "CITY", SpanStatus.REJECTED)])
    project.add_conversation(conv)


def test_masks_each_conversation_in_its_own_format(make_audio, tmp_path):
    wav = make_audio("a.wav", "WAV", "PCM_24")
    flac = make_audio("b.flac", "FLAC", "PCM_16")
    with Project.create(tmp_path / "p.rdk") as project:
        add(project, "call/1", wav)
        add(project, "call 2", flac)
        add(project, "notes", None)
        project.set_setting("mask.padding", 0.0)
        seen = []
        reports = mask_project(project, tmp_path / "out", "silence", progress=seen.append)
    by_id = {r.conversation_id: r for r in reports}
    assert by_id["notes"].skipped and by_id["notes"].output is None
    out_a, out_b = tmp_path / "out" / "call_1.wav", tmp_path / "out" / "call_2.flac"
    assert by_id["call/1"].output == str(out_a) and by_id["call 2"].output == str(out_b)
    assert (sf.info(str(out_a)).subtype, sf.info(str(out_b)).format) == ("PCM_24", "FLAC")
    y = sf.read(str(out_a))[0]
    assert not np.any(y[int(0.6 * 16000) + 80:int(0.9 * 16000) - 80])  # word 1 (0.6-0.9 s), no padding
    assert np.any(y[int(1.4 * 16000):int(1.7 * 16000)])  # the rejected span's word stays
    assert [r.masked_seconds for r in reports if r.output] == [pytest.approx(0.3)] * 2
    assert seen[-1] == pytest.approx(1.0)


def test_refuses_changed_or_missing_audio_and_bad_method(make_audio, tmp_path):
    wav = make_audio("a.wav")
    with Project.create(tmp_path / "p.rdk") as project:
        add(project, "c1", wav)
        with pytest.raises(MaskError, match="unknown masking method"):
            mask_project(project, tmp_path / "out", "blur")
        sf.write(str(wav), np.zeros(16000), 16000)  # the recording changed after import
        with pytest.raises(MaskError, match="has changed since it was imported"):
            mask_project(project, tmp_path / "out", "silence")
        wav.unlink()
        with pytest.raises(MaskError, match="is missing"):
            mask_project(project, tmp_path / "out", "silence")
    assert list((tmp_path / "out").iterdir()) == []
