"""A holiday is no name: "valentine's day", "martin luther king day", "diwali", "Independence Day",
"el Día de la Madre".

The taggers read a holiday as a person ("valentine 's", "martin luther king") or an organisation
("Independence Day"), and its surrogate would then be somebody's name ("what day is Karen Smith this
year"). A holiday identifies no one; the issue's precision guard names event names among what stays
unflagged. :func:`holidays_are_no_names` drops such spans after the vote.

The names come from the pinned ``holidays`` package: every public, unofficial and other category it
knows for countries that speak the language, in the language's own wording; and from the lexicon's
``festivals``, feasts and seasons said alone that the package names only as days ("Thanksgiving" beside
its "Thanksgiving Day", "Ramadan", "semana santa"). A name counts whole
("Columbus Day", "Día de Colón", "Diwali"), also with the word "day" or "eve" after the span
("valentine 's" + "day"); never a part of one ("columbus", "valentine's": "Valentine's phone" is a
person's, and "Labor" a party).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence

from redactdesk.core.types import Span
from redactdesk.detect.lists import DENY_SOURCE
from redactdesk.detect.sources import DetectDoc
from redactdesk.lang.folding import fold_key
from redactdesk.lang.lexicon import load_lexicon, word_list

# countries whose holidays are named in the language (the package's own wording for each)
_COUNTRIES = {
    "en": ("US", "GB", "CA", "AU", "IE", "NZ", "IN", "ZA", "PH", "SG", "NG", "KE", "PK", "MT"),
    "es": ("ES", "MX", "AR", "CO", "CL", "PE", "VE", "UY", "EC", "BO", "PY", "CR", "PA", "DO", "GT", "HN", "NI",
           "SV", "CU"),
}
_YEARS = (2024, 2025, 2026)  # a few years: holidays that move, and those of leap or election years
_NOTES = re.compile(r"\s*\((?:observed|estimated|observado|estimado|puente)\)", re.I)
_DAY_WORDS = {"en": ("day", "eve"), "es": ()}  # said after a span: "valentine 's" + "day"
_KINDS = frozenset({"PERSON", "ORGANIZATION", "LOCATION", "CITY", "COUNTRY", "NRP"})


def _keys(text: str) -> tuple[str, ...]:
    """Folded words, a possessive split off ("Valentine's" -> valentine, s; "'s" -> s)."""
    out: list[str] = []
    for word in text.replace("’", "'").split():
        word = word.strip(".,;:!?\"()[]")
        if word.lower().endswith("'s") and len(word) > 2:
            out += [fold_key(word[:-2]), "s"]
        elif word:
            out.append(fold_key(word))
    return tuple(k for k in out if k)


def _variants(key: tuple[str, ...]) -> set[tuple[str, ...]]:
    """The name, with "saint" as "st", without "jr" ("martin luther king day"), and with a possessive
    joined to its word ("valentines day", as speech often writes it)."""
    out = {key}
    for old, new in (("saint", "st"), ("jr", None)):
        for k in list(out):
            if old in k:
                out.add(tuple(w for w in (new if w == old else w for w in k) if w))
    for k in list(out):
        joined: list[str] = []
        for w in k:
            if w == "s" and joined:
                joined[-1] += "s"
            else:
                joined.append(w)
        out.add(tuple(joined))
    return out


@functools.lru_cache(maxsize=4)
def holiday_names(language: str) -> frozenset[tuple[str, ...]]:
    """Folded word tuples of the holidays of the language's countries, with their variants."""
    import holidays as holiday_data

    wanted = language.split("_")[0]
    names: set[str] = set()
    for country in _COUNTRIES.get(wanted, ()):
        try:
            kind = holiday_data.country_holidays(country).__class__
        except NotImplementedError:  # a country the installed package does not know
            continue
        wording = next((w for w in getattr(kind, "supported_languages", ()) if w.split("_")[0] == wanted), None)
        if wording is None and getattr(kind, "default_language", None) is not None:
            continue  # holidays named in another language only
        for year in _YEARS:
            found = holiday_data.country_holidays(country, years=year, language=wording,
                                                  categories=tuple(getattr(kind, "supported_categories", ())))
            names.update(part.strip() for name in found.values() for part in name.split(";"))
    names.update(word_list(load_lexicon(wanted), "festivals"))  # feasts said alone: "for Thanksgiving"
    out: set[tuple[str, ...]] = set()
    for name in names:
        key = _keys(_NOTES.sub("", name))
        if not key:
            continue
        out |= _variants(key)
    return frozenset(out)


def _span_keys(doc: DetectDoc, s: Span) -> Iterable[tuple[str, ...]]:
    """The span's words, and with the possessive and the "day" / "eve" after it ("valentine" + "'s day")."""
    end = s.end_word
    if end < len(doc.words) and doc.words[end].replace("’", "'").lower() == "'s":
        end += 1  # the possessive joins the span later (name_bounds._with_possessives)
    key = _keys(" ".join(doc.words[s.start_word:end]))
    yield key
    after = fold_key(doc.words[end]) if end < len(doc.words) else ""
    if after in _DAY_WORDS.get(doc.language, ()):
        yield key + (after,)


def _wished_feast(doc: DetectDoc, s: Span, names: frozenset[tuple[str, ...]]) -> int:
    """How many words at the span's start wish a feast (a greeting, then the feast: "Merry Christmas"
    of "Merry Christmas Maria", "Diwali" of "Diwali Priya"; all of "merry christmas"); 0 when none
    do. The words after them are the name a tagger ran the feast into. A firm or a place named after
    a feast keeps it ("Easter Holdings", "Christmas Island"): only a person loses a feast that no
    greeting opens."""
    greetings = word_list(doc.lex, "festival_greetings") if doc.lex is not None else frozenset()
    if doc.lex is not None and doc.lower[s.start_word] in greetings:  # "wishing you a merry christmas maria"
        greetings = greetings | doc.lex.stop_words
    a = s.start_word
    while a < s.end_word - 1 and doc.lower[a] in greetings:
        a += 1
    if a == s.start_word and s.category != "PERSON":
        return 0
    for b in range(s.end_word, a, -1):  # the longest feast
        if _keys(" ".join(doc.words[a:b])) in names:
            return b - s.start_word
    return 0


def holidays_are_no_names(doc: DetectDoc, spans: Sequence[Span]) -> list[Span]:
    """The spans without the holidays read as names (what the project's deny list named stays), and
    without a feast wished at their start ("Merry Christmas Maria" is the person "Maria")."""
    if not any(s.category in _KINDS for s in spans):
        return list(spans)
    names = holiday_names(doc.language)
    out = []
    for s in spans:
        if DENY_SOURCE in s.sources or s.category not in _KINDS:
            out.append(s)
            continue
        if any(k in names for k in _span_keys(doc, s)):
            continue
        wished = _wished_feast(doc, s, names)
        if wished == s.end_word - s.start_word:
            continue
        s.start_word += wished
        out.append(s)
    return out
