"""IOB2 tags over taxonomy categories: spans to tags, tags to spans, and label helpers.

A tag is ``"O"``, ``"B-<CATEGORY>"`` or ``"I-<CATEGORY>"``. Spans are half-open word ranges
``(start, end, category)`` relative to the utterance.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from redactdesk.learn.errors import DataFormatError

OUTSIDE = "O"


def category_of(tag: str) -> str | None:
    """The category a tag names, or None for ``O``."""
    if tag == OUTSIDE:
        return None
    return tag[2:]


def check_tag(tag: str) -> str:
    if tag == OUTSIDE:
        return tag
    if len(tag) < 3 or tag[1] != "-" or tag[0] not in "BI":
        raise DataFormatError(f"bad tag {tag!r}: expected O, B-<CATEGORY> or I-<CATEGORY> (IOB2)")
    return tag


def spans_to_tags(n: int, spans: Iterable[tuple[int, int, str]]) -> list[str]:
    """IOB2 tags for ``n`` words; later spans never overwrite words an earlier span took."""
    tags = [OUTSIDE] * n
    for start, end, category in sorted(spans):
        start, end = max(0, start), min(n, end)
        if end <= start or any(t != OUTSIDE for t in tags[start:end]):
            continue
        tags[start] = f"B-{category}"
        for i in range(start + 1, end):
            tags[i] = f"I-{category}"
    return tags


def tags_to_spans(tags: Sequence[str]) -> list[tuple[int, int, str]]:
    """Spans from IOB tags; a stray ``I-X`` (after O or another category) opens a new span."""
    spans: list[tuple[int, int, str]] = []
    start, cat = -1, None
    for i, tag in enumerate(list(tags) + [OUTSIDE]):
        c = category_of(tag)
        if cat is not None and (c != cat or tag.startswith("B-")):
            spans.append((start, i, cat))
            cat = None
        if c is not None and cat is None:
            start, cat = i, c
    return spans


def repair_iob2(tags: Sequence[str]) -> list[str]:
    """Turn any IOB/IOB1 sequence into valid IOB2 (an ``I-X`` that opens a span becomes ``B-X``)."""
    for t in tags:
        check_tag(t)
    return spans_to_tags(len(tags), tags_to_spans(tags))


def label_set(categories: Iterable[str]) -> list[str]:
    """``O`` followed by B/I tags of each category, in the given order."""
    out = [OUTSIDE]
    for c in categories:
        out += [f"B-{c}", f"I-{c}"]
    return out
