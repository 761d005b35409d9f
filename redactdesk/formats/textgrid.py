"""Praat TextGrid (via praatio): reader and writer.

Reading picks word tiers in this order: tiers named "<speaker> - words" (Montreal Forced Aligner
style; speaker from the name), else a tier named "words" (no speaker), else every interval tier
except phone tiers (speaker = tier name). Empty intervals are skipped; an interval holding several
words has its time spread over them (``aligned=False``). Writing makes one word tier per speaker.
"""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

from praatio import textgrid as tgio
from praatio.utilities import textgrid_io

from redactdesk.core.types import Word
from redactdesk.formats._textio import read_text
from redactdesk.formats.errors import ImportProblem
from redactdesk.formats.transcript import (
    TranscriptImport,
    merge_by_start,
    spread,
    tier_intervals,
    turns_from_words,
)
from redactdesk.formats.validate import check_words, raise_if

_MFA_WORDS = re.compile(r"^(.*?)\s*-\s*words$", re.IGNORECASE)
_PHONES = re.compile(r"(^|[\s-])(phones?|phonemes?|segments?)$", re.IGNORECASE)
WORDS_TIER = "words"


def read_textgrid(path: str | Path, audio_duration: float | None = None) -> TranscriptImport:
    """Read a TextGrid (long, short or praatio JSON form; UTF-8 or UTF-16). Raises ImportFailed."""
    return parse_textgrid(read_text(path), path, audio_duration)


def parse_textgrid(text: str, path: str | Path | None = None,
                   audio_duration: float | None = None) -> TranscriptImport:
    try:
        tg = textgrid_io.parseTextgridStr(text, includeEmptyIntervals=False)
    except Exception as exc:  # praatio raises assorted errors on malformed files
        raise_if(path, [ImportProblem("file", f"not a readable TextGrid ({type(exc).__name__})")])
    tiers = [(i, t) for i, t in enumerate(tg.get("tiers", []), 1) if t.get("class") == "IntervalTier"]
    chosen: list[tuple[int, dict, str | None]] = []
    mfa = [(i, t, _MFA_WORDS.match(t["name"])) for i, t in tiers]
    if any(m for _, _, m in mfa):
        chosen = [(i, t, m.group(1) or None) for i, t, m in mfa if m]
    elif any(t["name"].strip().lower() == WORDS_TIER for _, t in tiers):
        chosen = [(i, t, None) for i, t in tiers if t["name"].strip().lower() == WORDS_TIER]
    else:
        chosen = [(i, t, t["name"]) for i, t in tiers if not _PHONES.search(t["name"].strip())]
    if not chosen:
        raise_if(path, [ImportProblem("file", "no interval tier with words")])

    warnings: list[str] = []
    items: list[tuple[Word, str]] = []
    groups: list[int] = []
    spread_count = 0
    for ti, tier, speaker in chosen:
        for ii, entry in enumerate(tier["entries"], 1):
            start, end, label = float(entry[0]), float(entry[1]), str(entry[2])
            tokens = label.split()
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
    return TranscriptImport(words=words, turns=turns_from_words(words), warnings=warnings, format="textgrid")


def build_textgrid(words: list[Word], duration: float | None = None) -> tgio.Textgrid:
    """A praatio Textgrid with one word tier per speaker (tier "words" for words without one)."""
    end = max([duration or 0.0, *(w.end for w in words)])
    tg = tgio.Textgrid()
    by_speaker: dict[str, list[Word]] = {}
    for w in words:
        by_speaker.setdefault(w.speaker or WORDS_TIER, []).append(w)
    for name, ws in by_speaker.items():
        tg.addTier(tgio.IntervalTier(name, tier_intervals(ws), 0.0, end))
    if not by_speaker:
        tg.addTier(tgio.IntervalTier(WORDS_TIER, [], 0.0, max(end, 0.001)))
    return tg


def write_textgrid(words: list[Word], path: str | Path, duration: float | None = None) -> Path:
    """Write ``words`` as a long-form TextGrid, one word tier per speaker, atomically.

    Overlapping words of one speaker are clipped to the next word's start (two words starting at
    the same instant share one interval).
    """
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    tg = build_textgrid(words, duration)
    fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=p.parent)
    os.close(fd)
    try:
        tg.save(tmp, format="long_textgrid", includeBlankSpaces=True, reportingMode="silence")
        os.replace(tmp, p)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return p
