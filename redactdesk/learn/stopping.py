"""Stopping hints: when labelling more stops paying off.

Two signals, both computed on the unlabelled pool, never on labels:

- **stabilising predictions** (Bloodgood & Vijay-Shanker 2009): Cohen's kappa between the tags the
  previous and the new model give a fixed sample of the pool; when it stays >= ``kappa`` for
  ``window`` retrains in a row, the model has stopped changing.
- **maximum confidence** (Zhu et al. 2008): the largest token entropy left in the pool; when even
  the least certain word is below ``max_entropy``, the model is sure of everything it has not seen.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np


def tag_kappa(a: Sequence[Sequence[str]], b: Sequence[Sequence[str]]) -> float:
    """Cohen's kappa between two taggings of the same tokens (1.0 when both are constant and equal)."""
    fa = [t for seq in a for t in seq]
    fb = [t for seq in b for t in seq]
    if len(fa) != len(fb):
        raise ValueError("the two taggings cover different tokens")
    if not fa:
        return 1.0
    labels = sorted(set(fa) | set(fb))
    idx = {t: i for i, t in enumerate(labels)}
    ia = np.fromiter((idx[t] for t in fa), dtype=np.int64, count=len(fa))
    ib = np.fromiter((idx[t] for t in fb), dtype=np.int64, count=len(fb))
    observed = float(np.mean(ia == ib))
    pa = np.bincount(ia, minlength=len(labels)) / len(fa)
    pb = np.bincount(ib, minlength=len(labels)) / len(fb)
    expected = float(pa @ pb)
    if expected >= 1.0 - 1e-12:
        return 1.0 if observed >= 1.0 - 1e-12 else 0.0
    return (observed - expected) / (1.0 - expected)


@dataclass
class StoppingHint:
    """What the app shows: ``stopped`` and a sentence saying why (or why not yet)."""

    stopped: bool
    message: str
    kappas: list[float] = field(default_factory=list)
    max_entropy: float | None = None
    stable: bool = False
    confident: bool = False


def stopping_hint(kappas: Sequence[float | None], max_entropy: float | None, *, kappa: float = 0.99,
                  window: int = 3, entropy_threshold: float = 0.05) -> StoppingHint:
    """Combine the history of agreement values (oldest first) and the pool's largest token entropy."""
    ks = [float(k) for k in kappas if k is not None]
    recent = ks[-window:]
    stable = len(recent) >= window and min(recent) >= kappa
    confident = max_entropy is not None and max_entropy < entropy_threshold
    if stable and confident:
        msg = (f"The model has stopped changing: its tags on the unlabelled pool agreed (kappa >= {kappa}) "
               f"over the last {window} retrains, and no unlabelled word is uncertain.")
    elif stable:
        msg = (f"The model has stopped changing: its tags on the unlabelled pool agreed (kappa >= {kappa}) "
               f"over the last {window} retrains.")
    elif confident:
        msg = "The model is confident about every unlabelled word; more labels are unlikely to change it."
    elif not ks:
        msg = "Keep labelling: retrain at least twice to see whether the model is still changing."
    else:
        msg = f"Keep labelling: the last retrain still changed the pool's tags (kappa {ks[-1]:.3f})."
    return StoppingHint(stable or confident, msg, ks, max_entropy, stable, confident)
