"""Errors raised by importers: every problem found, each with where it is.

Messages name the place (line, segment/word, tier/interval) and what is wrong with it — field
names, types and limits — and never repeat a value from the file (words, names, numbers, raw
fields), which may hold personal data. File names are shown with control characters escaped.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from redactdesk.formats.limits import MAX_PROBLEMS_KEPT, MAX_PROBLEMS_SHOWN


@dataclass(frozen=True)
class ImportProblem:
    """One problem in an imported file. ``where`` is human-numbered (1-based), e.g. "line 12"."""

    where: str
    message: str

    def __str__(self) -> str:
        return f"{self.where}: {self.message}" if self.where else self.message


class Problems(list):
    """A list of ImportProblem that keeps the first ``MAX_PROBLEMS_KEPT`` and counts the rest in
    ``dropped`` (a hostile file with millions of bad lines must not take gigabytes of messages)."""

    def __init__(self, items: Iterable[ImportProblem] = ()) -> None:
        super().__init__()
        self.dropped = 0
        self.extend(items)

    def append(self, item: ImportProblem) -> None:
        if len(self) < MAX_PROBLEMS_KEPT:
            super().append(item)
        else:
            self.dropped += 1

    def extend(self, items: Iterable[ImportProblem]) -> None:
        for item in items:
            self.append(item)
        self.dropped += getattr(items, "dropped", 0)


def printable(name: object) -> str:
    """``name`` as text safe to print on one terminal line: control and other non-printable
    characters (newlines, escape sequences, NUL, bidi overrides) become ``\\xNN``-style escapes."""
    s = str(name)
    if s.isprintable():
        return s
    return "".join(c if c.isprintable() else ascii(c)[1:-1] for c in s)


class ImportFailed(Exception):
    """A file could not be imported; ``problems`` lists everything wrong with it, not just the first.

    Problems are kept in file order (by the numbers in their place). The message shows the first
    ``MAX_PROBLEMS_SHOWN`` and counts the rest.
    """

    def __init__(self, path: str | Path | None, problems: Iterable[ImportProblem]):
        self.path = None if path is None else Path(path)
        self.dropped = getattr(problems, "dropped", 0)  # problems past MAX_PROBLEMS_KEPT, counted only
        self.problems = sorted(problems, key=_place_key)
        super().__init__(self._message())

    def _message(self) -> str:
        name = printable(self.path) if self.path is not None else "input"
        n = len(self.problems) + self.dropped
        head = f"cannot import {name}: {n} problem{'s' if n != 1 else ''}"
        lines = [head, *(str(p) for p in self.problems[:MAX_PROBLEMS_SHOWN])]
        if n > MAX_PROBLEMS_SHOWN:
            lines.append(f"... and {n - MAX_PROBLEMS_SHOWN} more")
        return "\n  ".join(lines)

    def __str__(self) -> str:
        return self._message()


_NUMBER = re.compile(r"\d{1,18}")


def _place_key(p: ImportProblem) -> tuple[int, ...]:
    """Sort key: unnumbered places ("file", "header") first, then by the numbers in ``where``."""
    return tuple(int(n) for n in _NUMBER.findall(p.where)[:3])


def fail(path: str | Path | None, where: str, message: str) -> ImportFailed:
    """An ImportFailed holding a single problem (for use with ``raise``)."""
    return ImportFailed(path, [ImportProblem(where, message)])
