"""The learning curve by cross-validation (issue 17): every labelled turn is scored by a model that never
trained on it, per category; too few turns say so; the turns used are capped (the most recent)."""

from __future__ import annotations

import dataclasses

import pytest

from redactdesk.learn.crossval import MAX_TURNS, MIN_TURNS, cross_validate_turns, folds_for, xval_curves
from redactdesk.learn.utterances import Utterance


def _turn(i: int, category: str | None = None) -> Utterance:
    """'my code is w<i>' with w<i> tagged ``category`` (or nothing)."""
    tags = ["O", "O", "O", f"B-{category}" if category else "O"]
    return Utterance(["my", "code", "is", f"w{i}"], tags=tags, conversation_id="c", turn_index=i, labelled=True)


def _memoriser(train, test):
    """A model that has learned its training turns by heart (and knows nothing else)."""
    known = {tuple(u.tokens): list(u.tags) for u in train}
    return [known.get(tuple(u.tokens), ["O"] * len(u)) for u in test]


def test_folds_never_score_a_turn_they_trained_on():
    turns = [_turn(i, "PERSON" if i % 2 else None) for i in range(23)]
    seen: list[tuple[set[int], set[int]]] = []

    def recorder(train, test):
        seen.append(({u.turn_index for u in train}, {u.turn_index for u in test}))
        return _memoriser(train, test)

    cv = cross_validate_turns(turns, recorder)
    assert cv.folds == len(seen) == 5 and cv.n_used == cv.n_labelled == 23
    for train, test in seen:
        assert not train & test and train | test == set(range(23))
    scored = [i for _, test in seen for i in test]
    assert sorted(scored) == list(range(23))  # every turn scored exactly once


def test_a_label_seen_in_one_turn_only_is_not_predicted_from_itself():
    turns = [_turn(i, "PERSON") for i in range(8)] + [_turn(8, "IBAN")] + [_turn(9, None)]
    assert _memoriser(turns, turns) == [u.tags for u in turns]  # trained on everything it would be perfect
    cv = cross_validate_turns(turns, _memoriser)
    per = cv.scores.per_category
    assert per["IBAN"]["recall"] == 0.0 and per["PERSON"]["recall"] == 0.0  # every w<i> is unique
    assert cv.to_dict()["f1"] == 0.0


def test_the_crf_learner_learns_from_the_other_folds_only(train_utts):
    from redactdesk.learn.crossval import crf_fit_predict
    from redactdesk.learn.features import FeatureExtractor
    from redactdesk.learn.training import TrainingSettings

    data = [dataclasses.replace(u, labelled=True) for u in train_utts[:120]]
    one = next(i for i, u in enumerate(data) if any(t != "O" for t in u.tags))
    data[one] = dataclasses.replace(data[one], tags=["B-SECRET" if t != "O" else "O" for t in data[one].tags])
    fit_predict = crf_fit_predict(TrainingSettings(max_iterations=30), FeatureExtractor())
    assert any(t == "B-SECRET" for t in fit_predict(data, [data[one]])[0])  # learned from itself, it knows it
    cv = cross_validate_turns(data, fit_predict)
    assert cv.scores.per_category["SECRET"]["recall"] == 0.0  # held out, it cannot
    assert cv.scores.per_category["PERSON"]["f1"] > 0.5  # the categories with many turns are learned


def test_few_turns_give_fewer_folds_and_too_few_say_so():
    cv = cross_validate_turns([_turn(i, "PERSON") for i in range(MIN_TURNS - 1)], _memoriser)
    assert cv.scores is None and cv.folds == 0
    assert cv.to_dict()["reason"].startswith("not enough labelled turns") and cv.to_dict()["f1"] is None
    assert folds_for(MIN_TURNS) == 3 and folds_for(9) == 4 and folds_for(10) == 5 and folds_for(1000) == 5
    assert cross_validate_turns([_turn(i, "PERSON") for i in range(7)], _memoriser).folds == 3


def test_at_most_the_most_recent_turns_are_used():
    turns = [_turn(i, "PERSON") for i in range(MAX_TURNS + 50)]
    used: set[int] = set()

    def recorder(train, test):
        used.update(u.turn_index for u in test)
        return _memoriser(train, test)

    cv = cross_validate_turns(turns, recorder)
    assert cv.n_labelled == MAX_TURNS + 50 and cv.n_used == MAX_TURNS and used == set(range(50, MAX_TURNS + 50))


def test_cancelling_stops_between_folds():
    calls = []

    def check():
        calls.append(1)
        if len(calls) == 2:
            raise RuntimeError("cancelled")

    with pytest.raises(RuntimeError, match="cancelled"):
        cross_validate_turns([_turn(i, "PERSON") for i in range(20)], _memoriser, check=check)
    assert len(calls) == 2


def test_the_curve_reads_the_versions_scores():
    class V:
        def __init__(self, metrics):
            self.metrics = metrics

    versions = [V({"f1": 0.4}),  # a version without a cross-validation run
                V({"xval": {"n_labelled": 4, "f1": None, "per_category": {}, "reason": "not enough"}}),
                V({"xval": {"n_labelled": 20, "f1": 0.5, "per_category": {"PERSON": {"f1": 0.6}}}}),
                V({"xval": {"n_labelled": 40, "f1": 0.7, "per_category": {"PERSON": {"f1": 0.8}, "CITY": {"f1": 0.1}}}})]
    assert xval_curves(versions) == {"all": [(20, 0.5), (40, 0.7)], "PERSON": [(20, 0.6), (40, 0.8)],
                                     "CITY": [(40, 0.1)]}
