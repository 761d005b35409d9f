"""The learner's version history: cross-validation time and project-file size with pruning.

    python benchmarks/bench_learner_versions.py [--turns 50,200,400] [--updates 12] [--threads 2]

1. The background cross-validation after an update (:mod:`redactdesk.learn.crossval`): wall and CPU
   seconds of one run over N labelled turns (generated calls, seeds >= 100000, stand in for the
   annotators' turns; at most 400 are used), for the tagger learner (k folds, each fine-tuning the
   bundled tagger for 2 epochs) and the CRF baseline. Target: the tagger's run < 60 s at 400 turns
   on 2 cores (it runs in the background; the annotators go on labelling).
2. The project file after U updates that each store a tagger-sized model (the bundled tagger's
   serialised form, ~6 MB), with pruning (``learn.keep_versions`` = 5) and without (keep all).
   Target: with pruning the file stays at about keep + 1 models however many updates there were.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from _cpu import limit_threads


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--turns", default="50,200,400", help="labelled turns per run (comma-separated)")
    ap.add_argument("--updates", type=int, default=12, help="updates stored for the file-size table")
    ap.add_argument("--threads", type=int, default=2, help="cores and BLAS threads (default 2)")
    args = ap.parse_args(argv)
    limit_threads(args.threads)
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

    from redactdesk.learn.crossval import crf_fit_predict, cross_validate_turns, tagger_fit_predict
    from redactdesk.learn.features import FeatureExtractor
    from redactdesk.learn.tagger_model import TaggerModel
    from redactdesk.learn.training import TrainingSettings
    from redactdesk.learn.utterances import utterances_from_conversation
    from redactdesk.synth import generate_corpus

    sizes = [int(n) for n in args.turns.split(",")]
    utts, seed = [], 100_000
    while len(utts) < max(sizes):
        utts += [u for c in generate_corpus(range(seed, seed + 10)) for u in utterances_from_conversation(c, gold_spans=True)]
        seed += 10
    bundled = TaggerModel.bundled("en")
    learners = {"tagger": tagger_fit_predict(bundled), "crf": crf_fit_predict(TrainingSettings(), FeatureExtractor())}
    print(f"{'learner':8} {'turns':>6} {'used':>5} {'folds':>5} {'wall s':>7} {'cpu s':>7} {'F1':>6}")
    for name, fit_predict in learners.items():
        for n in sizes:
            w, c = time.perf_counter(), time.process_time()
            cv = cross_validate_turns(utts[:n], fit_predict)
            wall, cpu = time.perf_counter() - w, time.process_time() - c
            f1 = "n/a" if cv.scores is None else f"{cv.scores.f1:.3f}"
            print(f"{name:8} {n:>6} {cv.n_used:>5} {cv.folds:>5} {wall:>7.1f} {cpu:>7.1f} {f1:>6}")

    from redactdesk.core.types import Role
    from redactdesk.learn.service import TrainResult, save_version
    from redactdesk.learn.versions import KEEP_SETTING
    from redactdesk.store import Project

    blob = bundled.to_bytes()
    print(f"\nmodel blob {len(blob) / 1e6:.1f} MB; file size (MB) after each update")
    print(f"{'updates':>7} {'keep 5: models':>15} {'MB':>7} {'keep all: models':>17} {'MB':>7}")
    with tempfile.TemporaryDirectory() as tmp:
        projects = {}
        for keep in (5, 1000):
            projects[keep] = Project.create(Path(tmp) / f"k{keep}.rdproj", role=Role.REVIEWER)
            projects[keep].set_setting(KEEP_SETTING, keep)
        for u in range(1, args.updates + 1):
            row = [f"{u:>7}"]
            for keep, proj in projects.items():
                save_version(proj, TrainResult(None, u, {"f1": None}, blob=blob, kind="spacy-ner"))
                proj.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                stored = sum(r["stored"] for r in proj.models())
                width = 15 if keep == 5 else 17
                row += [f"{stored:>{width}}", f"{proj.path.stat().st_size / 1e6:>7.1f}"]
            print(" ".join(row))
        for proj in projects.values():
            proj.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
