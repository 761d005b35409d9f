"""The tagger learner (issue 17): warm start from the bundled tagger, token distributions for the
entropy scorers, updates from annotators' decisions stored as versions, rollback. Training here is
tiny (1 epoch over a few turns): these tests check behaviour, not accuracy."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from redactdesk.core.types import Role, SpanStatus
from redactdesk.learn.errors import LearnError
from redactdesk.learn.tagger_model import TaggerModel, UpdateSettings, learner_from_bytes
from redactdesk.learn.utterances import Utterance

TINY = UpdateSettings(epochs=1, replay=5)


@pytest.fixture(scope="module", params=["spacy", "encoder"])
def bundled(request):
    """Both models of the tagger learner keep one contract: the spaCy tagger and the contextual
    tagger with adapters (the default where PyTorch is installed)."""
    if request.param == "spacy":
        return TaggerModel.bundled("en")
    from redactdesk.learn.encoder_learner import EncoderModel, available

    if not available("en"):
        pytest.skip("the contextual tagger learner needs PyTorch, onnx and the bundled model")
    return EncoderModel.bundled("en")


@pytest.fixture(scope="module")
def spacy_bundled():
    return TaggerModel.bundled("en")


def test_token_distributions_are_the_taggers_and_feed_the_four_scorers(bundled):
    from redactdesk.learn.features import FeatureExtractor
    from redactdesk.learn.selection import Pool

    utts = [Utterance("my name is Maria Lopez , and i live in Leeds".split()),
            Utterance("thank you for calling".split()), Utterance(["..."])]
    marg = bundled.marginals(utts)
    assert marg.labels[0] == "O" and {"B-PERSON", "I-PERSON", "B-LOCATION"} <= set(marg.labels)
    assert np.allclose(marg.probs.sum(axis=1), 1.0)
    assert marg.of(0)[5, 0] == 1.0 and marg.of(2)[0, 0] == 1.0  # punctuation: O, with certainty
    tags = bundled.predict(utts, marg)
    assert tags[0][3:5] == ["B-PERSON", "I-PERSON"] and tags[1] == ["O"] * 4

    pool = Pool(utts, FeatureExtractor(), target=bundled, mode="multi")
    h = {s: pool.entropy("t", s) for s in ("sum", "mean", "kmax", "max")}
    for s, v in h.items():
        assert v.shape == (3,) and np.all(np.isfinite(v)) and np.all(v >= 0), s
    assert np.all(h["max"] <= h["sum"] + 1e-9) and np.all(h["mean"] <= h["max"] + 1e-9)
    assert np.all(h["kmax"] <= h["max"] + 1e-9)
    assert h["sum"][0] > h["sum"][2]  # the sentence with names is the uncertain one
    assert pool.vectors().shape == (3, bundled.embeddings(utts[:1]).shape[1])  # the tagger's own embeddings


def test_an_update_is_a_copy_that_learns_new_categories_and_stores_exactly(bundled):
    utts = [Utterance("call me on five five five one two".split(),
                      tags=["O", "O", "O", "B-PHONE", "I-PHONE", "I-PHONE", "I-PHONE", "I-PHONE"]),
            Utterance("my name is anna".split(), tags=["O", "O", "O", "B-PERSON"])]
    new = bundled.updated(utts, settings=TINY)
    assert "PHONE" in new.categories and "PHONE" not in bundled.categories
    twin = bundled.updated(utts, settings=TINY)  # the same labels give the same version
    assert np.array_equal(twin.marginals(utts).probs, new.marginals(utts).probs)
    again = learner_from_bytes(new.to_bytes())
    assert again.labels == new.labels and type(again) is type(new)
    assert np.array_equal(again.marginals(utts).probs, new.marginals(utts).probs)
    with pytest.raises(Exception, match="cannot be read"):
        type(bundled).from_bytes(b"not a model")


@pytest.fixture()
def project(tmp_path):
    from redactdesk.store import Project
    from redactdesk.synth import generate_corpus

    proj = Project.create(tmp_path / "p.rdproj", role=Role.REVIEWER)
    for conv in generate_corpus(range(100_100, 100_104)):
        conv.spans = [dataclasses.replace(s, status=SpanStatus.SUGGESTED) for s in conv.spans]
        proj.add_conversation(conv)
    yield proj
    proj.close()


def _accept_all(proj, cid):
    for span in proj.spans(cid, SpanStatus.SUGGESTED):
        proj.update_span(span.id, action="accept", status=SpanStatus.ACCEPTED)


def test_tagger_learner_versions_scores_and_rollback(project, bundled):
    from redactdesk.learn.service import TAGGER_SOURCE_NAME, ActiveLearner, model_summary

    learner = ActiveLearner(project, batch=4, source=bundled, update=TINY)
    assert learner.learner == "tagger" and learner.kind == "spacy-ner"  # the default learner
    assert len(learner.queue()) == 4  # before any label: seeded by the bundled tagger's uncertainty
    with pytest.raises(LearnError, match="nothing is labelled"):
        learner.retrain()

    ids = project.conversation_ids()
    _accept_all(project, ids[0])
    v1 = learner.retrain()
    row = project.models("active_learning")[-1]
    assert row["id"] == v1.id and row["kind"] == "spacy-ner"
    assert v1.metrics["n_new"] == v1.n_labelled > 0 and v1.metrics["parent"] is None
    assert v1.f1 is not None and v1.metrics["eval"] == "test-then-train" and v1.scored_at == 0
    assert learner.model is not bundled and learner.model_id == v1.id
    with pytest.raises(LearnError, match="no new labels"):
        learner.retrain()

    # a category change on a learned turn is a new label; so are the turns of another reviewed call
    span = project.spans(ids[0], SpanStatus.ACCEPTED)[0]
    project.update_span(span.id, action="set_category", category="ORGANIZATION" if span.category != "ORGANIZATION"
                        else "PERSON")
    _accept_all(project, ids[1])
    v2 = learner.retrain()
    assert v2.metrics["parent"] == v1.id and v2.metrics["n_new"] >= 2 and v2.scored_at == v1.n_labelled
    assert [n for n, _ in model_summary(project).curve] == [0, v1.n_labelled]
    conv = project.load_conversation(ids[3])
    assert all(s.sources == (TAGGER_SOURCE_NAME,) for s in learner.suggest(conv))

    learner.rollback(v1.id)
    assert learner.model_id == v1.id and model_summary(project).latest.id == v1.id
    entry = project.audit_log(limit=1)[0]
    assert entry.action == "rollback_model" and entry.before["model_id"] == v2.id
    assert ActiveLearner(project, source=bundled).model_id == v1.id  # kept in the project
    v3 = learner.retrain()  # starts again from v1: the changed and the newly reviewed turns are new to it
    assert v3.metrics["parent"] == v1.id and model_summary(project).latest.id == v3.id
    with pytest.raises(LearnError, match="no spacy-ner model version 999"):
        learner.rollback(999)
    assert model_summary(project, "crf").versions == ()  # the CRF baseline keeps its own versions


def test_rollback_is_a_reviewers_action(project):
    from redactdesk.learn.versions import rollback

    project.role = Role.ANNOTATOR
    with pytest.raises(LearnError, match="reviewer"):
        rollback(project, 1)


def test_source_disagreement_is_how_split_the_vote_was(bundled):
    from redactdesk.learn.disagreement import vote_entropy
    from redactdesk.learn.features import FeatureExtractor
    from redactdesk.learn.selection import Pool, get_strategy

    assert vote_entropy([["O", "PERSON"], ["O", "PERSON"]]).tolist() == [0.0, 0.0]
    assert vote_entropy([["O", "PERSON"], ["O", "CITY"]]).tolist() == [0.0, 1.0]
    words = "i spoke to maria lopez yesterday".split()
    agree = Utterance(list(words), meta={"vote_tags": ["O", "O", "O", "B-PERSON", "I-PERSON", "O"]})
    split = Utterance(list(words), meta={"vote_tags": ["O", "O", "O", "B-CITY", "O", "O"]})
    pool = Pool([agree, split], FeatureExtractor(), source=bundled, mode="multi")
    d = pool.disagreement("kmax")
    assert d[0] == 0.0 and d[1] > 0.5  # the detection vote said CITY where the tagger says PERSON
    sel = get_strategy("d-kmax").select(pool, [0, 1], 1)
    assert sel.indices.tolist() == [1]


def test_after_an_update_open_calls_get_the_models_new_suggestions(project, bundled):
    """Detection 'missed' the names of one open call; after learning from one reviewed call the model
    flags them there (counts by category), leaves decided and reviewed calls alone, and withdraws
    its suggestions it no longer makes."""
    from redactdesk.learn.service import TAGGER_SOURCE_NAME, ActiveLearner
    from redactdesk.learn.suggestion_sync import refresh_learner_suggestions

    ids = project.conversation_ids()
    missed = [s for s in project.spans(ids[2]) if s.category == "PERSON"]
    assert missed
    for s in missed:
        project.delete_span(s.id)
    learner = ActiveLearner(project, source=bundled, update=TINY)
    assert refresh_learner_suggestions(project, learner).total == 0  # no version yet: nothing of its own
    _accept_all(project, ids[0])
    learner.retrain()
    changes = refresh_learner_suggestions(project, learner)
    assert changes.added["PERSON"] >= 1 and ids[2] in changes.conversations and ids[0] not in changes.conversations
    assert "the model now also flags" in changes.message() and "PERSON" in changes.message()
    mine = [s for s in project.spans(ids[2]) if s.sources == (TAGGER_SOURCE_NAME,)]
    assert mine and all(s.status == SpanStatus.SUGGESTED for s in mine)
    assert refresh_learner_suggestions(project, learner).total == 0  # nothing changed since

    # a suggestion of its own that the model no longer makes is withdrawn
    from redactdesk.core.types import Span

    conv = project.load_conversation(ids[3])
    taken = {w for s in conv.spans for w in range(s.start_word, s.end_word)}
    free = next(i for i in range(len(conv.words)) if i not in taken and conv.words[i].text.lower() in
                {"the", "you", "thank", "and", "to", "a"})
    project.add_span(ids[3], Span(free, free + 1, "CITY", SpanStatus.SUGGESTED, 0.6, sources=(TAGGER_SOURCE_NAME,)))
    changes = refresh_learner_suggestions(project, learner)
    assert changes.withdrawn["CITY"] == 1


def test_diverse_batches_use_the_taggers_embeddings(bundled):
    from redactdesk.learn.features import FeatureExtractor
    from redactdesk.learn.selection import Pool, get_strategy

    same = "my name is maria lopez from leeds"
    utts = [Utterance(same.split()) for _ in range(4)] + [
        Utterance("the card number is four four one two".split()),
        Utterance("i moved to madrid with anna last year".split())]
    pool = Pool(utts, FeatureExtractor(), target=bundled, mode="multi")
    unit = pool.unit_embeddings()
    assert unit.shape[0] == 6 and np.allclose(np.linalg.norm(unit, axis=1), 1.0)
    picked = get_strategy("diverse+t-sum").select(pool, range(6), 3).indices.tolist()
    assert len([i for i in picked if i < 4]) == 1  # one of the four repeats, then other turns


def test_cross_validation_fine_tunes_the_bundled_tagger_on_the_newest_turns(project, bundled, monkeypatch):
    """The folds start from the bundled tagger (the version in use has learned every held-out turn),
    and the turns come in learning order, the not yet learned last (the newest are kept under the cap)."""
    from redactdesk.learn import service
    from redactdesk.learn.service import ActiveLearner

    learner = ActiveLearner(project, source=bundled, update=TINY)
    ids = project.conversation_ids()
    _accept_all(project, ids[1])
    learner.retrain()
    _accept_all(project, ids[0])
    seen = {}
    monkeypatch.setattr(service, "tagger_fit_predict", lambda base: seen.setdefault("base", base))
    monkeypatch.setattr(service, "cross_validate_turns",
                        lambda turns, fit_predict, **kw: seen.setdefault("turns", list(turns)))
    learner.crossval()
    assert seen["base"] is bundled and learner.model is not bundled
    order = [u.conversation_id for u in seen["turns"]]
    assert set(order) == {ids[0], ids[1]} and order == sorted(order, key=lambda c: c != ids[1])


def test_a_stored_version_keeps_no_word_vectors_and_predicts_the_same_read_back(spacy_bundled):
    bundled = spacy_bundled
    utts = [Utterance("ring zbigniew brzezinski in gdansk".split()), Utterance("my name is ola".split())]
    before = bundled.predict(utts)
    blob = bundled.to_bytes()
    bundled.predict([Utterance([f"newword{i}" for i in range(300)])])  # fills 300 more vectors
    # the new words' strings are stored (a few KB); their vectors (300 x 96 floats = 115 KB) are not
    assert len(bundled.to_bytes()) - len(blob) < 300 * 96 * 4 // 5
    back = TaggerModel.from_bytes(blob)
    assert back.predict(utts) == before
