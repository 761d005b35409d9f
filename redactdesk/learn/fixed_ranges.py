"""Fixed activation ranges for the contextual tagger's 8-bit network: one sentence, one answer.

ONNX Runtime's dynamic quantization (``quantize_dynamic``) stores 8-bit weights and quantizes each
layer's input at run time with a range (scale, zero point) measured over the whole input tensor,
that is over every sentence of the batch and its padding. So a sentence's tag probabilities
depended on the sentences read with it: "send a message to mom 's phone" alone and beside another
sentence differed by up to 0.2 in probability, and 7 of 500 SLURP utterances got other suggestions
alone than in a batch of 256 — re-detecting one call could change the suggestions of another.

This module replaces each ``DynamicQuantizeLinear`` of the graph by a ``QuantizeLinear`` with a
fixed range, measured once on calibration sentences read one at a time (no padding): for each
layer input, the :data:`PERCENTILE` th percentile of the sentences' maxima and the mirrored one of
their minima (a rare extreme saturates instead of coarsening every sentence's steps). Weights stay
as they were; each integer product and its rescaling become ONNX Runtime's fused
``MatMulIntegerToFloat`` (:func:`_integer_matmuls_to_float`), so the speed does too. The answer
for a sentence no longer depends on its batch.

Run by :func:`redactdesk.learn.train_encoder.export` after quantization (calibrated on training
sentences); on a bundled model: ``python -m redactdesk.learn.fixed_ranges --data ../shared/data``.
"""

from __future__ import annotations

import argparse
import os
import random
import stat
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

import numpy as np

PERCENTILE = 97.0
CALIBRATION_SENTENCES = 1200  # WikiANN train sentences, half as written and half in lower case
CALIBRATION_CALLS = 20  # generated calls (one row per turn), from the training seeds
MAX_PIECES = 126


def _dynamic_inputs(model) -> list[str]:
    return [n.input[0] for n in model.graph.node if n.op_type == "DynamicQuantizeLinear"]


def activation_ranges(model_path: Path, rows: Sequence[Sequence[int]], table: np.ndarray,
                      percentile: float = PERCENTILE) -> dict[str, tuple[float, float]]:
    """{layer input: (low, high)} over ``rows`` of piece ids ([CLS] ... [SEP]), each read alone."""
    import onnx
    import onnxruntime as ort
    from onnx import TensorProto, helper

    model = onnx.load(str(model_path))
    names = _dynamic_inputs(model)
    if not names:
        raise ValueError("the model has no dynamically quantized layer (its ranges are fixed already)")
    outputs = []
    for name in names:
        for op, suffix in (("ReduceMin", "/min"), ("ReduceMax", "/max")):
            model.graph.node.append(helper.make_node(op, [name], [name + suffix], keepdims=0))
            model.graph.output.append(helper.make_tensor_value_info(name + suffix, TensorProto.FLOAT, []))
            outputs.append(name + suffix)
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    lows: dict[str, list[float]] = {n: [] for n in names}
    highs: dict[str, list[float]] = {n: [] for n in names}
    for row in rows:
        ids = np.asarray([list(row)], np.int64)
        got = session.run(outputs, {"piece_vectors": table[ids], "mask": np.ones_like(ids)})
        for k, name in enumerate(names):
            lows[name].append(float(got[2 * k]))
            highs[name].append(float(got[2 * k + 1]))
    if not rows:
        raise ValueError("no calibration sentences")
    return {n: (float(np.percentile(lows[n], 100.0 - percentile)), float(np.percentile(highs[n], percentile)))
            for n in names}


