"""Praat TextGrid: reader (our own linear-time tokenizer for Praat's long and short text forms, plus
praatio's JSON form) and writer (praatio).

Reading picks word tiers in this order: tiers named "<speaker> - words" (Montreal Forced Aligner
style; speaker from the name), else a tier named "words" (no speaker), else every interval tier
except phone tiers and item tiers (speaker = tier name). Tiers named like "PII" or "items"
(``span_tier.looks_like_span_tier``) are never words; the tier named by ``span_tier`` is read as
labelled intervals for spans. Empty intervals are skipped; an interval holding several words has its
time spread over them (``aligned=False``). Writing makes one word tier per speaker and, given items,
an ``items`` tier labelled ``CATEGORY [PLACEHOLDER]``.
"""

from __future__ import annotations

import re
from pathlib import Path

from praatio import textgrid as tgio

from redactdesk.core.types import Word
from redactdesk.formats._textio import parse_json, read_text
from redactdesk.formats.errors import ImportProblem
from redactdesk.formats.files import atomic_path
from redactdesk.formats.limits import MAX_LABEL_CHARS
from redactdesk.formats.span_tier import ITEMS_TIER, SpanInterval, is_chosen, looks_like_span_tier
from redactdesk.formats.transcript import (
    TranscriptImport,
    merge_by_start,
    spread,
    tier_intervals,
    turns_from_words,
)
from redactdesk.formats.validate import check_words, raise_if

WORDS_TIER = "words"
_PHONES = re.compile(r"(?:^|[\s-])(?:phones?|phonemes?|segments?)\Z", re.IGNORECASE)  # constant work per start

# Praat's text forms (long and short) are one stream of tokens: quoted strings ("" inside is a
# quote), free-standing numbers and <flags>; everything else ("xmin =", "item [1]:") is decoration,
# and "!" starts a comment. Linear time: no alternative can backtrack more than once over its own run.
_TOKEN = re.compile(
    r'"[^"]*(?:""[^"]*)*"'
    r"|<(?:exists|absent)>"
    r"|(?<!\S)[-+]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?(?!\S)"
    r"|![^\n]*"
)


class _Malformed(Exception):
    """Parse error inside the TextGrid reader: ``where`` and ``message`` are value-free."""

    def __init__(self, where: str, message: str) -> None:
        super().__init__(message)
        self.where = where
        self.message = message


def read_textgrid(path: str | Path, audio_duration: float | None = None,
                  span_tier: str | None = None) -> TranscriptImport:
    """Read a TextGrid (long, short or praatio JSON form; UTF-8 or UTF-16). Raises ImportFailed.

    ``span_tier``: the name of an interval tier of items, returned as ``span_intervals``.
    """
    return parse_textgrid(read_text(path), path, audio_duration, span_tier=span_tier)


def mfa_speaker(name: str) -> str | None | bool:
    """For a Montreal-Forced-Aligner tier name "<speaker> - words": the speaker (None when empty);
    False for any other name. (Plain string operations: a regex here backtracked quadratically.)"""
    s = name.rstrip()
    if not s.lower().endswith("words"):
        return False
    rest = s[:-5].rstrip()
    if not rest.endswith("-"):
        return False
    return rest[:-1].rstrip() or None


