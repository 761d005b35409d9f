"""What a fresh process spends before its first suggestions: importing detection, the first sentence
(every model and list loaded, the identifier catalog built), a second sentence (steady state).

Run: ``.venv/bin/python benchmarks/bench_detect_start.py [--runs 3]``

Every run is a new Python process, as each ``redactdesk detect`` call and each cluster worker is. The
identifier catalog is timed both ways in the same run: read from the bundled table
(``resources/detect/stdnum_formats.json``) and probed as before the table existed (the table switched
off inside that process only). The table prints medians of ``--runs`` processes per row; the
machine's other load moves single runs by a second or more.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

FIRST = "Hi, this is Anna Kowalska, my PESEL is 44051401359 and my card is 4111 1111 1111 1111."
SECOND = "Please call Jorge Ramírez back on +34 612 345 678 about the IBAN ES91 2100 0418 4502 0005 1332."

_CHILD = r"""
import json, sys, time
t0 = time.perf_counter()
sys.path.insert(0, {root!r})
from redactdesk.detect import stdnum_catalog
if {probe!r}:
    stdnum_catalog.bundled_formats = lambda path=None: None  # as before the table: every format probed
from redactdesk.detect.pipeline import detect_texts
t1 = time.perf_counter()
first = detect_texts([{first!r}], "en")[0]
t2 = time.perf_counter()
second = detect_texts([{second!r}], "en")[0]
t3 = time.perf_counter()
print(json.dumps({{"import": t1 - t0, "first": t2 - t1, "second": t3 - t2,
                  "found": sorted({{s["category"] for s in first + second}})}}))
"""


def one_run(probe: bool) -> dict:
    code = _CHILD.format(root=str(ROOT), probe=probe, first=FIRST, second=SECOND)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3, help="fresh processes per row (default 3)")
    args = ap.parse_args(argv)
    rows = {}
    for label, probe in (("bundled format table", False), ("formats probed (before)", True)):
        runs = []
        for _ in range(max(1, args.runs)):
            runs.append(one_run(probe))
        rows[label] = runs
    print("| identifier catalog | import s | first sentence s | second sentence s | import + first s | found |")
    print("|---|---|---|---|---|---|")
    for label, runs in rows.items():
        med = {k: statistics.median(r[k] for r in runs) for k in ("import", "first", "second")}
        found = ", ".join(runs[0]["found"])
        print(f"| {label} | {med['import']:.2f} | {med['first']:.2f} | {med['second']:.2f} | "
              f"{med['import'] + med['first']:.2f} | {found} |")
    same = len({tuple(r["found"]) for runs in rows.values() for r in runs}) == 1
    print(f"\nsame categories found in every process: {'yes' if same else 'NO'}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
