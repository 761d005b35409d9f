"""Word-level pattern hits for other stages' features (the active-learning CRF's ``hit=<CATEGORY>`` atoms)."""

from __future__ import annotations

from collections.abc import Sequence

from redactdesk.detect.patterns import find_patterns
from redactdesk.detect.sources import DetectDoc


def word_hits(tokens: Sequence[str], language: str = "en") -> list[tuple[int, int, str]]:
    """(start word, end word, category) of every validated-pattern hit in ``tokens`` (no NER, no vote)."""
    if not tokens:
        return []
    doc = DetectDoc.from_words(list(tokens), language)
    return sorted((h.start_word, h.end_word, h.category) for h in find_patterns(doc))
