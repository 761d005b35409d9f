"""Seed and query strategies (seed 004, 5.1 and 5.4), behind one small registry.

A strategy picks ``n`` utterances from the unlabelled candidates of a :class:`Pool`. Strategies are
named by short specs:

=====================  ===================================================================
``random``             passive baseline (seed or query)
``longest``            most words first (seed)
``kmeans``             K-means with K = n, the utterance nearest each centroid (K-MC)
``t-sum`` ``t-kmax``   target-model entropy, H Sum / H K-Max (also ``t-mean``, ``t-max``)
``s-sum`` ``s-kmax``   source-model entropy (knowledge transfer; usable before any label)
``t-sum*s-sum``        product of target and source entropies (any ``*``-joined terms)
``d-kmax`` ``d-sum``   source disagreement: vote entropy of learner, source model and detection
                       vote per word (:mod:`redactdesk.learn.disagreement`; also ``d-mean``, ``d-max``)
``t-kmax*d-kmax``      uncertainty x disagreement
``length*s-sum``       rescaled length x entropy (the thesis' length combination)
``kmeans+s-sum``       Eq. 1: per cluster, argmin ||c_k - I|| * (1 - rescale(H(I)))
``diverse+t-sum``      best-scored first, skipping near-duplicates of the batch (cosine >= 0.5 by
                       default; ``diverse@0.7+t-sum`` sets it) -- of TF-IDF feature bags, or of the
                       tagger's own embeddings when the learner is the tagger (then >= 0.8)
=====================  ===================================================================

``get_strategy(spec)`` parses a spec; ``register_strategy`` adds a new kind under a new prefix.
Each strategy has ``name``, ``validate(params)`` and ``apply(pool, candidates, n, rng)``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import scipy.sparse as sp

from redactdesk.learn.crf import CrfModel, Encoded, Marginals
from redactdesk.learn.entropy import SCORERS, rescale, sequence_scores, token_entropy, utterance_margins
from redactdesk.learn.errors import StrategyError
from redactdesk.learn.features import FeatureExtractor
from redactdesk.learn.utterances import Utterance
from redactdesk.learn.vectors import bag_of_atoms, dense_projection, kmeans_labels

# Near-duplicate threshold of diverse+: cosine of TF-IDF atom bags. Generated calls put turns of one
# template at 0.5-0.7, so 0.9 only caught verbatim repeats; 0.3-0.6 worked alike on a development
# set of generated calls (seeds 200000..), 0.5 is the middle.
DIVERSE_THRESHOLD = 0.5
# With the tagger's embeddings (centred, unit length) the near-duplicate threshold is at least this: on
# generated calls one template's turns sit at 0.9-1.0, and 11 % of all pairs reach 0.5.
EMBED_THRESHOLD = 0.8


@dataclass
class Selection:
    """Chosen pool indices, best first, with the score each was chosen by (higher = wanted more)."""

    indices: np.ndarray
    scores: np.ndarray


@dataclass
class Pool:
    """Every utterance strategies may choose from, plus cached views (vectors, model scores).

    ``target`` is the model being trained (None before the first labels); ``source`` is the
    transferred model. Encodings are cached per feature extractor, so retraining the target with
    the same extractor never re-featurises the pool.

    Either may also be the fine-tuned transcript tagger (:class:`~redactdesk.learn.tagger_model.TaggerModel`):
    its token distributions feed the same entropy scorers, and its own token vectors (mean per
    utterance) replace the feature-bag projection for K-means seeds -- the tagger's view of which
    utterances are alike.
    """

    utterances: Sequence[Utterance]
    extractor: FeatureExtractor
    target: CrfModel | None = None
    source: CrfModel | None = None
    mode: str = "binary"
    seed: int = 0
    _enc: dict[int, tuple[FeatureExtractor, Encoded]] = field(default_factory=dict, repr=False)
    _marg: dict[int, Marginals] = field(default_factory=dict, repr=False)
    _scores: dict[tuple[int, str], np.ndarray] = field(default_factory=dict, repr=False)
    _bag: sp.csr_matrix | None = field(default=None, repr=False)
    _vec: np.ndarray | None = field(default=None, repr=False)
    _emb: dict[int, np.ndarray] = field(default_factory=dict, repr=False)

    def __len__(self) -> int:
        return len(self.utterances)

    def encoding(self, extractor: FeatureExtractor | None = None) -> Encoded:
        ext = extractor or self.extractor
        hit = self._enc.get(id(ext))
        if hit is None:
            hit = (ext, CrfModel(extractor=ext).encode(self.utterances))  # keeps ext alive: ids stay unique
            self._enc[id(ext)] = hit
        return hit[1]

    @property
    def lengths(self) -> np.ndarray:
        return self.encoding().lengths

    def set_target(self, model: CrfModel | None) -> None:
        """A newly trained target model: drop its predecessor's cached scores."""
        if self.target is not None:
            self._marg.pop(id(self.target), None)
            self._emb.pop(id(self.target), None)
            for key in [k for k in self._scores if k[0] == id(self.target)]:
                del self._scores[key]
        self.target = model

    def model(self, who: str) -> Any:
        m = {"t": self.target, "s": self.source}.get(who)
        if m is None:
            what = "a trained target model (label a seed first)" if who == "t" else "a source model"
            raise StrategyError(f"this strategy needs {what}")
        return m

    def marginals(self, who: str) -> Marginals:
        m = self.model(who)
        marg = self._marg.get(id(m))
        if marg is None:
            if hasattr(m, "analyse"):  # the tagger: reads the words, gives embeddings in the same pass
                marg, self._emb[id(m)] = m.analyse(self.utterances)
            else:
                marg = m.marginals(self.encoding(m.extractor))
            self._marg[id(m)] = marg
        return marg

    def entropy(self, who: str, scorer: str) -> np.ndarray:
        """Sequence entropy of every pool utterance under the target (``t``) or source (``s``) model."""
        m = self.model(who)
        key = (id(m), f"{scorer}:{self.mode}")
        out = self._scores.get(key)
        if out is None:
            marg = self.marginals(who)
            h = token_entropy(marg.probs, marg.outside, self.mode)
            out = sequence_scores(h, marg.starts, marg.lengths, scorer)
            self._scores[key] = out
        return out

    def disagreement(self, scorer: str) -> np.ndarray:
        """Vote entropy per utterance among the learner, the source model and the detection vote."""
        from redactdesk.learn.disagreement import VOTE_TAGS, categories_from_marginals, vote_entropy
        from redactdesk.learn.tags import category_of

        voters = []  # not cached: the detection vote changes with every decision
        for who, m in (("t", self.target), ("s", self.source)):
            if m is not None:
                marg = self.marginals(who)
                voters.append((marg, categories_from_marginals(marg.probs, marg.labels)))
        lengths = np.array([len(u.tokens) for u in self.utterances], dtype=np.int64)
        starts = np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(np.int64) if len(lengths) else lengths
        flat = np.zeros(int(lengths.sum()))
        for k, u in enumerate(self.utterances):
            votes = [cats[int(m.starts[k]):int(m.starts[k]) + int(m.lengths[k])] for m, cats in voters]
            vote = (u.meta or {}).get(VOTE_TAGS)
            if vote is not None and len(vote) == len(u.tokens):
                votes.append([category_of(t) or "O" for t in vote])
            flat[starts[k]:starts[k] + lengths[k]] = vote_entropy(votes) if votes else 0.0
        return sequence_scores(flat, starts, lengths, scorer)

    def margins(self, who: str = "t") -> np.ndarray:
        marg = self.marginals(who)
        return utterance_margins(marg.probs, marg.starts, marg.lengths)

    def bag(self) -> sp.csr_matrix:
        if self._bag is None:
            self._bag = bag_of_atoms(self.encoding(), self.extractor)
        return self._bag

    def unit_embeddings(self) -> np.ndarray | None:
        """The tagger's utterance embeddings, centred on the pool's mean and of unit length (cosine =
        dot product), or None when the pool has no tagger."""
        for who in ("t", "s"):
            m = {"t": self.target, "s": self.source}[who]
            if m is not None and hasattr(m, "analyse"):
                self.marginals(who)
                x = self._emb[id(m)]
                x = x - x.mean(axis=0)
                return x / np.maximum(np.linalg.norm(x, axis=1, keepdims=True), 1e-12)
        return None

    def vectors(self) -> np.ndarray:
        """Utterance vectors for K-means: the tagger's own embeddings when the pool has a tagger
        (the target once trained, else the source), else a projection of the feature bags."""
        for who in ("t", "s"):
            m = {"t": self.target, "s": self.source}[who]
            if m is not None and hasattr(m, "analyse"):
                self.marginals(who)
                return self._emb[id(m)]
        if self._vec is None:
            self._vec = dense_projection(self.bag(), seed=self.seed)
        return self._vec


