"""Name hits cut to what a name may hold, before the vote (``fit_name_hits``): every source's person,
place and organisation hits, so that a source's overreach ("rick won't", "Saludos, Carlos", "Thomas,
postmarked") does not carry the vote against the others' exact ones."""

from __future__ import annotations

import dataclasses
import functools
from typing import Any

from redactdesk.detect.sources import DetectDoc, Hit
from redactdesk.detect.vote import NAME_CATEGORIES
from redactdesk.detect.worldnames import everyday_words, is_verb_contraction, strip_word, word_set
from redactdesk.lang.lexicon import word_list


@functools.lru_cache(maxsize=4)
def _closing_phrases(lex: Any) -> dict[str, tuple[tuple[str, ...], ...]]:
    """The lexicon's ``letter_closings`` by first word, longest first."""
    out: dict[str, list[tuple[str, ...]]] = {}
    for ph in word_list(lex, "letter_closings"):
        words = tuple(ph.split())
        out.setdefault(words[0], []).append(words)
    return {k: tuple(sorted(v, key=len, reverse=True)) for k, v in out.items()}


def _closing_at(doc: DetectDoc, a: int, b: int, closings: dict[str, tuple[tuple[str, ...], ...]]) -> int:
    """Words of a letter's closing or greeting that open words [a, b) and end at a comma or at the end
    of their line or text ("Saludos, Carlos"; "Best," alone): how many (0: none)."""
    for ph in closings.get(doc.lower[a], ()):
        m = len(ph)
        if a + m <= len(doc.words) and tuple(doc.lower[a:a + m]) == ph and m <= b - a:
            last = doc.words[a + m - 1].rstrip()
            if last.endswith(",") or a + m == len(doc.words) or a + m in doc.lines or a + m in doc.breaks:
                return m
    return 0


_LABEL_KEYS = ("iban", "ssn", "cvv", "es_id", "passport", "password", "username", "email", "phone", "ip")


@functools.lru_cache(maxsize=4)
def _labels(lex: Any) -> frozenset[str]:
    """One-word names of identifiers ("iban", "ssn", "cvv", "email") that no name list holds (or that name
    the very identifier: "iban"): a label said before its value, never the last word of a person."""
    from redactdesk.detect.worldnames import load_world_names

    names = load_world_names()
    return frozenset(ph[0] for key in _LABEL_KEYS for ph in lex.hot(key)
                     if len(ph) == 1 and ph[0].isalpha() and (ph[0] == key or not names.is_name(ph[0])))


def fit_name_hits(doc: DetectDoc, hits: list[Hit]) -> list[Hit]:
    """Name hits cut to what a name may hold, before the vote:
    - no verb's short form at their edges: a tagger's organisation "rick won't" of "a guy named rick
      won't call" is "rick" (and, so cut, loses to the three sources' person), "can't come" of "sarah
      can't come" is nothing (the rest is an everyday word; a person's name may be one);
    - in written text, no lower-case word after a comma: "her brother Thomas, postmarked Edinburgh" (a
      tagger's person over the comma) is "Thomas" ("Smith, Jr." keeps its post-nominal, "García, de la
      Torre" its particle);
    - no weekday alone: "closed on Mondays" names no firm, nor a direction written in lower case alone
      ("take I-95 north") a place;
    - no letter's closing or greeting before a comma or a line's end: "Saludos, Carlos" is Carlos, "Best,"
      no town;
    - no identifier's label at a person's end: "siobhan mac aodha iban ie twenty nine ..." is the person."""
    out = []
    everyday = everyday_words()
    cased = doc.cased()
    weekdays = frozenset(doc.lex.weekdays) if doc.lex is not None else frozenset()
    kept_after_comma = word_set("post_nominals") | word_set("name_particles")
    closings = _closing_phrases(doc.lex) if doc.lex is not None else {}
    directions = word_set("directions")
    spelled = doc.spelling_words() if cased else set()
    labels = _labels(doc.lex) if doc.lex is not None else frozenset()
    for h in hits:
        a, b = h.start_word, h.end_word
        if h.category in NAME_CATEGORIES:
            if all(doc.lower[k] in weekdays or doc.lower[k].removesuffix("s") in weekdays for k in range(a, b)):
                continue
            if cased and b - a == 1 and doc.words[a].islower() and doc.lower[a] in directions:
                continue  # written "to the north", "take I-95 north": a direction in lower case names no place
            if closings and (m := _closing_at(doc, a, b, closings)):
                a += m  # "Saludos, Carlos", "Atentamente, Luis Pérez": the closing before the name's comma
                if a == b:
                    continue
            while a < b and is_verb_contraction(strip_word(doc.words[b - 1])):
                b -= 1
            while h.category == "PERSON" and b - a > 1 and strip_word(doc.words[b - 1]).lower() in labels and not (
                    cased and strip_word(doc.words[b - 1]).istitle()):  # a surname in writing: "Max Born", "Ana Mobile"
                b -= 1  # "account holder siobhan mac aodha iban ie twenty nine ...": the label after the name
            while a < b and is_verb_contraction(strip_word(doc.words[a])):
                a += 1
            if cased and not any(k in spelled for k in range(a, b)):  # "Jay, as in John": a spelling runs on
                b = next((k + 1 for k in range(a, b - 1) if doc.words[k].rstrip().endswith(",") and
                          doc.words[k + 1][:1].islower() and doc.lower[k + 1] not in kept_after_comma), b)
            if (a, b) != (h.start_word, h.end_word):
                if a == b or (h.category != "PERSON" and all(doc.lower[k] in everyday for k in range(a, b))):
                    continue  # what is left is everyday words ("can't | come"); a person's name may be one
                h = dataclasses.replace(h, start_word=a, end_word=b)
        out.append(h)
    return out