def with_fixed_ranges(model_path: Path, out_path: Path, ranges: dict[str, tuple[float, float]]) -> None:
    """Write ``model_path`` to ``out_path`` with each dynamic quantization of a layer input replaced
    by a fixed one of ``ranges`` (uint8, asymmetric, as ``DynamicQuantizeLinear`` computes it)."""
    import onnx
    from onnx import helper, numpy_helper

    model = onnx.load(str(model_path))
    nodes, added = [], []
    for node in model.graph.node:
        if node.op_type != "DynamicQuantizeLinear":
            nodes.append(node)
            continue
        x = node.input[0]
        y, y_scale, y_zero = node.output
        low, high = min(ranges[x][0], 0.0), max(ranges[x][1], 0.0)
        scale = np.float32((high - low) / 255.0) if high > low else np.float32(1.0)
        zero = np.uint8(np.clip(np.round(-low / scale), 0, 255))
        added += [numpy_helper.from_array(np.asarray(scale, np.float32), y_scale),
                  numpy_helper.from_array(np.asarray(zero, np.uint8), y_zero)]
        nodes.append(helper.make_node("QuantizeLinear", [x, y_scale, y_zero], [y], name=node.name + "/fixed"))
    del model.graph.node[:]
    model.graph.node.extend(nodes)
    model.graph.initializer.extend(added)
    onnx.checker.check_model(model)
    _integer_matmuls_to_float(model)
    signed_weights(model)
    _save(model, out_path)


def signed_weights(model) -> int:
    """Store the 8-bit weights of each integer product signed (value - 128, zero point - 128): the
    same numbers, multiplied by ONNX Runtime's fast signed kernels (VNNI, AMX) where they are exact,
    and as unsigned ones by ONNX Runtime itself where they are not
    (:func:`redactdesk.detect.encoder.session_options`). A model exported before stored them
    unsigned everywhere, which kept the answers exact on every CPU at 2.3 times the network's time
    on a CPU with VNNI. The number of weight tensors changed."""
    from onnx import numpy_helper

    inits = {t.name: t for t in model.graph.initializer}
    done: set[str] = set()
    for node in model.graph.node:
        if node.op_type not in ("MatMulIntegerToFloat", "MatMulInteger"):
            continue
        weights, zero = node.input[1], node.input[5 if node.op_type == "MatMulIntegerToFloat" else 3]
        if weights in done or weights not in inits or zero not in inits:
            continue
        w, z = numpy_helper.to_array(inits[weights]), numpy_helper.to_array(inits[zero])
        if w.dtype != np.uint8:
            continue
        done.add(weights)
        inits[weights].CopyFrom(numpy_helper.from_array((w.astype(np.int16) - 128).astype(np.int8), weights))
        inits[zero].CopyFrom(numpy_helper.from_array((z.astype(np.int16) - 128).astype(np.int8), zero))
    return len(done)


def store_weights_signed(model_path: Path) -> int:
    """:func:`signed_weights` on the model file at ``model_path``, rewritten in place when anything
    changed; the number of weight tensors changed."""
    import onnx

    model = onnx.load(str(model_path))
    changed = signed_weights(model)
    if changed:
        _save(model, model_path)
    return changed


