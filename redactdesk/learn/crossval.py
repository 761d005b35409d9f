"""The learning curve by cross-validation: per category, every labelled turn scored by a model that
never trained on it.

The tagger's own score is test-then-train (each batch scored by the version before it, see
:mod:`redactdesk.learn.tagger_update`): cheap, but a noisy point per batch. After each update the app
also runs a k-fold cross-validation over the labelled turns in the background
(:func:`cross_validate_turns`) and stores it with the version (``metrics["xval"]``); the points of
all versions are the learning curve per category (:func:`xval_curves`).

- ``k`` is :data:`FOLDS` (5), fewer when few turns are labelled (at least 2 test turns a fold);
  below :data:`MIN_TURNS` the result says "not enough labelled turns" and holds no score.
- At most :data:`MAX_TURNS` turns are used (the most recent ones, in the order given), so a run
  stays cheap on a laptop: the CRF fits k small models; the tagger fine-tunes the *bundled* tagger
  (which never saw the project's labels) k times with :data:`TAGGER_SETTINGS` -- one short pass of the
  update routine, not the full update.
- A fold's model is trained on the other folds only, so a label that appears in one turn alone is
  never predicted from itself.

Results carry counts and scores only, never words.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from redactdesk.learn.metrics import Scores, cross_validate
from redactdesk.learn.tagger_model import UpdateSettings
from redactdesk.learn.utterances import Utterance

FOLDS = 5
MIN_TURNS = 6  # fewer labelled turns: "not enough labelled turns"
MIN_TEST_TURNS = 2  # a fold scores at least this many turns (so k shrinks with few turns)
MAX_TURNS = 400  # the most recent labelled turns used
TAGGER_SETTINGS = UpdateSettings(epochs=2, minibatch=16, replay=0)  # per fold: a short update

FitPredict = Callable[[list[Utterance], list[Utterance]], list[list[str]]]
Check = Callable[[], None]


@dataclass(frozen=True)
class CrossValidation:
    """One cross-validation run: how many labelled turns there were and were used, the folds, and
    the scores (None with ``reason`` when there were too few turns)."""

    n_labelled: int
    n_used: int
    folds: int
    scores: Scores | None
    seconds: float = 0.0
    reason: str = ""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"n_labelled": self.n_labelled, "n_used": self.n_used, "folds": self.folds,
                               "seconds": round(self.seconds, 3)}
        if self.scores is None:
            return {**out, "f1": None, "per_category": {}, "reason": self.reason}
        return {**out, "f1": self.scores.f1, "precision": self.scores.precision, "recall": self.scores.recall,
                "per_category": self.scores.per_category}


def folds_for(n_turns: int, folds: int = FOLDS) -> int:
    """k for ``n_turns`` turns: ``folds``, fewer so that each fold scores at least 2 turns (min 2)."""
    return max(2, min(folds, n_turns // MIN_TEST_TURNS))


def cross_validate_turns(labelled: Sequence[Utterance], fit_predict: FitPredict, *, folds: int = FOLDS,
                         min_turns: int = MIN_TURNS, max_turns: int = MAX_TURNS, seed: int = 0,
                         check: Check | None = None) -> CrossValidation:
    """k-fold scores of ``fit_predict`` over the labelled turns (oldest first; the newest
    ``max_turns`` are used). ``fit_predict(train, test)`` returns tags for ``test``."""
    data = [u for u in labelled if u.tags is not None]
    if len(data) < min_turns:
        return CrossValidation(len(data), 0, 0, None,
                               reason=f"not enough labelled turns to cross-validate ({len(data)} of {min_turns})")
    used = data[-max_turns:]
    k = folds_for(len(used), folds)

    def guarded(train: list[Utterance], test: list[Utterance]) -> list[list[str]]:
        if check is not None:
            check()
        return fit_predict(train, test)

    t0 = time.perf_counter()
    scores = cross_validate(used, guarded, folds=k, seed=seed)
    return CrossValidation(len(data), len(used), k, scores, time.perf_counter() - t0)


def crf_fit_predict(training: Any, extractor: Any) -> FitPredict:
    """A fold of the CRF learner: a new CRF with the learner's settings, trained on the fold."""
    def fit_predict(train: list[Utterance], test: list[Utterance]) -> list[list[str]]:
        return training.new_model(extractor).fit(train).predict(test)

    return fit_predict


def tagger_fit_predict(base: Any, settings: UpdateSettings = TAGGER_SETTINGS) -> FitPredict:
    """A fold of the tagger learner: ``base`` (the bundled tagger, which never saw the project's
    labels) fine-tuned on the fold's turns only."""
    def fit_predict(train: list[Utterance], test: list[Utterance]) -> list[list[str]]:
        return base.updated(train, (), settings).predict(test)

    return fit_predict


def xval_curves(versions: Sequence[Any]) -> dict[str, list[tuple[int, float]]]:
    """The cross-validated learning curve: ``{"all": [(labelled turns, F1)], category: [...]}`` over the
    versions (objects with ``metrics``) that have a cross-validation score, in version order."""
    curves: dict[str, list[tuple[int, float]]] = {}
    for v in versions:
        xv = (v.metrics or {}).get("xval") or {}
        if xv.get("f1") is None:
            continue
        n = int(xv["n_labelled"])
        curves.setdefault("all", []).append((n, float(xv["f1"])))
        for cat, m in sorted((xv.get("per_category") or {}).items()):
            curves.setdefault(cat, []).append((n, float(m["f1"])))
    return curves
