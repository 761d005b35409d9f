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
