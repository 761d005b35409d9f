"""Residual-risk scores from reviewers' MISSED_ marks (seed 002, section 4.2-4.3).

A reviewer marks each piece of personal data the process missed as MISSED_<CATEGORY>, with
_PARTIAL (only part of it leaked) and _SPEAKER (it concerns a participant) variants. A
conversation's score sums one score per *distinct* missed item; a corpus passes when
mean + sd of the scores stays below a threshold (default 5).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

import numpy as np

from redactdesk.core.taxonomy import Taxonomy

TAG_RE = re.compile(r"^MISSED_(?P<cat>[A-Z0-9_]+?)(?P<partial>_PARTIAL)?(?P<speaker>_SPEAKER)?$")


@dataclass(frozen=True)
class MissedItem:
    """One MISSED_ mark. ``item_key`` is the same for repeats of one item (Marc / Mark / M-A-R-K)."""

    conversation_id: str
    category: str
    item_key: str
    partial: bool = False
    speaker: bool = False

    @property
    def tag(self) -> str:
        return "MISSED_" + self.category + ("_PARTIAL" if self.partial else "") + ("_SPEAKER" if self.speaker else "")


def parse_tag(tag: str, taxonomy: Taxonomy) -> tuple[str, bool, bool]:
    """'MISSED_PERSON_PARTIAL' -> ('PERSON', True, False); unknown categories raise ValueError."""
    m = TAG_RE.match(tag.strip().upper())
    if not m or m.group("cat") not in taxonomy:
        raise ValueError(f"not a MISSED_ tag of this taxonomy: {tag!r}")
    return m.group("cat"), bool(m.group("partial")), bool(m.group("speaker"))


def conversation_score(items: Iterable[MissedItem], taxonomy: Taxonomy) -> int:
    """Sum over distinct items; an item marked several ways counts once, at its highest score."""
    best: dict[tuple[str, str], int] = {}
    for it in items:
        s = taxonomy.miss_score(it.category, partial=it.partial, speaker=it.speaker)
        key = (it.category, it.item_key)
        best[key] = max(best.get(key, 0), s)
    return sum(best.values())


@dataclass
class RiskSummary:
    scores: dict[str, int]
    mean: float
    sd: float
    p95: float
    max: int
    threshold: float
    by_category: dict[str, int] = field(default_factory=dict)
    unknown: tuple[str, ...] = ()  # conversations nobody reviewed: their risk is unknown, never 0

    @property
    def criterion(self) -> float:
        return self.mean + self.sd

    @property
    def measured(self) -> bool:
        """Every conversation in scope was reviewed, so the statistics describe all of it."""
        return not self.unknown and bool(self.scores)

    @property
    def passed(self) -> bool:
        """Fail closed: a scope with unreviewed conversations (or none at all) does not pass."""
        return self.measured and self.criterion < self.threshold

    @property
    def verdict(self) -> str:
        if not self.scores and not self.unknown:
            return "UNKNOWN"
        if self.unknown:
            return "UNKNOWN"
        return "PASS" if self.passed else "FAIL"

    def table(self) -> str:
        lines = [f"{'conversations':>14} {'mean':>6} {'sd':>6} {'P95':>6} {'max':>4} {'mu+sigma':>9} {'threshold':>9}  result",
                 f"{len(self.scores):>14} {self.mean:6.2f} {self.sd:6.2f} {self.p95:6.2f} {self.max:>4} "
                 f"{self.criterion:9.2f} {self.threshold:9.2f}  {self.verdict}"]
        if self.unknown:
            lines.append(f"{len(self.unknown)} conversation(s) not reviewed: risk unknown, so the corpus cannot "
                         "pass (" + ", ".join(self.unknown[:8]) + (" ..." if len(self.unknown) > 8 else "") + ")")
        return "\n".join(lines)

    def to_dict(self) -> dict:
        return {"scores": self.scores, "mean": self.mean, "sd": self.sd, "p95": self.p95, "max": self.max,
                "criterion": self.criterion, "threshold": self.threshold, "passed": self.passed,
                "verdict": self.verdict, "unknown": list(self.unknown), "by_category": self.by_category}


def corpus_summary(items_by_conversation: Mapping[str, Iterable[MissedItem]], taxonomy: Taxonomy,
                   threshold: float = 5.0, unknown: Iterable[str] = ()) -> RiskSummary:
    """Per-conversation scores (reviewed conversations with no misses score 0) and corpus statistics.

    ``unknown`` names conversations that were not reviewed: they get no score (their risk is
    unknown, not 0) and the summary cannot pass. sd is the sample standard deviation (n-1), 0 for
    a single conversation.
    """
    unknown_ids = tuple(sorted(set(unknown)))
    scores: dict[str, int] = {}
    by_cat: dict[str, int] = {}
    for cid, items in items_by_conversation.items():
        if cid in unknown_ids:
            continue
        items = list(items)
        scores[cid] = conversation_score(items, taxonomy)
        for it in {(i.category, i.item_key): i for i in items}.values():
            by_cat[it.category] = by_cat.get(it.category, 0) + 1
    values = np.array(list(scores.values()), dtype=float)
    if values.size == 0:
        return RiskSummary({}, 0.0, 0.0, 0.0, 0, threshold, {}, unknown_ids)
    sd = float(values.std(ddof=1)) if values.size > 1 else 0.0
    return RiskSummary(scores, float(values.mean()), 0.0 if math.isnan(sd) else sd,
                       float(np.percentile(values, 95)), int(values.max()), threshold, by_cat, unknown_ids)


def project_summary(project, conversation_ids: Iterable[str] | None, taxonomy: Taxonomy,
                    threshold: float = 5.0) -> RiskSummary:
    """Residual risk of a project's conversations, with the unreviewed ones as unknown."""
    from redactdesk.risk.gate import unknown_risk_ids

    ids = list(conversation_ids) if conversation_ids is not None else project.conversation_ids()
    return corpus_summary(items_from_project(project, ids), taxonomy, threshold,
                          unknown=unknown_risk_ids(project, ids))


def items_from_project(project, conversation_ids: Iterable[str] | None = None) -> dict[str, list[MissedItem]]:
    """MISSED_ marks stored in a project, grouped by conversation (every asked-for id present)."""
    ids = list(conversation_ids) if conversation_ids is not None else project.conversation_ids()
    out: dict[str, list[MissedItem]] = {cid: [] for cid in ids}
    for row in project.missed_items():
        if row["conversation_id"] in out:
            out[row["conversation_id"]].append(MissedItem(row["conversation_id"], row["category"], row["item_key"],
                                                          row["partial"], row["speaker"]))
    return out
