"""Folding words to the keys of the name and place lists: lower case, ASCII, no accents.

"García" -> "garcia", "Łukasz" -> "lukasz", "Александр" -> "aleksandr", "O'Neill" -> "oneill".
The lists under resources/detect/ are built with these same functions
(scripts/build_detect_lists.py), so a word in any script finds its transliterated entry.
"""

from __future__ import annotations

import functools
import unicodedata

from anyascii import anyascii

_KEEP = frozenset("abcdefghijklmnopqrstuvwxyz0123456789 -")


@functools.lru_cache(maxsize=131072)
def fold(word: str) -> str:
    """Lower case without accents ("García" -> "garcia"); other scripts transliterated to ASCII."""
    if word.isascii():
        return word.lower()
    low = word.lower()
    out = "".join(c for c in unicodedata.normalize("NFKD", low) if not unicodedata.combining(c))
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
