"""Residual risk as in seed 002: worked example, distinct items, corpus criterion."""

import pytest

from redactdesk.resources import load_taxonomy
from redactdesk.risk.residual import MissedItem, conversation_score, corpus_summary, parse_tag

TAX = load_taxonomy()


def test_seed_002_worked_example_scores_six():
    items = [
        MissedItem("c", "ORGANIZATION", "abc inc", speaker=True),
        MissedItem("c", "PERSON", "marc", partial=True),
        MissedItem("c", "EMAIL", "marc@", partial=True),
        MissedItem("c", "ORGANIZATION", "xyz lawyer"),  # a company, not a participant: scores 0
    ]
    assert [TAX.miss_score(i.category, partial=i.partial, speaker=i.speaker) for i in items] == [2, 3, 1, 0]
    assert conversation_score(items, TAX) == 6


def test_repeats_of_one_item_count_once_at_highest_score():
    marc = [MissedItem("c", "PERSON", "marc", partial=True) for _ in range(4)]
    assert conversation_score(marc, TAX) == 3  # not 12
    assert conversation_score(marc + [MissedItem("c", "PERSON", "marc")], TAX) == 5


def test_parse_tag_variants_and_errors():
    assert parse_tag("MISSED_PERSON_PARTIAL", TAX) == ("PERSON", True, False)
    assert parse_tag("missed_organization_partial_speaker", TAX) == ("ORGANIZATION", True, True)
    assert parse_tag("MISSED_CREDIT_CARD", TAX) == ("CREDIT_CARD", False, False)
    with pytest.raises(ValueError):
        parse_tag("MISSED_UNICORN", TAX)


def test_corpus_criterion_mean_plus_sd():
    items = {"a": [MissedItem("a", "PERSON", "x")], "b": [], "c": [], "d": [MissedItem("d", "EMAIL", "y")]}
    s = corpus_summary(items, TAX, threshold=5)
    assert s.scores == {"a": 5, "b": 0, "c": 0, "d": 3}
    assert s.mean == pytest.approx(2.0) and s.sd == pytest.approx(2.4494897, rel=1e-6)
    assert s.max == 5 and s.passed  # 2 + 2.45 = 4.45 < 5
    assert s.criterion == pytest.approx(4.449, abs=1e-3)
    assert s.passed is (s.criterion < 5)
    worse = corpus_summary({**items, "e": [MissedItem("e", "SSN", "z"), MissedItem("e", "PERSON", "q")]}, TAX)
    assert worse.scores["e"] == 10 and not worse.passed
