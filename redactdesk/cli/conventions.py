"""Conventions every `redactdesk` command shares: one ``--lang`` option (``--language`` kept as a
hidden, deprecated alias), ``--json`` output, ``-`` for stdin/stdout, ``-v``/``-q`` and the
activity log.

The activity log (``redactdesk.log`` in the user's log folder, rotated at 1 MiB, three old files,
mode 0600) records which command ran, the *names* of the options given, how long it took and its
exit code — never an option's value, a file's content or a message from a stage, because any of
these may hold personal data. Crash tracebacks go to their own private files (``cli.main``).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import logging.handlers
import os
import shutil
import sys
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

LOG_NAME = "redactdesk.log"
LOG_BYTES = 1 << 20
LOG_BACKUPS = 3
STDIO = "-"
log = logging.getLogger("redactdesk.cli")


# ---------------------------------------------------------------------------------------------- --lang
class _DeprecatedLanguage(argparse.Action):
    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        print("redactdesk: note: --language is deprecated; use --lang", file=sys.stderr)
        setattr(namespace, self.dest, values)


def add_lang_option(p: argparse.ArgumentParser, choices: Sequence[str], default: str | None, help: str) -> None:
    """``--lang`` (shown) and ``--language`` (hidden alias that says it is deprecated), both to ``args.lang``."""
    p.add_argument("--lang", choices=list(choices), default=default, help=help)
    p.add_argument("--language", dest="lang", choices=list(choices), default=argparse.SUPPRESS,
                   action=_DeprecatedLanguage, help=argparse.SUPPRESS)


# ---------------------------------------------------------------------------------------------- --json
def add_json_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="print one JSON document on stdout instead of text")


def print_json(obj: Any) -> None:
    json.dump(obj, sys.stdout, ensure_ascii=False, indent=1, allow_nan=False, default=str)
    sys.stdout.write("\n")


# ---------------------------------------------------------------------------------------------- stdin/out
@contextlib.contextmanager
def input_path(name: str, suffix: str = "") -> Iterator[Path]:
    """``name`` as a path; ``-`` copies stdin to a private temporary file that is removed afterwards."""
    if name != STDIO:
        yield Path(name)
        return
    fd, tmp = tempfile.mkstemp(prefix="redactdesk-stdin-", suffix=suffix)
    try:
        with os.fdopen(fd, "wb") as fh:
            shutil.copyfileobj(sys.stdin.buffer, fh)
        yield Path(tmp)
    finally:
        Path(tmp).unlink(missing_ok=True)


@contextlib.contextmanager
def output_path(name: str, suffix: str = "") -> Iterator[Path]:
    """``name`` as a path; ``-`` gives a private temporary file whose content goes to stdout at the end."""
    if name != STDIO:
        yield Path(name)
        return
    folder = tempfile.mkdtemp(prefix="redactdesk-stdout-")
    tmp = Path(folder) / f"out{suffix}"
    try:
        yield tmp
        if tmp.exists():
            sys.stdout.flush()
            with tmp.open("rb") as fh:
                shutil.copyfileobj(fh, sys.stdout.buffer)
            sys.stdout.buffer.flush()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def to_stdout(name: str | None) -> bool:
    return name == STDIO


# ---------------------------------------------------------------------------------------------- logging
def add_verbosity_options(parser: argparse.ArgumentParser) -> None:
    g = parser.add_mutually_exclusive_group()
    g.add_argument("-v", "--verbose", action="count", default=0,
                   help="say more on stderr (-vv: debug details); never personal data")
    g.add_argument("-q", "--quiet", action="store_true", help="only errors on stderr (no progress bars)")


def log_dir() -> Path:
    """The user's log folder (platformdirs; XDG_STATE_HOME on Linux)."""
    from platformdirs import user_log_dir

    return Path(user_log_dir("redactdesk", appauthor=False))


def _private_file(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND | getattr(os, "O_NOFOLLOW", 0), 0o600)
    os.close(fd)


class _PrivateRotatingHandler(logging.handlers.RotatingFileHandler):
    """Rotates like its parent; every file it opens is created 0600 first."""

    def _open(self):  # type: ignore[no-untyped-def]
        _private_file(Path(self.baseFilename))
        return super()._open()


def configure_logging(verbosity: int, quiet: bool) -> Path | None:
    """Stderr at WARNING (``-v`` INFO, ``-vv`` DEBUG, ``-q`` ERROR) and the activity log file at INFO.

    Both are attached to the ``redactdesk`` logger only (libraries' loggers may quote text). Returns
    the log file, or None when the log folder cannot be written (the command still runs).
    """
    root = logging.getLogger("redactdesk")
    for h in list(root.handlers):
        if getattr(h, "_redactdesk_cli", False):
            root.removeHandler(h)
            h.close()
    root.setLevel(logging.DEBUG)
    level = logging.ERROR if quiet else (logging.WARNING, logging.INFO, logging.DEBUG)[min(verbosity, 2)]
    err = logging.StreamHandler(sys.stderr)
    err.setLevel(level)
    err.setFormatter(logging.Formatter("redactdesk: %(message)s"))
    err._redactdesk_cli = True  # type: ignore[attr-defined]
    root.addHandler(err)
    if quiet:
        os.environ["REDACTDESK_QUIET"] = "1"  # progress bars (pipeline.progress.tqdm_progress) stay off
    path = log_dir() / LOG_NAME
    try:
        fh = _PrivateRotatingHandler(path, maxBytes=LOG_BYTES, backupCount=LOG_BACKUPS, encoding="utf-8")
    except OSError:
        return None
    fh.setLevel(logging.INFO)
    # only the CLI's own records (command, option names, exit code): a stage's messages may name a
    # file, and a file name may be a person's name
    fh.addFilter(lambda record: record.name == log.name)
    fh.setFormatter(logging.Formatter("%(asctime)s %(process)d %(levelname)s %(message)s"))
    fh._redactdesk_cli = True  # type: ignore[attr-defined]
    root.addHandler(fh)
    return path


def option_names(argv: Sequence[str]) -> list[str]:
    """The option names in ``argv`` (``--out``, ``-k``), without values: what the activity log may hold."""
    out = []
    for a in argv:
        if a.startswith("-") and len(a) > 1 and not a[1:2].isdigit():
            name = a.split("=", 1)[0]
            if name.lstrip("-").replace("-", "").isalnum():
                out.append(name)
    return out