def top_n(scores: np.ndarray, candidates: np.ndarray, n: int, rng: np.random.Generator) -> Selection:
    """The ``n`` best-scored candidates, ties broken at random."""
    s = scores[candidates]
    order = np.lexsort((rng.random(len(candidates)), -s))[:n]
    return Selection(candidates[order], s[order])


class Strategy:
    """Base of all strategies: ``name``, ``validate(params)``, ``apply(pool, candidates, n, rng)``."""

    name = ""
    description = ""

    def __init__(self, **params: object) -> None:
        self.params = self.validate(dict(params))

    @classmethod
    def validate(cls, params: dict) -> dict:
        if params:
            raise StrategyError(f"strategy {cls.name!r} takes no parameters (got {sorted(params)})")
        return params

    def needs(self) -> set[str]:
        """Which models it needs: ``t`` (target) and/or ``s`` (source)."""
        return set()

    @property
    def spec(self) -> str:
        return self.name

    def apply(self, pool: Pool, candidates: np.ndarray, n: int, rng: np.random.Generator) -> Selection:
        raise NotImplementedError

    def select(self, pool: Pool, candidates: Sequence[int] | np.ndarray, n: int,
               rng: np.random.Generator | int | None = None) -> Selection:
        """Checked entry point: ``n`` distinct candidates (all of them when fewer remain)."""
        cand = np.asarray(candidates, dtype=np.int64)
        gen = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)
        if n <= 0 or len(cand) == 0:
            return Selection(np.zeros(0, np.int64), np.zeros(0))
        for who in self.needs():
            pool.model(who)
        sel = self.apply(pool, cand, min(n, len(cand)), gen)
        assert len(set(sel.indices.tolist())) == len(sel.indices), "strategy chose an utterance twice"
        return sel

    def __repr__(self) -> str:
        return f"<strategy {self.spec}>"


