"""Train the transcript tagger: ``python -m redactdesk.learn.train_tagger --data ../shared/data --out DIR``.

Reproducible from public data (read from ``--data``; nothing of it is copied into the project):

- WikiANN English train split (ODC-BY 1.0) and Broad Twitter Corpus parts a, b, e, f, g (CC BY 4.0)
  — part h, WikiANN dev and wikigold stay out, for evaluation;
- SLURP devel's utterances with even ids (CC BY 4.0) — real spoken commands, where most words are
  not names; the odd ids stay out, for evaluation;
- our own generated calls (``redactdesk.synth``), ``--calls`` of them;

every sentence in spoken form (``redactdesk.learn.tagger_data``), half of the ones with a person's
name also with the names swapped for names of every Faker locale. The model is a spaCy NER pipeline
(hash embeddings of the lower-case word, its prefix and suffix, and each word's vector from the
MiniLM wordpiece table of :mod:`redactdesk.lang.word_vectors` — what a pretrained encoder knows about
words the training data never shows; a CNN encoder; a transition-based entity recogniser) — small
and fast on CPU. ``DIR`` gets the model and ``TRAINING.md``, the report:
data, licences, counts, settings, dev scores, time.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from redactdesk.learn.public_data import read_conll_samples, read_slurp
from redactdesk.learn.tagger_data import (
    TAGGER_LABELS,
    TaggedSentence,
    WorldNames,
    bio_entities,
    generated_call_sentences,
    slurp_half,
    training_sentences,
)

SLURP_FILE = "spoken/slurp_devel_charspans.jsonl"
SLURP_WEIGHT = 2
TRAIN_SETS = (("ner/wikiann_en/train.conll", "WikiANN en train", "ODC-BY 1.0"),
              *((f"ner/btc/{p}.conll", f"Broad Twitter Corpus part {p}", "CC BY 4.0") for p in "abefg"))

def tagger_config(*, seed: int, width: int, depth: int, rows: int, epochs: int, patience: int,
                  eval_frequency: int, vectors: Path | None = None):
    """spaCy's efficiency NER config with our sizes: hash embeddings of the word (``rows``), prefix,
    suffix and shape, plus the static word vectors of the spaCy pipeline at ``vectors`` when given;
    a ``depth``-layer CNN of ``width``; recall weighted like F in model selection."""
    from spacy.cli.init_config import init_config

    cfg = init_config(lang="en", pipeline=["ner"], optimize="efficiency", gpu=False)
    cfg["system"]["seed"] = seed
    embed = cfg["components"]["tok2vec"]["model"]["embed"]
    embed["attrs"] = ["NORM", "PREFIX", "SUFFIX", "SHAPE"]
    embed["rows"] = [rows, max(500, rows // 5), max(1000, rows // 3), 500]
    if vectors is not None:
        embed["include_static_vectors"] = True
        cfg["initialize"]["vectors"] = str(vectors)
    encode = cfg["components"]["tok2vec"]["model"]["encode"]
    encode["width"], encode["depth"] = width, depth
    tr = cfg["training"]
    tr["max_epochs"], tr["max_steps"], tr["patience"], tr["eval_frequency"] = epochs, 0, patience, eval_frequency
    tr["dropout"] = 0.15
    tr["score_weights"] = {"ents_f": 0.5, "ents_r": 0.5, "ents_p": 0.0, "ents_per_type": None}
    return cfg


def _docbin(sentences: Sequence[TaggedSentence], path: Path) -> None:
    import spacy
    from spacy.tokens import DocBin

    nlp = spacy.blank("en")
    db = DocBin(store_user_data=False)
    for s in sentences:
        db.add(spacy.tokens.Doc(nlp.vocab, words=s.words, ents=list(s.tags)))
    db.to_disk(path)


def _vectors_pipeline(sentences: Sequence[TaggedSentence], path: Path) -> None:
    """A blank pipeline whose vector table holds every training word (from the bundled wordpiece
    table, :mod:`redactdesk.lang.word_vectors`): what spaCy's initialisation reads the vectors from."""
    import spacy
    from spacy.vectors import Vectors

    from redactdesk.lang.word_vectors import word_vectors

    table = word_vectors("en")
    if table is None:
        raise SystemExit("train_tagger: resources/models/wordpieces_en is missing; build it with "
                         "python -m redactdesk.learn.build_word_vectors (or pass --no-vectors)")
    words = sorted({w for s in sentences for w in s.words})
    nlp = spacy.blank("en")
    nlp.vocab.vectors = Vectors(data=table.vectors(words), keys=[nlp.vocab.strings.add(w) for w in words])
    nlp.to_disk(path)


