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


def _exact_reference(path):
    """The network with each integer product written out in floats: what the 8-bit network computes
    when no kernel rounds or saturates along the way."""
    onnx = pytest.importorskip("onnx")
    from onnx import helper, numpy_helper

    model = onnx.load(str(path))
    inits = {t.name: t for t in model.graph.initializer}
    nodes, made = [], set()
    for n in model.graph.node:
        if n.op_type != "MatMulIntegerToFloat":
            nodes.append(n)
            continue
        a_q, b_q, a_scale, b_scale, a_zero, b_zero = n.input
        w = numpy_helper.to_array(inits[b_q]).astype(np.float32) - numpy_helper.to_array(inits[b_zero]).astype(
            np.float32)
        model.graph.initializer.append(numpy_helper.from_array(
            (w * numpy_helper.to_array(inits[b_scale])).astype(np.float32), b_q + "/float"))
        if a_q + "/float" not in made:
            made.add(a_q + "/float")
            nodes.append(helper.make_node("DequantizeLinear", [a_q, a_scale, a_zero], [a_q + "/float"]))
        nodes.append(helper.make_node("MatMul", [a_q + "/float", b_q + "/float"], list(n.output)))
    del model.graph.node[:]
    model.graph.node.extend(nodes)
    return model.SerializeToString()


def test_the_bundled_network_gives_its_exact_answer_on_this_cpu(enc):
    """The 8-bit weights are stored unsigned: ONNX Runtime's signed-weight kernels saturate on CPUs
    with AVX2 but no VNNI, where the tags moved by up to 0.19 in probability ("the governor of texas":
    Texas a person) from those of the same network elsewhere."""
    import onnxruntime as ort

    sentences = [s.split() for s in ("the governor of texas signed it", "The Secretary of State arrived",
                                     "my name is john smith and i live in london",
                                     "who are the greatest hip hop artists")]
    got = enc.word_log_probs(sentences)
    reference = ort.InferenceSession(_exact_reference(model_dir("en") / MODEL_FILE), providers=["CPUExecutionProvider"])
    session, enc.session = enc.session, reference
    try:
        want = enc.word_log_probs(sentences)
    finally:
        enc.session = session
    for g, w in zip(got, want, strict=True):
        assert np.abs(np.exp(g) - np.exp(w)).max() < 2e-3  # float sums in another order: 2e-4 at most


def test_the_bundled_networks_weights_are_signed():
    """Signed: ONNX Runtime's fast kernels where they are exact (the session turns on its precision
    entry where they are not, :func:`redactdesk.detect.encoder.session_options`)."""
    onnx = pytest.importorskip("onnx")
    from onnx import numpy_helper

    model = onnx.load(str(model_dir("en") / MODEL_FILE))
    inits = {t.name: t for t in model.graph.initializer}
    weights = [n.input[1] for n in model.graph.node if n.op_type == "MatMulIntegerToFloat"]
    assert weights and all(numpy_helper.to_array(inits[w]).dtype == np.int8 for w in weights)


def _one_product(w, wz, a_zero=7):
    from onnx import TensorProto, helper, numpy_helper

    k, n = w.shape
    inits = [numpy_helper.from_array(w, "w"), numpy_helper.from_array(wz, "wz"),
             numpy_helper.from_array(np.full(n, 0.01, np.float32), "ws"),
             numpy_helper.from_array(np.asarray(0.02, np.float32), "as"),
             numpy_helper.from_array(np.asarray(a_zero, np.uint8), "az")]
    node = helper.make_node("MatMulIntegerToFloat", ["a", "w", "as", "ws", "az", "wz"], ["y"], domain="com.microsoft")
    graph = helper.make_graph([node], "g", [helper.make_tensor_value_info("a", TensorProto.UINT8, [2, k])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, n])], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid("com.microsoft", 1)])


def test_storing_weights_signed_keeps_the_products():
    """A model stored with unsigned weights (as exported before) gets signed ones: the same numbers."""
    pytest.importorskip("onnx")
    import onnxruntime as ort
    from onnx import numpy_helper

    from redactdesk.learn.fixed_ranges import signed_weights

    rng = np.random.default_rng(0)
    w = rng.integers(100, 160, size=(8, 4), dtype=np.uint8)  # near the zero point: no kernel saturates
    model = _one_product(w, np.asarray([128, 131, 126, 129], np.uint8))
    a = rng.integers(0, 40, size=(2, 8), dtype=np.uint8)
    before = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"a": a})[0]
    assert signed_weights(model) == 1 and signed_weights(model) == 0  # once; a second pass changes nothing
    after = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"a": a})[0]
    assert np.allclose(before, after, atol=1e-6)
    assert numpy_helper.to_array(model.graph.initializer[0]).dtype == np.int8


def test_signed_weights_multiply_exactly_where_pairs_of_products_overflow_sixteen_bits():
    """255 x 127 twice is 64,770: AVX2's signed kernels clamp such a pair to 32,767. With the tagger's
    session options the product is the exact one on this CPU, whichever kernels it has."""
    pytest.importorskip("onnx")
    import onnxruntime as ort

    from redactdesk.detect.encoder import session_options

    k = 64
    w = np.full((k, 4), 127, np.int8)
    w[:, 1] = -128
    model = _one_product(w, np.zeros(4, np.int8), a_zero=0)
    a = np.full((2, k), 255, np.uint8)
    got = ort.InferenceSession(model.SerializeToString(), session_options(),
                               providers=["CPUExecutionProvider"]).run(None, {"a": a})[0]
    exact = (a.astype(np.int64) @ w.astype(np.int64)) * 0.02 * 0.01
    assert np.allclose(got, exact, rtol=1e-6)
