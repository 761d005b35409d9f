"""The project's own conversation JSON ("redactdesk-conversation", version 1): reader and writer.

Also reads the bare words file of ``redactdesk transcribe`` (``{"words": [...]}`` without "format").
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from redactdesk.core.types import Conversation, Span, Turn, Word
from redactdesk.formats import _jsonfields as jf
from redactdesk.formats._textio import atomic_write_text, load_json
from redactdesk.formats.errors import ImportProblem
from redactdesk.formats.transcript import TranscriptImport, turns_from_words
from redactdesk.formats.validate import check_words, raise_if

FORMAT_NAME = "redactdesk-conversation"
VERSION = 1


def read_conversation_json(path: str | Path, audio_duration: float | None = None) -> Conversation:
    """Read a conversation JSON file into a Conversation (words, turns, spans, meta).

    ``audio_path`` is resolved against the JSON file's folder. Times are checked against
    ``audio_duration`` or, when not given, the file's own "duration". Raises ImportFailed.
    """
    return parse_conversation(load_json(path), path, audio_duration)


def parse_conversation(data: Any, path: str | Path | None = None,
                       audio_duration: float | None = None) -> Conversation:
    """Build a Conversation from parsed conversation JSON (see ``read_conversation_json``)."""
    problems: list[ImportProblem] = []
    if not isinstance(data, dict):
        raise_if(path, [ImportProblem("file", "expected a JSON object")])
    fmt = data.get("format")
    if fmt is not None and fmt != FORMAT_NAME:
        problems.append(ImportProblem("file", f"'format' is {fmt!r}, expected {FORMAT_NAME!r}"))
    version = data.get("version", VERSION)
    if not isinstance(version, int) or isinstance(version, bool):
        problems.append(ImportProblem("file", "'version' is not an integer"))
    elif version > VERSION:
        problems.append(ImportProblem("file", f"version {version} is newer than this redactdesk reads "
                                      f"({VERSION}); update redactdesk"))
    raise_if(path, problems)

    duration = jf.number(data, "duration", "file", problems)
    words, where = _words(data.get("words"), problems)
    limit = audio_duration if audio_duration is not None else duration
    if isinstance(data.get("words"), list):
        problems.extend(check_words(words, where, limit))
    turns = _word_ranges(data.get("turns"), "turn", Turn.from_dict, len(words), problems)
    spans = _word_ranges(data.get("spans"), "span", Span.from_dict, len(words), problems) or []
    meta = data.get("meta", {})
    if not isinstance(meta, dict):
        problems.append(ImportProblem("meta", "expected a JSON object"))
    raise_if(path, problems)

    audio = data.get("audio")
    audio_path = None
    if isinstance(audio, str) and audio:
        base = Path(path).parent if path is not None else Path(".")
        audio_path = str(Path(audio) if Path(audio).is_absolute() else base / audio)
    conv_id = data.get("id")
    if not isinstance(conv_id, str) or not conv_id:
        conv_id = Path(path).name.split(".")[0] if path is not None else "conversation"
    language = data.get("language") if isinstance(data.get("language"), str) else "en"
    return Conversation(
        id=conv_id,
        audio_path=audio_path,
        audio_sha256=data.get("audio_sha256") if isinstance(data.get("audio_sha256"), str) else None,
        sample_rate=data.get("sample_rate") if isinstance(data.get("sample_rate"), int) else None,
        channels=data.get("channels") if isinstance(data.get("channels"), int) else None,
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
        n0 = len(problems)
        text = jf.text(d, ("text",), loc, problems)
        start = jf.number(d, "start", loc, problems, required=True)
        end = jf.number(d, "end", loc, problems, required=True)
        conf = jf.number(d, "confidence", loc, problems)
        channel = d.get("channel")
        if channel is not None and (isinstance(channel, bool) or not isinstance(channel, int)):
            problems.append(ImportProblem(loc, "'channel' is not an integer"))
        if len(problems) > n0:
            continue
        words.append(Word(text=text or "", start=start, end=end, confidence=conf,
                          speaker=jf.speaker(d.get("speaker")), channel=channel,
                          aligned=bool(d.get("aligned", True))))
        where.append(loc)
    return words, where


def _word_ranges(raw: Any, kind: str, parse: Any, n_words: int, problems: list[ImportProblem]) -> list | None:
    """Turns or spans (``parse`` = Turn.from_dict / Span.from_dict) whose word ranges fit the words;
    None when absent. Every bad item is reported with its number."""
    if raw is None:
        return None
    if not isinstance(raw, list):
        problems.append(ImportProblem("file", f"'{kind}s' is not a list"))
        return None
    out = []
    for i, d in enumerate(raw, 1):
        loc = f"{kind} {i}"
        try:
            item = parse(d)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            problems.append(ImportProblem(loc, f"malformed {kind} ({_why(exc)})"))
            continue
        if not 0 <= item.start_word < item.end_word <= n_words:
            problems.append(ImportProblem(loc, f"word range [{item.start_word}, {item.end_word}) is outside "
                                          f"the {n_words} words"))
            continue
        out.append(item)
    return out


def _why(exc: Exception) -> str:
    if isinstance(exc, KeyError):
        return f"missing {exc}"
    return str(exc).split("\n")[0][:120]


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
