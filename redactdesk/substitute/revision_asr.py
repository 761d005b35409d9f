"""Revision checks for what real ASR output does to a release (issue 18), as warnings.

A reference transcript substitutes cleanly; what Whisper writes leaves traps the older checks did
not see. Each check names the item (category, span id, map key) and never its value:

- ``original_nearby``: an original fragment (a number, a name, a year) said again within a few
  words of its item, outside every replaced span ("… de 1956. 58." after "de 1958. 58.", or the
  digit a span boundary cut off a run: "0 8 1 5 6 | 0");
- ``placeholder``: a placeholder or tag ("[email]", "[DATE_OF_BIRTH]") inside pseudonym output;
- ``form_changed``: digits that came back as words or words as digits, a digit count or an
  ordinal or month name that did not survive;
- ``agreement``: a title ("señora", "don", "Mrs") or a Spanish article right before a given name
  ("la Lucía") whose gender no longer agrees with the new name;
- ``category``: a surrogate that reads as another category (a person called like a city or a
  month, a city called like a person);
- ``spelling`` (with :mod:`revision`): spelled letters that still spell the original.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from redactdesk.core.types import Conversation
from redactdesk.substitute import spelling
from redactdesk.substitute.revision import NUMERIC_CLASSES, RevisionWarning
from redactdesk.substitute.text import norm, plain_letters, split_punct

if TYPE_CHECKING:
    from redactdesk.substitute.engine import SubstitutionResult
    from redactdesk.substitute.gazetteer import Gazetteer

WINDOW = 3  # words either side of an item searched for a fragment of its original
NAME_CLASSES = {"person", "city", "country", "organization", "product", "address"}
_PLACEHOLDER = re.compile(r"\[[A-Za-z_]+(?:_\d+)?\]")
_ORDINAL = re.compile(r"^\d{1,3}(st|nd|rd|th|º|ª|°|ro|do|to|mo|vo|no|er)$", re.I)
FEMALE_TITLES = {"senora", "sra", "dona", "senorita", "srta", "mrs", "ms", "miss", "madam"}
MALE_TITLES = {"senor", "sr", "don", "mr", "mister", "sir"}


def token_core(token: str) -> str:
    return norm(spelling.split_token(token)[1])


def digits_of(token: str) -> str:
    return re.sub(r"\D", "", token)


def original_fragments(original: str, klass: str, surrogate: str, language: str) -> set[str]:
    """Pieces of an original that must not be said again beside it: numbers of two digits or
    more (and a year's last two digits), and for names the words not also in the surrogate."""
    from redactdesk.resources import function_words

    out: set[str] = set()
    kept = {token_core(t) for t in surrogate.split()}
    for tok in original.split():
        d = digits_of(tok)
        if len(d) >= 2 and d == token_core(tok).replace(" ", ""):
            out.add(d)
            if len(d) == 4 and d[:2] in ("19", "20"):
                out.add(d[2:])
        core = token_core(tok)
        if (klass in NAME_CLASSES and core.isalpha() and len(core) >= 3 and core not in kept
                and core not in function_words(language)):
            out.add(core)
    return out


DATE_JOINERS = {"de", "del", "of", "the"}


def continuation(cores: list[str], taken: Callable[[int], bool], end: int, original: str, klass: str,
                 frags: set[str]) -> int:
    """End of the words right after an item (from ``end``) that still belong to it: a fragment of its
    original said again ("1958. | 58."), the digit a span boundary cut off a run ("0 8 1 5 6 | 0"),
    the rest of a date ("11 | de 11 de 81"). ``end`` when there are none."""
    orig = original.split()
    digit_run = klass in NUMERIC_CLASSES and len(orig) >= 3 and all(
        digits_of(t) and len(digits_of(t)) <= 2 for t in orig[-3:])
    dated = klass in ("date", "expiry")
    j = last = end
    while j < len(cores) and j < last + WINDOW and not taken(j):
        c = cores[j]
        if c in frags or (digit_run and j == last and c.isdigit() and len(c) <= 2) or (
                dated and c.isdigit() and len(c) in (1, 2, 4) and j > 0 and cores[j - 1] in DATE_JOINERS):
            last = j + 1
        elif not (dated and c in DATE_JOINERS):
            break
        j += 1
    return last


def original_nearby(conv: Conversation, result: SubstitutionResult) -> list[RevisionWarning]:
    words = result.revised_words
    cores = [token_core(w.text) for w in words]
    replaced = [False] * len(words)
    for rep in result.replacements:
        for i in range(rep.revised_start, min(rep.revised_end, len(words))):
            replaced[i] = True
    klass_of = {it.key: it.klass for it in result.items}
    out = []
    for rep in result.replacements:
        klass = klass_of.get(rep.keys[0], "") if rep.keys else ""
        frags = original_fragments(rep.original, klass, rep.surrogate, result.language)
        near = [*range(max(0, rep.revised_start - WINDOW), rep.revised_start),
                *range(rep.revised_end, min(len(words), rep.revised_end + WINDOW))]
        hit = any(not replaced[i] and cores[i] and cores[i] in frags for i in near)
        hit = hit or continuation(cores, lambda i: replaced[i], rep.revised_end, rep.original, klass,
                                  frags) > rep.revised_end
        if hit:
            out.append(RevisionWarning("original_nearby", f"span {rep.span_id}: a fragment of the {rep.category} "
                                       f"is said again within {WINDOW} words of the item", rep.category,
                                       (rep.span_id,), rep.keys[0] if rep.keys else ""))
    return out


def placeholder(result: SubstitutionResult) -> list[RevisionWarning]:
    return [RevisionWarning("placeholder", f"span {rep.span_id}: the {rep.category} became a placeholder in "
                            "pseudonym output", rep.category, (rep.span_id,), rep.keys[0] if rep.keys else "")
            for rep in result.replacements if _PLACEHOLDER.search(rep.surrogate)]


def _shape(text: str, language: str) -> tuple[bool, bool, int, int, bool]:
    from redactdesk.substitute.dates import MONTHS
    from redactdesk.substitute.numbers import is_number_word

    toks = [split_punct(t)[1] for t in text.split()]
    has_digits = any(any(c.isdigit() for c in t) for t in toks)
    has_words = any(len(t) > 1 and is_number_word(t.lower(), language) for t in toks)  # "O" is a letter here
    n_digits = sum(len(digits_of(t)) for t in toks if not _ORDINAL.match(t))
    ordinals = sum(1 for t in toks if _ORDINAL.match(t))
    month = any(norm(t) in MONTHS[language] for t in toks)
    return has_digits, has_words, n_digits, ordinals, month


def form_changed(result: SubstitutionResult) -> list[RevisionWarning]:
    out = []
    fixed_count = {"card", "phone", "digits", "ssn", "es_id", "iban"}
    for it in result.items:
        if it.klass not in NUMERIC_CLASSES or it.kept:
            continue
        for o in it.occurrences:
            if not o.said_original or o.form == "spelled":
                continue
            a = _shape(o.said_original, result.language)
            b = _shape(o.said_surrogate, result.language)
            changed = (a[0] and not b[0]) or (a[0] and not a[1] and b[1]) or (a[3] != b[3]) or (a[4] != b[4])
            if it.klass in fixed_count and a[0] and not a[1] and a[2] != b[2]:
                changed = True
            if changed:
                out.append(RevisionWarning("form_changed", f"span {o.span_id}: the {it.category} is not said in "
                                           "the form of the original (digits, words, ordinals or month)",
                                           it.category, (o.span_id,), it.key))
    return out


def agreement(result: SubstitutionResult, gaz: Gazetteer) -> list[RevisionWarning]:
    out = []
    words = result.revised_words
    for it in result.items:
        if it.klass != "person" or it.info.get("role") != "given" or not it.surrogate:
            continue
        gender = gaz.gender(it.surrogate)
        if gender is None:
            continue
        for o in it.occurrences:
            before = [token_core(w.text).replace("ñ", "n") for w in words[max(0, o.revised_start - 2):o.revised_start]]
            want = "f" if any(b in FEMALE_TITLES for b in before) else "m" if any(b in MALE_TITLES for b in before) \
                else None
            if want is None and result.language == "es" and before and before[-1] in ("la", "el"):
                want = "f" if before[-1] == "la" else "m"  # "la Lucía", "el Pedro": the article says the gender
            if want is not None and want != gender:
                out.append(RevisionWarning("agreement", f"span {o.span_id}: the title before the {it.category} "
                                           "does not agree with the new name's gender", it.category,
                                           (o.span_id,), it.key))
    return out


def category(result: SubstitutionResult, gaz: Gazetteer) -> list[RevisionWarning]:
    from redactdesk.substitute.dates import MONTHS, WEEKDAYS

    out = []
    calendar = set(MONTHS[result.language]) | set(WEEKDAYS[result.language])
    for it in result.items:
        if not it.occurrences or not it.surrogate or it.kept:
            continue
        s = it.surrogate
        wrong = False
        if it.klass == "person":
            wrong = norm(s) in calendar or (gaz.contains("cities", s) and not gaz.is_first_name(s)
                                            and not gaz.contains("surnames", s))
        elif it.klass in ("city", "country"):
            wrong = gaz.is_first_name(s) and not gaz.contains("cities", s)
        if wrong:
            out.append(RevisionWarning("category", f"a {it.category} surrogate reads as another category",
                                       it.category, tuple(dict.fromkeys(o.span_id for o in it.occurrences)), it.key))
    return out


def spelled_original(result: SubstitutionResult, spelling_words: dict[str, str]) -> list[RevisionWarning]:
    """Spelled letters that still spell their original: a leak, whatever the alphabet words are."""
    out = []
    for it in result.items:
        for o in it.occurrences:
            if o.form != "spelled":
                continue
            said = spelling.parse(o.said_surrogate.split(), result.language, spelling_words)
            heard = spelling.parse(o.said_original.split(), result.language, spelling_words)
            letters = said.letters if said else ""
            if letters and heard is not None and letters == heard.letters:
                out.append(RevisionWarning("spelling", f"span {o.span_id}: the spelled letters still spell the "
                                           f"original {it.category}", it.category, (o.span_id,), it.key))
            elif letters and letters == plain_letters(it.original) and it.klass != "spelled":
                out.append(RevisionWarning("spelling", f"span {o.span_id}: the spelled letters still spell the "
                                           f"original {it.category}", it.category, (o.span_id,), it.key))
    return out


def asr_checks(conv: Conversation, result: SubstitutionResult, gaz: Gazetteer) -> list[RevisionWarning]:
    """All checks of this module over one substituted conversation."""
    out: list[RevisionWarning] = []
    out += original_nearby(conv, result)
    out += placeholder(result)
    out += form_changed(result)
    out += agreement(result, gaz)
    out += category(result, gaz)
    out += spelled_original(result, gaz.spelling_words)
    return out
