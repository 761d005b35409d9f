"""The tagger learner inside ``redactdesk simulate``: the same rounds as the CRF, learned as the app does.

The CRF is retrained from scratch on every labelled utterance each round (the thesis' baseline).
The tagger learner starts from the bundled transcript tagger and, each round, makes exactly one
app update from the previous round's model with the newly chosen utterances
(:meth:`redactdesk.learn.encoder_learner.EncoderModel.updated`: while few turns are labelled it
retrains from the bundled tagger on all of them, later it steps on the new ones plus a replay
sample). So its curve shows what annotators would see.

:class:`TaggerTrainer` keeps the last model of the current run: a call with a superset of the
last indices is an update; any other call (a new run, the full-data model) starts again from the
bundled tagger.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from redactdesk.learn.tagger_model import bundled_learner
from redactdesk.learn.utterances import Utterance


class TaggerTrainer:
    def __init__(self, pool: Sequence[Utterance], base: Any = None, settings: Any = None,
                 full_epochs: int | None = None) -> None:
        self.pool = list(pool)
        self.base = base or bundled_learner("en")
        self.settings = settings or self.base.default_settings()
        self.full_epochs = full_epochs or getattr(self.base, "full_epochs", None)
        self._last: tuple[Any, frozenset[int]] | None = None

    def train(self, indices: np.ndarray) -> Any:
        idx = [int(i) for i in indices]
        chosen = frozenset(idx)
        if self._last is not None and self._last[1] <= chosen and self._last[1] != chosen:
            model, before = self._last
            new = [self.pool[i] for i in idx if i not in before]
            earlier = [self.pool[i] for i in sorted(before)]
            out = model.updated(new, earlier, self.settings)
        else:
            st = self.settings
            if len(idx) == len(self.pool) and self.full_epochs:
                st = replace(st, epochs=self.full_epochs)
            out = self.base.updated([self.pool[i] for i in idx], (), st)
        self._last = (out, chosen)
        return out
