"""A currency is no name: "the exchange rate between the us dollar and the aus dollar", "five u s d",
"el dólar australiano".

The taggers read a currency said with its country ("aus dollar", "hong kong dollar") as an
organisation, and an ISO code spelled after an amount ("five u. s. d.") is read as spelled letters;
their surrogates would be a company and a code (the issue's precision guard: what is not personal
data stays unflagged). :func:`currencies_are_no_names` drops them after the vote.

The unit words are the lexicon's ``currency_units`` (the unit ends an English currency's name and
opens a Spanish one: "us dollar", "dólar estadounidense"); the codes are every ISO 4217 code Babel
knows. A unit that is also an everyday word or a name ("real", "rand", "mark") is on no list: "Banco
Real" stays a bank.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from redactdesk.core.types import Span
from redactdesk.detect.lists import DENY_SOURCE
from redactdesk.detect.normalize import LETTER, NUM
from redactdesk.detect.sources import DetectDoc
from redactdesk.lang.lexicon import word_list

_PLACES_AND_FIRMS = frozenset({"ORGANIZATION", "LOCATION", "CITY", "COUNTRY", "NRP"})
_ENDS_WITH_UNIT = frozenset({"en"})  # languages whose currency names end in the unit ("us dollar")


@functools.lru_cache(maxsize=1)
def currency_codes() -> frozenset[str]:
    """Every ISO 4217 code Babel knows, lower case ("usd", "aud", "eur")."""
    from babel.numbers import list_currencies

    return frozenset(c.lower() for c in list_currencies())


def _bare(word: str) -> str:
    return word.strip(".,;:!?\"()").lower()


def _a_currency_with_its_country(doc: DetectDoc, s: Span, units: frozenset[str]) -> bool:
    """"aus dollar", "hong kong dollars", "dólar australiano": two words or more with the unit at the
    end (English) or at the start (Spanish), or the country right before the unit ("the hong kong |
    dollar") or after it ("el dólar | australiano")."""
    if s.category not in _PLACES_AND_FIRMS:
        return False
    english = doc.language in _ENDS_WITH_UNIT
    if s.end_word - s.start_word >= 2 and _bare(doc.words[s.end_word - 1 if english else s.start_word]) in units:
        return True
    beside = s.end_word if english else s.start_word - 1
    return 0 <= beside < len(doc.words) and _bare(doc.words[beside]) in units


def _a_code_after_an_amount(doc: DetectDoc, s: Span) -> bool:
    """"five u. s. d.", "20 e u r": spelled letters that are a currency code, right after a number."""
    norm = doc.norm
    first = norm.token_of_word(s.start_word) if norm is not None and s.category == "SPELLED_LETTERS" else None
    if first is None or first == 0 or norm.tokens[first - 1].kind != NUM:
        return False
    letters, t = [], first
    while t < len(norm.tokens) and norm.tokens[t].w1 <= s.end_word and len(letters) <= 3:
        if norm.tokens[t].kind != LETTER:
            return False
        letters.append(norm.tokens[t].text)
        t += 1
    return "".join(letters) in currency_codes()


def currencies_are_no_names(doc: DetectDoc, spans: Sequence[Span]) -> list[Span]:
    """The spans without currencies read as organisations, places or spelled letters."""
    if doc.lex is None or not any(s.category in _PLACES_AND_FIRMS or s.category == "SPELLED_LETTERS"
                                  for s in spans):
        return list(spans)
    units = word_list(doc.lex, "currency_units")
    return [s for s in spans if DENY_SOURCE in s.sources
            or not (_a_currency_with_its_country(doc, s, units) or _a_code_after_an_amount(doc, s))]
