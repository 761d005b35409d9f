"""whisperx JSON: ``segments[].words[]`` (word/start/end/score/speaker) or top-level ``word_segments``.

whisperx leaves some words (often numbers) without start/end; they are kept with times estimated
by ``fill_missing_times`` and ``aligned=False``. Segments without a ``words`` list (plain Whisper
output) have their text spread over the segment's times, also unaligned.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from redactdesk.core.types import Word
from redactdesk.formats import _jsonfields as jf
from redactdesk.formats._textio import load_json
from redactdesk.formats.errors import ImportProblem, Problems
from redactdesk.formats.limits import MAX_WORD_CHARS
from redactdesk.formats.timing_fill import fill_missing_times, is_missing
from redactdesk.formats.transcript import TranscriptImport, spread, turns_from_words
from redactdesk.formats.validate import check_words, raise_if

NAN = math.nan


def read_whisperx(path: str | Path, audio_duration: float | None = None) -> TranscriptImport:
    """Read a whisperx JSON file. Raises ImportFailed listing every problem."""
    return parse_whisperx(load_json(path), path, audio_duration)


def parse_whisperx(data: Any, path: str | Path | None = None,
                   audio_duration: float | None = None) -> TranscriptImport:
    """Read already-parsed whisperx JSON (see ``read_whisperx``)."""
    problems = Problems()
    warnings: list[str] = []
    if not isinstance(data, dict):
        raise_if(path, [ImportProblem("file", "expected a JSON object with 'segments'")])
    words: list[Word] = []
    where: list[str] = []
    spread_segments = 0
    segments = data.get("segments")
    if isinstance(segments, list) and segments:
        for si, seg in enumerate(segments, 1):
            loc = f"segment {si}"
            if not isinstance(seg, dict):
                problems.append(ImportProblem(loc, "expected a JSON object"))
                continue
            seg_start = jf.number(seg, "start", loc, problems)
            seg_end = jf.number(seg, "end", loc, problems)
            seg_speaker = jf.label(seg, "speaker", loc, problems)
            raw = seg.get("words")
            if raw is None:
                got = _spread_segment(seg, loc, seg_start, seg_end, seg_speaker, problems)
                if got:
                    spread_segments += 1
                words.extend(got)
                where.extend(f"{loc}, word {wi}" for wi in range(1, len(got) + 1))
                continue
            if not isinstance(raw, list):
                problems.append(ImportProblem(loc, "'words' is not a list"))
                continue
            seg_words: list[Word] = []
            for wi, wd in enumerate(raw, 1):
                w = _word(wd, f"{loc}, word {wi}", seg_speaker, problems)
                if w is not None:
                    seg_words.append(w)
                    where.append(f"{loc}, word {wi}")
            words.extend(fill_missing_times(seg_words, seg_start, seg_end))
    elif segments is not None and not isinstance(segments, list):
        problems.append(ImportProblem("file", "'segments' is not a list"))
    elif isinstance(data.get("word_segments"), list) and data["word_segments"]:
        for wi, wd in enumerate(data["word_segments"], 1):
            w = _word(wd, f"word_segments {wi}", None, problems)
            if w is not None:
                words.append(w)
                where.append(f"word_segments {wi}")
    elif "segments" not in data and "word_segments" not in data:
        problems.append(ImportProblem("file", "no 'segments' or 'word_segments' list: not whisperx output"))
    elif "word_segments" in data and not isinstance(data["word_segments"], list):
        problems.append(ImportProblem("file", "'word_segments' is not a list"))
    language = jf.language(data, "file", problems)

    words = fill_missing_times(words)  # runs a segment could not anchor, and word_segments
    timed = [i for i, w in enumerate(words) if not is_missing(w)]
    problems.extend(
        ImportProblem(where[i], "no time, and no timed word or segment to estimate it from")
        for i, w in enumerate(words) if is_missing(w)
    )
    if timed or not words:
        problems.extend(check_words([words[i] for i in timed], [where[i] for i in timed], audio_duration))
    raise_if(path, problems)

    n_est = sum(1 for w in words if not w.aligned)
    if n_est:
        warnings.append(f"{n_est} word(s) had no times; estimated times given (marked unaligned)")
    if spread_segments:
        warnings.append(f"{spread_segments} segment(s) had no word list; their times were spread over their words")
    return TranscriptImport(words=words, turns=turns_from_words(words), language=language,
                            warnings=warnings, format="whisperx")


def _word(wd: Any, loc: str, seg_speaker: str | None, problems: list[ImportProblem]) -> Word | None:
    if not isinstance(wd, dict):
        problems.append(ImportProblem(loc, "expected a JSON object"))
        return None
    n0 = jf.seen(problems)
    text = jf.text(wd, ("word", "text"), loc, problems, max_chars=MAX_WORD_CHARS)
    start = jf.number(wd, "start", loc, problems)
    end = jf.number(wd, "end", loc, problems)
    score = jf.number(wd, "score", loc, problems)
    speaker = jf.label(wd, "speaker", loc, problems)
    if jf.seen(problems) > n0:
        return None
    timed = start is not None and end is not None
    return Word(
        text=text or "",
        start=start if timed else NAN,
        end=end if timed else NAN,
        confidence=score if jf.finite(score) else None,
        speaker=speaker or seg_speaker,
        aligned=timed,
    )


def _spread_segment(seg: dict, loc: str, start: float | None, end: float | None, speaker: str | None,
                    problems: list[ImportProblem]) -> list[Word]:
    text = jf.text(seg, ("text",), loc, problems, max_chars=MAX_WORD_CHARS * 1000)
    if text is None:
        return []
    tokens = text.split()
    if not tokens:
        return []
    if start is None or end is None:
        problems.append(ImportProblem(loc, "has neither a 'words' list nor start and end times"))
        return []
    return [Word(text=t, start=s, end=e, speaker=speaker, aligned=False)
            for t, (s, e) in zip(tokens, spread(start, end, len(tokens)), strict=True)]
