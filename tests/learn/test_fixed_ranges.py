"""The bundled contextual tagger quantizes with fixed activation ranges: a sentence's tags do not
depend on the sentences read in its batch (dynamic ranges changed them by up to 0.2 in probability)."""

from __future__ import annotations

import numpy as np
import pytest

from redactdesk.detect.encoder import MODEL_FILE, load_encoder, model_dir


@pytest.fixture(scope="module")
def enc():
    e = load_encoder("en")
    if e is None:
        pytest.skip("the contextual tagger cannot run here")
    return e


def test_a_sentence_gets_the_same_tags_alone_and_in_any_batch(enc):
    sentence = "send a message to mom s phone".split()
    alone = enc.word_log_probs([sentence])[0]
    for others in ([["play", "the", "new", "song", "by", "taylor", "swift"]],
                   [("what time is it in new york " * 6).split(), ["ok"]]):
        assert np.array_equal(alone, enc.word_log_probs([sentence, *others])[0])
        assert np.array_equal(alone, enc.word_log_probs([*others, sentence])[-1])


def test_the_bundled_network_has_no_dynamic_range_left():
    onnx = pytest.importorskip("onnx")
    graph = onnx.load(str(model_dir("en") / MODEL_FILE)).graph
    ops = {n.op_type for n in graph.node}
    assert "DynamicQuantizeLinear" not in ops and "QuantizeLinear" in ops
    # each integer product runs in ONNX Runtime's fused kernel (unfused, the network read 20 % slower)
    assert "MatMulInteger" not in ops and "MatMulIntegerToFloat" in ops


def test_without_the_public_data_the_calibration_says_where_it_looks(tmp_path):
    from redactdesk.learn.fixed_ranges import calibration_rows

    with pytest.raises(SystemExit, match="shared/data"):
        calibration_rows(tmp_path / "nothing")
