"""``--workers N`` and ``--scheduler ADDRESS`` for the batch stages (transcribe, detect, mask, export).

One helper adds both options to a subcommand with the same help text; :func:`stage_executor` turns
them (or the project's ``executor.*`` settings, or ``REDACTDESK_WORKERS`` / ``REDACTDESK_SCHEDULER``)
into a running executor for the length of the command and shuts it down after, Ctrl+C included.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from redactdesk.cli.commands_project import CliError


def add_executor_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("where the work runs")
    g.add_argument("--workers", metavar="N", default=None,
                   help="worker processes on this machine (default: one per core, or the project's "
                        "executor.workers setting); 1 runs everything in this process")
    g.add_argument("--scheduler", metavar="ADDRESS", default=None,
                   help="use an existing Dask cluster, e.g. tcp://head:8786 (default: the project's "
                        "executor.scheduler setting, else a local cluster); recordings and output folders "
                        "must be at the same paths on its workers")


@contextmanager
def stage_executor(args: argparse.Namespace, project: Any = None) -> Iterator[Any]:
    """The executor the options ask for (a ``CliError`` for a bad value), closed on exit."""
    from redactdesk.pipeline.executor import ExecutorError, open_executor, resolve_config

    try:
        config = resolve_config(getattr(args, "workers", None), getattr(args, "scheduler", None), project)
    except ExecutorError as exc:
        raise CliError(str(exc)) from None

    def announce(line: str) -> None:
        print(line, file=sys.stderr)

    try:
        with open_executor(config, announce=announce) as executor:
            yield executor
    except ExecutorError as exc:
        raise CliError(str(exc)) from None
