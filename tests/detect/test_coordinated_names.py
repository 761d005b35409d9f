"""A listed name joined to a found person by "and", "or" or a comma is a person too."""

import pytest

from redactdesk.detect.pipeline import detect_texts


def people(text, lang="en"):
    return [text[s["start"]:s["end"]] for s in detect_texts([text], lang)[0] if s["category"] == "PERSON"]


@pytest.mark.parametrize(("text", "name"), [
    ("omg tobi and chioma are getting married next month", "tobi"),
    ("my friends chioma and tobi are here", "tobi"),
    ("What Hitzig and Fritsch had discovered is that stimulation caused contractions.", "Fritsch"),
])
def test_a_listed_name_beside_a_person_is_a_person(text, name):
    """Alone in lower case, "tobi" needs a cue; beside "chioma" it was left in the text."""
    assert name in people(text)


@pytest.mark.parametrize("text", ["sarah and rose went out", "I met Chioma and will call later",
                                  "chioma and the kids came"])
def test_everyday_words_beside_a_person_stay_words(text):
    assert not any(w in people(text) for w in ("rose", "will", "the"))


@pytest.mark.parametrize(("text", "name"), [
    ("Kwame is Ghanaian and lives in Accra.", "Kwame"),
    ("Kwame is Ghanaian.", "Kwame"),  # the tagger's place
    ("Tobi is a nurse.", "Tobi"),
    ("kwame is ghanaian", "kwame"),
])
def test_a_listed_name_a_group_or_job_is_said_of_is_a_person(text, name):
    """A sentence's first word is no name on its capital alone: "Kwame is Ghanaian" gave no person."""
    assert name in people(text)


def test_a_group_word_describing_a_thing_makes_no_person():
    assert people("Bilka is a Danish chain of hypermarkets.") == []


@pytest.mark.parametrize(("text", "family"), [("schedule dinner with my in laws the johnsons", "johnsons"),
                                              ("what's on my calendar with the smiths tomorrow", "smiths"),
                                              ("We had dinner with the Garcias.", "Garcias")])
def test_a_family_named_by_its_surname_is_a_person(text, family):
    """"with the smiths tomorrow" gave no span: a surname in the plural names a family."""
    assert family in people(text)


@pytest.mark.parametrize("text", ["any new email from the boss", "the roses are red", "the woods are dark"])
def test_everyday_plurals_and_the_boss_are_no_family(text):
    assert people(text) == []


@pytest.mark.parametrize(("text", "family"), [("The Caloi family owned the firm.", "Caloi"),
                                              ("the Okafor family sent flowers", "Okafor"),
                                              ("the smith family moved away last year", "smith")])
def test_a_family_named_by_its_surname_and_family_is_the_surname(text, family):
    """The taggers read "Caloi family" as a firm, whose surrogate was a company's name."""
    got = [(text[s["start"]:s["end"]], s["category"]) for s in detect_texts([text], "en")[0]]
    assert (family, "PERSON") in got and not any(c == "ORGANIZATION" for _, c in got), got


@pytest.mark.parametrize("text", ["Portrait of an American Family", "the Royal Family visited"])
def test_a_family_in_a_title_stays_the_title(text):
    got = [(text[s["start"]:s["end"]], s["category"]) for s in detect_texts([text], "en")[0]]
    assert not any(c == "PERSON" for _, c in got), got