def build_sentences(data: Path, calls: int, seed: int, limit: int | None = None,
                    swap: float = 0.5, cased: bool = False,
                    slurp_weight: int = SLURP_WEIGHT, mentions: float = 0.0,
                    disfluency: float = 0.0) -> tuple[list[TaggedSentence], list[str]]:
    """The training sentences and the report's lines about where they came from. ``cased``: the
    tagger for cased writing — sentences as written, case kept, and no SLURP (lower-case commands)."""
    samples = []
    lines = []
    for rel, name, licence in TRAIN_SETS:
        path = data / rel
        if not path.exists():
            raise SystemExit(f"train_tagger: {path} not found; the public sets live in ../shared/data "
                             "(pass --data)")
        xs = read_conll_samples(path, source=name, limit=limit)
        samples += xs
        lines.append(f"- {name} (`{rel}`, {licence}): {len(xs):,} sentences")
    slurp = data / SLURP_FILE
    if slurp.exists() and not cased:
        half = slurp_half(read_slurp(slurp), 0)
        samples += half * slurp_weight
        lines.append(f"- SLURP devel, utterances with even ids (`{SLURP_FILE}`, CC BY 4.0): {len(half):,}, seen "
                     f"{slurp_weight}x (odd ids are kept for evaluation); its non-personal labels taught as "
                     "not names, artists' names left unknown")
    if calls:
        gen = generated_call_sentences(calls, seed=200000 + seed)
        samples += gen
        lines.append(f"- redactdesk generated calls (seeds {200000 + seed}..{200000 + seed + calls - 1}): "
                     f"{len(gen):,} turns")
    names = WorldNames(seed) if swap else None
    sentences = training_sentences(samples, swap=swap, seed=seed, names=names, spoken=not cased, keep_case=cased,
                                   mentions=mentions, disfluency=disfluency)
    if mentions:
        lines.append(f"- mention replacement: {mentions:.0%} of the sentences with a place or organisation seen "
                     "again with other mentions of the same label from the training sets")
    if disfluency and not cased:
        lines.append(f"- disfluencies: {disfluency:.0%} of the spoken sentences said with fillers and repeated words")
    if names is not None:
        lines.append(f"- name swaps: {len(names.firsts):,} first names and {len(names.lasts):,} surnames from "
                     "every Faker locale, transliterated")
    return sentences, lines


