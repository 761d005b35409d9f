"""Words in a script the language does not write are an item to review: "山田 裕樹 called yesterday",
"please forward this to नीरव गोयल", "ship it to г. Хужир".

The taggers and the lists read the Latin alphabet of English and Spanish; a name, place or firm
written in another script (Han, Kana, Devanagari, Arabic, Cyrillic, Hebrew, Thai, Greek ...) went
through unflagged. Fail closed: what the detector cannot read it suggests, as a person (the strictest
kind, risk 5; its surrogate is a name in the language's script) with a reason that says why, and a
reviewer corrects the kind. A run of such words is one item; a word needs two letters of another
script ("α" in a formula is none; one Han, Kana or Hangul sign is a word) and is no acronym in capitals.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Callable

from redactdesk.detect.sources import DetectDoc, Hit

SOURCE = "patterns"
SCORE = 0.7
REASON = "words in a script the detector does not read"
_LATIN = {"en", "es"}  # languages written in the Latin alphabet
# scripts where one sign is a syllable or a word ("王", "駅"): one counts as two letters
_SYLLABIC = ("CJK", "HIRAGANA", "KATAKANA", "HANGUL")


@functools.lru_cache(maxsize=4096)
def _foreign_letters(word: str) -> int:
    """How many letters of ``word`` are of a script other than Latin; none for an acronym in capitals
    ("ИНН", "ΦΠΑ": a scheme's or a body's short name, not a person's)."""
    letters = [c for c in word if c.isalpha()]
    if 2 <= len(letters) <= 6 and all(c.isupper() for c in letters):
        return 0
    return sum(2 if name.startswith(_SYLLABIC) else 1 for name in (unicodedata.name(c, "") for c in letters)
               if not name.startswith("LATIN"))


def find_foreign_script(doc: DetectDoc, free: Callable[[int, int], bool]) -> list[Hit]:
    """One PERSON hit per run of words in another script (words ``free`` says are unclaimed)."""
    if doc.language not in _LATIN or all(w.isascii() for w in doc.words):
        return []
    hits: list[Hit] = []
    i, n = 0, len(doc.words)
    while i < n:
        if _foreign_letters(doc.words[i]) < 2 or not free(i, i + 1):
            i += 1
            continue
        j = i + 1
        while j < n and j not in doc.breaks and _foreign_letters(doc.words[j]) >= 2 and free(j, j + 1):
            j += 1
        hits.append(Hit(i, j, "PERSON", SCORE, SOURCE, REASON, strong=True))
        i = j
    return hits
