"""Slower or faster playback that keeps the voice's pitch (Praat's overlap-add through parselmouth).

Transcribers and reviewers slow a fast talker down to catch a spelled name or a digit string, and
speed a long quiet stretch up; resampling would shift the pitch with the speed (chipmunk or growl)
and make voices harder to recognise. Praat's "Lengthen (overlap-add)" (PSOLA) re-spaces pitch
periods instead, so the pitch stays and only the tempo changes. No Qt here: the player in
``redactdesk.gui.playback`` calls :func:`stretch` on the range it is about to play.
"""

from __future__ import annotations

import numpy as np

MIN_SPEED = 0.5
MAX_SPEED = 1.5
SPEEDS = (0.5, 0.75, 1.0, 1.25, 1.5)  # the steps offered in the app
PITCH_FLOOR = 75.0  # Hz: Praat's defaults for speech, low male to high female/child voices
PITCH_CEILING = 600.0


class SpeedOutOfRange(ValueError):
    """A playback speed outside :data:`MIN_SPEED` … :data:`MAX_SPEED`."""


def check_speed(speed: float) -> float:
    """``speed`` as a float when it is a supported playback speed, else :class:`SpeedOutOfRange`."""
    try:
        value = float(speed)
    except (TypeError, ValueError):
        raise SpeedOutOfRange("the playback speed must be a number") from None
    if not MIN_SPEED - 1e-9 <= value <= MAX_SPEED + 1e-9:
        raise SpeedOutOfRange(f"the playback speed must be between {MIN_SPEED:g}x and {MAX_SPEED:g}x")
    return value


def stretch(samples: np.ndarray, rate: int, speed: float) -> np.ndarray:
    """``samples`` (frames, channels) or (frames,) played ``speed`` times as fast, pitch kept.

    The result has about ``len(samples) / speed`` frames, the same shape otherwise, float32. Speed 1
    returns the input unchanged (no processing artefacts at normal speed); each channel is stretched
    on its own so a stereo call keeps agent and customer apart. A range too short to hold two pitch
    periods is returned as it is.
    """
    speed = check_speed(speed)
    data = np.asarray(samples, dtype=np.float32)
    if abs(speed - 1.0) < 1e-6 or data.shape[0] < int(rate * 2 / PITCH_FLOOR) + 1:
        return data
    import parselmouth
    from parselmouth.praat import call

    mono = data.ndim == 1
    columns = data[:, None] if mono else data
    out = []
    for ch in range(columns.shape[1]):
        sound = parselmouth.Sound(columns[:, ch].astype(np.float64), sampling_frequency=float(rate))
        longer = call(sound, "Lengthen (overlap-add)", PITCH_FLOOR, PITCH_CEILING, 1.0 / speed)
        out.append(np.asarray(longer.values[0], dtype=np.float32))
    n = min(len(c) for c in out)
    result = np.stack([c[:n] for c in out], axis=1)
    np.clip(result, -1.0, 1.0, out=result)
    return result[:, 0] if mono else result
