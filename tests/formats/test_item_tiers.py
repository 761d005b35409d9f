"""Item tiers in TextGrid and ELAN: written with the release's items, read back with --span-tier, and a
tier named like "PII" never taken as a speaker (issue 21 item 1)."""

from __future__ import annotations

from pathlib import Path

import pytest
from praatio import textgrid as tgio
from pympi import Elan

from redactdesk.core.types import SpanStatus, Word
from redactdesk.formats import (
    ImportFailed,
    read_eaf,
    read_textgrid,
    read_transcript,
    write_eaf,
    write_textgrid,
)
from redactdesk.formats.span_tier import label_category, looks_like_span_tier

TOOLS = Path(__file__).parent / "data" / "tools"
CATEGORIES = ["PERSON", "PHONE", "GENERIC_ID"]

WORDS = [Word("this", 0.1, 0.3, speaker="customer"), Word("is", 0.35, 0.5, speaker="customer"),
         Word("Bernadette", 0.6, 1.0, speaker="customer"), Word("Oakley", 1.05, 1.5, speaker="customer"),
         Word("thanks", 2.0, 2.3, speaker="agent"), Word("Bernadette", 2.4, 2.9, speaker="agent")]
ITEMS = [(0.6, 1.5, "PERSON", "[PERSON_1]"), (2.4, 2.9, "PERSON", "[PERSON_1]")]


def _tg_items():
    return [(s, e, f"{c} {p}") for s, e, c, p in ITEMS]


def test_textgrid_items_tier_written_and_read_by_praatio(tmp_path):
    path = write_textgrid(WORDS, tmp_path / "c.TextGrid", duration=3.0, items=_tg_items())
    tg = tgio.openTextgrid(str(path), includeEmptyIntervals=False)
    assert tg.tierNames == ("customer", "agent", "items")
    assert [(e.start, e.end, e.label) for e in tg.getTier("items").entries] == \
        [(0.6, 1.5, "PERSON [PERSON_1]"), (2.4, 2.9, "PERSON [PERSON_1]")]


def test_textgrid_items_tier_is_not_a_speaker_and_reads_back_as_spans(tmp_path):
    path = write_textgrid(WORDS, tmp_path / "c.TextGrid", duration=3.0, items=_tg_items())
    plain = read_textgrid(path)
    assert [w.text for w in plain.words] == [w.text for w in WORDS]
    assert {w.speaker for w in plain.words} == {"customer", "agent"}
    t = read_transcript(path, span_tier="items", categories=CATEGORIES)
    assert [(s.start_word, s.end_word, s.category, s.status) for s in t.spans] == \
        [(2, 4, "PERSON", SpanStatus.SUGGESTED), (5, 6, "PERSON", SpanStatus.SUGGESTED)]
    accepted = read_transcript(path, span_tier="ITEMS", categories=CATEGORIES, span_status=SpanStatus.ACCEPTED)
    assert {s.status for s in accepted.spans} == {SpanStatus.ACCEPTED}


def test_a_pii_tier_of_another_tool_is_no_speaker():
    """The sample (Praat long text form) has a word tier and a tier "PII": the old reader made a
    speaker "PII" with a word "PERSON"."""
    t = read_textgrid(TOOLS / "pii_tier.TextGrid")
    assert [w.text for w in t.words] == ["my", "name", "is", "Ada", "Lovelace"]
    assert {w.speaker for w in t.words} == {"Speaker A"}
    t = read_transcript(TOOLS / "pii_tier.TextGrid", span_tier="PII", categories=CATEGORIES)
    assert [(s.start_word, s.end_word, s.category) for s in t.spans] == [(3, 5, "PERSON")]
    assert t.spans[0].sources == ("import:tier",)


