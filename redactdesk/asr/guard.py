"""Words a recogniser invented, and words without a duration: dropped, or kept with a usable range.

Whisper, given a sliver of audio after the last word it placed, sometimes "hears" the preceding text
(or its decoding prompt) again: on a public stereo clip the agent channel ended with 17 extra words,
"... who had vanished behind the curtain on the left", every one at start = end = 4.98 s of a 5.00 s
file. Such words are wrong in the transcript, and a zero-length word gives an empty mask range — if it
held personal data, nothing would be masked. The rules (:func:`drop_invented`, then
:func:`ensure_durations`; :func:`redactdesk.asr.timing.prepare_words` applies both to every
transcription):

* words that start at or after the end of the audio are dropped; one running past it ends there;
* a run of consecutive words of one channel with no duration (under :data:`ZERO_SECONDS`) that
  repeats earlier words of that channel — every word of it inside a stretch of at least
  :data:`MIN_REPEAT` words said before, earlier in the channel or earlier in the run itself — is
  dropped;
* every other word without a duration is kept, marked ``aligned=False`` (the app shows it as an
  estimate, for review) and given a range around its time as long as its letters take to say
  (at least :data:`MIN_WORD_SECONDS`), inside the audio: a word's range is never empty, so a
  masker always masks something. Repeated phrases with real durations are never touched.
"""

from __future__ import annotations

import dataclasses
import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from redactdesk.core.types import Word

ZERO_SECONDS = 0.01  # a word shorter than this has no duration (Whisper's times step by 20 ms)
MIN_REPEAT = 2  # a repeat is at least this many words said before in the same order
MIN_WORD_SECONDS = 0.1  # the least range a kept word without duration gets
CHARS_PER_SECOND = 14.0  # as in timing repair
_PUNCT = "([{\"'¿¡“‘.,;:!?)]}\"'”’…-–"


@dataclass
class GuardReport:
    """What the guard changed: repeats dropped, words beyond the end dropped, words given a range."""

    repeats: int = 0  # zero-length words repeating earlier words, dropped
    beyond_end: int = 0  # words starting at or after the end of the audio, dropped
    invented: int = 0  # words the backend itself dropped as invented (faster_whisper_backend.invented_segment)
    widened: int = 0  # words without duration kept with an estimated range (aligned=False)
    widened_words: list[int] = field(default_factory=list, repr=False)  # their indices in the output

    @property
    def dropped(self) -> int:
        return self.repeats + self.beyond_end + self.invented

    def messages(self) -> tuple[list[str], list[str]]:
        """(warnings, notes) for a transcription result; they never repeat word texts."""
        warnings, notes = [], []
        if self.widened:
            warnings.append(
                f"{self.widened} word(s) came out of the recogniser with no duration; they are kept with "
                "estimated times and marked for review (≈)"
            )
        if self.repeats:
            notes.append(
                f"{self.repeats} word(s) with no duration repeating earlier words of the same speaker "
                "(a recogniser artefact) were dropped"
            )
        if self.invented:
            notes.append(
                f"{self.invented} word(s) the recogniser produced with no duration in stretches it judged "
                "speechless (repeats of earlier text) were dropped"
            )
        if self.beyond_end:
            notes.append(f"{self.beyond_end} word(s) placed after the end of the audio were dropped")
        return warnings, notes


def has_no_duration(word: Word) -> bool:
    """True for a timed word shorter than :data:`ZERO_SECONDS` (untimed words are timing repair's)."""
    try:
        start, end = float(word.start), float(word.end)
    except (TypeError, ValueError):
        return False
    return math.isfinite(start) and math.isfinite(end) and 0 <= start <= end < start + ZERO_SECONDS


def has_time(word: Word) -> bool:
    """True when the word's times are finite numbers."""
    try:
        return math.isfinite(float(word.start)) and math.isfinite(float(word.end))
    except (TypeError, ValueError):
        return False


def _key(text: str) -> str:
    return text.strip().strip(_PUNCT).casefold()


def _by_channel(words: Sequence[Word]) -> dict[int | None, list[int]]:
    groups: dict[int | None, list[int]] = defaultdict(list)
    for i, w in enumerate(words):
        groups[w.channel].append(i)
    return groups


