"""Token-level precision / recall / F1 per category (and the thesis' binary anon label).

A token counts as a true positive when gold and prediction name the same category (B/I ignored),
like the thesis' token-level 'anon' scores but per category; ``micro`` pools all categories.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from redactdesk.learn.tags import category_of
from redactdesk.learn.utterances import Utterance


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


def _prf(tp: float, fp: float, fn: float) -> tuple[float, float, float]:
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return p, r, f


def token_scores(gold: Sequence[Sequence[str]], pred: Sequence[Sequence[str]]) -> Scores:
    tp: Counter[str] = Counter()
    fp: Counter[str] = Counter()
    fn: Counter[str] = Counter()
    atp = afp = afn = 0
    for g_seq, p_seq in zip(gold, pred, strict=True):
        for g, p in zip(g_seq, p_seq, strict=True):
            gc, pc = category_of(g), category_of(p)
            if gc is not None and gc == pc:
                tp[gc] += 1
            else:
                if pc is not None:
                    fp[pc] += 1
                if gc is not None:
                    fn[gc] += 1
            if gc is not None and pc is not None:
                atp += 1
            elif pc is not None:
                afp += 1
            elif gc is not None:
                afn += 1
    p, r, f = _prf(sum(tp.values()), sum(fp.values()), sum(fn.values()))
    per = {}
    for c in sorted(set(tp) | set(fp) | set(fn)):
        cp, cr, cf = _prf(tp[c], fp[c], fn[c])
        per[c] = {"precision": cp, "recall": cr, "f1": cf, "support": tp[c] + fn[c]}
    return Scores(p, r, f, _prf(atp, afp, afn)[2], per)


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