def parse_textgrid(text: str, path: str | Path | None = None,
                   audio_duration: float | None = None, *, span_tier: str | None = None) -> TranscriptImport:
    try:
        tiers = _parse_json_form(text, path) if text.lstrip()[:1] == "{" else _parse_text_form(text)
    except _Malformed as exc:
        raise_if(path, [ImportProblem(exc.where, f"not a readable TextGrid ({exc.message})")])
    tiers = [(i, name, entries) for i, (cls, name, entries) in enumerate(tiers, 1) if cls == "IntervalTier"]
    problems = [ImportProblem(f"tier {i}", f"tier name longer than {MAX_LABEL_CHARS} characters")
                for i, name, _ in tiers if len(name) > MAX_LABEL_CHARS]
    raise_if(path, problems)
    span_intervals: list[SpanInterval] = []
    if span_tier is not None:
        picked = [(i, entries) for i, name, entries in tiers if is_chosen(name, span_tier)]
        if not picked:
            raise_if(path, [ImportProblem("file", "no interval tier has the name given as the span tier")])
        span_intervals = [SpanInterval(s, e, label, f"tier {i}, interval {ii}")
                          for i, entries in picked for ii, (s, e, label) in enumerate(entries, 1)]
    tiers = [(i, name, entries) for i, name, entries in tiers
             if not (is_chosen(name, span_tier) or looks_like_span_tier(name))]
    chosen: list[tuple[int, list, str | None]] = []
    mfa = [(i, entries, mfa_speaker(name)) for i, name, entries in tiers]
    if any(m is not False for _, _, m in mfa):
        chosen = [(i, entries, m) for i, entries, m in mfa if m is not False]
    elif any(name.strip().lower() == WORDS_TIER for _, name, _ in tiers):
        chosen = [(i, entries, None) for i, name, entries in tiers if name.strip().lower() == WORDS_TIER]
    else:
        chosen = [(i, entries, name) for i, name, entries in tiers if not _PHONES.search(name.strip())]
    if not chosen:
        raise_if(path, [ImportProblem("file", "no interval tier with words")])

    warnings: list[str] = []
    items: list[tuple[Word, str]] = []
    groups: list[int] = []
    spread_count = 0
    for ti, entries, speaker in chosen:
        for ii, (start, end, label) in enumerate(entries, 1):
            tokens = label.split()
            if not tokens:
                continue
            loc = f"tier {ti}, interval {ii}"
            if len(tokens) == 1:
                items.append((Word(text=tokens[0], start=start, end=end, speaker=speaker), loc))
                groups.append(ti)
                continue
            spread_count += 1
            for t, (s, e) in zip(tokens, spread(start, end, len(tokens)), strict=True):
                items.append((Word(text=t, start=s, end=e, speaker=speaker, aligned=False), loc))
                groups.append(ti)
    raise_if(path, check_words([w for w, _ in items], [loc for _, loc in items], audio_duration, groups=groups))
    if spread_count:
        warnings.append(f"{spread_count} interval(s) held several words; their times were spread evenly")
    words = [w for w, _ in merge_by_start(items)]
    return TranscriptImport(words=words, turns=turns_from_words(words), warnings=warnings, format="textgrid",
                            span_intervals=span_intervals)


_Tier = tuple[str, str, list[tuple[float, float, str]]]  # class, name, (start, end, label) entries


