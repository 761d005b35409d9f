"""Speed of the review window's basics: find in transcripts over a big project, playback time-stretch.

Usage: python benchmarks/bench_review_basics.py [--calls 200] [--words 1500]

* find in transcripts (:func:`redactdesk.store.search.find_words`): a throw-away project of
  ``--calls`` conversations of ``--words`` words each (Faker sentences); one search without a kept
  index, building the index the app keeps, then one-word, prefix and three-word queries with it;
  milliseconds (the app searches 250 ms after the last key typed, on the GUI thread, so a query
  with the kept index should stay well under 100 ms);
* time-stretch (:func:`redactdesk.audio.timestretch.stretch`) of 8 s (what the player stretches
  before the sound starts) and 60 s of a bundled call at 0.5x, 0.75x, 1.25x and 1.5x: milliseconds,
  and the real-time factor.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path


def bench_search(calls: int, words: int) -> list[tuple[str, int, float]]:
    from faker import Faker

    from redactdesk.core.types import Conversation, Turn, Word
    from redactdesk.store import Project
    from redactdesk.store.search import TranscriptIndex, find_words

    fake = Faker("en_US")
    Faker.seed(7)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        with Project.create(Path(tmp) / "big.rdproj", actor="bench") as project:
            for c in range(calls):
                tokens: list[str] = []
                while len(tokens) < words:
                    tokens += fake.sentence(nb_words=12).rstrip(".").split()
                ws = [Word(t, i * 0.4, i * 0.4 + 0.3, speaker="agent" if (i // 40) % 2 else "customer")
                      for i, t in enumerate(tokens[:words])]
                turns = [Turn(ws[a].speaker, a, min(a + 40, words)) for a in range(0, words, 40)]
                project.add_conversation(Conversation(id=f"call_{c:04d}", words=ws, turns=turns, language="en"))
            t0 = time.perf_counter()
            find_words(project, "house")  # one search without a kept index: every word is read
            rows.append(("(no index)", 0, (time.perf_counter() - t0) * 1000))
            index = TranscriptIndex()  # what the app keeps: read once, then only changed calls
            t0 = time.perf_counter()
            index.refresh(project.db.conn)
            rows.append(("(build index)", 0, (time.perf_counter() - t0) * 1000))
            for query in ("house", "wor", "the same day", "zyxwvut"):
                t0 = time.perf_counter()
                hits, more = find_words(project, query, index=index)
                rows.append((query, len(hits) if not more else -len(hits), (time.perf_counter() - t0) * 1000))
    return rows


def bench_stretch() -> list[tuple[float, float, float, float]]:
    import soundfile as sf

    from redactdesk.audio.timestretch import stretch
    from redactdesk.resources import samples_dir

    path = sorted(samples_dir().glob("*.flac"))[0]
    audio, rate = sf.read(str(path), dtype="float32", always_2d=True)
    out = []
    for seconds in (8.0, 60.0):
        part = audio[: int(seconds * rate)]
        for speed in (0.5, 0.75, 1.25, 1.5):
            t0 = time.perf_counter()
            stretch(part, rate, speed)
            ms = (time.perf_counter() - t0) * 1000
            out.append((len(part) / rate, speed, ms, ms / 1000 / (len(part) / rate)))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench_review_basics")
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--words", type=int, default=1500)
    args = parser.parse_args(argv)
    print(f"find in transcripts: {args.calls} calls x {args.words} words = {args.calls * args.words} words")
    print(f"{'query':<16}{'hits':>8}{'ms':>10}")
    for query, hits, ms in bench_search(args.calls, args.words):
        shown = f"{-hits}+" if hits < 0 else ("" if query.startswith("(") else str(hits))
        print(f"{query:<16}{shown:>8}{ms:>10.0f}")
    print()
    print("time-stretch (Praat overlap-add, every channel)")
    print(f"{'audio s':>8}{'speed':>7}{'ms':>9}{'RTF':>8}")
    for seconds, speed, ms, rtf in bench_stretch():
        print(f"{seconds:>8.1f}{speed:>7.2f}{ms:>9.0f}{rtf:>8.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
