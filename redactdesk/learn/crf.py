"""The CRF: trained with sklearn-crfsuite, scored with a vectorised numpy forward-backward.

Training goes through ``sklearn_crfsuite.CRF`` (L-BFGS, elastic net). After training, the model's
state and transition weights are read back once; a token's emission score is then a sum of cached
per-signature vectors (one per window offset), so scoring a pool needs no Python feature strings
and the forward-backward / Viterbi recursions run as batched matrix products over utterances of
equal length. The results equal crfsuite's own marginals and Viterbi paths (checked in tests).

A model is stored as a small zip: ``model.crfsuite`` (crfsuite's own file) and ``meta.json``
(labels, feature configuration, training settings) -- no pickle, so importing another project's
model cannot run code.
"""

from __future__ import annotations

import io
import json
import os
import tempfile
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import scipy.sparse as sp

from redactdesk.learn.errors import ModelError
from redactdesk.learn.features import FeatureConfig, FeatureExtractor
from redactdesk.learn.tags import OUTSIDE, repair_iob2
from redactdesk.learn.utterances import Utterance

FORMAT = "redactdesk-crf"
FORMAT_VERSION = 1


@dataclass
class Encoded:
    """A batch of utterances as flat signature ids (what the fast scorer consumes)."""

    sigs: np.ndarray  # (n_tokens,) int32
    starts: np.ndarray  # (n_utts,) int64 offset of each utterance's first token
    lengths: np.ndarray  # (n_utts,) int64
    prefixes: list[tuple[str, ...]] = field(default_factory=list)  # utterance-level features

    @property
    def n_tokens(self) -> int:
        return int(self.sigs.shape[0])

    def __len__(self) -> int:
        return int(self.lengths.shape[0])

    def subset(self, idx: Sequence[int] | np.ndarray) -> Encoded:
        idx = np.asarray(idx, dtype=np.int64)
        lengths = self.lengths[idx]
        parts = [self.sigs[s:s + n] for s, n in zip(self.starts[idx], lengths, strict=True)]
        sigs = np.concatenate(parts) if parts else np.zeros(0, np.int32)
        starts = np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(np.int64) if len(idx) else lengths
        return Encoded(sigs, starts, lengths, [self.prefixes[i] for i in idx])


@dataclass
class Marginals:
    """Per-token label probabilities of a batch: ``probs[starts[u]:starts[u]+lengths[u]]``."""

    probs: np.ndarray  # (n_tokens, n_labels)
    starts: np.ndarray
    lengths: np.ndarray
    labels: list[str]

    def of(self, u: int) -> np.ndarray:
        s = int(self.starts[u])
        return self.probs[s:s + int(self.lengths[u])]

    def __len__(self) -> int:
        return int(self.lengths.shape[0])

    @property
    def outside(self) -> int:
        return self.labels.index(OUTSIDE) if OUTSIDE in self.labels else -1


