"""Names a sentence defines: "Boultham is a village in Lincolnshire", "Dark Room Notes are a four-piece
band", "Stoloff was an American film director". The sentence opens with the name, then a form of "to
be", an article, a few words and a noun of the lexicon's ``definition_nouns`` that says what kind of
thing the name is (a place, an organisation, a person). Encyclopaedic and introductory writing says
names this way, and so do people ("Atwick is a village near Hornsea") — whether or not a list holds
the name.

In cased writing the name's words are capitalised (particles and "of", "and" inside it aside); in
lower-case speech they must hold a word that is no everyday word ("atwick", not "the company").
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from redactdesk.detect.sources import DetectDoc, Hit
from redactdesk.detect.worldnames import word_view

SOURCE = "patterns"
MAX_NAME = 5  # words of the name
MAX_BETWEEN = 4  # words between the article and the noun ("an unstaffed request halt", "American film")
_INSIDE = frozenset({"of", "and", "de", "del", "la", "le", "van", "von", "der", "y", "on", "upon", "&"})
_BE = {"en": frozenset({"is", "was", "are", "were"}), "es": frozenset({"es", "era", "fue", "son", "eran"})}
_ARTICLE = {"en": frozenset({"a", "an"}), "es": frozenset({"un", "una"})}


@functools.lru_cache(maxsize=4)
def _nouns(lex) -> dict[str, str]:
    """Noun -> category from the lexicon's ``definition_nouns``."""
    spec = (lex.raw or {}).get("definition_nouns") or {}
    return {str(w).lower(): cat for cat, words in spec.items() for w in words or ()}


def find_defined_names(doc: DetectDoc, free: Callable[[int, int], bool]) -> list[Hit]:
    """PERSON, ORGANIZATION and LOCATION hits for names the sentence they open defines."""
    from redactdesk.detect.tagger import distinctive

    lex = doc.lex
    lang = doc.language.split("_")[0]
    if lex is None or lang not in _BE:
        return []
    nouns = _nouns(lex)
    be, article = _BE[lang], _ARTICLE[lang]
    if not nouns or not any(w in be for w in doc.lower):
        return []
    lower, words = doc.lower, doc.words
    stop = lex.stop_words
    cased = doc.cased()
    hits: list[Hit] = []
    starts = word_view(doc).sent_start
    for s in (k for k, first in enumerate(starts) if first):
        a = s + 1 if s < len(lower) and lower[s] in ("the", "el", "la", "los", "las") else s
        v = a
        while v < len(lower) and v - a < MAX_NAME and lower[v] not in be and (
                lower[v] in _INSIDE and v > a or lower[v] not in stop and any(c.isalpha() for c in lower[v])):
            v += 1
        if v == a or v >= len(lower) - 2 or lower[v] not in be or lower[v + 1] not in article:
            continue
        if lower[v - 1] in _INSIDE or words[v - 1].rstrip().endswith((",", ";", ":")):
            continue
        name = [w for w in words[a:v] if w.lower() not in _INSIDE]
        if cased and not all(w[:1].isupper() for w in name):
            continue
        if not cased and not distinctive(name, lang):
            continue
        category = None
        for k in range(v + 2, min(len(lower), v + 3 + MAX_BETWEEN)):
            noun = lower[k].strip(".,;:!?")
            if noun in nouns:
                category = nouns[noun]
                break
            if lower[k] in stop or lower[k - 1].endswith((",", ".", ";")):
                break
        if category and free(a, v):
            hits.append(Hit(a, v, category, 0.8, SOURCE, f"a name its sentence defines as a {noun}", True))
    return hits
