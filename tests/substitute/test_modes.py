"""Placeholder, tag, redact and generalise modes; k-anonymity of conversation metadata."""

from __future__ import annotations

import pytest

from redactdesk.core.types import Conversation
from redactdesk.substitute import SubstitutionError, generalise_records, substitute_conversation
from redactdesk.substitute.generalise import extract_quasi_identifiers, hierarchy_for, load_hierarchy

LINES = [("a", "hello Emma Stone"), ("c", "hi I am Daniel Brooks"), ("a", "thanks Emma Stone"),
         ("c", "I live in Portland")]
SPANS = [(0, "Emma Stone", "PERSON"), (1, "Daniel Brooks", "PERSON"), (2, "Emma Stone", "PERSON"),
         (3, "Portland", "CITY")]


def test_placeholders_are_reused_within_a_call_only(make_conv, secret):
    res = substitute_conversation(make_conv(LINES, SPANS), mode="placeholder", secret=secret)
    said = [r.surrogate for r in res.replacements]
    assert said == ["[PERSON_NAME_1]", "[PERSON_NAME_2]", "[PERSON_NAME_1]", "[CITY_1]"]
    assert res.map_rows == [] and not res.warnings
    other = substitute_conversation(make_conv(LINES[1:], [(0, "Daniel Brooks", "PERSON")], cid="c2"),
                                    mode="placeholder", secret=secret)
    assert other.replacements[0].surrogate == "[PERSON_NAME_1]"  # numbering starts again in every call


def test_tag_and_redact(make_conv, secret):
    tag = substitute_conversation(make_conv(LINES, SPANS), mode="tag", secret=secret)
    assert [r.surrogate for r in tag.replacements] == ["[PERSON]"] * 3 + ["[CITY]"]
    red = substitute_conversation(make_conv(LINES, SPANS), mode="redact", secret=secret)
    assert {r.surrogate for r in red.replacements} == {"[REDACTED]"}
    assert "Emma" not in red.revised_text() and "Portland" not in red.revised_text()


def test_generalise_mode_says_the_city_at_the_chosen_level(make_conv, secret):
    res = substitute_conversation(make_conv(LINES, SPANS), mode="generalise", secret=secret,
                                  generalisation={"CITY": 1})
    assert res.replacements[-1].surrogate == "Oregon"
    assert res.replacements[0].surrogate != "Emma Stone"  # direct identifiers are still pseudonymised
    top = substitute_conversation(make_conv(LINES, SPANS), mode="generalise", secret=secret,
                                  generalisation={"CITY": 3})
    assert top.replacements[-1].surrogate == "[CITY]"


def test_information_loss_is_level_over_levels():
    h = load_hierarchy("city_en")
    assert h.levels == 3 and h.path("Denver") == ["Denver", "Colorado", "USA", "*"]
    records = {"a": {"city": "Denver"}, "b": {"city": "Denver"}, "c": {"city": "Denver"},
               "d": {"city": "Colorado Springs"}, "e": {"city": "Portland"}, "f": {"city": "Seattle"}}
    rep = generalise_records(records, k=3)
    assert rep.achieved_k >= 3 and rep.k_met
    assert rep.levels["a"]["city"] == 0 or rep.levels["a"]["city"] == 1
    expected = sum(rep.levels[c]["city"] / 3 for c in records) / len(records)
    assert rep.information_loss["city"]["mean_il"] == pytest.approx(expected, abs=1e-4)
    assert rep.information_loss["city"]["levels"] == 3
    groups: dict[str, int] = {}
    for c in records:
        groups[rep.values[c]["city"]] = groups.get(rep.values[c]["city"], 0) + 1
    assert min(groups.values()) >= 3


def test_bands_and_too_few_records():
    h = hierarchy_for("birth_year", "en")
    assert h.path(1984) == ["1984", "1980-1984", "1980-1989", "1980-1999", "*"]
    rep = generalise_records({"a": {"birth_year": 1984}, "b": {"birth_year": 1991}}, k=3)
    assert rep.achieved_k == 2 and not rep.k_met  # reported honestly, not hidden
    with pytest.raises(SubstitutionError):
        generalise_records({"a": {"gender": "f"}}, k=0)
    with pytest.raises(SubstitutionError, match="no generalisation hierarchy"):
        load_hierarchy("nonexistent")


def test_quasi_identifiers_come_from_spans_and_meta(make_conv):
    conv: Conversation = make_conv(LINES + [("c", "born on March third nineteen eighty four")],
                                   SPANS + [(4, "March third nineteen eighty four", "DATE_OF_BIRTH")])
    conv.meta["speakers"] = {"c": {"role": "customer", "gender": "male"}}
    assert extract_quasi_identifiers(conv) == {"city": "Portland", "birth_year": 1984, "gender": "male"}
    conv.meta["quasi_identifiers"] = {"city": "Boston"}
    assert extract_quasi_identifiers(conv) == {"city": "Boston"}
