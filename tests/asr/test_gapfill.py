"""The second pass: speech the first pass left without words is recognised again, nothing doubled."""

import numpy as np
import pytest

from redactdesk.asr import register_backend, transcribe_file
from redactdesk.asr.base import BackendOutput
from redactdesk.asr.faster_whisper_backend import FasterWhisperBackend
from redactdesk.asr.gapfill import GapPlan, fill_gaps, uncovered
from redactdesk.core.types import Word

RATE = 16_000


def _w(text, start, end):
    return Word(text, start, end)


def test_speech_without_words_is_found_and_short_holes_are_not():
    words = [_w("hello", 0.0, 0.5), _w("there", 0.6, 1.0), _w("bye", 8.0, 8.4)]
    assert uncovered([(0.0, 8.5)], words) == [(1.25, 7.75)]
    # a hole shorter than min_gap (here 0.5 s of speech between covers) is left alone
    assert uncovered([(0.0, 2.0)], [_w("a", 0.0, 0.5), _w("b", 1.5, 2.0)]) == []
    # speech with no words at all: joined while the window stays short, long stretches split
    plan = GapPlan(max_window=5.0)
    assert uncovered([(10.0, 12.0), (12.5, 19.0)], [], plan) == [(10.0, 12.0), (12.5, 17.5), (17.5, 19.0)]


def test_a_squeezed_digit_token_covers_the_time_its_digits_take():
    # Whisper put "813569814" (9 digits, ~2.7 s said) into 0.9 s at the end of the speech it covers
    words = [_w("number", 0.0, 0.5), _w("813569814.", 3.0, 3.9)]
    assert uncovered([(0.0, 3.9)], words) == []
    assert uncovered([(0.0, 3.9)], [words[0], _w("yes", 3.0, 3.9)]) == [(0.75, 2.75)]


def test_words_of_the_gap_are_added_once_in_order():
    audio = np.zeros(10 * RATE, np.float32)
    calls = []

    def run(piece, language):
        calls.append((len(piece) / RATE, language))
        # the second pass hears the skipped words, plus the neighbours at the edges of its window
        return BackendOutput(words=[_w("hello", 0.0, 0.2), _w("G", 0.6, 0.8), _w("as", 0.9, 1.0),
                                    _w("in", 1.0, 1.1), _w("George", 1.2, 1.6), _w("500,012", 1.7, 2.0)],
                             language=language)

    first = [_w("hello", 0.5, 1.0), _w("4,500,012", 4.0, 5.0)]
    merged, gaps = fill_gaps(run, lambda a, b: audio[a:b], len(audio), RATE, first, [(0.5, 5.0)], language="en")
    assert gaps == [(1.25, 2.9)]  # the 7-digit token reaches 1.1 s before its start
    assert [w.text for w in merged] == ["hello", "G", "as", "in", "George", "4,500,012"]
    assert [w.start for w in merged] == sorted(w.start for w in merged)
    george = merged[4]
    assert george.start == pytest.approx(0.95 + 1.2)  # window starts 0.3 s before the gap
    assert calls == [(pytest.approx(3.2 - 0.95, abs=1e-3), "en")]


def test_nothing_to_fill_leaves_the_words_alone():
    words = [_w("a", 0.0, 1.0)]

    def run(piece, language):  # pragma: no cover - must not be called
        raise AssertionError("no gap, no second pass")

    assert fill_gaps(run, lambda a, b: np.zeros(b - a), RATE, RATE, words, [(0.0, 1.0)], language="en") == (words, [])


class _SkippingWhisper(FasterWhisperBackend):
    """Real tiny.en whose first pass over the whole clip 'skips' the middle words, as Whisper does."""

    def run_chunk(self, audio, language, progress=None, cancel=None):
        out = super().run_chunk(audio, language, progress, cancel)
        if len(audio) / RATE > 4.0:  # the first pass over the whole clip
            out.words = [w for w in out.words if not 1.6 < (w.start + w.end) / 2 < 3.6]
        return out


def test_a_skipped_stretch_is_heard_by_the_second_pass(clip, clip_wav):
    register_backend("skipping-whisper", _SkippingWhisper)
    ref_middle = [w for w, s, e in clip.words if 1.6 < (s + e) / 2 < 3.6]
    assert len(ref_middle) >= 3
    without = transcribe_file(clip_wav, backend="skipping-whisper", model="tiny.en", refine=False,
                              second_pass=False)
    assert not any(1.6 < (w.start + w.end) / 2 < 3.6 for w in without.words)
    result = transcribe_file(clip_wav, backend="skipping-whisper", model="tiny.en", refine=False)
    middle = [w.text.strip(".,").lower() for w in result.words if 1.5 < (w.start + w.end) / 2 < 3.7]
    assert len(set(middle) & set(ref_middle)) >= 2
    assert result.refilled >= 1 and result.summary()["refilled"] == result.refilled
    starts = [w.start for w in result.words]
    assert starts == sorted(starts) and len(result.words) <= len(clip.words) + 2
