"""Job titles and offices are no names: "promoted to Chief Strategy Officer", "works as a Water
engineer", "Job title: Surveyor, rural practice", "The Senator from Ohio" — the taggers read a
capitalised job title or office as a person or an organisation, and its surrogate would then be
somebody's name ("works as a David Walls"). :func:`job_titles_are_no_names` drops them after the vote.

The vocabulary is Faker's list of job titles for the language (en_US: 639 titles; es_ES: 474),
read from the pinned package, with the lexicon's ``office_titles`` ("Vice President", "CTO"): every word of a
title, and its *head* — the noun that says what the person is (English: the last word before a
qualifier, "Engineer, land" -> engineer; Spanish: the first, "Ingeniero mecánico" -> ingeniero).
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Sequence

from redactdesk.core.types import Span
from redactdesk.detect.lists import DENY_SOURCE
from redactdesk.detect.sources import DetectDoc
from redactdesk.detect.worldnames import everyday_words, load_world_names, strip_word
from redactdesk.lang.folding import fold_key
from redactdesk.lang.lexicon import load_lexicon, word_list
from redactdesk.lang.occupations import faker_job_titles

_WORD = re.compile(r"[^\W\d_][\w'’.&-]*")
_AROUND = 3  # "Interior [and spatial designer]", "[Buyer,] Industrial": title words beside the span
# Faker's list holds halves of titles it split ("Land", "Make", "Sub", "Copy") and titles whose last
# word says no trade ("Ambulance person", "Best boy", "Chief of Staff"): no heads.
_NO_HEADS = frozenset({"land", "make", "sub", "copy", "person", "boy", "staff"})
_OFFICE_MODIFIERS = frozenset({"vice", "prime", "deputy", "chief"})  # "Vice President": the head is after


@functools.lru_cache(maxsize=4)
def job_vocabulary(language: str) -> tuple[frozenset[str], frozenset[str]]:
    """(every word of the language's job titles, the head words), lower case; empty without a list."""
    jobs = faker_job_titles(language)
    if not jobs:
        return frozenset(), frozenset()
    spanish = language.startswith("es")
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
        ws = _WORD.findall(first.split("/")[0] if spanish else first.split("/")[-1])
        if ws:  # "Television/film/video producer": the producer; "Técnico/a ...": the técnico
            heads.add(ws[0] if spanish else ws[-1])
    # the offices of the lexicon ("Vice President", "CTO") are titles too, a modifier no head on its own
    offices = word_list(load_lexicon(language.split("_")[0]), "office_titles")
    return frozenset(words | offices), frozenset((heads - _NO_HEADS) | (offices - _OFFICE_MODIFIERS))


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


_JOB_TITLE_KINDS = frozenset({"PERSON", "ORGANIZATION", "LOCATION"})
_ARTICLES = frozenset({"the", "el", "la", "los", "las"})
_DETERMINERS = _ARTICLES | {"a", "an", "our", "your", "their", "his", "her", "its", "un", "una", "nuestro", "nuestra"}


def _office_alone(doc: DetectDoc, s: Span, offices: frozenset[str]) -> bool:
    """An organisation or place of one office word, or of office words after an article (the
    lexicon's ``office_titles``: "Bruce Stillman, President", "The Senator from Ohio"); a person of
    office words after an article ("the mayor of springfield said": a surname has none). "Thailand's
    ousted Prime Minister" stays for review."""
    after_article = s.start_word > 0 and doc.lower[s.start_word - 1] in _DETERMINERS
    return bool(offices) and (s.category in ("ORGANIZATION", "LOCATION") and (
        s.end_word - s.start_word == 1 or after_article) or s.category == "PERSON" and after_article) and all(
        strip_word(w).lower() in offices for w in doc.words[s.start_word:s.end_word])


_OF = frozenset({"of", "de", "del"})


def _office_of(doc: DetectDoc, s: Span, offices: frozenset[str]) -> tuple[bool, Span | None]:
    """"president of poland", "prime minister of liechtenstein", "presidente de Colombia": a name
    that opens with an office and "of" is the office of the place or body after it. The office is
    no part of the item; what follows is (a listed place: a LOCATION), unless a person's office is of
    everyday words ("the Secretary of State": nothing is left). ``(is it such a span, what is left)``."""
    if s.category not in _JOB_TITLE_KINDS or not offices:
        return False, None
    k = s.start_word
    while k < s.end_word and strip_word(doc.words[k]).lower() in offices:
        k += 1
    if k == s.start_word or k >= s.end_word - 1 or doc.lower[k] not in _OF:
        return False, None
    k += 1
    while k < s.end_word - 1 and doc.lower[k] in _ARTICLES:
        k += 1
    from redactdesk.detect.places import load_places

    rest = [fold_key(w) for w in doc.words[k:s.end_word]]
    place = len(rest) == 1 and load_places().get(rest[0]) is not None
    if s.category == "PERSON" and not place and all(w in everyday_words() for w in rest):
        return True, None
    category = "LOCATION" if place or s.category == "PERSON" and not load_world_names().is_name(rest[0]) else s.category
    return True, dataclasses.replace(s, start_word=k, category=category)


def job_titles_are_no_names(doc: DetectDoc, spans: list[Span], personal_titles: frozenset[str]) -> list[Span]:
    """The spans without the job titles and offices read as names. Kept: a job title after a personal
    title (``personal_titles``: "Dr. Brewer"), one word that is also a listed name ("Brewer",
    "Lawyer"), several with a name that is no everyday word among them, and "The Economist" (an
    article opens a paper's or a band's name, not a job title); what the project's deny list named."""
    offices = word_list(doc.lex, "office_titles") if doc.lex else frozenset()
    out = []
    for s in spans:
        if DENY_SOURCE in s.sources:
            out.append(s)
            continue
        if _office_alone(doc, s, offices):
            continue
        office, held = _office_of(doc, s, offices)
        if office:
            out.extend([held] if held is not None else [])
            continue
        if s.category in _JOB_TITLE_KINDS and doc.lower[s.start_word].strip(".,;:") not in _ARTICLES \
                and job_title_at(doc.lower, s.start_word, s.end_word, doc.language) \
                and (not s.start_word or doc.lower[s.start_word - 1].strip(".,;:") not in personal_titles) \
                and not _office_of_someone(doc, s.start_word):
            names = load_world_names()
            keys = [fold_key(w) for w in doc.words[s.start_word:s.end_word]]
            if not (names.is_name(keys[0]) if len(keys) == 1 else
                    any(names.is_plain_name(k) for k in keys)):
                continue
        out.append(s)
    return out


def _office_of_someone(doc: DetectDoc, w: int) -> bool:
    """Does a possessive come right before word ``w``, or one word before it ("Thailand's ousted Prime
    Minister", "Acme's CTO")? The office then names the one person who holds it: kept for review."""
    return any(doc.words[k].rstrip(",.;:").endswith(("'s", "’s", "s'")) for k in range(max(0, w - 2), w))


def job_before(doc: DetectDoc, w: int) -> bool:
    """"a reporter at | The New York Times", "engineer for | Google": a job word, then at/for/with
    before word ``w`` — the organisation is where someone works."""
    if w < 2 or doc.lower[w - 1] not in ("at", "for", "with", "en", "para", "con"):
        return False
    job = doc.lower[w - 2].strip(".,;:")
    heads = job_vocabulary(doc.language)[1]
    offices = word_list(doc.lex, "office_titles") if doc.lex else frozenset()
    return job in heads or job.removesuffix("s") in heads or job in offices or job in _WORKERS


def job_and_at_before(doc: DetectDoc, w: int) -> bool:
    """Is word ``w`` right after a job and "at" ("a chartered accountant at | Hernandez-Hoffman"):
    an employer cue the lexicon cannot list, and no person's name after it."""
    return w >= 2 and doc.lower[w - 1] in ("at", "en") and doc.lower[w - 2].strip(".,;:!?") in job_vocabulary(
        doc.language)[1]


_WORKERS = frozenset({"reporter", "employee", "intern", "staff", "empleado", "empleada", "becario", "becaria"})
