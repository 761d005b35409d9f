"""Write a masked copy of an audio file: streamed in blocks, same format, sample-exact, atomic."""

from __future__ import annotations

import math
import os
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import soundfile as sf

from redactdesk.audio.engine import (
    DEFAULT_FADE,
    AudioSource,
    apply_block,
    frame_ranges,
    to_float,
    to_int,
    touches,
)
from redactdesk.audio.errors import MaskCancelled, MaskError
from redactdesk.audio.ranges import MaskRange
from redactdesk.audio.registry import get_masker
from redactdesk.core.progress import CancelFn, FractionFn, check_cancel, part
from redactdesk.formats.files import atomic_path

BLOCK_FRAMES = 1 << 16
PREPARE_SHARE = 0.5  # share of the progress bar for prepare() when a masker says ``slow_prepare``


@dataclass
class MaskReport:
    """What one call of :func:`mask_file` did. Holds no transcript text and no audio."""

    source: str
    output: str | None
    method: str
    sample_rate: int = 0
    channels: int = 0
    frames: int = 0
    format: str = ""
    subtype: str = ""
    ranges: list[MaskRange] = field(default_factory=list)
    details: list[dict[str, Any]] = field(default_factory=list)
    seconds: float = 0.0
    conversation_id: str | None = None
    skipped: str | None = None  # why no file was written (e.g. the conversation has no audio)

    @property
    def duration(self) -> float:
        return self.frames / self.sample_rate if self.sample_rate else 0.0

    @property
    def masked_seconds(self) -> float:
        return float(sum(r.duration for r in self.ranges))

    @property
    def realtime(self) -> float:
        """Seconds of audio processed per second of wall time."""
        return self.duration / self.seconds if self.seconds > 0 else float("inf")

    def to_dict(self) -> dict[str, Any]:
        return {
            "conversation_id": self.conversation_id, "source": self.source, "output": self.output,
            "method": self.method, "sample_rate": self.sample_rate, "channels": self.channels,
            "frames": self.frames, "format": self.format, "subtype": self.subtype,
            "ranges": [r.to_dict() for r in self.ranges], "details": self.details,
            "masked_seconds": round(self.masked_seconds, 3), "seconds": round(self.seconds, 3),
            "skipped": self.skipped,
        }


def _check_paths(src: Path, dst: Path) -> None:
    if not src.is_file():
        raise MaskError(f"no such audio file: {src}")
    if dst.exists() and dst.resolve() == src.resolve():
        raise MaskError(f"refusing to overwrite the original recording {src.name}; choose another output path")
    if dst.exists() and dst.is_dir():
        raise MaskError(f"output {dst} is a folder; give a file name")
    if not dst.parent.is_dir():
        raise MaskError(f"output folder {dst.parent} does not exist")


def prepare_masker(source: AudioSource, ranges: Sequence[MaskRange], method: str, params: Mapping[str, Any] | None,
                   fade: float, progress: FractionFn | None = None, cancel: CancelFn | None = None,
                   only: tuple[float, float] | None = None) -> tuple[Any, list[Any], dict[int, Any], int]:
    """Masker, frame ranges, states by range index and fade frames for ``source``.

    ``only`` (start, end seconds) keeps just the ranges touching that window, so a preview prepares
    (and, for distortion, listens to) only what it plays; range indices stay those of the whole file.
    """
    masker = get_masker(method)
    ok, why = masker.available()
    if not ok:
        raise MaskError(f"masking method {method!r} is not available here: {why}")
    p = masker.validate(params)
    if not 0.0 <= fade <= 0.1:
        raise MaskError(f"fade must be between 0 and 0.1 seconds, got {fade}")
    fade_frames = int(round(fade * source.rate))
    franges = frame_ranges(ranges, source.rate, source.frames, source.channels)
    if only is not None:
        a, b = int(only[0] * source.rate), int(math.ceil(only[1] * source.rate))
        franges = [r for r in franges if touches(r, a, b, fade_frames)]
    states = masker.prepare(source, franges, {**p, "_fade_frames": fade_frames, "_progress": progress,
                                               "_cancel": cancel})
    if len(states) != len(franges):
        raise MaskError(f"masker {method!r} prepared {len(states)} states for {len(franges)} ranges")
    return masker, franges, {r.index: st for r, st in zip(franges, states, strict=True)}, fade_frames


