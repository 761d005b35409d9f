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


def tag_kappa(a: Sequence[Sequence[str]], b: Sequence[Sequence[str]]) -> float:
    """Cohen's kappa between two taggings of the same tokens (1.0 when both are constant and equal)."""
    fa = [t for seq in a for t in seq]
    fb = [t for seq in b for t in seq]
    if len(fa) != len(fb):
        raise ValueError("the two taggings cover different tokens")
    if not fa:
        return 1.0
    from sklearn.metrics import cohen_kappa_score

    # both taggings constant and equal: chance agreement is 1, so kappa is 0/0; they agree fully
    return float(cohen_kappa_score(fa, fb, replace_undefined_by=1.0))


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
