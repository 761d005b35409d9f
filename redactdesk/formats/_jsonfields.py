"""Small helpers for reading loosely-typed JSON fields while collecting problems."""

from __future__ import annotations

import math
from typing import Any

from redactdesk.formats.errors import ImportProblem

MISSING = object()


def number(d: dict[str, Any], key: str, where: str, problems: list[ImportProblem],
           required: bool = False) -> float | None:
    """``d[key]`` as a float; None when absent/null (a problem if ``required``) or when not a number.

    NaN passes through as NaN (validation reports it with the word's place).
    """
    v = d.get(key, MISSING)
    if v is MISSING or v is None:
        if required:
            problems.append(ImportProblem(where, f"missing '{key}'"))
        return None
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        problems.append(ImportProblem(where, f"'{key}' is not a number"))
        return None
    return float(v)


def text(d: dict[str, Any], keys: tuple[str, ...], where: str, problems: list[ImportProblem]) -> str | None:
    """The first of ``keys`` present in ``d`` as a string (stripped); a problem when none is present."""
    for key in keys:
        if key in d:
            v = d[key]
            if not isinstance(v, str):
                problems.append(ImportProblem(where, f"'{key}' is not a string"))
                return None
            return v.strip()
    problems.append(ImportProblem(where, f"missing '{keys[0]}'"))
    return None


def speaker(v: Any) -> str | None:
    return None if v is None or v == "" else str(v)


def finite(x: float | None) -> bool:
    return x is not None and math.isfinite(x)
