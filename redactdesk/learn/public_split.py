"""A pool and a test set for ``redactdesk simulate`` from public annotated text, in spoken form.

    python -m redactdesk.learn.public_split --data ../shared/data --set ner/btc/h.conll --out DIR
        [--pool 1500] [--seed 15]

Reads a CoNLL file of the public sets (``../shared/data``, never copied into the project), turns each
sentence into what ASR writes (lower case, no punctuation, numbers as words: the same
:func:`~redactdesk.learn.tagger_data.training_sentences` the taggers train on, without name swaps),
keeps the sentences whose every word has a known tag, shuffles them with ``--seed`` and writes
``DIR/pool.jsonl`` (the first ``--pool``) and ``DIR/test.jsonl`` (the rest) as ``{tokens, tags}``
lines, which ``redactdesk simulate --train DIR/pool.jsonl --test DIR/test.jsonl`` reads.

Broad Twitter Corpus part h is the split the learner issue measured on: the bundled taggers train on
parts a, b, e, f and g, so h is material they have not seen.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Sequence
from pathlib import Path

from redactdesk.formats.files import atomic_path


def spoken_split(conll: Path, pool: int, seed: int) -> tuple[list[dict], list[dict]]:
    """(pool, test) lines ``{tokens, tags}`` of the CoNLL file in spoken form."""
    from redactdesk.learn.public_data import read_conll_samples
    from redactdesk.learn.tagger_data import training_sentences

    samples = read_conll_samples(conll, source=conll.stem)
    sentences = [t for t in training_sentences(samples, swap=0, spoken=True) if t.words and all(t.tags)]
    random.Random(seed).shuffle(sentences)
    lines = [{"tokens": t.words, "tags": t.tags} for t in sentences]
    return lines[:pool], lines[pool:]


def _write(lines: list[dict], path: Path) -> None:
    with atomic_path(path) as tmp, open(tmp, "w", encoding="utf-8") as fh:
        for line in lines:
            fh.write(json.dumps(line, ensure_ascii=False) + "\n")


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=Path(__file__).resolve().parents[2].parent / "shared" / "data")
    ap.add_argument("--set", default="ner/btc/h.conll", help="CoNLL file under --data (default ner/btc/h.conll)")
    ap.add_argument("--pool", type=int, default=1500, help="sentences in the pool (the rest is the test set)")
    ap.add_argument("--seed", type=int, default=15)
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args(argv)
    conll = args.data / args.set
    if not conll.is_file():
        print(f"public_split: {args.set} not found under the data folder (the public sets live in "
              "../shared/data beside the checkout)", file=sys.stderr)
        return 2
    pool, test = spoken_split(conll, args.pool, args.seed)
    if not test:
        print(f"public_split: only {len(pool)} usable sentences: nothing left for the test set", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    _write(pool, args.out / "pool.jsonl")
    _write(test, args.out / "test.jsonl")
    print(f"pool {len(pool)} and test {len(test)} sentences in spoken form -> {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
