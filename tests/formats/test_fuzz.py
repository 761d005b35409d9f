"""Fuzzing every importer (issue 15, fail closed).

Seeds are small real files of every format (the sample transcript under ``tests/formats/data/``, a
bundled demo conversation, files written by our own writers, tiny audio files and a real project
file), each with made-up "secret" names planted in words, speakers, tiers, ids and audio tags.
Mutations work on bytes (flips, interesting tokens, cuts, copies) and on structure (JSON values,
lines and fields, XML attributes). Invariant for every case: a valid result or a clean
``ImportFailed`` (``ProjectError`` for project files); done within a time bound; and no message
repeats a planted secret.

Hypothesis drives the mutators through ``st.randoms`` (reproducible: ``derandomize=True``, and a
failing case shrinks); ``benchmarks/fuzz_importers.py`` runs the same generators for 10,000+ cases.
"""

from __future__ import annotations

import contextlib
import json
import math
import re
import shutil
import signal
import tempfile
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import soundfile as sf
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from redactdesk.core.types import Word
from redactdesk.formats import (
    ImportFailed,
    TranscriptImport,
    probe_audio,
    read_transcript,
    write_ctm,
    write_eaf,
    write_srt,
    write_textgrid,
    write_vtt,
)
from redactdesk.formats.limits import MAX_CHANNEL, MAX_SECONDS, MAX_WORD_CHARS

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).parent / "data"
SAMPLE_CONVERSATION = ROOT / "resources" / "samples" / "call_en_1000.json"

# Made-up names planted in the inputs: no message may repeat one (or any 6 characters of one).
MARKERS = ("Zqxwvuts", "Pxjqmvbd", "Wvkzrqlo", "Hjxqzpte", "Qorvzxkw", "Yxqpwvzm")
_LEAK = re.compile("|".join(re.escape(m[i : i + 6]) for m in MARKERS for i in range(len(m) - 5)))

CASE_SECONDS = 5.0  # a case taking longer counts as a hang
EXAMPLES_PER_TARGET = 40  # x 12 targets: 480 cases in CI


# ------------------------------------------------------------------------------------------ seeds


