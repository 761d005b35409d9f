"""The keyword baseline of seed 000: "credit" or "card", then a number of 4+ digits within a few words.

Used as a comparison row in the benchmark and evaluation (``sources=["keyword_baseline"]``), and by
the event-grammar comparison (:func:`keyword_events`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from redactdesk.detect.normalize import NUM
from redactdesk.detect.sources import DetectDoc, Hit, check_params

SOURCE = "keyword_baseline"
KEYWORDS = {"en": frozenset({"credit", "card"}), "es": frozenset({"crédito", "credito", "tarjeta"})}


def keyword_matches(doc: DetectDoc, window: int = 10) -> list[tuple[int, int, int]]:
    """(keyword word, run start word, run end word) for every keyword followed by a 4+ digit run."""
    assert doc.norm is not None
    toks = doc.norm.tokens
    keys = KEYWORDS.get(doc.language, KEYWORDS["en"])
    out: list[tuple[int, int, int]] = []
    i = 0
    while i < len(toks):
        if toks[i].text not in keys:
            i += 1
            continue
        kw = toks[i].w0
        j = i + 1
        found = None
        while j < len(toks) and toks[j].w0 - kw <= window:
            if toks[j].kind == NUM and not toks[j].ordinal:
                k = j
                while k < len(toks) and toks[k].kind == NUM and not toks[k].ordinal and toks[k].seg == toks[j].seg:
                    k += 1
                if sum(len(t.text) for t in toks[j:k]) >= 4:
                    found = (j, k)
                    break
                j = k
                continue
            j += 1
        if found:
            a, b = found
            out.append((kw, toks[a].w0, toks[b - 1].w1))
            i = b
        else:
            i += 1
    return out


class KeywordBaselineSource:
    """Seed 000's keyword regex as a source: the digit run after "credit"/"card" is a card number."""

    name = SOURCE
    categories = frozenset({"CREDIT_CARD"})
    trusted = frozenset({"CREDIT_CARD"})
    defaults: dict[str, Any] = {"window": 10}

    def validate(self, params: Mapping[str, Any] | None) -> dict[str, Any]:
        return check_params(self.name, params, self.defaults)

    def apply(self, docs: Sequence[DetectDoc], params: Mapping[str, Any]) -> list[list[Hit]]:
        return [
            [Hit(a, b, "CREDIT_CARD", 0.5, SOURCE, "digits after 'credit'/'card' (keyword baseline)")
             for _, a, b in keyword_matches(d, int(params["window"]))]
            for d in docs
        ]
