"""Format detection, encodings, shared validation and the timing fill."""

from __future__ import annotations

import math

import pytest

from redactdesk.core.types import Word
from redactdesk.formats import (
    ImportFailed,
    ImportProblem,
    detect_format,
    fill_missing_times,
    read_transcript,
    write_ctm,
    write_eaf,
    write_textgrid,
    write_vtt,
)
from redactdesk.formats.validate import check_words


def test_latin1_file_names_the_byte_offset(tmp_path):
    p = tmp_path / "l.ctm"
    p.write_bytes("call A 0.1 0.2 hola\ncall A 0.4 0.2 se\u00f1or\n".encode("latin-1"))
    with pytest.raises(ImportFailed) as ei:
        read_transcript(p)
    assert str(ei.value.problems[0]) == (
        "byte 37 (line 2): not valid UTF-8; save the file as UTF-8")


def test_utf8_bom_is_accepted(tmp_path):
    p = tmp_path / "b.json"
    p.write_bytes(b"\xef\xbb\xbf" + '{"words": [{"text": "se\u00f1or", "start": 0, "end": 1}]}'.encode())
    assert read_transcript(p).words[0].text == "se\u00f1or"


def test_detection_by_extension_and_content(tmp_path, sample_words):
    paths = {
        "ctm": write_ctm(sample_words, tmp_path / "a.ctm"),
        "textgrid": write_textgrid(sample_words, tmp_path / "a.TextGrid"),
        "eaf": write_eaf(sample_words, tmp_path / "a.eaf"),
        "vtt": write_vtt(sample_words, tmp_path / "a.vtt"),
    }
    for fmt, p in paths.items():
        assert detect_format(p) == fmt
        assert read_transcript(p).format == fmt
        renamed = p.with_name(f"{fmt}.txt")
        renamed.write_bytes(p.read_bytes())
        if fmt != "ctm":  # CTM has no signature to sniff
            assert detect_format(renamed) == fmt
    odd = tmp_path / "odd.txt"
    odd.write_text("just some words\n", encoding="utf-8")
    with pytest.raises(ImportFailed, match="unknown transcript format"):
        read_transcript(odd)
    assert read_transcript(odd.with_name("ctm.txt"), fmt="ctm").format == "ctm"
    with pytest.raises(ValueError, match="unknown transcript format 'docx'"):
        read_transcript(odd, fmt="docx")
    with pytest.raises(ImportFailed, match="no such file"):
        read_transcript(tmp_path / "missing.vtt")


def test_json_of_unknown_shape(tmp_path):
    p = tmp_path / "x.json"
    p.write_text('{"hello": 1}', encoding="utf-8")
    with pytest.raises(ImportFailed, match="JSON of unknown shape"):
        read_transcript(p)


def test_check_words_collects_everything():
    words = [Word("a", 0.0, 0.5), Word(" ", 0.4, 0.3), Word("c", math.inf, 1.0), Word("d", 0.2, 0.3),
             Word("e", 5.0, 5.04)]
    probs = check_words(words, [f"w{i}" for i in range(5)], audio_duration=5.0)
    assert [(p.where, p.message.split(" (")[0].split(",")[0]) for p in probs] == [
        ("w1", "empty word text"), ("w1", "starts after it ends"), ("w2", "start time is infinite"),
        ("w3", "starts before the previous word: words are out of time order")]
    # 5.04 s is inside the 50 ms tolerance; groups make ordering per channel
    assert check_words([Word("a", 1.0, 1.1), Word("b", 0.5, 0.6)], ["1", "2"], groups=[0, 1]) == []


def test_import_failed_message_lists_all_problems_in_file_order():
    err = ImportFailed("call.json", [ImportProblem("line 12", "bad"), ImportProblem("line 3", "worse"),
                                     ImportProblem("file", "empty")])
    assert str(err) == "cannot import call.json: 3 problems\n  file: empty\n  line 3: worse\n  line 12: bad"


def test_fill_missing_times_runs_edges_and_tight_gaps():
    nan = math.nan
    words = [Word("a", nan, nan), Word("b", 1.0, 1.2), Word("c", nan, nan), Word("d", nan, nan),
             Word("e", 1.2, 1.5), Word("f", nan, nan)]
    out = fill_missing_times(words, lo=0.5, hi=2.0)
    assert [(round(w.start, 3), round(w.end, 3), w.aligned) for w in out] == [
        (0.5, 1.0, False), (1.0, 1.2, True),
        (1.2, 1.3, False), (1.2, 1.3, False),  # no gap: each lasts MIN_WORD, overlapping "e"
        (1.2, 1.5, True), (1.5, 2.0, False)]
    starts = [w.start for w in out]
    assert starts == sorted(starts)
    assert words[0].start != words[0].start  # input untouched
    lonely = fill_missing_times([Word("x", nan, nan)])
    assert math.isnan(lonely[0].start)