class RandomStrategy(Strategy):
    name = "random"
    description = "passive baseline: utterances at random"

    def apply(self, pool: Pool, candidates: np.ndarray, n: int, rng: np.random.Generator) -> Selection:
        chosen = rng.choice(candidates, size=n, replace=False)
        return Selection(chosen, np.zeros(n))


class LongestStrategy(Strategy):
    name = "longest"
    description = "the utterances with the most words"

    def apply(self, pool: Pool, candidates: np.ndarray, n: int, rng: np.random.Generator) -> Selection:
        return top_n(pool.lengths.astype(float), candidates, n, rng)


_TERM = re.compile(r"^(?:(t|s|d)-(sum|mean|kmax|max)|length)$")


class ProductStrategy(Strategy):
    """Product of entropy terms (``t-sum``, ``s-kmax``) and optionally the rescaled ``length``."""

    name = "entropy"
    description = "uncertainty: product of target/source sequence entropies (and rescaled length)"

    @classmethod
    def validate(cls, params: dict) -> dict:
        terms = params.get("terms")
        if not terms or not isinstance(terms, (list, tuple)):
            raise StrategyError("an entropy strategy needs terms such as ['t-sum', 's-sum']")
        for t in terms:
            if not isinstance(t, str) or not _TERM.match(t):
                raise StrategyError(f"bad entropy term {t!r}: use t-<scorer>, s-<scorer>, d-<scorer> or length "
                                    f"(scorers: {', '.join(SCORERS)})")
        unknown = set(params) - {"terms"}
        if unknown:
            raise StrategyError(f"unknown parameters {sorted(unknown)}")
        return {"terms": list(terms)}

    def needs(self) -> set[str]:
        return {t[0] for t in self.params["terms"] if t != "length" and t[0] != "d"}

    @property
    def spec(self) -> str:
        return "*".join(self.params["terms"])

    def scores(self, pool: Pool) -> np.ndarray:
        out = np.ones(len(pool))
        for t in self.params["terms"]:
            if t == "length":
                out = out * rescale(pool.lengths.astype(float))
            elif t.startswith("d-"):
                out = out * pool.disagreement(t[2:])
            else:
                who, scorer = t.split("-")
                out = out * pool.entropy(who, scorer)
        return out

    def apply(self, pool: Pool, candidates: np.ndarray, n: int, rng: np.random.Generator) -> Selection:
        return top_n(self.scores(pool), candidates, n, rng)


