"""Small text helpers shared by the generators: normalising, case patterns, plain letters."""

from __future__ import annotations

import functools
import re

from rapidfuzz import fuzz

from redactdesk.lang.alphabet import plain_letters as plain_letters  # the substitution stage spells with it
from redactdesk.lang.folding import strip_accents

# 〒: the Japanese postal mark before a postcode, kept as written; brackets and curly quotes around an item
# stay around its surrogate ("[Acme Corp]", "“Lisbon”", "<ana@example.org>")
PUNCT = ".,?!¿¡;:\"()[]{}<>«»“”‘’…〒"


@functools.lru_cache(maxsize=1 << 17)  # called for every gazetteer entry a generator looks at
def norm(text: str) -> str:
    """Key form of a word or phrase: lower case, no accents, no punctuation, single spaces."""
    t = strip_accents(text).lower().replace("-", " ")
    t = re.sub(r"[^\w\s@.]", " ", t)
    return " ".join(t.split())


_POSSESSIVE = re.compile(r"^(.*[^\W\d_].*?)(['’]s)$", flags=re.S)  # letters, then 's


def split_punct(token: str) -> tuple[str, str, str]:
    """(leading punctuation, core, trailing punctuation) of one transcript token. A possessive's "'s"
    is trailing too: "john's" is the item John (one surrogate with "john"), and the surrogate keeps
    it ("walton's brother")."""
    m = re.match(rf"^([{re.escape(PUNCT)}]*)(.*?)([{re.escape(PUNCT)}]*)$", token, flags=re.S)
    assert m is not None
    lead, core, trail = m.group(1), m.group(2), m.group(3)
    owner = _POSSESSIVE.match(core)
    if owner is not None:
        core, trail = owner.group(1), owner.group(2) + trail
    return lead, core, trail


def case_of(token: str) -> str:
    """'upper', 'lower', 'title' or 'mixed' (a single capital letter counts as title)."""
    letters = [c for c in token if c.isalpha()]
    if not letters:
        return "mixed"
    if all(c.isupper() for c in letters):
        return "upper" if len(letters) > 1 else "title"
    if all(c.islower() for c in letters):
        return "lower"
    if letters[0].isupper() and all(c.islower() for c in letters[1:]):
        return "title"
    return "mixed"


def apply_case(word: str, case: str) -> str:
    """Give ``word`` the case pattern of an original token; 'mixed' keeps the word as it is."""
    if case == "upper":
        return word.upper()
    if case == "lower":
        return word.lower()
    if case == "title":
        return "-".join(p[:1].upper() + p[1:].lower() for p in word.split("-"))
    return word


def words(text: str) -> list[str]:
    """Split a phrase into spoken tokens (spaces and hyphens), dropping empty pieces."""
    return [t for t in re.split(r"[\s]+", text.strip()) if t]


def resembles(candidate: str, original: str) -> bool:
    """True when a surrogate name would give its original away: one holds the other ("Danielle" for
    "Daniel", "Hammonds" for "Hammond") or they differ by a letter or two ("Catherine" for "Katherine").
    Names of one or two letters are compared only for equality."""
    a, b = plain_letters(candidate), plain_letters(original)
    if not a or not b:
        return False
    if min(len(a), len(b)) < 3:
        return a == b
    if a in b or b in a:
        return True
    return fuzz.ratio(a, b) >= 80.0  # twice the longest common subsequence over both lengths


def similarity(a: str, b: str) -> float:
    """0..1: how alike two spellings are (twice the longest common subsequence over both lengths), to
    link spelling variants of one name ("tompson", "M D D I N A") to the item they stand for."""
    return fuzz.ratio(a, b) / 100.0
