"""Web addresses said aloud: the whole address is one item, and no one's name survives in its path."""

from __future__ import annotations

import re

import pytest

from redactdesk.detect.pipeline import detect_texts
from redactdesk.substitute import substitute_conversation

PROFILE = "linkedin dot com slash in slash priya dash raman"


def test_a_web_address_said_with_its_path_is_one_item():
    """The path was left out ("slash priya dash raman" a person with its "slash")."""
    text = f"my linkedin is {PROFILE}"
    found = [(text[s["start"]:s["end"]], s["category"]) for s in detect_texts([text], "en")[0]]
    assert found == [(PROFILE, "URL")]


@pytest.mark.parametrize("text,value", [
    ("go to w w w dot acme dot co dot uk slash careers", "w w w dot acme dot co dot uk slash careers"),
    ("my email is john at gmail dot com slash work", "john at gmail dot com"),  # an e-mail has no path
])
def test_what_a_path_takes_and_what_it_does_not(text, value):
    assert value in [text[s["start"]:s["end"]] for s in detect_texts([text], "en")[0]]


def test_a_name_in_a_web_address_path_is_replaced(make_conv, secret):
    """The surrogate kept the path as said: "example dot org slash in slash priya dash raman"."""
    conv = make_conv([("customer", f"my linkedin is {PROFILE}")], [(0, PROFILE, "URL")])
    new = substitute_conversation(conv, secret=secret).replacements[0].surrogate
    assert "priya" not in new and "raman" not in new and "linkedin" not in new
    assert " slash in slash " in new and " dash " in new  # the shape and a site's own path words stay


def test_a_sites_own_path_word_stays(make_conv, secret):
    value = "w w w dot acme dot co dot uk slash careers"
    conv = make_conv([("customer", f"go to {value}")], [(0, value, "URL")])
    assert substitute_conversation(conv, secret=secret).replacements[0].surrogate.endswith(" slash careers")


def test_a_written_web_address_stays_written_and_loses_the_names_in_its_path(make_conv, secret):
    """A written URL became a spoken one ("northwind dot example") in written text."""
    value = "https://www.facebook.com/maria.lopez.77"
    conv = make_conv([("customer", f"see {value} thanks")], [(0, value, "URL")])
    res = substitute_conversation(conv, secret=secret)
    new = res.replacements[0].surrogate
    assert new.startswith("https://www.") and " " not in new and "dot" not in new
    assert "facebook" not in new and "maria" not in new and "lopez" not in new and not new.endswith(".77")
    assert re.fullmatch(r"https://www\.[a-z0-9.-]+/[a-z]+\.[a-z]+\.\d\d", new), new
    assert f"see {new} thanks" == " ".join(w.text for w in res.revised_words)


def test_a_written_web_address_keeps_a_sites_own_page_word(make_conv, secret):
    conv = make_conv([("customer", "my site is priyaraman.com/blog")], [(0, "priyaraman.com/blog", "URL")])
    new = substitute_conversation(conv, secret=secret).replacements[0].surrogate
    assert new.endswith("/blog") and "priyaraman" not in new


def test_a_name_run_into_digits_in_a_written_path_is_replaced(make_conv, secret):
    """"instagram.com/maria88": letters and digits of one path part are each someone's."""
    value = "https://www.instagram.com/maria88"
    conv = make_conv([("customer", f"follow {value} now")], [(0, value, "URL")])
    new = substitute_conversation(conv, secret=secret).replacements[0].surrogate
    assert "maria" not in new and not new.endswith("88") and re.fullmatch(r"https://www\.\S+/[a-z]+\d\d", new), new
