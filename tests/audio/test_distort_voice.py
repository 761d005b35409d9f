"""Distortion (randomisation + growing silence range until the recogniser fails) and spoken surrogates."""

import numpy as np
import pytest
import soundfile as sf

from redactdesk.audio import MaskError, MaskRange, mask_file
from redactdesk.audio.engine import DEFAULT_FADE
from redactdesk.core.types import Word

RATE = 16000
RANGE = MaskRange(1.5, 2.0, None, (7,), "PERSON")


class HearsUntil:
    """Fake recogniser: hears the target word for the first ``n`` calls, then nothing."""

    def __init__(self, n, text="Smith"):
        self.n, self.text, self.calls = n, text, 0

    def __call__(self, audio, rate):
        self.calls += 1
        # the window is [0.5, 3.0] s, so the range sits at 1.0-1.5 s of it
        return [Word(self.text, 1.1, 1.4)] if self.calls <= self.n else []


def read(path):
    return sf.read(str(path), always_2d=True)[0][:, 0]


def test_silence_range_grows_until_the_recogniser_fails(make_audio, tmp_path):
    src = make_audio(seconds=3.5)
    rec = HearsUntil(2)
    report = mask_file(src, tmp_path / "d.wav", [RANGE], "distort",
                       {"targets": {7: "Smith"}, "recogniser": rec, "step": 0.1})
    (detail,) = report.details
    assert (detail["silence_range"], detail["iterations"], detail["still_recognised"]) == (0.2, 3, False)
    x, y = read(src), read(tmp_path / "d.wav")
    a, b = int(1.5 * RATE) + 200, int(2.0 * RATE) - 200  # inside, clear of the edge ramps
    xi, yi = x[a:b], y[a:b]
    peak = np.max(np.abs(x[int(1.5 * RATE):int(2.0 * RATE)]))
    quiet = np.abs(xi) < 0.2 * peak
    assert not np.any(np.abs(yi[quiet]) > 1e-4)  # suppressed
    loud = ~quiet
    ratio = yi[loud] / xi[loud]  # randomised between 0 and 1.5x the sample, same sign
    assert ratio.min() > -1e-3 and ratio.max() < 1.5 + 1e-2 and ratio.std() > 0.2
    fade = int(DEFAULT_FADE * RATE)
    outside = np.r_[0:int(1.5 * RATE) - fade, int(2.0 * RATE) + fade:len(x)]
    assert np.allclose(x[outside], y[outside], atol=1e-9)


def test_without_targets_it_grows_until_nothing_is_heard_at_all(make_audio, tmp_path):
    src = make_audio(seconds=3.5)
    always = HearsUntil(10**6, "you")
    report = mask_file(src, tmp_path / "d.wav", [RANGE], "distort", {"recogniser": always, "step": 0.25})
    assert report.details[0]["silence_range"] == 1.0 and report.details[0]["still_recognised"] is True
    assert always.calls == 5  # 0, .25, .5, .75, 1.0 (= silence: fail closed)
    assert not np.any(read(tmp_path / "d.wav")[int(1.5 * RATE):int(2.0 * RATE)])


def test_distort_without_check_and_bad_params(make_audio, tmp_path):
    src = make_audio(seconds=3.5)
    report = mask_file(src, tmp_path / "d.wav", [RANGE], "distort", {"check": False, "start": 0.3})
    assert report.details[0]["iterations"] == 0 and report.details[0]["silence_range"] == 0.3
    with pytest.raises(MaskError, match="step"):
        mask_file(src, tmp_path / "e.wav", [RANGE], "distort", {"step": 0})
    with pytest.raises(MaskError, match="targets"):
        mask_file(src, tmp_path / "e.wav", [RANGE], "distort", {"targets": ["Smith"]})


def test_voice_speaks_the_surrogate_fitted_to_the_range(make_audio, tmp_path, espeak):
    src = make_audio(seconds=3.5)
    ranges = [RANGE, MaskRange(2.5, 3.0, None, (8,), "CITY")]
    report = mask_file(src, tmp_path / "v.wav", ranges, "voice", {"surrogates": {7: "Peter Jones"}})
    assert [d["spoken"] for d in report.details] == [True, False]  # no surrogate for 8: beep fallback
    x, y = read(src), read(tmp_path / "v.wav")
    assert len(y) == len(x)
    inside = y[int(1.5 * RATE):int(2.0 * RATE)]
    x_in = x[int(1.5 * RATE):int(2.0 * RATE)]
    assert np.sqrt(np.mean(inside ** 2)) == pytest.approx(np.sqrt(np.mean(x_in ** 2)), rel=0.15)
    assert not np.allclose(inside, x_in, atol=1e-3)
    tone = y[int(2.6 * RATE):int(2.9 * RATE)]
    spectrum = np.abs(np.fft.rfft(tone))
    assert np.argmax(spectrum) * RATE / len(tone) == pytest.approx(1000, abs=5)  # the beep


def test_nearby_ranges_grow_together_in_one_recogniser_call_per_round(make_audio, tmp_path):
    src = make_audio(seconds=4.0)
    ranges = [RANGE, MaskRange(2.5, 3.0, None, (8,), "CITY")]
    rounds = [[Word("Smith", 1.1, 1.4), Word("Leeds", 2.1, 2.4)], [Word("Leeds", 2.1, 2.4)], [], []]
    calls = []

    def rec(audio, rate):  # one window [0.5, 4.0] s holds both ranges
        calls.append(len(audio) / rate)
        return rounds[len(calls) - 1]

    report = mask_file(src, tmp_path / "d.wav", ranges, "distort",
                       {"targets": {7: "Smith", 8: "Leeds"}, "recogniser": rec})
    assert calls == [3.5] * 4  # three rounds, then one check of everything at its final setting
    assert [(d["silence_range"], d["iterations"]) for d in report.details] == [(0.1, 2), (0.2, 3)]


def test_a_range_heard_again_in_the_final_check_grows_on(make_audio, tmp_path):
    src = make_audio(seconds=3.5)
    answers = [[], [Word("Smith", 1.1, 1.4)], [], []]  # quiet at 0, heard in the final check, then quiet
    calls = []

    def rec(audio, rate):
        calls.append(1)
        return answers[len(calls) - 1]

    report = mask_file(src, tmp_path / "d.wav", [RANGE], "distort", {"targets": {7: "Smith"}, "recogniser": rec})
    assert len(calls) == 4 and report.details[0]["silence_range"] == 0.1
