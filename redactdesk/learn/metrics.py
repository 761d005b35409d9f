"""Token-level precision / recall / F1 per category (and the thesis' binary anon label).

A token counts as a true positive when gold and prediction name the same category (B/I ignored),
like the thesis' token-level 'anon' scores but per category; ``micro`` pools all categories.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from redactdesk.learn.tags import category_of
from redactdesk.learn.utterances import Utterance

_OUTSIDE = ""  # no category: not personal data


@dataclass
class Scores:
    """Micro P/R/F1 over categories, binary anon P/R/F1, and per-category P/R/F1 and support."""

    precision: float
    recall: float
    f1: float
    anon_f1: float
    per_category: dict[str, dict[str, float]] = field(default_factory=dict)

    def to_dict(self) -> dict:
        return {"precision": self.precision, "recall": self.recall, "f1": self.f1, "anon_f1": self.anon_f1,
                "per_category": self.per_category}


def token_scores(gold: Sequence[Sequence[str]], pred: Sequence[Sequence[str]]) -> Scores:
    from sklearn.metrics import precision_recall_fscore_support

    g_cats: list[str] = []
    p_cats: list[str] = []
    for g_seq, p_seq in zip(gold, pred, strict=True):
        for g, p in zip(g_seq, p_seq, strict=True):
            g_cats.append(category_of(g) or _OUTSIDE)
            p_cats.append(category_of(p) or _OUTSIDE)
    labels = sorted((set(g_cats) | set(p_cats)) - {_OUTSIDE})
    if not labels:
        return Scores(0.0, 0.0, 0.0, 0.0, {})
    p, r, f, _ = precision_recall_fscore_support(g_cats, p_cats, labels=labels, average="micro", zero_division=0.0)
    cp, cr, cf, support = precision_recall_fscore_support(g_cats, p_cats, labels=labels, average=None,
                                                          zero_division=0.0)
    per = {c: {"precision": float(cp[k]), "recall": float(cr[k]), "f1": float(cf[k]), "support": int(support[k])}
           for k, c in enumerate(labels)}
    # anon: the token is personal data at all, whatever its category
    anon = precision_recall_fscore_support([c != _OUTSIDE for c in g_cats], [c != _OUTSIDE for c in p_cats],
                                           average="binary", zero_division=0.0)
    return Scores(float(p), float(r), float(f), float(anon[2]), per)


def cross_validate(utterances: Sequence[Utterance], fit_predict: Callable[[list[Utterance], list[Utterance]],
                                                                            list[list[str]]],
                   folds: int = 3, seed: int = 0) -> Scores | None:
    """k-fold cross-validated token scores (None when there are too few utterances to split)."""
    data = [u for u in utterances if u.tags is not None]
    if len(data) < max(2, folds):
        return None
    order = np.random.default_rng(seed).permutation(len(data))
    gold: list[list[str]] = []
    pred: list[list[str]] = []
    for k in range(folds):
        test_idx = order[k::folds]
        test = [data[i] for i in test_idx]
        train = [data[i] for i in np.setdiff1d(order, test_idx)]
        if not train or not any(t != "O" for u in train for t in u.tags or ()):
            pred += [["O"] * len(u) for u in test]
        else:
            pred += fit_predict(train, test)
        gold += [list(u.tags or ()) for u in test]
    return token_scores(gold, pred)
