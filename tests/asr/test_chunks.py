"""Chunked transcription: seams at quiet points, every word kept exactly once, cancel between chunks."""

import numpy as np
import pytest

from redactdesk.asr.base import AsrCancelled, BackendOutput
from redactdesk.asr.chunks import ChunkPlan, quietest_sample, transcribe_chunked
from redactdesk.core.types import Word

RATE = 100  # a coarse "sample rate" keeps the synthetic signal small


def _bursts(times, total):
    """A signal with 0.4 s bursts starting at ``times``; a fake recogniser 'hears' each burst as a word."""
    audio = np.zeros(int(total * RATE), np.float32)
    for t in times:
        audio[round(t * RATE) : round((t + 0.4) * RATE)] = 1.0
    return audio


def _fake_run(calls):
    def run(audio, language, progress, cancel):
        calls.append(len(audio) / RATE)
        loud = np.flatnonzero(audio > 0.5)
        words = []
        if len(loud):
            starts = [loud[0]] + [b for a, b in zip(loud, loud[1:], strict=False) if b - a > 1]
            for s in starts:
                e = s
                while e + 1 < len(audio) and audio[e + 1] > 0.5:
                    e += 1
                words.append(Word(f"w{len(words)}", s / RATE, (e + 1) / RATE))
        if progress:
            progress(1.0)
        return BackendOutput(words=words, language=language or "en")

    return run


def test_every_word_survives_the_seams_once():
    times = [0.5 + 1.3 * k for k in range(40)]  # dense: seams must fall between bursts
    audio = _bursts(times, 55.0)
    calls = []
    seen = []
    out = transcribe_chunked(
        _fake_run(calls), lambda a, b: audio[a:b], len(audio), RATE,
        plan=ChunkPlan(chunk_seconds=10, overlap_seconds=1.0, search_seconds=2.0), progress=seen.append,
    )
    assert len(calls) >= 5 and max(calls) <= 10 + 2 + 1.01  # memory bounded by the chunk size
    assert [round(w.start, 2) for w in out.words] == [round(t, 2) for t in times]
    assert all(w.duration == pytest.approx(0.4) for w in out.words)
    assert seen[-1] == pytest.approx(1.0) and seen == sorted(seen)
    assert out.language == "en" and out.info["chunks"] == len(calls)


def test_quietest_sample_finds_the_gap():
    audio = np.ones(1000, np.float32)
    audio[600:650] = 0.0
    assert 600 <= quietest_sample(audio, RATE, frame_seconds=0.05) < 650
    assert quietest_sample(np.zeros(100, np.float32), RATE, frame_seconds=0.1) in range(40, 60)  # ties: middle


def test_cancel_stops_before_the_next_chunk():
    audio = _bursts([1.0, 15.0, 30.0], 40.0)
    calls = []
    flags = iter([False, True])
    with pytest.raises(AsrCancelled):
        transcribe_chunked(
            _fake_run(calls), lambda a, b: audio[a:b], len(audio), RATE,
            plan=ChunkPlan(chunk_seconds=10, overlap_seconds=1, search_seconds=2), cancel=lambda: next(flags, True),
        )
    assert len(calls) == 1
