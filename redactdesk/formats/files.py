"""Files written whole or not at all, and file digests.

``atomic_path`` is the one way redactdesk replaces a file: the new content goes to a temporary file
in the same folder (mode 0600: it may hold personal data), is flushed to disk, and is renamed over
the target only when the writer finished without error; on any error or cancel the temporary file
is removed and the old file is left as it was. Readers never see half a file.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike[str], *, suffix: str = ".tmp") -> Iterator[Path]:
    """Yield an empty temporary file beside ``path`` for the block to write; on success it replaces ``path``.

    ``suffix`` is the temporary file's ending (writers that pick the format from it need the
    target's). The temporary name is short, so a long target name never makes it too long.
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(prefix=".rd-", suffix=suffix, dir=target.parent)
    os.close(fd)
    tmp = Path(name)
    try:
        yield tmp
        fsync_file(tmp)
        os.replace(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    fsync_dir(target.parent)


def atomic_write_bytes(path: str | os.PathLike[str], data: bytes) -> Path:
    """Replace ``path`` with ``data`` through ``atomic_path``."""
    with atomic_path(path) as tmp:
        tmp.write_bytes(data)
    return Path(path)


def atomic_write_text(path: str | os.PathLike[str], text: str) -> Path:
    """``atomic_write_bytes`` for UTF-8 text, written with the line endings it has."""
    return atomic_write_bytes(path, text.encode("utf-8"))


def fsync_file(path: str | os.PathLike[str]) -> None:
    """Flush one file's content to disk."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def fsync_dir(folder: str | os.PathLike[str]) -> None:
    """Flush a folder's entries (a rename in it) to disk, where the platform can open folders."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        with contextlib.suppress(OSError):
            os.fsync(fd)
    finally:
        os.close(fd)


def sha256_file(path: str | os.PathLike[str]) -> str:
    """Hex SHA-256 of a file, read in blocks (constant memory)."""
    with open(path, "rb") as fh:
        return hashlib.file_digest(fh, "sha256").hexdigest()
