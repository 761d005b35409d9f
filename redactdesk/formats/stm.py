"""NIST STM segment transcripts (sclite's reference format):
``<file> <channel> <speaker> <begin> <end> [<label>] <transcript>`` per segment, ``;;`` comments.

The writer makes one segment per turn (channel "A"/"B"...). The reader spreads each segment's time
evenly over its words (``aligned=False``: STM holds no word times).
"""

from __future__ import annotations

import math
from pathlib import Path

from redactdesk.core.types import Conversation, Word
from redactdesk.formats._textio import read_text
from redactdesk.formats.errors import ImportProblem, Problems
from redactdesk.formats.files import atomic_write_text
from redactdesk.formats.limits import MAX_LABEL_CHARS
from redactdesk.formats.transcript import TranscriptImport, spread, turns_from_words
from redactdesk.formats.validate import check_words, raise_if


def _name(s: str) -> str:
    return "_".join(s.split()) or "unknown"


def format_stm(conv: Conversation, file_id: str | None = None) -> str:
    lines = [';; LABEL "O" "Overall" "Overall results"']
    for t in conv.turns or conv.turns_from_speakers():
        ws = conv.words[t.start_word:t.end_word]
        if ws:
            channel = chr(ord("A") + (t.channel or 0)) if (t.channel or 0) < 26 else str(t.channel)
            lines.append(f"{_name(file_id or conv.id)} {channel} {_name(t.speaker)} {ws[0].start:.3f} "
                         f"{ws[-1].end:.3f} <O> {' '.join(w.text for w in ws)}")
    return "\n".join(lines) + "\n"


def write_stm(conv: Conversation, path: str | Path, file_id: str | None = None) -> Path:
    return atomic_write_text(path, format_stm(conv, file_id))


def parse_stm(text: str, path: str | Path | None = None, audio_duration: float | None = None) -> TranscriptImport:
    problems = Problems()
    items: list[tuple[Word, str]] = []
    for ln, line in enumerate(text.split("\n"), 1):
        f = line.split()
        if not f or f[0].startswith(";;"):
            continue
        loc = f"line {ln}"
        if len(f) < 5:
            problems.append(ImportProblem(loc, f"expected at least 5 fields (file channel speaker begin end), "
                                          f"found {len(f)}"))
            continue
        try:
            begin, end = float(f[3]), float(f[4])
        except ValueError:
            problems.append(ImportProblem(loc, "begin or end time (fields 4-5) is not a number"))
            continue
        if not (math.isfinite(begin) and math.isfinite(end)):
            problems.append(ImportProblem(loc, "begin or end time is infinite"))
            continue
        if len(f[2]) > MAX_LABEL_CHARS:
            problems.append(ImportProblem(loc, f"speaker longer than {MAX_LABEL_CHARS} characters"))
            continue
        rest = f[5:]
        if rest and rest[0].startswith("<") and rest[0].endswith(">"):
            rest = rest[1:]
        channel = ord(f[1][0].upper()) - ord("A") if len(f[1]) == 1 and f[1].isalpha() else None
        tokens = [t for t in rest if t not in ("ignore_time_segment_in_scoring",)]
        for tok, (s, e) in zip(tokens, spread(begin, end, len(tokens)), strict=True):
            items.append((Word(text=tok, start=s, end=e, speaker=f[2], channel=channel, aligned=False), loc))
    items.sort(key=lambda it: it[0].start)
    problems.extend(check_words([w for w, _ in items], [loc for _, loc in items], audio_duration))
    raise_if(path, problems)
    words = [w for w, _ in items]
    return TranscriptImport(words=words, turns=turns_from_words(words), format="stm",
                            warnings=["STM holds no word times: each segment's time was spread over its words"])


def read_stm(path: str | Path, audio_duration: float | None = None) -> TranscriptImport:
    return parse_stm(read_text(path), path, audio_duration)
