"""The embedded backend for real (Whisper tiny.en) on synthesised speech with known word times."""

import json
import math
import re

import jiwer
import numpy as np
import pytest
import soundfile as sf
from num2words import num2words

from redactdesk.asr import AsrCancelled, AsrError, register_backend, transcribe_file, transcribe_to_json
from redactdesk.asr.backends import get_backend
from redactdesk.asr.base import BackendOutput
from redactdesk.core.types import Word

RATE = 16_000


def _norm(words):
    out = []
    for w in words:
        t = re.sub(r"[^\w']", "", w.lower())
        if t.isdigit():
            out += [num2words(int(d)) for d in t] if len(t) > 2 else [num2words(int(t))]
        elif t:
            out.append(t)
    return out


def _matched_errors(hyp_words, ref):
    """Absolute start/end errors (s) for words whose normalised text equals the reference at the same place."""
    import difflib

    hyp = [re.sub(r"[^\w']", "", w.text.lower()) for w in hyp_words]
    refs = [r[0] for r in ref]
    errs = []
    for block in difflib.SequenceMatcher(a=refs, b=hyp, autojunk=False).get_matching_blocks():
        for k in range(block.size):
            r, h = ref[block.a + k], hyp_words[block.b + k]
            errs += [abs(h.start - r[1]), abs(h.end - r[2])]
    return errs


def test_tiny_en_words_and_times_match_the_reference(clip, clip_wav):
    result = transcribe_file(clip_wav, model="tiny.en", language="en", refine=False)
    hyp = _norm([w.text for w in result.words])
    assert jiwer.wer(clip.text, " ".join(hyp)) <= 0.25
    errs = _matched_errors(result.words, clip.words)
    assert len(errs) >= 2 * 8
    assert float(np.median(errs)) < 0.3
    assert all(w.aligned and w.speaker == "SPEAKER_00" and 0 <= w.confidence <= 1 for w in result.words)
    assert [(t.start_word, t.end_word) for t in result.turns] == [(0, len(result.words))]
    assert result.language == "en" and result.backend == "faster-whisper" and result.model == "tiny.en"
    assert result.rtf > 0 and result.duration == pytest.approx(len(clip.audio) / RATE)
    assert not result.warnings


def test_refine_puts_every_matched_boundary_near_the_reference(clip, clip_wav):
    result = transcribe_file(clip_wav, model="tiny.en", refine=True)
    errs = _matched_errors(result.words, clip.words)
    assert len(errs) >= 2 * 8
    assert max(errs) < 0.3 and float(np.median(errs)) < 0.08
    assert result.alignment is not None and result.alignment["failed_turns"] == 0


def test_8khz_telephone_audio_is_resampled(clip, tmp_path):
    path = tmp_path / "phone.wav"
    sf.write(path, clip.audio[::2], 8000)  # crude decimation is fine: speech sits below 4 kHz
    result = transcribe_file(path, model="tiny.en")
    assert any("8000 Hz" in n and "resampled" in n for n in result.notes)
    assert jiwer.wer(clip.text, " ".join(_norm([w.text for w in result.words]))) <= 0.35
    assert result.sample_rate == 8000


def test_stereo_channels_become_agent_and_customer(make_clip, tmp_path):
    agent = make_clip("thank you for calling".split(), lead=0.3)
    customer = make_clip("my name is mary".split(), lead=2.5, seed=1)
    n = max(len(agent.audio), len(customer.audio))
    stereo = np.zeros((n, 2), np.float32)
    stereo[: len(agent.audio), 0] = agent.audio
    stereo[: len(customer.audio), 1] = customer.audio
    path = tmp_path / "call.flac"
    sf.write(path, stereo, RATE)
    result = transcribe_file(path, model="tiny.en")
    speakers = [w.speaker for w in result.words]
    assert speakers[0] == "agent" and speakers[-1] == "customer"
    assert {w.channel for w in result.words if w.speaker == "agent"} == {0}
    assert [t.speaker for t in result.turns] == ["agent", "customer"]
    starts = [w.start for w in result.words]
    assert starts == sorted(starts)
    assert "mary" in _norm(w.text for w in result.words if w.speaker == "customer")


def test_silence_gives_a_warning_and_no_words(tmp_path):
    path = tmp_path / "silence.wav"
    sf.write(path, np.zeros(RATE * 3, np.float32), RATE)
    result = transcribe_file(path, model="tiny.en")
    assert result.words == [] and result.turns == []
    assert any("silent" in w for w in result.warnings)


