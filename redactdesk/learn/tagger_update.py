"""One update of the tagger learner: what is new since the model in use, fine-tune, score.

Called by :meth:`redactdesk.learn.service.ActiveLearner.prepare_retrain` for the tagger learner.
The annotators' decisions reach the model through the labelled utterances
(:mod:`redactdesk.learn.utterances`): accepted spans are the tags, rejected spans and untouched
words are ``O``, added spans are accepted spans, a category change changes the tags. A turn is
*new* when no version before learned it with exactly these words and tags, so a changed decision
on an old turn is learned again.

Scores are test-then-train: before learning the new turns, the model in use labels them; its
token-level P/R/F1 per category on those turns is an honest held-out score (the turns were never
seen) at no extra training cost, stored with the new version as the score of its predecessor
(``scored_n``: how many labelled turns that predecessor had learned).
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from redactdesk.learn.entropy import sequence_scores, token_entropy
from redactdesk.learn.errors import LearnError
from redactdesk.learn.metrics import token_scores
from redactdesk.learn.stopping import tag_kappa
from redactdesk.learn.tagger_model import MODEL_KIND, TaggerModel, UpdateSettings
from redactdesk.learn.utterances import Utterance

Check = Callable[[], None]


def label_signature(u: Utterance) -> str:
    """A short digest of one labelled utterance: where it is, its words and its tags."""
    body = json.dumps([u.conversation_id, u.turn_index, u.tokens, u.tags], ensure_ascii=True)
    return hashlib.sha256(body.encode("utf-8")).hexdigest()[:16]


def split_new(model: TaggerModel, labelled: Sequence[Utterance]) -> tuple[list[Utterance], list[Utterance]]:
    """(labelled utterances the model has not learned as they are now, the ones it has)."""
    seen = set(model.info.get("trained") or ())
    new = [u for u in labelled if label_signature(u) not in seen]
    old = [u for u in labelled if label_signature(u) in seen]
    return new, old


def prepare_tagger_update(base: TaggerModel, base_id: int | None, utterances: Sequence[Utterance], *,
                          check: Check, settings: UpdateSettings | None = None, strategy: str = "",
                          mode: str = "multi", seed: int = 0, stop_sample: int = 200) -> Callable[[], Any]:
    """The update job over a snapshot of the utterances (pure computation; any thread)."""
    from redactdesk.learn.service import TrainResult

    labelled = [u for u in utterances if u.labelled]
    new, old = split_new(base, labelled)
    if not new:
        raise LearnError(f"no new labels since model version {base_id}" if base_id is not None
                         else "no new labels to learn from")
    unlabelled = [u for u in utterances if not u.labelled]
    rng = np.random.default_rng(seed)
    stop = [unlabelled[i] for i in np.sort(rng.permutation(len(unlabelled))[:stop_sample])] if unlabelled else []
    st = settings or base.default_settings(seed)

    def job() -> TrainResult:
        check()
        before = token_scores([u.tags or [] for u in new], base.predict(new))
        check()
        t0 = time.perf_counter()
        model = base.updated(new, old, st)
        seconds = time.perf_counter() - t0
        check()
        trained = list(dict.fromkeys([*(base.info.get("trained") or ()), *(label_signature(u) for u in new)]))
        model.info = {**model.info, "trained": trained, "n_labelled": len(labelled)}
        kappa = max_h = mean_h = None
        stop_tags: list[list[str]] = []
        if stop:
            marg = model.marginals(stop)
            stop_tags = model.predict(stop, marg)
            kappa = tag_kappa(base.predict(stop), stop_tags)
            h = token_entropy(marg.probs, marg.outside, mode)
            if h.size:
                max_h = float(h.max())
                mean_h = float(sequence_scores(h, marg.starts, marg.lengths, "mean").mean())
        metrics = {
            "learner": "tagger", "n_labelled": len(labelled), "n_new": len(new),
            "f1": before.f1, "precision": before.precision, "recall": before.recall, "cv": before.to_dict(),
            "eval": "test-then-train", "scored_n": int(base.info.get("n_labelled", 0)),
            "kappa": kappa, "pool_max_entropy": max_h, "pool_mean_entropy": mean_h,
            "strategy": strategy, "labels": model.labels, "parent": base_id,
            "update_seconds": round(seconds, 3), "update": st.to_dict(),
        }
        return TrainResult(model, len(labelled), metrics, stop_tags, model.to_bytes(), kind=MODEL_KIND)

    return job
