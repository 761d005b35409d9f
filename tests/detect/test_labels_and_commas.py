"""Written forms put labels and commas around names: a field's label before a colon is no part of
the name ("Details: Gross and Sons"), and a town after a person's comma is a place of its own ("Ana
Ruiz, Madrid"); a surname-first name ("Kowalski, Anna") and a title with a colon stay whole."""

import pytest

from redactdesk.core.types import Span
from redactdesk.detect.name_bounds import _place_after_comma, _without_labels
from redactdesk.detect.pipeline import detect_texts
from redactdesk.detect.sources import DetectDoc


def spans(fn, text, start, end, category="PERSON", lang="en"):
    doc = DetectDoc.from_words(text.split(), lang)
    return [(" ".join(doc.words[s.start_word:s.end_word]), s.category) for s in fn(doc, [Span(start, end, category)])]


@pytest.mark.parametrize("text,end,name,lang", [
    ("Details: Gross and Sons; thanks", 4, "Gross and Sons;", "en"),
    ("Contact: Ana Ruiz", 3, "Ana Ruiz", "en"),
    ("Cliente: Ana Ruiz", 3, "Ana Ruiz", "es"),
    ("Next of Kin: Mary Jones", 5, "Mary Jones", "en"),  # the label's own words before it too
    ("Emergency Contact: John Smith", 4, "John Smith", "en"),
])
def test_a_field_label_before_a_colon_is_no_part_of_the_name(text, end, name, lang):
    assert spans(_without_labels, text, 0, end, "PERSON", lang) == [(name, "PERSON")]


@pytest.mark.parametrize("text,end", [("Terminator: The Sarah Connor Chronicles", 5),
                                      ("Stanley Turrentine: Sugar", 3)])
def test_a_title_or_a_name_before_a_colon_stays(text, end):
    assert spans(_without_labels, text, 0, end, "ORGANIZATION") == [(text, "ORGANIZATION")]


def test_a_town_after_a_persons_comma_is_a_place_of_its_own():
    assert spans(_place_after_comma, "Ana Ruiz, Madrid", 0, 3) == [("Ana Ruiz,", "PERSON"), ("Madrid", "CITY")]
    text = "Send it to Ana Ruiz, Madrid."
    got = [(text[s["start"]:s["end"]], s["category"]) for s in detect_texts([text], "en")[0]]
    assert got == [("Ana Ruiz", "PERSON"), ("Madrid", "CITY")]


@pytest.mark.parametrize("text", ["Kowalski, Anna", "Mihăileni, Sibiu"])
def test_a_surname_first_name_and_a_village_with_its_county_stay_one_item(text):
    assert spans(_place_after_comma, text, 0, 2) == [(text, "PERSON")]


@pytest.mark.parametrize("text,start,end,place,person", [
    ("After graduating from Oxford, Mary Shelley moved", 3, 6, "Oxford,", "Mary Shelley"),
    ("Born in Leeds, John Smith became a teacher", 2, 5, "Leeds,", "John Smith"),
])
def test_a_place_after_its_cue_then_a_comma_and_a_person_are_two_items(text, start, end, place, person):
    assert spans(_place_after_comma, text, start, end) == [(place, "CITY"), (person, "PERSON")]


def test_a_surname_first_name_that_is_a_place_stays_one_person_without_a_place_cue():
    assert spans(_place_after_comma, "The winners were Washington, George and Adams", 3, 5) == [
        ("Washington, George", "PERSON")]


@pytest.mark.parametrize("text,start,end,category,town", [
    ("We moved to Austin, Tex. in 2019", 3, 5, "PERSON", "Austin, Tex."),  # was a person, then a town and a person
    ("She was born in Jackson, Miss., in 1950", 4, 6, "ORGANIZATION", "Jackson, Miss.,"),
])
def test_a_town_and_its_state_written_short_is_one_place(text, start, end, category, town):
    assert spans(_place_after_comma, text, start, end, category) == [(town, "CITY")]


def test_a_name_before_a_state_abbreviation_that_is_no_town_stays():
    assert spans(_place_after_comma, "Dear Smith, Tex.", 1, 3) == [("Smith, Tex.", "PERSON")]


def found(text):
    return [(text[s["start"]:s["end"]], s["category"]) for s in detect_texts([text], "en")[0]]


@pytest.mark.parametrize("text,item", [
    ("Please wire 2,500 EUR to IBAN DE89 3704 0044 0532 0130 00 today.", "DE89 3704 0044 0532 0130 00"),
    ("Passport X1234567 was issued in May.", "X1234567"),
])
def test_a_word_framing_the_item_after_it_is_no_name(text, item):
    got = found(text)
    assert item in [t for t, _ in got]
    assert not any(c in ("PERSON", "ORGANIZATION", "LOCATION") for _, c in got), got


def test_a_name_spelled_like_a_frame_word_stays_a_name():
    got = found("Iban Rodriguez called about IBAN ES91 2100 0418 4502 0005 1332.")
    assert ("Iban Rodriguez", "PERSON") in got


