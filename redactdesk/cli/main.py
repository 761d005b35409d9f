"""Entry point of the `redactdesk` command: builds the argument parser from the command modules."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from redactdesk import __version__
from redactdesk.cli import commands_project, commands_stages


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="redactdesk",
        description="Find, review and replace personal data in recorded conversations.",
    )
    parser.add_argument("--version", action="version", version=f"redactdesk {__version__}")
    parser.add_argument("--user", help="name recorded in the audit log (default: your login name)")
    parser.add_argument("--role", choices=["annotator", "linguist", "reviewer"], default=None,
                        help="role recorded in the audit log for this command")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    commands_project.register(sub)
    commands_stages.register(sub)
    return parser


def _user_errors() -> tuple[type[BaseException], ...]:
    """Exception types whose message is meant for the user (printed without a traceback)."""
    from redactdesk.pipeline.progress import Cancelled
    from redactdesk.store.errors import ProjectError

    types: list[type[BaseException]] = [ProjectError, Cancelled, FileNotFoundError, PermissionError]
    for module, name in (("redactdesk.formats.errors", "ImportFailed"), ("redactdesk.asr.base", "AsrError"),
                         ("redactdesk.cli.commands_project", "CliError"), ("redactdesk.audio.errors", "MaskError"),
                         ("redactdesk.detect.errors", "DetectError"), ("redactdesk.learn.errors", "LearnError"),
                         ("redactdesk.substitute.errors", "SubstitutionError"), ("redactdesk.synth.errors", "SynthError"),
                         ("redactdesk.pipeline.export", "ExportError")):
        try:
            mod = __import__(module, fromlist=[name])
            types.append(getattr(mod, name))
        except (ImportError, AttributeError):
            continue
    return tuple(types)


def main(argv: Sequence[str] | None = None) -> int:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["simulate"]:  # its own parser owns every option (argparse REMAINDER drops --flags)
        from redactdesk.learn.simulate import main as simulate_main

        return simulate_main(argv[1:])
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except _user_errors() as exc:
        print(f"redactdesk: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
