"""Playback speed keeps the pitch: duration scales by 1/speed, the fundamental stays where it was."""

from __future__ import annotations

import numpy as np
import parselmouth
import pytest

from redactdesk.audio.timestretch import SPEEDS, SpeedOutOfRange, stretch

RATE = 16000


def voice(f0: float, seconds: float = 2.0) -> np.ndarray:
    t = np.arange(int(RATE * seconds)) / RATE
    wave = sum(np.sin(2 * np.pi * f0 * k * t) / k for k in range(1, 6))
    return (0.25 * wave * (1 + 0.3 * np.sin(2 * np.pi * 3 * t))).astype(np.float32)


def median_pitch(x: np.ndarray) -> float:
    pitch = parselmouth.Sound(x.astype(np.float64), sampling_frequency=RATE).to_pitch()
    f = pitch.selected_array["frequency"]
    return float(np.median(f[f > 0]))


@pytest.mark.parametrize("speed", [0.5, 0.75, 1.25, 1.5])
def test_speed_changes_the_duration_not_the_pitch(speed):
    x = voice(140.0)
    y = stretch(x, RATE, speed)
    assert y.dtype == np.float32 and y.ndim == 1
    assert abs(len(y) / len(x) - 1 / speed) < 0.02
    assert abs(median_pitch(y) - 140.0) < 3.0  # resampling would give 140 * speed


def test_stereo_channels_are_stretched_apart():
    x = np.stack([voice(120.0), voice(230.0)], axis=1)
    y = stretch(x, RATE, 0.5)
    assert y.shape[1] == 2 and abs(len(y) / len(x) - 2.0) < 0.02
    assert abs(median_pitch(y[:, 0]) - 120.0) < 3.0
    assert abs(median_pitch(y[:, 1]) - 230.0) < 4.0


def test_normal_speed_and_tiny_ranges_are_untouched():
    x = voice(150.0, 0.5)
    assert stretch(x, RATE, 1.0) is not None and np.array_equal(stretch(x, RATE, 1.0), x)
    tiny = x[:100]
    assert np.array_equal(stretch(tiny, RATE, 0.5), tiny)


@pytest.mark.parametrize("speed", [0.25, 2.0, "fast", None])
def test_speeds_outside_half_to_one_and_a_half_are_refused(speed):
    with pytest.raises(SpeedOutOfRange) as err:
        stretch(voice(150.0, 0.5), RATE, speed)
    assert "fast" not in str(err.value)  # the message repeats no input value
    assert set(SPEEDS) >= {0.5, 1.0, 1.5}
