"""The project's own conversation JSON ("redactdesk-conversation", version 1): reader and writer.

Also reads the bare words file of ``redactdesk transcribe`` (``{"words": [...]}`` without "format").
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path
from typing import Any

from redactdesk.core.ids import ID_RULE, is_safe_id, safe_id_from
from redactdesk.core.types import Conversation, Span, SpanStatus, Turn, Word
from redactdesk.formats import _jsonfields as jf
from redactdesk.formats._textio import load_json
from redactdesk.formats.errors import ImportProblem, Problems
from redactdesk.formats.files import atomic_write_text
from redactdesk.formats.limits import MAX_CHANNEL, MAX_LABEL_CHARS, MAX_SECONDS, MAX_WORD_CHARS
from redactdesk.formats.transcript import TranscriptImport, turns_from_words
from redactdesk.formats.validate import check_words, raise_if

FORMAT_NAME = "redactdesk-conversation"
VERSION = 1
_STATUSES = frozenset(s.value for s in SpanStatus)
_HEX = frozenset("0123456789abcdefABCDEF")
_MAX_ROW_ID = 2**63 - 1  # SQLite's largest integer key


def read_conversation_json(path: str | Path, audio_duration: float | None = None) -> Conversation:
    """Read a conversation JSON file into a Conversation (words, turns, spans, meta).

    ``audio_path`` is resolved against the JSON file's folder. Times are checked against
    ``audio_duration`` or, when not given, the file's own "duration". Raises ImportFailed.
    """
    return parse_conversation(load_json(path), path, audio_duration)


def parse_conversation(data: Any, path: str | Path | None = None,
                       audio_duration: float | None = None) -> Conversation:
    """Build a Conversation from parsed conversation JSON (see ``read_conversation_json``).

    Every field is type- and range-checked; the "id" must follow the conversation id rule
    (``redactdesk.core.ids``); when absent, an id is made from the file name.
    """
    problems = Problems()
    if not isinstance(data, dict):
        raise_if(path, [ImportProblem("file", "expected a JSON object")])
    fmt = data.get("format")
    if fmt is not None and fmt != FORMAT_NAME:
        problems.append(ImportProblem("file", f"'format' is not {FORMAT_NAME!r}"))
    version = data.get("version", VERSION)
    if not isinstance(version, int) or isinstance(version, bool):
        problems.append(ImportProblem("file", "'version' is not a whole number"))
    elif version > VERSION:
        problems.append(ImportProblem("file", f"the file's version is newer than this redactdesk reads "
                                      f"({VERSION}); update redactdesk"))
    raise_if(path, problems)

    duration = jf.number(data, "duration", "file", problems)
    if duration is not None and not (math.isfinite(duration) and 0 <= duration <= MAX_SECONDS):
        problems.append(ImportProblem("file", f"'duration' is not a time between 0 and {MAX_SECONDS:.0f} s"))
        duration = None
    words, where = _words(data.get("words"), problems)
    limit = audio_duration if audio_duration is not None else duration
    if isinstance(data.get("words"), list):
        problems.extend(check_words(words, where, limit))
    turns = _ranges(data.get("turns"), "turn", _turn, len(words), problems)
    spans = _ranges(data.get("spans"), "span", _span, len(words), problems) or []
    meta = data.get("meta", {})
    if meta is None:
        meta = {}
    if not isinstance(meta, dict):
        problems.append(ImportProblem("meta", f"expected a JSON object (found {jf.type_name(meta)})"))
        meta = {}

    audio = data.get("audio")
    audio_path = None
    if audio is not None and audio != "":
        if not isinstance(audio, str) or len(audio) > 4096 or not audio.isprintable():
            problems.append(ImportProblem("file", "'audio' is not a usable file name"))
        else:
            base = Path(path).parent if path is not None else Path(".")
            audio_path = str(Path(audio) if Path(audio).is_absolute() else base / audio)
    conv_id = data.get("id")
    if conv_id is None or conv_id == "":
        stem = Path(path).name.split(".")[0] if path is not None else ""
        conv_id = safe_id_from(stem)
    elif not is_safe_id(conv_id):
        problems.append(ImportProblem("file", f"'id' is not a valid conversation id: {ID_RULE}"))
    language = jf.language(data, "file", problems) or "en"
    sha = data.get("audio_sha256")
    if sha is not None and not (isinstance(sha, str) and len(sha) == 64 and all(c in _HEX for c in sha)):
        problems.append(ImportProblem("file", "'audio_sha256' is not 64 hexadecimal digits"))
        sha = None
    sample_rate = jf.integer(data, "sample_rate", "file", problems, lo=1, hi=1_000_000)
    channels = jf.integer(data, "channels", "file", problems, lo=1, hi=MAX_CHANNEL)
    raise_if(path, problems)
    return Conversation(
        id=conv_id,
        audio_path=audio_path,
        audio_sha256=sha,
        sample_rate=sample_rate,
        channels=channels,
        duration=duration,
        language=language,
        words=words,
        turns=turns if turns else turns_from_words(words),
        spans=spans,
        meta=dict(meta),
    )


def conversation_to_import(conv: Conversation, fmt: str = "conversation") -> TranscriptImport:
    """The TranscriptImport view of a Conversation read from JSON."""
    return TranscriptImport(words=conv.words, turns=conv.turns, language=conv.language, format=fmt,
                            spans=conv.spans, duration=conv.duration, audio=conv.audio_path, meta=conv.meta)


def _words(raw: Any, problems: list[ImportProblem]) -> tuple[list[Word], list[str]]:
    if raw is None:
        problems.append(ImportProblem("file", "missing 'words' list"))
        return [], []
    if not isinstance(raw, list):
        problems.append(ImportProblem("file", "'words' is not a list"))
        return [], []
    words: list[Word] = []
    where: list[str] = []
    for i, d in enumerate(raw, 1):
        loc = f"word {i}"
        if not isinstance(d, dict):
            problems.append(ImportProblem(loc, "expected a JSON object"))
            continue
        n0 = jf.seen(problems)
        text = jf.text(d, ("text",), loc, problems, max_chars=MAX_WORD_CHARS)
        start = jf.number(d, "start", loc, problems, required=True)
        end = jf.number(d, "end", loc, problems, required=True)
        conf = jf.number(d, "confidence", loc, problems)
        speaker = jf.label(d, "speaker", loc, problems)
        channel = jf.channel(d, loc, problems)
        aligned = jf.flag(d, "aligned", loc, problems, default=True)
        if jf.seen(problems) > n0:
            continue
        words.append(Word(text=text or "", start=start, end=end,
                          confidence=conf if jf.finite(conf) else None,
                          speaker=speaker, channel=channel, aligned=aligned))
        where.append(loc)
    return words, where


def _ranges(raw: Any, kind: str, parse: Any, n_words: int, problems: list[ImportProblem]) -> list | None:
    """Turns or spans (``parse`` = _turn / _span) whose word ranges fit the words; None when absent.
    Every bad item is reported with its number."""
    if raw is None:
        return None
    if not isinstance(raw, list):
        problems.append(ImportProblem("file", f"'{kind}s' is not a list"))
        return None
    out = []
    for i, d in enumerate(raw, 1):
        loc = f"{kind} {i}"
        if not isinstance(d, dict):
            problems.append(ImportProblem(loc, f"expected a JSON object (found {jf.type_name(d)})"))
            continue
        n0 = jf.seen(problems)
        start = jf.integer(d, "start_word", loc, problems, required=True)
        end = jf.integer(d, "end_word", loc, problems, required=True)
        item = parse(d, loc, problems)
        if jf.seen(problems) > n0 or start is None or end is None or item is None:
            continue
        if not start < end <= n_words:
            problems.append(ImportProblem(loc, f"word range is empty or outside the {n_words} words"))
            continue
        item.start_word, item.end_word = start, end
        out.append(item)
    return out


def _turn(d: dict[str, Any], loc: str, problems: list[ImportProblem]) -> Turn | None:
    speaker = jf.label(d, "speaker", loc, problems)
    if speaker is None and "speaker" not in d:
        problems.append(ImportProblem(loc, "missing 'speaker'"))
    channel = jf.channel(d, loc, problems)
    return Turn(speaker=speaker or "", start_word=0, end_word=1, channel=channel)


def _span(d: dict[str, Any], loc: str, problems: list[ImportProblem]) -> Span | None:
    n0 = jf.seen(problems)
    category = d.get("category")
    if category is None:
        problems.append(ImportProblem(loc, "missing 'category'"))
    elif not isinstance(category, str) or not 1 <= len(category) <= MAX_LABEL_CHARS:
        problems.append(ImportProblem(loc, f"'category' is not a name of 1–{MAX_LABEL_CHARS} characters"))
    status = d.get("status", SpanStatus.SUGGESTED.value)
    if not isinstance(status, str) or status not in _STATUSES:
        problems.append(ImportProblem(loc, f"'status' is not one of {', '.join(sorted(_STATUSES))}"))
    score = jf.number(d, "score", loc, problems)
    if score is not None and not 0.0 <= score <= 1.0:  # NaN fails too
        problems.append(ImportProblem(loc, "'score' is not between 0 and 1"))
    sources = d.get("sources", [])
    if sources is None:
        sources = []
    if not isinstance(sources, list) or not all(isinstance(s, str) and len(s) <= MAX_LABEL_CHARS for s in sources):
        problems.append(ImportProblem(loc, "'sources' is not a list of names"))
    reason = d.get("reason", "")
    if reason is None:
        reason = ""
    if not isinstance(reason, str) or len(reason) > 4 * MAX_LABEL_CHARS:
        problems.append(ImportProblem(loc, f"'reason' is not a text of at most {4 * MAX_LABEL_CHARS} characters"))
    entity = jf.label(d, "entity", loc, problems)
    span_id = jf.integer(d, "id", loc, problems, lo=1, hi=_MAX_ROW_ID)
    if jf.seen(problems) > n0:
        return None
    return Span(start_word=0, end_word=1, category=category, status=SpanStatus(status),
                score=1.0 if score is None else score, sources=tuple(sources), reason=reason,
                entity=entity, id=span_id)


def conversation_to_dict(conv: Conversation, audio_rel: str | None = None) -> dict[str, Any]:
    """The JSON-able dict of a Conversation (``audio_rel`` is stored as "audio" when given)."""
    d: dict[str, Any] = {"format": FORMAT_NAME, "version": VERSION, "id": conv.id, "language": conv.language}
    if audio_rel is not None:
        d["audio"] = audio_rel
    if conv.audio_sha256:
        d["audio_sha256"] = conv.audio_sha256
    d.update(duration=conv.duration, sample_rate=conv.sample_rate, channels=conv.channels)
    d["words"] = [w.to_dict() for w in conv.words]
    d["turns"] = [t.to_dict() for t in conv.turns]
    d["spans"] = [s.to_dict() for s in conv.spans]
    d["meta"] = conv.meta
    return d


def write_conversation_json(conv: Conversation, path: str | Path, audio_rel: str | None = None) -> Path:
    """Write ``conv`` as conversation JSON, atomically. Returns the path written.

    "audio" is ``audio_rel`` when given; otherwise ``conv.audio_path`` relative to the JSON's folder
    (absolute when it cannot be made relative); absent when the conversation has no audio path.
    """
    p = Path(path)
    if audio_rel is None and conv.audio_path:
        try:
            audio_rel = Path(os.path.relpath(Path(conv.audio_path).resolve(), p.parent.resolve())).as_posix()
        except ValueError:  # another drive on Windows
            audio_rel = str(Path(conv.audio_path).resolve())
    text = json.dumps(conversation_to_dict(conv, audio_rel), ensure_ascii=False, indent=1, allow_nan=False)
    return atomic_write_text(p, text + "\n")
