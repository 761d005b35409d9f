"""Punctuation written around an item stays around its surrogate."""

from __future__ import annotations

import re

import pytest

from redactdesk.substitute import substitute_conversation


@pytest.mark.parametrize(("said", "category", "shape"), [
    ("[Acme Corp]", "ORGANIZATION", r"\[[A-Z]\w+ Corp\]"),
    ("“Lisbon”", "CITY", r"“[A-Z][\w ]+”"),
    ("‘Maria’", "PERSON", r"‘[A-Z]\w+’"),
    ("{Leeds}", "CITY", r"\{[A-Z][\w ]+\}"),
    ("<ana.lopez@example.org>", "EMAIL", r"<[\w.]+@[\w.]+>"),  # was said in words: "miranda dot mooney at ..."
])
def test_brackets_and_curly_quotes_around_an_item_stay_around_its_surrogate(make_conv, secret, said, category, shape):
    """"[Acme Corp]" became "Zentrix Corp]", "“Lisbon”" became "Raleigh": only straight quotes and round
    brackets were kept as punctuation."""
    conv = make_conv([("c", f"I wrote {said} on the form")], [(0, said, category)])
    new = substitute_conversation(conv, secret=secret).replacements[0].surrogate
    assert re.fullmatch(shape, new) and new != said, new


@pytest.mark.parametrize(("said", "category", "shape"), [
    ("#japan", "LOCATION", r"#[a-z]+"),  # became "buffalo": the hash was lost
    ("#chicago,", "CITY", r"#[a-z]+,"),
    ("#SantaMonica", "CITY", r"#[A-Z][A-Za-z]+"),
])
def test_a_hashtag_stays_one_hashtag(make_conv, secret, said, category, shape):
    conv = make_conv([("c", f"loved it {said} so much")], [(0, said, category)])
    res = substitute_conversation(conv, secret=secret)
    new = " ".join(w.text for w in res.revised_words).removeprefix("loved it ").removesuffix(" so much")
    assert re.fullmatch(shape, new) and new.lower() != said.lower(), new
