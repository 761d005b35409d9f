"""A numbered road is a place ("we live just off Route 9", "highway one oh one"); a house on one is an
address ("I live at 12 Route 9, Hopewell NJ"); a road's words without a number are none."""

import pytest

from redactdesk.detect.pipeline import detect_texts


def spans(text, language="en"):
    return [(text[s["start"]:s["end"]], s["category"]) for s in detect_texts([text], language)[0]]


@pytest.mark.parametrize("text,road,language", [
    ("We live just off Route 9 near the mall.", "Route 9", "en"),  # a firm to the tagger
    ("take Interstate 5 south to Sacramento", "Interstate 5", "en"),  # found by no source
    ("take I-95 north", "I-95 north", "en"),
    ("we live just off route nine near the mall", "route nine", "en"),  # found by no source
    ("there was a crash on highway one oh one this morning", "highway one oh one", "en"),  # "highway one"
    ("get on route four seventeen", "route four seventeen", "en"),
    ("take i ninety five to the city", "i ninety five", "en"),
    ("vivo junto a la ruta cinco", "ruta cinco", "es"),
])
def test_a_numbered_road_is_a_place(text, road, language):
    assert (road, "LOCATION") in spans(text, language)


@pytest.mark.parametrize("text,address", [
    ("I live at 12 Route 9, Hopewell NJ", "12 Route 9, Hopewell NJ"),  # the house number was left
    ("send it to 55 Route 1, Kittery, ME 03904", "55 Route 1, Kittery, ME 03904"),
])
def test_a_house_on_a_numbered_road_is_an_address(text, address):
    assert (address, "ADDRESS") in spans(text)


@pytest.mark.parametrize("text", ["I 95 percent agree with you", "the traffic on route nine four times a day"])
def test_a_road_is_no_longer_than_its_number(text):
    assert not any(c == "LOCATION" and ("95" in t or "four" in t) for t, c in spans(text))
