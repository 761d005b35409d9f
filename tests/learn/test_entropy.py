"""Entropy scorers against values worked out by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest

from redactdesk.learn.entropy import (
    binary_entropy,
    multiclass_entropy,
    rescale,
    score_lists,
    sequence_scores,
    token_entropy,
    token_margins,
    utterance_margins,
)
from redactdesk.learn.errors import StrategyError

H25 = -(0.25 * math.log2(0.25) + 0.75 * math.log2(0.75))  # 0.811278...


def test_binary_entropy_by_hand():
    h = binary_entropy(np.array([0.5, 0.25, 0.0, 1.0, 0.75]))
    assert h == pytest.approx([1.0, 0.8112781, 0.0, 0.0, 0.8112781], abs=1e-6)


def test_multiclass_entropy_by_hand():
    h = multiclass_entropy(np.array([[0.5, 0.25, 0.25], [1.0, 0.0, 0.0], [1 / 3, 1 / 3, 1 / 3]]))
    assert h == pytest.approx([1.5, 0.0, math.log2(3)])


def test_token_entropy_binary_uses_one_minus_outside():
    # column 0 is O: P(anon) = 1 - 0.75 = 0.25, however the rest is split between B and I
    probs = np.array([[0.75, 0.25, 0.0], [0.75, 0.125, 0.125], [0.5, 0.0, 0.5]])
    assert token_entropy(probs, 0, "binary") == pytest.approx([H25, H25, 1.0])
    assert token_entropy(probs, 0, "multi")[1] == pytest.approx(0.75 * -math.log2(0.75) + 2 * 0.125 * 3)
    with pytest.raises(StrategyError):
        token_entropy(probs, 0, "ternary")


@pytest.mark.parametrize(("scorer", "expected"), [
    ("sum", [1.0 + H25 + 0.5, 0.6, 0.0]),
    ("mean", [(1.0 + H25 + 0.5) / 4, 0.6, 0.0]),
    ("kmax", [(1.0 + H25 + 0.5) / 3, 0.6 / 3, 0.0]),  # fixed 1/K: a 1-word utterance counts 2 zeros
    ("max", [1.0, 0.6, 0.0]),
])
def test_sequence_scorers_by_hand(scorer, expected):
    utts = [[1.0, H25, 0.0, 0.5], [0.6], [0.0, 0.0, 0.0, 0.0, 0.0]]
    assert score_lists(utts, scorer) == pytest.approx(expected)


def test_kmax_takes_the_k_largest_not_the_first_k():
    assert score_lists([[0.1, 0.2, 0.9, 0.8, 0.7]], "kmax")[0] == pytest.approx((0.9 + 0.8 + 0.7) / 3)
    assert score_lists([[0.1, 0.2, 0.9, 0.8, 0.7]], "kmax", k=1)[0] == pytest.approx(0.9)


def test_flat_layout_matches_lists():
    flat = np.array([0.2, 0.4, 0.9, 0.1])
    out = sequence_scores(flat, np.array([0, 1]), np.array([1, 3]), "sum")
    assert out == pytest.approx([0.2, 1.4])
    with pytest.raises(StrategyError):
        sequence_scores(flat, np.array([0]), np.array([4]), "median")


def test_margins_by_hand():
    probs = np.array([[0.5, 0.3, 0.2], [0.9, 0.05, 0.05], [0.4, 0.4, 0.2]])
    assert token_margins(probs) == pytest.approx([0.2, 0.85, 0.0])
    assert utterance_margins(probs, np.array([0, 1]), np.array([1, 2])) == pytest.approx([0.2, 0.0])


def test_rescale():
    assert rescale(np.array([2.0, 4.0, 3.0])) == pytest.approx([0.0, 1.0, 0.5])
    assert rescale(np.array([3.0, 3.0])) == pytest.approx([0.0, 0.0])
