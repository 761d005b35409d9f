"""Audio files through soundfile (libsndfile): probe, read, stream, hash.

Supported: WAV, FLAC, OGG (Vorbis/Opus), MP3; 8 kHz telephony to 48 kHz; mono or stereo.
Problems (missing, unsupported, truncated or corrupt files) raise ``ImportFailed``.
"""

from __future__ import annotations

import hashlib
import re
import struct
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np
import soundfile as sf

from redactdesk.formats._textio import open_regular
from redactdesk.formats.errors import ImportFailed, ImportProblem, Problems, fail
from redactdesk.formats.files import sha256_file  # noqa: F401 - re-exported: formats.sha256_file
from redactdesk.formats.limits import MAX_AUDIO_BYTES

SUPPORTED_FORMATS = ("WAV", "WAVEX", "FLAC", "OGG", "MP3")
MIN_RATE = 8000
MAX_RATE = 48000
MAX_CHANNELS = 2
_TAIL_FRAMES = 2048
_BLOCK_FRAMES = 4096  # decoding step: damage is located to within one block (0.26 s at 16 kHz)
_SLACK = {"MP3": 2 * 1152, "OGG": 2048}  # lossy codecs may decode a frame or two fewer than announced


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


class _HashingReader:
    """A read-only file object for libsndfile's virtual I/O over an already-open regular file.

    It hashes the bytes as the decoder reads them (in file order; bytes read out of order are
    hashed by ``finish``), so decoding and hashing take one pass. It never raises: libsndfile
    calls it through cffi callbacks, which would swallow exceptions; an OS error is kept in
    ``error`` and looks like the end of the file to the decoder.
    """

    def __init__(self, fh: BinaryIO, size: int) -> None:
        self._fh = fh
        self.size = size
        self.pos = 0
        self.hashed = 0
        self.error: OSError | None = None
        self._h = hashlib.sha256()

    def seek(self, offset: int, whence: int = 0) -> int:
        base = 0 if whence == 0 else self.pos if whence == 1 else self.size
        self.pos = max(0, base + offset)
        return self.pos

    def tell(self) -> int:
        return self.pos

    def readinto(self, buf: Any) -> int:
        want = max(0, min(len(buf), self.size - self.pos))
        if want == 0 or self.error is not None:
            return 0
        view = memoryview(buf).cast("B")[:want]
        try:
            self._fh.seek(self.pos)
            got = 0
            while got < want:
                n = self._fh.readinto(view[got:])
                if not n:
                    break
                got += n
        except OSError as exc:
            self.error = exc
            return 0
        if self.pos <= self.hashed < self.pos + got:
            self._h.update(view[self.hashed - self.pos : got])
            self.hashed = self.pos + got
        self.pos += got
        return got

    def read(self, n: int = -1) -> bytes:
        buf = bytearray(self.size - self.pos if n is None or n < 0 else n)
        got = self.readinto(buf)
        return bytes(buf[:got])

    def head(self, n: int, at: int = 0) -> bytes:
        """``n`` bytes at offset ``at`` (for header checks; not through the decoder)."""
        keep = self.pos
        self.seek(at)
        data = self.read(n)
        self.pos = keep
        return data

    def finish(self) -> str:
        """Hash whatever the decoder did not read in order, and return the file's hex SHA-256."""
        chunk = bytearray(1 << 20)
        self.pos = self.hashed
        while self.hashed < self.size:
            if not self.readinto(chunk):
                break
        if self.error is not None or self.hashed < self.size:
            raise OSError(self.error.errno if self.error else 0, "the file changed or could not be read")
        return self._h.hexdigest()


def _wav_truncation(r: _HashingReader) -> str | None:
    """For RIFF/RIFX WAV files: a message when the data chunk claims more bytes than the file holds.

    libsndfile quietly shortens such files to the bytes present, so this reads the header itself.
    """
    size = r.size
    head = r.head(12)
    if len(head) < 12 or head[8:12] != b"WAVE" or head[:4] not in (b"RIFF", b"RIFX"):
        return None  # RF64/W64 or not WAV: nothing to check here
    endian = "<" if head[:4] == b"RIFF" else ">"
    block_align = 0
    pos = 12
    for _ in range(10_000):  # chunks; a crafted file cannot make this loop long
        if pos + 8 > size:
            break
        chunk_id, chunk_size = struct.unpack(endian + "4sI", r.head(8, pos))
        body = pos + 8
        if chunk_id == b"fmt " and chunk_size >= 14:
            fmt = r.head(14, body)
            if len(fmt) == 14:
                block_align = struct.unpack(endian + "H", fmt[12:14])[0]
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


