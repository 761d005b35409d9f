"""The name of an identifier scheme before its number ("NIF: B64717838") is no organisation or person;
the number stays, and a name with no number after it stays a name."""

import pytest

from redactdesk.core.types import Span
from redactdesk.detect.pipeline import detect_texts
from redactdesk.detect.scheme_names import schemes_are_no_names
from redactdesk.detect.sources import DetectDoc


def kept(text, spans):
    doc = DetectDoc.from_words(text.split(), "en")
    return [(" ".join(doc.words[s.start_word:s.end_word]), s.category) for s in schemes_are_no_names(doc, spans)]


@pytest.mark.parametrize("text, name, number", [
    ("My SIRET is 73282932000074", Span(1, 2, "ORGANIZATION"), Span(3, 4, "VAT_ID")),
    ("SVNR: 1237 010180", Span(0, 1, "ORGANIZATION"), Span(1, 3, "NATIONAL_ID")),
    ("My NIPT, NUIS is K22218003V", Span(1, 2, "ORGANIZATION"), Span(4, 5, "VAT_ID")),
    ("my cpf is 390.533.447-05", Span(1, 2, "PERSON"), Span(3, 4, "NATIONAL_ID")),  # a listed name, said
    ("My European Excise Number is LU987ABC", Span(0, 4, "ORGANIZATION"), Span(5, 6, "GENERIC_ID")),
    ("the social security number 123-45-6789", Span(1, 3, "ORGANIZATION"), Span(4, 5, "SSN")),
    # the tagger read the hardware address's name as a firm ("my MAC is ...")
    ("my MAC is 00-14-22-01-23-45", Span(1, 2, "ORGANIZATION"), Span(3, 4, "MAC_ADDRESS")),
    ("IP: 10.0.0.12", Span(0, 1, "ORGANIZATION"), Span(1, 2, "IP_ADDRESS")),
])
def test_a_scheme_name_before_its_number_is_dropped_and_the_number_kept(text, name, number):
    assert kept(text, [name, number]) == [(" ".join(text.split()[number.start_word:number.end_word]),
                                           number.category)]


@pytest.mark.parametrize("text, name, number", [
    # an acronym before a mere reference: a bank, not a scheme
    ("my HSBC number is 12345678", Span(1, 2, "ORGANIZATION"), Span(4, 5, "GENERIC_ID")),
    # an organisation with other words before its number
    ("call ACME about order 123456789", Span(1, 2, "ORGANIZATION"), Span(4, 5, "GENERIC_ID")),
    # a person named like a scheme ("Pan"), more than a word of it
    ("Pan Tadeusz 73282932000074", Span(0, 2, "PERSON"), Span(2, 3, "VAT_ID")),
    # too far from the number
    ("the SIRET of the new shop is 73282932000074", Span(1, 2, "ORGANIZATION"), Span(7, 8, "VAT_ID")),
])
def test_names_that_are_no_scheme_stay(text, name, number):
    assert len(kept(text, [name, number])) == 2


def test_without_a_number_after_it_a_name_stays():
    assert kept("I called the CPF office", [Span(3, 4, "ORGANIZATION")]) == [("CPF", "ORGANIZATION")]
    assert kept("NIF 12", [Span(0, 1, "ORGANIZATION")]) == [("NIF", "ORGANIZATION")]


def test_across_a_turn_break_the_name_stays():
    doc = DetectDoc.from_words("ask SIRET . 73282932000074".split(), "en", breaks=[3])
    spans = [Span(1, 2, "ORGANIZATION"), Span(3, 4, "VAT_ID")]
    assert len(schemes_are_no_names(doc, spans)) == 2


def test_detection_flags_the_number_not_the_scheme():
    text = "My NIPT, NUIS is K22218003V."
    found = [(text[s["start"]:s["end"]], s["category"]) for s in detect_texts([text], "en")[0]]
    assert ("K22218003V", "VAT_ID") in found
    assert not any(cat in ("ORGANIZATION", "PERSON") for _, cat in found)


def test_a_spanish_scheme_name_before_its_number_is_no_person():
    """"mi DNI es 12345678Z": the Spanish link words were not read, and "DNI" stayed a person."""
    text = "Hola, me llamo María José Fernández y mi DNI es 12345678Z."
    (spans,) = detect_texts([text], "es")
    got = [(text[s["start"]:s["end"]], s["category"]) for s in spans]
    assert ("DNI", "PERSON") not in got and ("12345678Z", "ES_ID") in got, got


def test_a_scheme_asked_about_and_its_number_answered_is_no_organisation():
    """"What is Ayumi Nakamura's SSN? It's 532-41-9987." flagged the organisation "SSN"."""
    text = "What is Ayumi Nakamura's SSN? It's 532-41-9987."
    found = [(text[s["start"]:s["end"]], s["category"]) for s in detect_texts([text], "en")[0]]
    assert ("532-41-9987", "SSN") in found and not [f for f in found if f[1] == "ORGANIZATION"], found