class CrfModel:
    """A linear-chain CRF over IOB2 tags with the features of :mod:`redactdesk.learn.features`."""

    def __init__(self, config: FeatureConfig | None = None, *, c1: float = 0.05, c2: float = 0.01,
                 max_iterations: int = 100, max_copies: int | None = None,
                 extractor: FeatureExtractor | None = None) -> None:
        self.extractor = extractor or FeatureExtractor(config)
        self.config = self.extractor.config
        self.c1, self.c2, self.max_iterations = c1, c2, max_iterations
        self.max_copies = max_copies
        self.model_bytes: bytes | None = None
        self.labels: list[str] = []
        self.info: dict[str, Any] = {}
        self._reset_tables()

    def _reset_tables(self) -> None:
        self._attr_index: dict[str, int] = {}
        self._state: sp.csr_matrix | None = None
        self._trans: np.ndarray | None = None
        self._tables = np.zeros((len(self.extractor.offsets), 1, 0), dtype=np.float32)
        self._n_table_sigs = 0

    @property
    def trained(self) -> bool:
        return self.model_bytes is not None

    # ------------------------------------------------------------------ encoding
    def encode(self, utterances: Sequence[Utterance]) -> Encoded:
        sig_list = self.extractor.signatures(utterances)
        lengths = np.fromiter((len(s) for s in sig_list), dtype=np.int64, count=len(sig_list))
        starts = np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(np.int64) if len(lengths) else lengths
        sigs = np.concatenate(sig_list).astype(np.int32) if sig_list else np.zeros(0, np.int32)
        prefixes = [tuple(self.extractor.utterance_prefix(u)) for u in utterances]
        return Encoded(sigs, starts, lengths, prefixes)

    def crf_items(self, enc: Encoded) -> list[list[list[str]]]:
        """crfsuite item sequences for an encoded batch."""
        ext = self.extractor
        out = []
        for u in range(len(enc)):
            s = int(enc.starts[u])
            sigs = enc.sigs[s:s + int(enc.lengths[u])]
            base = list(enc.prefixes[u])
            sl = sigs.tolist()
            n = len(sl)
            seq = []
            for i in range(n):
                feats = list(base)
                for k, o in enumerate(ext.offsets):
                    j = i + o
                    if 0 <= j < n:
                        feats += ext._prefixed[k][sl[j]]
                seq.append(feats)
            out.append(seq)
        return out

    # ------------------------------------------------------------------ training
    def fit(self, utterances: Sequence[Utterance], enc: Encoded | None = None) -> CrfModel:
        """Train on labelled utterances (each must have tags)."""
        import sklearn_crfsuite

        data = [u for u in utterances if u.tokens]
        if not data:
            raise ModelError("no labelled utterances to train on")
        if any(u.tags is None for u in data):
            raise ModelError("every training utterance needs tags")
        enc = enc if enc is not None else self.encode(data)
        if self.max_copies:
            seen: dict[tuple, int] = {}
            keep = []
            for i, u in enumerate(data):
                key = (tuple(u.tokens), tuple(u.tags or ()), u.role)
                seen[key] = seen.get(key, 0) + 1
                if seen[key] <= self.max_copies:
                    keep.append(i)
            if len(keep) < len(data):
                data = [data[i] for i in keep]
                enc = enc.subset(keep)
        items = self.crf_items(enc)
        ys = [u.tags for u in data]
        with tempfile.TemporaryDirectory(prefix="redactdesk-crf-") as tmp:
            path = os.path.join(tmp, "model.crfsuite")
            crf = sklearn_crfsuite.CRF(algorithm="lbfgs", c1=self.c1, c2=self.c2,
                                       max_iterations=self.max_iterations,
                                       all_possible_transitions=True, model_filename=path)
            crf.fit(items, ys)
            crf.tagger_.close()
            self.model_bytes = Path(path).read_bytes()
        self.info = {"n_train": len(utterances), "n_used": len(data), "n_tokens": int(enc.n_tokens)}
        self._load_weights()
        return self

    def _tagger(self):  # noqa: ANN202 - pycrfsuite has no stubs
        import pycrfsuite

        if self.model_bytes is None:
            raise ModelError("the model has not been trained")
        tagger = pycrfsuite.Tagger()
        tagger.open_inmemory(self.model_bytes)
        return tagger

    def _load_weights(self) -> None:
        """Read the state and transition weights out of the crfsuite model."""
        tagger = self._tagger()
        try:
            info = tagger.info()
            self.labels = list(tagger.labels())
        finally:
            tagger.close()
        if OUTSIDE not in self.labels:
            self.labels.insert(0, OUTSIDE)
        self._reset_tables()
        li = {lab: i for i, lab in enumerate(self.labels)}
        rows, cols, vals = [], [], []
        attr_index = self._attr_index
        for (attr, label), w in info.state_features.items():
            a = attr_index.setdefault(attr, len(attr_index))
            rows.append(a)
            cols.append(li[label])
            vals.append(w)
        self._state = sp.csr_matrix((vals, (rows, cols)), shape=(len(attr_index), len(self.labels)))
        trans = np.zeros((len(self.labels), len(self.labels)))
        for (a, b), w in info.transitions.items():
            trans[li[a], li[b]] = w
        self._trans = trans
        self._tables = np.zeros((len(self.extractor.offsets), 1, len(self.labels)), dtype=np.float32)

    # ------------------------------------------------------------------ fast scoring
    def _ensure_tables(self) -> None:
        """Per-offset emission vectors for every signature interned so far (+ a zero row at the end)."""
        n_sig = self.extractor.n_signatures()
        if n_sig == self._n_table_sigs:
            return
        assert self._state is not None
        ext = self.extractor
        new = range(self._n_table_sigs, n_sig)
        tables = []
        for k in range(len(ext.offsets)):
            rows, cols = [], []
            for r, s in enumerate(new):
                for f in ext._prefixed[k][s]:
                    a = self._attr_index.get(f)
                    if a is not None:
                        rows.append(r)
                        cols.append(a)
            ind = sp.csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(len(new), self._state.shape[0]))
            block = np.asarray((ind @ self._state).todense(), dtype=np.float32)
            tables.append(np.concatenate([self._tables[k, :-1], block, np.zeros((1, len(self.labels)), np.float32)]))
        self._tables = np.stack(tables)
        self._n_table_sigs = n_sig

    def emissions(self, enc: Encoded) -> np.ndarray:
        """Unnormalised per-token label scores (n_tokens, n_labels)."""
        if self._state is None:
            raise ModelError("the model has not been trained")
        self._ensure_tables()
        n = enc.n_tokens
        zero_row = self._tables.shape[1] - 1
        tok_utt = np.repeat(np.arange(len(enc)), enc.lengths)
        pos = np.arange(n) - enc.starts[tok_utt]
        length = enc.lengths[tok_utt]
        out = np.zeros((n, len(self.labels)), dtype=np.float32)
        for k, o in enumerate(self.extractor.offsets):
            j = np.arange(n) + o
            valid = (pos + o >= 0) & (pos + o < length)
            idx = np.where(valid, enc.sigs[np.clip(j, 0, max(n - 1, 0))], zero_row)
            out += self._tables[k][idx]
        if len(enc):
            uniq: dict[tuple[str, ...], int] = {}
            pid = np.fromiter((uniq.setdefault(p, len(uniq)) for p in enc.prefixes), dtype=np.int64,
                              count=len(enc))
            rows, cols = [], []
            for r, prefix in enumerate(uniq):
                for f in prefix:
                    a = self._attr_index.get(f)
                    if a is not None:
                        rows.append(r)
                        cols.append(a)
            ind = sp.csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(len(uniq), self._state.shape[0]))
            out += np.asarray((ind @ self._state).todense())[pid[tok_utt]]
        return out

    @staticmethod
    def _buckets(enc: Encoded, chunk: int = 4096):  # noqa: ANN205
        """Groups of utterances of equal length (at most ``chunk`` each) and their token indices."""
        for length in np.unique(enc.lengths):
            if length == 0:
                continue
            same = np.flatnonzero(enc.lengths == length)
            for c in range(0, len(same), chunk):
                utts = same[c:c + chunk]
                yield int(length), utts, enc.starts[utts][:, None] + np.arange(length)[None, :]

    def marginals(self, enc: Encoded | Sequence[Utterance]) -> Marginals:
        """Token marginals P(label | utterance) by scaled forward-backward, batched by length (float32)."""
        if not isinstance(enc, Encoded):
            enc = self.encode(enc)
        pe = self.emissions(enc)
        assert self._trans is not None
        pe -= pe.max(axis=1, keepdims=True)
        np.exp(pe, out=pe)  # per-token scaling cancels in the normalised recursions
        exp_t = np.exp(self._trans - self._trans.max()).astype(np.float32)
        exp_t_t = np.ascontiguousarray(exp_t.T)
        tiny = np.float32(1e-30)
        probs = np.empty_like(pe)
        for length, _utts, tok in self._buckets(enc):
            e = pe[tok]  # (g, T, L)
            alpha = np.empty_like(e)
            a = e[:, 0]
            alpha[:, 0] = a / (a.sum(1, keepdims=True) + tiny)
            for t in range(1, length):
                a = alpha[:, t - 1] @ exp_t
                a *= e[:, t]
                alpha[:, t] = a / (a.sum(1, keepdims=True) + tiny)
            beta = np.empty_like(e)
            beta[:, -1] = 1.0
            for t in range(length - 2, -1, -1):
                b = (e[:, t + 1] * beta[:, t + 1]) @ exp_t_t
                beta[:, t] = b / (b.sum(1, keepdims=True) + tiny)
            alpha *= beta
            alpha /= alpha.sum(2, keepdims=True) + tiny
            probs[tok] = alpha
        return Marginals(probs, enc.starts, enc.lengths, list(self.labels))

    def viterbi(self, enc: Encoded | Sequence[Utterance]) -> list[list[str]]:
        """Best tag sequence per utterance (same as crfsuite's tagger)."""
        if not isinstance(enc, Encoded):
            enc = self.encode(enc)
        em = self.emissions(enc)
        assert self._trans is not None
        trans = self._trans
        out: list[list[str]] = [[] for _ in range(len(enc))]
        labels = np.array(self.labels, dtype=object)
        for length, utts, tok in self._buckets(enc):
            e = em[tok]
            score = e[:, 0]
            backs = []
            for t in range(1, length):
                cand = score[:, :, None] + trans[None]  # (g, from, to)
                backs.append(cand.argmax(1))
                score = cand.max(1) + e[:, t]
            path = np.zeros((len(utts), length), dtype=np.int64)
            path[:, -1] = score.argmax(1)
            for t in range(length - 1, 0, -1):
                path[:, t - 1] = np.take_along_axis(backs[t - 1], path[:, t:t + 1], 1)[:, 0]
            for r, u in enumerate(utts):
                out[u] = list(labels[path[r]])
        return out

    def predict(self, utterances: Sequence[Utterance] | Encoded) -> list[list[str]]:
        return [repair_iob2(t) for t in self.viterbi(utterances)]

    def tag_with_crfsuite(self, utterances: Sequence[Utterance]) -> list[list[str]]:
        """crfsuite's own Viterbi (slow path, used to check the fast one)."""
        enc = self.encode(utterances)
        tagger = self._tagger()
        try:
            return [list(tagger.tag(x)) for x in self.crf_items(enc)]
        finally:
            tagger.close()

    def crfsuite_marginals(self, utterances: Sequence[Utterance]) -> list[np.ndarray]:
        """crfsuite's own marginals in ``self.labels`` order (slow path, for checks)."""
        enc = self.encode(utterances)
        tagger = self._tagger()
        known = set(tagger.labels())
        out = []
        try:
            for x in self.crf_items(enc):
                tagger.set(x)
                out.append(np.array([[tagger.marginal(lab, i) if lab in known else 0.0 for lab in self.labels]
                                     for i in range(len(x))]))
        finally:
            tagger.close()
        return out

    # ------------------------------------------------------------------ storage
    def to_bytes(self, extra_meta: dict[str, Any] | None = None) -> bytes:
        if self.model_bytes is None:
            raise ModelError("the model has not been trained")
        meta = {"format": FORMAT, "version": FORMAT_VERSION, "labels": self.labels,
                "features": self.config.to_dict(), "c1": self.c1, "c2": self.c2,
                "max_iterations": self.max_iterations, "max_copies": self.max_copies, "info": self.info,
                **(extra_meta or {})}
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
            zf.writestr("meta.json", json.dumps(meta, indent=1))
            zf.writestr("model.crfsuite", self.model_bytes)
        return buf.getvalue()

    @classmethod
    def from_bytes(cls, data: bytes, *, config: FeatureConfig | None = None,
                   extractor: FeatureExtractor | None = None) -> CrfModel:
        """Load a model written by :meth:`to_bytes`. ``config`` overrides the stored feature flags;
        ``extractor`` (same flags as stored) is shared instead of a new one."""
        try:
            with zipfile.ZipFile(io.BytesIO(data)) as zf:
                meta = json.loads(zf.read("meta.json"))
                model_bytes = zf.read("model.crfsuite")
        except (zipfile.BadZipFile, KeyError, json.JSONDecodeError) as exc:
            raise ModelError(f"not a redactdesk model file ({exc})") from None
        if meta.get("format") != FORMAT:
            raise ModelError("not a redactdesk model file (wrong format tag)")
        if int(meta.get("version", 0)) > FORMAT_VERSION:
            raise ModelError(f"model format {meta.get('version')} is newer than this redactdesk understands")
        stored = config or FeatureConfig.from_dict(meta.get("features", {}))
        if extractor is not None and extractor.config != stored:
            raise ModelError("the model was trained with other feature settings than the extractor given")
        model = cls(stored, c1=meta.get("c1", 0.05), c2=meta.get("c2", 0.01),
                    max_iterations=meta.get("max_iterations", 100), max_copies=meta.get("max_copies"),
                    extractor=extractor)
        model.model_bytes = model_bytes
        model.info = dict(meta.get("info", {}))
        model.meta = meta
        try:
            model._load_weights()
        except Exception as exc:
            raise ModelError(f"the model file is damaged ({exc})") from None
        return model

    def save(self, path: str | os.PathLike[str], extra_meta: dict[str, Any] | None = None) -> None:
        Path(path).write_bytes(self.to_bytes(extra_meta))

    @classmethod
    def load(cls, path: str | os.PathLike[str], **kw: Any) -> CrfModel:
        p = Path(path)
        if not p.is_file():
            raise ModelError(f"{p}: no such model file")
        return cls.from_bytes(p.read_bytes(), **kw)
