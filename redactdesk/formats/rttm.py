"""NIST RTTM speaker turns: ``SPEAKER <file> <channel> <onset> <duration> <NA> <NA> <speaker> <NA> <NA>``
per turn — what diarization tools (pyannote, dscore, md-eval) read and write.

Speaker names may not hold spaces in RTTM; the writer joins their parts with "_". ``;;`` starts a
comment. The reader returns the turns; messages name the line, never its fields.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from redactdesk.core.types import Conversation
from redactdesk.formats._textio import read_text
from redactdesk.formats.errors import ImportProblem, Problems
from redactdesk.formats.files import atomic_write_text
from redactdesk.formats.limits import MAX_LABEL_CHARS, MAX_SECONDS
from redactdesk.formats.validate import raise_if


@dataclass(frozen=True)
class RttmTurn:
    file: str
    channel: int
    onset: float
    duration: float
    speaker: str

    @property
    def end(self) -> float:
        return self.onset + self.duration


def _name(s: str) -> str:
    return "_".join(s.split()) or "NA"


def rttm_turns(conv: Conversation, file_id: str | None = None) -> list[RttmTurn]:
    """One RTTM turn per conversation turn (channel 1 unless the turn knows its channel)."""
    out = []
    for t in conv.turns or conv.turns_from_speakers():
        ws = conv.words[t.start_word:t.end_word]
        if ws:
            out.append(RttmTurn(_name(file_id or conv.id), (t.channel or 0) + 1, ws[0].start,
                                max(ws[-1].end - ws[0].start, 0.0), _name(t.speaker)))
    return out


def format_rttm(turns: list[RttmTurn]) -> str:
    return "".join(f"SPEAKER {t.file} {t.channel} {t.onset:.3f} {t.duration:.3f} <NA> <NA> {t.speaker} <NA> <NA>\n"
                   for t in turns)


def write_rttm(conv: Conversation, path: str | Path, file_id: str | None = None) -> Path:
    return atomic_write_text(path, format_rttm(rttm_turns(conv, file_id)))


def parse_rttm(text: str, path: str | Path | None = None) -> list[RttmTurn]:
    """SPEAKER lines of an RTTM text (other record types are skipped). Raises ImportFailed."""
    problems = Problems()
    out: list[RttmTurn] = []
    for ln, line in enumerate(text.split("\n"), 1):
        f = line.split()
        if not f or f[0].startswith(";;") or f[0] != "SPEAKER":
            continue
        loc = f"line {ln}"
        if len(f) < 9:
            problems.append(ImportProblem(loc, f"expected 10 fields, found {len(f)}"))
            continue
        try:
            channel, onset, dur = int(f[2]), float(f[3]), float(f[4])
        except ValueError:
            problems.append(ImportProblem(loc, "channel, onset or duration (fields 3-5) is not a number"))
            continue
        if not (math.isfinite(onset) and math.isfinite(dur) and 0 <= onset <= MAX_SECONDS and 0 <= dur <= MAX_SECONDS):
            problems.append(ImportProblem(loc, "onset or duration is negative, infinite or out of range"))
            continue
        if len(f[1]) > MAX_LABEL_CHARS or len(f[7]) > MAX_LABEL_CHARS:
            problems.append(ImportProblem(loc, f"file or speaker longer than {MAX_LABEL_CHARS} characters"))
            continue
        out.append(RttmTurn(f[1], channel, onset, dur, f[7]))
    raise_if(path, problems)
    return out


def read_rttm(path: str | Path) -> list[RttmTurn]:
    return parse_rttm(read_text(path), path)
