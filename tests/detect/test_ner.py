"""spaCy source: the cased rendering of lower-case ASR words, and names found through it."""

import pytest

from redactdesk.detect.ner import load_nlp, render
from redactdesk.detect.registry import get_source
from redactdesk.detect.sources import DetectDoc


def test_render_restores_case_for_names_places_and_months_only():
    doc = DetectDoc.from_words("hi i am jennifer and i will mark it in march in boston".split(), breaks=[3])
    r = render(doc)
    assert r.text == "hi I am.\nJennifer and I will mark it in march in Boston."
    # every word maps to its characters
    for (a, b), w in zip(r.word_spans, doc.words, strict=True):
        assert r.text[a:b].lower() == w
    assert r.words_of(r.text.index("Boston"), r.text.index("Boston") + 6) == (12, 13)


@pytest.mark.skipif(load_nlp("en") is None, reason="English spaCy model not installed")
def test_spacy_finds_lower_case_names_and_keeps_dates_with_months():
    src = get_source("spacy")
    doc = DetectDoc.from_words("thank you jennifer lopez we will call you on march third".split())
    hits = src.apply([doc], src.validate({"beside_tagger": True}))[0]
    got = {(h.category, " ".join(doc.words[h.start_word : h.end_word])) for h in hits}
    assert ("PERSON", "jennifer lopez") in got
    assert any(c == "DATE" and "march" in t for c, t in got)
    assert all(h.source == "spacy" for h in hits)


def test_spanish_without_model_falls_back(monkeypatch):
    import redactdesk.detect.ner as ner

    monkeypatch.setitem(ner.MODELS, "es", "no_such_model_xyz")
    monkeypatch.delitem(ner._NLP, "es", raising=False)
    assert ner.load_nlp("es") is None
    src = get_source("spacy")
    doc = DetectDoc.from_words("me llamo ana".split(), "es")
    assert src.apply([doc], src.validate(None)) == [[]]
    ner._NLP.pop("es", None)


@pytest.mark.skipif(load_nlp("en") is None, reason="English spaCy model not installed")
def test_spacy_leaves_a_language_to_the_tagger_unless_no_tagger_runs():
    from redactdesk.detect.pipeline import resolve_sources
    from redactdesk.detect.tagger import TaggerSource

    if not TaggerSource.reads("en"):
        pytest.skip("no transcript tagger bundled for English")
    src = get_source("spacy")
    doc = DetectDoc.from_words("thank you jennifer lopez we will call you on march third".split())
    assert src.apply([doc], src.validate(None)) == [[]]  # beside the tagger: its time goes to the tagger
    params = {s.name: p for s, p in resolve_sources(["patterns", "spacy"])}
    assert params["spacy"]["beside_tagger"] is True  # no tagger in the run: spaCy reads English
    assert any(h.category == "PERSON" for h in src.apply([doc], params["spacy"])[0])
    params = {s.name: p for s, p in resolve_sources(["patterns", "spacy", "tagger"])}
    assert params["spacy"]["beside_tagger"] is False