def _save(model, out_path: Path) -> None:
    """Write ``model`` to ``out_path`` whole or not at all, as readable as the file it replaces."""
    import onnx

    mode = stat.S_IMODE(out_path.stat().st_mode) if out_path.exists() else 0o644
    fd, tmp = tempfile.mkstemp(dir=out_path.parent, suffix=".onnx.tmp")
    os.close(fd)
    try:
        onnx.save(model, tmp)
        os.chmod(tmp, mode)  # mkstemp's file is private; the model is as readable as the one it replaces
        os.replace(tmp, out_path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def _integer_matmuls_to_float(model) -> int:
    """Fuse each ``MatMulInteger`` -> ``Cast`` -> ``Mul(input scale * weight scale)`` into ONNX
    Runtime's ``MatMulIntegerToFloat`` kernel: it fuses that chain itself only behind a dynamic
    quantization, and the unfused chain read 20 % slower. The number of layers fused."""
    from collections import defaultdict

    from onnx import helper

    graph = model.graph
    made = {o: n for n in graph.node for o in n.output}
    used_by: dict[str, list] = defaultdict(list)
    for n in graph.node:
        for i in n.input:
            used_by[i].append(n)
    replaced, dropped = {}, set()
    for n in graph.node:
        if n.op_type != "MatMulInteger" or len(n.input) != 4:
            continue
        a_q, b_q, a_zero, b_zero = n.input
        quant = made.get(a_q)
        cast = used_by[n.output[0]]
        if quant is None or quant.op_type != "QuantizeLinear" or len(cast) != 1 or cast[0].op_type != "Cast":
            continue
        mul = used_by[cast[0].output[0]]
        if len(mul) != 1 or mul[0].op_type != "Mul":
            continue
        scales = made.get(next(i for i in mul[0].input if i != cast[0].output[0]))
        a_scale = quant.input[1]
        b_scale = [i for i in scales.input if i != a_scale] if scales is not None and scales.op_type == "Mul" else []
        if len(b_scale) != 1:
            continue
        replaced[id(n)] = helper.make_node("MatMulIntegerToFloat", [a_q, b_q, a_scale, b_scale[0], a_zero, b_zero],
                                           [mul[0].output[0]], name=n.name + "/to_float", domain="com.microsoft")
        dropped.update({id(cast[0]), id(mul[0])})
    nodes = [replaced.get(id(n), n) for n in graph.node if id(n) not in dropped]
    needed = {i for n in nodes for i in n.input} | {o.name for o in graph.output}
    nodes = [n for n in nodes if any(o in needed for o in n.output)]  # the scale products no kernel reads now
    del graph.node[:]
    graph.node.extend(nodes)
    if replaced and not any(o.domain == "com.microsoft" for o in model.opset_import):
        model.opset_import.append(helper.make_opsetid("com.microsoft", 1))
    return len(replaced)


def fix_ranges(model_path: Path, rows: Sequence[Sequence[int]], table: np.ndarray,
               percentile: float = PERCENTILE) -> int:
    """Calibrate on ``rows`` and rewrite ``model_path`` in place; the number of layers fixed."""
    ranges = activation_ranges(model_path, rows, table, percentile)
    with_fixed_ranges(model_path, model_path, ranges)
    return len(ranges)


def calibration_rows(data: Path, n: int = CALIBRATION_SENTENCES, calls: int = CALIBRATION_CALLS,
                     seed: int = 0) -> list[list[int]]:
    """Piece id rows of WikiANN train sentences (as written and in lower case) and generated calls."""
    from redactdesk.detect.encoder import CLS, SEP
    from redactdesk.learn.public_data import read_conll_samples
    from redactdesk.learn.train_encoder import piece_tokenizer
    from redactdesk.synth.script import generate_call

    path = data / "ner" / "wikiann_en" / "train.conll"
    if not path.exists():
        raise SystemExit(f"fixed_ranges: {path} not found (the public sets live in ../shared/data)")
    samples = read_conll_samples(path, source="wikiann")
    random.Random(seed).shuffle(samples)
    sentences = [s.text.split() for s in samples[: n // 2]] + [s.text.lower().split() for s in samples[n // 2:n]]
    for k in range(calls):
        conv = generate_call(200000 + k, "en")
        sentences += [[w.text for w in conv.words[t.start_word:t.end_word]] for t in conv.turns]
    tok = piece_tokenizer()
    rows = []
    for words in sentences:
        if words:
            ids = tok.encode(words, is_pretokenized=True, add_special_tokens=False).ids[:MAX_PIECES]
            rows.append([CLS, *ids, SEP])
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=Path("../shared/data"))
    ap.add_argument("--model", type=Path, default=None, help="model folder (default: the bundled encoder_en)")
    ap.add_argument("--percentile", type=float, default=PERCENTILE)
    ap.add_argument("--weights-only", action="store_true",
                    help="only store the 8-bit weights signed (a model whose ranges are fixed already)")
    args = ap.parse_args(argv)
    from redactdesk.detect.encoder import MODEL_FILE, model_dir, piece_table

    folder = args.model or model_dir("en")
    if args.weights_only:
        changed = store_weights_signed(folder / MODEL_FILE)
        print(f"stored the weights of {changed} integer products signed in {folder / MODEL_FILE}")
        return 0
    try:
        fixed = fix_ranges(folder / MODEL_FILE, calibration_rows(args.data), piece_table(), args.percentile)
    except ValueError as exc:
        print(f"fixed_ranges: {folder / MODEL_FILE}: {exc}", file=sys.stderr)
        return 2
    print(f"fixed the activation ranges of {fixed} layers in {folder / MODEL_FILE}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
