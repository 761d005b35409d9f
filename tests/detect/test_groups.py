"""Nationalities, ethnic groups, religions and political groups (NRP): said of someone they are
personal data of a special category; said of a language, a dish or a brand they are not."""

from __future__ import annotations

import pytest

from redactdesk.detect.pipeline import detect_texts


def spans(text):
    return [(text[s["start"]:s["end"]], s["category"]) for s in detect_texts([text], "en")[0]]


@pytest.mark.parametrize("text, item", [
    ("I'm Nigerian and I live here.", "Nigerian"),
    ("My wife is Catholic.", "Catholic"),
    ("I have a German passport.", "German"),
    ("i'm nigerian and i live here", "nigerian"),  # speech: said of someone
    ("as a muslim i fast during ramadan", "muslim"),
    ("my mother is polish", "polish"),
    ("he is of korean descent", "korean"),
    ("She described herself as Nigerian-American and bilingual.", "Nigerian-American"),  # joined by a hyphen
    ("An African-American family moved in.", "African-American"),
    ("He is a British Pakistani doctor.", "British Pakistani"),  # two group words: one item, no person
    ("i'm nigerian american myself", "nigerian american"),
    ("she's nigerian american", "nigerian american"),  # the word view reads "she's" as "she"
    ("He is a Jew.", "Jew"),  # the list had only "Jewish": the tagger said organisation
    ("We're both Republicans but we disagree on taxes.", "Republicans"),  # a word between: a firm before
])
def test_a_group_said_of_someone_is_an_item(text, item):
    assert (item, "NRP") in spans(text)


@pytest.mark.parametrize("text, item, language", [
    ("he is a member of the labour party", "labour party", "en"),  # speech: the party's own word says it
    ("she voted for the conservative party last time", "conservative party", "en"),
    ("she joined the scottish national party", "scottish national party", "en"),
    ("soy del partido popular", "partido popular", "es"),
])
def test_a_partys_name_is_a_political_group_without_a_cue(text, item, language):
    found = [(text[s["start"]:s["end"]], s["category"]) for s in detect_texts([text], language)[0]]
    assert (item, "NRP") in found


@pytest.mark.parametrize("text", ["we had a birthday party for the team", "fuimos a la fiesta del partido de fútbol"])
def test_a_party_that_is_no_political_party_is_no_group(text):
    found = detect_texts([text], "es" if "fiesta" in text else "en")[0]
    assert not [s for s in found if s["category"] == "NRP"], found


@pytest.mark.parametrize("text, item", [
    ("he is a 45 year old hispanic male", "hispanic"),  # a description, as in a case note
    ("the 30-year-old Nigerian was arrested", "Nigerian"),
    ("three chinese students were hurt", "chinese"),
    ("caucasian female approximately five feet tall", "caucasian"),
])
def test_a_group_in_a_description_of_someone_is_an_item(text, item):
    assert (item, "NRP") in spans(text)


@pytest.mark.parametrize("text, item", [
    ("a hispanic male", "hispanic"),  # the tagger's person "a hispanic male" is the group, no one's name
    ("He is African American.", "African American"),  # the tagger's organisation: a listed group of two words
])
def test_a_group_the_tagger_took_for_a_name_is_the_group(text, item):
    found = spans(text)
    assert (item, "NRP") in found
    assert not [s for s in found if s[1] in ("PERSON", "ORGANIZATION")], found


@pytest.mark.parametrize("text, item", [("I am German.", "German"), ("I am English.", "English"),
                                        ("I am French and I teach maths.", "French"), ("She's English.", "English")])
def test_a_group_said_of_oneself_is_the_group_though_a_name_too(text, item):
    """"German" (Germán), "English" and "French" are names of the lists: said after "I am" they were a person."""
    assert spans(text)[0] == (item, "NRP")


def test_a_name_given_as_a_name_stays_a_person():
    assert ("Christian", "PERSON") in spans("my name is Christian")


