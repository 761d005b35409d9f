"""An age said as a decade of life after "in" and a possessive is an age; a decade of time is not."""

import pytest

from redactdesk.detect.pipeline import detect_texts
from redactdesk.lang.decades import read_decade, say_decade


def found(text):
    return [(text[s["start"]:s["end"]], s["category"]) for s in detect_texts([text], "en")[0]]


@pytest.mark.parametrize("text,age", [
    ("The suspect, described as a white male in his 30s, fled on foot.", "30s"),
    ("she is in her early forties", "early forties"),
    ("I'm in my mid-20s and live alone.", "mid-20s"),
    ("he is in his thirty s now", "thirty s"),  # the spoken form of "30s"
])
def test_a_decade_of_life_said_of_someone_is_an_age(text, age):
    assert (age, "AGE") in found(text)


@pytest.mark.parametrize("text", ["the song from the 80s", "in the sixties we had fun", "back in the 90s"])
def test_a_decade_of_time_is_no_age(text):
    assert not [t for t, c in found(text) if c == "AGE"]


@pytest.mark.parametrize("tokens,value,said", [
    (["30s"], 70, ["70s"]), (["mid-20s,"], 50, ["mid-50s,"]), (["early", "forties"], 20, ["early", "twenties"]),
    (["thirty", "s"], 60, ["sixty", "s"]), (["Thirties"], 40, ["Forties"]),
])
def test_a_decade_is_said_again_in_its_own_form(tokens, value, said):
    assert say_decade(read_decade(tokens), value, tokens) == said
