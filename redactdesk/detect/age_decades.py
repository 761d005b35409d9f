"""An age said as a decade of life after "in" and a possessive: "a white male in his 30s", "she is in her
early forties", "I'm in my mid-20s", said "in his thirty s" (category AGE, a quasi-identifier). A decade
said of a time ("songs from the 80s", "in the sixties") names no one's age and is left."""

from __future__ import annotations

from collections.abc import Callable

from redactdesk.detect.sources import DetectDoc, Hit
from redactdesk.lang.decades import MODIFIERS, read_decade

SOURCE = "patterns"
_POSSESSIVES = frozenset({"his", "her", "their", "my", "your", "our"})


def find_age_decades(doc: DetectDoc, free: Callable[[int, int], bool]) -> list[Hit]:
    """AGE hits for a decade of life said of someone; ``free(w0, w1)`` says whether the words are unclaimed."""
    if doc.language.split("_")[0] != "en":
        return []
    lower, n = doc.lower, len(doc.words)
    hits = []
    for i in range(n - 2):
        if lower[i] != "in" or lower[i + 1] not in _POSSESSIVES:
            continue
        a = i + 2
        for b in (a + 3, a + 2, a + 1):  # "early thirty s", "early forties" / "thirty s", "30s"
            if b > n or any(k in doc.breaks for k in range(a + 1, b)):
                continue
            decade = read_decade(doc.words[a:b])
            if decade is not None and (decade.start == 0 or lower[a] in MODIFIERS) and free(a, b):
                hits.append(Hit(a, b, "AGE", 0.7, SOURCE, "an age said as a decade of life", True))
                break
    return hits
