"""Small helpers for reading loosely-typed JSON fields while collecting problems.

Every helper checks the type (a bool, dict or list where a number belongs is a problem) and the
range (finite, within the limits of ``formats.limits``); messages name the field, never its value.
"""

from __future__ import annotations

import math
from typing import Any

from redactdesk.formats.errors import ImportProblem
from redactdesk.formats.limits import MAX_CHANNEL, MAX_INDEX, MAX_LABEL_CHARS

MISSING = object()


def seen(problems: list[ImportProblem]) -> int:
    """How many problems were reported so far, including those a capped ``Problems`` list only counted
    (compare before and after reading an item to know whether the item was bad)."""
    return len(problems) + getattr(problems, "dropped", 0)


def type_name(v: Any) -> str:
    """The JSON name of ``v``'s type (for messages: never the value itself)."""
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "a boolean"
    if isinstance(v, (int, float)):
        return "a number"
    if isinstance(v, str):
        return "a string"
    if isinstance(v, list):
        return "a list"
    if isinstance(v, dict):
        return "an object"
    return type(v).__name__


def number(d: dict[str, Any], key: str, where: str, problems: list[ImportProblem],
           required: bool = False) -> float | None:
    """``d[key]`` as a float; None when absent/null (a problem if ``required``) or when not a number.

    NaN passes through as NaN (validation reports it with the word's place); an integer too large
    for a float is a problem.
    """
    v = d.get(key, MISSING)
    if v is MISSING or v is None:
        if required:
            problems.append(ImportProblem(where, f"missing '{key}'"))
        return None
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        problems.append(ImportProblem(where, f"'{key}' is not a number (found {type_name(v)})"))
        return None
    try:
        return float(v)
    except OverflowError:
        problems.append(ImportProblem(where, f"'{key}' is out of range"))
        return None


def integer(d: dict[str, Any], key: str, where: str, problems: list[ImportProblem], *, lo: int = 0,
            hi: int = MAX_INDEX, required: bool = False) -> int | None:
    """``d[key]`` as an int within ``[lo, hi]``; None when absent/null (a problem if ``required``)
    or when it is not a whole number in range (a problem)."""
    v = d.get(key, MISSING)
    if v is MISSING or v is None:
        if required:
            problems.append(ImportProblem(where, f"missing '{key}'"))
        return None
    if isinstance(v, bool) or not isinstance(v, int):
        problems.append(ImportProblem(where, f"'{key}' is not a whole number (found {type_name(v)})"))
        return None
    if not lo <= v <= hi:
        problems.append(ImportProblem(where, f"'{key}' is outside {lo}–{hi}"))
        return None
    return v


def channel(d: dict[str, Any], where: str, problems: list[ImportProblem], key: str = "channel") -> int | None:
    """An optional channel number: a whole number in 0–MAX_CHANNEL, or absent/null."""
    return integer(d, key, where, problems, lo=0, hi=MAX_CHANNEL)


def text(d: dict[str, Any], keys: tuple[str, ...], where: str, problems: list[ImportProblem],
         max_chars: int | None = None) -> str | None:
    """The first of ``keys`` present in ``d`` as a string (stripped); a problem when none is present."""
    for key in keys:
        if key in d:
            v = d[key]
            if not isinstance(v, str):
                problems.append(ImportProblem(where, f"'{key}' is not a string (found {type_name(v)})"))
                return None
            if max_chars is not None and len(v) > max_chars:
                problems.append(ImportProblem(where, f"'{key}' is longer than {max_chars} characters"))
                return None
            return v.strip()
    problems.append(ImportProblem(where, f"missing '{keys[0]}'"))
    return None


def label(d: dict[str, Any], key: str, where: str, problems: list[ImportProblem]) -> str | None:
    """An optional name (speaker, entity, ...): a string, or a whole number (kept as its digits);
    None when absent, null or empty. Anything else, or longer than MAX_LABEL_CHARS, is a problem."""
    v = d.get(key)
    if v is None or v == "":
        return None
    if isinstance(v, int) and not isinstance(v, bool) and abs(v) < 10**18:
        return str(v)
    if not isinstance(v, str):
        problems.append(ImportProblem(where, f"'{key}' is not a string (found {type_name(v)})"))
        return None
    if len(v) > MAX_LABEL_CHARS:
        problems.append(ImportProblem(where, f"'{key}' is longer than {MAX_LABEL_CHARS} characters"))
        return None
    return v


def flag(d: dict[str, Any], key: str, where: str, problems: list[ImportProblem], default: bool) -> bool:
    """An optional true/false field."""
    v = d.get(key, MISSING)
    if v is MISSING or v is None:
        return default
    if not isinstance(v, bool):
        problems.append(ImportProblem(where, f"'{key}' is not true or false (found {type_name(v)})"))
        return default
    return v


def speaker(v: Any) -> str | None:
    """A speaker label from a value already known to be a string, whole number or None."""
    return None if v is None or v == "" else str(v)


def finite(x: float | None) -> bool:
    return x is not None and math.isfinite(x)


_LANG_OK = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")


def language(d: dict[str, Any], where: str, problems: list[ImportProblem]) -> str | None:
    """An optional language code ("en", "es", "pt-BR"): 2–35 ASCII letters, digits, '-' or '_'."""
    v = d.get("language")
    if v is None:
        return None
    if not isinstance(v, str) or not 2 <= len(v) <= 35 or not set(v) <= _LANG_OK or not v[:2].isalpha():
        problems.append(ImportProblem(where, "'language' is not a language code (such as en or es)"))
        return None
    return v
