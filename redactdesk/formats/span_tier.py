"""Tiers of personal-data items in Praat TextGrids and ELAN files: what to call them, how to label
them, and how to turn their intervals back into word spans.

Why: phoneticians mark items on a tier of their own ("PII", "items", ...). Such a tier is not a
speaker; readers leave tiers with these names out of the words, and ``--span-tier NAME`` reads the
one named as spans. A release writes its items the same way: tier ``items``, each interval labelled
``CATEGORY [PLACEHOLDER]`` (e.g. ``PERSON [PERSON_1]``) — the category first, so another tool can
read it back with nothing more than the first word of the label.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from redactdesk.core.types import Span, SpanStatus, Word
from redactdesk.formats.errors import ImportProblem

ITEMS_TIER = "items"
PLACEHOLDER_TIER = "placeholders"  # ELAN: a symbolic-association child of ITEMS_TIER
CATEGORY_VOCABULARY = "redactdesk-categories"  # ELAN controlled vocabulary id
SOURCE = "import:tier"
# names under which annotation teams keep their item tiers (compared folded, "-"/"_" as spaces)
SPAN_TIER_NAMES = frozenset({
    "items", "item", "pii", "phi", "pi", "personal data", "personal information", "redactions", "redaction",
    "anonymised", "anonymized", "anonymisation", "anonymization", "entities", "ner", "sensitive",
    "deidentification", "de identification", "placeholders",
})


@dataclass(frozen=True)
class SpanInterval:
    """One labelled interval of an item tier, in seconds; ``where`` names it in the file."""

    start: float
    end: float
    label: str
    where: str


def fold_name(name: str) -> str:
    return " ".join(name.replace("-", " ").replace("_", " ").casefold().split())


def looks_like_span_tier(name: str) -> bool:
    """True for tier names such as "PII", "items", "Redactions" (never a speaker)."""
    return fold_name(name) in SPAN_TIER_NAMES


def is_chosen(name: str, span_tier: str | None) -> bool:
    return span_tier is not None and fold_name(name) == fold_name(span_tier)


def item_label(category: str, placeholder: str = "") -> str:
    """``PERSON [PERSON_1]``: the category first, then the placeholder when there is one."""
    return f"{category} {placeholder}".strip()


def label_category(label: str, categories: Collection[str]) -> str | None:
    """The category a label names: its first word ("PERSON [PERSON_1]", "person"), or a bare
    placeholder ("[PERSON_1]", "PERSON_1"); None when it names no category of ``categories``."""
    tokens = label.split()
    if not tokens:
        return None
    by_fold = {c.casefold(): c for c in categories}
    first = tokens[0].strip("[]<>{}").casefold()
    if first in by_fold:
        return by_fold[first]
    head, _, number = first.rpartition("_")
    if head and number.isdigit() and head in by_fold:
        return by_fold[head]
    return None


def spans_from_intervals(words: Sequence[Word], intervals: Sequence[SpanInterval], categories: Collection[str],
                         status: SpanStatus = SpanStatus.SUGGESTED) -> tuple[list[Span], list[ImportProblem]]:
    """Spans over the words whose middle lies inside each labelled interval.

    Empty labels are gaps. A label naming no category, or an interval over no word, is a problem
    (named by place, never by its text). Spans are sorted by word; duplicates are dropped.
    """
    mids = [(w.start + w.end) / 2 for w in words]
    spans: dict[tuple[int, int, str], Span] = {}
    problems: list[ImportProblem] = []
    for iv in intervals:
        if not iv.label.strip():
            continue
        category = label_category(iv.label, categories)
        if category is None:
            problems.append(ImportProblem(iv.where, "the label names no category of the taxonomy "
                                          "(expected e.g. 'PERSON' or 'PERSON [PERSON_1]')"))
            continue
        inside = [i for i, m in enumerate(mids) if iv.start <= m < iv.end]
        if not inside:
            problems.append(ImportProblem(iv.where, "the item covers no word"))
            continue
        start, end = inside[0], inside[-1] + 1
        spans.setdefault((start, end, category), Span(start, end, category, status=status, sources=(SOURCE,),
                                                      reason="from an item tier of the imported file"))
    return sorted(spans.values(), key=lambda s: (s.start_word, s.end_word)), problems
