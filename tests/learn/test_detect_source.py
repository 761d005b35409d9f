"""The model as a detection source: hits on a detect document, registration in detect's registry."""

from __future__ import annotations

import pytest

detect = pytest.importorskip("redactdesk.detect")


def test_crf_source_hits_and_registration(trained):
    from redactdesk.detect.registry import get_source, unregister_source
    from redactdesk.detect.sources import DetectDoc
    from redactdesk.learn.detect_source import CrfSource, register_crf_source
    from redactdesk.synth import generate_call

    conv = generate_call(100_150)
    doc = DetectDoc.from_conversation(conv)
    src = CrfSource(trained)
    hits = src.apply([doc], src.validate({}))[0]
    truth = {(s.start_word, s.end_word, s.category) for s in conv.spans}
    found = {(h.start_word, h.end_word, h.category) for h in hits}
    assert hits and all(h.source == "crf" and 0.5 <= h.score <= 1.0 for h in hits)
    assert len(found & truth) >= 0.6 * len(truth)
    assert "PERSON" in src.categories and not src.trusted
    with pytest.raises(Exception, match="min_score"):
        src.validate({"threshold": 2})
    try:
        register_crf_source(trained)
        assert get_source("crf").model is trained
        conv.spans = []  # detect never suggests over accepted (ground-truth) spans
        spans = detect.detect_conversation(conv, sources=["patterns", "crf"])
        assert any("crf" in s.sources for s in spans)
    finally:
        unregister_source("crf")