class KMeansStrategy(Strategy):
    """K-MC (K = n clusters, nearest to each centroid), optionally weighted by entropy (Eq. 1)."""

    name = "kmeans"
    description = "input diversity: K-means with K = batch size, nearest utterance to each centroid"

    @classmethod
    def validate(cls, params: dict) -> dict:
        inner = params.get("inner")
        if inner is not None and not isinstance(inner, ProductStrategy):
            raise StrategyError("kmeans+ combines with an entropy expression, e.g. kmeans+s-sum")
        unknown = set(params) - {"inner"}
        if unknown:
            raise StrategyError(f"unknown parameters {sorted(unknown)}")
        return {"inner": inner}

    def needs(self) -> set[str]:
        inner = self.params["inner"]
        return inner.needs() if inner else set()

    @property
    def spec(self) -> str:
        inner = self.params["inner"]
        return f"kmeans+{inner.spec}" if inner else "kmeans"

    def apply(self, pool: Pool, candidates: np.ndarray, n: int, rng: np.random.Generator) -> Selection:
        x = pool.vectors()[candidates]
        labels, centres = kmeans_labels(x, n, seed=int(rng.integers(2**31)))
        dist = np.linalg.norm(x - centres[labels], axis=1)
        inner = self.params["inner"]
        h = inner.scores(pool)[candidates] if inner else np.zeros(len(candidates))
        crit = dist * (1.0 - rescale(h)) if inner else dist
        chosen: list[int] = []
        for k in range(centres.shape[0]):
            members = np.flatnonzero(labels == k)
            if len(members):
                chosen.append(int(members[np.argmin(crit[members])]))
        if len(chosen) < n:  # fewer non-empty clusters than wanted: top up by the criterion
            rest = np.setdiff1d(np.arange(len(candidates)), chosen)
            chosen += rest[np.argsort(crit[rest])][: n - len(chosen)].tolist()
        chosen_arr = np.array(chosen[:n], dtype=np.int64)
        order = np.argsort(-h[chosen_arr] if inner else dist[chosen_arr], kind="stable")
        chosen_arr = chosen_arr[order]
        return Selection(candidates[chosen_arr], (h if inner else -dist)[chosen_arr])


