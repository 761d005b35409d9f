"""The transcript tagger as a vote source: lower-case ASR text, punctuation, no model."""

from __future__ import annotations

import pytest

from redactdesk.detect import tagger
from redactdesk.detect.pipeline import detect_texts
from redactdesk.detect.registry import get_source
from redactdesk.detect.sources import DetectDoc

pytestmark = pytest.mark.skipif(tagger.load_tagger("en") is None, reason="no bundled tagger model")


def _spans(text, sources=None):
    return [(text[s["start"]:s["end"]], s["category"]) for s in detect_texts([text], "en", sources=sources)[0]]


def test_names_in_lower_case_speech_are_found_by_the_tagger_alone():
    found = _spans("yes hello my name is maria lopez and i am calling about my order", ["tagger"])
    assert ("maria lopez", "PERSON") in found


def test_punctuated_words_map_back_to_whole_words():
    doc = DetectDoc.from_words("Hello, this is John Smith. Thanks!".split(), "en")
    src = get_source("tagger")
    (hits,) = src.apply([doc], src.validate(None))
    person = [h for h in hits if h.category == "PERSON"]
    assert person and (person[0].start_word, person[0].end_word) == (3, 5)


def test_the_tagger_is_one_of_the_default_sources():
    from redactdesk.detect.registry import DEFAULT_SOURCES

    assert "tagger" in DEFAULT_SOURCES
    found = _spans("this is john smith calling from acme bank in chicago")
    assert ("john smith", "PERSON") in found


def test_without_a_model_the_source_is_silent(monkeypatch, tmp_path):
    monkeypatch.setattr(tagger, "model_dir", lambda lang: tmp_path / "none")
    tagger.load_tagger.cache_clear()
    try:
        src = get_source("tagger")
        doc = DetectDoc.from_words("my name is olu adeyemi".split(), "en")
        assert src.apply([doc], src.validate(None)) == [[]]
    finally:
        tagger.load_tagger.cache_clear()
