"""Stopping hints: kappa between taggings and the combined hint."""

from __future__ import annotations

import pytest

from redactdesk.learn.stopping import stopping_hint, tag_kappa


def test_kappa_by_hand():
    a = [["O", "O", "B-PERSON", "O"]]
    assert tag_kappa(a, a) == 1.0
    # observed 3/4 agree; P(a) = O .75, B .25; P(b) = O 1.0 -> expected .75 -> kappa 0
    assert tag_kappa(a, [["O", "O", "O", "O"]]) == pytest.approx(0.0)
    # observed .5; a: O .5 B .5; b: O .5 B .5 -> expected .5 -> kappa 0 ; one more agreement -> 0.5
    assert tag_kappa([["O", "B-X", "O", "B-X"]], [["O", "O", "B-X", "B-X"]]) == pytest.approx(0.0)
    assert tag_kappa([["O", "B-X", "O", "B-X"]], [["O", "B-X", "B-X", "B-X"]]) == pytest.approx(0.5)
    with pytest.raises(ValueError):
        tag_kappa([["O"]], [["O", "O"]])


def test_hint_needs_a_stable_window_or_confidence():
    assert not stopping_hint([], None).stopped
    assert not stopping_hint([None, 0.995, 0.999], 0.4).stopped  # only two agreements so far
    hint = stopping_hint([0.8, 0.991, 0.995, 0.999], 0.4)
    assert hint.stopped and hint.stable and not hint.confident and "stopped changing" in hint.message
    late_change = stopping_hint([0.995, 0.999, 0.97], 0.4)
    assert not late_change.stopped and "0.970" in late_change.message
    sure = stopping_hint([0.5], 0.01)
    assert sure.stopped and sure.confident and not sure.stable