class _Tokens:
    """The token stream of a Praat text file, read lazily, each token with its line number."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._it = _TOKEN.finditer(text)
        self._peeked: tuple[str, int, int] | None = None
        self._line, self._last = 1, 0

    def _pull(self) -> tuple[str, int, int] | None:
        """The next (token, line, end offset), skipping comments; None at the end."""
        if self._peeked is not None:
            tok, self._peeked = self._peeked, None
            return tok
        for m in self._it:
            self._line += self.text.count("\n", self._last, m.start())
            self._last = m.start()
            if m.group()[0] != "!":
                return m.group(), self._line, m.end()
        return None

    def _next(self, what: str) -> tuple[str, int, int]:
        tok = self._pull()
        if tok is None:
            raise _Malformed("file", f"the file ends where {what} belongs")
        return tok

    def string(self, what: str) -> str:
        tok, line, _ = self._next(what)
        if tok[0] != '"':
            raise _Malformed(f"line {line}", f"expected {what} (a quoted text)")
        return tok[1:-1].replace('""', '"')

    def number(self, what: str) -> float:
        tok, line, _ = self._next(what)
        if tok[0] in '"<':
            raise _Malformed(f"line {line}", f"expected {what} (a number)")
        return float(tok)

    def count(self, what: str, per_item: int) -> int:
        """A count of items that each take ``per_item`` more tokens; it cannot promise more tokens
        than the rest of the file could hold (each takes two characters at least)."""
        tok, line, end = self._next(what)
        n = float(tok) if tok[0] not in '"<' else -1.0
        if not (n.is_integer() and 0 <= n):
            raise _Malformed(f"line {line}", f"{what} is not a whole number")
        if n * per_item > (len(self.text) - end) // 2 + 1:
            raise _Malformed(f"line {line}", f"{what} promises more entries than the file holds")
        return int(n)

    def flag(self) -> bool | None:
        """Consume an <exists>/<absent> flag when one comes next: True/False, or None when none does."""
        tok = self._pull()
        if tok is not None and tok[0][0] == "<":
            return tok[0] == "<exists>"
        self._peeked = tok
        return None


def _parse_text_form(text: str) -> list[_Tier]:
    toks = _Tokens(text)
    if toks.string("the file type") not in ("ooTextFile", "ooTextFile short"):
        raise _Malformed("line 1", "not a Praat text file")
    if toks.string("the object class") != "TextGrid":
        raise _Malformed("line 2", "the object is not a TextGrid")
    toks.number("the start time")
    toks.number("the end time")
    if toks.flag() is False:
        return []
    tiers: list[_Tier] = []
    for _ in range(toks.count("the number of tiers", 5)):
        cls = toks.string("a tier class")
        name = toks.string("a tier name")
        toks.number("a tier start time")
        toks.number("a tier end time")
        if cls == "IntervalTier":
            n = toks.count("the number of intervals", 3)
            entries = [(toks.number("an interval start"), toks.number("an interval end"),
                        toks.string("an interval text")) for _ in range(n)]
        elif cls == "TextTier":
            n = toks.count("the number of points", 2)
            for _ in range(n):
                toks.number("a point time")
                toks.string("a point mark")
            entries = []
        else:
            raise _Malformed("file", "a tier class is neither IntervalTier nor TextTier")
        tiers.append((cls, name, entries))
    return tiers


def _parse_json_form(text: str, path: str | Path | None) -> list[_Tier]:
    """praatio's JSON TextGrid: {"tiers": [{"class", "name", "entries": [[start, end, label], ...]}]}
    or its simplified form {"start", "end", "tiers": {name: {"type", "entries"}}}."""
    data = parse_json(text, path)
    if not isinstance(data, dict):
        raise _Malformed("file", "expected a JSON object")
    raw = data.get("tiers")
    if isinstance(raw, dict):  # simplified form
        raw = [{"class": t.get("type") if isinstance(t, dict) else None, "name": name,
                "entries": t.get("entries") if isinstance(t, dict) else None} for name, t in raw.items()]
    if not isinstance(raw, list):
        raise _Malformed("file", "'tiers' is not a list")
    tiers: list[_Tier] = []
    for ti, t in enumerate(raw, 1):
        if not isinstance(t, dict) or not isinstance(t.get("name"), str) or not isinstance(t.get("entries"), list):
            raise _Malformed(f"tier {ti}", "expected an object with 'name' and 'entries'")
        cls = t.get("class")
        entries: list[tuple[float, float, str]] = []
        if cls == "IntervalTier":
            for ei, e in enumerate(t["entries"], 1):
                if not (isinstance(e, list) and len(e) == 3 and isinstance(e[2], str)
                        and all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in e[:2])):
                    raise _Malformed(f"tier {ti}, interval {ei}", "expected [start, end, text]")
                try:
                    entries.append((float(e[0]), float(e[1]), e[2]))
                except OverflowError:
                    raise _Malformed(f"tier {ti}, interval {ei}", "a time is out of range") from None
        tiers.append((cls if isinstance(cls, str) else "", t["name"], entries))
    return tiers


def build_textgrid(words: list[Word], duration: float | None = None,
                   items: list[tuple[float, float, str]] | None = None) -> tgio.Textgrid:
    """A praatio Textgrid with one word tier per speaker (tier "words" for words without one) and,
    when ``items`` (start, end, label) are given, a tier ``items`` after them (even when empty)."""
    end = max([duration or 0.0, *(w.end for w in words), *(e for _, e, _ in items or ())])
    tg = tgio.Textgrid()
    by_speaker: dict[str, list[Word]] = {}
    for w in words:
        by_speaker.setdefault(w.speaker or WORDS_TIER, []).append(w)
    for name, ws in by_speaker.items():
        tg.addTier(tgio.IntervalTier(name, tier_intervals(ws), 0.0, end))
    if not by_speaker:
        tg.addTier(tgio.IntervalTier(WORDS_TIER, [], 0.0, max(end, 0.001)))
    if items is not None:
        item_words = [Word(text=label, start=s, end=e) for s, e, label in items]
        tg.addTier(tgio.IntervalTier(ITEMS_TIER, tier_intervals(item_words), 0.0, max(end, 0.001)))
    return tg


def write_textgrid(words: list[Word], path: str | Path, duration: float | None = None,
                   items: list[tuple[float, float, str]] | None = None) -> Path:
    """Write ``words`` as a long-form TextGrid, one word tier per speaker (and an ``items`` tier when
    ``items`` are given), atomically.

    Overlapping words of one speaker are clipped to the next word's start (two words starting at
    the same instant share one interval).
    """
    p = Path(path)
    tg = build_textgrid(words, duration, items)
    with atomic_path(p) as tmp:
        tg.save(str(tmp), format="long_textgrid", includeBlankSpaces=True, reportingMode="silence")
    return p
