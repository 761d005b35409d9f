"""Checks shared by every transcript reader; they collect all problems instead of stopping at one.

Messages name the place and the rule broken, never the word or the time found there.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence

from redactdesk.core.types import Word
from redactdesk.formats.errors import ImportFailed, ImportProblem, Problems
from redactdesk.formats.limits import MAX_LABEL_CHARS, MAX_SECONDS, MAX_WORD_CHARS, MAX_WORDS

TOLERANCE = 0.05  # seconds a word may run past the audio's end (rounding in other tools)


def check_words(
    words: Sequence[Word],
    where: Sequence[str],
    audio_duration: float | None = None,
    groups: Sequence[Hashable] | None = None,
    tolerance: float = TOLERANCE,
) -> list[ImportProblem]:
    """Every problem with ``words`` (``where[i]`` names word i's place in the file).

    Checks non-empty text of at most MAX_WORD_CHARS, speaker names of at most MAX_LABEL_CHARS,
    finite non-negative times up to MAX_SECONDS, start <= end, times inside the audio (when
    ``audio_duration`` is given, allowing ``tolerance``), and starts that never go back in time —
    within each group when ``groups`` is given (e.g. per channel or per tier), else overall.
    """
    problems = Problems()
    if not words:
        return [ImportProblem("file", "no words: the transcript is empty")]
    if len(words) > MAX_WORDS:
        return [ImportProblem("file", f"more than {MAX_WORDS} words: split the recording")]
    last_start: dict[Hashable, float] = {}
    for i, w in enumerate(words):
        loc = where[i]
        if not isinstance(w.text, str) or not w.text.strip():
            problems.append(ImportProblem(loc, "empty word text"))
        elif len(w.text) > MAX_WORD_CHARS:
            problems.append(ImportProblem(loc, f"word longer than {MAX_WORD_CHARS} characters"))
        if w.speaker is not None and (not isinstance(w.speaker, str) or len(w.speaker) > MAX_LABEL_CHARS):
            problems.append(ImportProblem(loc, f"speaker name longer than {MAX_LABEL_CHARS} characters"))
        bad_time = False
        for name, t in (("start", w.start), ("end", w.end)):
            if t is None or isinstance(t, bool) or not isinstance(t, (int, float)) or math.isnan(t):
                problems.append(ImportProblem(loc, f"{name} time is missing or not a number"))
                bad_time = True
            elif math.isinf(t):
                problems.append(ImportProblem(loc, f"{name} time is infinite"))
                bad_time = True
            elif t < 0:
                problems.append(ImportProblem(loc, f"{name} time is negative"))
                bad_time = True
            elif t > MAX_SECONDS:
                problems.append(ImportProblem(loc, f"{name} time is beyond the limit of {MAX_SECONDS:.0f} s"))
                bad_time = True
        if bad_time:
            continue
        if w.start > w.end:
            problems.append(ImportProblem(loc, "starts after it ends"))
        if audio_duration is not None and max(w.start, w.end) > audio_duration + tolerance:
            problems.append(ImportProblem(loc, f"ends past the end of the audio ({audio_duration:.3f} s)"))
        key = groups[i] if groups is not None else None
        prev = last_start.get(key)
        if prev is not None and w.start < prev - 1e-9:
            problems.append(ImportProblem(loc, "starts before the previous word: words are out of time order"))
        last_start[key] = w.start if prev is None else max(prev, w.start)
    return problems


def raise_if(path, problems: Sequence[ImportProblem]) -> None:
    """Raise ImportFailed when ``problems`` is not empty."""
    if problems:
        raise ImportFailed(path, problems)
