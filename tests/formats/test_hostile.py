"""Hostile input fails closed (issue 15): every case is a clean ImportFailed (or IdError) that lists
places, never a traceback, never a hang, never a value from the file; a refused import leaves the
project unchanged. Each test names the attack it stands for."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import time
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

from redactdesk.core.ids import ID_RULE, IdError, is_safe_id, safe_id_from, unique_id
from redactdesk.formats import ImportFailed, probe_audio, read_transcript
from redactdesk.formats.limits import MAX_JSON_DEPTH, MAX_TRANSCRIPT_BYTES
from redactdesk.formats.subtitles import parse_subtitles
from redactdesk.formats.textgrid import parse_textgrid
from redactdesk.pipeline.importing import conversation_id_for, import_recording
from redactdesk.store import Project

SECRET = "Mckenzie"  # a personal value planted in inputs: no message may repeat it


@contextlib.contextmanager
def time_limit(seconds: int):
    """Fail (TimeoutError) instead of hanging when the code under test blocks or loops."""

    def _raise(signum, frame):
        raise TimeoutError(f"did not finish within {seconds} s")

    old = signal.signal(signal.SIGALRM, _raise)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


@pytest.fixture
def project(tmp_path):
    with Project.create(tmp_path / "p.rdproj") as p:
        yield p


@pytest.fixture
def wav(tmp_path) -> Path:
    path = tmp_path / "call.wav"
    sf.write(str(path), (0.1 * np.sin(np.arange(32000) / 16000 * 2 * np.pi * 220)).astype("float32"), 16000)
    return path


def _conv(words=None, **extra) -> dict:
    words = words if words is not None else [
        {"text": "hello", "start": 0.1, "end": 0.4, "speaker": "A"},
        {"text": SECRET, "start": 0.5, "end": 0.9, "speaker": "A"}]
    return {"format": "redactdesk-conversation", "version": 1, "words": words, **extra}


def _write_json(path: Path, data) -> Path:
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def _refused(path, **kw) -> ImportFailed:
    with time_limit(10), pytest.raises(ImportFailed) as ei:
        read_transcript(path, **kw)
    assert SECRET not in str(ei.value)
    return ei.value


# ---------------------------------------------------------------- deep JSON


@pytest.mark.parametrize("name,text", [
    ("arrays.json", "[" * 100_000 + "]" * 100_000),
    ("in_segments.whisperx.json", '{"segments": ' + "[" * 50_000 + "]" * 50_000 + "}"),
])
def test_deeply_nested_json_is_refused_not_a_recursion_error(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    err = _refused(p)
    assert f"nested deeper than the limit of {MAX_JSON_DEPTH} levels" in str(err)


def test_nesting_past_the_limit_but_parseable_is_refused(tmp_path):
    deep: object = SECRET
    for _ in range(MAX_JSON_DEPTH + 10):
        deep = {"k": deep}
    err = _refused(_write_json(tmp_path / "c.json", _conv(meta=deep)))
    assert "nested deeper" in str(err)


# ---------------------------------------------------------------- numbers: range and type


@pytest.mark.parametrize("mutate,where", [
    (lambda d: d["words"][0].update(channel=10**30), "word 1"),
    (lambda d: d["words"][0].update(start=10**400), "word 1"),
    (lambda d: d["words"][0].update(confidence=10**400), "word 1"),
    (lambda d: d.update(channels=10**30), "file"),
    (lambda d: d.update(spans=[{"start_word": 0, "end_word": 1, "category": "PERSON", "entity": 10**30}]),
     "span 1"),
    (lambda d: d.update(spans=[{"start_word": 0, "end_word": 1, "category": "PERSON", "score": 10**400}]),
     "span 1"),
    (lambda d: d.update(turns=[{"speaker": "A", "start_word": 0, "end_word": 2, "channel": 2**64}]), "turn 1"),
])
def test_huge_integers_are_listed_problems(tmp_path, project, wav, mutate, where):
    d = _conv()
    mutate(d)
    t = _write_json(tmp_path / "t.json", d)
    with pytest.raises(ImportFailed) as ei:
        import_recording(project, wav, t)
    assert where in [p.where for p in ei.value.problems]
    assert SECRET not in str(ei.value)
    assert project.conversation_ids() == []  # all-or-nothing


@pytest.mark.parametrize("field,value", [
    ("channel", {"n": 1}), ("channel", [1]), ("channel", True), ("channel", 1.5),
    ("speaker", {"name": SECRET}), ("speaker", [SECRET]),
])
def test_wrong_types_where_numbers_or_names_belong(tmp_path, project, wav, field, value):
    d = _conv(turns=[{"speaker": "A", "start_word": 0, "end_word": 2, field: value}])
    with pytest.raises(ImportFailed) as ei:
        import_recording(project, wav, _write_json(tmp_path / "t.json", d))
    assert ei.value.problems[0].where == "turn 1" and f"'{field}'" in ei.value.problems[0].message
    assert SECRET not in str(ei.value)
    assert project.conversation_ids() == []


def test_huge_timestamps_and_numbers_in_text_formats(tmp_path):
    vtt = tmp_path / "h.vtt"
    vtt.write_text("WEBVTT\n\n" + "9" * 5000 + ":00:00.000 --> 00:00:01.000\nhello\n", encoding="utf-8")
    assert "malformed timing line" in str(_refused(vtt))
    ctm = tmp_path / "h.ctm"
    ctm.write_text(f"call {'9' * 5000} 0.1 0.2 {SECRET}\ncall A 1e999 0.1 x\n", encoding="utf-8")
    _refused(ctm)
    eaf = tmp_path / "h.eaf"
    eaf.write_text('<?xml version="1.0" encoding="UTF-8"?>\n<ANNOTATION_DOCUMENT><TIME_ORDER>'
                   f'<TIME_SLOT TIME_SLOT_ID="ts1" TIME_VALUE="{"9" * 4000}"/>'
                   '<TIME_SLOT TIME_SLOT_ID="ts2" TIME_VALUE="20"/></TIME_ORDER>'
                   '<TIER TIER_ID="S"><ANNOTATION><ALIGNABLE_ANNOTATION ANNOTATION_ID="a1" TIME_SLOT_REF1="ts1" '
                   f'TIME_SLOT_REF2="ts2"><ANNOTATION_VALUE>{SECRET}</ANNOTATION_VALUE></ALIGNABLE_ANNOTATION>'
                   "</ANNOTATION></TIER></ANNOTATION_DOCUMENT>", encoding="utf-8")
    assert "time slot 1" in [p.where for p in _refused(eaf).problems]


# ---------------------------------------------------------------- files that are not plain files


def test_long_file_names_are_handled(tmp_path):
    long_dir = tmp_path / ("d" * 200)
    long_dir.mkdir()
    ok = long_dir / (("n" * 240) + ".ctm")  # 244 characters: a legal name
    ok.write_text("call A 0.1 0.2 hello\n", encoding="utf-8")
    assert [w.text for w in read_transcript(ok).words] == ["hello"]
    too_long = long_dir / ("n" * 300 + ".ctm")  # longer than any file system allows
    err = _refused(too_long)
    assert "too long" in str(err)
    with pytest.raises(ImportFailed, match="too long"):
        probe_audio(long_dir / ("a" * 300 + ".wav"))


def test_fifo_is_refused_without_blocking(tmp_path):
    fifo = tmp_path / "t.json"
    os.mkfifo(fifo)
    err = _refused(fifo)  # a plain open() would wait for a writer for ever
    assert "not a regular file" in str(err)
    with time_limit(10), pytest.raises(ImportFailed, match="not a regular file"):
        probe_audio(fifo.rename(tmp_path / "a.wav"))


_READ_IN_A_BOX = """
import resource, sys
resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))  # a reader without a limit dies here, not the machine
from redactdesk.formats import ImportFailed, read_transcript
try:
    read_transcript(sys.argv[1], fmt="ctm")
