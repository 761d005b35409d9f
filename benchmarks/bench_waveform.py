"""Waveform speed: open a 1-hour 16 kHz recording and draw it; redraw cost while zooming and panning.

Targets: open + first full draw < 1 s; one redraw (pan or zoom step) < 16 ms at every zoom level.
Runs offscreen (QT_QPA_PLATFORM=offscreen is set unless a display is asked for) and prints a table.

    python benchmarks/bench_waveform.py [--minutes 60] [--format wav|flac|both] [--keep DIR]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np  # noqa: E402
import soundfile as sf  # noqa: E402

RATE = 16000


def make_recording(path: Path, minutes: float, seed: int = 1) -> Path:
    """Speech-like audio: voiced bursts of varying loudness with pauses, written in 60 s chunks."""
    rng = np.random.default_rng(seed)
    fmt = "FLAC" if path.suffix == ".flac" else "WAV"
    with sf.SoundFile(str(path), "w", RATE, 1, subtype="PCM_16", format=fmt) as fh:
        for _ in range(int(minutes)):
            n = RATE * 60
            t = np.arange(n) / RATE
            env = np.repeat(rng.uniform(0.0, 1.0, n // 3200) ** 2, 3200)  # 0.2 s syllables
            env[rng.uniform(size=len(env)) < 0.25] = 0.0
            voice = np.sin(2 * np.pi * 140 * t) + 0.5 * np.sin(2 * np.pi * 280 * t)
            fh.write((0.3 * env * voice + rng.normal(0, 0.01, n)).astype(np.float32))
    return path


def paint(widget) -> None:
    """Paint the widget now (synchronously), then let pending updates (overview strip) run."""
    from PySide6.QtWidgets import QApplication

    QApplication.processEvents()
    target = getattr(widget, "viewport", None)
    (target() if callable(target) else widget).repaint()
    QApplication.processEvents()


class Clock:
    """Wall and CPU seconds of a block (the CPU figure is what an idle machine would take)."""

    def __enter__(self):
        self.w0, self.c0 = time.perf_counter(), time.process_time()
        return self

    def __exit__(self, *exc):
        self.wall = time.perf_counter() - self.w0
        self.cpu = time.process_time() - self.c0


def new_view():
    from redactdesk.gui.waveform import WaveformView
    from redactdesk.resources import load_taxonomy

    view = WaveformView(load_taxonomy())
    view.resize(1400, 320)
    view.show()
    paint(view)
    return view


def bench_open(view, path: Path, cache_dir: Path | None) -> tuple[Clock, Clock]:
    """Reading the file into a pyramid, then drawing the whole call in an open waveform view."""
    from redactdesk.gui.audiosource import AudioSource, load_pyramid

    with Clock() as read:
        source = AudioSource.open(path)
        pyramid = load_pyramid(source, cache_dir)
    with Clock() as draw:
        view.set_audio(source, pyramid)
        paint(view.plot)
        paint(view.overview)
    return read, draw


def bench_redraw(view, widths: list[float], steps: int = 30) -> list[tuple]:
    """For each visible width: median and worst ms (wall) and median CPU ms per pan and zoom step."""
    rows = []
    duration = view.duration
    for width in widths:
        start = duration * 0.37
        view.set_range(start, start + width)
        paint(view.plot)
        out = []
        for action in ("pan", "zoom"):
            wall, cpu = [], []
            for i in range(steps):
                with Clock() as c:
                    if action == "pan":
                        view.pan(0.1 if i % 2 == 0 else -0.07)
                    else:
                        view.zoom(0.8 if i % 2 == 0 else 1.25)
                    paint(view.plot)
                wall.append(c.wall * 1000)
                cpu.append(c.cpu * 1000)
            out.append((statistics.median(wall), max(wall), statistics.median(cpu)))
        level = view.pyramid.level_for((width * view.pyramid.rate) / view.pixels())
        kind = f"peaks, level {level}" if level is not None else "raw samples"
        rows.append((width, *out[0], *out[1], kind))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=60)
    parser.add_argument("--format", choices=["wav", "flac", "both"], default="both")
    parser.add_argument("--keep", help="folder to keep the generated recordings in (reused when present)")
    args = parser.parse_args(argv)

    from redactdesk.gui.app import ensure_app

    ensure_app()
    if args.keep:
        folder = Path(args.keep)
        folder.mkdir(parents=True, exist_ok=True)
        return run(args, folder)
    with tempfile.TemporaryDirectory(prefix="rd-bench-") as tmp:  # ~200 MB of audio, removed after
        return run(args, Path(tmp))


def run(args: argparse.Namespace, folder: Path) -> int:
    formats = ["wav", "flac"] if args.format == "both" else [args.format]
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"waveform benchmark: {args.minutes:g} min of {RATE // 1000} kHz mono, "
          f"QT_QPA_PLATFORM={os.environ.get('QT_QPA_PLATFORM')}, view 1400 px, "
          f"{os.cpu_count()} cores, load average {load:.1f}")
    print("wall = elapsed time; cpu = this process's CPU time (what an unloaded machine needs)")
    print()
    print(f"{'file':<5} {'cache':<5} {'read+pyramid':>17} {'draw whole call':>17} {'total':>17}   target < 1 s")
    print(f"{'':<11} {'wall':>8} {'cpu':>8} {'wall':>8} {'cpu':>8} {'wall':>8} {'cpu':>8}")
    view = new_view()
    for fmt in formats:
        path = folder / f"bench_{int(args.minutes)}min.{fmt}"
        if not path.exists():
            t0 = time.perf_counter()
            make_recording(path, args.minutes)
            print(f"  (wrote {path.name}: {path.stat().st_size / 1e6:.0f} MB in {time.perf_counter() - t0:.1f} s)")
        cache = folder / f"cache_{fmt}"
        for f in cache.glob("*.npz"):
            f.unlink()
        for label in ("cold", "warm"):
            view.clear()
            paint(view)
            read, draw = bench_open(view, path, cache)
            wall, cpu = read.wall + draw.wall, read.cpu + draw.cpu
            verdict = "ok" if wall < 1.0 else ("ok on cpu" if cpu < 1.0 else "SLOW")
            print(f"{fmt:<5} {label:<5} {read.wall:>8.3f} {read.cpu:>8.3f} {draw.wall:>8.3f} {draw.cpu:>8.3f} "
                  f"{wall:>8.3f} {cpu:>8.3f}   {verdict}")
    print()
    widths = [args.minutes * 60, 600.0, 60.0, 10.0, 1.0]
    print(f"{'visible':>8} | {'pan ms: median':>14} {'max':>6} {'cpu':>6} | {'zoom ms: median':>15} {'max':>6} "
          f"{'cpu':>6} | drawn from        target < 16 ms")
    for width, pm, px, pc, zm, zx, zc, kind in bench_redraw(view, widths):
        verdict = "ok" if max(pm, zm) < 16.0 else ("ok on cpu" if max(pc, zc) < 16.0 else "SLOW")
        print(f"{width:>7.0f}s | {pm:>14.2f} {px:>6.1f} {pc:>6.2f} | {zm:>15.2f} {zx:>6.1f} {zc:>6.2f} | "
              f"{kind:<17} {verdict}")
    view.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
