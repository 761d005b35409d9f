"""A currency is no name: its country and unit are no organisation, its code after an amount no
spelled letters. The unit words are the lexicon's; a bank named with an everyday word stays."""

import pytest

from redactdesk.detect.currencies import currency_codes
from redactdesk.detect.pipeline import detect_texts


def found(text, lang="en"):
    return [(text[s["start"]:s["end"]], s["category"]) for s in detect_texts([text], lang)[0]]


@pytest.mark.parametrize("text,lang", [
    ("what is the exchange rate between the us dollar and the aus dollar", "en"),
    ("how much is the hong kong dollar worth", "en"),
    ("if i have five u. s. d. how much is that in aud", "en"),
    ("convert 20 e u r to pounds", "en"),
    ("cuánto vale el dólar australiano", "es"),
])
def test_a_currency_is_no_name(text, lang):
    assert [c for _, c in found(text, lang) if c not in ("MONEY", "DATE")] == []


@pytest.mark.parametrize("text,item", [
    ("I banked with Banco Real for years.", "Banco Real"),             # "real" is on no unit list
    ("my reference is a u d seven seven", "a u d seven seven"),        # letters of a code with no amount before
    ("she moved to hong kong last year", "hong kong"),                 # a place with no unit after it
])
def test_look_alikes_of_currencies_stay(text, item):
    assert item in [v for v, _ in found(text)]


def test_the_codes_are_iso_4217():
    assert {"usd", "aud", "eur", "gbp", "jpy"} <= currency_codes() and "abc" not in currency_codes()
