"""Praat TextGrid import and export (praatio)."""

from __future__ import annotations

import pytest
from praatio import textgrid as tgio

from redactdesk.core.types import Word
from redactdesk.formats import ImportFailed, read_textgrid, read_transcript, write_textgrid


def _save(path, tiers, xmax=3.0, **kw):
    tg = tgio.Textgrid()
    for name, entries in tiers:
        tg.addTier(tgio.IntervalTier(name, entries, 0.0, xmax))
    tg.save(str(path), format=kw.get("format", "long_textgrid"), includeBlankSpaces=True)
    return path


def test_round_trip_one_tier_per_speaker(tmp_path, sample_words, same_words):
    p = write_textgrid(sample_words, tmp_path / "out.TextGrid", duration=3.0)
    tg = tgio.openTextgrid(str(p), includeEmptyIntervals=False)
    assert list(tg.tierNames) == ["AGENT", "CUSTOMER"] and tg.maxTimestamp == 3.0
    back = read_transcript(p, audio_duration=3.0)
    assert back.format == "textgrid"
    same_words(back.words, sample_words, tol=0.001)
    assert [(t.speaker, t.start_word, t.end_word) for t in back.turns] == [("AGENT", 0, 5), ("CUSTOMER", 5, 7)]


def test_words_without_speaker_go_to_a_words_tier(tmp_path, same_words):
    words = [Word("a", 0.1, 0.2), Word("b", 0.2, 0.4)]
    back = read_textgrid(write_textgrid(words, tmp_path / "w.TextGrid"))
    same_words(back.words, words)
    assert back.words[0].speaker is None


def test_mfa_style_tiers_and_multiword_intervals(tmp_path):
    p = _save(tmp_path / "mfa.TextGrid", [
        ("anna - words", [(0.1, 0.5, "hello"), (0.6, 1.2, "good morning")]),
        ("anna - phones", [(0.1, 0.2, "HH"), (0.2, 0.5, "AH")]),
        ("bob - words", [(1.3, 1.6, "hi")]),
    ], format="short_textgrid")
    imp = read_textgrid(p)
    assert [(w.text, w.speaker, w.aligned) for w in imp.words] == [
        ("hello", "anna", True), ("good", "anna", False), ("morning", "anna", False), ("hi", "bob", True)]
    assert imp.words[1].start == pytest.approx(0.6) and imp.words[2].start == pytest.approx(0.9)
    assert imp.warnings


def test_utf16_textgrid_as_praat_writes_it(tmp_path):
    p = _save(tmp_path / "u.TextGrid", [("words", [(0.1, 0.5, "señor")])])
    p.write_bytes(p.read_text(encoding="utf-8").encode("utf-16"))
    assert [w.text for w in read_transcript(p).words] == ["señor"]


def test_times_past_audio_and_phone_only_file(tmp_path):
    p = _save(tmp_path / "late.TextGrid", [("S1", [(0.1, 0.5, "a"), (2.0, 2.9, "b")])])
    with pytest.raises(ImportFailed) as ei:
        read_textgrid(p, audio_duration=1.0)
    assert [str(x) for x in ei.value.problems] == [
        "tier 1, interval 4: ends past the end of the audio (1.000 s)"]  # Praat's numbering: empty ones count
    p = _save(tmp_path / "ph.TextGrid", [("phones", [(0.1, 0.5, "AH")])])
    with pytest.raises(ImportFailed, match="no interval tier with words"):
        read_textgrid(p)


def test_empty_and_garbage_textgrid(tmp_path):
    p = _save(tmp_path / "e.TextGrid", [("words", [])])
    with pytest.raises(ImportFailed, match="transcript is empty"):
        read_textgrid(p)
    g = tmp_path / "g.TextGrid"
    g.write_text('File type = "ooTextFile"\nObject class = "TextGrid"\nxmin = oops\n', encoding="utf-8")
    with pytest.raises(ImportFailed, match="not a readable TextGrid"):
        read_textgrid(g)