def mask_file(
    in_path: str | os.PathLike[str],
    out_path: str | os.PathLike[str],
    ranges: Sequence[MaskRange],
    method: str = "silence",
    params: Mapping[str, Any] | None = None,
    progress: FractionFn | None = None,
    cancel: CancelFn | None = None,
    *,
    fade: float = DEFAULT_FADE,
    blocksize: int = BLOCK_FRAMES,
) -> MaskReport:
    """Write ``in_path`` with ``ranges`` masked by ``method`` to ``out_path`` and report what was done.

    The output keeps the sample rate, channels, format and subtype (bit depth) and has exactly the
    same number of frames; samples outside the ranges and their ``fade`` are bit-identical. Memory
    stays flat (``blocksize`` frames at a time). The file appears atomically (temporary file, then
    rename); on error or cancel nothing is left behind. ``progress`` gets fractions 0..1.
    """
    t0 = time.perf_counter()
    src, dst = Path(in_path), Path(out_path)
    _check_paths(src, dst)
    with AudioSource(src) as source:
        heavy = bool(getattr(get_masker(method), "slow_prepare", False))
        prep_progress = part(progress, 0.0, PREPARE_SHARE) if heavy else None
        masker, franges, states, fade_frames = prepare_masker(source, ranges, method, params, fade,
                                                              prep_progress, cancel)
        base = PREPARE_SHARE if heavy else 0.0
        with atomic_path(dst, suffix=dst.suffix or ".tmp") as tmp:
            _stream(src, tmp, source, masker, franges, states, fade_frames, blocksize, progress, cancel, base)
            written = sf.info(str(tmp)).frames
            if written != source.frames:
                raise MaskError(f"masked file came out with {written} frames instead of {source.frames}; "
                                "nothing was written")
        describe = getattr(masker, "describe", None)
        details = []
        for r in franges:
            d = {"start": round(r.start / source.rate, 4), "end": round(r.end / source.rate, 4),
                 "channels": list(r.channels), "span_ids": list(r.source.span_ids), "category": r.source.category}
            if describe is not None:
                d.update(describe(states[r.index]))
            details.append(d)
        return MaskReport(
            source=str(src), output=str(dst), method=method, sample_rate=source.rate,
            channels=source.channels, frames=source.frames, format=source.format, subtype=source.subtype,
            ranges=[r.source for r in franges], details=details, seconds=time.perf_counter() - t0,
        )


def _stream(src: Path, tmp: Path, source: AudioSource, masker: Any, franges: list[Any], states: dict[int, Any],
            fade: int, blocksize: int, progress: FractionFn | None, cancel: CancelFn | None, base: float) -> None:
    """Copy ``src`` to ``tmp`` block by block, masking the blocks that touch a range."""
    done = 0
    pending = list(franges)
    try:
        with sf.SoundFile(str(src)) as fin, sf.SoundFile(
            str(tmp), "w", samplerate=source.rate, channels=source.channels, format=source.format,
            subtype=source.subtype, endian=fin.endian,
        ) as fout:
            while done < source.frames:
                check_cancel(cancel, MaskCancelled)
                block = fin.read(min(blocksize, source.frames - done), dtype=source.dtype, always_2d=True)
                if len(block) == 0:
                    raise MaskError(f"{src.name} ended early: {done} of {source.frames} frames could be read")
                end = done + len(block)
                while pending and pending[0].end + fade <= done:
                    pending.pop(0)
                hits = []
                for r in pending:  # sorted by start
                    if r.start - fade >= end:
                        break
                    if touches(r, done, end, fade):
                        hits.append(r)
                if hits:
                    x = to_float(block)
                    apply_block(x, done, hits, masker, states, source.rate, fade)
                    block = to_int(x, source.bits) if source.kind == "int" else x
                fout.write(block)
                done = end
                if progress is not None:
                    progress(base + (1.0 - base) * done / source.frames)
    except (sf.LibsndfileError, RuntimeError, OSError) as exc:
        raise MaskError(f"cannot write masked audio for {src.name}: {exc}") from exc

