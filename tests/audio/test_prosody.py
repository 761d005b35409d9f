"""Prosody metrics: pitch and energy RMSD of masked vs original, and of silence vs original."""

import math

import numpy as np
import pytest
import soundfile as sf

from redactdesk.audio import MaskError, MaskRange, mask_file, prosody_report
from redactdesk.audio.prosody import energy_at, pitch_at

RATE = 16000


def test_pitch_and_energy_tracks_on_a_known_tone():
    t = np.arange(RATE) / RATE
    x = 0.3 * sum(np.sin(2 * np.pi * 150 * k * t) / k for k in range(1, 6))
    times = np.arange(0.2, 0.8, 0.01)
    assert np.median(pitch_at(x, RATE, times)) == pytest.approx(150, rel=0.03)
    assert np.allclose(energy_at(x, RATE, times), np.sqrt(np.mean(x ** 2)), rtol=0.1)
    assert not np.any(pitch_at(np.zeros(RATE), RATE, times))


def test_silence_loses_everything_distortion_keeps_some(make_audio, tmp_path):
    src = make_audio(seconds=3.0)
    ranges = [MaskRange(0.5, 1.5, None, (1,), "PERSON"), MaskRange(2.0, 2.6, None, (2,), "CITY")]
    mask_file(src, tmp_path / "s.wav", ranges, "silence")
    mask_file(src, tmp_path / "d.wav", ranges, "distort", {"check": False, "start": 0.2})
    silence = prosody_report(src, tmp_path / "s.wav", ranges, method="silence")
    distort = prosody_report(src, tmp_path / "d.wav", ranges, method="distort")
    same = prosody_report(src, src, ranges)
    assert len(silence.ranges) == 2 and silence.pitch_rmsd_silence > 50
    assert silence.pitch_rmsd == pytest.approx(silence.pitch_rmsd_silence, rel=0.02)
    assert silence.energy_gain == pytest.approx(0.0, abs=0.02)
    assert distort.pitch_gain > 0.3 and distort.energy_gain > 0.3
    assert same.pitch_rmsd == 0 and same.energy_rmsd == 0 and same.pitch_gain == 1.0
    assert set(distort.to_dict()) >= {"pitch_gain", "energy_gain", "ranges"}


def test_mismatched_files_and_silent_originals(make_audio, tmp_path):
    src = make_audio(seconds=2.0)
    other = make_audio("other.wav", seconds=1.0)
    with pytest.raises(MaskError, match="does not match"):
        prosody_report(src, other, [MaskRange(0.1, 0.5)])
    quiet = tmp_path / "quiet.wav"
    sf.write(str(quiet), np.zeros(RATE), RATE)
    summary = prosody_report(quiet, quiet, [MaskRange(0.1, 0.5)])
    assert math.isnan(summary.pitch_gain) and math.isnan(summary.energy_gain)
