"""Evaluation: entity coverage (all words), any vs exact category, token counts, the table."""

import pytest

from redactdesk.core.types import Conversation, Span, SpanStatus, Word
from redactdesk.detect.evaluate import ALL, DIRECT, comparison_table, evaluate


def gold():
    words = [Word(f"w{i}", i, i + 0.5) for i in range(20)]
    spans = [Span(0, 2, "PERSON", SpanStatus.ACCEPTED), Span(5, 9, "CREDIT_CARD", SpanStatus.ACCEPTED),
             Span(12, 13, "CITY", SpanStatus.ACCEPTED), Span(15, 16, "PERSON", SpanStatus.REJECTED)]
    return Conversation(id="g", words=words, spans=spans)


def test_entity_found_only_when_all_words_covered():
    pred = {"g": [Span(0, 2, "PERSON"), Span(5, 8, "CREDIT_CARD"), Span(12, 13, "ORGANIZATION"),
                  Span(17, 18, "PHONE")]}
    r = evaluate([gold()], pred)
    assert r.entity_exact["PERSON"].recall == 1.0
    assert r.entity_exact["CREDIT_CARD"].recall == 0.0  # one card word left uncovered
    assert r.entity_any["CITY"].recall == 1.0 and r.entity_exact["CITY"].recall == 0.0
    assert r.entity_any[ALL].gold == 3  # the rejected span is not gold
    assert r.entity_any[ALL].precision == pytest.approx(3 / 4)
    assert r.entity_exact[ALL].precision == pytest.approx(2 / 4)
    assert r.entity_any[DIRECT].recall == pytest.approx(1 / 2)
    assert r.token["CREDIT_CARD"].tp == 3 and r.token["CREDIT_CARD"].fn == 1
    assert r.token_any.fp == 1 and r.token_any.fn == 1
    table = r.table("t")
    assert "CREDIT_CARD" in table and "DIRECT" in table and table.startswith("t\n")
    assert "system" in comparison_table({"full": r})


def test_missing_predictions_are_reported_and_count_as_misses():
    r = evaluate([gold()], {})
    assert r.missing_predictions == ["g"]
    assert r.entity_any[ALL].recall == 0.0
    assert r.to_dict()["entity_any"]["ALL"]["gold"] == 3
