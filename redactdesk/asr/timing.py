"""Timing repair: give every word a time, and split numeric tokens into reviewable spoken units.

* :func:`repair_timings` — words without usable times (``None``/NaN/negative/end before start, as
  whisperx leaves digits) get times interpolated between their timed neighbours, in proportion to
  their character length; they stay ``aligned=False`` so the app shows them as estimates.
* :func:`split_numeric_tokens` — one token holding several spoken units is split so each unit can be
  reviewed and masked on its own. The choice of units (documented here, tested in tests/asr):

  - digit groups as written: ``"4111 1111 1111 1111"`` → ``4111 | 1111 | 1111 | 1111``;
    ``"555-123-4567"`` → ``555 | 123 | 4567``; ``"4-1-1"`` → ``4 | 1 | 1``; dotted or comma-separated groups
    split only when there are three or more (``"192.168.0.1"``, ``"4,1,1"``), so decimals
    (``"12.50"``, ``"1,25"``) stay whole;
  - whisper's ``"4 -1 -1"`` (tokens ``"-1"`` after a number) loses the stray hyphen: ``4 | 1 | 1``;
  - an unseparated run of five or more digits is dictation (cards, postcodes, account numbers) and is
    split into single digits: ``"90210"`` → ``9 | 0 | 2 | 1 | 0``;
  - an amount stays one unit, followed by its currency word in spoken order:
    ``"$250"`` → ``250 | dollars``, ``"1,250"`` → ``1,250``, ``"50%"`` → ``50 | percent``;
  - years and other numbers of up to four digits stay whole (``"2024"``).

  Pieces share the token's time span in proportion to their spoken length (num2words), keep the
  token's speaker/channel/confidence and are ``aligned=False``; forced alignment can re-time them.
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from num2words import num2words

from redactdesk.asr.guard import GuardReport, drop_invented, ensure_durations
from redactdesk.core.types import Word

DEFAULT_CHARS_PER_SECOND = 14.0
_LEAD_PUNCT = "([{\"'¿¡“‘"
_TRAIL_PUNCT = ".,;:!?)]}\"'”’…"

_CURRENCY = {
    "en": {"$": ("dollar", "dollars"), "€": ("euro", "euros"), "£": ("pound", "pounds")},
    "es": {"$": ("dólar", "dólares"), "€": ("euro", "euros"), "£": ("libra", "libras")},
}
_PERCENT = {"en": ["percent"], "es": ["por", "ciento"]}

_AMOUNT = r"\d{1,3}(?:[,.]\d{3})+(?:[.,]\d{1,2})?|\d+(?:[.,]\d{1,2})?"
_CURRENCY_BEFORE = re.compile(rf"^([$€£])({_AMOUNT})$")
_CURRENCY_AFTER = re.compile(rf"^({_AMOUNT})\s?([$€£])$")
_PERCENT_RE = re.compile(rf"^({_AMOUNT})\s?%$")
_THOUSANDS = re.compile(r"^\d{1,3}(?:,\d{3})+(?:\.\d+)?$|^\d{1,3}(?:\.\d{3})+(?:,\d+)?$")
_GROUPS = re.compile(r"^\d+(?:(?:\s*[-/–]\s*|\s+)\d+)+$")
_DOTTED = re.compile(r"^\d+(?:\.\d+){2,}$")
_COMMA_LIST = re.compile(r"^\d+(?:,\d+){2,}$")
_DIGIT_RUN = re.compile(r"^\d{5,}$")
_DANGLING_MINUS = re.compile(r"^[-–]\d+$")


@dataclass
class TimingReport:
    """What :func:`prepare_words` changed: words that got estimated times, tokens split, pieces made,
    and what the guard against invented and zero-length words did (:mod:`redactdesk.asr.guard`)."""

    timed: int = 0
    split_tokens: int = 0
    pieces: int = 0
    guard: GuardReport = field(default_factory=GuardReport)


def is_untimed(word: Word) -> bool:
    """True when the word's times cannot be used (missing, NaN, infinite, negative or reversed)."""
    start, end = word.start, word.end
    if start is None or end is None:
        return True
    try:
        start, end = float(start), float(end)
    except (TypeError, ValueError):
        return True
    return not (math.isfinite(start) and math.isfinite(end)) or start < 0 or end < start


def count_untimed(words: Sequence[Word]) -> int:
    return sum(1 for w in words if is_untimed(w))


def repair_timings(words: Sequence[Word], *, chars_per_second: float = DEFAULT_CHARS_PER_SECOND) -> list[Word]:
    """Copies of ``words`` where every untimed word has times between its timed neighbours.

    A run of untimed words shares the gap from the previous timed word's end to the next timed
    word's start in proportion to character length. At the edges (or with no timed word at all)
    durations are estimated at ``chars_per_second``. Repaired words are ``aligned=False``.
    """
    out = [dataclasses.replace(w) for w in words]
    i = 0
    n = len(out)
    while i < n:
        if not is_untimed(out[i]):
            i += 1
            continue
        j = i
        while j < n and is_untimed(out[j]):
            j += 1
        run = out[i:j]
        weights = [max(1, len(w.text.strip())) for w in run]
        estimate = sum(weights) / chars_per_second
        left = float(out[i - 1].end) if i > 0 else None
        right = float(out[j].start) if j < n else None
        if left is None and right is None:
            left, right = 0.0, estimate
        elif left is None:
            left = max(0.0, right - estimate)
        elif right is None:
            right = left + estimate
        right = max(right, left)
        spread_times(run, left, right, weights)
        i = j
    return out


