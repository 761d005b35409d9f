"""Masking benchmark: speed on a long recording, and a per-method table on the demo corpus.

    python benchmarks/bench_mask.py                     # both parts
    python benchmarks/bench_mask.py --skip-table        # speed only (no recogniser)
    python benchmarks/bench_mask.py --skip-speed --methods silence,beep --limit 4

Part 1 masks a synthetic recording (--hours long, 16 kHz mono, one 1-s range every 10 s) with
silence, beep and noise, in FLAC and WAV, and prints times, x real time and peak memory (target:
>= 300x real time on 2 cores, memory flat). Part 2 runs :func:`redactdesk.audio.evaluate.evaluate_methods`
on the demo corpus: items the re-listen check still hears per method (must be 0 for silence, beep and
noise), pitch/energy RMSD against silence's, and time taken (distortion includes its recogniser loop).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import soundfile as sf

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from redactdesk.audio import MaskRange, mask_file  # noqa: E402
from redactdesk.audio.evaluate import METHODS, evaluate_methods, format_table, load_corpus  # noqa: E402


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def long_recording(path: Path, seconds: int, fmt: str, rate: int = 16000) -> None:
    rng = np.random.default_rng(0)
    t = np.arange(rate * 10) / rate
    buzz = (0.2 * np.sin(2 * np.pi * 140 * t) * (0.5 + 0.5 * np.sin(2 * np.pi * 3 * t) ** 2))
    with sf.SoundFile(str(path), "w", rate, 1, "PCM_16", format=fmt) as fh:
        for _ in range(seconds // 10):
            fh.write((buzz + 0.01 * rng.standard_normal(len(t))).astype(np.float32))


def speed(hours: float, results: dict) -> None:
    seconds = int(hours * 3600)
    ranges = [MaskRange(float(s), float(s) + 1.0, None, (i,), "X") for i, s in enumerate(range(5, seconds - 5, 10))]
    print(f"\n== masking speed: {seconds / 3600:.2f} h, 16 kHz mono 16-bit, {len(ranges)} ranges, "
          f"{os.cpu_count()} cores ==")
    print(f"peak RSS after imports: {peak_mb():.0f} MB (numpy, scipy, soundfile, parselmouth)")
    print(f"{'format':<6} {'method':<8} {'seconds':>8} {'x real time':>12} {'peak RSS MB':>12}")
    with tempfile.TemporaryDirectory(prefix="bench-mask-") as tmp:
        for fmt, suffix in (("FLAC", ".flac"), ("WAV", ".wav")):
            src = Path(tmp) / f"long{suffix}"
            long_recording(src, seconds, fmt)
            for method in ("silence", "beep", "noise"):
                t0 = time.perf_counter()
                report = mask_file(src, Path(tmp) / f"out{suffix}", ranges, method)
                dt = time.perf_counter() - t0
                assert sf.info(str(Path(tmp) / f"out{suffix}")).frames == report.frames
                print(f"{fmt:<6} {method:<8} {dt:8.2f} {seconds / dt:12.0f} {peak_mb():12.0f}")
                results.setdefault("speed", []).append(
                    {"format": fmt, "method": method, "seconds": dt, "realtime": seconds / dt, "peak_mb": peak_mb()})
            src.unlink()


def voice_surrogates():
    try:
        from redactdesk.audio.voice import surrogates_from
        from redactdesk.substitute import substitute_conversation
    except ImportError:
        return None
    return lambda conv: surrogates_from(substitute_conversation(conv, secret="bench-mask").replacements)


def table(corpus: Path, methods: list[str], limit: int | None, results: dict, baseline: bool = True) -> None:
    convs = load_corpus(corpus)[:limit]
    if not convs:
        print(f"\nno conversations with audio in {corpus}; skipping the method table")
        return
    total = sum(c.duration or 0 for c in convs)
    print(f"\n== methods on the demo corpus: {len(convs)} conversations, {total / 60:.1f} min, "
          f"{sum(len(c.spans) for c in convs)} spans ==", flush=True)
    t0 = time.perf_counter()
    rows = evaluate_methods(convs, methods, surrogates=voice_surrogates(), baseline=baseline,
                            log=lambda m: print("  " + m, file=sys.stderr, flush=True))
    print(format_table(rows))
    distort = next((r for r in rows if r.method == "distort" and not r.skipped), None)
    if distort is not None:
        print(f"distortion incl. recogniser loop: {distort.mask_seconds:.1f} s for {distort.audio_seconds:.0f} s "
              f"of audio ({distort.realtime:.1f}x real time, {distort.ranges} ranges)")
    print(f"table took {time.perf_counter() - t0:.0f} s")
    results["table"] = [r.to_dict() for r in rows]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", type=Path, default=ROOT / "resources" / "samples")
    ap.add_argument("--methods", default=",".join(METHODS))
    ap.add_argument("--limit", type=int, default=None, help="first N conversations only")
    ap.add_argument("--hours", type=float, default=2.0)
    ap.add_argument("--skip-speed", action="store_true")
    ap.add_argument("--skip-table", action="store_true")
    ap.add_argument("--no-baseline", action="store_true", help="skip re-listening to the unmasked audio")
    ap.add_argument("--json", type=Path, default=None, help="also write the numbers here")
    args = ap.parse_args()
    results: dict = {}
    if not args.skip_speed:
        speed(args.hours, results)
    if not args.skip_table:
        table(args.corpus, [m for m in args.methods.split(",") if m], args.limit, results, not args.no_baseline)
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
