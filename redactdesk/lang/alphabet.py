"""Spelling alphabets, letter names and the spellings Whisper fuses into one word.

- :data:`NATO`: the NATO alphabet (letter -> word, as written); :data:`NATO_WORDS` adds the
  spellings callers and recognisers also use ("alpha", "juliet", "whisky", "xray").
- :func:`spelling_words`: the language's own spelling list ("M as in Mary", "M de Madrid") from
  resources/gazetteers/<lang>/spelling_words.tsv, which a project's gazetteer and the demo calls share.
- :data:`SPANISH_FUSED_LETTER_NAMES`: Spanish letter names as Whisper fuses them with "de" and the
  word ("erederamón" = erre de Ramón). It differs from the lexicon's ``letter_names`` on purpose:
  it adds "ere" (the fused form of "erre") and leaves out the two-word names ("uve doble") and "eñe",
  which are never fused.
- :data:`ONE_LETTER_WORDS`: letters that are words too ("a", "i"; Spanish "y", "o" ...).
- :func:`plain_letters`: the letters a caller spells out for a word ("Muñoz" -> "MUÑOZ").
- :func:`fused_letter` / :func:`fused_spelling`: read a fused spelling back ("udeúbeda" -> u de úbeda).
"""

from __future__ import annotations

import functools
import unicodedata

from redactdesk.lang.folding import strip_accents
from redactdesk.lang.lexicon import Lexicon, check_language
from redactdesk.resources import resource

# one-letter words of each language: a letter only where a spelling or a code says so ("a b one
# two", but "setenta y dos" keeps its "y")
ONE_LETTER_WORDS = {"en": frozenset("a i".split()), "es": frozenset("a e o u y".split())}

NATO = {
    "A": "Alfa", "B": "Bravo", "C": "Charlie", "D": "Delta", "E": "Echo", "F": "Foxtrot", "G": "Golf",
    "H": "Hotel", "I": "India", "J": "Juliett", "K": "Kilo", "L": "Lima", "M": "Mike", "N": "November",
    "O": "Oscar", "P": "Papa", "Q": "Quebec", "R": "Romeo", "S": "Sierra", "T": "Tango", "U": "Uniform",
    "V": "Victor", "W": "Whiskey", "X": "X-ray", "Y": "Yankee", "Z": "Zulu",
}
NATO_WORDS = frozenset({w.lower() for w in NATO.values()} | {"alpha", "juliet", "whisky", "xray"})

SPANISH_FUSED_LETTER_NAMES = {
    "be": "B", "ce": "C", "de": "D", "efe": "F", "ge": "G", "hache": "H", "jota": "J", "ka": "K", "ele": "L",
    "eme": "M", "ene": "N", "pe": "P", "cu": "Q", "ere": "R", "erre": "R", "ese": "S", "te": "T", "uve": "V",
    "equis": "X", "zeta": "Z",
}


@functools.lru_cache(maxsize=4)
def spelling_words(language: str) -> dict[str, str]:
    """Upper-case letter -> the word callers of ``language`` spell it with ("M": "Mary"; "M": "Madrid")."""
    path = resource("gazetteers", check_language(language), "spelling_words.tsv")
    out: dict[str, str] = {}
    for raw in path.read_text(encoding="utf-8").splitlines():
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        parts = [p.strip() for p in raw.split("\t")]
        if len(parts) != 2:
            raise ValueError(f"{path.name}: expected 2 tab-separated columns (letter, word) on every line")
        out[parts[0].upper()] = parts[1]
    return out


@functools.lru_cache(maxsize=1 << 16)
def plain_letters(word: str) -> str:
    """Upper-case letters of a word without accents (Ñ kept): what a caller spells out."""
    return "".join(ch for ch in strip_accents(word).upper() if ch.isalpha())


def fold1(word: str) -> str:
    """First letter without its accent ("úbeda" -> "u"); ñ stays ñ."""
    c = word[:1]
    if c == "ñ":
        return c
    return unicodedata.normalize("NFKD", c)[:1]


def fused_letter(text: str, lex: Lexicon) -> tuple[str, str, str] | None:
    """("u", "de", "úbeda") for Whisper's one-word "udeúbeda" ("U de Úbeda"); ("p", "de", "") for "pede".
    Spanish only: Whisper does not fuse English "as in", and "alike" or "before" would read as fusions."""
    if lex.language != "es":
        return None
    for joiner in sorted({phrase[0] for phrase in lex.letter_as if len(phrase) == 1}):
        head, sep, rest = text.partition(joiner)
        if not sep or not head or (rest and not rest.isalpha()):
            continue
        letter = head if len(head) == 1 and head.isalpha() else lex.letter_names.get(head)
        if letter is not None and len(letter) == 1:
            return letter, joiner, rest
    return None


def fused_spelling(text: str, following: str | None, lex: Lexicon) -> tuple[str, str, str, bool] | None:
    """Whisper's fusion of a spelled letter, its joiner and its word, read back (lower case):
    "udeúbeda" -> ("u", "de", "úbeda", False); "pede" + "parís" -> ("p", "de", "parís", True);
    "odeo" + "viedo" -> ("o", "de", "oviedo", True). The last item says whether the word takes in
    ``following`` (the next word; None where it may not). The word must start with the letter, so
    "puede" or "verde" are no fusion."""
    fused = fused_letter(text, lex) if len(text) > 2 else None
    if fused is None:
        return None
    letter, joiner, rest = fused
    if len(rest) > 2 and fold1(rest) == letter:
        return letter, joiner, rest, False
    if following and len(rest + following) > 2 and fold1(rest + following) == letter:
        return letter, joiner, rest + following, True
    return None
