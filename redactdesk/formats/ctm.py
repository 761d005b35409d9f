"""NIST CTM: ``<file> <channel> <start> <duration> <word> [<confidence>]`` per line, ';;' comments.

Channels "A"/"B" (or "1"/"2", or "0"/"1") become ``Word.channel`` 0/1. When a file has several
channels, each channel's words get the speaker ``CH_<label>`` (e.g. "CH_A") and words are merged by
start time; one channel gives speaker None. CTM holds no speaker names: the writer drops them.
"""

from __future__ import annotations

import math
from pathlib import Path

from redactdesk.core.types import Word
from redactdesk.formats._textio import read_text
from redactdesk.formats.errors import ImportProblem, Problems
from redactdesk.formats.files import atomic_write_text
from redactdesk.formats.limits import MAX_CHANNEL, MAX_LABEL_CHARS, MAX_WORD_CHARS
from redactdesk.formats.transcript import TranscriptImport, merge_by_start, turns_from_words
from redactdesk.formats.validate import check_words, raise_if


def read_ctm(path: str | Path, audio_duration: float | None = None, file_id: str | None = None) -> TranscriptImport:
    """Read a CTM file. When it holds several recordings, ``file_id`` picks one. Raises ImportFailed."""
    return parse_ctm(read_text(path), path, audio_duration, file_id)


def parse_ctm(text: str, path: str | Path | None = None, audio_duration: float | None = None,
              file_id: str | None = None) -> TranscriptImport:
    problems = Problems()
    rows: list[tuple[str, str, Word, str]] = []  # file, channel label, word, where
    for ln, line in enumerate(text.split("\n"), 1):
        s = line.strip()
        if not s or s.startswith(";;"):
            continue
        loc = f"line {ln}"
        f = s.split()
        if len(f) < 5:
            problems.append(ImportProblem(loc, f"expected at least 5 fields (file channel start duration word), "
                                          f"found {len(f)}"))
            continue
        if len(f[4]) > MAX_WORD_CHARS:
            problems.append(ImportProblem(loc, f"word (field 5) longer than {MAX_WORD_CHARS} characters"))
            continue
        if len(f[0]) > MAX_LABEL_CHARS or len(f[1]) > MAX_LABEL_CHARS:
            problems.append(ImportProblem(loc, f"file or channel (fields 1–2) longer than {MAX_LABEL_CHARS} characters"))
            continue
        start, dur = _float(f[2]), _float(f[3])
        conf = _float(f[5]) if len(f) >= 6 else None
        bad = False
        if start is None:
            problems.append(ImportProblem(loc, "start time (field 3) is not a number"))
            bad = True
        if dur is None:
            problems.append(ImportProblem(loc, "duration (field 4) is not a number"))
            bad = True
        elif dur < 0:
            problems.append(ImportProblem(loc, "negative duration"))
            bad = True
        if len(f) >= 6 and conf is None and f[5].upper() not in ("NA", "-"):
            problems.append(ImportProblem(loc, "confidence (field 6) is not a number"))
            bad = True
        if bad:
            continue
        word = Word(text=f[4], start=start, end=start + dur,
                    confidence=conf if conf is not None and math.isfinite(conf) else None)
        rows.append((f[0], f[1], word, loc))

    files = sorted({r[0] for r in rows})
    if file_id is not None:
        rows = [r for r in rows if r[0] == file_id]
        if not rows and not problems:
            problems.append(ImportProblem("file", f"no lines for the recording asked for; the file holds "
                                          f"{len(files)} other recording(s)"))
    elif len(files) > 1:
        problems.append(ImportProblem("file", f"holds {len(files)} recordings (different names in field 1); "
                                      "choose one with file_id"))

    labels = sorted({r[1] for r in rows}, key=_label_order)
    zero_based = "0" in labels
    channel_of = {lab: _channel_index(lab, zero_based) for lab in labels}
    multi = len(labels) > 1
    for _, lab, w, _ in rows:
        w.channel = channel_of[lab]
        w.speaker = f"CH_{lab}" if multi else None
    words = [r[2] for r in rows]
    where = [r[3] for r in rows]
    if words or not problems:
        problems.extend(check_words(words, where, audio_duration, groups=[r[1] for r in rows]))
    raise_if(path, problems)
    merged = merge_by_start(list(zip(words, where, strict=True)))
    words = [w for w, _ in merged]
    return TranscriptImport(words=words, turns=turns_from_words(words), format="ctm")


def _float(s: str) -> float | None:
    try:
        return float(s)
    except ValueError:
        return None


def _is_number(lab: str) -> bool:
    """A channel label of ASCII digits small enough to be a channel number."""
    return lab.isascii() and lab.isdigit() and len(lab) <= 3 and int(lab) <= MAX_CHANNEL + 1


def _label_order(lab: str) -> tuple[int, str]:
    return (0, f"{int(lab):09d}") if _is_number(lab) else (1, lab.upper())


def _channel_index(lab: str, zero_based: bool) -> int | None:
    if _is_number(lab):
        n = int(lab) if zero_based else max(0, int(lab) - 1)
        return n if n <= MAX_CHANNEL else None
    if len(lab) == 1 and lab.isascii() and lab.isalpha():
        return ord(lab.upper()) - ord("A")
    return None


def _label(channel: int | None) -> str:
    return chr(ord("A") + (channel or 0)) if (channel or 0) < 26 else str(channel + 1)


def format_ctm(words: list[Word], file_id: str = "audio") -> str:
    """CTM text for ``words`` (times to the millisecond; confidence when known)."""
    if not file_id or any(c.isspace() for c in file_id):
        raise ValueError("file_id must be a non-empty string without spaces")
    lines = [";; redactdesk CTM: file channel start duration word [confidence]"]
    for w in words:
        token = "_".join(w.text.split()) or "_"
        start = round(w.start, 3)
        dur = max(0.0, round(w.end, 3) - start)
        line = f"{file_id} {_label(w.channel)} {start:.3f} {dur:.3f} {token}"
        if w.confidence is not None:
            line += f" {w.confidence:.4f}"
        lines.append(line)
    return "\n".join(lines) + "\n"


def write_ctm(words: list[Word], path: str | Path, file_id: str = "audio") -> Path:
    """Write ``words`` as a CTM file, atomically. Spaces inside a word become '_'."""
    return atomic_write_text(path, format_ctm(words, file_id))
