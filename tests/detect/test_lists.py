"""Allow list ("never flag this") and deny list ("always flag this"), matched on normalised text."""

import pytest

from redactdesk.core.types import Conversation, Span, Word
from redactdesk.detect.lists import allow_entry_for, deny_entry_for, normalise_phrase
from redactdesk.detect.pipeline import detect_texts


def cats(out):
    return [(s["category"], s["start"], s["end"]) for s in out]


def test_normalise_phrase_matches_spoken_and_written_forms():
    assert normalise_phrase("four one one one") == normalise_phrase("4 1 1 1")
    assert normalise_phrase("John DOT smith AT gmail dot com") == "john.smith@gmail.com"


def test_allow_list_drops_a_suggestion():
    text = "my order number is five five five six"
    assert cats(detect_texts([text], sources=["patterns"])[0]) == [("GENERIC_ID", 19, 37)]
    assert detect_texts([text], sources=["patterns"], allow=["5 5 5 6"]) == [[]]


def test_deny_list_always_flags_with_its_category():
    text = "we use the acme portal every day"
    assert detect_texts([text], sources=["patterns"]) == [[]]
    out = detect_texts([text], sources=["patterns"], deny=[{"text": "Acme Portal", "category": "ORGANIZATION"}])
    assert cats(out[0]) == [("ORGANIZATION", 11, 22)]
    assert out[0][0]["source"] == "deny_list" and out[0][0]["score"] == 1.0
    # plain strings default to GENERIC_ID; deny wins over allow
    out = detect_texts([text], sources=["patterns"], deny=["acme portal"], allow=["acme portal"])
    assert cats(out[0]) == [("GENERIC_ID", 11, 22)]


def test_default_allow_list_is_applied():
    out = detect_texts(["hello hello"], sources=["patterns"], deny=[("hello", "PERSON")])
    assert [s["category"] for s in out[0]] == ["PERSON", "PERSON"]  # deny beats the default allow list


def test_context_menu_helpers():
    conv = Conversation(id="c", words=[Word(w, i, i + 0.5) for i, w in enumerate("call four one one one".split())])
    span = Span(1, 5, "GENERIC_ID")
    assert allow_entry_for(conv, span) == "4 1 1 1"
    assert deny_entry_for(conv, span) == {"text": "4 1 1 1", "category": "GENERIC_ID"}


@pytest.mark.parametrize("text", ["MS. PATEL: Objection, Your Honor, relevance.", "yes your honour i understand"])
def test_a_form_of_address_to_an_office_holder_is_no_name(text):
    """Court transcripts say "Your Honor" at every turn; the tagger made it an organisation."""
    assert not any("onor" in text[s["start"]:s["end"]] for s in detect_texts([text])[0])