def _marker_words(n: int = 24) -> list[Word]:
    """Words with times, two speakers, markers as every third word and as one speaker's name."""
    plain = ["hello", "my", "name", "is", "and", "card", "number", "four", "one", "thanks", "yes", "bye"]
    words = []
    for i in range(n):
        text = MARKERS[i % len(MARKERS)] if i % 3 == 1 else plain[i % len(plain)]
        speaker = MARKERS[5] if (i // 6) % 2 else "AGENT"
        words.append(Word(text, 0.1 + 0.3 * i, 0.3 + 0.3 * i, 0.9, speaker, None, True))
    return words


def _plant_json(obj: Any) -> Any:
    """Put markers into word texts, speakers and names of a parsed JSON transcript."""
    n = 0
    stack = [obj]
    while stack:
        cur = stack.pop()
        items = cur.items() if isinstance(cur, dict) else enumerate(cur) if isinstance(cur, list) else ()
        for k, v in list(items):
            if isinstance(v, (dict, list)):
                stack.append(v)
            elif isinstance(v, str) and k in ("word", "text", "speaker", "entity", "reason") and n % 2 == 0:
                cur[k] = MARKERS[(n // 2) % len(MARKERS)] if k != "text" or " " not in v else \
                    f"{v} {MARKERS[(n // 2) % len(MARKERS)]}"
            if isinstance(v, str):
                n += 1
    return obj


def _conversation_seed() -> dict:
    d = json.loads(SAMPLE_CONVERSATION.read_text(encoding="utf-8"))
    n = 30
    d["words"] = d["words"][:n]
    d["turns"] = [t for t in d["turns"] if t["end_word"] <= n]
    d["spans"] = [s for s in d["spans"] if s["end_word"] <= n]
    d["meta"] = {"speakers": {"agent": MARKERS[0]}, "note": MARKERS[1]}
    d["id"] = MARKERS[2]
    d.pop("audio", None)
    return _plant_json(d)


@dataclass
class Target:
    """One importer under fuzz: ``name`` the file is written as, and the call that reads it."""

    name: str
    filename: str
    run: Callable[[Path], Any]
    seeds: list[bytes] = field(default_factory=list)
    structure: str = "bytes"  # "json", "lines", "xml", "audio", "sqlite": which structural mutator applies
    clean_errors: tuple[type[BaseException], ...] = (ImportFailed,)


def _open_project(path: Path) -> None:
    from redactdesk.store import Project

    project = Project.open(path)
    project.close()


def build_targets(folder: Path) -> dict[str, Target]:
    """Every importer with its seed files (written under ``folder``)."""
    from redactdesk.store.errors import ProjectError

    folder.mkdir(parents=True, exist_ok=True)
    words = _marker_words()
    wx = _plant_json(json.loads((DATA / "call.whisperx.json").read_text(encoding="utf-8")))
    conv = _conversation_seed()
    words_file = {"words": [w.to_dict() for w in words[:12]]}

    def written(writer, name: str, *args) -> bytes:
        return writer(words, folder / name, *args).read_bytes()

    ctm_named = written(write_ctm, "m.ctm").replace(b"audio ", MARKERS[3].encode() + b" ")  # a marker as file id
    word_segments = [w for seg in wx["segments"] for w in seg.get("words", [])]
    t: dict[str, Target] = {
        "whisperx": Target("whisperx", "t.whisperx.json", read_transcript,
                           [json.dumps(wx).encode(), json.dumps({"word_segments": word_segments}).encode()],
                           "json"),
        "conversation": Target("conversation", "t.json", read_transcript, [json.dumps(conv, indent=1).encode()],
                               "json"),
        "words": Target("words", "w.json", read_transcript, [json.dumps(words_file).encode()], "json"),
        "ctm": Target("ctm", "t.ctm", read_transcript, [written(write_ctm, "s.ctm"), ctm_named], "lines"),
        "textgrid": Target("textgrid", "t.TextGrid", read_transcript,
                           [written(write_textgrid, "s.TextGrid", 8.0)], "lines"),
        "eaf": Target("eaf", "t.eaf", read_transcript, [written(write_eaf, "s.eaf")], "xml"),
        "vtt": Target("vtt", "t.vtt", read_transcript, [written(write_vtt, "s.vtt")], "lines"),
        "srt": Target("srt", "t.srt", read_transcript, [written(write_srt, "s.srt")], "lines"),
    }
    for fmt, subtype in (("wav", "PCM_16"), ("flac", "PCM_16"), ("ogg", "VORBIS")):
        p = folder / f"s.{fmt}"
        tone = (0.2 * np.sin(np.arange(4000) / 8000 * 2 * np.pi * 440)).astype("float32")
        with sf.SoundFile(str(p), "w", 8000, 1, subtype=subtype) as fh:
            fh.title, fh.artist = MARKERS[0], MARKERS[4]
            fh.write(tone)
        t[f"audio_{fmt}"] = Target(f"audio_{fmt}", f"a.{fmt}", probe_audio, [p.read_bytes()], "audio")
    t["project"] = Target("project", "p.rdproj", _open_project, [_project_seed(folder, words)], "sqlite",
                          (ProjectError,))
    return t


def _project_seed(folder: Path, words: list[Word]) -> bytes:
    from redactdesk.pipeline.importing import import_recording
    from redactdesk.store import Project

    audio = folder / "call.wav"
    sf.write(str(audio), np.zeros(8000 * 8, dtype="float32"), 8000)
    ctm = write_ctm(words, folder / "call.ctm")
    path = folder / "seed.rdproj"
    with Project.create(path) as p:
        import_recording(p, audio, ctm, conversation_id=MARKERS[2])
    return path.read_bytes()


# -------------------------------------------------------------------------------------- mutators

_TOKENS = [
    b"-1", b"0", b"1e999", b"-1e999", b"nan", b"NaN", b"Infinity", b"inf", b"9" * 40, b"9" * 5000,
    b"18446744073709551616", b"0x1f", b"1_000", b"\xff", b"\x00", b"\xc3", b"\xef\xbb\xbf", b"\xff\xfe", b"\r",
    b"\t", b" " * 300, b"\n" * 3, b"<", b">", b"<" * 3000, b"</v>", b"<v ", b"<00:00:99.999>", b"-->",
    b"00:00:00.000 --> 99:59:59.999", b'"', b'""', b"<exists>", b"<absent>", b"&amp;", b"&#99999999;", b"&#0;",
    b"]]>", b"<![CDATA[", b"{", b"}", b"[", b"]", b"[" * 3000, b"{}", b"[]", b"null", b"true", b":", b",",
    b"\xe2\x80\xae", b"\xed\xa0\x80", b"A", b"B", b"CH_", b";;", b"item [", b"intervals: size = 999999999",
    b'class = "IntervalTier"', b"size = -3", b'<!DOCTYPE a [<!ENTITY x "xxxxxxxxxxxxxxxxxxxx">]>', b"&x;",
    b"RIFF", b"WAVE", b"data", b"fLaC", b"OggS", b"\x7f\xff\xff\xff", b"\xff\xff\xff\xff",
    *(m.encode() for m in MARKERS),
]

_HOSTILE_VALUES: list[Any] = [
    10**30, -(10**30), 2**63, 2**64, 10**400, -1, 0, 1.5, 1e308, -1e308, math.nan, math.inf, -math.inf,
    True, False, None, "", "x" * 2000, " ", "\x00", "a\nb", "../../x", "/etc/x", {}, [], {"a": MARKERS[0]},
    [MARKERS[1]], [[[[[[[[[[[[1]]]]]]]]]]]], MARKERS[3], "suggested", "accepted", "PERSON", "A",
]
_DEEP = "\x00DEEP\x00"


def _choose(rnd, seq):
    return seq[rnd.randrange(len(seq))]


def _byte_mutation(data: bytes, rnd, lo: int = 0) -> bytes:
    b = bytearray(data)
    n = len(b)
    if n <= lo:
        return bytes(b) + _choose(rnd, _TOKENS)
    op = rnd.randrange(8)
    i = rnd.randrange(lo, n)
    if op == 0:  # flip bits
        for _ in range(rnd.randrange(1, 9)):
            k = rnd.randrange(lo, n)
            b[k] ^= 1 << rnd.randrange(8)
    elif op == 1:  # overwrite bytes with a token
        tok = _choose(rnd, _TOKENS)
        b[i : i + len(tok)] = tok
    elif op == 2:  # insert a token
        b[i:i] = _choose(rnd, _TOKENS)
    elif op == 3:  # delete a range
        del b[i : i + rnd.randrange(1, max(2, min(4096, n // 4)))]
    elif op == 4:  # duplicate a range
        j = min(n, i + rnd.randrange(1, 2048))
        b[j:j] = b[i:j] * rnd.randrange(1, 5)
    elif op == 5:  # truncate
        del b[i:]
    elif op == 6:  # splice a range from elsewhere
        j = rnd.randrange(lo, n)
        k = min(n, j + rnd.randrange(1, 512))
        b[i:i] = data[j:k]
    else:  # a run of one byte value
        val = _choose(rnd, [0, 0xFF, 0x20, 0x0A, 0x22, 0x3C, 0x5B, 0x7B, 0x30, 0x39])
        run = rnd.randrange(1, 3000)
        b[i : i + run] = bytes([val]) * run
    return bytes(b)


def _json_mutation(data: bytes, rnd) -> bytes:
    try:
        obj = json.loads(data)
    except (ValueError, RecursionError):
        return _byte_mutation(data, rnd)
    slots: list[tuple[Any, Any]] = []
    stack = [obj]
    while stack and len(slots) < 5000:
        cur = stack.pop()
        keys = list(cur.keys()) if isinstance(cur, dict) else list(range(len(cur)))
        for k in keys:
            slots.append((cur, k))
            if isinstance(cur[k], (dict, list)):
                stack.append(cur[k])
    if not slots:
        return _byte_mutation(data, rnd)
    for _ in range(rnd.randrange(1, 4)):
        cur, k = _choose(rnd, slots)
        op = rnd.randrange(5)
        try:
            if op <= 1:
                value = _choose(rnd, _HOSTILE_VALUES + [_DEEP])
                cur[k] = value
            elif op == 2:
                del cur[k]
            elif op == 3 and isinstance(cur, dict):
                cur[_choose(rnd, ["channel", "speaker", "start", "end", "id", "entity", "words", "segments",
                                  "spans", "turns", "format", "version", "language", "audio"])] = \
                    _choose(rnd, _HOSTILE_VALUES)
            elif op == 4 and isinstance(cur, list) and cur:
                cur.extend(cur[: rnd.randrange(1, len(cur) + 1)] * rnd.randrange(1, 4))
        except (KeyError, IndexError, TypeError):
            continue
    text = json.dumps(obj, allow_nan=True)
    depth = rnd.choice([65, 200, 5000])
    return text.replace(json.dumps(_DEEP), "[" * depth + "1" + "]" * depth).encode("utf-8")


def _line_mutation(data: bytes, rnd) -> bytes:
    lines = data.split(b"\n")
    if len(lines) < 2:
        return _byte_mutation(data, rnd)
    i = rnd.randrange(len(lines))
    op = rnd.randrange(6)
    if op == 0:
        lines.insert(i, lines[rnd.randrange(len(lines))])
    elif op == 1:
        del lines[i]
    elif op == 2:
        j = rnd.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    elif op == 3 and lines[i].split():
        fields = lines[i].split(b" ")
        k = rnd.randrange(len(fields))
        fields[k] = _choose(rnd, _TOKENS)
        lines[i] = b" ".join(fields)
    elif op == 4:
        lines.insert(i, _choose(rnd, _TOKENS) * rnd.randrange(1, 4))
    else:
        lines[i] = lines[i] * rnd.randrange(2, 50)
    return b"\n".join(lines)


_ATTR = re.compile(rb'="[^"]*"|>[^<]*<')


def _xml_mutation(data: bytes, rnd) -> bytes:
    spots = [m.span() for m in _ATTR.finditer(data)]
    if not spots:
        return _byte_mutation(data, rnd)
    a, b = _choose(rnd, spots)
    tok = _choose(rnd, _TOKENS)
    if rnd.randrange(3):  # keep the XML well-formed most of the time: escape what would break it
        tok = tok.replace(b"&", b"&amp;").replace(b"<", b"&lt;").replace(b'"', b"&quot;")
    return data[: a + 2] + tok + data[b - 1 :]


def _audio_mutation(data: bytes, rnd) -> bytes:
    # mostly past the header, so decoding (not just the header check) meets the damage
    return _byte_mutation(data, rnd, lo=0 if rnd.randrange(4) == 0 else min(len(data) - 1, 64))


def _sqlite_mutation(data: bytes, rnd) -> bytes:
    b = bytearray(data)
    page = 4096
    op = rnd.randrange(4)
    if op == 0:  # the database header
        i = rnd.randrange(16, 100)
        b[i] = rnd.randrange(256)
    elif op == 1:  # a page header
        i = rnd.randrange(max(1, len(b) // page)) * page + rnd.randrange(12)
        if i < len(b):
            b[i] = rnd.randrange(256)
    elif op == 2:  # a text value: a planted marker or a schema statement
        hits = [m.start() for m in re.finditer(rb"Zqxwvuts|Hjxqzpte|CREATE|schema_version|redactdesk", data)]
        if hits:
            i = _choose(rnd, hits)
            b[i : i + 4] = _choose(rnd, [b"\x00\x00\x00\x00", b"9999", b"'\"--", b"ZZZZ"])
    else:
        return _byte_mutation(bytes(b), rnd)
    return bytes(b)


_STRUCTURED = {"json": _json_mutation, "lines": _line_mutation, "xml": _xml_mutation, "audio": _audio_mutation,
               "sqlite": _sqlite_mutation}


def mutate(target: Target, rnd) -> bytes:
    """One fuzz case for ``target``: a seed with 1-4 mutations (structural or byte-level)."""
    data = _choose(rnd, target.seeds)
    for _ in range(rnd.randrange(1, 5)):
        if rnd.randrange(3) and target.structure in _STRUCTURED:
            data = _STRUCTURED[target.structure](data, rnd)
        else:
            data = _byte_mutation(data, rnd)
    return data


# ---------------------------------------------------------------------------------------- running


@dataclass
class Outcome:
    kind: str  # "ok", "refused", "crash", "hang"
    seconds: float
    leak: bool = False
    detail: str = ""


class _Hang(BaseException):
    """Raised by the alarm (a BaseException, so no `except Exception` in the code under test eats it)."""


@contextlib.contextmanager
def _alarm(seconds: float):
    def _raise(signum, frame):
        raise _Hang()

    old = signal.signal(signal.SIGALRM, _raise)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def check_result(result: Any) -> str:
    """Why an accepted import is not valid ('' when it is)."""
    if not isinstance(result, TranscriptImport):
        return ""
    n = len(result.words)
    for i, w in enumerate(result.words):
        if not (isinstance(w.text, str) and w.text.strip() and len(w.text) <= MAX_WORD_CHARS):
            return f"word {i}: bad text"
        if not all(isinstance(t, float | int) and math.isfinite(t) and 0 <= t <= MAX_SECONDS for t in (w.start, w.end)):
            return f"word {i}: bad time"
        if w.start > w.end:
            return f"word {i}: starts after it ends"
        if w.channel is not None and not (type(w.channel) is int and 0 <= w.channel <= MAX_CHANNEL):
            return f"word {i}: bad channel"
        if w.speaker is not None and not isinstance(w.speaker, str):
            return f"word {i}: bad speaker"
    for r in [*result.turns, *result.spans]:
        if not (type(r.start_word) is int and type(r.end_word) is int and 0 <= r.start_word < r.end_word <= n):
            return "bad word range"
    for s in result.spans:
        if not (isinstance(s.entity, str | None) and isinstance(s.category, str) and 0 <= s.score <= 1):
            return "bad span"
    try:
        json.dumps(result.meta, allow_nan=False)
    except (TypeError, ValueError, RecursionError):
        return "meta not storable"
    return ""


def run_case(target: Target, data: bytes, folder: Path, seconds: float = CASE_SECONDS) -> Outcome:
    """Write ``data`` as ``target``'s file in a fresh ``folder`` and import it; classify the outcome."""
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    path = folder / target.filename
    path.write_bytes(data)
    t0 = time.perf_counter()
    try:
        with _alarm(seconds):
            result = target.run(path)
    except _Hang:
        return Outcome("hang", time.perf_counter() - t0, detail="no answer within the time bound")
    except target.clean_errors as exc:
        took = time.perf_counter() - t0
        msg = str(exc)
        leak = _LEAK.search(msg) is not None
        return Outcome("hang" if took > seconds else "refused", took, leak, msg[:300] if leak else "")
    except Exception as exc:  # noqa: BLE001 - a crash is what this looks for
        tb = traceback.format_exception(exc)
        return Outcome("crash", time.perf_counter() - t0, detail=f"{type(exc).__name__}: {''.join(tb[-3:])[-600:]}")
    took = time.perf_counter() - t0
    why = check_result(result)
    if why:
        return Outcome("crash", took, detail=f"invalid result: {why}")
    return Outcome("hang" if took > seconds else "ok", took)


# ------------------------------------------------------------------------------------------ tests


@pytest.fixture(scope="module")
def targets(tmp_path_factory) -> dict[str, Target]:
    return build_targets(tmp_path_factory.mktemp("fuzz_seeds"))


def test_seeds_import_and_hold_markers(targets, tmp_path):
    for t in targets.values():
        for seed in t.seeds:
            out = run_case(t, seed, tmp_path / t.name)
            assert out.kind == "ok", (t.name, out)
            if t.name != "project":
                assert any(m.encode() in seed for m in MARKERS), t.name


def test_mutations_change_the_input(targets):
    import random

    rnd = random.Random(7)
    for t in targets.values():
        changed = sum(mutate(t, rnd) not in t.seeds for _ in range(20))
        assert changed >= 15, t.name


@pytest.mark.parametrize("name", ["whisperx", "conversation", "words", "ctm", "textgrid", "eaf", "vtt", "srt",
                                  "audio_wav", "audio_flac", "audio_ogg", "project"])
@settings(max_examples=EXAMPLES_PER_TARGET, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                 HealthCheck.data_too_large])
@given(rnd=st.randoms(use_true_random=False))
def test_fuzzed_input_fails_closed(targets, name, rnd):
    target = targets[name]
    data = mutate(target, rnd)
    with tempfile.TemporaryDirectory(prefix="fuzz-") as d:
        out = run_case(target, data, Path(d) / "case")
    assert out.kind in ("ok", "refused"), f"{name}: {out.kind} after {out.seconds:.2f} s: {out.detail}"
    assert not out.leak, f"{name}: message repeats a planted value: {out.detail}"
