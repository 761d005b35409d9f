"""Simulated active learning on a labelled corpus (the thesis experiment, seed 004 section 5.4).

The training file is the pool, its tags the oracle. For every seed strategy x query strategy x
repeat: pick a seed, train, score the test file, query a batch, repeat until ``max_labels``.
Curves are averaged over repeats (mean +- sd); the table reports how many labels each pair needs
to reach 95% and 99% of the F1 of a model trained on the whole pool.

``redactdesk simulate`` (the CLI) delegates to :func:`main`; code calls :func:`run_simulation`.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from redactdesk.learn.corpus_io import read_corpus
from redactdesk.learn.crf import CrfModel
from redactdesk.learn.errors import LearnError
from redactdesk.learn.features import FeatureConfig, FeatureExtractor
from redactdesk.learn.metrics import Scores, token_scores
from redactdesk.learn.selection import Pool, get_strategy
from redactdesk.learn.training import TrainingSettings
from redactdesk.learn.transfer import load_source
from redactdesk.learn.utterances import Utterance

LEVELS = (0.95, 0.99)
Progress = Callable[[int, int, str], None]


@dataclass
class Curve:
    """Mean and standard deviation over repeats of one (seed strategy, query strategy) pair."""

    seed_strategy: str
    strategy: str
    n_labeled: np.ndarray
    precision: np.ndarray
    recall: np.ndarray
    f1: np.ndarray
    precision_sd: np.ndarray
    recall_sd: np.ndarray
    f1_sd: np.ndarray
    runs: int

    def labels_to_reach(self, target: float) -> int | None:
        """Fewest labels at which the mean F1 reaches ``target`` (None if it never does)."""
        hit = np.flatnonzero(self.f1 >= target - 1e-12)
        return int(self.n_labeled[hit[0]]) if len(hit) else None

    def labels_to_hold(self, target: float) -> int | None:
        """Fewest labels from which the mean F1 stays at or above ``target`` at every later point
        (None if the last point is below it). A warm-started learner's curve is flat and noisy: a
        curve that touches the target once and falls back has not reached it for an annotator."""
        below = np.flatnonzero(self.f1 < target - 1e-12)
        if not len(below):
            return int(self.n_labeled[0])
        k = int(below[-1]) + 1
        return int(self.n_labeled[k]) if k < len(self.n_labeled) else None

    @property
    def name(self) -> str:
        return f"{self.seed_strategy} -> {self.strategy}"


@dataclass
class SimulationResult:
    full: Scores
    pool_size: int
    test_size: int
    curves: list[Curve]
    runs: list[dict] = field(default_factory=list)  # one row per (pair, repeat, n_labeled)
    settings: dict = field(default_factory=dict)
    seconds: float = 0.0

    def reach(self, curve: Curve, level: float) -> int | None:
        return curve.labels_to_reach(level * self.full.f1)

    def summary(self) -> list[dict]:
        rows = []
        for c in self.curves:
            row = {"seed_strategy": c.seed_strategy, "strategy": c.strategy, "runs": c.runs,
                   "first_f1": float(c.f1[0]), "first_f1_sd": float(c.f1_sd[0]), "last_n": int(c.n_labeled[-1]),
                   "last_f1": float(c.f1[-1])}
            for lv in LEVELS:
                n = self.reach(c, lv)
                row[f"labels_{int(lv * 100)}"] = n
                row[f"pool_frac_{int(lv * 100)}"] = None if n is None else n / self.pool_size
                row[f"labels_holding_{int(lv * 100)}"] = c.labels_to_hold(lv * self.full.f1)
            row["vs_random_sampling_95"] = self._vs_sampling(c)
            rows.append(row)
        return rows

    def _sampling(self) -> Curve | None:
        """Random sampling: random seeds, random queries — the baseline every strategy is set against."""
        return next((c for c in self.curves if c.seed_strategy == "random" and c.strategy == "random"), None)

    def _vs_sampling(self, c: Curve) -> float | None:
        """Labels ``c`` needs to hold 95% of the full-data F1, over what random sampling needs to reach it."""
        base = self._sampling()
        if base is None or c is base:
            return None
        r, n = self.reach(base, 0.95), c.labels_to_hold(0.95 * self.full.f1)
        return None if r is None or n is None else n / r

    def table(self) -> str:
        """A plain-text table for the terminal."""
        f = self.full
        lines = [
            f"pool {self.pool_size:,} utterances, test {self.test_size:,}; full-data model: "
            f"F1 {f.f1:.3f} (P {f.precision:.3f}, R {f.recall:.3f}; binary anon F1 {f.anon_f1:.3f})",
            f"targets: 95% = F1 {0.95 * f.f1:.3f}, 99% = F1 {0.99 * f.f1:.3f}",
            "",
            f"{'seed':<16} {'query':<16} {'F1 at seed':>12} {'labels to 95%':>18} {'labels to 99%':>18} "
            f"{'vs random (95%)':>16} {'holds 95% from':>15} {'vs sampling':>12}",
        ]
        random95 = {c.seed_strategy: self.reach(c, 0.95) for c in self.curves if c.strategy == "random"}
        for c in self.curves:
            cells = []
            for lv in LEVELS:
                n = self.reach(c, lv)
                cells.append(f"> {int(c.n_labeled[-1])}" if n is None else f"{n} ({100 * n / self.pool_size:.1f}%)")
            r = random95.get(c.seed_strategy)
            n95 = self.reach(c, 0.95)
            ratio = "" if r is None or n95 is None or c.strategy == "random" else f"{n95 / r:.2f}x"
            if r is None and n95 is not None and c.strategy != "random":
                ratio = "random never"
            hold = c.labels_to_hold(0.95 * self.full.f1)
            vs = self._vs_sampling(c)
            lines.append(f"{c.seed_strategy:<16} {c.strategy:<16} {c.f1[0]:>6.3f}±{c.f1_sd[0]:.3f} "
                         f"{cells[0]:>18} {cells[1]:>18} {ratio:>16} "
                         f"{'never' if hold is None else hold:>15} {'' if vs is None else f'{vs:.2f}x':>12}")
        lines.append("holds 95% from: labels from which the mean F1 stays at the 95% target; vs sampling: "
                     "that, over the labels random sampling (random seeds and queries) first reaches it with")
        return "\n".join(lines)


def _as_utterances(data: str | Path | Sequence[Utterance]) -> list[Utterance]:
    if isinstance(data, (str, Path)):
        return read_corpus(data)
    return list(data)


def _evaluate(model: CrfModel, test_enc, gold: list[list[str]]) -> Scores:
    return token_scores(gold, model.predict(test_enc))


def run_simulation(train: str | Path | Sequence[Utterance], test: str | Path | Sequence[Utterance],
                   strategies: Sequence[str] = ("random", "t-sum"), seed_size: int = 10, batch: int = 10,
                   repeats: int = 3, out_dir: str | Path | None = None, seed_strategy: str | Sequence[str] = "random",
                   *, max_labels: int | float | None = 0.15, source: str | Path | CrfModel | None = "bundled",
                   features: FeatureConfig | None = None, training: TrainingSettings | None = None,
                   mode: str = "multi", random_seed: int = 0, progress: Progress | None = None,
                   learner: str = "crf") -> SimulationResult:
    """Run strategies x seed strategies x repeats; write curve.csv/curve.png/runs.csv/summary.json to ``out_dir``.

    ``max_labels``: stop each run there (a fraction <= 1 of the pool, or a count). ``source``:
    the transferred model for ``s-`` strategies -- a model file, a CrfModel, ``"bundled"`` (the
    model shipped in resources; ignored when no strategy needs it) or None. ``learner``: ``crf``
    (retrained from scratch each round) or ``tagger`` (the bundled tagger fine-tuned round by round,
    as in the app: :mod:`redactdesk.learn.simulate_tagger`; its source is the bundled tagger).
    """
    started = time.perf_counter()
    pool_utts = [u for u in _as_utterances(train) if u.tokens]
    test_utts = [u for u in _as_utterances(test) if u.tokens]
    if not pool_utts or not test_utts:
        raise LearnError("simulation needs a non-empty training pool and test set")
    if seed_size < 1 or batch < 1 or repeats < 1:
        raise LearnError("seed size, batch and repeats must be at least 1")
    seed_specs = [seed_strategy] if isinstance(seed_strategy, str) else list(seed_strategy)
    seed_objs = [get_strategy(s) for s in seed_specs]
    query_objs = [get_strategy(s) for s in strategies]
    for s in seed_objs:
        if "t" in s.needs():
            raise LearnError(f"seed strategy {s.spec!r} needs a target model, which does not exist before the seed")
    need_source = any("s" in s.needs() for s in seed_objs + query_objs)
    src_model = None
    tagger = None
    if learner == "tagger":
        from redactdesk.learn.simulate_tagger import TaggerTrainer

        tagger = TaggerTrainer(pool_utts)
        src_model, need_source = tagger.base, False
    elif learner != "crf":
        raise LearnError(f"unknown learner {learner!r} (choose crf or tagger)")
    if need_source:
        if source is None:
            raise LearnError("an s- strategy needs a source model (--source FILE or the bundled one)")
        src_model = source if isinstance(source, CrfModel) else load_source(source)
    n_pool = len(pool_utts)
    cap = n_pool if max_labels is None else int(round(max_labels * n_pool)) if max_labels <= 1 else int(max_labels)
    cap = max(min(cap, n_pool), seed_size)
    settings = training or TrainingSettings()

    extractor = FeatureExtractor(features or FeatureConfig())
    pool = Pool(pool_utts, extractor, source=src_model, mode=mode, seed=random_seed)
    pool_enc = pool.encoding()
    test_enc = CrfModel(extractor=extractor).encode(test_utts) if tagger is None else test_utts
    gold_test = [list(u.tags or ()) for u in test_utts]

    def train(indices: np.ndarray) -> CrfModel:
        if tagger is not None:
            return tagger.train(indices)  # type: ignore[return-value]
        data = [pool_utts[i] for i in indices]
        model = settings.new_model(extractor)
        return model.fit(data, enc=pool_enc.subset(indices))

    n_rounds = 1 + int(np.ceil((cap - seed_size) / batch))
    total = 1 + len(seed_objs) * len(query_objs) * repeats * n_rounds
    done = 0

    def tick(msg: str) -> None:
        nonlocal done
        done += 1
        if progress:
            progress(done, total, msg)

    full = _evaluate(train(np.arange(n_pool)), test_enc, gold_test)
    tick("full-data model")

    rows: list[dict] = []
    curves: list[Curve] = []
    all_idx = np.arange(n_pool)
    for s_obj in seed_objs:
        seeds_cache: dict[int, np.ndarray] = {}
        for q_obj in query_objs:
            per_run: list[list[tuple[int, float, float, float]]] = []
            for rep in range(repeats):
                rng = np.random.default_rng([random_seed, rep])
                if rep not in seeds_cache:  # same seed for every query strategy in a repeat
                    pool.set_target(None)
                    seeds_cache[rep] = s_obj.select(pool, all_idx, seed_size, np.random.default_rng([random_seed, rep, 7])).indices
                labelled = list(seeds_cache[rep])
                mask = np.zeros(n_pool, bool)
                mask[labelled] = True
                points = []
                while True:
                    model = train(np.array(labelled))
                    sc = _evaluate(model, test_enc, gold_test)
                    points.append((len(labelled), sc.precision, sc.recall, sc.f1))
                    rows.append({"seed_strategy": s_obj.spec, "strategy": q_obj.spec, "repeat": rep,
                                 "n_labeled": len(labelled), "precision": sc.precision, "recall": sc.recall,
                                 "f1": sc.f1, "anon_f1": sc.anon_f1})
                    tick(f"{s_obj.spec} -> {q_obj.spec} #{rep + 1}: {len(labelled)} labels, F1 {sc.f1:.3f}")
                    if len(labelled) >= cap or mask.all():
                        break
                    pool.set_target(model)
                    want = min(batch, cap - len(labelled))
                    sel = q_obj.select(pool, np.flatnonzero(~mask), want, rng)
                    labelled += sel.indices.tolist()
                    mask[sel.indices] = True
                pool.set_target(None)
                per_run.append(points)
            curves.append(_aggregate(s_obj.spec, q_obj.spec, per_run))
    result = SimulationResult(full=full, pool_size=n_pool, test_size=len(test_utts), curves=curves, runs=rows,
                              settings={"strategies": [q.spec for q in query_objs],
                                        "seed_strategies": [s.spec for s in seed_objs],
                                        "seed_size": seed_size, "batch": batch, "repeats": repeats,
                                        "max_labels": cap, "mode": mode, "features": extractor.config.to_dict(),
                                        "training": settings.to_dict(), "random_seed": random_seed,
                                        "learner": learner,
                                        "source": None if src_model is None else src_model.info.get("name", "custom")})
    result.seconds = time.perf_counter() - started
    if out_dir is not None:
        write_outputs(result, out_dir)
    return result


def _aggregate(seed_spec: str, spec: str, runs: list[list[tuple[int, float, float, float]]]) -> Curve:
    length = min(len(r) for r in runs)
    arr = np.array([r[:length] for r in runs], dtype=float)  # (repeats, points, 4)
    mean, sd = arr.mean(0), arr.std(0)
    return Curve(seed_spec, spec, mean[:, 0].round().astype(int), mean[:, 1], mean[:, 2], mean[:, 3],
                 sd[:, 1], sd[:, 2], sd[:, 3], len(runs))


def write_outputs(result: SimulationResult, out_dir: str | Path) -> Path:
    """curve.csv (n_labeled, precision, recall, f1 first), runs.csv, summary.json, curve.png."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    with (out / "curve.csv").open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["n_labeled", "precision", "recall", "f1", "precision_sd", "recall_sd", "f1_sd",
                    "strategy", "seed_strategy", "runs"])
        for c in result.curves:
            for i in range(len(c.n_labeled)):
                w.writerow([int(c.n_labeled[i]), f"{c.precision[i]:.5f}", f"{c.recall[i]:.5f}", f"{c.f1[i]:.5f}",
                            f"{c.precision_sd[i]:.5f}", f"{c.recall_sd[i]:.5f}", f"{c.f1_sd[i]:.5f}",
                            c.strategy, c.seed_strategy, c.runs])
    with (out / "runs.csv").open("w", newline="", encoding="utf-8") as fh:
        fields = ["seed_strategy", "strategy", "repeat", "n_labeled", "precision", "recall", "f1", "anon_f1"]
        w = csv.DictWriter(fh, fieldnames=fields)
        w.writeheader()
        w.writerows(result.runs)
    summary = {"full": result.full.to_dict(), "pool_size": result.pool_size, "test_size": result.test_size,
               "settings": result.settings, "seconds": round(result.seconds, 1), "pairs": result.summary()}
    (out / "summary.json").write_text(json.dumps(summary, indent=1), encoding="utf-8")
    from redactdesk.learn.plot import plot_curves

    plot_curves(result, out / "curve.png")
    return out


