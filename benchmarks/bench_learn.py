"""Active-learning speed: retraining on 5,000 utterances and scoring a 50,000-utterance pool.

    python benchmarks/bench_learn.py [--train 5000] [--pool 50000]

Uses generated calls (seeds >= 100000) and the *fast* feature set (``FeatureConfig.fast()``: no
spaCy, built-in spoken-run hits instead of detect's pattern hits); the table also shows what
detect's pattern hits cost when the pool is featurised. Prints wall-clock and CPU seconds; the
machine may be shared, so CPU seconds are the steadier number. Targets: retrain < 5 s, score < 2 s.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from _cpu import Timer

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402

from redactdesk.learn.crf import CrfModel  # noqa: E402
from redactdesk.learn.entropy import sequence_scores, token_entropy, utterance_margins  # noqa: E402
from redactdesk.learn.features import FeatureConfig, FeatureExtractor  # noqa: E402
from redactdesk.learn.metrics import cross_validate, token_scores  # noqa: E402
from redactdesk.learn.training import TrainingSettings  # noqa: E402
from redactdesk.learn.utterances import utterances_from_conversation  # noqa: E402


def generated(n_utts: int, first_seed: int) -> list:
    from redactdesk.synth import generate_call

    out: list = []
    seed = first_seed
    while len(out) < n_utts:
        out += utterances_from_conversation(generate_call(seed), gold_spans=True)
        seed += 1
    return out[:n_utts]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--train", type=int, default=5000)
    ap.add_argument("--pool", type=int, default=50_000)
    ap.add_argument("--detect-sample", type=int, default=2000, help="utterances to time detect's hits on")
    args = ap.parse_args()

    print(f"generating {args.train:,} + {args.pool:,} utterances of synthetic calls ...", flush=True)
    train = generated(args.train, 100_000)
    pool = generated(args.pool, 300_000)
    rows: list[tuple[str, float, float, str]] = []
    settings = TrainingSettings()
    ext = FeatureExtractor(FeatureConfig.fast())

    with Timer() as t_enc:
        enc_train = CrfModel(extractor=ext).encode(train)
    with Timer() as t_fit:
        model = settings.new_model(ext).fit(train, enc=enc_train)
    rows.append((f"featurise {len(train):,} training utterances", t_enc.wall, t_enc.cpu, ""))
    rows.append((f"retrain on {len(train):,} utterances ({model.info['n_used']:,} after duplicate cap, "
                 f"{settings.max_iterations} L-BFGS iterations)", t_fit.wall, t_fit.cpu, "< 5 s"))
    rows.append(("  = featurise + retrain", t_enc.wall + t_fit.wall, t_enc.cpu + t_fit.cpu, "< 5 s"))
    sample = train[:2000]
    with Timer() as t_cv:
        cross_validate(sample, lambda tr, te: settings.new_model(ext).fit(tr).predict(te), folds=3)
    rows.append(("  + per-category F1, 3-fold CV on a 2,000-utterance sample (ActiveLearner.retrain)",
                 t_cv.wall, t_cv.cpu, "background"))

    with Timer() as t_pool_enc:
        enc_pool = model.encode(pool)
    with Timer() as t_score:
        marg = model.marginals(enc_pool)
        h = token_entropy(marg.probs, marg.outside, "binary")
        s_sum = sequence_scores(h, marg.starts, marg.lengths, "sum")
        s_kmax = sequence_scores(h, marg.starts, marg.lengths, "kmax")
        margins = utterance_margins(marg.probs, marg.starts, marg.lengths)
        top = np.argsort(-s_sum)[:250]
    assert len(s_kmax) == len(margins) == len(pool) and len(top) == 250
    rows.append((f"score pool of {len(pool):,} utterances ({enc_pool.n_tokens:,} tokens): marginals, "
                 "H Sum, H K-Max, margins, top 250", t_score.wall, t_score.cpu, "< 2 s"))
    rows.append((f"featurise the pool once (cached between retrains; {ext.n_signatures():,} signatures)",
                 t_pool_enc.wall, t_pool_enc.cpu, ""))
    rows.append(("  = cold scoring (featurise + score)", t_pool_enc.wall + t_score.wall,
                 t_pool_enc.cpu + t_score.cpu, ""))

    try:
        from redactdesk.detect.features import word_hits  # noqa: F401

        det = FeatureExtractor(FeatureConfig())
        sample = pool[: args.detect_sample]
        with Timer() as t_det:
            CrfModel(extractor=det).encode(sample)
        per = t_det.wall / len(sample)
        rows.append((f"featurise with detect's pattern hits: {len(sample):,} utterances "
                     f"(~{per * len(pool):.0f} s for the pool, once)", t_det.wall, t_det.cpu, ""))
    except ImportError:
        rows.append(("detect's pattern hits: redactdesk.detect not importable", 0.0, 0.0, ""))

    test = generated(3000, 500_000)
    quality = token_scores([u.tags for u in test], model.predict(test))
    width = max(len(r[0]) for r in rows)
    print(f"\ncores: {os.cpu_count()}  load average: {os.getloadavg()[0]:.1f}")
    print(f"{'step':<{width}}  {'wall s':>7}  {'cpu s':>7}  target")
    for name, wall, cpu, target in rows:
        print(f"{name:<{width}}  {wall:7.2f}  {cpu:7.2f}  {target}")
    print(f"\nmodel check on 3,000 fresh utterances: token F1 {quality.f1:.3f} "
          f"(binary anon F1 {quality.anon_f1:.3f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
