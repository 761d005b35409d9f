"""The contextual tagger as the tagger learner's model: adapters over the bundled network, small
versions, one contract with the spaCy tagger (tests/learn/test_tagger_learner.py runs on both)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from redactdesk.learn.encoder_learner import EncoderModel, EncoderSettings, available
from redactdesk.learn.errors import ModelError
from redactdesk.learn.tagger_model import TaggerModel, bundled_learner, learner_from_bytes
from redactdesk.learn.utterances import Utterance

pytestmark = pytest.mark.skipif(not available("en"), reason="needs PyTorch, onnx and the bundled contextual tagger")


@pytest.fixture(scope="module")
def model():
    return EncoderModel.bundled("en")


def test_the_warm_start_is_the_contextual_tagger_detection_runs(model):
    """The network is rebuilt from the exported 8-bit graph: it tags what detection tags."""
    from redactdesk.detect.encoder import load_encoder

    assert isinstance(bundled_learner("en"), EncoderModel)
    words = "yesterday ngozi okafor flew from lagos to leeds with british airways".split()
    ours = model.predict([Utterance(words)])[0]
    theirs = load_encoder("en").word_log_probs([words])[0].argmax(-1)
    tags = load_encoder("en").tags
    assert [t[2:] if t != "O" else "" for t in ours] == [tags[i][2:] if tags[i] != "O" else "" for i in theirs]


def test_a_version_is_its_adapters_and_head_not_a_whole_model(model):
    utts = [Utterance("call me on five five five".split(), tags=["O", "O", "O", "B-PHONE", "I-PHONE", "I-PHONE"])]
    new = model.updated(utts, settings=EncoderSettings(epochs=1))
    blob = new.to_bytes()
    assert len(blob) < 3_000_000  # the network itself is ~90 MB in 32-bit floats
    back = learner_from_bytes(blob)
    assert isinstance(back, EncoderModel) and back.labels == new.labels
    assert np.array_equal(back.marginals(utts).probs, new.marginals(utts).probs)
    assert isinstance(learner_from_bytes(TaggerModel.bundled("en").to_bytes()), TaggerModel)


def test_a_version_made_on_another_bundled_network_is_refused(model):
    blob = model.to_bytes()
    n = int.from_bytes(blob[:4], "big")
    header = json.loads(blob[4:4 + n])
    header["base_digest"] = "0" * 16
    forged = json.dumps(header).encode()
    with pytest.raises(ModelError, match="another bundled contextual tagger"):
        EncoderModel.from_bytes(len(forged).to_bytes(4, "big") + forged + blob[4 + n:])
    with pytest.raises(ModelError, match="cannot be read"):
        EncoderModel.from_bytes(blob[: n + 10])


def test_learning_moves_the_model_towards_the_labels(model):
    """A name the bundled tagger does not know as one becomes one after a few labelled turns."""
    def turn(name):
        return Utterance(f"please put me through to {name} in accounts".split(),
                         tags=["O", "O", "O", "O", "O", "B-PERSON", "O", "O"])
    probe = Utterance("please put me through to pumpkin in accounts".split())
    before = model.marginals([probe]).of(0)[5, model.labels.index("B-PERSON")]
    after_model = model.updated([turn(n) for n in ("pumpkin", "biscuit", "muffin", "pickle")] * 3,
                                settings=EncoderSettings(epochs=3))
    after = after_model.marginals([probe]).of(0)[5, after_model.labels.index("B-PERSON")]
    assert after > before + 0.2 and after_model.predict([probe])[0][5] == "B-PERSON"


def test_without_pytorch_the_learner_falls_back_to_the_spacy_tagger(monkeypatch):
    import redactdesk.learn.encoder_learner as el

    monkeypatch.setattr(el, "available", lambda language="en": False)
    assert isinstance(bundled_learner("en"), TaggerModel)


def _turns(names, category="PERSON"):
    return [Utterance(f"please put me through to {n} in accounts".split(),
                      tags=["O", "O", "O", "O", "O", f"B-{category}", "O", "O"]) for n in names]


def _weights(m):
    from redactdesk.learn.encoder_model import trainable_state

    return {k: v.numpy() for k, v in trainable_state(m.net).items()}


def test_while_few_turns_are_labelled_a_version_does_not_depend_on_the_order_they_came_in(model):
    """Labelling A then B gives the version that labelling B and A together gives: going on from the
    version in use instead swung the F1 of consecutive versions by up to 0.07 (EncoderSettings)."""
    st = EncoderSettings(epochs=1)
    a, b = _turns(["pumpkin", "biscuit"]), _turns(["muffin", "pickle"])
    stepwise = model.updated(a, settings=st).updated(b, a, settings=st)
    at_once = model.updated(b + a, settings=st)
    assert stepwise.info["updates"] == 2 and at_once.info["updates"] == 1
    for name, value in _weights(at_once).items():
        assert np.array_equal(_weights(stepwise)[name], value), name


def test_past_from_base_an_update_is_averaged_with_the_version_in_use(model):
    """Many labels in: the update steps from the version in use and keeps ``keep`` of its weights, so
    one batch of labels cannot swing the model far from what it learned before."""
    a, b = _turns(["pumpkin", "biscuit"]), _turns(["zurich", "leeds"], "CITY")
    first = model.updated(a, settings=EncoderSettings(epochs=1))

    def step(keep):
        return first.updated(b, a, settings=EncoderSettings(from_base=0, step_epochs=1, keep=keep))

    held, moved, half = step(1.0), step(0.0), step(0.5)
    w0, w1, wh = _weights(first), _weights(moved), _weights(half)
    assert held.labels == moved.labels == first.labels + ["B-CITY", "I-CITY"]
    assert any(not np.allclose(w0[k], w1[k][: len(w0[k])]) for k in w0)  # the step learned something
    for k, old in w0.items():
        assert np.array_equal(_weights(held)[k][: len(old)], old), k
        assert np.allclose(wh[k][: len(old)], 0.5 * old + 0.5 * w1[k][: len(old)], atol=1e-6), k
    new_rows = w1["head.bias"][len(w0["head.bias"]):]  # a category added by the step keeps what it learned
    assert np.array_equal(_weights(held)["head.bias"][len(w0["head.bias"]):], new_rows)
