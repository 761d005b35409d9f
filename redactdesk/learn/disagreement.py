"""Source disagreement: how split the vote over a word was, as a second uncertainty signal.

Entropy says how unsure *one* model is. Disagreement asks several voters and measures how split
their vote is (query by committee, vote entropy): per word, the category each voter gives it
(``O`` included), and ``H = -sum_c (n_c / M) log2 (n_c / M)`` over the ``M`` voters. The voters:

- ``t``: the learner (the model being trained), when it exists;
- ``s``: the source model (the bundled tagger, or the bundled CRF);
- ``v``: the detection vote's own suggestions in the turn (spans not rejected), kept with each
  utterance by :func:`redactdesk.learn.utterances.utterances_from_conversation` -- what the
  patterns, gazetteers, spaCy and the tagger agreed on.

Word disagreements are turned into one score per utterance by the same four scorers as entropy
(``d-sum``, ``d-mean``, ``d-kmax``, ``d-max``). With fewer than two voters every score is 0.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from redactdesk.learn.tags import category_of

VOTE_TAGS = "vote_tags"  # Utterance.meta key: IOB2 tags of the detection vote's suggestions


def categories_from_marginals(probs: np.ndarray, labels: Sequence[str]) -> list[str]:
    """Each word's most likely category (``O`` for outside) from IOB2 distributions."""
    cats = [category_of(lab) or "O" for lab in labels]
    return [cats[j] for j in probs.argmax(axis=1)] if len(probs) else []


def vote_entropy(votes: Sequence[Sequence[str]]) -> np.ndarray:
    """Per word, the entropy (bits) of the voters' categories; ``votes`` is one list per voter."""
    if len(votes) < 2:
        n = len(votes[0]) if votes else 0
        return np.zeros(n)
    m = len(votes)
    out = np.zeros(len(votes[0]))
    for i in range(len(out)):
        _, counts = np.unique([v[i] for v in votes], return_counts=True)
        p = counts / m
        out[i] = float(-(p * np.log2(p)).sum())
    return out