class DiverseStrategy(Strategy):
    """Best-scored first, skipping candidates too similar to one already in the batch."""

    name = "diverse"
    description = "uncertainty with a diversity-aware batch: no near-duplicate utterances"

    @classmethod
    def validate(cls, params: dict) -> dict:
        inner = params.get("inner")
        if not isinstance(inner, ProductStrategy):
            raise StrategyError("diverse+ needs an entropy expression, e.g. diverse+t-sum")
        threshold = float(params.get("threshold", DIVERSE_THRESHOLD))
        if not 0.0 < threshold <= 1.0:
            raise StrategyError("the near-duplicate threshold must be in (0, 1]")
        unknown = set(params) - {"inner", "threshold"}
        if unknown:
            raise StrategyError(f"unknown parameters {sorted(unknown)}")
        return {"inner": inner, "threshold": threshold}

    def needs(self) -> set[str]:
        return self.params["inner"].needs()

    @property
    def spec(self) -> str:
        thr = self.params["threshold"]
        head = "diverse" if thr == DIVERSE_THRESHOLD else f"diverse@{thr:g}"
        return f"{head}+{self.params['inner'].spec}"

    def apply(self, pool: Pool, candidates: np.ndarray, n: int, rng: np.random.Generator) -> Selection:
        ranked = top_n(self.params["inner"].scores(pool), candidates, len(candidates), rng)
        threshold = self.params["threshold"]
        unit = pool.unit_embeddings()
        if unit is not None:  # the tagger's own view of which turns are alike
            return self._apply_dense(ranked, unit, max(threshold, EMBED_THRESHOLD), n)
        bag = pool.bag()
        chosen: list[int] = []
        skipped: list[int] = []
        picked = sp.csr_matrix((0, bag.shape[1]))
        for idx in ranked.indices:
            row = bag[int(idx)]
            if picked.shape[0] and (picked @ row.T).max() >= threshold:
                skipped.append(int(idx))
                continue
            chosen.append(int(idx))
            picked = sp.vstack([picked, row]).tocsr()
            if len(chosen) == n:
                break
        chosen += skipped[: n - len(chosen)]
        score_of = dict(zip(ranked.indices.tolist(), ranked.scores.tolist(), strict=True))
        idx_arr = np.array(chosen, dtype=np.int64)
        return Selection(idx_arr, np.array([score_of[i] for i in chosen]))


    @staticmethod
    def _apply_dense(ranked: Selection, unit: np.ndarray, threshold: float, n: int) -> Selection:
        chosen: list[int] = []
        skipped: list[int] = []
        for idx in ranked.indices.tolist():
            if chosen and float((unit[chosen] @ unit[idx]).max()) >= threshold:
                skipped.append(idx)
                continue
            chosen.append(idx)
            if len(chosen) == n:
                break
        chosen += skipped[: n - len(chosen)]
        score_of = dict(zip(ranked.indices.tolist(), ranked.scores.tolist(), strict=True))
        return Selection(np.array(chosen, dtype=np.int64), np.array([score_of[i] for i in chosen]))


_REGISTRY: dict[str, Callable[[str], Strategy]] = {}


def register_strategy(prefix: str, factory: Callable[[str], Strategy]) -> None:
    """Make ``factory(rest_of_spec)`` handle specs ``prefix`` and ``prefix+...``."""
    if prefix in _REGISTRY:
        raise StrategyError(f"a strategy named {prefix!r} is already registered")
    _REGISTRY[prefix] = factory


def _product(spec: str) -> ProductStrategy:
    return ProductStrategy(terms=spec.split("*"))


def get_strategy(spec: str | Strategy) -> Strategy:
    """Parse a strategy spec (see the module docstring)."""
    if isinstance(spec, Strategy):
        return spec
    s = str(spec).strip().lower().replace(" ", "")
    if s in ("random", "passive"):
        return RandomStrategy()
    if s in ("longest", "length"):
        return LongestStrategy()
    if s in ("kmeans", "k-mc", "kmc"):
        return KMeansStrategy()
    head, plus, rest = s.partition("+")
    if plus and head in ("kmeans", "k-mc", "kmc"):
        return KMeansStrategy(inner=_product(rest))
    if plus and head.startswith("diverse"):
        _, _, thr = head.partition("@")
        try:
            threshold = float(thr) if thr else DIVERSE_THRESHOLD
        except ValueError:
            raise StrategyError(f"bad near-duplicate threshold in {spec!r} (e.g. diverse@0.7+t-sum)") from None
        return DiverseStrategy(inner=_product(rest), threshold=threshold)
    if head in _REGISTRY:
        return _REGISTRY[head](rest)
    if all(_TERM.match(t) for t in s.split("*")):
        return _product(s)
    raise StrategyError(
        f"unknown strategy {spec!r}: use random, longest, kmeans, t-sum, t-kmax, s-sum, t-sum*s-sum, "
        f"length*s-sum, kmeans+s-sum, diverse+t-sum, d-kmax, t-kmax*d-kmax (scorers: {', '.join(SCORERS)})")


SEED_STRATEGIES = ("random", "longest", "kmeans", "s-sum", "s-kmax", "s-mean", "s-max", "kmeans+s-sum",
                   "kmeans+s-kmax", "length*s-sum", "length*s-kmax")
QUERY_STRATEGIES = ("random", "t-sum", "t-kmax", "diverse+t-sum", "diverse+t-kmax", "t-sum*s-sum", "t-kmax*s-sum",
                    "t-sum*s-kmax", "t-kmax*s-kmax", "kmeans+t-sum", "kmeans+t-kmax", "d-kmax", "t-kmax*d-kmax")