def _zero_runs(words: Sequence[Word], idx: Sequence[int]) -> list[tuple[int, int]]:
    """[a, b) positions in ``idx`` of each maximal run of consecutive words with no duration at one
    instant (within :data:`ZERO_SECONDS`)."""
    out: list[tuple[int, int]] = []
    for k, i in enumerate(idx):
        if not has_no_duration(words[i]):
            continue
        if out and out[-1][1] == k and abs(float(words[i].start) - float(words[idx[k - 1]].start)) < ZERO_SECONDS:
            out[-1] = (out[-1][0], k + 1)
        else:
            out.append((k, k + 1))
    return out


def repeated(earlier: Sequence[str], run: Sequence[str], min_repeat: int = MIN_REPEAT) -> list[bool]:
    """Per word of ``run``: does it lie in a stretch of at least ``min_repeat`` words said before
    (in ``earlier``, or earlier in ``run``)? Greedy, longest stretch first. Empty keys (punctuation
    only) may be part of a stretch but do not count towards ``min_repeat``."""
    text = list(earlier)
    covered = [False] * len(run)
    p = 0
    while p < len(run):
        history = text + list(run[:p])
        best = 0
        for s in range(len(history)):
            n = 0
            while p + n < len(run) and s + n < len(history) and history[s + n] == run[p + n]:
                n += 1
            best = max(best, n)
        words = sum(1 for k in run[p : p + best] if k)
        if best and words >= min_repeat:
            covered[p : p + best] = [True] * best
            p += best
        else:
            p += 1
    return covered


def drop_invented(
    words: Sequence[Word], *, duration: float | None = None, report: GuardReport | None = None
) -> list[Word]:
    """``words`` without those placed after the end of the audio and without zero-length runs that
    repeat earlier words of their channel (see the module docstring). Copies; input unchanged."""
    report = report if report is not None else GuardReport()
    keep = [True] * len(words)
    out = [dataclasses.replace(w) for w in words]
    if duration is not None:
        for i, w in enumerate(out):
            try:
                start, end = float(w.start), float(w.end)
            except (TypeError, ValueError):
                continue
            if math.isfinite(start) and start >= duration:
                keep[i] = False
                report.beyond_end += 1
            elif math.isfinite(end) and end > duration:
                w.end = round(duration, 3)
    for idx in _by_channel(out).values():
        idx = [i for i in idx if keep[i]]
        keys = [_key(out[i].text) for i in idx]
        for a, b in _zero_runs(out, idx):
            for k, hit in enumerate(repeated(keys[:a], keys[a:b])):
                if hit:
                    keep[idx[a + k]] = False
                    report.repeats += 1
    return [w for w, k in zip(out, keep, strict=True) if k]


def ensure_durations(
    words: Sequence[Word], *, duration: float | None = None, report: GuardReport | None = None
) -> list[Word]:
    """Copies of ``words`` where every timed word without a duration has a range (``aligned=False``).

    A run of such words at time t shares a window centred on t as long as its letters take to say
    (at least :data:`MIN_WORD_SECONDS` a word), moved inside [0, ``duration``]. Indices of the words
    changed are added to ``report.widened_words``.
    """
    report = report if report is not None else GuardReport()
    out = [dataclasses.replace(w) for w in words]
    if duration is not None:  # estimated times (timing repair at the edge) stay inside the audio
        for w in out:
            if has_time(w) and w.end > duration:
                w.end = round(duration, 3)
                w.start = min(float(w.start), w.end)
                w.aligned = False
    for idx in _by_channel(out).values():
        for a, b in _zero_runs(out, idx):
            run = [out[i] for i in idx[a:b]]
            weights = [max(1, len(_key(w.text))) for w in run]
            width = max(MIN_WORD_SECONDS * len(run), sum(weights) / CHARS_PER_SECOND)
            t = float(run[0].start)
            lo, hi = t - width / 2, t + width / 2
            if duration is not None and duration > 0:
                width = min(width, duration)
                lo = min(max(0.0, lo), duration - width)
                hi = lo + width
            else:
                lo, hi = max(0.0, lo), max(0.0, lo) + width
            total = float(sum(weights))
            pos = lo
            for w, weight in zip(run, weights, strict=True):
                w.start = round(pos, 3)
                pos += (hi - lo) * weight / total
                w.end = round(max(pos, w.start + ZERO_SECONDS), 3)
                w.aligned = False
            report.widened += len(run)
            report.widened_words += idx[a:b]
    report.widened_words.sort()
    return out


def guard_words(words: Sequence[Word], *, duration: float | None = None) -> tuple[list[Word], GuardReport]:
    """:func:`drop_invented` then :func:`ensure_durations`, with one report."""
    report = GuardReport()
    kept = drop_invented(words, duration=duration, report=report)
    return ensure_durations(kept, duration=duration, report=report), report
