"""The tagger learner's update time: one update on 50 newly labelled turns, on 2 cores.

    python benchmarks/bench_learner.py [--new 50] [--updates 3] [--pool 2000] [--threads 2]
                                       [--models encoder,spacy]

Both models of the tagger learner, side by side: the contextual tagger with adapters (the default
where PyTorch is installed, :mod:`redactdesk.learn.encoder_learner`) and the spaCy tagger.
Generated calls (seeds >= 100000) stand in for annotated turns. Each update learns 50 turns nobody
labelled before with each model's ``default_settings`` (the app's defaults): the contextual tagger
retrains from the bundled one on all labelled turns while they are at most ``from_base`` (100),
then fine-tunes the model in use on the new turns plus a replay sample of earlier ones, as the
spaCy tagger always does; the "update job" row
adds what the app does around it (test-then-train scores, the stability check, serialising the
version). BLAS and OpenMP are held to ``--threads`` threads and the process to as many cores.
Prints wall-clock and CPU seconds (the machine may be shared: CPU seconds are the steadier
number). Target: an update < 5 s.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from _cpu import Timer, limit_threads


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--new", type=int, default=50, help="newly labelled turns per update (default 50)")
    ap.add_argument("--updates", type=int, default=3, help="updates in a row (default 3)")
    ap.add_argument("--pool", type=int, default=2000, help="unlabelled turns scored after each update")
    ap.add_argument("--threads", type=int, default=2, help="cores and BLAS threads (default 2)")
    ap.add_argument("--models", default="encoder,spacy", help="encoder, spacy or both (default)")
    args = ap.parse_args(argv)
    limit_threads(args.threads)
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

    from redactdesk.learn.crf import CrfModel
    from redactdesk.learn.entropy import sequence_scores, token_entropy
    from redactdesk.learn.tagger_model import TaggerModel
    from redactdesk.learn.tagger_update import prepare_tagger_update
    from redactdesk.learn.training import TrainingSettings
    from redactdesk.learn.utterances import utterances_from_conversation
    from redactdesk.synth import generate_corpus

    need = args.new * args.updates + args.pool
    utts, seed = [], 100_000
    while len(utts) < need:
        for c in generate_corpus(range(seed, seed + 20)):
            utts += utterances_from_conversation(c, gold_spans=True)
        seed += 20
    labelled, pool = utts[: args.new * args.updates], utts[args.new * args.updates: need]
    for u in pool:
        u.labelled = False
    rows: list[tuple[str, float, float]] = []
    worst: dict[str, float] = {}
    for name in args.models.split(","):
        if name == "encoder":
            from redactdesk.learn.encoder_learner import EncoderModel, available

            if not available("en"):
                print("skipping the contextual tagger learner: PyTorch, onnx or the model is missing")
                continue
            load = EncoderModel.bundled
        else:
            load = TaggerModel.bundled
        for u in labelled:
            u.labelled = False
        with Timer() as t:
            model = load("en")
        rows.append((f"[{name}] load the bundled tagger", t.wall, t.cpu))
        with Timer() as t:
            marg = model.marginals(pool)
            h = token_entropy(marg.probs, marg.outside, "multi")
            sequence_scores(h, marg.starts, marg.lengths, "kmax")
        rows.append((f"[{name}] score {len(pool)} turns (distributions + K-Max)", t.wall, t.cpu))
        settings = model.default_settings()
        updates = []
        model_id = None
        for k in range(args.updates):
            new = labelled[k * args.new:(k + 1) * args.new]
            for u in labelled[: (k + 1) * args.new]:
                u.labelled = True
            with Timer() as t:
                result = prepare_tagger_update(model, model_id, labelled[: (k + 1) * args.new] + pool,
                                               check=lambda: None, settings=settings)()
            fine = float(result.metrics["update_seconds"])
            updates.append(fine)
            n_all = (k + 1) * args.new
            fresh = hasattr(settings, "from_base") and (k == 0 or n_all <= settings.from_base)
            how = (f"retrain on all {n_all} labelled" if fresh
                   else f"fine-tune on {len(new)} new (+ replay {min(k * args.new, settings.replay)})")
            rows.append((f"[{name}] update {k + 1}: {how}", fine, float("nan")))
            rows.append((f"[{name}] update {k + 1}: whole job (scores, stability, blob {len(result.blob) / 1e6:.1f} MB)",
                         t.wall, t.cpu))
            model, model_id = result.model, k + 1
        worst[name] = max(updates)
    with Timer() as t:
        CrfModel(max_iterations=TrainingSettings().max_iterations).fit(labelled)
    rows.append((f"CRF baseline: retrain on all {len(labelled)} labelled", t.wall, t.cpu))

    print(f"bench_learner: {args.threads} cores, {args.new} new turns per update, pool {len(pool)}")
    print(f"{'step':<62} {'wall s':>8} {'cpu s':>8}")
    for name, wall, cpu in rows:
        cpu_s = "-" if cpu != cpu else f"{cpu:.2f}"
        print(f"{name:<62} {wall:>8.2f} {cpu_s:>8}")
    for name, w in worst.items():
        print(f"[{name}] time per update (fine-tune, worst of {args.updates}): {w:.2f} s — target < 5 s: "
              f"{'met' if w < 5 else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
