"""Diarization error of the mono diarizer on the demo calls mixed down to mono.

Usage: python benchmarks/bench_diarize.py [--corpus resources/samples] [--speakers auto|2]
                                           [--asr N] [--model base]

The demo calls are stereo (agent left, customer right; :mod:`redactdesk.synth.stereo`); their sum is
the mono call as a one-track recorder would store it, and the reference says who spoke each word.
Two rows per call:

* **oracle words** — the reference word times with their speakers removed go through
  :func:`redactdesk.asr.diarize.diarize_words`: the error is the diarizer's alone (speaker confusion);
* **ASR** (``--asr N``: the first N calls of each language) — the mono mixdown goes through
  ``transcribe_file(diarize=True)`` as the app does it: missed speech, false alarm and confusion.

DER (diarization error rate) = (missed + false alarm + confused speech) / reference speech, on 10-ms
frames, with the best one-to-one mapping of hypothesis to reference speakers (Hungarian, SciPy); the
``collar`` column leaves out 0.25 s either side of every reference speaker change (the NIST habit).
Reference speech = the frames of the reference speakers' segments (words less than 0.5 s apart joined).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import soundfile as sf
from scipy.optimize import linear_sum_assignment

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from redactdesk.asr.diarize import diarize_words, diarizer_available  # noqa: E402
from redactdesk.core.types import Word  # noqa: E402

FRAME = 0.01
COLLAR = 0.25
BRIDGE = 0.5  # s: a speaker's words closer than this are one segment


def frames(words: Sequence[Word], total: int) -> np.ndarray:
    """Speaker index + 1 per frame (0 = no speech); later words win where two overlap. A speaker's
    words less than :data:`BRIDGE` s apart make one segment (as RTTM turns do): word-level gaps,
    which ASR and reference draw differently, are not counted as missed speech."""
    names: dict[str, int] = {}
    out = np.zeros(total, dtype=int)
    prev: Word | None = None
    for w in words:
        k = names.setdefault(w.speaker or "?", len(names) + 1)
        start = w.start
        if prev is not None and prev.speaker == w.speaker and 0 <= w.start - prev.end < BRIDGE:
            start = prev.end
        out[int(start / FRAME): max(int(start / FRAME) + 1, int(np.ceil(w.end / FRAME)))] = k
        prev = w
    return out


def der(ref: Sequence[Word], hyp: Sequence[Word], duration: float, collar: float = 0.0) -> dict[str, float]:
    """DER and its parts (fractions of reference speech)."""
    total = int(np.ceil(duration / FRAME)) + 1
    r, h = frames(ref, total), frames(hyp, total)
    keep = np.ones(total, dtype=bool)
    if collar:
        change = [i for i in range(1, len(ref)) if ref[i].speaker != ref[i - 1].speaker]
        for i in change:
            t = (ref[i - 1].end + ref[i].start) / 2
            keep[max(0, int((t - collar) / FRAME)): int((t + collar) / FRAME) + 1] = False
    r, h = r[keep], h[keep]
    speech = max(1, int((r > 0).sum()))
    missed = int(((r > 0) & (h == 0)).sum())
    false_alarm = int(((r == 0) & (h > 0)).sum())
    both = (r > 0) & (h > 0)
    overlap = np.zeros((r.max() + 1, h.max() + 1), dtype=int)
    np.add.at(overlap, (r[both], h[both]), 1)
    rows, cols = linear_sum_assignment(-overlap)
    matched = int(overlap[rows, cols].sum())
    confused = int(both.sum()) - matched
    return {"der": (missed + false_alarm + confused) / speech, "missed": missed / speech,
            "fa": false_alarm / speech, "confused": confused / speech}


def load(json_path: Path) -> tuple[dict, list[Word], np.ndarray, int]:
    d = json.loads(json_path.read_text())
    words = [Word(w["text"], w["start"], w["end"], speaker=w.get("speaker")) for w in d["words"]]
    audio, rate = sf.read(str(json_path.with_suffix(".flac")), dtype="float32", always_2d=True)
    return d, words, np.clip(audio.sum(axis=1), -1, 1), rate


def main(argv: list[str] | None = None) -> int:
    root = Path(__file__).resolve().parents[1]
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=root / "resources" / "samples")
    parser.add_argument("--speakers", default="2",
                        help="the number of speakers (default 2, as a project diarizes mono calls), or auto")
    parser.add_argument("--asr", type=int, default=0, metavar="N", help="also the full path on N calls per language")
    parser.add_argument("--model", default="base")
    args = parser.parse_args(argv)
    ok, reason = diarizer_available()
    if not ok:
        print(f"diarizer not installed: {reason}")
        return 0
    num = None if args.speakers == "auto" else int(args.speakers)
    calls = sorted(p for p in args.corpus.glob("call_*.json") if p.with_suffix(".flac").exists())
    if not calls:
        print(f"no demo calls with audio in {args.corpus}")
        return 0
    rows, per_lang = [], {}
    for path in calls:
        d, ref, mono, rate = load(path)
        if rate != 16_000:
            print(f"{path.name}: {rate} Hz, skipped (the demo calls are 16 kHz)", file=sys.stderr)
            continue
        t0 = time.perf_counter()
        hyp, rep = diarize_words(mono, [Word(w.text, w.start, w.end) for w in ref], num_speakers=num)
        seconds = time.perf_counter() - t0
        rows.append((path.stem, d["language"], "oracle words", len({w.speaker for w in ref}), rep.speakers,
                     der(ref, hyp, d["duration"]), der(ref, hyp, d["duration"], COLLAR), seconds / d["duration"]))
        print(f"  {path.stem}: oracle words, {rep.speakers} speakers, {seconds:.1f} s", file=sys.stderr, flush=True)
        per_lang[d["language"]] = per_lang.get(d["language"], 0) + 1
        if args.asr and per_lang[d["language"]] <= args.asr:
            from redactdesk.asr.transcribe import transcribe_file

            with tempfile.TemporaryDirectory() as tmp:
                wav = Path(tmp) / "mono.wav"
                sf.write(str(wav), mono, rate, subtype="PCM_16")
                t0 = time.perf_counter()
                res = transcribe_file(wav, model=args.model, language=d["language"], diarize=True,
                                      num_speakers=num)
                seconds = time.perf_counter() - t0
            found = len({w.speaker for w in res.words})
            rows.append((path.stem, d["language"], f"ASR {args.model}", len({w.speaker for w in ref}), found,
                         der(ref, res.words, d["duration"]), der(ref, res.words, d["duration"], COLLAR),
                         seconds / d["duration"]))
            print(f"  {path.stem}: ASR, {found} speakers, {seconds:.1f} s", file=sys.stderr, flush=True)
    print(f"\nDiarization of {len(calls)} demo calls mixed down to mono (speakers: {args.speakers})\n")
    print("| call         | lang | words        | ref spk | found | DER    | missed | false al. | confused |"
          " DER collar 0.25 | RTF   |")
    print("|--------------|------|--------------|---------|-------|--------|--------|-----------|----------|"
          "-----------------|-------|")
    for name, lang, kind, nref, nhyp, e, c, rtf in rows:
        print(f"| {name:12s} | {lang:4s} | {kind:12s} | {nref:7d} | {nhyp:5d} | {e['der']:6.1%} | {e['missed']:6.1%} |"
              f" {e['fa']:9.1%} | {e['confused']:8.1%} | {c['der']:15.1%} | {rtf:5.3f} |")
    for kind in sorted({r[2] for r in rows}):
        for lang in sorted({r[1] for r in rows}):
            sel = [r for r in rows if r[2] == kind and r[1] == lang]
            if sel:
                print(f"mean {kind:12s} {lang}: DER {np.mean([r[5]['der'] for r in sel]):.1%}, "
                      f"collar 0.25 {np.mean([r[6]['der'] for r in sel]):.1%}, "
                      f"speaker count right in {sum(r[3] == r[4] for r in sel)}/{len(sel)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
