"""Detection of one long document full of items: does the time grow with the words, or faster?

Run: ``.venv/bin/python benchmarks/bench_detect_long.py``

A transcript of a long meeting, or a hostile file, is one document with thousands of items; the
vote's overlap resolution once compared every pair of a document's candidates (a 30,000-word text
with 6,000 of them took 11.8 s, half of it there). The table prints words per second for the same
sentence repeated 500 to 4,000 times: with no pairwise step left the rate stays about flat. Measured
on this machine (2 cores) before / after the change: 4,000 repeats (76,000 words, 8,000 items) 23.9 s
/ 9.5 s, 3,183 / 8,020 words/s; 500 repeats 7,939 / 9,742 words/s.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from redactdesk.detect.pipeline import detect_texts  # noqa: E402

SENTENCE = "call maria lopez on five five five one two three four about the five u s d refund"


def main() -> None:
    detect_texts([SENTENCE], "en")  # models loaded before the clock
    print("| repeats | words | items found | seconds | words/s |")
    print("|---|---|---|---|---|")
    for repeats in (500, 1000, 2000, 4000):
        text = " . ".join([SENTENCE] * repeats)
        t0 = time.perf_counter()
        (spans,) = detect_texts([text], "en")
        seconds = time.perf_counter() - t0
        words = len(text.split())
        print(f"| {repeats} | {words:,} | {len(spans):,} | {seconds:.1f} | {words / seconds:,.0f} |")


if __name__ == "__main__":
    main()
