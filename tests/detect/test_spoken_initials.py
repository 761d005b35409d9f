"""In speech a first name's initial said after it belongs to the name."""

import pytest


@pytest.mark.parametrize("text,name", [
    ("three found that engineer edward d", "edward d"),
    ("this is john b from support", "john b"),
    ("it was mary k", "mary k"),
])
def test_an_initial_after_a_first_name_is_part_of_the_name(text, name, persons):
    assert name in persons(text)


@pytest.mark.parametrize("text,name", [
    ("call mary and i will wait", "mary"),  # "and", "i": words, no initials
    ("ask tom a question", "tom"),  # the article
])
def test_a_one_letter_word_after_a_name_stays_a_word(text, name, persons):
    assert name in persons(text)


def test_cased_writing_is_left_to_the_taggers():
    from redactdesk.core.types import Span
    from redactdesk.detect.name_bounds import _with_initial_after
    from redactdesk.detect.sources import DetectDoc

    doc = DetectDoc.from_words("The engineer Edward d said so.".split(), "en")
    span = Span(start_word=2, end_word=3, category="PERSON")
    assert _with_initial_after(doc, [span])[0].end_word == 3
