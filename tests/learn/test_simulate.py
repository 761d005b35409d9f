"""The simulation: a tiny run writes the contract's files; the CLI entry point parses and reports."""

from __future__ import annotations

import csv

from redactdesk.learn.corpus_io import write_conll
from redactdesk.learn.make_data import make_data
from redactdesk.learn.simulate import main, run_simulation
from redactdesk.learn.training import TrainingSettings


def test_run_simulation_writes_curve_files(tmp_path, train_utts, test_utts, trained):
    res = run_simulation(train_utts[:240], test_utts[:80], ["random", "t-sum", "t-kmax*s-sum"], seed_size=20,
                         batch=20, repeats=2, out_dir=tmp_path / "out", seed_strategy=["random", "kmeans+s-sum"],
                         max_labels=60, source=trained, training=TrainingSettings(max_iterations=15))
    assert len(res.curves) == 6
    for c in res.curves:
        assert c.n_labeled.tolist() == [20, 40, 60] and c.runs == 2
        assert ((0 <= c.f1) & (c.f1 <= 1)).all()
    with (tmp_path / "out" / "curve.csv").open() as fh:
        rows = list(csv.DictReader(fh))
    assert list(rows[0])[:4] == ["n_labeled", "precision", "recall", "f1"] and len(rows) == 18
    assert (tmp_path / "out" / "curve.png").stat().st_size > 10_000
    assert "labels to 95%" in res.table()
    # the seed is shared by every query strategy of one repeat: same first point
    firsts = {c.strategy: c.f1[0] for c in res.curves if c.seed_strategy == "random"}
    assert len(set(firsts.values())) == 1


def test_cli_main_on_generated_data(tmp_path, capsys):
    train, test, n_train, n_test = make_data(tmp_path / "data", calls=8, seed=100_200, test_fraction=0.25)
    assert n_train > n_test > 0 and train.suffix == ".conll"
    code = main(["--train", str(train), "--test", str(test), "--strategy", "random", "--strategy", "t-sum",
                 "--seed-strategy", "random", "--seed-size", "10", "--batch", "10", "--repeats", "1", "--max-labels", "30",
                 "--max-iterations", "10", "--source", "none", "--out", str(tmp_path / "o"), "--quiet"])
    out = capsys.readouterr().out
    assert code == 0 and "full-data model" in out and (tmp_path / "o" / "curve.csv").exists()


def test_cli_reports_bad_input(tmp_path, capsys):
    bad = tmp_path / "bad.conll"
    bad.write_text("token without tab\n", encoding="utf-8")
    write_conll([], tmp_path / "empty.conll")
    code = main(["--train", str(bad), "--test", str(bad), "--out", str(tmp_path / "o"), "--quiet",
                 "--strategy", "random", "--source", "none"])
    assert code == 2 and "bad.conll:1" in capsys.readouterr().err
    code = main(["--train", str(tmp_path / "empty.conll"), "--test", str(bad), "--out", str(tmp_path / "o"),
                 "--quiet", "--strategy", "t-sum*s-sum", "--source", "none"])
    assert code == 2


def test_simulation_with_the_tagger_learner(tmp_path, train_utts, test_utts):
    """The tagger learner runs the same rounds: warm-started (its seed point already finds names) and
    updated round by round; the settings record which learner ran."""
    res = run_simulation(train_utts[:40], test_utts[:20], ["random", "t-kmax"], seed_size=5, batch=5, repeats=1,
                         out_dir=tmp_path / "tagger", seed_strategy="kmeans+s-kmax", max_labels=10,
                         learner="tagger")
    assert res.settings["learner"] == "tagger" and len(res.curves) == 2
    for c in res.curves:
        assert c.n_labeled.tolist() == [5, 10]
        assert c.f1[0] > 0  # 5 labels: the bundled tagger's knowledge, not a model from 5 sentences
    assert (tmp_path / "tagger" / "curve.csv").exists()


def test_a_curve_that_touches_the_target_once_has_not_reached_it_to_hold():
    import numpy as np

    from redactdesk.learn.metrics import Scores
    from redactdesk.learn.simulate import Curve, SimulationResult

    def curve(seed, query, f1):
        f1 = np.asarray(f1)
        z = np.zeros_like(f1)
        return Curve(seed, query, np.array([15, 30, 45, 60]), f1, f1, f1, z, z, z, 3)

    full = Scores(precision=1.0, recall=1.0, f1=1.0, anon_f1=1.0)
    sampling = curve("random", "random", [0.90, 0.93, 0.96, 0.94])  # touches 95% at 45, falls back
    strategy = curve("kmeans+s-sum", "diverse+t-kmax", [0.91, 0.95, 0.96, 0.97])  # holds it from 30
    res = SimulationResult(full=full, pool_size=600, test_size=100, curves=[sampling, strategy])
    assert sampling.labels_to_reach(0.95) == 45 and sampling.labels_to_hold(0.95) is None
    assert strategy.labels_to_hold(0.95) == 30
    row = {r["strategy"]: r for r in res.summary()}["diverse+t-kmax"]
    assert row["labels_holding_95"] == 30 and abs(row["vs_random_sampling_95"] - 30 / 45) < 1e-9
    assert "vs sampling" in res.table() and "0.67x" in res.table()
