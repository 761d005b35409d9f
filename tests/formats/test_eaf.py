"""ELAN EAF import and export (pympi-ling)."""

from __future__ import annotations

import pytest
from pympi import Elan

from redactdesk.core.types import Word
from redactdesk.formats import ImportFailed, read_eaf, read_transcript, write_eaf


def test_round_trip_one_tier_per_speaker(tmp_path, sample_words, same_words):
    p = write_eaf(sample_words, tmp_path / "out.eaf", audio_rel="call.wav")
    eaf = Elan.Eaf(str(p))
    assert sorted(eaf.get_tier_names()) == ["AGENT", "CUSTOMER"]
    assert eaf.get_parameters_for_tier("AGENT")["PARTICIPANT"] == "AGENT"
    assert eaf.get_linked_files()[0]["RELATIVE_MEDIA_URL"] == "call.wav"
    back = read_transcript(p, audio_duration=3.0)
    assert back.format == "eaf"
    same_words(back.words, sample_words, tol=0.001)
    assert [t.speaker for t in back.turns] == ["AGENT", "CUSTOMER"]


def test_multiword_annotations_are_spread_and_unaligned(tmp_path):
    eaf = Elan.Eaf()
    eaf.add_tier("spk1", part="Agent")
    eaf.add_annotation("spk1", 1000, 2000, "four one one one")
    eaf.add_annotation("spk1", 2500, 2700, "thanks")
    eaf.add_tier("translation", parent="spk1")  # child tier: ignored
    p = tmp_path / "m.eaf"
    Elan.to_eaf(str(p), eaf)
    imp = read_eaf(p)
    assert [(w.text, w.start, w.end, w.aligned, w.speaker) for w in imp.words] == [
        ("four", 1.0, 1.25, False, "Agent"), ("one", 1.25, 1.5, False, "Agent"),
        ("one", 1.5, 1.75, False, "Agent"), ("one", 1.75, 2.0, False, "Agent"),
        ("thanks", 2.5, 2.7, True, "Agent")]


def test_broken_eaf(tmp_path):
    p = tmp_path / "bad.eaf"
    p.write_text('<?xml version="1.0" encoding="UTF-8"?>\n<ANNOTATION_DOCUMENT>\n<TIER>\n</ANNOTATION_DOCUMENT>\n',
                 encoding="utf-8")
    with pytest.raises(ImportFailed, match=r"line 4, column \d+: malformed XML"):
        read_eaf(p)
    late = write_eaf([Word("a", 0.1, 0.2, speaker="S"), Word("b", 7.0, 7.5, speaker="S")], tmp_path / "l.eaf")
    with pytest.raises(ImportFailed, match="tier 1, annotation 2: ends past the end"):
        read_eaf(late, audio_duration=5.0)
    empty = tmp_path / "e.eaf"
    Elan.to_eaf(str(empty), Elan.Eaf())
    with pytest.raises(ImportFailed, match="no time-aligned top-level tier"):
        read_eaf(empty)
