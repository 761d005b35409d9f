"""Reading input files safely (regular files only, bounded size, strict encodings, bounded JSON
nesting); atomic writing is in ``formats.files``."""

from __future__ import annotations

import errno
import json
import os
import re
import stat
from pathlib import Path
from typing import Any, BinaryIO

from redactdesk.formats.errors import ImportProblem, fail
from redactdesk.formats.limits import MAX_JSON_DEPTH, MAX_TRANSCRIPT_BYTES

_BOMS = ((b"\xef\xbb\xbf", "utf-8-sig"), (b"\xff\xfe", "utf-16"), (b"\xfe\xff", "utf-16"))
_CHUNK = 1 << 20


def _mib(n: int) -> str:
    return f"{n / (1024 * 1024):.0f} MB" if n >= 1024 * 1024 else f"{n} bytes"


def _os_reason(exc: OSError) -> str:
    """A short, value-free reason for an OSError (its strerror, never its file name)."""
    if exc.errno == errno.ENAMETOOLONG:
        return "the file name or path is too long for this system"
    if exc.errno in (errno.EACCES, errno.EPERM):
        return "permission denied"
    if exc.errno == errno.ELOOP:
        return "too many levels of symbolic links"
    return exc.strerror or type(exc).__name__


def open_regular(path: str | Path, limit: int, what: str = "file") -> tuple[BinaryIO, int]:
    """Open ``path`` for reading when it is a regular file of at most ``limit`` bytes.

    Folders, FIFOs, devices and sockets are refused before anything is opened (a FIFO could block
    forever, a device could be endless); the file is opened non-blocking and checked again on the
    open descriptor, so a swap between the two checks is caught. Returns the open binary file and
    its size. Raises ImportFailed.
    """
    p = Path(path)
    try:
        st = os.stat(p)
    except FileNotFoundError:
        raise fail(p, "file", "no such file") from None
    except NotADirectoryError:
        raise fail(p, "file", "no such file (a folder in its path is a file)") from None
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the name
        reason = _os_reason(exc) if isinstance(exc, OSError) else "the file name is not valid"
        raise fail(p, "file", f"cannot read: {reason}") from None
    _check_stat(p, st, limit, what)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
    flags |= getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(p, flags)
    except OSError as exc:
        raise fail(p, "file", f"cannot read: {_os_reason(exc)}") from None
    try:
        st = os.fstat(fd)
        _check_stat(p, st, limit, what)
        fh = os.fdopen(fd, "rb", buffering=0)
    except BaseException:
        os.close(fd)
        raise
    return fh, st.st_size  # type: ignore[return-value]


def _check_stat(p: Path, st: os.stat_result, limit: int, what: str) -> None:
    if stat.S_ISDIR(st.st_mode):
        raise fail(p, "file", f"is a folder, not {what}")
    if not stat.S_ISREG(st.st_mode):
        raise fail(p, "file", f"is not a regular file (a device, pipe or socket); save the {what} to a file first")
    if st.st_size > limit:
        raise fail(p, "file", f"is larger than the {_mib(limit)} limit for one {what}")


def read_bytes(path: str | Path, limit: int = MAX_TRANSCRIPT_BYTES, what: str = "transcript") -> bytes:
    """The file's bytes (a regular file of at most ``limit`` bytes), or ImportFailed.

    The limit is checked before reading and enforced while reading (at most ``limit + 1`` bytes
    are read, so a file that grows meanwhile is refused too).
    """
    p = Path(path)
    fh, _ = open_regular(p, limit, what)
    chunks: list[bytes] = []
    got = 0
    try:
        with fh:
            while got <= limit:
                chunk = fh.read(min(_CHUNK, limit + 1 - got))
                if not chunk:
                    break
                chunks.append(chunk)
                got += len(chunk)
    except OSError as exc:
        raise fail(p, "file", f"cannot read: {_os_reason(exc)}") from None
    if got > limit:
        raise fail(p, "file", f"is larger than the {_mib(limit)} limit for one {what}")
    return b"".join(chunks)


def decode_text(data: bytes, path: str | Path | None = None) -> str:
    """Decode UTF-8 (with or without BOM) or BOM-marked UTF-16; never guess a legacy code page.

    Undecodable bytes give an ImportFailed naming the byte offset and line (never the byte).
    """
    codec = next((c for bom, c in _BOMS if data.startswith(bom)), "utf-8")
    try:
        return data.decode(codec)
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise fail(
            path,
            f"byte {exc.start} (line {line})",
            f"not valid {codec.upper().replace('-SIG', '')}; save the file as UTF-8",
        ) from None


def read_text(path: str | Path) -> str:
    """The file's text, strictly decoded (see ``decode_text``); line endings normalised to "\\n"."""
    text = decode_text(read_bytes(path), path)
    return text.replace("\r\n", "\n").replace("\r", "\n")


# A JSON string (escapes unrolled: linear, no nested quantifiers that could backtrack).
_JSON_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")


def json_depth(text: str) -> int:
    """The deepest nesting of objects/arrays in syntactically valid JSON ``text`` (linear, no recursion)."""
    brackets = _NOT_BRACKET.sub("", _JSON_STRING.sub("", text))
    depth = deepest = 0
    for run in re.finditer(r"[\[{]+|[\]}]+", brackets):
        n = run.end() - run.start()
        if brackets[run.start()] in "[{":
            depth += n
            deepest = max(deepest, depth)
        else:
            depth -= n
    return deepest


def parse_json(text: str, path: str | Path | None = None, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """Parse JSON text; malformed JSON, nesting deeper than ``max_depth`` and numbers too long to
    convert give an ImportFailed (with line and column where known), never a traceback."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        # exc.msg is json's fixed description ("Expecting value", ...); it never holds the document
        raise fail(path, f"line {exc.lineno}, column {exc.colno}", f"malformed JSON: {exc.msg}") from None
    except RecursionError:
        raise fail(path, "file", f"JSON nested deeper than the limit of {max_depth} levels") from None
    except ValueError:  # an integer with more digits than Python converts (sys.int_info.str_digits_check_threshold)
        raise fail(path, "file", "JSON holds a number with too many digits") from None
    if isinstance(data, (dict, list)) and json_depth(text) > max_depth:
        raise fail(path, "file", f"JSON nested deeper than the limit of {max_depth} levels")
    return data


def load_json(path: str | Path) -> Any:
    """Parse a JSON file (see ``parse_json``)."""
    return parse_json(read_text(path), path)


def problem_if_not_dict(obj: Any, where: str) -> ImportProblem | None:
    if isinstance(obj, dict):
        return None
    return ImportProblem(where, f"expected a JSON object, found {type(obj).__name__}")
