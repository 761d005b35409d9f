"""ActiveLearner on a real project file: queue, retrain, versions, curve, stopping hint, suggestions."""

from __future__ import annotations

import dataclasses

import pytest

from redactdesk.core.types import SpanStatus
from redactdesk.learn.errors import LearnError
from redactdesk.learn.service import SOURCE_NAME, ActiveLearner
from redactdesk.learn.training import TrainingSettings
from redactdesk.learn.versions import set_project_learner
from redactdesk.store import Project

FAST = TrainingSettings(max_iterations=30)


@pytest.fixture()
def project(tmp_path):
    from redactdesk.synth import generate_corpus

    proj = Project.create(tmp_path / "p.rdproj")
    set_project_learner(proj, "crf")  # these tests are about the CRF baseline (the tagger's: test_tagger_learner)
    for conv in generate_corpus(range(100_100, 100_112)):
        conv.spans = [dataclasses.replace(s, status=SpanStatus.SUGGESTED) for s in conv.spans]
        proj.add_conversation(conv)
    yield proj
    proj.close()


def _review(proj, conv_ids):
    """An annotator accepts every suggestion of these conversations."""
    for cid in conv_ids:
        for span in proj.spans(cid, SpanStatus.SUGGESTED):
            proj.update_span(span.id, action="accept", status=SpanStatus.ACCEPTED)


def test_active_learning_round_trip(project, trained):
    learner = ActiveLearner(project, strategy="t-sum", batch=8, source=trained, training=FAST)
    counts = learner.counts()
    assert counts["labelled"] == 0 and counts["utterances"] > 200

    seed_queue = learner.queue()
    assert len(seed_queue) == 8 and all(item.margin is not None for item in seed_queue)
    with pytest.raises(LearnError, match="nothing is labelled"):
        learner.retrain()

    ids = project.conversation_ids()
    _review(project, ids[:5])
    v1 = learner.retrain()
    assert v1.n_labelled == learner.counts()["labelled"] > 0
    assert v1.f1 is not None and 0.0 < v1.f1 <= 1.0
    assert "PERSON" in v1.per_category_f1
    assert project.models("active_learning")[-1]["id"] == v1.id

    queue = learner.queue()
    reviewed = set(ids[:5])
    assert len(queue) == 8 and not {q.conversation_id for q in queue} & reviewed
    assert queue == sorted(queue, key=lambda q: -q.score)  # t-sum: most uncertain first
    for q in queue:
        assert 0.0 <= q.margin <= 1.0 and q.end_word > q.start_word

    _review(project, ids[5:8])
    learner.mark_labelled(ids[9], 0)
    v2 = learner.retrain()
    assert v2.n_labelled > v1.n_labelled
    assert [n for n, _ in learner.learning_curve()] == [v1.n_labelled, v2.n_labelled]
    assert v2.metrics["kappa"] is not None
    hint = learner.stopping_hint()
    assert isinstance(hint.stopped, bool) and hint.message

    conv = project.load_conversation(ids[10])
    spans = learner.suggest(conv)
    assert spans and all(s.sources == (SOURCE_NAME,) and s.status == SpanStatus.SUGGESTED for s in spans)
    truth = {(s.start_word, s.end_word) for s in conv.spans}
    assert len({(s.start_word, s.end_word) for s in spans} & truth) >= len(truth) // 2

    again = ActiveLearner(project, batch=8, source=None, training=FAST)
    assert again.model_id == v2.id and again.suggest(conv)
    assert [i for i in again.utterances() if i.conversation_id == ids[9] and i.turn_index == 0][0].labelled


def test_strategy_setting_is_kept(project):
    learner = ActiveLearner(project, source=None)
    learner.set_strategy("t-kmax")
    assert ActiveLearner(project, source=None).strategy.spec == "t-kmax"
    with pytest.raises(LearnError):
        learner.set_strategy("nonsense")


def test_a_strategy_change_is_in_the_audit_log(project):
    """Every settings change is audited, also the learner's own (it wrote the setting unlogged)."""
    learner = ActiveLearner(project, source=None)
    learner.set_strategy("t-kmax")
    learner.set_strategy("t-kmax")  # no change, no entry
    entries = [d for d in project.audit_log() if d.action == "setting" and (d.after or {}).get("key") == "learn.strategy"]
    assert len(entries) == 1 and entries[0].after["value"] == "t-kmax"


