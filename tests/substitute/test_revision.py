"""Revision checks flag what goes wrong (seed 004): equal surrogates, real entities, spellings that no
longer match, broken number grammar, broken date relations. Messages never hold original values."""

from __future__ import annotations

import copy

from redactdesk.substitute import PseudonymMap, revision_checks, substitute_conversation

LINES = [("a", "this is Emma"), ("c", "hi I am Daniel Brooks"), ("c", "B R O O K S"),
         ("c", "it was March third twenty twenty four and then March seventh twenty twenty four"),
         ("c", "son cuarenta y cuatro euros")]
SPANS = [(0, "Emma", "PERSON"), (1, "Daniel Brooks", "PERSON"), (2, "B R O O K S", "SPELLED_LETTERS"),
         (3, "March third twenty twenty four", "DATE"), (3, "March seventh twenty twenty four", "DATE")]


def _kinds(warnings):
    return sorted({w.kind for w in warnings})


def _base(make_conv, secret):
    conv = make_conv(LINES, SPANS)
    res = substitute_conversation(conv, secret=secret)
    assert not res.warnings, [str(w) for w in res.warnings]
    return conv, res


def test_edit_back_to_the_original_is_flagged(make_conv, secret):
    conv, res = _base(make_conv, secret)
    rows = PseudonymMap(res.map_rows)
    rows.set("person:given:daniel", "PERSON", "Daniel", "Daniel")
    bad = substitute_conversation(conv, secret=secret, existing_map=rows.rows())
    assert _kinds(bad.warnings) == ["same_as_original"]
    assert all("Daniel" not in w.message for w in bad.warnings)
    assert bad.warnings[0].span_ids == (2,)


def test_surrogate_that_is_another_real_person_is_flagged(make_conv, secret):
    conv, res = _base(make_conv, secret)
    rows = PseudonymMap(res.map_rows)
    rows.set("person:given:daniel", "PERSON", "Daniel", "Emma")
    bad = substitute_conversation(conv, secret=secret, existing_map=rows.rows())
    assert "real_entity" in _kinds(bad.warnings)


def test_moving_one_date_alone_breaks_relations(make_conv, secret):
    conv, res = _base(make_conv, secret)
    rows = PseudonymMap(res.map_rows)
    key = next(r["key"] for r in res.map_rows if r["key"] == "date:2024-03-07")
    rows.set(key, "DATE", "2024-03-07", "2024-05-09")
    bad = substitute_conversation(conv, secret=secret, existing_map=rows.rows())
    assert "date_relation" in _kinds(bad.warnings)


def test_spelling_that_no_longer_matches_is_flagged(make_conv, secret):
    conv, res = _base(make_conv, secret)
    broken = copy.deepcopy(res)
    for item in broken.items:
        for occ in item.occurrences:
            if occ.form == "spelled":
                occ.said_surrogate = "X Y Z"
    assert "spelling" in _kinds(revision_checks(conv, broken))


def test_broken_spanish_number_grammar_is_flagged(make_conv, secret):
    conv = make_conv([("c", "son cuarenta y cuatro euros")], [(0, "cuarenta y cuatro euros", "MONEY")],
                     language="es")
    res = substitute_conversation(conv, secret=secret)
    assert not res.warnings
    broken = copy.deepcopy(res)
    broken.items[0].occurrences[0].said_surrogate = "diez y cuatro euros"
    assert _kinds(revision_checks(conv, broken)) == ["number_grammar"]
    broken.items[0].occurrences[0].said_surrogate = "treinta y cero euros"
    assert _kinds(revision_checks(conv, broken)) == ["number_grammar"]
