"""Evaluation of predicted spans against labelled conversations (used by ``redactdesk eval``).

Two granularities, both per category and overall:

* token level: each word's gold category vs predicted category (precision / recall / F1);
* entity level: a gold entity counts as *found* only when ALL its words are covered by predicted
  spans. "any" coverage accepts predicted spans of any category (what matters for masking direct
  identifiers); "exact" needs the same category. A predicted span is *correct* when it overlaps a
  gold span ("any") or a gold span of its category ("exact"); entity precision = correct / predicted.

Gold spans are the conversation's spans that are not REJECTED.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from redactdesk.core.types import Conversation, Span, SpanStatus

# The done-when list of direct identifiers: names, card, phone, email, SSN / national ID, account.
DIRECT_IDENTIFIERS = frozenset(
    {"PERSON", "CREDIT_CARD", "PHONE", "EMAIL", "SSN", "ES_ID", "GENERIC_ID", "BANK_ACCOUNT", "IBAN", "PASSPORT"}
)
ALL = "ALL"
DIRECT = "DIRECT"


def _ratio(a: int, b: int) -> float:
    return a / b if b else 0.0


def _f1(p: float, r: float) -> float:
    return 2 * p * r / (p + r) if p + r else 0.0


@dataclass
class TokenCounts:
    tp: int = 0
    fp: int = 0
    fn: int = 0

    @property
    def precision(self) -> float:
        return _ratio(self.tp, self.tp + self.fp)

    @property
    def recall(self) -> float:
        return _ratio(self.tp, self.tp + self.fn)

    @property
    def f1(self) -> float:
        return _f1(self.precision, self.recall)


@dataclass
class EntityCounts:
    gold: int = 0
    found: int = 0  # gold entities wholly covered
    pred: int = 0
    correct: int = 0  # predicted spans overlapping a matching gold span

    @property
    def recall(self) -> float:
        return _ratio(self.found, self.gold)

    @property
    def precision(self) -> float:
        return _ratio(self.correct, self.pred)

    @property
    def f1(self) -> float:
        return _f1(self.precision, self.recall)


@dataclass
class EvalReport:
    """Counts per category (plus ALL and DIRECT rows); ``.table()`` prints them."""

    token: dict[str, TokenCounts] = field(default_factory=dict)  # exact category
    token_any: TokenCounts = field(default_factory=TokenCounts)  # PII vs not
    entity_exact: dict[str, EntityCounts] = field(default_factory=dict)
    entity_any: dict[str, EntityCounts] = field(default_factory=dict)
    conversations: int = 0
    words: int = 0
    missing_predictions: list[str] = field(default_factory=list)

    def categories(self) -> list[str]:
        cats = set(self.entity_exact) | set(self.token)
        return sorted(c for c in cats if c not in (ALL, DIRECT))

    def direct_recall(self, exact: bool = False) -> float:
        return (self.entity_exact if exact else self.entity_any)[DIRECT].recall

    def precision(self, exact: bool = False) -> float:
        return (self.entity_exact if exact else self.entity_any)[ALL].precision

    def to_dict(self) -> dict[str, Any]:
        def ent(d: dict[str, EntityCounts]) -> dict[str, Any]:
            return {c: {"gold": e.gold, "found": e.found, "pred": e.pred, "correct": e.correct,
                        "precision": round(e.precision, 4), "recall": round(e.recall, 4), "f1": round(e.f1, 4)}
                    for c, e in d.items()}

        return {
            "conversations": self.conversations,
            "words": self.words,
            "token": {c: {"tp": t.tp, "fp": t.fp, "fn": t.fn, "precision": round(t.precision, 4),
                          "recall": round(t.recall, 4), "f1": round(t.f1, 4)} for c, t in self.token.items()},
            "token_any": {"precision": round(self.token_any.precision, 4), "recall": round(self.token_any.recall, 4),
                          "f1": round(self.token_any.f1, 4)},
            "entity_exact": ent(self.entity_exact),
            "entity_any": ent(self.entity_any),
            "missing_predictions": list(self.missing_predictions),
        }

    def table(self, title: str = "") -> str:
        """Per-category table: entity recall (any / exact category), entity precision, token P/R/F1."""
        head = (f"{'category':<16}{'gold':>6}{'pred':>6}  {'R any':>6}{'R cat':>7}{'P any':>7}{'P cat':>7}"
                f"{'F1 cat':>7}  {'tok P':>6}{'tok R':>7}{'tok F1':>7}")
        lines = [title] if title else []
        lines += [head, "-" * len(head)]
        for c in [*self.categories(), DIRECT, ALL]:
            ex = self.entity_exact.get(c, EntityCounts())
            an = self.entity_any.get(c, EntityCounts())
            tk = self.token.get(c, TokenCounts())
            if c in (DIRECT, ALL) and c == DIRECT:
                lines.append("-" * len(head))
            lines.append(
                f"{c:<16}{ex.gold:>6}{ex.pred:>6}  {an.recall:>6.3f}{ex.recall:>7.3f}{an.precision:>7.3f}"
                f"{ex.precision:>7.3f}{ex.f1:>7.3f}  {tk.precision:>6.3f}{tk.recall:>7.3f}{tk.f1:>7.3f}"
            )
        lines.append(f"token-level, any category: P {self.token_any.precision:.3f}  R {self.token_any.recall:.3f}"
                     f"  F1 {self.token_any.f1:.3f}   ({self.conversations} conversations, {self.words} words)")
        return "\n".join(lines)


def _gold_spans(conv: Conversation) -> list[Span]:
    return [s for s in conv.spans if s.status != SpanStatus.REJECTED]


def _labels(n: int, spans: Iterable[Span]) -> list[str | None]:
    out: list[str | None] = [None] * n
    for s in sorted(spans, key=lambda s: -s.score):
        for i in range(max(0, s.start_word), min(n, s.end_word)):
            if out[i] is None:
                out[i] = s.category
    return out


def evaluate(
    gold: Sequence[Conversation],
    pred: Mapping[str, Sequence[Span]],
    *,
    direct: Iterable[str] = DIRECT_IDENTIFIERS,
) -> EvalReport:
    """Score ``pred`` (conversation id -> spans; statuses ignored except REJECTED) against ``gold``."""
    direct = frozenset(direct)
    rep = EvalReport()

    def ent(d: dict[str, EntityCounts], c: str) -> EntityCounts:
        return d.setdefault(c, EntityCounts())

    for conv in gold:
        n = len(conv.words)
        rep.conversations += 1
        rep.words += n
        if conv.id not in pred:
            rep.missing_predictions.append(conv.id)
        g_spans = _gold_spans(conv)
        p_spans = [s for s in pred.get(conv.id, ()) if s.status != SpanStatus.REJECTED]
        g_lab = _labels(n, g_spans)
        p_lab = _labels(n, p_spans)
        for gl, pl in zip(g_lab, p_lab, strict=True):
            for c in {gl, pl} - {None}:
                t = rep.token.setdefault(c, TokenCounts())
                if gl == c and pl == c:
                    t.tp += 1
                elif pl == c:
                    t.fp += 1
                else:
                    t.fn += 1
            if gl is not None and pl is not None:
                rep.token_any.tp += 1
            elif pl is not None:
                rep.token_any.fp += 1
            elif gl is not None:
                rep.token_any.fn += 1
        covered_any = [lab is not None for lab in p_lab]
        by_cat: dict[str, list[bool]] = {}
        for s in p_spans:
            cov = by_cat.setdefault(s.category, [False] * n)
            for i in range(max(0, s.start_word), min(n, s.end_word)):
                cov[i] = True
        for g in g_spans:
            rng = range(max(0, g.start_word), min(n, g.end_word))
            f_any = all(covered_any[i] for i in rng)
            f_ex = g.category in by_cat and all(by_cat[g.category][i] for i in rng)
            keys = [g.category, ALL] + ([DIRECT] if g.category in direct else [])
            for k in keys:
                ent(rep.entity_any, k).gold += 1
                ent(rep.entity_exact, k).gold += 1
                ent(rep.entity_any, k).found += int(f_any)
                ent(rep.entity_exact, k).found += int(f_ex)
        for p in p_spans:
            ok_any = any(p.overlaps(g) for g in g_spans)
            ok_ex = any(p.overlaps(g) and g.category == p.category for g in g_spans)
            keys = [p.category, ALL] + ([DIRECT] if p.category in direct else [])
            for k in keys:
                ent(rep.entity_any, k).pred += 1
                ent(rep.entity_exact, k).pred += 1
                ent(rep.entity_any, k).correct += int(ok_any)
                ent(rep.entity_exact, k).correct += int(ok_ex)
    # ALL / DIRECT token rows
    for key, cats in ((ALL, None), (DIRECT, direct)):
        t = TokenCounts()
        for c, tc in list(rep.token.items()):
            if c in (ALL, DIRECT) or (cats is not None and c not in cats):
                continue
            t.tp += tc.tp
            t.fp += tc.fp
            t.fn += tc.fn
        rep.token[key] = t
    return rep


def comparison_table(reports: Mapping[str, EvalReport], title: str = "") -> str:
    """One row per system: direct-identifier recall, overall precision and F1 (entity level)."""
    head = (f"{'system':<22}{'direct R any':>13}{'direct R cat':>13}{'P any':>8}{'P cat':>8}"
            f"{'F1 cat':>8}{'tok F1 any':>11}")
    lines = [title] if title else []
    lines += [head, "-" * len(head)]
    for name, r in reports.items():
        ex, an = r.entity_exact.get(ALL, EntityCounts()), r.entity_any.get(ALL, EntityCounts())
        lines.append(
            f"{name:<22}{r.direct_recall():>13.3f}{r.direct_recall(exact=True):>13.3f}{an.precision:>8.3f}"
            f"{ex.precision:>8.3f}{ex.f1:>8.3f}{r.token_any.f1:>11.3f}"
        )
    return "\n".join(lines)


def category_comparison(reports: Mapping[str, EvalReport], exact: bool = False) -> str:
    """Per-category entity recall side by side for several systems (gold counts from the first)."""
    names = list(reports)
    first = reports[names[0]]
    head = f"{'category':<16}{'gold':>6}" + "".join(f"{n[:14]:>16}" for n in names)
    lines = [f"entity recall ({'same category' if exact else 'any category'}) / precision", head, "-" * len(head)]
    for c in [*first.categories(), DIRECT, ALL]:
        g = (first.entity_exact if exact else first.entity_any).get(c, EntityCounts()).gold
        cells = []
        for n in names:
            e = (reports[n].entity_exact if exact else reports[n].entity_any).get(c, EntityCounts())
            cells.append(f"{e.recall:>8.3f}/{e.precision:<7.3f}")
        lines.append(f"{c:<16}{g:>6}" + "".join(f"{x:>16}" for x in cells))
    return "\n".join(lines)
