"""whisperx JSON import, including words whisperx left without times."""

from __future__ import annotations

import json

import pytest

from redactdesk.formats import ImportFailed, read_transcript, read_whisperx


def _write(tmp_path, data, name="c.whisperx.json"):
    p = tmp_path / name
    p.write_text(json.dumps(data), encoding="utf-8")
    return p


def test_good_file_words_times_speakers(data_dir):
    imp = read_transcript(data_dir / "call.whisperx.json", audio_duration=6.5)
    assert imp.format == "whisperx" and imp.language == "en"
    assert [w.text for w in imp.words] == ["Thank", "you", "for", "calling,", "my", "name", "is", "Anna.",
                                           "My", "number", "is", "555", "0199", "thanks"]
    first = imp.words[0]
    assert (first.start, first.end, first.confidence, first.speaker, first.aligned) == (
        0.52, 0.71, 0.93, "SPEAKER_00", True)
    assert imp.words[6].speaker == "SPEAKER_00"  # from the segment
    assert [(t.speaker, t.start_word, t.end_word) for t in imp.turns] == [
        ("SPEAKER_00", 0, 8), ("SPEAKER_01", 8, 14)]


def test_missing_times_are_interpolated_and_unaligned(data_dir):
    imp = read_whisperx(data_dir / "call.whisperx.json")
    w555, w0199, thanks = imp.words[11], imp.words[12], imp.words[13]
    assert not w555.aligned and not w0199.aligned and thanks.aligned
    # spread between "is" (ends 4.1) and "thanks" (starts 5.6)
    assert w555.start == pytest.approx(4.1) and w555.end == pytest.approx(4.85)
    assert w0199.start == pytest.approx(4.85) and w0199.end == pytest.approx(5.6)
    assert w555.speaker == "SPEAKER_01" and w555.confidence is None
    assert any("2 word(s) had no times" in m for m in imp.warnings)
    assert imp.unaligned_count == 2


def test_missing_times_at_segment_edges_use_segment_bounds(tmp_path):
    data = {"segments": [{"start": 1.0, "end": 2.0, "words": [
        {"word": "one"}, {"word": "two", "start": 1.4, "end": 1.6}, {"word": "three"}]}]}
    words = read_whisperx(_write(tmp_path, data)).words
    assert [(round(w.start, 3), round(w.end, 3), w.aligned) for w in words] == [
        (1.0, 1.4, False), (1.4, 1.6, True), (1.6, 2.0, False)]


def test_word_segments_only(tmp_path):
    data = {"word_segments": [{"word": "hi", "start": 0.1, "end": 0.3, "score": 0.5},
                              {"word": "there", "start": 0.35, "end": 0.6}]}
    imp = read_transcript(_write(tmp_path, data, "x.json"))
    assert [w.text for w in imp.words] == ["hi", "there"] and imp.words[0].confidence == 0.5


def test_segments_without_words_are_spread(tmp_path):
    data = {"segments": [{"start": 0.0, "end": 1.0, "text": " a b c d", "speaker": "S1"}]}
    imp = read_whisperx(_write(tmp_path, data))
    assert [(w.start, w.end) for w in imp.words] == [(0.0, 0.25), (0.25, 0.5), (0.5, 0.75), (0.75, 1.0)]
    assert not any(w.aligned for w in imp.words) and imp.words[0].speaker == "S1"


def test_every_problem_is_listed_with_its_item(tmp_path):
    data = {"segments": [
        {"start": 0.0, "end": 1.0, "words": [
            {"word": "ok", "start": 0.0, "end": 0.2},
            {"start": 0.3, "end": 0.4},                      # no word
            {"word": "late", "start": 9.0, "end": 9.5},      # past the audio
            {"word": "", "start": 0.5, "end": 0.6},          # empty, and out of order after 9.0
        ]},
        {"start": "x", "words": [{"word": "bad", "start": "soon", "end": 1.3}]},
    ]}
    with pytest.raises(ImportFailed) as ei:
        read_whisperx(_write(tmp_path, data), audio_duration=5.0)
    msg = str(ei.value)
    wheres = [p.where for p in ei.value.problems]
    assert "segment 1, word 2" in wheres and "segment 1, word 3" in wheres and "segment 1, word 4" in wheres
    assert "segment 2" in wheres and "segment 2, word 1" in wheres
    assert "missing 'word'" in msg and "past the end of the audio" in msg
    assert "empty word text" in msg and "out of time order" in msg and "'start' is not a number" in msg
    assert "late" not in msg  # word texts are not echoed


def test_empty_malformed_and_wrong_shape(tmp_path):
    with pytest.raises(ImportFailed, match="empty"):
        read_whisperx(_write(tmp_path, {"segments": []}))
    bad = tmp_path / "bad.json"
    bad.write_text('{"segments": [ {"start": 1,, } ]}', encoding="utf-8")
    with pytest.raises(ImportFailed, match=r"line 1, column \d+: malformed JSON"):
        read_transcript(bad)
    with pytest.raises(ImportFailed, match="not whisperx output"):
        read_whisperx(_write(tmp_path, {"text": "hello"}))


def test_nan_counts_as_missing_but_negative_is_an_error(tmp_path):
    # older whisperx versions wrote NaN (via pandas) for words they could not align
    p = tmp_path / "n.whisperx.json"
    p.write_text('{"segments": [{"start": 0.0, "end": 2.0, "words": [{"word": "a", "start": NaN, "end": NaN},'
                 '{"word": "b", "start": 1.0, "end": 1.5}]}]}', encoding="utf-8")
    a = read_transcript(p).words[0]
    assert (a.start, a.end, a.aligned) == (0.0, 1.0, False)
    p.write_text('{"segments": [{"words": [{"word": "b", "start": -1.0, "end": 1.0}]}]}', encoding="utf-8")
    with pytest.raises(ImportFailed, match="segment 1, word 1: start time is negative"):
        read_transcript(p)
