"""Errors raised by importers: every problem found, each with where it is.

Messages name the place (line, segment/word, tier/interval) and what is wrong with it; they never
repeat the transcript's words, which may hold personal data.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class ImportProblem:
    """One problem in an imported file. ``where`` is human-numbered (1-based), e.g. "line 12"."""

    where: str
    message: str

    def __str__(self) -> str:
        return f"{self.where}: {self.message}" if self.where else self.message


class ImportFailed(Exception):
    """A file could not be imported; ``problems`` lists everything wrong with it, not just the first.

    Problems are kept in file order (by the numbers in their place).
    """

    def __init__(self, path: str | Path | None, problems: Iterable[ImportProblem]):
        self.path = None if path is None else Path(path)
        self.problems = sorted(problems, key=_place_key)
        super().__init__(self._message())

    def _message(self) -> str:
        name = str(self.path) if self.path is not None else "input"
        n = len(self.problems)
        head = f"cannot import {name}: {n} problem{'s' if n != 1 else ''}"
        return "\n  ".join([head, *(str(p) for p in self.problems)])

    def __str__(self) -> str:
        return self._message()


def _place_key(p: ImportProblem) -> tuple[int, ...]:
    """Sort key: unnumbered places ("file", "header") first, then by the numbers in ``where``."""
    return tuple(int(n) for n in re.findall(r"\d+", p.where)[:3])


def fail(path: str | Path | None, where: str, message: str) -> ImportFailed:
    """An ImportFailed holding a single problem (for use with ``raise``)."""
    return ImportFailed(path, [ImportProblem(where, message)])
