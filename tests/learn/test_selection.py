"""Each seed and query strategy's choice on a small hand-made pool."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

from redactdesk.learn.errors import StrategyError
from redactdesk.learn.features import FeatureExtractor
from redactdesk.learn.selection import (
    QUERY_STRATEGIES,
    SEED_STRATEGIES,
    DiverseStrategy,
    KMeansStrategy,
    Pool,
    ProductStrategy,
    get_strategy,
)
from redactdesk.learn.utterances import Utterance


class FakePool(Pool):
    """A pool whose model entropies, lengths and vectors are given directly."""

    def __init__(self, lengths, target=None, source=None, vectors=None):
        utts = [Utterance(tokens=["w"] * n) for n in lengths]
        super().__init__(utts, FeatureExtractor())
        self._len = np.array(lengths)
        self._h = {"t": target, "s": source}
        self._v = None if vectors is None else np.asarray(vectors, dtype=float)

    @property
    def lengths(self):
        return self._len

    def model(self, who):
        if self._h[who] is None:
            raise StrategyError(f"needs {who}")
        return object()

    def entropy(self, who, scorer):
        self.model(who)
        return np.asarray(self._h[who][scorer], dtype=float)

    def vectors(self):
        return self._v

    def bag(self):
        v = self._v / np.linalg.norm(self._v, axis=1, keepdims=True)
        return sp.csr_matrix(v)


ALL = np.arange(6)


def pick(spec, pool, n, cand=ALL, seed=0):
    return get_strategy(spec).select(pool, cand, n, np.random.default_rng(seed)).indices.tolist()


def test_random_is_reproducible_and_distinct():
    pool = FakePool([3] * 6)
    a, b = pick("random", pool, 4, seed=1), pick("random", pool, 4, seed=1)
    assert a == b and len(set(a)) == 4 and set(a) <= set(ALL.tolist())
    assert pick("random", pool, 10) and len(pick("random", pool, 10)) == 6  # never more than exist


def test_longest_picks_the_longest():
    pool = FakePool([3, 9, 1, 7, 2, 8])
    assert pick("longest", pool, 3) == [1, 5, 3]
    assert pick("longest", pool, 2, cand=np.array([0, 2, 4])) == [0, 4]


def test_target_sum_and_kmax_disagree_on_long_vs_sharp():
    # utterance 0: many slightly uncertain words (large sum); utterance 1: three very uncertain words
    t = {"sum": [3.0, 2.4, 0.1, 0.0, 0.5, 0.2], "kmax": [0.3, 0.8, 0.03, 0.0, 0.17, 0.07]}
    pool = FakePool([30, 3, 3, 3, 3, 3], target=t)
    assert pick("t-sum", pool, 1) == [0]
    assert pick("t-kmax", pool, 1) == [1]
    assert pick("t-sum", pool, 3) == [0, 1, 4]


def test_target_strategies_need_a_target_model():
    with pytest.raises(StrategyError, match="needs"):
        pick("t-sum", FakePool([3] * 6), 2)


def test_target_times_source_product():
    t = {"sum": [1.0, 2.0, 3.0, 0.0, 1.0, 1.0]}
    s = {"sum": [1.0, 0.1, 0.2, 5.0, 2.0, 0.5]}  # products: 1, .2, .6, 0, 2, .5
    pool = FakePool([3] * 6, target=t, source=s)
    assert pick("t-sum*s-sum", pool, 3) == [4, 0, 2]
    assert pick("s-sum", pool, 2) == [3, 4]


def test_length_times_source_entropy():
    s = {"sum": [1.0, 1.0, 4.0, 1.5, 0.0, 1.0]}
    pool = FakePool([2, 10, 2, 6, 10, 4], source=s)  # rescaled lengths: 0, 1, 0, .5, 1, .25
    assert pick("length*s-sum", pool, 2) == [1, 3]


def _clustered():
    # three clusters of three; the point nearest each centre (0, 3, 6) is not the most uncertain one
    vec = [[0, 0.2], [0, 1], [0, -1], [10, 0.2], [10, 1], [10, -1], [0, 20.2], [0, 21], [0, 19]]
    t = {"sum": [0.1, 0.95, 0.3, 0.2, 0.9, 0.05, 0.15, 0.1, 0.92]}
    return FakePool([3] * 9, target=t, source=t, vectors=vec)


def test_kmeans_centroids_one_per_cluster_nearest_centre():
    assert sorted(pick("kmeans", _clustered(), 3, cand=np.arange(9))) == [0, 3, 6]


def test_kmeans_with_entropy_follows_equation_1():
    # Eq. 1: argmin ||c_k - I|| * (1 - rescale(H(I))) per cluster; batch ordered most uncertain first
    assert pick("kmeans+t-sum", _clustered(), 3, cand=np.arange(9)) == [1, 8, 4]
    assert pick("kmeans+s-sum", _clustered(), 3, cand=np.arange(9)) == [1, 8, 4]
    # on a subset of candidates only those are clustered
    assert sorted(pick("kmeans", _clustered(), 2, cand=np.array([0, 1, 2, 6, 7, 8])))[0] == 0


def test_diverse_skips_near_duplicates():
    vec = [[1, 0], [1, 0.01], [0, 1], [1, 0.02], [0.7, 0.7], [0, 1.01]]
    t = {"sum": [0.9, 0.85, 0.5, 0.8, 0.3, 0.45]}
    pool = FakePool([3] * 6, target=t, vectors=vec)
    assert pick("t-sum", pool, 3) == [0, 1, 3]  # plain uncertainty: three copies of one utterance
    assert pick("diverse@0.9+t-sum", pool, 3) == [0, 2, 4]
    # the default threshold (0.5) also counts 4 (cosine 0.71 with 0) as a near-duplicate; when only
    # near-duplicates remain the batch is filled with the best of them
    assert pick("diverse+t-sum", pool, 3) == [0, 2, 1]
    assert len(pick("diverse+t-sum", pool, 6)) == 6
    assert get_strategy("diverse@0.7+t-kmax").spec == "diverse@0.7+t-kmax"
    with pytest.raises(StrategyError):
        get_strategy("diverse@x+t-sum")


def test_spec_parsing_and_errors():
    assert isinstance(get_strategy("t-sum*s-kmax"), ProductStrategy)
    assert get_strategy("t-sum*s-kmax").spec == "t-sum*s-kmax"
    assert isinstance(get_strategy("kmeans+s-sum"), KMeansStrategy)
    assert isinstance(get_strategy("diverse+t-kmax"), DiverseStrategy)
    assert get_strategy("passive").spec == "random"
    for spec in SEED_STRATEGIES + QUERY_STRATEGIES:
        assert get_strategy(spec).spec == spec
    for bad in ("t-median", "x-sum", "kmeans+banana", "diverse+random", ""):
        with pytest.raises(StrategyError):
            get_strategy(bad)
    with pytest.raises(StrategyError):
        ProductStrategy(terms=["t-sum"], extra=1)
