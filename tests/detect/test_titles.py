"""A title right before a name is part of the person item, whichever tagger found the name."""

import pytest

from redactdesk.core.types import Span
from redactdesk.detect.name_bounds import _with_title_before
from redactdesk.detect.sources import DetectDoc


@pytest.mark.parametrize("text, person", [
    ("Prof. Kim Lee is from Korea.", "Prof. Kim Lee"),
    ("Please contact Mr. Jones at the front desk.", "Mr. Jones"),
    ("dear mrs smith thank you for calling", "mrs smith"),
])
def test_the_title_joins_the_name(text, person, persons):
    assert person in persons(text)


def join(text, start, end, breaks=()):
    doc = DetectDoc.from_words(text.split(), "en", breaks=breaks)
    s = _with_title_before(doc, [Span(start, end, "PERSON")])[0]
    return " ".join(doc.words[s.start_word:s.end_word])


def test_titles_in_a_row_join_and_ambiguous_or_name_like_ones_do_not():
    assert join("then Vice Admiral Sir Robert Robinson died", 4, 6) == "Sir Robert Robinson"  # vice: no title
    assert join("I met Dr. Prof. Anna Berg", 4, 6) == "Dr. Prof. Anna Berg"
    assert join("I asked Captain Anna Berg", 3, 5) == "Anna Berg"  # a word too
    assert join("I asked Don Anna Berg", 3, 5) == "Anna Berg"  # a name too
    assert join("the Justice Anna Berg case", 2, 4) == "Anna Berg"


def test_a_title_stays_out_across_punctuation_a_turn_or_another_item():
    assert join("thank you sir, Anna Berg speaking", 3, 5) == "Anna Berg"
    assert join("yes sir anna berg here", 2, 4, breaks=[2]) == "anna berg"
    doc = DetectDoc.from_words("the Mr. Jones".split(), "en")
    spans = _with_title_before(doc, [Span(0, 2, "ORGANIZATION"), Span(2, 3, "PERSON")])
    assert (spans[1].start_word, spans[1].end_word) == (2, 3)


def test_miss_and_doctor_join_written_with_a_capital_in_cased_text():
    assert join("Dear Miss Sandra Harrison thanks", 2, 4) == "Miss Sandra Harrison"
    assert join("Then Doctor Ahmed Khan came in.", 2, 4) == "Doctor Ahmed Khan"
    assert join("Signed, Dott. Diana Visintini", 2, 4) == "Dott. Diana Visintini"
    assert join("I miss Sandra Harrison a lot.", 2, 4) == "Sandra Harrison"  # the verb
    assert join("i asked miss sandra harrison", 3, 5) == "sandra harrison"  # said: "miss" may be the verb


@pytest.mark.parametrize("text,person", [
    ("Please forward this to Anthony Lawson DDS by Friday.", "Anthony Lawson DDS"),
    ("I spoke with Bohumila Vesela Ph.D. yesterday.", "Bohumila Vesela Ph.D."),
    ("The account holder is Makara Hidayanto, S.Pd.", "Makara Hidayanto, S.Pd."),
    ("Univ.Prof. Susanne Reichmann B.A. called.", "Univ.Prof. Susanne Reichmann B.A."),
    ("Dipl.-Ing. Esther Steinberg agreed.", "Dipl.-Ing. Esther Steinberg"),
])
def test_degrees_and_suffixes_after_a_name_and_titles_before_it_are_part_of_the_person(text, person, persons):
    assert person in persons(text)


@pytest.mark.parametrize("text,word", [("Take it to Anthony Lawson St. tomorrow.", "St."),
                                       ("It went to John Smith Inc. today.", "Inc.")])
def test_a_street_type_or_legal_form_after_a_name_is_no_letters_of_the_person(text, word, persons):
    assert not any(p.endswith(word) for p in persons(text)), persons(text)


def test_a_title_the_tagger_read_apart_joins_the_name_after_it(persons):
    """"Lobbyist, Mrs." was a person, cut to "Mrs" at the comma: an item of a title alone, with the
    name after it an item of its own."""
    assert persons("Our new Lobbyist, Mrs. Amy Gonzalez DDS, starts Monday.") == ["Mrs. Amy Gonzalez DDS"]


def test_a_lower_case_word_after_a_title_in_cased_writing_is_no_name(persons):
    """"The President said ...": "said" is a listed name (Said), and it followed a title."""
    assert persons("The President said the talks would continue.") == []
    assert persons("Please contact Mr. Jones at the front desk.") == ["Mr. Jones"]
    assert persons("Ask for Mr. de la Cruz.") == ["Mr. de la Cruz"]


@pytest.mark.parametrize("text,person", [("Adm. Chester Nimitz commanded the fleet.", "Adm. Chester Nimitz"),
                                         ("Maj. Gen. Smedley Butler spoke first.", "Maj. Gen. Smedley Butler")])
def test_a_military_rank_joins_the_name(text, person):
    """"Adm." was no title: the tagger made it a person of its own beside the name."""
    from redactdesk.detect.pipeline import detect_texts

    assert [(text[s["start"]:s["end"]], s["category"]) for s in detect_texts([text], "en")[0]] == [(person, "PERSON")]


def test_a_rank_that_is_an_everyday_word_is_no_title():
    from redactdesk.detect.pipeline import detect_texts

    assert detect_texts(["order general tso's chicken to go"], "en")[0] == []


def test_a_tagger_organisation_opening_with_a_personal_title_is_a_person(spans_of):
    """The cased tagger read "Mr. Whitcombe" after "glancing at" as a firm, and its strong
    organisation outranked the person that the patterns, the name lists and the spaCy tagger agreed
    on: the surrogate was a company's name. A personal title before words that are names alone is
    a person; with an everyday word after it ("dr greens office") the tagger's reading stands."""
    text = '"I don\'t know," said Harriet, glancing at Mr. Whitcombe across the table.'
    assert ("Mr. Whitcombe", "PERSON") in spans_of(text)
    assert ("Sra. Gómez", "PERSON") in spans_of("Ayer vi a la Sra. Gómez en el mercado.", "es")
    assert ("dr greens office", "ORGANIZATION") in spans_of(
        "please add an appointment at nine am wednesday at dr greens office")


def test_a_titled_name_the_tagger_ran_on_into_a_verb_is_the_person(persons):
    """"Mr. and Mrs. Dubois live on ...": the tagger's organisation "Mrs. Dubois live" held the person
    the lists and spaCy found; a firm's name never ends in a lower-case verb."""
    text = "Mr. and Mrs. Dubois live on 12 Rue Lepic."
    assert "Mrs. Dubois" in persons(text)
