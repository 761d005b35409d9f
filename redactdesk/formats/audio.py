"""Audio files through soundfile (libsndfile): probe, read, stream, hash.

Supported: WAV, FLAC, OGG (Vorbis/Opus), MP3; 8 kHz telephony to 48 kHz; mono or stereo.
Problems (missing, unsupported, truncated or corrupt files) raise ``ImportFailed``.
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import soundfile as sf

from redactdesk.formats.errors import ImportFailed, ImportProblem, fail

SUPPORTED_FORMATS = ("WAV", "WAVEX", "FLAC", "OGG", "MP3")
MIN_RATE = 8000
MAX_RATE = 48000
MAX_CHANNELS = 2
_TAIL_FRAMES = 2048


@dataclass(frozen=True)
class AudioInfo:
    """Facts about one audio file. ``format``/``subtype`` are libsndfile names (e.g. "WAV", "PCM_16")."""

    path: Path
    sample_rate: int
    channels: int
    frames: int
    duration: float
    format: str
    subtype: str
    sha256: str


def sha256_file(path: str | Path, chunk_size: int = 1 << 20) -> str:
    """Hex SHA-256 of a file, read in chunks (constant memory)."""
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        while chunk := fh.read(chunk_size):
            h.update(chunk)
    return h.hexdigest()


def _wav_truncation(path: Path) -> str | None:
    """For RIFF/RIFX WAV files: a message when the data chunk claims more bytes than the file holds.

    libsndfile quietly shortens such files to the bytes present, so this reads the header itself.
    """
    size = path.stat().st_size
    with open(path, "rb") as fh:
        head = fh.read(12)
        if len(head) < 12 or head[8:12] != b"WAVE" or head[:4] not in (b"RIFF", b"RIFX"):
            return None  # RF64/W64 or not WAV: nothing to check here
        endian = "<" if head[:4] == b"RIFF" else ">"
        block_align = 0
        pos = 12
        while pos + 8 <= size:
            fh.seek(pos)
            chunk_id, chunk_size = struct.unpack(endian + "4sI", fh.read(8))
            body = pos + 8
            if chunk_id == b"fmt " and chunk_size >= 14:
                block_align = struct.unpack(endian + "H", fh.read(14)[12:14])[0]
            if chunk_id == b"data":
                if chunk_size in (0, 0xFFFFFFFF):
                    return None  # written by a streaming recorder: size unknown, not a truncation
                held = size - body
                if chunk_size > held:
                    if block_align:
                        return (
                            f"truncated: the header promises {chunk_size // block_align} frames "
                            f"but the file holds {held // block_align}"
                        )
                    return f"truncated: the header promises {chunk_size} bytes of audio, the file holds {held}"
                return None
            pos = body + chunk_size + (chunk_size & 1)
    return None


def probe_audio(path: str | Path, *, verify: bool = False) -> AudioInfo:
    """Open ``path``, check it is usable audio, and return its facts (including its SHA-256).

    Checks: the file exists and is a supported format; rate within 8–48 kHz; 1–2 channels; not
    empty; a WAV header that does not promise more data than present; the last frames decode
    (catches most truncated FLAC/MP3). ``verify=True`` decodes the whole file as well.
    Raises ``ImportFailed`` listing every problem found.
    """
    p = Path(path)
    if not p.exists():
        raise fail(p, "file", "no such file")
    if p.is_dir():
        raise fail(p, "file", "is a folder, not an audio file")
    if p.stat().st_size == 0:
        raise fail(p, "file", "is empty (0 bytes)")
    try:
        info = sf.info(str(p))
    except sf.LibsndfileError as exc:
        raise fail(p, "header", f"not a readable audio file ({_sf_reason(exc)}); "
                   f"supported: {', '.join(SUPPORTED_FORMATS)}") from exc
    except (RuntimeError, OSError) as exc:
        raise fail(p, "header", f"not a readable audio file ({exc})") from exc

    problems: list[ImportProblem] = []
    if info.format not in SUPPORTED_FORMATS:
        problems.append(ImportProblem("header", f"format {info.format} is not supported; "
                                      f"use one of {', '.join(SUPPORTED_FORMATS)}"))
    if not MIN_RATE <= info.samplerate <= MAX_RATE:
        problems.append(ImportProblem("header", f"sample rate {info.samplerate} Hz is outside "
                                      f"{MIN_RATE}–{MAX_RATE} Hz"))
    if not 1 <= info.channels <= MAX_CHANNELS:
        problems.append(ImportProblem("header", f"{info.channels} channels; only mono or stereo is supported"))
    if info.frames <= 0:
        problems.append(ImportProblem("data", "holds no audio frames"))
    if info.format in ("WAV", "WAVEX") and (msg := _wav_truncation(p)):
        problems.append(ImportProblem("data", msg))
    if info.frames > 0 and not problems:
        problems.extend(_decode_check(p, info.frames, verify))
    if problems:
        raise ImportFailed(p, problems)
    return AudioInfo(
        path=p,
        sample_rate=int(info.samplerate),
        channels=int(info.channels),
        frames=int(info.frames),
        duration=info.frames / info.samplerate,
        format=info.format,
        subtype=info.subtype,
        sha256=sha256_file(p),
    )


def _sf_reason(exc: Exception) -> str:
    msg = str(exc)
    return msg.split(": ", 1)[-1] if ": " in msg else msg


def _decode_check(p: Path, frames: int, verify: bool) -> list[ImportProblem]:
    """Decode the tail (or everything) and compare with the frame count the header gave."""
    try:
        with sf.SoundFile(str(p)) as fh:
            if verify:
                got = sum(len(b) for b in fh.blocks(blocksize=65536, dtype="float32"))
                want = frames
            else:
                start = max(0, frames - _TAIL_FRAMES)
                fh.seek(start)
                got = len(fh.read(frames - start, dtype="float32"))
                want = frames - start
    except (sf.LibsndfileError, RuntimeError) as exc:
        return [ImportProblem("data", f"corrupt or truncated: decoding failed ({_sf_reason(exc)})")]
    if got < want:
        return [ImportProblem("data", f"truncated or corrupt: {want - got} of the last {want} frames "
                              "cannot be decoded")]
    return []


def _frame(seconds: float | None, rate: int, default: int) -> int:
    return default if seconds is None else max(0, int(round(seconds * rate)))


def read_audio(
    path: str | Path, start: float | None = None, end: float | None = None, always_2d: bool = True
) -> tuple[np.ndarray, int]:
    """Samples from ``start`` to ``end`` seconds (whole file by default) as float32, and the rate.

    With ``always_2d`` the array is ``(frames, channels)``.
    """
    p = Path(path)
    try:
        with sf.SoundFile(str(p)) as fh:
            rate = fh.samplerate
            a = _frame(start, rate, 0)
            b = min(_frame(end, rate, fh.frames), fh.frames)
            if a > 0:
                fh.seek(min(a, fh.frames))
            data = fh.read(max(0, b - a), dtype="float32", always_2d=always_2d)
    except FileNotFoundError as exc:
        raise fail(p, "file", "no such file") from exc
    except (sf.LibsndfileError, RuntimeError) as exc:
        raise fail(p, "data", f"cannot read audio ({_sf_reason(exc)})") from exc
    return data, rate


def iter_blocks(path: str | Path, blocksize: int, overlap: int = 0) -> Iterator[np.ndarray]:
    """Yield the file as float32 ``(frames, channels)`` blocks of ``blocksize`` frames (last may be short)."""
    p = Path(path)
    if not p.exists():
        raise fail(p, "file", "no such file")
    try:
        yield from sf.blocks(str(p), blocksize=blocksize, overlap=overlap, dtype="float32", always_2d=True)
    except (sf.LibsndfileError, RuntimeError) as exc:
        raise fail(p, "data", f"cannot read audio ({_sf_reason(exc)})") from exc
