"""WebVTT and SRT import (cue times spread over words) and export."""

from __future__ import annotations

import pytest

from redactdesk.formats import ImportFailed, read_srt, read_transcript, read_vtt, write_srt, write_vtt

VTT = """WEBVTT - call

NOTE this note is skipped

1
00:00:01.000 --> 00:00:02.000 align:start
<v Agent>Good morning, <i>how</i> can &amp; I

00:00:02.500 --> 00:00:03.500
<v.loud Customer Smith>- Hi.</v>
<v Agent>Yes
"""

SRT = """1
00:00:00,500 --> 00:00:01,500
Hello there

2
00:00:02,000 --> 00:00:03,000
♪ second line
"""


def test_vtt_cues_spread_over_words_with_voices(tmp_path):
    p = tmp_path / "c.vtt"
    p.write_text(VTT, encoding="utf-8")
    imp = read_transcript(p, audio_duration=4.0)
    assert imp.format == "vtt"
    assert [(w.text, w.speaker) for w in imp.words] == [
        ("Good", "Agent"), ("morning,", "Agent"), ("how", "Agent"), ("can", "Agent"), ("I", "Agent"),
        ("Hi.", "Customer Smith"), ("Yes", "Agent")]
    assert [(round(w.start, 3), round(w.end, 3)) for w in imp.words[:5]] == [
        (1.0, 1.2), (1.2, 1.4), (1.4, 1.6), (1.6, 1.8), (1.8, 2.0)]
    assert not any(w.aligned for w in imp.words)
    assert [t.speaker for t in imp.turns] == ["Agent", "Customer Smith", "Agent"]


def test_srt(tmp_path):
    p = tmp_path / "c.srt"
    p.write_text(SRT, encoding="utf-8")
    imp = read_srt(p)
    assert [(w.text, w.start, w.end) for w in imp.words] == [
        ("Hello", 0.5, 1.0), ("there", 1.0, 1.5), ("second", 2.0, 2.5), ("line", 2.5, 3.0)]


def test_vtt_round_trip_keeps_word_starts(tmp_path, sample_words):
    back = read_vtt(write_vtt(sample_words, tmp_path / "o.vtt"))
    assert [w.text for w in back.words] == [w.text for w in sample_words]
    for g, w in zip(back.words, sample_words, strict=True):
        assert abs(g.start - w.start) <= 0.001 and g.speaker == w.speaker
    srt = read_srt(write_srt(sample_words, tmp_path / "o.srt"))
    assert [w.text for w in srt.words] == [w.text for w in sample_words]


def test_broken_subtitles_list_every_cue(tmp_path):
    p = tmp_path / "b.vtt"
    p.write_text("WEBVTT\n\n00:00:01.000 --> 00:00:00.500\nbackwards\n\n"
                 "00:00:02.000 -> 00:00:03.000\nbad arrow\n\n"
                 "00:00:02.000 --> oops\nbad time\n\n"
                 "00:00:09.000 --> 00:00:09.500\nlate\n", encoding="utf-8")
    with pytest.raises(ImportFailed) as ei:
        read_vtt(p, audio_duration=5.0)
    assert [pr.where for pr in ei.value.problems] == [
        "cue 1 (line 3)", "cue 2 (line 6)", "cue 3 (line 9)", "cue 4 (line 12)"]
    text = str(ei.value)
    assert "after it ends" in text and "no timing line" in text and "malformed timing" in text
    assert "past the end of the audio" in text
    no_header = tmp_path / "n.vtt"
    no_header.write_text("00:00:01.000 --> 00:00:02.000\nhi\n", encoding="utf-8")
    with pytest.raises(ImportFailed, match="WEBVTT"):
        read_vtt(no_header)
