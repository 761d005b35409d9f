"""Revision checks on a substituted conversation (seed 004's revision pitfalls), as warnings.

- ``same_as_original``: a surrogate equal to what it replaces.
- ``real_entity``: a surrogate that is also a real item elsewhere in the conversation.
- ``spelling``: spelled letters that no longer spell their surrogate word.
- ``number_grammar``: number words that no longer form a number ("diez y cuatro", "treinta y cero").
- ``date_relation``: dates whose distances, months or weekdays no longer agree.
- what real ASR output brings (:mod:`revision_asr`): ``original_nearby``, ``placeholder``,
  ``form_changed``, ``agreement``, ``category`` and spelled letters that still spell the original.

Messages name categories and span ids, never the original values.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from redactdesk.core.types import Conversation
from redactdesk.substitute import digits as D
from redactdesk.substitute import spelling
from redactdesk.substitute.dates import BIRTH_CATEGORIES, MONTHS, WEEKDAYS, DateValue
from redactdesk.substitute.numbers import CONNECTORS, is_number_word
from redactdesk.substitute.text import norm, plain_letters

if TYPE_CHECKING:
    from redactdesk.substitute.engine import ItemReport, SubstitutionResult

NUMERIC_CLASSES = {"card", "phone", "digits", "ssn", "es_id", "iban", "money", "ip", "address", "date", "expiry"}


@dataclass
class RevisionWarning:
    kind: str
    message: str
    category: str = ""
    span_ids: tuple[int | None, ...] = ()
    item_key: str = ""  # for the linguist panel; holds the normalised original, never print it

    def __str__(self) -> str:
        return f"{self.kind}: {self.message}"


def _spans(rep: ItemReport) -> tuple[int | None, ...]:
    return tuple(dict.fromkeys(o.span_id for o in rep.occurrences))


def _same_as_original(items: list[ItemReport]) -> list[RevisionWarning]:
    out = []
    for rep in items:
        if rep.kept or not rep.occurrences:
            continue
        letters = plain_letters(rep.original)
        if norm(rep.surrogate) == norm(rep.original) or (letters and plain_letters(rep.surrogate) == letters
                                                         and rep.klass not in NUMERIC_CLASSES):
            out.append(RevisionWarning("same_as_original", f"a {rep.category} surrogate equals its original",
                                       rep.category, _spans(rep), rep.key))
            continue
        for o in rep.occurrences:
            if o.said_original and norm(o.said_surrogate) == norm(o.said_original):
                out.append(RevisionWarning("same_as_original",
                                           f"span {o.span_id}: the {rep.category} is said exactly as before",
                                           rep.category, (o.span_id,), rep.key))
    return out


def _real_entity(items: list[ItemReport]) -> list[RevisionWarning]:
    originals: dict[str, str] = {}
    for rep in items:
        if rep.occurrences:
            originals.setdefault(norm(rep.original), rep.key)
            for o in rep.occurrences:
                if o.form not in ("spelled",) and o.said_original:
                    originals.setdefault(norm(o.said_original), rep.key)
    out = []
    for rep in items:
        if not rep.occurrences or rep.kept or rep.klass in ("date", "month", "expiry"):
            continue  # shifted dates and months may meet other originals by design (relations)
        hit = originals.get(norm(rep.surrogate))
        if hit is not None and hit != rep.key:
            out.append(RevisionWarning("real_entity",
                                       f"a {rep.category} surrogate is also a real item elsewhere in the call",
                                       rep.category, _spans(rep), rep.key))
    return out


def _spelling(items: list[ItemReport], language: str, spelling_words: dict[str, str]) -> list[RevisionWarning]:
    by_letters = {plain_letters(r.original): r for r in items if r.klass != "spelled" and r.occurrences}
    out = []
    for rep in items:
        for o in rep.occurrences:
            if o.form != "spelled":
                continue
            said = spelling.parse(o.said_surrogate.split(), language, spelling_words)
            letters = said.letters if said else ""
            if rep.klass == "spelled":
                other = by_letters.get(plain_letters(o.said_original))
                if other is not None and letters != plain_letters(other.surrogate):
                    out.append(RevisionWarning("spelling", f"span {o.span_id}: the spelled letters spelled a "
                                               f"{other.category} whose surrogate they no longer spell",
                                               rep.category, (o.span_id,), rep.key))
                continue
            if letters != plain_letters(rep.surrogate):
                out.append(RevisionWarning("spelling", f"span {o.span_id}: the spelled letters do not spell the "
                                           f"{rep.category} surrogate", rep.category, (o.span_id,), rep.key))
    return out


def _number_grammar(items: list[ItemReport], language: str) -> list[RevisionWarning]:
    out = []
    conn = CONNECTORS[language]
    for rep in items:
        if rep.klass not in NUMERIC_CLASSES:
            continue
        for o in rep.occurrences:
            toks = o.said_surrogate.split()
            tpl = D.parse(toks, language, letters=True)
            covered = {i for u in tpl.units for i in range(u.start, u.end)}
            bad = [i for i, t in enumerate(toks) if t.lower() == conn and i not in covered and 0 < i < len(toks) - 1
                   and is_number_word(toks[i - 1], language) and is_number_word(toks[i + 1], language)]
            before = D.parse(o.said_original.split(), language, letters=True)
            n_words_before = sum(1 for u in before.units if u.kind == "number")
            n_words_after = sum(1 for u in tpl.units if u.kind == "number")
            if bad or (rep.klass not in ("date", "expiry") and n_words_after > n_words_before and not rep.locked):
                out.append(RevisionWarning("number_grammar", f"span {o.span_id}: the {rep.category} surrogate's "
                                           "number words do not form the numbers they should",
                                           rep.category, (o.span_id,), rep.key))
    return out


def _date_relations(items: list[ItemReport], result: SubstitutionResult, language: str) -> list[RevisionWarning]:
    out = []
    pairs = []
    for rep in items:
        if rep.klass != "date" or not rep.occurrences:
            continue
        a, b = DateValue.from_iso(rep.original), DateValue.from_iso(rep.surrogate)
        if a is None or b is None:
            continue
        pairs.append((rep, a, b))
    full = [(r, a.as_date(), b.as_date()) for r, a, b in pairs]
    full = [(r, x, y) for r, x, y in full if x is not None and y is not None]
    # a birth date moves its year on its own (see dates.BIRTH_CATEGORIES); only its weekday is checked
    full = [(r, x, y) for r, x, y in full if r.category not in BIRTH_CATEGORIES or (y - x).days % 7]
    if full:
        r0, x0, y0 = full[0]
        for r, x, y in full[1:]:
            if (x - x0).days != (y - y0).days:
                out.append(RevisionWarning("date_relation", f"two dates ({r0.category}, {r.category}) are no "
                                           "longer the same number of days apart", r.category,
                                           _spans(r0) + _spans(r), r.key))
        for r, x, y in full:
            if (y - x).days % 7:
                out.append(RevisionWarning("date_relation", f"a {r.category} moved by a number of days that changes "
                                           "its weekday", r.category, _spans(r), r.key))
    month_names = MONTHS[language]
    steps = set()
    for _rep, a, b in pairs:
        if a.month is not None and b.month is not None:
            steps.add((b.month - a.month) % 12)
    for rep in items:
        if rep.klass == "month" and rep.occurrences and norm(rep.original) in month_names and (
                norm(rep.surrogate) in month_names):
            step = (month_names.index(norm(rep.surrogate)) - month_names.index(norm(rep.original))) % 12
            if steps and step not in steps:
                out.append(RevisionWarning("date_relation", "a month said on its own moved differently from the "
                                           "dates of the call", rep.category, _spans(rep), rep.key))
            steps.add(step)
    weekdays = WEEKDAYS[language]
    words = result.revised_words
    for rep, _a, b in pairs:
        y = b.as_date()
        if y is None or b.year is None:
            continue
        for o in rep.occurrences:
            window = [norm(w.text) for w in words[max(0, o.revised_start - 3):o.revised_end]]
            said = [w for w in window if w in weekdays]
            if said and weekdays.index(said[-1]) != y.weekday():
                out.append(RevisionWarning("date_relation", f"span {o.span_id}: the weekday said with the "
                                           f"{rep.category} no longer matches it", rep.category, (o.span_id,), rep.key))
    return out


def revision_checks(conv: Conversation, result: SubstitutionResult) -> list[RevisionWarning]:
    """All revision checks of one substituted conversation."""
    from redactdesk.substitute.gazetteer import load_gazetteer

    language = result.language
    items = result.items
    spelling_words = load_gazetteer(language).spelling_words
    out: list[RevisionWarning] = []
    out += _same_as_original(items)
    out += _real_entity(items)
    out += _spelling(items, language, spelling_words)
    out += _number_grammar(items, language)
    out += _date_relations(items, result, language)
    from redactdesk.substitute.revision_asr import asr_checks

    out += asr_checks(conv, result, load_gazetteer(language))
    return out