@pytest.mark.parametrize("text,name", [
    ("Account holder: Nguyen Thi Mai, IBAN GB82 WEST 1234 5698 7654 32", "Nguyen Thi Mai"),
    ("Account holder: John Smith, IBAN GB82 WEST 1234 5698 7654 32", "John Smith"),
])
def test_an_item_label_in_capitals_after_a_name_is_no_part_of_it(text, name):
    """"Iban" is a given name too, so the name list kept the label in the person: the surrogate
    replaced "IBAN" with a name. A name that is the word written as a name stays ("Iban Garcia")."""
    got = found(text)
    assert (name, "PERSON") in got
    text = "I met Iban Garcia yesterday"
    assert ("Iban Garcia", "PERSON") in found(text)


@pytest.mark.parametrize("text,person,where,kind", [
    ("Dr. John Smith of Leeds said the results were sound.", "Dr. John Smith", "Leeds", "CITY"),
    ("According to Dr. Emily Carter of Stanford University, it was inconclusive.", "Dr. Emily Carter",
     "Stanford University", "ORGANIZATION"),
    # a doctor or professor is of a hospital or university, though no word of it says so
    ("Dr. Emily Chen of Johns Hopkins reviewed the scan.", "Dr. Emily Chen", "Johns Hopkins", "ORGANIZATION"),
])
def test_a_full_name_then_of_and_a_place_or_body_is_two_items(text, person, where, kind):
    """The tagger for cased writing ran the affiliation into the name: a person's surrogate replaced
    "of Leeds" too, and the town was no place to substitute."""
    got = found(text)
    assert (person, "PERSON") in got and (where, kind) in got, got


@pytest.mark.parametrize("text,name", [("Catherine of Aragon was queen.", "Catherine of Aragon"),
                                       ("The Duke of Wellington arrived.", "The Duke of Wellington"),
                                       ("Queen Anne of Romania died in 2016.", "Queen Anne of Romania"),
                                       ("The estate passed to Thomas Lewis of Harpton.", "Thomas Lewis of Harpton")])
def test_a_name_or_a_title_with_its_place_stays_one_person(text, name):
    got = found(text)
    assert (name, "PERSON") in got, got


@pytest.mark.parametrize("text,person", [
    ("Fernandez PLC hired Kyle as Education officer, community on 1975-11-13.", "Kyle"),
    ("Johnson LLC hired Jeffery as Education officer, museum on 1970-01-23.", "Jeffery"),
    ("We met Sarah Okoye at the station.", "Sarah Okoye"),
])
def test_a_person_ends_before_a_lower_case_function_word(text, person):
    """The tagger for cased writing read "Kyle as Education" as one person, so the name's surrogate
    replaced the job too."""
    got = found(text)
    assert (person, "PERSON") in got, got


@pytest.mark.parametrize("text,person", [
    ("Maria de la Cruz called.", "Maria de la Cruz"),
    ("Fujiwara no Michinaga ruled as regent.", "Fujiwara no Michinaga"),
    ("Catherine of Aragon was queen.", "Catherine of Aragon"),
    ("It's spelled G as in George O as in Ocean N as in Nancy.", "G as in George O as in Ocean N as in Nancy"),
])
def test_particles_joining_words_and_spelled_names_stay_whole(text, person):
    got = found(text)
    assert (person, "PERSON") in got, got


def test_a_title_a_tagger_read_as_a_firm_joins_the_name_after_it():
    text = "Contact Mx. Gaines via gnguyen@hotmail.com today."
    got = found(text)
    assert ("Mx. Gaines", "PERSON") in got and not [c for _, c in got if c == "ORGANIZATION"], got


def test_two_bodies_joined_by_and_the_are_two_organisations():
    from redactdesk.detect.name_bounds import _two_bodies_joined

    text = "funded by the Wellcome Trust and the Gates Foundation today"
    assert spans(_two_bodies_joined, text, 3, 9, "ORGANIZATION") == [
        ("Wellcome Trust", "ORGANIZATION"), ("Gates Foundation", "ORGANIZATION")]
    assert found("The study was funded by the Wellcome Trust and the Gates Foundation.") == [
        ("Wellcome Trust", "ORGANIZATION"), ("Gates Foundation", "ORGANIZATION")]


@pytest.mark.parametrize("text,end", [("Sly and the Family Stone played", 5),    # a band's name
                                      ("Mumford and the Sons Bank Ltd", 6)])     # no body's word before "and"
def test_a_name_with_and_the_inside_stays_one(text, end):
    from redactdesk.detect.name_bounds import _two_bodies_joined

    assert spans(_two_bodies_joined, text, 0, end, "ORGANIZATION") == [(" ".join(text.split()[:end]), "ORGANIZATION")]


def test_a_quotation_ends_at_its_marks_and_the_speaker_after_it_is_the_person(spans_of):
    """'"Fine," said Grace.' was one person from the opening quote to the name (the taggers read words
    without their punctuation): the surrogate replaced what was said too. The quotation's edge ends
    a name; a nickname in quotes inside a name stays part of it."""
    assert spans_of('"Fine," said Grace.') == [("Grace", "PERSON")]
    assert spans_of('"We will win," said Thompson.') == [("Thompson", "PERSON")]
    assert ('William "Bill" Smith', "PERSON") in spans_of('William "Bill" Smith called.')
    assert ('Harold " Junior " Theriault', "PERSON") in spans_of('Harold " Junior " Theriault won the seat.')
