"""What is named after its discoverer names no one: a disease, a cycle, a law of nature."""

import pytest

from redactdesk.detect.pipeline import detect_texts


def found(text, language="en"):
    return [(text[s["start"]:s["end"]], s["category"]) for s in detect_texts([text], language)[0]]


@pytest.mark.parametrize("text,language", [
    ("my mother has parkinson's disease", "en"),  # the revised text gave her "mendoza's disease"
    ("she was diagnosed with Bell's palsy", "en"),
    ("By Newton's second law, force equals mass times acceleration.", "en"),
    ("The Krebs cycle produces energy.", "en"),
    ("mi padre tiene la enfermedad de parkinson", "es"),
])
def test_an_eponym_is_no_name(text, language):
    assert not [c for _, c in found(text, language) if c in ("PERSON", "ORGANIZATION")], found(text, language)


@pytest.mark.parametrize("text,name", [
    ("John Smith's law firm called", "John Smith"),
    ("my friend Mark's number is on the card", "Mark"),
    ("Dr. Parkinson said the disease was rare", "Dr. Parkinson"),
])
def test_a_persons_name_before_what_anyone_may_own_stays(text, name):
    assert (name, "PERSON") in found(text)