def _split(values: Sequence[str]) -> list[str]:
    return [s for v in values for s in v.split(",") if s.strip()]


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="redactdesk simulate",
                                description="Simulated active learning on a labelled corpus (CoNLL or JSONL).")
    p.add_argument("--train", required=True, help="pool: CoNLL (token TAB tag, IOB2) or JSONL {tokens, tags}")
    p.add_argument("--test", required=True, help="held-out test set, same formats")
    p.add_argument("--strategy", action="append", default=None,
                   help="query strategy, repeatable or comma-separated (default: random,t-sum,diverse+t-sum,t-sum*s-sum)")
    p.add_argument("--seed-strategy", action="append", default=None,
                   help="seed strategy, repeatable or comma-separated (default: random,kmeans+s-sum)")
    p.add_argument("--seed-size", type=int, default=10)
    p.add_argument("--batch", type=int, default=10)
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--max-labels", type=float, default=0.15,
                   help="stop each run at this many labels (a fraction <= 1 of the pool, or a count)")
    p.add_argument("--source", default="bundled",
                   help="source model for s- strategies: a model file, 'bundled' (English), 'bundled:es' or 'none'")
    p.add_argument("--mode", choices=("binary", "multi"), default="multi",
                   help="token entropy over all labels (multi) or anon/not as in the thesis (binary)")
    p.add_argument("--spacy", action="store_true", help="add spaCy POS/NER features (slower)")
    p.add_argument("--fast", action="store_true",
                   help="fast features: spoken-run hits instead of detect's patterns (and no spaCy)")
    p.add_argument("--max-iterations", type=int, default=None, help="L-BFGS iterations per training")
    p.add_argument("--random-seed", type=int, default=0)
    p.add_argument("--learner", action="append", choices=("crf", "tagger"), default=None,
                   help="crf (baseline, retrained each round) or tagger (the bundled tagger fine-tuned round by "
                        "round); repeat to compare both (one output folder each: OUT/crf, OUT/tagger)")
    p.add_argument("--out", required=True, help="output folder for curve.csv, curve.png, runs.csv, summary.json")
    p.add_argument("--quiet", action="store_true")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    strategies = _split(args.strategy or ["random,t-sum,diverse+t-sum,t-sum*s-sum"])
    seed_strategies = _split(args.seed_strategy or ["random,kmeans+s-sum"])
    source = None if args.source.lower() == "none" else args.source
    training = TrainingSettings()
    if args.max_iterations:
        training = TrainingSettings(max_iterations=args.max_iterations)

    def progress(done: int, total: int, msg: str) -> None:
        if not args.quiet:
            print(f"\r[{done}/{total}] {msg[:90]:<90}", end="", file=sys.stderr, flush=True)

    learners = list(dict.fromkeys(args.learner or ["crf"]))
    for name in learners:
        out = Path(args.out) / name if len(learners) > 1 else Path(args.out)
        try:
            result = run_simulation(args.train, args.test, strategies, args.seed_size, args.batch, args.repeats,
                                    out, seed_strategies, max_labels=args.max_labels, source=source,
                                    features=FeatureConfig.fast(spacy=args.spacy) if args.fast else FeatureConfig(spacy=args.spacy),
                                    training=training, mode=args.mode,
                                    random_seed=args.random_seed, progress=progress, learner=name)
        except LearnError as exc:
            print(f"\nredactdesk simulate: {exc}", file=sys.stderr)
            return 2
        if not args.quiet:
            print(file=sys.stderr)
        if len(learners) > 1:
            print(f"learner: {name}")
        print(result.table())
        print(f"\nwrote {out / 'curve.csv'} and curve.png ({result.seconds:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
