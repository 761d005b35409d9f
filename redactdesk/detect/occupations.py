"""Job titles are no names: "promoted to Chief Strategy Officer", "works as a Water engineer",
"Job title: Surveyor, rural practice" — the cased taggers read a capitalised job title as a person
or an organisation, and its surrogate would then be somebody's name ("works as a David Walls").

The vocabulary is Faker's list of job titles for the language (en_US: 639 titles of the UK
occupation list; es_ES: 474 of the ISCO list), read from the pinned package: every word of a
title, and its *head* — the noun that says what the person is (English: the last word before a
qualifier, "Engineer, land" -> engineer; Spanish: the first, "Ingeniero mecánico" -> ingeniero).
"""

from __future__ import annotations

import functools
import importlib
import re
from collections.abc import Sequence

_WORD = re.compile(r"[^\W\d_][\w'’.&-]*")
_LOCALES = {"en": "en_US", "es": "es_ES"}
_AROUND = 3  # "Interior [and spatial designer]", "[Buyer,] Industrial": title words beside the span
# Faker's list holds halves of titles it split ("Land", "Make", "Sub", "Copy") and titles whose last
# word says no trade ("Ambulance person", "Best boy", "Chief of Staff"): no heads.
_NO_HEADS = frozenset({"land", "make", "sub", "copy", "person", "boy", "staff"})


@functools.lru_cache(maxsize=4)
def job_vocabulary(language: str) -> tuple[frozenset[str], frozenset[str]]:
    """(every word of the language's job titles, the head words), lower case; empty without a list."""
    locale = _LOCALES.get(language.split("_")[0])
    if locale is None:
        return frozenset(), frozenset()
    jobs = importlib.import_module(f"faker.providers.job.{locale}").Provider.jobs
    words: set[str] = set()
    heads: set[str] = set()
    for title in jobs:
        # a capitalised word inside a title written in sentence case is a place or a name ("Chartered
        # legal executive (England and Wales)", "Teacher, English as a foreign language"): no job word;
        # "Chief Strategy Officer" is written in title case
        found = _WORD.findall(title)
        sentence_case = any(w[0].islower() and len(w) > 3 for w in found)
        words.update(w.lower() for i, w in enumerate(found)
                     if not (sentence_case and i and w[0].isupper() and not w.isupper()))
        title = title.lower()
        first = title.split(",")[0]
        ws = _WORD.findall(first.split("/")[0] if locale.startswith("es") else first.split("/")[-1])
        if ws:  # "Television/film/video producer": the producer; "Técnico/a ...": the técnico
            heads.add(ws[0] if locale.startswith("es") else ws[-1])
    return frozenset(words), frozenset(heads - _NO_HEADS)


def _parts(word: str) -> list[str]:
    """A word's bare lower-case parts: "Product/Process" -> product, process; "officer," -> officer."""
    return [b for b in (p.strip(".,;:!?\"()[]“”'’").lower() for p in word.split("/")) if b]


def job_title_at(lower: Sequence[str], start: int, end: int, language: str) -> bool:
    """Whether words [start, end) lie in a job title: each a word of the vocabulary, and a head among
    them or among the few title words around them ("Television Camera | Operator", "Buyer, |
    Industrial", "Interior | and spatial designer"). The title stops at a sentence's end."""
    vocab, heads = job_vocabulary(language)
    if not vocab or end <= start:
        return False
    inside = [p for w in lower[start:end] for p in _parts(w)]
    if not inside or not all(p in vocab for p in inside):
        return False
    if any(p in heads for p in inside):
        return True
    for k in range(end, min(len(lower), end + _AROUND)):  # after
        if lower[k - 1].endswith((".", "!", "?")):
            break
        parts = _parts(lower[k])
        if not parts or not all(p in vocab for p in parts):
            break
        if any(p in heads for p in parts):
            return True
    for k in range(start - 1, max(-1, start - 1 - _AROUND), -1):  # before
        parts = _parts(lower[k])
        if lower[k].endswith((".", "!", "?")) or not parts or not all(p in vocab for p in parts):
            break
        if any(p in heads for p in parts):
            return True
    return False
