"""Names a sentence defines ("Boultham is a village in Lincolnshire") are names of that kind, listed or not."""

import pytest

from redactdesk.detect.definitions import find_defined_names
from redactdesk.detect.sources import DetectDoc


def defined(text, language="en"):
    doc = DetectDoc.from_words(text.split(), language)
    return [(" ".join(doc.words[h.start_word:h.end_word]), h.category)
            for h in find_defined_names(doc, lambda a, b: True)]


@pytest.mark.parametrize("text, item", [
    ("Boultham is a village in Lincolnshire.", ("Boultham", "LOCATION")),
    ("boultham is a village in lincolnshire", ("boultham", "LOCATION")),  # speech: a word no list knows
    ("Stoloff was an American film director and producer.", ("Stoloff", "PERSON")),
    ("The Zutons are an English band from Liverpool.", ("Zutons", "ORGANIZATION")),
    ("It rained. Atwick is a small coastal village.", ("Atwick", "LOCATION")),  # a second sentence
    ("Basingstoke and Alton Light Railway was a railway in Hampshire.",
     ("Basingstoke and Alton Light Railway", "ORGANIZATION")),
])
def test_a_name_its_sentence_defines(text, item):
    assert defined(text) == [item]


@pytest.mark.parametrize("text", [
    "The company is a bank.",  # no capitals: a common noun
    "the company is a bank",  # speech: everyday words
    "Swimming is a sport.",  # no kind of name
    "My landlord is a lawyer.",
    "He is a teacher.",
    "She said Paris is a city of light",  # not at the sentence's start
])
def test_look_alikes_define_no_name(text):
    assert defined(text) == []


def test_spanish_definitions():
    assert defined("Boñar es un municipio de la provincia de León.", "es") == [("Boñar", "LOCATION")]
    assert defined("Cantinflas fue un actor mexicano.", "es") == [("Cantinflas", "PERSON")]
    assert defined("La empresa es un banco.", "es") == []
