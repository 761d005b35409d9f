"""Telephone audio (8 kHz u-law/A-law WAV, 8 kHz FLAC, mono and stereo): masked files keep the rate,
the encoding (subtype) and the length, and change nothing outside the masked ranges."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

from redactdesk.audio import MaskRange, mask_file, mask_ranges
from redactdesk.audio.engine import DEFAULT_FADE
from redactdesk.core.types import Span, SpanStatus

RATE = 8000
FADE = int(round(DEFAULT_FADE * RATE))
LAYOUTS = [("phone.wav", "WAV", "ULAW"), ("phone.wav", "WAV", "ALAW"), ("phone.flac", "FLAC", "PCM_16")]
RANGES = [MaskRange(0.30, 0.55, None, (1,), "PERSON"), MaskRange(1.2, 1.71, 1, (2,), "PHONE")]
SPEECH = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "speech"


def stored(path):
    """Samples as decoded (int32: exact for companded and PCM files)."""
    return sf.read(str(path), dtype="int32", always_2d=True)[0]


def untouched(frames, channels, ranges):
    keep = np.ones((frames, channels), dtype=bool)
    for r in ranges:
        a, b = int(np.floor(r.start * RATE)), int(np.ceil(r.end * RATE))
        cols = list(range(channels)) if r.channel is None or r.channel >= channels else [r.channel]
        keep[max(0, a - FADE):b + FADE, cols] = False
    return keep


@pytest.mark.parametrize("name,fmt,subtype", LAYOUTS)
@pytest.mark.parametrize("channels", [1, 2])
@pytest.mark.parametrize("method", ["silence", "beep"])
def test_telephone_encodings_are_kept(make_audio, tmp_path, name, fmt, subtype, channels, method):
    src = make_audio(name, fmt, subtype, channels, rate=RATE)
    dst = tmp_path / ("masked" + src.suffix)
    report = mask_file(src, dst, RANGES, method)
    a, b = sf.info(str(src)), sf.info(str(dst))
    assert (b.samplerate, b.channels, b.format, b.subtype, b.frames) == (RATE, channels, fmt, subtype, a.frames)
    assert report.sample_rate == RATE and report.subtype == subtype
    if fmt == "WAV":  # companded samples are one byte each: same header, same size
        assert dst.stat().st_size == src.stat().st_size
    x, y = stored(src), stored(dst)
    keep = untouched(len(x), channels, RANGES)
    assert np.array_equal(x[keep], y[keep])  # bit-identical outside the ranges and their fades
    inside = slice(int(0.35 * RATE), int(0.5 * RATE))
    if method == "silence":  # A-law has no zero: its quietest code decodes to 8/32768 (-72 dBFS)
        assert np.abs(y[inside]).max() <= (8 << 16 if subtype == "ALAW" else 0)
    else:
        assert np.any(y[inside]) and not np.array_equal(x[inside], y[inside])
    if channels == 2:  # the second range is on channel 1 only
        second = slice(int(1.25 * RATE), int(1.65 * RATE))
        assert np.array_equal(x[second, 0], y[second, 0]) and not np.array_equal(x[second, 1], y[second, 1])


def test_a_transcribed_telephone_call_is_masked_on_the_speakers_channel(tmp_path):
    """8 kHz u-law stereo from a real clip: transcribe, accept one word per party, mask, check."""
    clip = SPEECH / "stereo_diarization.wav"
    if not clip.is_file() or shutil.which("sox") is None:
        pytest.skip(f"needs sox and the public clip {clip} (shared data beside the repository)")
    from redactdesk.asr.transcribe import transcribe_file

    src = tmp_path / "call.wav"
    subprocess.run(["sox", str(clip), "-r", "8000", "-e", "u-law", str(src)], check=True, capture_output=True)
    result = transcribe_file(src, model="tiny.en")
    conv = result.to_conversation("call", str(src))
    wizard = next(i for i, w in enumerate(conv.words) if w.text.lower().startswith("wizard"))
    horizon = next(i for i, w in enumerate(conv.words) if w.text.lower().startswith("horizon"))
    conv.spans = [Span(wizard, wizard + 1, "PERSON", SpanStatus.ACCEPTED, id=1),
                  Span(horizon, horizon + 1, "LOCATION", SpanStatus.ACCEPTED, id=2)]
    ranges = mask_ranges(conv)
    assert sorted(r.channel for r in ranges) == [0, 1] and all(r.end > r.start for r in ranges)
    dst = tmp_path / "masked.wav"
    mask_file(src, dst, ranges, "silence")
    info = sf.info(str(dst))
    assert (info.samplerate, info.channels, info.subtype, info.frames) == (8000, 2, "ULAW", sf.info(str(src)).frames)
    x, y = stored(src), stored(dst)
    for r in ranges:
        a, b = int(np.ceil(r.start * RATE)), int(np.floor(r.end * RATE))
        assert b - a > 0.1 * RATE and not np.any(y[a:b, r.channel])  # the word is silent on its channel ...
        other = 1 - r.channel
        assert np.array_equal(x[a:b, other], y[a:b, other])  # ... and the other party is untouched
    keep = untouched(len(x), 2, ranges)
    assert np.array_equal(x[keep], y[keep])