def train(data: Path, out: Path, *, calls: int = 300, epochs: int = 12, seed: int = 0, limit: int | None = None,
          width: int = 96, depth: int = 4, rows: int = 20000, swap: float = 0.5, vectors: bool = True,
          cased: bool = False) -> dict:
    """Train and write the model to ``out`` (replaced). Returns the scores on the held-out twentieth.
    ``cased``: the tagger for cased writing (``tagger_<lang>_cased``), trained on the sentences as
    written with their case."""
    import spacy
    from spacy.cli.train import train as spacy_train

    t0 = time.perf_counter()
    sentences, lines = build_sentences(data, calls, seed, limit, swap, cased)
    rng = random.Random(seed)
    rng.shuffle(sentences)
    n_dev = max(1, len(sentences) // 20)
    dev, trn = sentences[:n_dev], sentences[n_dev:]
    with tempfile.TemporaryDirectory(prefix="rd-tagger-") as tmp:
        tmpd = Path(tmp)
        _docbin(trn, tmpd / "train.spacy")
        _docbin(dev, tmpd / "dev.spacy")
        if vectors:
            _vectors_pipeline(sentences, tmpd / "vectors")
        cfg = tagger_config(seed=seed, width=width, depth=depth, rows=rows, epochs=epochs,
                            patience=max(2000, len(trn) // 10), eval_frequency=max(200, len(trn) // 40),
                            vectors=tmpd / "vectors" if vectors else None)
        cfg.to_disk(tmpd / "config.cfg")
        spacy_train(tmpd / "config.cfg", tmpd / "model",
                    overrides={"paths.train": str(tmpd / "train.spacy"), "paths.dev": str(tmpd / "dev.spacy")})
        best = tmpd / "model" / "model-best"
        nlp = spacy.load(best)
        scores = nlp.evaluate([_example(nlp, s) for s in dev])
        if out.exists():
            shutil.rmtree(out)
        out.parent.mkdir(parents=True, exist_ok=True)
        if vectors:  # the rows are recomputed from the wordpiece table at detection time
            from redactdesk.lang.word_vectors import reset_vectors

            reset_vectors(nlp)
        nlp.meta.update({"name": "redactdesk_tagger_en" + ("_cased" if cased else ""),
                         "description": "redactdesk transcript tagger (see TRAINING.md)",
                         "license": "MIT (model); trained on WikiANN (ODC-BY 1.0), BTC and SLURP (CC BY 4.0)"})
        nlp.to_disk(out)
    seconds = time.perf_counter() - t0
    per_type = {k: {m: round(v, 4) for m, v in d.items()} for k, d in (scores.get("ents_per_type") or {}).items()}
    report = {"sentences": len(trn), "dev_sentences": len(dev), "ents_p": round(scores["ents_p"], 4),
              "ents_r": round(scores["ents_r"], 4), "ents_f": round(scores["ents_f"], 4), "per_type": per_type,
              "seconds": round(seconds), "settings": {"epochs": epochs, "seed": seed, "width": width, "depth": depth,
                                                      "rows": rows, "calls": calls, "swap": swap, "limit": limit,
                                                      "vectors": vectors, "cased": cased}}
    _write_report(out, lines, report)
    return report


def _example(nlp, s: TaggedSentence):
    from spacy.tokens import Doc, Span
    from spacy.training import Example

    ref = Doc(nlp.vocab, words=s.words)
    ref.ents = [Span(ref, a, b, label=lab) for a, b, lab in bio_entities(s.tags)]
    return Example(Doc(nlp.vocab, words=s.words), ref)


def _write_report(out: Path, lines: list[str], report: dict) -> None:
    rows = "\n".join(f"| {k} | {v['p']:.3f} | {v['r']:.3f} | {v['f']:.3f} |" for k, v in sorted(report["per_type"].items()))
    cased = report["settings"].get("cased")
    what = ("Input: words as written — case kept, numbers as digits, punctuation stripped from word edges —\n"
            "cleaned exactly as `redactdesk.detect.tagger.clean_token(word, keep_case=True)` does at detection\n"
            "time; the detector uses this model for cased writing (`redactdesk.detect.sources.is_cased`)."
            if cased else
            "Input: words as ASR writes them (lower case, no punctuation),\n"
            "cleaned exactly as `redactdesk.detect.tagger.clean_token` does at detection time.")
    form = ("Every sentence as written, with its case" if cased else
            "Every sentence in spoken form (lower case, punctuation dropped, numbers as words)")
    text = f"""# redactdesk {"tagger for cased writing" if cased else "transcript tagger"} — training report

Labels: {", ".join(TAGGER_LABELS)}. {what}
{"Each word also reads its vector from the MiniLM wordpiece table in `resources/models/wordpieces_en` "
 "(`redactdesk.lang.word_vectors`); the model keeps no vector rows on disk." if report["settings"].get("vectors") else ""}

## Data
{chr(10).join(lines)}

{form}; the trained model
is this project's own artefact. Held out for evaluation: WikiANN dev, BTC part h, wikigold, SLURP devel
odd ids (`benchmarks/bench_detect_public.py`).

## Result on a held-out twentieth of the training mixture
{report["sentences"]:,} training sentences, {report["dev_sentences"]:,} held out; {report["seconds"]} s on this machine.

| label | P | R | F |
|---|---|---|---|
{rows}
| all | {report["ents_p"]:.3f} | {report["ents_r"]:.3f} | {report["ents_f"]:.3f} |

Settings: `{json.dumps(report["settings"])}`

Reproduce: `python -m redactdesk.learn.train_tagger --data ../shared/data --out {out.as_posix()}{" --cased" if cased else ""}` with the
settings above.
"""
    (out / "TRAINING.md").write_text(text, encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Train the transcript tagger from public NER data.")
    ap.add_argument("--data", type=Path, default=Path(__file__).resolve().parents[3] / "shared" / "data")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--calls", type=int, default=300, help="generated calls to add (default 300)")
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--limit", type=int, default=None, help="sentences per public file (tests, quick runs)")
    ap.add_argument("--width", type=int, default=96)
    ap.add_argument("--depth", type=int, default=4)
    ap.add_argument("--rows", type=int, default=20000, help="hash-embedding rows of the word")
    ap.add_argument("--no-vectors", dest="vectors", action="store_false",
                    help="train without the MiniLM wordpiece vectors (resources/models/wordpieces_en)")
    ap.add_argument("--swap", type=float, default=0.5, help="share of name sentences also trained name-swapped")
    ap.add_argument("--cased", action="store_true",
                    help="the tagger for cased writing: sentences as written, case kept (tagger_<lang>_cased)")
    args = ap.parse_args(argv)
    report = train(args.data, args.out, calls=args.calls, epochs=args.epochs, seed=args.seed, limit=args.limit,
                   width=args.width, depth=args.depth, rows=args.rows, swap=args.swap,
                   vectors=args.vectors, cased=args.cased)
    print(json.dumps({k: v for k, v in report.items() if k != "per_type"}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
