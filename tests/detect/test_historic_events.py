"""An event of history is no name: the taggers read wars and battles as organisations."""

import pytest

from redactdesk.detect.historic_events import is_event
from redactdesk.detect.pipeline import detect_texts
from redactdesk.lang.lexicon import load_lexicon, word_list


def found(text, language="en"):
    return [(text[s["start"]:s["end"]], s["category"]) for s in detect_texts([text], language)[0]]


@pytest.mark.parametrize("text,gone", [
    ("he was a lieutenant in the royal navy during the falklands war", "falklands war"),  # a firm's surrogate
    ("After World War II, it was renamed.", "World War II"),
    ("at the battle of gettysburg in july it held the left flank", "battle of gettysburg"),
    ("The French Revolution changed everything.", "French Revolution"),
])
def test_a_war_or_a_battle_is_no_organisation(text, gone):
    assert not [t for t, _ in found(text) if gone in t or t in gone], found(text)


def test_a_place_whose_event_it_is_stays():
    text = "they came as part of australia's post world war ii migration program"
    assert any(t.startswith("australia") for t, _ in found(text)), found(text)


@pytest.mark.parametrize("words,language,event", [
    (["world", "war", "two"], "en", True), (["war", "of", "1812"], "en", True),
    (["guerra", "civil", "española"], "es", True), (["warsaw", "pact"], "en", False),
    (["the", "war", "office"], "en", False), (["war"], "en", False),
])
def test_an_events_head_word_is_last_before_a_number_or_first_before_of(words, language, event):
    assert is_event(words, language, word_list(load_lexicon(language), "event_heads")) is event


def test_the_people_an_event_happened_to_stay():
    assert ("Maria Lopez", "PERSON") in found("Maria Lopez lost her father in the Falklands War.")