def test_a_tone_gives_no_speech_warning(tmp_path):
    t = np.arange(RATE * 4) / RATE
    path = tmp_path / "tone.wav"
    sf.write(path, (0.3 * np.sin(2 * np.pi * 440 * t)).astype(np.float32), RATE)
    result = transcribe_file(path, model="tiny.en")
    assert result.words == []
    assert any("no speech was recognised" in w for w in result.warnings)


def test_clipped_audio_is_flagged(clip, tmp_path):
    path = tmp_path / "loud.wav"
    sf.write(path, np.clip(clip.audio * 30, -1, 1), RATE)
    result = transcribe_file(path, model="tiny.en")
    assert any("clipped" in w for w in result.warnings)


def test_bad_inputs_raise_readable_errors(tmp_path, clip_wav):
    with pytest.raises(AsrError, match="not found"):
        transcribe_file(tmp_path / "nope.wav")
    fake = tmp_path / "notes.wav"
    fake.write_text("this is not audio")
    with pytest.raises(AsrError, match="unsupported or damaged"):
        transcribe_file(fake)
    with pytest.raises(AsrError, match="English only"):
        transcribe_file(clip_wav, model="tiny.en", language="es")
    with pytest.raises(AsrError, match="unknown model"):
        transcribe_file(clip_wav, model="huge")
    with pytest.raises(AsrError, match="unknown speech-recognition backend"):
        transcribe_file(clip_wav, backend="nope")


def test_transcribe_to_json_writes_the_contract(clip_wav, tmp_path):
    out = tmp_path / "out" / "words.json"
    result = transcribe_to_json(clip_wav, out, model="tiny.en")
    data = json.loads(out.read_text())
    assert len(data["words"]) == len(result.words) > 0
    assert set(data["words"][0]) == {"text", "start", "end", "speaker", "aligned"}
    assert [p.name for p in out.parent.iterdir()] == ["words.json"]  # no temporary files left


def test_cancel_writes_nothing(clip_wav, tmp_path):
    out = tmp_path / "words.json"
    with pytest.raises(AsrCancelled):
        transcribe_to_json(clip_wav, out, model="tiny.en", cancel=lambda: True)
    assert not out.exists()


class _ScriptedBackend:
    """Stands in for a recogniser that returns whisperx-like output (digits without times)."""

    name = "scripted"

    def __init__(self, model="x", **_):
        self.model = model

    def available(self):
        return True, "ready"

    def transcribe(self, audio, rate, *, language=None, progress=None, cancel=None):
        nan = math.nan
        words = [Word("card", 0.5, 0.8), Word("4111 1111", nan, nan), Word("ok", 2.0, 2.2), Word("bye", 4.0, 4.2)]
        if progress:
            progress(1.0)
        return BackendOutput(words=words, language=language or "en")


def test_any_registered_backend_gets_timing_repair_splitting_and_turns(clip_wav):
    register_backend("scripted", _ScriptedBackend)
    assert isinstance(get_backend("scripted"), _ScriptedBackend)
    progress = []
    result = transcribe_file(clip_wav, backend="scripted", model="x", progress=progress.append)
    assert [w.text for w in result.words] == ["card", "4111", "1111", "ok", "bye"]
    assert all(math.isfinite(w.start) and math.isfinite(w.end) for w in result.words)
    assert [w.aligned for w in result.words] == [True, False, False, True, True]
    assert result.timed == 1 and result.split_tokens == 1
    # the scripted words leave a 1.8 s gap, but the audio (voice activity) has no pause: one turn
    assert [(t.start_word, t.end_word) for t in result.turns] == [(0, 5)]
    assert result.speech[None] and result.speech[None][0][0] == pytest.approx(0.5, abs=0.1)
    assert progress[-1] == 1.0 and progress == sorted(progress)


def test_real_chunking_keeps_words_once(clip, clip_wav):
    from redactdesk.asr.chunks import ChunkPlan

    plan = ChunkPlan(chunk_seconds=3.5, overlap_seconds=0.5, search_seconds=1.0)
    result = transcribe_file(clip_wav, model="tiny.en", chunk_plan=plan)
    assert result.chunks >= 2
    starts = [w.start for w in result.words]
    assert starts == sorted(starts)
    assert all(b - a > 0.05 for a, b in zip(starts, starts[1:], strict=False))  # nothing doubled at a seam
    assert jiwer.wer(clip.text, " ".join(_norm([w.text for w in result.words]))) <= 0.35
