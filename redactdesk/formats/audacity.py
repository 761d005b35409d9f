"""Audacity label tracks: ``<start>\\t<end>\\t<label>`` per line, seconds with six decimals — what
File > Import > Labels reads and File > Export > Export Labels writes. A line starting with ``\\``
after a label is its frequency range (spectral selection) and is skipped.

A release writes one track per recording: the masked ranges, labelled with their category, so a
listener sees in Audacity exactly what was masked.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from redactdesk.formats._textio import read_text
from redactdesk.formats.errors import ImportProblem, Problems
from redactdesk.formats.files import atomic_write_text
from redactdesk.formats.validate import raise_if


@dataclass(frozen=True)
class Label:
    start: float
    end: float
    text: str


def format_labels(labels: Iterable[Label]) -> str:
    return "".join(f"{lb.start:.6f}\t{lb.end:.6f}\t{' '.join(lb.text.split())}\n" for lb in labels)


def mask_labels(ranges: Iterable[Any]) -> list[Label]:
    """One label per mask range (``start``, ``end``, ``category``; the channel when only one is masked)."""
    out = []
    for r in ranges:
        text = str(getattr(r, "category", "") or "masked")
        channel = getattr(r, "channel", None)
        if channel is not None:
            text += f" (channel {int(channel) + 1})"
        out.append(Label(float(r.start), float(r.end), text))
    return out


def write_labels(labels: Iterable[Label], path: str | Path) -> Path:
    return atomic_write_text(path, format_labels(labels))


def parse_labels(text: str, path: str | Path | None = None) -> list[Label]:
    problems = Problems()
    out: list[Label] = []
    for ln, line in enumerate(text.split("\n"), 1):
        if not line.strip() or line.startswith("\\"):
            continue
        f = line.rstrip("\r").split("\t")
        try:
            start = float(f[0])
            end = float(f[1]) if len(f) > 1 and f[1].strip() else start
        except ValueError:
            problems.append(ImportProblem(f"line {ln}", "start or end (fields 1-2) is not a number"))
            continue
        if not (math.isfinite(start) and math.isfinite(end) and 0 <= start <= end):
            problems.append(ImportProblem(f"line {ln}", "start and end must be finite, start <= end"))
            continue
        out.append(Label(start, end, f[2] if len(f) > 2 else ""))
    raise_if(path, problems)
    return out


def read_labels(path: str | Path) -> list[Label]:
    return parse_labels(read_text(path), path)
