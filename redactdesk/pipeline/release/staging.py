"""The staging folder a release is written into: a hidden sibling of the release, locked while its
export runs, renamed to the release name only when everything is written and flushed. Folders left
by a killed export are removed by the next one."""

from __future__ import annotations

import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

from redactdesk.formats.files import fsync_dir, fsync_file

PARTIAL_MARK = ".partial-"
LOCK_SUFFIX = ".lock"
STALE_UNLOCKED_SECONDS = 120.0  # a partial folder with no lock file (killed before locking) counts as stale after


def make_staging(final: Path) -> Path:
    return Path(tempfile.mkdtemp(prefix=f".{final.name}{PARTIAL_MARK}", dir=final.parent))


def hold_partial(tmp: Path) -> Any:
    """Lock a file beside the staging folder for as long as this export runs (released if it dies)."""
    import fcntl

    fh = open(str(tmp) + LOCK_SUFFIX, "w")  # noqa: SIM115 - held open until the export ends
    fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    return fh


def release_partial(tmp: Path, lock: Any) -> None:
    try:
        lock.close()
    finally:
        Path(str(tmp) + LOCK_SUFFIX).unlink(missing_ok=True)


def remove_stale_partials(folder: Path) -> int:
    """Remove staging folders that an export left when it was killed; returns how many.

    A staging folder belongs to a running export while its lock file is locked; once that process
    is gone the lock is free, so the folder is stale. Folders without a lock file count as stale
    once they are a little old (an export killed between creating the folder and locking it).
    """
    import fcntl

    removed = 0
    for d in folder.glob(f".*{PARTIAL_MARK}*"):
        if not d.is_dir() or d.name.endswith(LOCK_SUFFIX):
            continue
        lock_path = Path(str(d) + LOCK_SUFFIX)
        if lock_path.exists():
            try:
                fh = open(lock_path, "a")  # noqa: SIM115
            except OSError:
                continue
            try:
                fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                fh.close()
                continue  # a running export holds it
            try:
                shutil.rmtree(d, ignore_errors=True)
                lock_path.unlink(missing_ok=True)
            finally:
                fh.close()
            removed += 1
        elif time.time() - d.stat().st_mtime > STALE_UNLOCKED_SECONDS:
            shutil.rmtree(d, ignore_errors=True)
            removed += 1
    return removed


def discard(tmp: Path, settle: float = 3.0) -> None:
    """Remove a failed export's staging folder. A cluster worker may still be finishing a task of that
    export (Dask cannot stop a running task), and a file it is writing keeps its folder from being
    removed; so the removal is retried for up to ``settle`` seconds. (Workers never re-create a
    removed staging folder; what still remains is removed by the next export.)"""
    deadline = time.monotonic() + settle
    while True:
        shutil.rmtree(tmp, ignore_errors=True)
        if not tmp.exists() or time.monotonic() > deadline:
            return
        time.sleep(0.1)


def fsync_tree(root: Path) -> None:
    """Flush every file and folder below ``root`` (and root itself) to disk."""
    dirs = [root]
    for p in sorted(root.rglob("*")):
        if p.is_dir():
            dirs.append(p)
            continue
        fsync_file(p)
    for d in dirs:
        fsync_dir(d)


__all__ = ["discard", "fsync_dir", "fsync_tree", "hold_partial", "make_staging", "release_partial", "remove_stale_partials"]
