"""A holiday is no name: the taggers read "valentine 's day" as a person and "Independence Day" as an
organisation; the surrogate would have been somebody's name. Names that a holiday is named after stay."""

import pytest

from redactdesk.detect.holiday_names import holiday_names
from redactdesk.detect.pipeline import detect_texts

_NAMES = {"PERSON", "ORGANIZATION", "LOCATION", "CITY", "COUNTRY"}


def names_in(text, lang="en"):
    return [(text[s["start"]:s["end"]], s["category"]) for s in detect_texts([text], lang)[0]
            if s["category"] in _NAMES]


@pytest.mark.parametrize("text", [
    "what day of the week is valentine 's day this year",
    "Is Valentine's Day on a Saturday?",
    "is martin luther king day a bank holiday",
    "We are closed on Independence Day and on Boxing Day.",
    "when is diwali this year",
    "We always go to my grandmother's for Christmas and Easter.",  # feasts said alone (lexicon festivals)
    "during Ramadan we eat after sunset",
])
def test_a_holiday_is_no_name(text):
    assert names_in(text) == []


@pytest.mark.parametrize("text, name", [
    ("call valentine 's phone", "valentine"),             # a person's possessive, no holiday after it
    ("martin luther king gave a speech", "martin luther king"),
    ("I moved to Columbus last year.", "Columbus"),         # "Columbus Day" holds a city
    ("Easter Holdings reported a loss.", "Easter Holdings"),  # a firm named after a feast
])
def test_a_name_a_holiday_is_named_after_stays(text, name):
    assert any(name in found for found, _ in names_in(text))


def test_holidays_come_in_the_language_of_the_text():
    assert ("christmas",) in holiday_names("en") and ("thanksgiving", "day") in holiday_names("en")
    es = holiday_names("es")
    assert ("dia", "de", "la", "madre") in es and ("christmas",) not in es
    assert ("columbus",) not in holiday_names("en")  # never a part of a holiday's name alone


def test_feasts_said_alone_come_from_the_lexicon():
    assert ("thanksgiving",) in holiday_names("en") and ("semana", "santa") in holiday_names("es")


@pytest.mark.parametrize("text, name", [
    ("Merry Christmas Maria", "Maria"),
    ("Happy Diwali Priya", "Priya"),
    ("Eid Mubarak Ahmed", "Ahmed"),
    ("wishing you a merry christmas maria", "maria"),
])
def test_a_feast_wished_is_no_part_of_the_name_after_it(text, name):
    """The taggers ran the greeting and the feast into the person ("Merry Christmas Maria"): its
    surrogate would have replaced the wish too."""
    assert names_in(text) == [(name, "PERSON")]


def test_a_greeting_and_a_feast_alone_are_no_name():
    assert [n for n, _ in names_in("merry christmas to you and john")] == ["john"]


@pytest.mark.parametrize("text, name", [("Easter Holdings reported a loss.", "Easter Holdings"),
                                        ("Christmas Island is remote.", "Christmas Island")])
def test_a_firm_or_place_named_after_a_feast_keeps_it(text, name):
    assert name in [n for n, _ in names_in(text)]
