"""Audio for the views: find the file, read frame ranges, build (or load cached) peak pyramids.

No Qt here, so the expensive part can run in a worker thread and be tested alone. Pyramids are
cached as ``.npz`` files named by the audio's sha256 (or path, size and mtime when no hash is known).
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import soundfile as sf

from redactdesk.gui.peaks import DEFAULT_BASE, PeakPyramid, level0

BLOCK_FRAMES = 1 << 20
INT16_SUBTYPES = {"PCM_16", "PCM_S8", "PCM_U8", "ULAW", "ALAW", "GSM610", "DWVW_12", "DWVW_16"}


class AudioUnavailable(Exception):
    """The conversation's audio cannot be found or read (the message says why)."""


@dataclass
class AudioSource:
    """One readable audio file."""

    path: Path
    rate: int
    channels: int
    frames: int

    @property
    def duration(self) -> float:
        return self.frames / self.rate

    @classmethod
    def open(cls, path: str | Path) -> AudioSource:
        p = Path(path)
        if not p.exists():
            raise AudioUnavailable(f"audio file not found: {p}")
        try:
            info = sf.info(str(p))
        except Exception as exc:
            raise AudioUnavailable(f"cannot read audio {p.name}: {exc}") from exc
        if info.frames <= 0:
            raise AudioUnavailable(f"audio file {p.name} holds no samples")
        return cls(p, int(info.samplerate), int(info.channels), int(info.frames))

    def read(self, start: int, end: int) -> np.ndarray:
        """Frames ``[start, end)`` as float32 (frames, channels)."""
        start = max(0, min(int(start), self.frames))
        end = max(start, min(int(end), self.frames))
        with sf.SoundFile(str(self.path)) as fh:
            if start:
                fh.seek(start)
            return fh.read(end - start, dtype="float32", always_2d=True)

    def read_seconds(self, t0: float, t1: float) -> np.ndarray:
        return self.read(int(round(t0 * self.rate)), int(round(t1 * self.rate)))

    def cache_key(self, sha256: str | None = None) -> str:
        if sha256:
            return sha256
        st = self.path.stat()
        return hashlib.sha256(f"{self.path.resolve()}|{st.st_size}|{st.st_mtime_ns}".encode()).hexdigest()

    def build_pyramid(self, progress: Callable[[float], None] | None = None, workers: int = 2) -> PeakPyramid:
        """Read the whole file once (constant memory) into a peak pyramid.

        16-bit (and narrower) files are read as int16, much cheaper than float conversion; the file
        is cut into ``workers`` parts decoded in parallel threads (libsndfile runs without the GIL),
        which halves the time for compressed formats such as FLAC on two cores.
        """
        with sf.SoundFile(str(self.path)) as fh:
            integer = fh.subtype in INT16_SUBTYPES
        dtype = "int16" if integer else "float32"
        parts = max(1, min(int(workers), self.frames // (BLOCK_FRAMES * 2) or 1))
        step = -(-self.frames // parts)
        step = -(-step // DEFAULT_BASE) * DEFAULT_BASE  # cut on level-0 bin boundaries
        done = [0] * parts
        lock = threading.Lock()

        def part(k: int):
            a, b = k * step, min(self.frames, (k + 1) * step)

            def blocks():
                with sf.SoundFile(str(self.path)) as fh:
                    fh.seek(a)
                    left = b - a
                    while left > 0:
                        block = fh.read(min(BLOCK_FRAMES, left), dtype=dtype, always_2d=True)
                        if not len(block):
                            break
                        left -= len(block)
                        yield block

            def report(frames: int) -> None:
                if progress is not None:
                    with lock:
                        done[k] = frames
                        total = sum(done)
                    progress(total / self.frames)

            return level0(blocks(), DEFAULT_BASE, report)

        if parts == 1:
            results = [part(0)]
        else:
            with ThreadPoolExecutor(max_workers=parts) as pool:
                results = list(pool.map(part, range(parts)))
        mins0 = np.concatenate([r[0] for r in results], axis=1)
        maxs0 = np.concatenate([r[1] for r in results], axis=1)
        frames = sum(r[2] for r in results)
        return PeakPyramid.from_level0(mins0, maxs0, rate=self.rate, frames=frames,
                                       scale=1 / 32768 if integer else 1.0)


def resolve_audio_path(audio_path: str | None, project_path: str | Path | None) -> Path | None:
    """The conversation's audio file: as stored, or relative to the project file's folder."""
    if not audio_path:
        return None
    p = Path(audio_path)
    if p.is_absolute() or project_path is None:
        return p
    candidate = Path(project_path).resolve().parent / p
    return candidate if candidate.exists() else p


def load_pyramid(source: AudioSource, cache_dir: Path | None, sha256: str | None = None,
                 progress: Callable[[float], None] | None = None) -> PeakPyramid:
    """The source's pyramid from the cache, or built (and cached when ``cache_dir`` is given)."""
    cached = cache_dir / f"{source.cache_key(sha256)}.npz" if cache_dir else None
    if cached is not None and cached.exists():
        try:
            pyr = PeakPyramid.load(cached)
            if pyr.frames == source.frames and pyr.rate == source.rate:
                return pyr
        except Exception:  # a damaged cache file is rebuilt
            pass
    pyr = source.build_pyramid(progress)
    if cached is not None:
        try:
            pyr.save(cached)
        except OSError:
            pass  # a read-only cache only costs speed
    return pyr


def default_cache_dir() -> Path:
    import platformdirs

    return Path(platformdirs.user_cache_dir("redactdesk")) / "peaks"
