"""Reading text files with strict encodings, and writing files atomically."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from redactdesk.formats.errors import ImportProblem, fail

_BOMS = ((b"\xef\xbb\xbf", "utf-8-sig"), (b"\xff\xfe", "utf-16"), (b"\xfe\xff", "utf-16"))


def read_bytes(path: str | Path) -> bytes:
    """The file's bytes, or ImportFailed when it is missing or unreadable."""
    p = Path(path)
    if not p.exists():
        raise fail(p, "file", "no such file")
    if p.is_dir():
        raise fail(p, "file", "is a folder, not a file")
    try:
        return p.read_bytes()
    except OSError as exc:
        raise fail(p, "file", f"cannot read: {exc.strerror or exc}") from exc


def decode_text(data: bytes, path: str | Path | None = None) -> str:
    """Decode UTF-8 (with or without BOM) or BOM-marked UTF-16; never guess a legacy code page.

    Undecodable bytes give an ImportFailed naming the byte offset and line.
    """
    codec = next((c for bom, c in _BOMS if data.startswith(bom)), "utf-8")
    try:
        return data.decode(codec)
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        bad = data[exc.start : exc.start + 1].hex()
        raise fail(
            path,
            f"byte {exc.start} (line {line})",
            f"not valid {codec.upper().replace('-SIG', '')} (byte 0x{bad}); save the file as UTF-8",
        ) from exc


def read_text(path: str | Path) -> str:
    """The file's text, strictly decoded (see ``decode_text``); line endings normalised to "\\n"."""
    text = decode_text(read_bytes(path), path)
    return text.replace("\r\n", "\n").replace("\r", "\n")


def load_json(path: str | Path) -> Any:
    """Parse a JSON file; malformed JSON gives an ImportFailed with line and column."""
    text = read_text(path)
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise fail(path, f"line {exc.lineno}, column {exc.colno}", f"malformed JSON: {exc.msg}") from exc


def problem_if_not_dict(obj: Any, where: str) -> ImportProblem | None:
    if isinstance(obj, dict):
        return None
    return ImportProblem(where, f"expected a JSON object, found {type(obj).__name__}")


def atomic_write_bytes(path: str | Path, data: bytes) -> Path:
    """Write ``data`` to a temporary file beside ``path`` then rename it over ``path``.

    Readers never see a half-written file. The file is created with mode 0600 (it may hold
    personal data).
    """
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=p.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, p)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return p


def atomic_write_text(path: str | Path, text: str) -> Path:
    """``atomic_write_bytes`` for UTF-8 text with "\\n" line endings."""
    return atomic_write_bytes(path, text.encode("utf-8"))
