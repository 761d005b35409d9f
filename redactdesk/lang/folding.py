"""Accent folding: the one home of "lower case, no accents" and its variants.

- :func:`fold` / :func:`fold_key`: the keys of the name and place lists: lower case, ASCII, no
  accents. "García" -> "garcia", "Łukasz" -> "lukasz", "Александр" -> "aleksandr", "O'Neill" ->
  "oneill". The lists under resources/detect/ are built with these same functions
  (scripts/build_detect_lists.py), so a word in any script finds its transliterated entry.
- :func:`strip_marks`: combining marks removed, case and script kept ("Sábado" -> "Sabado").
- :func:`strip_accents`: as :func:`strip_marks` but ñ/Ñ kept, a letter of its own in Spanish
  ("Muñoz" -> "Muñoz", "José" -> "Jose"): the key form of the substitution stage.

(``redactdesk.store.search.fold`` stays in store: store sits on the same layer as this package.)
"""

from __future__ import annotations

import functools
import unicodedata

from anyascii import anyascii

_KEEP = frozenset("abcdefghijklmnopqrstuvwxyz0123456789 -")


def strip_marks(text: str) -> str:
    """``text`` without combining marks (accents, diaeresis, tilde); case kept."""
    if text.isascii():  # no marks, and NFKD leaves ASCII as it is (most release text: a scan folds every file)
        return text
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def strip_accents(text: str) -> str:
    """Remove diacritics but keep ñ/Ñ (a letter of its own in Spanish)."""
    if "ñ" not in text and "Ñ" not in text:
        return strip_marks(text)
    return "".join(ch if ch in "ñÑ" else strip_marks(ch) for ch in text)


@functools.lru_cache(maxsize=131072)
def fold(word: str) -> str:
    """Lower case without accents ("García" -> "garcia"); other scripts transliterated to ASCII."""
    if word.isascii():
        return word.lower()
    out = strip_marks(word.lower())
    if out.isascii():
        return out
    return anyascii(out).lower()


@functools.lru_cache(maxsize=131072)
def fold_key(word: str) -> str:
    """:func:`fold` without apostrophes, dots or other punctuation ("O'Neill" -> "oneill",
    "St." -> "st"); hyphens and spaces stay."""
    f = fold(word.replace("’", "'"))
    if f.isalpha():
        return f
    return "".join(c for c in f if c in _KEEP).strip(" -")
