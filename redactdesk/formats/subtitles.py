"""WebVTT and SRT subtitles: readers and simple writers.

Subtitles time cues, not words: a cue's time is spread evenly over its words, and every word is
``aligned=False``. Inline WebVTT timestamps (``<00:00:01.500>``) split a cue into finer chunks.
Voice tags ``<v Name>`` give the speaker. Tokens without letters or digits ("-", "♪") are dropped.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

from redactdesk.core.types import Word
from redactdesk.formats._textio import read_text
from redactdesk.formats.errors import ImportProblem, Problems
from redactdesk.formats.files import atomic_write_text
from redactdesk.formats.limits import MAX_LABEL_CHARS
from redactdesk.formats.transcript import TranscriptImport, spread, turns_from_words
from redactdesk.formats.validate import check_words, raise_if

# Every pattern is anchored and free of nested or overlapping quantifiers, so it runs in linear
# time on any line; tags are found with str.find (a regex over "<<<<..." would be quadratic).
_TS = r"(?:([0-9]{1,6}):)?([0-9]{1,2}):([0-9]{2})[.,]([0-9]{1,3})"
_TIMING = re.compile(rf"[ \t]*{_TS}[ \t]*-->[ \t]*{_TS}(?:[ \t][^\n]*)?")
_INLINE_TS = re.compile(_TS)
_VOICE = re.compile(r"v(?:\.[^\s]*)?\s+(.+)", re.DOTALL)


def _seconds(h: str | None, m: str, s: str, frac: str) -> float:
    return int(h or 0) * 3600 + int(m) * 60 + int(s) + int(frac.ljust(3, "0")) / 1000.0


def read_vtt(path: str | Path, audio_duration: float | None = None) -> TranscriptImport:
    """Read a WebVTT file. Raises ImportFailed listing every problem."""
    return parse_subtitles(read_text(path), "vtt", path, audio_duration)


def read_srt(path: str | Path, audio_duration: float | None = None) -> TranscriptImport:
    """Read an SRT file. Raises ImportFailed listing every problem."""
    return parse_subtitles(read_text(path), "srt", path, audio_duration)


def _blocks(text: str) -> list[list[tuple[int, str]]]:
    blocks: list[list[tuple[int, str]]] = []
    cur: list[tuple[int, str]] = []
    for ln, line in enumerate(text.split("\n"), 1):
        if line.strip():
            cur.append((ln, line.rstrip()))
        elif cur:
            blocks.append(cur)
            cur = []
    if cur:
        blocks.append(cur)
    return blocks


def parse_subtitles(text: str, kind: str, path: str | Path | None = None,
                    audio_duration: float | None = None) -> TranscriptImport:
    """Parse WebVTT (``kind="vtt"``) or SRT (``kind="srt"``) text."""
    problems = Problems()
    blocks = _blocks(text.lstrip("\ufeff"))
    if kind == "vtt":
        if not blocks or not blocks[0][0][1].startswith("WEBVTT"):
            raise_if(path, [ImportProblem("line 1", "missing the 'WEBVTT' header: not a WebVTT file")])
        blocks = blocks[1:]
    words: list[Word] = []
    where: list[str] = []
    n_cue = 0
    for block in blocks:
        first = block[0][1].strip()
        if kind == "vtt" and first.split(" ")[0] in ("NOTE", "STYLE", "REGION"):
            continue
        timing_at = next((k for k, (_, line) in enumerate(block) if "-->" in line), None)
        n_cue += 1
        if timing_at is None or timing_at > 1:
            problems.append(ImportProblem(f"cue {n_cue} (line {block[0][0]})", "no timing line ('start --> end')"))
            continue
        ln, timing = block[timing_at]
        loc = f"cue {n_cue} (line {ln})"
        m = _TIMING.fullmatch(timing)
        if not m:
            problems.append(ImportProblem(loc, "malformed timing line (expected 'HH:MM:SS.mmm --> HH:MM:SS.mmm')"))
            continue
        start, end = _seconds(*m.groups()[:4]), _seconds(*m.groups()[4:])
        if start > end:
            problems.append(ImportProblem(loc, "starts after it ends"))
            continue
        payload = "\n".join(line for _, line in block[timing_at + 1 :])
        for w in _cue_words(payload, start, end, loc, problems):
            words.append(w)
            where.append(loc)
    problems.extend(check_words(words, where, audio_duration) if words or not problems else [])
    raise_if(path, problems)
    warnings = [f"subtitle cue times were spread over {len(words)} words (all marked unaligned)"]
    return TranscriptImport(words=words, turns=turns_from_words(words), warnings=warnings, format=kind)


def _split_tags(payload: str) -> list[tuple[str, str | None]]:
    """``payload`` as (text before a tag, the tag's inside) pairs, the last with tag None.

    A tag runs from '<' to the next '>'; a '<' with no '>' after it is text. Linear time: each
    character is looked at a bounded number of times (no backtracking regex).
    """
    out: list[tuple[str, str | None]] = []
    pos = 0
    while True:
        lt = payload.find("<", pos)
        gt = payload.find(">", lt + 1) if lt >= 0 else -1
        if lt < 0 or gt < 0:
            out.append((payload[pos:], None))
            return out
        out.append((payload[pos:lt], payload[lt + 1 : gt]))
        pos = gt + 1


def _cue_words(payload: str, start: float, end: float, loc: str, problems: list[ImportProblem]) -> list[Word]:
    # chunks: (anchor time, [(token, speaker)]) split by inline timestamps
    chunks: list[tuple[float, list[tuple[str, str | None]]]] = [(start, [])]
    speaker: str | None = None
    for seg, tag in _split_tags(payload):
        for tok in html.unescape(seg).split():
            if any(c.isalnum() for c in tok):
                chunks[-1][1].append((tok, speaker))
        if tag is None:
            break
        tag = tag.strip()
        if (v := _VOICE.fullmatch(tag)) is not None:
            speaker = html.unescape(v.group(1)).strip() or None
            if speaker is not None and len(speaker) > MAX_LABEL_CHARS:
                problems.append(ImportProblem(loc, f"voice name longer than {MAX_LABEL_CHARS} characters"))
                speaker = None
        elif tag == "/v":
            speaker = None
        elif (t := _INLINE_TS.fullmatch(tag)) is not None:
            at = _seconds(*t.groups())
            if not start <= at <= end:
                problems.append(ImportProblem(loc, "an inline timestamp lies outside the cue"))
                at = min(max(at, chunks[-1][0]), end)
            chunks.append((max(at, chunks[-1][0]), []))
    words: list[Word] = []
    for k, (t0, toks) in enumerate(chunks):
        t1 = chunks[k + 1][0] if k + 1 < len(chunks) else end
        for (tok, spk), (s, e) in zip(toks, spread(t0, t1, len(toks)), strict=True):
            words.append(Word(text=tok, start=s, end=e, speaker=spk, aligned=False))
    return words


def _cues(words: list[Word], max_words: int, max_gap: float) -> list[list[Word]]:
    cues: list[list[Word]] = []
    for w in words:
        cur = cues[-1] if cues else None
        if (cur is None or len(cur) >= max_words or w.speaker != cur[-1].speaker
                or w.channel != cur[-1].channel or w.start - cur[-1].end > max_gap):
            cues.append([w])
        else:
            cur.append(w)
    return cues


def _stamp(t: float, sep: str = ".") -> str:
    ms = int(round(max(0.0, t) * 1000))
    h, ms = divmod(ms, 3_600_000)
    m, ms = divmod(ms, 60_000)
    s, ms = divmod(ms, 1000)
    return f"{h:02d}:{m:02d}:{s:02d}{sep}{ms:03d}"


def _esc(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def format_vtt(words: list[Word], max_words: int = 12, max_gap: float = 1.0) -> str:
    """WebVTT text: one cue per speaker run (at most ``max_words``, split at pauses over ``max_gap`` s).

    Each word after a cue's first carries an inline timestamp, so re-reading recovers word starts.
    """
    out = ["WEBVTT", ""]
    for cue in _cues(words, max_words, max_gap):
        start, end = cue[0].start, max(w.end for w in cue)
        out.append(f"{_stamp(start)} --> {_stamp(max(end, start))}")
        voice = f"<v {_esc(cue[0].speaker)}>" if cue[0].speaker else ""
        parts = [_esc(cue[0].text)] + [f"<{_stamp(w.start)}>{_esc(w.text)}" for w in cue[1:]]
        out.append(voice + " ".join(parts))
        out.append("")
    return "\n".join(out)


def format_srt(words: list[Word], max_words: int = 12, max_gap: float = 1.0) -> str:
    """SRT text, cues as in ``format_vtt`` (no speakers, no word times)."""
    out: list[str] = []
    for n, cue in enumerate(_cues(words, max_words, max_gap), 1):
        start, end = cue[0].start, max(w.end for w in cue)
        out += [str(n), f"{_stamp(start, ',')} --> {_stamp(max(end, start), ',')}",
                " ".join(w.text for w in cue), ""]
    return "\n".join(out)


def write_vtt(words: list[Word], path: str | Path, max_words: int = 12, max_gap: float = 1.0) -> Path:
    """Write ``words`` as WebVTT, atomically."""
    return atomic_write_text(path, format_vtt(words, max_words, max_gap))


def write_srt(words: list[Word], path: str | Path, max_words: int = 12, max_gap: float = 1.0) -> Path:
    """Write ``words`` as SRT, atomically."""
    return atomic_write_text(path, format_srt(words, max_words, max_gap))
