"""Helpers shared by the detection tests."""

import pytest

from redactdesk.detect.pipeline import detect_texts


@pytest.fixture
def persons():
    """The texts of the PERSON items the whole pipeline finds in one text."""
    def found(text, language="en"):
        return [text[s["start"]:s["end"]] for s in detect_texts([text], language)[0] if s["category"] == "PERSON"]

    return found


@pytest.fixture
def spans_of():
    """(text, category) of every item the whole pipeline finds in one text."""
    def found(text, language="en"):
        return [(text[s["start"]:s["end"]], s["category"]) for s in detect_texts([text], language)[0]]

    return found
