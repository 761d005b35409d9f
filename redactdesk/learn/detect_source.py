"""The active-learning model as a detection source (``redactdesk.detect``'s Source protocol).

    from redactdesk.learn.detect_source import register_crf_source
    register_crf_source(learner.model)                     # once a model exists (again after retrains)
    detect_conversation(conv, sources=["patterns", "gazetteer", "spacy", "crf"])

The model votes like any other recognizer; it is trusted for no category (it learns from the
annotators and can be wrong early on), so its word alone never makes a span -- unless the caller
passes ``trusted=...``. Turns come from the document's breaks; the previous turn is the context.
The speaker role is unknown to detect documents, so it is left out.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from redactdesk.learn.crf import CrfModel
from redactdesk.learn.tags import category_of, tags_to_spans
from redactdesk.learn.utterances import Utterance

SOURCE_NAME = "crf"


class CrfSource:
    """Source protocol: ``name``, ``categories``, ``trusted``, ``validate(params)``, ``apply(docs, params)``."""

    def __init__(self, model: CrfModel, name: str = SOURCE_NAME, trusted: Iterable[str] = ()) -> None:
        self.model = model
        self.name = name
        self.categories = frozenset(c for c in (category_of(t) for t in model.labels) if c)
        self.trusted = frozenset(trusted)

    def validate(self, params: Mapping[str, Any] | None) -> dict[str, Any]:
        from redactdesk.detect.errors import SourceParamsError

        out = {"min_score": 0.5}
        for k, v in (params or {}).items():
            if k != "min_score" or not isinstance(v, (int, float)) or not 0.0 <= v <= 1.0:
                raise SourceParamsError(f"source {self.name!r}: only min_score in [0, 1] is accepted, got {k}={v!r}")
            out[k] = float(v)
        return out

    def apply(self, docs: Sequence[Any], params: Mapping[str, Any]) -> list[list[Any]]:
        from redactdesk.detect.sources import Hit

        utts: list[Utterance] = []
        owner: list[int] = []
        for d, doc in enumerate(docs):
            bounds = sorted({0, *[b for b in doc.breaks if 0 < b < len(doc.words)], len(doc.words)})
            prev = None
            for a, b in zip(bounds, bounds[1:], strict=False):
                if b > a:
                    toks = list(doc.words[a:b])
                    utts.append(Utterance(tokens=toks, start_word=a, language=doc.language, context=prev))
                    owner.append(d)
                    prev = toks
        out: list[list[Any]] = [[] for _ in docs]
        if not utts:
            return out
        enc = self.model.encode(utts)
        tags = self.model.predict(enc)
        marg = self.model.marginals(enc)
        col = {lab: i for i, lab in enumerate(marg.labels)}
        min_score = float(params.get("min_score", 0.5))
        for k, (u, seq) in enumerate(zip(utts, tags, strict=True)):
            probs = marg.of(k)
            for s, e, cat in tags_to_spans(seq):
                p = float(np.mean([probs[i, col[seq[i]]] for i in range(s, e)]))
                if p >= min_score:
                    out[owner[k]].append(Hit(u.start_word + s, u.start_word + e, cat, p, self.name,
                                             reason=f"active-learning model: {cat} p={p:.2f}"))
        return out


def register_crf_source(model: CrfModel, name: str = SOURCE_NAME, trusted: Iterable[str] = ()) -> CrfSource:
    """Register (or replace) the model as detection source ``name``."""
    from redactdesk.detect import register_source

    src = CrfSource(model, name, trusted)
    register_source(src, replace=True)
    return src