@pytest.mark.parametrize("text", ["After graduating, Morrison taught English at Texas Southern University.",
                                  "he studied french at university", "my tutor teaches spanish"])
def test_a_language_taught_or_studied_is_no_group(text):
    assert not [s for s in spans(text) if s[1] == "NRP"], spans(text)


@pytest.mark.parametrize("text", ["my old french teacher", "written in old english by a monk"])
def test_a_language_after_old_is_no_group(text):
    """"old" is a cue only after an age's "year": "my old french teacher" gave the person "french"."""
    assert not [s for s in spans(text) if s[1] in ("NRP", "PERSON")], spans(text)


@pytest.mark.parametrize("text", [
    "Do you speak French?", "We had Chinese food.", "do you speak french", "can you polish the car",
    "the italian restaurant is closed", "I paid with American Express.", "he french kissed her",
])
def test_a_language_a_dish_or_a_brand_is_not(text):
    assert not [s for s in spans(text) if s[1] == "NRP"], spans(text)


def test_a_first_name_that_is_also_a_religion_stays_a_name():
    assert ("Christian Bale", "PERSON") in spans("Christian Bale starred in it.")


def test_spacy_and_the_taggers_give_groups_not_places():
    """The taggers called a demonym a LOCATION ("speak French" was a place suggestion)."""
    # the job said of him is an item of its own (OCCUPATION), the group no place
    assert spans("He is a proud Scottish farmer.") == [("Scottish", "NRP"), ("farmer", "OCCUPATION")]


@pytest.mark.parametrize("text, items", [
    ("Soy colombiana y católica.", ["colombiana", "católica"]),  # Spanish writes groups in lower case
    ("Mi padre es musulmán y mi madre es judía.", ["musulmán", "judía"]),
    ("Es una mujer colombiana.", ["colombiana"]),  # the group after the person it is said of
])
def test_spanish_groups_in_cased_writing(text, items):
    found = [(text[s["start"]:s["end"]], s["category"]) for s in detect_texts([text], "es")[0]]
    assert [(i, "NRP") for i in items] == [f for f in found if f[1] == "NRP"]


def test_a_second_group_joined_by_and_is_said_of_the_same_person_or_thing():
    assert ("Catholic", "NRP") in spans("I'm Nigerian and Catholic.")
    assert spans("We had French and Italian food.") == []


@pytest.mark.parametrize("text, item, language", [
    ("My neighbours are Brazilians.", "Brazilians", "en"),  # a plural of a listed group
    ("We are Hindus.", "Hindus", "en"),  # the tagger read an organisation
    ("She is a Frenchwoman living in Boston.", "Frenchwoman", "en"),
    ("they are catholics", "catholics", "en"),
    ("mis vecinos son colombianos", "colombianos", "es"),
    ("ellos son musulmanes", "musulmanes", "es"),
])
def test_a_groups_plural_or_its_person_word_is_the_group(text, item, language):
    found = [(text[s["start"]:s["end"]], s["category"]) for s in detect_texts([text], language)[0]]
    assert (item, "NRP") in found, found


def test_a_plural_said_of_no_one_stays_what_the_taggers_read():
    found = [(s["category"]) for s in detect_texts(["He plays for the Texans."], "en")[0]]
    assert "NRP" not in found


@pytest.mark.parametrize("text,name", [("Christian called yesterday about the invoice", "Christian"),
                                       ("christian called yesterday", "christian")])
def test_a_group_word_that_is_a_given_name_before_what_a_person_does_is_the_person(text, name):
    """"Christian called yesterday" was a religion, and said in lower case nothing at all."""
    assert (name, "PERSON") in [(text[s["start"]:s["end"]], s["category"]) for s in detect_texts([text], "en")[0]]


@pytest.mark.parametrize("text", ["he is a christian and goes to church", "I am christian"])
def test_a_group_word_said_of_someone_stays_the_group(text):
    assert [s["category"] for s in detect_texts([text], "en")[0]] == ["NRP"]
