"""Entropy scorers over token marginals (seed 004, 5.1.1), vectorised with numpy.

Token entropy is either *binary* -- the thesis' anon / not-anon decision, with
``P(anon) = 1 - P(O)`` -- or *multi-class* over every IOB2 label. Logarithms are base 2, so a
binary token entropy lies in [0, 1].

Sequence scorers of an utterance ``I`` with token entropies ``H(w)``:

- ``sum``:  ``sum_w H(w)``
- ``mean``: ``sum_w H(w) / |I|``
- ``kmax``: ``(1/K) * sum`` of the K largest ``H(w)`` (K = 3); an utterance shorter than K
  counts its missing words as 0, exactly as the formula's fixed ``1/K`` says;
- ``max``:  ``max_w H(w)``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from redactdesk.learn.errors import StrategyError

SCORERS = ("sum", "mean", "kmax", "max")
MODES = ("binary", "multi")
K_MAX = 3


def _xlogx(p: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(p > 0, p * np.log2(np.where(p > 0, p, 1.0)), 0.0)


def binary_entropy(p_anon: np.ndarray) -> np.ndarray:
    """H(w) = -p log2 p - (1-p) log2 (1-p) for each token's probability of being personal data."""
    p = np.clip(np.asarray(p_anon, dtype=float), 0.0, 1.0)
    return -(_xlogx(p) + _xlogx(1.0 - p))


def multiclass_entropy(probs: np.ndarray) -> np.ndarray:
    """H(w) = -sum_y p_y log2 p_y over the label axis (last axis)."""
    return -_xlogx(np.asarray(probs, dtype=float)).sum(axis=-1)


def token_entropy(probs: np.ndarray, outside: int, mode: str = "binary") -> np.ndarray:
    """Token entropies from marginals ``(n_tokens, n_labels)``; ``outside`` is the column of ``O``."""
    if mode == "binary":
        return binary_entropy(1.0 - probs[:, outside])
    if mode == "multi":
        return multiclass_entropy(probs)
    raise StrategyError(f"unknown entropy mode {mode!r} (choose from {', '.join(MODES)})")


def _padded(values: np.ndarray, starts: np.ndarray, lengths: np.ndarray, fill: float) -> np.ndarray:
    n = len(lengths)
    width = int(lengths.max()) if n else 0
    out = np.full((n, max(width, 1)), fill)
    if n and values.size:
        rows = np.repeat(np.arange(n), lengths)
        cols = np.arange(values.shape[0]) - np.repeat(starts, lengths)
        out[rows, cols] = values
    return out


def sequence_scores(token_h: np.ndarray, starts: np.ndarray, lengths: np.ndarray,
                    scorer: str = "sum", k: int = K_MAX) -> np.ndarray:
    """One score per utterance from its tokens' entropies (flat array + starts/lengths)."""
    starts = np.asarray(starts, dtype=np.int64)
    lengths = np.asarray(lengths, dtype=np.int64)
    n = len(lengths)
    if n == 0:
        return np.zeros(0)
    if scorer in ("sum", "mean"):
        csum = np.concatenate([[0.0], np.cumsum(token_h)])
        total = csum[starts + lengths] - csum[starts]
        if scorer == "sum":
            return total
        return np.divide(total, lengths, out=np.zeros(n), where=lengths > 0)
    if scorer == "max":
        return _padded(token_h, starts, lengths, 0.0).max(axis=1)
    if scorer == "kmax":
        pad = _padded(token_h, starts, lengths, 0.0)
        kk = min(k, pad.shape[1])
        top = -np.partition(-pad, kk - 1, axis=1)[:, :kk]
        return top.sum(axis=1) / k
    raise StrategyError(f"unknown entropy scorer {scorer!r} (choose from {', '.join(SCORERS)})")


def score_lists(token_entropies: Sequence[Sequence[float]], scorer: str = "sum", k: int = K_MAX) -> np.ndarray:
    """Convenience: scores of utterances given as lists of token entropies."""
    lengths = np.array([len(t) for t in token_entropies], dtype=np.int64)
    starts = np.concatenate([[0], np.cumsum(lengths)[:-1]]) if len(lengths) else lengths
    flat = np.concatenate([np.asarray(t, dtype=float) for t in token_entropies]) if len(lengths) else np.zeros(0)
    return sequence_scores(flat, starts, lengths, scorer, k)


def token_margins(probs: np.ndarray) -> np.ndarray:
    """Gap between each token's best and second-best label probability (INCEpTION's margin)."""
    if probs.shape[1] < 2:
        return np.ones(probs.shape[0])
    top2 = -np.partition(-probs, 1, axis=1)[:, :2]
    return top2[:, 0] - top2[:, 1]


def utterance_margins(probs: np.ndarray, starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """Smallest token margin of each utterance: how close its least certain word is to flipping."""
    m = token_margins(probs)
    return _padded(m, np.asarray(starts), np.asarray(lengths), 1.0).min(axis=1)


def rescale(x: np.ndarray) -> np.ndarray:
    """Min-max rescale to [0, 1] (all zeros when the values are constant)."""
    x = np.asarray(x, dtype=float)
    if x.size == 0:
        return x
    lo, hi = float(x.min()), float(x.max())
    if hi - lo <= 1e-12:
        return np.zeros_like(x)
    return (x - lo) / (hi - lo)
