"""Write generated calls as a labelled corpus for ``redactdesk simulate``.

``python -m redactdesk.learn.make_data --calls 300 --seed 100000 --out DIR`` writes
``DIR/train.conll`` and ``DIR/test.conll`` (or ``.jsonl`` with ``--format jsonl``): one utterance per
turn, IOB2 tags from the generator's ground-truth spans; calls are split, not turns, so no call is
on both sides. Use seeds >= 100000 (the demo uses 1000..).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from redactdesk.learn.corpus_io import write_conll, write_jsonl
from redactdesk.learn.errors import LearnError
from redactdesk.learn.utterances import Utterance, utterances_from_conversation

MIN_SEED = 100_000


def generated_utterances(calls: int, seed: int, language: str = "en") -> list[list[Utterance]]:
    """Utterances of ``calls`` generated calls (seeds ``seed``..), one list per call."""
    from redactdesk.synth import generate_call

    if seed < MIN_SEED:
        raise LearnError(f"use seeds >= {MIN_SEED}; lower seeds belong to the demo corpus")
    return [utterances_from_conversation(generate_call(s, language), gold_spans=True)
            for s in range(seed, seed + calls)]


def make_data(out: str | Path, calls: int = 300, seed: int = MIN_SEED, language: str = "en",
              test_fraction: float = 0.25, fmt: str = "conll") -> tuple[Path, Path, int, int]:
    """Write train/test files; returns their paths and utterance counts."""
    if calls < 2:
        raise LearnError("need at least 2 calls (one for train, one for test)")
    if not 0.0 < test_fraction < 1.0:
        raise LearnError("test fraction must be between 0 and 1")
    per_call = generated_utterances(calls, seed, language)
    n_test = max(1, int(round(calls * test_fraction)))
    train = [u for c in per_call[:-n_test] for u in c]
    test = [u for c in per_call[-n_test:] for u in c]
    out_dir = Path(out)
    out_dir.mkdir(parents=True, exist_ok=True)
    ext, write = (".jsonl", write_jsonl) if fmt == "jsonl" else (".conll", write_conll)
    tr, te = out_dir / f"train{ext}", out_dir / f"test{ext}"
    write(train, tr)
    write(test, te)
    return tr, te, len(train), len(test)


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m redactdesk.learn.make_data", description=__doc__.split("\n")[0])
    p.add_argument("--calls", type=int, default=300)
    p.add_argument("--seed", type=int, default=MIN_SEED)
    p.add_argument("--language", choices=("en", "es"), default="en")
    p.add_argument("--test-fraction", type=float, default=0.25)
    p.add_argument("--format", choices=("conll", "jsonl"), default="conll")
    p.add_argument("--out", required=True)
    args = p.parse_args(argv)
    try:
        tr, te, n_tr, n_te = make_data(args.out, args.calls, args.seed, args.language, args.test_fraction, args.format)
    except LearnError as exc:
        print(f"make_data: {exc}", file=sys.stderr)
        return 2
    print(f"wrote {tr} ({n_tr} utterances) and {te} ({n_te} utterances)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
