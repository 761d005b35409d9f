"""Masking benchmark: speed on a long recording, and a per-method table on the demo corpus.

    python benchmarks/bench_mask.py                     # both parts
    python benchmarks/bench_mask.py --skip-table        # speed only (no recogniser)
    python benchmarks/bench_mask.py --skip-speed --methods silence,beep --limit 4
    python benchmarks/bench_mask.py --skip-speed --skip-table --schemes --limit 3   # re-listen windowing

Part 1 masks a synthetic recording (--hours long, 16 kHz mono, one 1-s range every 10 s) with
silence, beep and noise, in FLAC and WAV, and prints times, x real time and peak memory (target:
>= 300x real time on 2 cores, memory flat). Part 2 runs :func:`redactdesk.audio.evaluate.evaluate_methods`
on the demo corpus: items the re-listen check still hears per method (must be 0 for silence, beep and
noise), pitch/energy RMSD against silence's, and time taken (distortion includes its recogniser loop).
Part 3 (--schemes) compares the re-listen check's windowing schemes on the demo calls: recogniser
calls (windows), CPU and wall seconds on the beep-masked audio, x real time per CPU second (what one
dedicated core does; on a shared machine the wall figure measures the neighbours), and its
*sensitivity*: the accepted items it recognises in the UNMASKED audio (what a scheme could miss),
and items it still hears in the beep-masked audio (must be 0).
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


SCHEMES = {  # name -> relisten() options
    "per-piece": {"scheme": "per-piece", "batch": 1},
    "per-piece, batch 4": {"scheme": "per-piece", "batch": 4},
    "per-piece, batch 8": {"scheme": "per-piece", "batch": 8},
    "batch 4, no timestamps": {"scheme": "per-piece", "batch": 4, "timestamps": False},
    "batch 8, no timestamps": {"scheme": "per-piece", "batch": 8, "timestamps": False},
    "packed 28 s, gap 1 s": {"scheme": "packed", "pack_seconds": 28.0, "gap": 1.0},
    "packed 28 s, gap 0.5 s": {"scheme": "packed", "pack_seconds": 28.0, "gap": 0.5},
    "packed 15 s, gap 1 s": {"scheme": "packed", "pack_seconds": 15.0, "gap": 1.0},
    "packed 28 s, no gap": {"scheme": "packed", "pack_seconds": 28.0, "gap": 0.0},
    "packed 28 s, gap 2 s": {"scheme": "packed", "pack_seconds": 28.0, "gap": 2.0},
}


def schemes(corpus: Path, limit: int | None, results: dict, model: str = "tiny.en", only: list[str] = ()) -> None:
    from redactdesk.audio.ranges import mask_ranges
    from redactdesk.audio.relisten import relisten
    from redactdesk.pipeline.distributed import cap_model_threads, warm_up

    cap_model_threads(1)  # one thread, as each worker of a cluster has
    convs = [c for c in load_corpus(corpus) if c.language == "en"][:limit]
    total = sum(c.duration or 0 for c in convs)
    warm_up(("relisten", model, "en"))
    print(f"\n== re-listen windowing on {len(convs)} English demo calls, {total:.0f} s of stereo audio, "
          f"{model}, 1 thread ==", flush=True)
    print(f"{'scheme':<24} {'calls':>7} {'CPU s':>6} {'wall s':>6} {'xRT/CPU':>7} {'heard unmasked':>15} "
          f"{'masked leaks':>12}")
    with tempfile.TemporaryDirectory(prefix="bench-relisten-") as tmp:
        masked = {}
        for c in convs:
            masked[c.id] = Path(tmp) / f"{c.id}.flac"
            mask_file(Path(c.audio_path), masked[c.id], mask_ranges(c), "beep")
        for name, options in SCHEMES.items():
            if only and not any(o in name for o in only):
                continue
            windows, heard, items, leaks, cpu, wall = 0, 0, 0, 0, 0.0, 0.0
            for c in convs:
                ranges = mask_ranges(c)
                original = relisten(c.audio_path, c, ranges, model=model, **options)
                heard += len(original.leaks)
                items += original.items_checked
                c0, t0 = time.process_time(), time.perf_counter()
                rep = relisten(masked[c.id], c, ranges, model=model, **options)
                cpu += time.process_time() - c0
                wall += time.perf_counter() - t0
                windows += rep.windows
                leaks += len(rep.leaks)
            print(f"{name:<24} {windows:>7} {cpu:>6.1f} {wall:>6.1f} {total / cpu:>7.1f} {heard:>8}/{items:<6} "
                  f"{leaks:>12}", flush=True)
            results.setdefault("schemes", []).append({"scheme": name, **options, "windows": windows, "cpu": cpu,
                                                      "wall": wall, "heard_unmasked": heard, "items": items,
                                                      "masked_leaks": leaks})
    print("heard unmasked = accepted items recognised (fully or partly) in the original audio: the check's "
          "sensitivity; a scheme that hears fewer would miss leaks.")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", type=Path, default=ROOT / "resources" / "samples")
    ap.add_argument("--methods", default=",".join(METHODS))
    ap.add_argument("--limit", type=int, default=None, help="first N conversations only")
    ap.add_argument("--hours", type=float, default=2.0)
    ap.add_argument("--skip-speed", action="store_true")
    ap.add_argument("--skip-table", action="store_true")
    ap.add_argument("--schemes", nargs="*", default=None, metavar="NAME",
                    help="compare the re-listen windowing schemes (those whose name holds a NAME given; all by default)")
    ap.add_argument("--no-baseline", action="store_true", help="skip re-listening to the unmasked audio")
    ap.add_argument("--json", type=Path, default=None, help="also write the numbers here")
    args = ap.parse_args()
    results: dict = {}
    if not args.skip_speed:
        speed(args.hours, results)
    if not args.skip_table:
        table(args.corpus, [m for m in args.methods.split(",") if m], args.limit, results, not args.no_baseline)
    if args.schemes is not None:
        schemes(args.corpus, args.limit, results, only=args.schemes)
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
