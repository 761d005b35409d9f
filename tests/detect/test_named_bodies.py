"""A name given to a firm or a place after its noun and "called" is that firm or place, no person."""

import pytest

from redactdesk.detect.pipeline import detect_texts


def found(text, language="en"):
    return [(text[s["start"]:s["end"]], s["category"]) for s in detect_texts([text], language)[0]]


@pytest.mark.parametrize("text,name,category", [
    ("I work for a company called Acme Widgets.", "Acme Widgets", "ORGANIZATION"),  # was a person
    ("I grew up in a little town called Paducah.", "Paducah", "CITY"),  # the list knows the town
])
def test_a_name_given_to_a_firm_or_a_place_is_that_body(text, name, category):
    assert (name, category) in found(text)


@pytest.mark.parametrize("text,name", [("there was a guy called Dave at the bar", "Dave"),
                                       ("we met a man named Harold at the bar", "Harold")])
def test_a_name_given_to_someone_stays_a_person(text, name):
    assert (name, "PERSON") in found(text)


@pytest.mark.parametrize("text,name", [("my mom's name is patricia but everyone calls her trish", "trish"),
                                       ("Everyone calls her Trish.", "Trish")])
def test_the_name_someone_is_called_by_is_a_person(text, name):
    assert (name, "PERSON") in found(text)


@pytest.mark.parametrize("text", ["everyone calls me maybe", "she calls me every day", "he calls him often"])
def test_what_follows_calls_me_that_is_no_name_stays_a_word(text):
    assert not [t for t, c in found(text) if c == "PERSON"]


def test_a_diner_called_by_a_name_is_a_firm():
    assert ("mabel's", "ORGANIZATION") in found("then we stopped at a little diner called mabel's")
