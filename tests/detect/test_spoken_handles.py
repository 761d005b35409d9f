"""Social-media handles read aloud ("rt at homedepot") are usernames; "at" + a shop in a sentence is not."""

import pytest

from redactdesk.detect.pipeline import detect_texts
from redactdesk.detect.sources import DetectDoc
from redactdesk.detect.spoken_handles import find_spoken_handles


def handles(text):
    doc = DetectDoc.from_words(text.split(), "en")
    return [" ".join(doc.words[h.start_word:h.end_word]) for h in find_spoken_handles(doc, [False] * len(doc.words))]


def found(text):
    return [(text[s["start"]:s["end"]], s["category"]) for s in detect_texts([text], "en")[0]]


@pytest.mark.parametrize("text,handle", [
    ("rt at homedepot thanks for the help", "at homedepot"),  # after a cue word
    ("at onedirection that is disgusting", "at onedirection"),  # a reply opens the turn
    ("follow at the_rhs for tickets", "at the_rhs"),
    ("rt at ryanmiller three thousand and thirty nine you rock", "at ryanmiller three thousand and thirty nine"),
    ("at michael five sos you make me happy", "at michael five sos"),  # a listed name with digits
    ("follow me on instagram at rosalind twenty ten lol", "at rosalind twenty ten"),  # a year said in two numbers
])
def test_a_handle_said_aloud_is_one_username_with_its_digits(text, handle):
    assert handles(text) == [handle]
    assert (handle, "USERNAME") in found(text)


def test_a_name_after_the_digits_is_no_part_of_the_handle():
    assert handles("at jessica twenty five angela said so") == ["at jessica twenty five"]


def test_handles_in_a_row():
    assert handles("at powerofsleep at bloglovin you rock") == ["at powerofsleep", "at bloglovin"]


@pytest.mark.parametrize("text", [
    "i bought it at walmart on saturday",  # a shop in a sentence: the taggers' organisation
    "i was at home all day",  # an everyday word
    "at london for the weekend",  # a listed place
    "at maria",  # a listed name with no digits
    "at ups",  # too short to tell from an abbreviation
    "at age thirteen angela stoner was diagnosed",  # an everyday word that is also a surname, then a name
    "Rt at homedepot thanks",  # cased writing: a handle there keeps its @
])
def test_look_alikes_are_no_handle(text):
    assert handles(text) == []


def test_an_email_read_aloud_stays_an_email():
    assert handles("rt at gmail dot com") == []
    assert any(c == "EMAIL" for _, c in found("write to juanpedro at gmail dot com"))


def test_a_transcript_with_only_a_capital_i_still_reads_as_speech():
    assert handles("I said rt at homedepot thanks") == ["at homedepot"]


@pytest.mark.parametrize("text,handle", [("rt at r zero bynbird you wake up", "at r zero bynbird"),
                                         ("photos at b two utymakassar owner", "at b two utymakassar")])
def test_a_handle_said_as_letters_digits_and_a_made_up_word_is_one_username(text, handle):
    assert handle in handles(text)


@pytest.mark.parametrize("text,address", [
    ("i live at forty two castle street in galway", "forty two castle street"),
    ("she lives at nine twenty one kelvingrove road now", "nine twenty one kelvingrove road"),
])
def test_a_house_number_and_its_street_after_at_are_an_address_no_handle(text, address):
    assert handles(text) == []
    assert (address, "ADDRESS") in found(text)


@pytest.mark.parametrize("text", ["meet me at two pm tomorrow", "we land at gate forty two",
                                  "see you at heathrow terminal five", "rt at five hontour fifth harmony"])
def test_times_gates_places_and_ordinals_after_at_make_no_such_handle(text):
    assert not any(h.count(" ") >= 3 for h in handles(text)), handles(text)


@pytest.mark.parametrize("text,handle", [
    ("long days at the beach at marriott_cayman today", "at marriott_cayman"),  # mid-sentence, no cue
    ("yeah tickles at mlp_perla behind the ear", "at mlp_perla"),
    ("rt at joshsmith five _ twenty three i'm tired", "at joshsmith five _ twenty three"),  # @joshsmith5_23
    ("hate it at karennn twelve _ hate when i feel", "at karennn twelve _"),  # @karennn12_: the word after is none
    ("at d one _dreamin seventy two i'm not going today", "at d one _dreamin seventy two"),
    ("i saw it at blues four _nina yesterday", "at blues four _nina"),  # an everyday word, held by the underscore
    ("follow at josh underscore smith for more", "at josh underscore smith"),  # the underscore said aloud
])
def test_a_handle_an_underscore_joins_is_one_username_wherever_it_is(text, handle):
    assert handles(text) == [handle]
    assert (handle, "USERNAME") in found(text)


def test_an_email_with_an_underscore_said_aloud_stays_an_email():
    assert handles("write to john underscore smith at gmail dot com") == []
    assert found("write to john underscore smith at gmail dot com") == [
        ("john underscore smith at gmail dot com", "EMAIL")]



@pytest.mark.parametrize("text,email", [
    ("you can email me at tom underscore baker eighty eight at hotmail dot co dot uk",
     "tom underscore baker eighty eight at hotmail dot co dot uk"),
    ("email me at jo_smith at gmail dot com", "jo_smith at gmail dot com"),
])
def test_the_name_of_an_email_said_after_email_me_at_is_no_handle(text, email):
    """Before, "at tom underscore baker" was a handle too: the e-mail won the words they share and
    the handle kept the "at", so the revised text lost a word for a username."""
    assert handles(text) == []
    assert found(text) == [(email, "EMAIL")]


@pytest.mark.parametrize("text,said", [
    ("rt at niallofficial at zaynmalik please t dot co hbnsopyulf", ["at niallofficial", "at zaynmalik"]),
    ("rt at someonesnewband at bandmategirl t dot co xkqw four", ["at someonesnewband", "at bandmategirl"]),
])
def test_handles_before_a_link_stay_handles(text, said):
    """Handles, then a link: no e-mail is said ("at bandmategirl t dot co" is a handle and a link)."""
    assert handles(text) == said
