"""Knowledge transfer: the source model's uncertainty picks a different (informed) seed."""

from __future__ import annotations

import numpy as np
import pytest

from redactdesk.learn.crf import CrfModel
from redactdesk.learn.entropy import sequence_scores, token_entropy
from redactdesk.learn.errors import ModelError
from redactdesk.learn.features import FeatureExtractor
from redactdesk.learn.selection import Pool, get_strategy
from redactdesk.learn.transfer import bundled_source_path, import_project_model, load_source


def _seed(spec, pool, n=15, rng=3):
    return get_strategy(spec).select(pool, np.arange(len(pool)), n, np.random.default_rng(rng)).indices.tolist()


def test_transfer_changes_the_seed(trained, train_utts, test_utts):
    pool = Pool(test_utts, FeatureExtractor(), source=trained)
    seed = _seed("s-sum", pool)
    # the seed is exactly the pool's most uncertain utterances under the source model
    marg = trained.marginals(test_utts)
    h = sequence_scores(token_entropy(marg.probs, marg.outside), marg.starts, marg.lengths, "sum")
    assert sorted(seed) == sorted(np.argsort(-h, kind="stable")[:15].tolist()) or \
        min(h[seed]) >= np.sort(h)[-15] - 1e-12
    # without transfer the same rng gives a different seed; so does a different source model
    assert set(seed) != set(_seed("random", pool))
    assert set(_seed("kmeans+s-sum", pool)) != set(_seed("kmeans", pool))
    weak = CrfModel(c1=0.1, c2=0.05, max_iterations=20).fit(train_utts[:40])
    other = Pool(test_utts, FeatureExtractor(), source=weak)
    assert set(_seed("s-sum", other)) != set(seed)


@pytest.mark.parametrize("language", ["en", "es"])
def test_bundled_source_models_load_and_score(test_utts, language):
    path = bundled_source_path(language)
    if not path.is_file():
        pytest.skip("bundled source model not built")
    src = load_source(f"bundled:{language}")
    assert path.stat().st_size < 2 * 1024 * 1024  # all of resources/models stays well under 5 MB
    marg = src.marginals(test_utts[:20])
    assert marg.probs.shape[1] == len(src.labels) and "B-PERSON" in src.labels
    with pytest.raises(ModelError, match="no bundled source model"):
        bundled_source_path("fr")


def test_import_another_projects_model(tmp_path, trained):
    from redactdesk.store import Project

    with Project.create(tmp_path / "a.rdproj") as proj:
        with pytest.raises(ModelError, match="no trained model"):
            import_project_model(proj)
        mid = proj.save_model("active_learning", "crf", trained.to_bytes(), {"f1": 0.9}, 10)
    model = import_project_model(tmp_path / "a.rdproj")
    assert model.labels == trained.labels and model.info["name"] == f"a.rdproj#{mid}"
    with pytest.raises(ModelError):
        load_source(tmp_path / "missing.rdcrf")