except ImportFailed as exc:
    print("REFUSED", exc)
"""


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_endless_device_is_refused():
    import subprocess
    import sys

    # read without a limit, /dev/zero never ends: run it in a child with capped memory and time
    run = subprocess.run([sys.executable, "-c", _READ_IN_A_BOX, "/dev/zero"], capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.startswith("REFUSED") and "not a regular file" in run.stdout


def test_size_limit_is_checked_before_reading(tmp_path):
    big = tmp_path / "big.ctm"
    with open(big, "wb") as fh:  # sparse: takes no disk space, would take 200 MB of memory to read
        fh.truncate(MAX_TRANSCRIPT_BYTES + 1)
    t0 = time.perf_counter()
    err = _refused(big)
    assert "is larger than the 200 MB limit" in str(err) and time.perf_counter() - t0 < 2.0


def test_size_limit_is_enforced_while_reading(tmp_path):
    from redactdesk.formats._textio import read_bytes

    p = tmp_path / "x.ctm"
    p.write_bytes(b"a" * 1000)
    assert len(read_bytes(p, limit=1000)) == 1000
    with pytest.raises(ImportFailed, match="limit"):
        read_bytes(p, limit=999)


def test_millions_of_problems_do_not_take_gigabytes(tmp_path):
    from redactdesk.formats.limits import MAX_PROBLEMS_KEPT, MAX_PROBLEMS_SHOWN

    p = tmp_path / "bad.ctm"
    p.write_text(f"call A x 0.1 {SECRET}\n" * 50_000, encoding="utf-8")
    err = _refused(p)
    assert len(err.problems) == MAX_PROBLEMS_KEPT and err.dropped == 50_000 - MAX_PROBLEMS_KEPT
    msg = str(err)
    assert msg.startswith(f"cannot import {p}: 50000 problems")
    assert msg.endswith(f"... and {50_000 - MAX_PROBLEMS_SHOWN} more") and msg.count("\n") == MAX_PROBLEMS_SHOWN + 1


def test_items_after_the_problem_cap_are_still_checked(tmp_path):
    d = _conv(words=[{}] * 6000, spans=[{"start_word": 0, "end_word": 1, "category": "P", "status": SECRET},
                                        {"start_word": 0, "end_word": 1, "category": {"x": 1}, "score": 10**400}])
    err = _refused(_write_json(tmp_path / "c.json", d))
    assert err.dropped > 0


# ---------------------------------------------------------------- linear-time parsers


def _best_time(fn, arg, repeat: int = 3) -> float:
    """The fastest of ``repeat`` runs (other load on the machine only ever adds time), GC paused."""
    import gc

    best = float("inf")
    for _ in range(repeat):
        gc.collect()
        gc.disable()
        try:
            t0 = time.perf_counter()
            with contextlib.suppress(ImportFailed):
                fn(arg)
            best = min(best, time.perf_counter() - t0)
        finally:
            gc.enable()
    return best


def _assert_linear(small: float, big: float) -> None:
    """4x the input must take about 4x the time (a quadratic parser takes ~16x); times too short to
    measure a ratio are fine on their own."""
    assert big < 5.0
    assert big < 0.05 or big / max(small, 1e-3) < 10, (small, big)


def _vtt_with_cue(payload: str) -> str:
    return f"WEBVTT\n\n00:00:00.000 --> 00:00:01.000\n{payload}\n"


@pytest.mark.parametrize("unit,size", [
    ("<", 1_000_000),  # a 1 MB cue of '<' without '>': the old tag regex took minutes here
    ("< ", 1_000_000),
    ("a<b ", 250_000),  # words between unclosed tags (words cost more, so a smaller cue)
])
def test_vtt_tag_scan_is_linear(unit, size):
    def parse(n: int):
        return parse_subtitles(_vtt_with_cue(unit * n), "vtt")

    with time_limit(30):
        small = _best_time(parse, size // 4 // len(unit))
        big = _best_time(parse, size // len(unit))
    _assert_linear(small, big)


def _textgrid(tier_name: str, label_text: str) -> str:
    return ('File type = "ooTextFile"\nObject class = "TextGrid"\n\nxmin = 0\nxmax = 1\ntiers? <exists>\n'
            f'size = 1\nitem []:\n    item [1]:\n        class = "IntervalTier"\n        name = "{tier_name}"\n'
            "        xmin = 0\n        xmax = 1\n        intervals: size = 1\n        intervals [1]:\n"
            f'            xmin = 0\n            xmax = 1\n            text = "{label_text}"\n')


@pytest.mark.parametrize("make,n", [
    (lambda n: _textgrid("S", "x").rsplit("text =", 1)[0] + 'text = "a' * n, 20_000),  # praatio: quadratic
    (lambda n: _textgrid("a" + " " * n + "x", "x"), 1_000_000),  # and the MFA tier-name regex here
])
def test_textgrid_parse_is_linear(make, n):
    with time_limit(30):
        small = _best_time(parse_textgrid, make(n // 4))
        big = _best_time(parse_textgrid, make(n))
    _assert_linear(small, big)


# ---------------------------------------------------------------- messages never quote the input


@pytest.mark.parametrize("name,content", [
    ("span_int.json", json.dumps(_conv(spans=[{"start_word": SECRET, "end_word": 2, "category": "PERSON"}]))),
    ("turn_int.json", json.dumps(_conv(turns=[{"speaker": "A", "start_word": 0, "end_word": SECRET}]))),
    ("span_score.json", json.dumps(_conv(spans=[{"start_word": 0, "end_word": 1, "category": "P",
                                                 "score": SECRET}]))),
    ("format.json", json.dumps({"format": SECRET, "words": []})),
    ("status.json", json.dumps(_conv(spans=[{"start_word": 0, "end_word": 1, "category": "P",
                                             "status": SECRET}]))),
    ("recordings.ctm", f"{SECRET} A 0.1 0.2 a\nother A 0.3 0.2 b\n"),
    ("negative.ctm", "call A 0.1 -5551234 a\n"),
    ("times.vtt", "WEBVTT\n\n00:00:09.000 --> 00:00:01.000\nhello\n"),
    ("inline.vtt", f"WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n{SECRET} <00:00:09.123>x\n"),
])
def test_messages_never_repeat_values_from_the_file(tmp_path, name, content):
    p = tmp_path / name
    p.write_text(content, encoding="utf-8")
    err = _refused(p, audio_duration=5.0)
    for value in (SECRET, "5551234", "9.123", "9.000"):
        assert value not in str(err)


def test_latin1_byte_is_located_not_quoted(tmp_path):
    p = tmp_path / "l.ctm"
    p.write_bytes("call A 0.1 0.2 Mu\u00f1oz\n".encode("latin-1"))
    assert str(_refused(p).problems[0]) == "byte 17 (line 1): not valid UTF-8; save the file as UTF-8"


def test_control_characters_in_file_names_are_escaped(tmp_path):
    p = tmp_path / "a\x1b[2Jb\n.ctm"
    p.write_text("garbage\n", encoding="utf-8")
    msg = str(_refused(p))
    assert "\x1b" not in msg and "\\x1b[2Jb\\n.ctm" in msg


# ---------------------------------------------------------------- ids are data, not paths


@pytest.mark.parametrize("bad", ["../../x", "/etc/x", "a/b", "a\\b", "..", ".", ".hidden", "a\nb", "a\x00b",
                                 "a\x1bb", "", "x" * 65, "caf\u00e9", "-rf", "a b"])
def test_unsafe_explicit_ids_are_refused(project, wav, bad):
    assert not is_safe_id(bad)
    with pytest.raises(IdError) as ei:
        conversation_id_for(project, wav, bad)
    assert str(ei.value) == ID_RULE
    with pytest.raises(ValueError):  # IdError is a ValueError, as callers expect
        import_recording(project, wav, conversation_id=bad)
    assert project.conversation_ids() == []


def test_ids_from_file_names_are_safe_and_unique(tmp_path, project, wav):
    long_stem = "Call with " + SECRET + " " + "x" * 240
    first = conversation_id_for(project, tmp_path / (long_stem + ".flac"))
    assert is_safe_id(first) and len(first) == 64
    taken = {first.casefold()}
    second = unique_id(safe_id_from(long_stem), lambda c: c.casefold() in taken)
    assert is_safe_id(second) and second != first and len(second) <= 64
    for stem in ("../../etc/passwd", "..", ".bashrc", "\x00\n", "日本語", "-x"):
        cid = safe_id_from(stem)
        assert is_safe_id(cid), (stem, cid)
    assert safe_id_from("call_en_1000") == "call_en_1000"


def test_ids_differing_in_case_count_as_taken(project, wav):
    import_recording(project, wav, conversation_id="Call1")
    with pytest.raises(IdError, match="already exists"):
        conversation_id_for(project, wav, "call1")
    assert conversation_id_for(project, wav.with_name("CALL1.wav")) == "CALL1_2"


@pytest.mark.parametrize("bad", ["../../x", "/abs/x", "a\nb", ".."])
def test_ids_in_conversation_json_are_checked(tmp_path, bad):
    err = _refused(_write_json(tmp_path / "c.json", _conv(id=bad)))
    assert "'id' is not a valid conversation id" in str(err) and bad not in str(err)


# ---------------------------------------------------------------- audio


def _corrupt_middle_flac(path: Path, seconds: float = 20.0) -> Path:
    rng = np.random.default_rng(3)
    rate = 16000
    t = np.arange(int(seconds * rate)) / rate
    x = 0.3 * np.sin(2 * np.pi * 440 * t) + 0.02 * rng.standard_normal(len(t))
    sf.write(str(path), x.astype("float32"), rate)
    data = bytearray(path.read_bytes())
    mid = len(data) // 2
    data[mid : mid + 64] = bytes(rng.integers(0, 256, 64, dtype=np.uint8))
    path.write_bytes(bytes(data))
    return path


def test_flac_damaged_in_the_middle_is_refused_at_import(tmp_path, project):
    flac = _corrupt_middle_flac(tmp_path / "damaged.flac")
    with pytest.raises(ImportFailed) as ei:
        probe_audio(flac)
    msg = str(ei.value)
    assert "damaged at about" in msg and "re-export" in msg
    seconds = float(msg.split("damaged at about ")[1].split(" s")[0])
    assert 5.0 < seconds < 15.0  # the bytes were overwritten half-way through the file
    with pytest.raises(ImportFailed):
        import_recording(project, flac)
    assert project.conversation_ids() == []


def test_probe_hashes_while_decoding(tmp_path, wav):
    import hashlib

    info = probe_audio(wav)
    assert info.sha256 == hashlib.sha256(wav.read_bytes()).hexdigest()
