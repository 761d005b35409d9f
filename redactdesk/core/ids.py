"""Conversation ids are data, never paths: one rule for what an id may look like.

An id is 1–64 characters from ``A-Z a-z 0-9 . _ -`` and starts with a letter or digit, so it can
never be empty, ``.``/``..``, hidden, absolute, hold a path separator, a newline, a NUL or any
other control character. Import checks explicit ids with ``is_safe_id``, derives ids from file
names with ``safe_id_from``, and export can rely on the same rule before using an id in a file name.
Pure functions only (no I/O).
"""

from __future__ import annotations

import re
from collections.abc import Callable

MAX_ID_LENGTH = 64
ID_RULE = (f"conversation ids may use letters, digits, '.', '_' and '-', up to {MAX_ID_LENGTH} characters, "
           "starting with a letter or digit")

_SAFE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")
_UNSAFE_RUN = re.compile(r"[^A-Za-z0-9_.-]+")
_FALLBACK = "conversation"


class IdError(ValueError):
    """An id breaks the rule (or is taken); the message never repeats the id."""


def is_safe_id(s: object) -> bool:
    """True when ``s`` is a string that follows the id rule (see the module docstring)."""
    return (isinstance(s, str) and 1 <= len(s) <= MAX_ID_LENGTH and s.isascii()
            and _SAFE.fullmatch(s) is not None)


def check_id(s: object) -> str:
    """``s`` when it is a safe id; otherwise ``IdError`` with the rule (never the id)."""
    if not is_safe_id(s):
        raise IdError(ID_RULE)
    return s  # type: ignore[return-value]


def safe_id_from(stem: str, fallback: str = _FALLBACK, max_length: int = MAX_ID_LENGTH) -> str:
    """A safe id made from a file stem: runs of other characters become '_', leading characters that
    are not letters or digits are dropped, and the result is cut to ``max_length`` (64 at most)."""
    max_length = max(1, min(max_length, MAX_ID_LENGTH))
    base = _UNSAFE_RUN.sub("_", stem if isinstance(stem, str) else "")
    base = base.lstrip("_.-")[:max_length]
    if not base:
        base = fallback[:max_length]
    return base if is_safe_id(base) else _FALLBACK[:max_length]


def unique_id(base: str, taken: Callable[[str], bool]) -> str:
    """``base`` (a safe id), or ``base_2``, ``base_3``, ... (cut so the whole stays within 64
    characters) — the first one ``taken`` says is free."""
    check_id(base)
    if not taken(base):
        return base
    n = 2
    while True:
        suffix = f"_{n}"
        cid = base[: MAX_ID_LENGTH - len(suffix)] + suffix
        if not taken(cid):
            return cid
        n += 1
