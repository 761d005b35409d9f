"""NIST CTM import and export."""

from __future__ import annotations

import pytest

from redactdesk.formats import ImportFailed, read_ctm, read_transcript, write_ctm

GOOD = """;; produced by some aligner
call A 0.50 0.30 hello 0.98
call A 0.85 0.20 there
;; a comment in the middle
call B 1.10 0.40 hi 0.70
call A 1.20 0.25 how
call B 1.60 0.30 yes NA
"""


def test_good_ctm_channels_become_turns(tmp_path):
    p = tmp_path / "c.ctm"
    p.write_text(GOOD, encoding="utf-8")
    imp = read_transcript(p, audio_duration=2.0)
    assert imp.format == "ctm"
    assert [(w.text, w.channel, w.speaker) for w in imp.words] == [
        ("hello", 0, "CH_A"), ("there", 0, "CH_A"), ("hi", 1, "CH_B"), ("how", 0, "CH_A"), ("yes", 1, "CH_B")]
    assert imp.words[0].start == 0.5 and imp.words[0].end == pytest.approx(0.8)
    assert imp.words[0].confidence == 0.98 and imp.words[1].confidence is None
    assert [(t.speaker, t.channel, t.start_word, t.end_word) for t in imp.turns] == [
        ("CH_A", 0, 0, 2), ("CH_B", 1, 2, 3), ("CH_A", 0, 3, 4), ("CH_B", 1, 4, 5)]


def test_round_trip(tmp_path, sample_words, same_words):
    for w in sample_words:
        w.speaker = None
    p = write_ctm(sample_words, tmp_path / "out.ctm", file_id="call_1")
    back = read_ctm(p)
    same_words(back.words, sample_words, tol=0.001)
    assert all(w.channel == 0 for w in back.words)
    assert back.words[0].confidence == pytest.approx(0.9)


def test_broken_ctm_lists_every_line(tmp_path):
    p = tmp_path / "bad.ctm"
    p.write_text("call A 0.5 0.3 hello\n"
                 "call A 0.2 0.1 early\n"      # line 2: out of order
                 "call A x 0.1 what\n"         # line 3: bad start
                 "call A 0.9\n"                # line 4: too few fields
                 "call A 0.95 -0.1 neg\n"      # line 5: negative duration
                 "call A 9.0 0.5 late\n",      # line 6: past the audio
                 encoding="utf-8")
    with pytest.raises(ImportFailed) as ei:
        read_ctm(p, audio_duration=5.0)
    wheres = [pr.where for pr in ei.value.problems]
    assert wheres == ["line 2", "line 3", "line 4", "line 5", "line 6"]
    text = str(ei.value)
    assert "out of time order" in text and "past the end of the audio" in text
    assert "early" not in text and "late" not in text


def test_several_recordings_need_a_choice(tmp_path):
    p = tmp_path / "m.ctm"
    p.write_text("one A 0.1 0.1 a\ntwo A 0.1 0.1 b\n", encoding="utf-8")
    with pytest.raises(ImportFailed, match="holds 2 recordings"):
        read_ctm(p)
    assert [w.text for w in read_ctm(p, file_id="two").words] == ["b"]


def test_empty_ctm(tmp_path):
    p = tmp_path / "e.ctm"
    p.write_text(";; nothing here\n\n", encoding="utf-8")
    with pytest.raises(ImportFailed, match="transcript is empty"):
        read_ctm(p)
