"""Packing short clips into recogniser windows: no clip is split, and each gets back its own words."""

import numpy as np
import pytest

from redactdesk.audio.packing import Placed, pack, split_words, window_audio
from redactdesk.core.types import Word


def test_clips_are_packed_whole_and_in_order_under_the_limit():
    lengths = [4.0, 9.5, 3.0, 12.0, 30.0, 2.0]
    windows = pack(lengths, limit=28.0, gap=1.0)
    assert [p.clip for w in windows for p in w] == list(range(len(lengths)))  # each clip once, in order
    for w in windows:
        assert all(p.length == lengths[p.clip] for p in w)  # never split
        assert all(q.offset - p.end == pytest.approx(1.0) for p, q in zip(w, w[1:], strict=False))
        assert len(w) == 1 or w[-1].end <= 28.0  # only a clip longer than the limit stands alone beyond it
    assert [[p.clip for p in w] for w in windows] == [[0, 1, 2], [3], [4], [5]]


def test_limit_zero_hears_every_clip_alone():
    assert [[p.clip for p in w] for w in pack([1.0, 1.0, 1.0], limit=0.0, gap=1.0)] == [[0], [1], [2]]


def test_window_audio_lays_clips_at_their_offsets_with_silence_between():
    rate = 10
    clips = [np.full(20, 0.5, dtype=np.float32), np.full(10, -0.25, dtype=np.float32)]
    window = pack([2.0, 1.0], limit=28.0, gap=1.0)[0]
    x = window_audio(clips, window, rate)
    assert len(x) == 40
    assert np.all(x[:20] == 0.5) and np.all(x[20:30] == 0.0) and np.all(x[30:] == -0.25)


def _words(window, pairs):
    return split_words([Word(t, a, b) for t, a, b in pairs], window)


def test_words_go_back_to_their_own_clip_in_its_own_time():
    window = [Placed(7, 0.0, 3.0), Placed(8, 4.0, 3.0), Placed(9, 8.0, 2.0)]
    out = _words(window, [("John", 1.0, 1.4), ("Smith", 5.5, 5.9), ("five", 8.2, 8.4), ("oh", 9.6, 9.9)])
    assert {k: [(w.text, round(w.start, 2), round(w.end, 2)) for w in v] for k, v in out.items()} == {
        7: [("John", 1.0, 1.4)], 8: [("Smith", 1.5, 1.9)], 9: [("five", 0.2, 0.4), ("oh", 1.6, 1.9)]}


def test_a_word_inside_a_gap_goes_to_the_nearer_clip():
    window = [Placed(0, 0.0, 3.0), Placed(1, 4.0, 3.0)]
    out = _words(window, [("late", 3.1, 3.3), ("early", 3.7, 3.9)])
    assert [w.text for w in out[0]] == ["late"] and [w.text for w in out[1]] == ["early"]


def test_a_word_stretched_across_a_gap_counts_in_both_clips():
    """Whisper gave one word a time from the end of one clip to the start of the next: it cannot be
    placed for sure, so each clip hears it (fail closed)."""
    window = [Placed(0, 0.0, 3.0), Placed(1, 4.0, 3.0)]
    out = _words(window, [("Smith", 2.8, 4.3)])
    assert [(w.text, round(w.start, 2)) for w in out[0]] == [("Smith", 2.8)]
    assert [(w.text, round(w.start, 2)) for w in out[1]] == [("Smith", -1.2)]

