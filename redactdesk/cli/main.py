"""Entry point of the `redactdesk` command: builds the argument parser from the command modules.

Fails closed: a user's mistake is one line on stderr and exit 2; anything unexpected is one line
naming the exception type (never its message, which may hold personal data) and exit 3, with the
traceback in a private log file (mode 0600) in the user's log folder; a closed output pipe
(``redactdesk list P | head``) ends quietly with 141, as a command killed by SIGPIPE would.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import logging
import os
import sys
import traceback
from collections.abc import Sequence
from pathlib import Path

from redactdesk import __version__
from redactdesk.cli import (
    commands_interop,
    commands_learn,
    commands_project,
    commands_review,
    commands_stages,
)
from redactdesk.cli.conventions import add_verbosity_options, configure_logging, option_names

_log = logging.getLogger("redactdesk.cli")

EXIT_OK = 0
EXIT_CHECK_FAILED = 1
EXIT_USAGE = 2
EXIT_INTERNAL = 3  # was 70 (EX_SOFTWARE) before issue 21
EXIT_INTERRUPTED = 130
EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE

EPILOG = f"""\
exit codes:
  {EXIT_OK}    done
  {EXIT_CHECK_FAILED}    a check failed or an item was refused (e.g. risk above threshold, invalid
       sign-off, an import refused); the output says which
  {EXIT_USAGE}    usage or user error (bad option, unreadable project or file); the message says
       what to fix
  {EXIT_INTERNAL}    internal error: one line names the exception type; the traceback is written
       to a private log file (mode 0600) whose path is printed
  {EXIT_INTERRUPTED}  interrupted (Ctrl+C)
  {EXIT_BROKEN_PIPE}  the output was closed early (e.g. piped into head); nothing more is printed

Set REDACTDESK_TRACEBACK=1 to let internal errors raise with their traceback instead.
Every run is noted (command, option names, exit code; never values) in redactdesk.log in the
user's log folder. Shell completion: redactdesk completion bash|zsh|tcsh.
"""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="redactdesk",
        description="Find, review and replace personal data in recorded conversations.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"redactdesk {__version__}")
    parser.add_argument("--user", help="name recorded in the audit log (default: your login name)")
    parser.add_argument("--role", choices=["annotator", "linguist", "reviewer"], default=None,
                        help="role recorded in the audit log for this command")
    add_verbosity_options(parser)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    commands_project.register(sub)
    commands_stages.register(sub)
    commands_review.register(sub)
    commands_interop.register(sub)
    commands_learn.register(sub)
    return parser


def _user_errors() -> tuple[type[BaseException], ...]:
    """Exception types whose message is meant for the user (printed without a traceback)."""
    from redactdesk.core.progress import Cancelled
    from redactdesk.store.errors import ProjectError

    types: list[type[BaseException]] = [ProjectError, Cancelled, FileNotFoundError, PermissionError]
    for module, name in (("redactdesk.formats.errors", "ImportFailed"), ("redactdesk.asr.base", "AsrError"),
                         ("redactdesk.cli.commands_project", "CliError"), ("redactdesk.audio.errors", "MaskError"),
                         ("redactdesk.detect.errors", "DetectError"), ("redactdesk.learn.errors", "LearnError"),
                         ("redactdesk.lang.errors", "UnsupportedLanguageError"),
                         ("redactdesk.substitute.errors", "SubstitutionError"), ("redactdesk.synth.errors", "SynthError"),
                         ("redactdesk.pipeline.export", "ExportError"), ("redactdesk.core.ids", "IdError")):
        # only modules already loaded: an exception of a module never imported cannot be in flight
        # (importing them all here put scipy & co. on every error path: seconds per command)
        mod = sys.modules.get(module)
        if mod is not None and isinstance(getattr(mod, name, None), type):
            types.append(getattr(mod, name))
    return tuple(types)


def log_dir() -> Path:
    """Where internal-error tracebacks go: the user's log folder (platformdirs)."""
    from platformdirs import user_log_dir

    return Path(user_log_dir("redactdesk", appauthor=False))


def write_crash_log(exc: BaseException, argv: Sequence[str]) -> Path | None:
    """Write ``exc``'s traceback to a new private file (folder 0700, file 0600); its path, or None.

    The traceback may quote personal data (values in messages and locals are not scrubbed), which
    is why it goes to a file only the user can read and never to the terminal.
    """
    try:
        folder = log_dir()
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        stamp = _dt.datetime.now(_dt.UTC).strftime("%Y%m%dT%H%M%SZ")
        path = folder / f"crash-{stamp}-{os.getpid()}.log"
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
        fd = os.open(path, flags, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8", errors="backslashreplace") as fh:
            fh.write(f"redactdesk {__version__} internal error at {stamp}\n")
            fh.write(f"command: {list(argv)!r}\n\n")
            fh.write("".join(traceback.format_exception(exc)))
        return path
    except Exception:  # noqa: BLE001 - the log is best effort; the one-line message still goes out
        return None


def _internal_error(exc: BaseException, argv: Sequence[str]) -> int:
    path = write_crash_log(exc, argv)
    where = f"details in {path}" if path is not None else "the details could not be saved"
    print(f"redactdesk: internal error ({type(exc).__name__}); {where}", file=sys.stderr)
    return EXIT_INTERNAL


def _silence_stdout() -> None:
    """After a broken pipe: point stdout at /dev/null so the interpreter's final flush stays quiet."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


def _printable_lines(text: str) -> str:
    """``text`` with control characters escaped on every line (a file name could hold an escape
    sequence that rewrites the terminal)."""
    from redactdesk.formats.errors import printable

    return "\n".join(printable(line) for line in text.split("\n"))


def _run(argv: list[str]) -> int:
    if argv[:1] == ["simulate"]:  # its own parser owns every option (argparse REMAINDER drops --flags)
        from redactdesk.learn.simulate import main as simulate_main

        return simulate_main(argv[1:])
    args = build_parser().parse_args(argv)
    configure_logging(args.verbose, args.quiet)
    command = " ".join(x for x in (args.command, getattr(args, "keys_command", None),
                                   getattr(args, "tasks_command", None)) if x)
    _log.info("start %s %s", command, " ".join(option_names(argv)))
    code = EXIT_INTERNAL
    try:
        code = int(args.func(args) or 0)
        return code
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        code = EXIT_INTERRUPTED
        return code
    except _user_errors() as exc:
        print(f"redactdesk: error: {_printable_lines(str(exc))}", file=sys.stderr)
        code = EXIT_USAGE
        return code
    except BaseException as exc:
        _log.info("%s raised %s", command, type(exc).__name__)  # the type only: messages may quote values
        raise
    finally:
        _log.info("end %s exit %d", command, code)


def main(argv: Sequence[str] | None = None) -> int:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        code = _run(argv)
        sys.stdout.flush()  # inside the try: a closed pipe must surface here, not at exit
        return code
    except BrokenPipeError:
        _silence_stdout()
        return EXIT_BROKEN_PIPE
    except SystemExit:  # argparse: --help, --version, usage errors; its output may meet a closed pipe too
        try:
            sys.stdout.flush()
        except BrokenPipeError:
            _silence_stdout()
        raise
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except Exception as exc:
        if os.environ.get("REDACTDESK_TRACEBACK") == "1":
            raise
        return _internal_error(exc, argv)


if __name__ == "__main__":
    sys.exit(main())
