"""Fuzz every importer with the generators of ``tests/formats/test_fuzz.py``, at scale.

    python benchmarks/fuzz_importers.py [--cases 10000] [--seed 0] [--timeout 5] [--only NAME ...]

Cases are spread evenly over the importers (whisperx, conversation and words JSON, CTM, TextGrid,
EAF, WebVTT, SRT, WAV/FLAC/OGG audio probe, project file open). Case ``i`` uses its own
``random.Random`` seeded from ``--seed`` and ``i``, so any case can be replayed alone. Prints one row
per importer: cases, accepted, refused cleanly, crashes (including invalid results), hangs
(over ``--timeout`` seconds), messages repeating a planted value, and the slowest case. Exits 1
when there is any crash, hang or leak, listing each distinct failure (exception type and place) with
its count and first case (replay one with ``--replay I``).
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "formats"))

import test_fuzz as fz  # noqa: E402  (the generators live with the tests that run them in CI)


def _signature(detail: str) -> str:
    """What tells failures apart: the exception type and the innermost place (not the values)."""
    places = [line.strip() for line in detail.splitlines() if line.strip().startswith("File ")]
    return detail.split(":", 1)[0] + (" @ " + places[-1] if places else "")


def case_rng(seed: int, i: int) -> random.Random:
    return random.Random(seed * 1_000_003 + i)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cases", type=int, default=10_000, help="total cases over all importers (default 10000)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--timeout", type=float, default=fz.CASE_SECONDS, help="seconds a case may take")
    ap.add_argument("--only", nargs="+", metavar="NAME", help="fuzz only these importers")
    ap.add_argument("--replay", type=int, metavar="I", help="run case I alone and print its outcome")
    args = ap.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="fuzz-importers-") as tmp:
        work = Path(tmp)
        targets = fz.build_targets(work / "seeds")
        names = [n for n in targets if not args.only or n in args.only]
        if not names:
            ap.error(f"--only: choose from {', '.join(targets)}")
        if args.replay is not None:
            name = names[args.replay % len(names)]
            data = fz.mutate(targets[name], case_rng(args.seed, args.replay))
            print(name, fz.run_case(targets[name], data, work / "case", args.timeout))
            return 0
        stats: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
        first: dict[tuple[str, str, str], str] = {}
        kinds: dict[tuple[str, str, str], int] = defaultdict(int)
        t0 = time.perf_counter()
        for i in range(args.cases):
            name = names[i % len(names)]
            data = fz.mutate(targets[name], case_rng(args.seed, i))
            out = fz.run_case(targets[name], data, work / "case", args.timeout)
            s = stats[name]
            s["cases"] += 1
            s[out.kind] += 1
            s["leak"] += out.leak
            s["max"] = max(s["max"], out.seconds)
            for bad in ([out.kind] if out.kind in ("crash", "hang") else []) + (["leak"] if out.leak else []):
                kinds[(name, bad, _signature(out.detail))] += 1
                first.setdefault((name, bad, _signature(out.detail)), f"case {i}: {out.detail}")
            if (i + 1) % 1000 == 0:
                print(f"  ... {i + 1} cases, {time.perf_counter() - t0:.0f} s", file=sys.stderr)

    cols = ("cases", "ok", "refused", "crash", "hang", "leak")
    head = f"{'importer':14}" + "".join(f"{c:>9}" for c in
                                        ("cases", "ok", "refused", "crashes", "hangs", "leaks")) + f"{'max s':>9}"
    print(f"fuzz_importers: {args.cases} cases, seed {args.seed}, {time.perf_counter() - t0:.0f} s")
    print(head)
    print("-" * len(head))
    total: dict[str, float] = defaultdict(float)
    for name in names:
        s = stats[name]
        print(f"{name:14}" + "".join(f"{int(s[c]):>9}" for c in cols) + f"{s['max']:>9.3f}")
        for c in cols:
            total[c] += s[c]
        total["max"] = max(total["max"], s["max"])
    print("-" * len(head))
    print(f"{'all':14}" + "".join(f"{int(total[c]):>9}" for c in cols) + f"{total['max']:>9.3f}")
    print("(ok: accepted, a valid result; refused: a clean ImportFailed/ProjectError; leaks: messages "
          "repeating a planted value)")
    for key, detail in sorted(first.items()):
        name, bad, _ = key
        print(f"{bad.upper()} in {name} ({kinds[key]} case(s)), first {detail}")
    return 1 if total["crash"] or total["hang"] or total["leak"] else 0


if __name__ == "__main__":
    sys.exit(main())