def split_numeric_tokens(words: Sequence[Word], *, language: str | None = "en") -> list[Word]:
    """Copies of ``words`` with numeric tokens split into spoken units (see the module docstring)."""
    lang = language if language in _CURRENCY else "en"
    out: list[Word] = []
    for w in words:
        lead, core, trail = strip_punct(w.text.strip())
        if (
            _DANGLING_MINUS.match(core)
            and out
            and _ends_numeric(out[-1].text)
        ):
            core = core.lstrip("-–")
            w = dataclasses.replace(w, text=lead + core + trail)
        pieces = _pieces(core, lang)
        if pieces is None or len(pieces) == 1:
            out.append(dataclasses.replace(w, text=w.text.strip()))
            continue
        pieces[0] = lead + pieces[0]
        pieces[-1] = pieces[-1] + trail
        out += split_word(w, pieces, [_spoken_length(p, lang) for p in pieces])
    return out


def split_word(w: Word, texts: Sequence[str], weights: Sequence[float]) -> list[Word]:
    """``w`` as several words saying ``texts``, sharing its time span by ``weights`` (``aligned=False``)."""
    parts = [dataclasses.replace(w, text=t, aligned=False) for t in texts]
    if not is_untimed(w):
        spread_times(parts, float(w.start), float(w.end), weights)
    return parts


def prepare_words(
    words: Sequence[Word], *, language: str | None = "en", duration: float | None = None
) -> tuple[list[Word], TimingReport]:
    """The one word-preparation step every transcription goes through: drop invented words (placed
    after the end of the audio — ``duration`` s — or zero-length repeats of earlier words,
    :func:`redactdesk.asr.guard.drop_invented`), repair timings, split numeric tokens and fused
    spelled letters (:mod:`redactdesk.asr.spelling`), and give every word left without a duration
    a non-empty estimated range marked ``aligned=False`` (:func:`redactdesk.asr.guard.ensure_durations`).
    ``report.guard.widened_words`` indexes the returned words so marked."""
    from redactdesk.asr.spelling import split_fused_spelling  # it builds on this module's helpers

    report = TimingReport(timed=count_untimed(words))
    kept = drop_invented(words, duration=duration, report=report.guard)
    repaired = repair_timings(kept)
    split = split_fused_spelling(split_numeric_tokens(repaired, language=language), language=language)
    report.pieces = len(split) - len(repaired)
    report.split_tokens = _count_split(repaired, language)
    return ensure_durations(split, duration=duration, report=report.guard), report


def _count_split(words: Sequence[Word], language: str | None) -> int:
    lang = language if language in _CURRENCY else "en"
    n = 0
    for w in words:
        pieces = _pieces(strip_punct(w.text.strip())[1], lang)
        n += pieces is not None and len(pieces) > 1
    return n


def spread_times(words: Sequence[Word], start: float, end: float, weights: Sequence[float]) -> None:
    total = float(sum(weights)) or 1.0
    t = start
    span = end - start
    for w, weight in zip(words, weights, strict=True):
        w.start = round(t, 3)
        t += span * weight / total
        w.end = round(t, 3)
        w.aligned = False
    words[-1].end = round(end, 3)


def strip_punct(text: str) -> tuple[str, str, str]:
    i, j = 0, len(text)
    while i < j and text[i] in _LEAD_PUNCT:
        i += 1
    while j > i and (text[j - 1] in _TRAIL_PUNCT or (text[j - 1] in "-–" and any(c.isdigit() for c in text))):
        j -= 1
    return text[:i], text[i:j], text[j:]


def _ends_numeric(text: str) -> bool:
    core = strip_punct(text.strip())[1]
    return bool(core) and core[-1].isdigit()


def _pieces(core: str, lang: str) -> list[str] | None:
    if not core or not any(c.isdigit() for c in core):
        return None
    if m := _CURRENCY_BEFORE.match(core):
        return [m.group(2), _currency_word(m.group(1), m.group(2), lang)]
    if m := _CURRENCY_AFTER.match(core):
        return [m.group(1), _currency_word(m.group(2), m.group(1), lang)]
    if m := _PERCENT_RE.match(core):
        return [m.group(1), *_PERCENT[lang]]
    if _THOUSANDS.match(core):
        return [core]
    if _GROUPS.match(core):
        return re.findall(r"\d+", core)
    if _DOTTED.match(core) or _COMMA_LIST.match(core):
        return re.findall(r"\d+", core)
    if _DIGIT_RUN.match(core):
        return list(core)
    return None


def _currency_word(symbol: str, amount: str, lang: str) -> str:
    singular, plural = _CURRENCY[lang][symbol]
    return singular if amount in ("1", "1.00", "1,00") else plural


def _spoken_length(piece: str, lang: str) -> int:
    digits = piece.strip(_LEAD_PUNCT + _TRAIL_PUNCT)
    plain = digits.replace(",", "").replace(".", "")
    if plain.isdigit():
        if len(plain) > 4 or plain.startswith("0") and len(plain) > 1:
            return 4 * len(plain)
        try:
            return len(num2words(int(plain), lang=lang))
        except (NotImplementedError, OverflowError):
            return 4 * len(plain)
    return max(1, len(piece))
