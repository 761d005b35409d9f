"""A place's coordinates get other digits in the same shape: the hemispheres and separators stay."""

from __future__ import annotations

import re

import pytest

from redactdesk.detect.pipeline import detect_texts
from redactdesk.substitute import substitute_conversation


@pytest.mark.parametrize("value", ["40.7128° N, 74.0060° W", "51.5007, -0.1246"])
def test_coordinates_get_new_digits_in_their_shape(make_conv, secret, value):
    conv = make_conv([("customer", f"meet me at {value} tonight")], [(0, value, "GEO_COORDINATES")])
    res = substitute_conversation(conv, secret=secret)
    new = res.replacements[0].surrogate
    assert new != value
    assert re.sub(r"\d", "0", new) == re.sub(r"\d", "0", value)


@pytest.mark.parametrize("text, value", [
    ("Meet me at 40.7128° N, 74.0060° W.", "40.7128° N, 74.0060° W"),
    ("at 40°42'46\"N 74°00'21\"W tonight", "40°42'46\"N 74°00'21\"W"),
    ("my location is 51.5007, 0.1246", "51.5007, 0.1246"),
    ("drop location: 40.7128, -74.0060", "40.7128, -74.0060"),
    ("I'm at 40.7128 north, 74.0060 west.", "40.7128 north, 74.0060 west"),  # as ASR writes them said
    ("latitude 51.5007, longitude -0.1246", "latitude 51.5007, longitude -0.1246"),  # each after its label
    ("Lat: 40.71, Lng: -74.00 now", "Lat: 40.71, Lng: -74.00"),
])
def test_written_coordinates_are_one_item(text, value):
    assert (value, "GEO_COORDINATES") in [(text[s["start"]:s["end"]], s["category"])
                                          for s in detect_texts([text], "en")[0]]


@pytest.mark.parametrize("text", ["pi is 3.1415, 2.7182 and e", "we scored 12.5, 13.25", "version 10.0.19041.1234",
                                  "take route 12 north, 5 east of the bridge"])
def test_decimals_that_are_no_place_are_not_coordinates(text):
    assert not [s for s in detect_texts([text], "en")[0] if s["category"] == "GEO_COORDINATES"]


def test_coordinates_read_aloud_are_one_item_and_get_other_numbers_said(make_conv, secret):
    text = "my coordinates are forty point seven one two eight north seventy four point zero zero six zero west"
    value = text.removeprefix("my coordinates are ")
    assert (value, "GEO_COORDINATES") in [(text[s["start"]:s["end"]], s["category"])
                                          for s in detect_texts([text], "en")[0]]
    conv = make_conv([("customer", text)], [(0, value, "GEO_COORDINATES")])
    new = substitute_conversation(conv, secret=secret).replacements[0].surrogate
    assert new != value and new.split()[1] == "point" and " north " in new and new.endswith(" west")


@pytest.mark.parametrize("text", ["it is twelve point five north of here", "the score was forty point five"])
def test_a_decimal_said_with_a_direction_is_no_place(text):
    assert not [s for s in detect_texts([text], "en")[0] if s["category"] == "GEO_COORDINATES"]
