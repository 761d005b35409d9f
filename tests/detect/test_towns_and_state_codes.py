"""A US town written with its state's code ("Boulder, CO", "Reno, NV", "Salt Lake City, UT"): a place,
whatever else the code spells — a firm's legal form ("Co", "NV", "AB") or a street type ("út")."""

import pytest

from redactdesk.detect.pipeline import detect_texts


def spans(text):
    return [(text[s["start"]:s["end"]], s["category"]) for s in detect_texts([text], "en")[0]]


@pytest.mark.parametrize("text, place", [
    ("He works in Boulder, CO and flies out of Denver.", "Boulder, CO"),
    ("She flew in from Reno, NV on Monday.", "Reno, NV"),
    ("Our branch in Calgary, AB opens soon.", "Calgary, AB"),
])
def test_a_town_and_its_state_code_are_one_place_and_no_firm(text, place):
    got = spans(text)
    assert (place, "CITY") in got, got
    assert not [s for s, c in got if c == "ORGANIZATION"], got


def test_a_firm_with_a_dotted_legal_form_after_a_comma_stays_a_firm():
    assert ("Acme, Co.", "ORGANIZATION") in spans("Acme, Co. shipped it on time.")


def test_a_state_code_after_a_comma_is_no_street_type_of_the_town_before_it():
    got = spans("I moved to Salt Lake City, UT 84101 in May.")
    assert not [s for s, c in got if c == "ADDRESS"], got  # no "Lake City, UT 84101" street
    assert any(s.startswith("Salt Lake City") for s, c in got if c == "CITY"), got