def test_eaf_items_tier_has_a_controlled_vocabulary_pympi_reads(tmp_path):
    vocab = [("PERSON", "Person name"), ("PHONE", "Telephone number")]
    path = write_eaf(WORDS, tmp_path / "c.eaf", items=ITEMS, vocabulary=vocab)
    eaf = Elan.Eaf(str(path))
    assert set(eaf.get_tier_names()) == {"customer", "agent", "items", "placeholders"}
    assert eaf.get_annotation_data_for_tier("items") == [(600, 1500, "PERSON"), (2400, 2900, "PERSON")]
    refs = eaf.get_ref_annotation_data_for_tier("placeholders")
    assert [(r[0], r[1], r[2]) for r in refs] == [(600, 1500, "[PERSON_1]"), (2400, 2900, "[PERSON_1]")]
    lt = eaf.get_parameters_for_tier("items")["LINGUISTIC_TYPE_REF"]
    cv = eaf.linguistic_types[lt]["CONTROLLED_VOCABULARY_REF"]
    values = [v[0][0][0] for v in eaf.get_cv_entries(cv).values()]
    assert values == ["PERSON", "PHONE"]
    assert eaf.get_parameters_for_tier("placeholders")["PARENT_REF"] == "items"


def test_eaf_items_tier_reads_back(tmp_path):
    path = write_eaf(WORDS, tmp_path / "c.eaf", items=ITEMS, vocabulary=[("PERSON", "Person name")])
    plain = read_eaf(path)
    assert [w.text for w in plain.words] == [w.text for w in WORDS]
    assert {w.speaker for w in plain.words} == {"customer", "agent"}
    t = read_transcript(path, span_tier="items", categories=CATEGORIES)
    assert [(s.start_word, s.end_word, s.category) for s in t.spans] == [(2, 4, "PERSON"), (5, 6, "PERSON")]


def test_an_elan_pii_tier_with_its_own_vocabulary():
    t = read_eaf(TOOLS / "pii_tier.eaf")
    assert {w.speaker for w in t.words} == {"agent"} and len(t.words) == 5
    t = read_transcript(TOOLS / "pii_tier.eaf", span_tier="PII", categories=CATEGORIES)
    assert [(s.start_word, s.end_word, s.category) for s in t.spans] == [(3, 5, "PHONE")]


def test_bad_span_tiers_fail_closed_without_repeating_labels(tmp_path):
    items = [(0.6, 1.5, "Mrs Secretname")]
    path = write_textgrid(WORDS, tmp_path / "c.TextGrid", duration=3.0, items=items)
    with pytest.raises(ImportFailed) as err:
        read_transcript(path, span_tier="items", categories=CATEGORIES)
    assert "no category" in str(err.value) and "Secretname" not in str(err.value)
    with pytest.raises(ImportFailed, match="no interval tier has the name"):
        read_transcript(path, span_tier="redactions", categories=CATEGORIES)
    with pytest.raises(ImportFailed, match="TextGrid and EAF files only"):
        ctm = tmp_path / "c.ctm"
        ctm.write_text("c A 0.1 0.2 hello\n")
        read_transcript(ctm, span_tier="items", categories=CATEGORIES)
    missed = write_textgrid(WORDS, tmp_path / "d.TextGrid", duration=5.0, items=[(4.0, 4.5, "PERSON")])
    with pytest.raises(ImportFailed, match="covers no word"):
        read_transcript(missed, span_tier="items", categories=CATEGORIES)


@pytest.mark.parametrize("name,expected", [("PII", True), ("items", True), ("Redactions", True),
                                           ("personal-data", True), ("agent", False), ("Speaker A", False)])
def test_span_tier_names(name, expected):
    assert looks_like_span_tier(name) is expected


@pytest.mark.parametrize("label,expected", [("PERSON [PERSON_1]", "PERSON"), ("person", "PERSON"),
                                            ("[GENERIC_ID_2]", "GENERIC_ID"), ("PHONE_3", "PHONE"),
                                            ("Ada", None), ("", None)])
def test_label_category(label, expected):
    assert label_category(label, CATEGORIES) == expected