def test_seed_without_source_falls_back_to_kmeans(project):
    learner = ActiveLearner(project, batch=5, source=None)
    items = learner.queue()
    assert len(items) == 5 and all(i.margin is None for i in items)


def test_sync_rereads_only_the_edited_conversations(project):
    from redactdesk.synth import generate_corpus

    learner = ActiveLearner(project, source=None)
    learner.refresh()
    ids = project.conversation_ids()
    loads = []
    original = project.load_conversation
    project.load_conversation = lambda cid: (loads.append(cid), original(cid))[1]
    _review(project, ids[:1])
    learner.sync([ids[0]])
    assert loads == [ids[0]]
    assert {cid for cid, _ in learner.labelled_keys()} == {ids[0]}
    assert learner.counts()["labelled"] == len(learner.labelled_keys()) > 0

    project.add_conversation(generate_corpus([100_200])[0])  # a conversation came in: read everything
    loads.clear()
    learner.sync([ids[0]])
    assert sorted(loads) == sorted(project.conversation_ids())


def test_check_cancels_long_calls(project):
    class Stop(Exception):
        pass

    def stop():
        raise Stop

    learner = ActiveLearner(project, source=None, training=FAST)
    with pytest.raises(Stop):
        learner.refresh(check=stop)
    with pytest.raises(Stop):
        learner.queue(check=stop)
    _review(project, project.conversation_ids()[:3])
    train = learner.prepare_retrain()
    calls = []

    def stop_later():
        calls.append(1)
        if len(calls) > 1:  # after the model was fitted: inside cross-validation
            raise Stop

    with pytest.raises(Stop):
        learner.prepare_retrain(stop_later)()
    assert project.models("active_learning") == [] and learner.model is None
    assert train().n_labelled > 0  # the same work, not cancelled, finishes


def test_background_steps_and_summary_without_a_learner(project):
    """What the app does: train on its own connection, adopt the model there, store it on the GUI's."""
    from redactdesk.learn.service import mark_turn_labelled, marked_turns, model_summary, save_version

    summary = model_summary(project)
    assert summary.latest is None and summary.curve == [] and "Keep labelling" in summary.hint().message
    ids = project.conversation_ids()
    mark_turn_labelled(project, ids[11], 2)
    assert marked_turns(project) == {ids[11]: [2]}
    _review(project, ids[:4])

    learner = ActiveLearner(project, batch=6, source=None, training=FAST)
    learner.set_strategy("t-kmax", save=False)
    assert learner.strategy.spec == "t-kmax" and project.setting("learn.strategy") is None
    result = learner.prepare_retrain()()
    assert result.blob and project.models("active_learning") == []
    learner.adopt(result.model)
    items = learner.queue(refresh=False)
    assert len(items) == 6 and all(i.margin is not None for i in items)  # asked of the adopted model
    assert (ids[11], 2) in learner.labelled_keys()
    conv = project.load_conversation(items[0].conversation_id)
    words = [w.text for w in conv.words[items[0].start_word:items[0].end_word]]
    assert items[0].preview.split()[:12] == words[:12]
    assert items[0].preview.endswith(" ...") == (len(words) > 12)

    version = save_version(project, result)
    summary = model_summary(project)
    assert summary.latest.id == version.id and summary.curve == [(version.n_labelled, version.f1)]
    assert ActiveLearner(project, source=None).model_id == version.id


def test_cross_validation_of_the_crf_learner_is_kept_with_its_version(project, trained):
    from redactdesk.learn.service import model_summary, store_crossval

    learner = ActiveLearner(project, source=trained, training=FAST)
    ids = project.conversation_ids()
    _review(project, ids[:3])
    v1 = learner.retrain()
    cv = learner.crossval()
    assert cv.n_labelled == v1.n_labelled and cv.folds == 5 and "PERSON" in cv.scores.per_category
    store_crossval(project, v1.id, cv)
    _review(project, ids[3:6])
    v2 = learner.retrain()
    store_crossval(project, v2.id, learner.crossval())
    curves = model_summary(project).xval_curves
    assert [n for n, _ in curves["all"]] == [v1.n_labelled, v2.n_labelled]
    assert len(curves["PERSON"]) == 2 and all(0.0 <= f <= 1.0 for _, f in curves["PERSON"])
    assert model_summary(project).versions[0].metrics["f1"] == v1.f1  # the version's own scores stay