def probe_audio(path: str | Path, *, verify: bool = True) -> AudioInfo:
    """Open ``path``, check it is usable audio, and return its facts (including its SHA-256).

    Checks: a regular file (not a folder, FIFO or device) of at most ``MAX_AUDIO_BYTES``; a
    supported format; rate within 8–48 kHz; 1–2 channels; not empty; a WAV header that does not
    promise more data than present; and (``verify``, the default) every frame decodes — the file
    is decoded once, in blocks, with its SHA-256 computed in the same pass, so a file damaged in
    the middle is refused here rather than at masking. ``verify=False`` decodes the last frames only.
    Raises ``ImportFailed`` listing every problem found.
    """
    p = Path(path)
    fh, size = open_regular(p, MAX_AUDIO_BYTES, "audio file")
    with fh:
        if size == 0:
            raise fail(p, "file", "is empty (0 bytes)")
        reader = _HashingReader(fh, size)
        try:
            snd = sf.SoundFile(reader)
        except (sf.LibsndfileError, RuntimeError, TypeError, ValueError) as exc:
            raise fail(p, "header", f"not a readable audio file ({_sf_reason(exc)}); "
                       f"supported: {', '.join(SUPPORTED_FORMATS)}") from None
        with snd:
            info = _facts(snd)
            problems = _header_problems(info)
            if info.format in ("WAV", "WAVEX") and (msg := _wav_truncation(reader)):
                problems.append(ImportProblem("data", msg))
            if info.frames > 0 and not problems:
                problems.extend(_decode_check(snd, info, verify))
        if problems:
            raise ImportFailed(p, problems)
        try:
            digest = reader.finish()
        except OSError:
            raise fail(p, "file", "cannot read: the file changed or could not be read while it was checked") from None
    return AudioInfo(
        path=p,
        sample_rate=info.samplerate,
        channels=info.channels,
        frames=info.frames,
        duration=info.frames / info.samplerate,
        format=info.format,
        subtype=info.subtype,
        sha256=digest,
    )


@dataclass(frozen=True)
class _Facts:
    samplerate: int
    channels: int
    frames: int
    format: str
    subtype: str


def _facts(snd: sf.SoundFile) -> _Facts:
    return _Facts(int(snd.samplerate), int(snd.channels), int(snd.frames), str(snd.format), str(snd.subtype))


def _header_problems(info: _Facts) -> list[ImportProblem]:
    problems = Problems()
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
    return problems


_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")


def _sf_reason(exc: Exception) -> str:
    """libsndfile's reason (a fixed text such as "Format not recognised"), without the file name."""
    msg = str(exc)
    msg = msg.split(": ", 1)[-1] if ": " in msg else msg
    msg = _QUOTED.sub("", msg).strip().rstrip(".")
    return msg[:120] if msg.isprintable() else "unreadable header"


def _decode_check(snd: sf.SoundFile, info: _Facts, verify: bool) -> list[ImportProblem]:
    """Decode every frame (``verify``) or the last ones, and compare with the header's frame count."""
    rate, frames = info.samplerate, info.frames
    slack = _SLACK.get(info.format, 0)
    block = np.empty((_BLOCK_FRAMES, info.channels), dtype="float32")
    got = 0
    try:
        if not verify:
            got = max(0, frames - _TAIL_FRAMES)
            snd.seek(got)
        while True:
            n = len(snd.read(_BLOCK_FRAMES, dtype="float32", always_2d=True, out=block))
            if n == 0:
                break
            got += n
    except (sf.LibsndfileError, RuntimeError, ValueError):
        return [ImportProblem("data", f"the audio is damaged at about {got / rate:.1f} s; re-export it "
                              "from the recording software")]
    if got < frames - slack:
        return [ImportProblem("data", f"the audio is damaged or truncated at about {got / rate:.1f} s "
                              f"(the header promises {frames / rate:.1f} s); re-export it")]
    return []


def _require_regular(p: Path) -> None:
    """ImportFailed unless ``p`` is a regular file (a FIFO or device would block or never end)."""
    fh, _ = open_regular(p, MAX_AUDIO_BYTES, "audio file")
    fh.close()


def _frame(seconds: float | None, rate: int, default: int) -> int:
    return default if seconds is None else max(0, int(round(seconds * rate)))


def read_audio(
    path: str | Path, start: float | None = None, end: float | None = None, always_2d: bool = True
) -> tuple[np.ndarray, int]:
    """Samples from ``start`` to ``end`` seconds (whole file by default) as float32, and the rate.

    With ``always_2d`` the array is ``(frames, channels)``.
    """
    p = Path(path)
    _require_regular(p)
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
    _require_regular(p)
    try:
        yield from sf.blocks(str(p), blocksize=blocksize, overlap=overlap, dtype="float32", always_2d=True)
    except (sf.LibsndfileError, RuntimeError) as exc:
        raise fail(p, "data", f"cannot read audio ({_sf_reason(exc)})") from exc
