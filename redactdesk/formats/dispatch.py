"""One entry point for transcripts: pick the reader by name, extension or content."""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path

from redactdesk.core.types import SpanStatus
from redactdesk.formats._textio import load_json, open_regular
from redactdesk.formats.conversation_json import FORMAT_NAME, conversation_to_import, parse_conversation
from redactdesk.formats.ctm import read_ctm
from redactdesk.formats.eaf import read_eaf
from redactdesk.formats.errors import fail
from redactdesk.formats.limits import MAX_TRANSCRIPT_BYTES
from redactdesk.formats.span_tier import spans_from_intervals
from redactdesk.formats.stm import read_stm
from redactdesk.formats.subtitles import read_srt, read_vtt
from redactdesk.formats.textgrid import read_textgrid
from redactdesk.formats.transcript import TranscriptImport
from redactdesk.formats.validate import raise_if
from redactdesk.formats.whisperx import parse_whisperx

FORMATS = ("whisperx", "conversation", "words", "ctm", "stm", "textgrid", "eaf", "vtt", "srt")
_BY_SUFFIX = {".ctm": "ctm", ".stm": "stm", ".textgrid": "textgrid", ".eaf": "eaf", ".vtt": "vtt", ".srt": "srt"}


def detect_format(path: str | Path) -> str | None:
    """The format name for ``path`` from its extension or, failing that, its first bytes (or None)."""
    p = Path(path)
    name = p.name.lower()
    if name.endswith(".whisperx.json"):
        return "whisperx"
    if p.suffix.lower() == ".json":
        return "json"  # decided from content by read_transcript
    if p.suffix.lower() in _BY_SUFFIX:
        return _BY_SUFFIX[p.suffix.lower()]
    fh, _ = open_regular(p, MAX_TRANSCRIPT_BYTES, "transcript")
    try:
        with fh:
            head = fh.read(4096)
    except OSError:
        return None
    if head[:2] in (b"\xff\xfe", b"\xfe\xff"):  # UTF-16 (Praat writes TextGrids so)
        head = head.decode("utf-16", errors="ignore").encode("utf-8")
    head = head.removeprefix(b"\xef\xbb\xbf")
    if head.startswith(b"WEBVTT"):
        return "vtt"
    if b"ooTextFile" in head:
        return "textgrid"
    if b"<ANNOTATION_DOCUMENT" in head:
        return "eaf"
    if head.lstrip()[:1] in (b"{", b"["):
        return "json"
    return None


def read_transcript(path: str | Path, audio_duration: float | None = None, fmt: str | None = None, *,
                    span_tier: str | None = None, span_status: SpanStatus = SpanStatus.SUGGESTED,
                    categories: Collection[str] | None = None) -> TranscriptImport:
    """Read any supported transcript; ``fmt`` (one of FORMATS) overrides detection.

    ``span_tier`` (TextGrid and EAF only) names a tier of items read as spans with ``span_status``;
    their labels must name one of ``categories`` (default: the bundled taxonomy's).

    JSON files are told apart by content: ``"format": "redactdesk-conversation"`` → the project's
    own JSON; ``segments``/``word_segments`` → whisperx; a bare ``words`` list → the words file of
    ``redactdesk transcribe``. When ``audio_duration`` is given, every word must lie inside it
    (50 ms tolerance). Raises ImportFailed listing every problem; returns nothing half-read.
    """
    p = Path(path)
    if fmt is not None and fmt not in FORMATS:
        raise ValueError(f"unknown transcript format {fmt!r}; use one of {', '.join(FORMATS)}")
    fh, _ = open_regular(p, MAX_TRANSCRIPT_BYTES, "transcript")  # regular, within the limit, or ImportFailed
    fh.close()
    kind = fmt or detect_format(p)
    if kind in ("json", "whisperx", "conversation", "words"):
        data = load_json(p)
        if kind == "json":
            kind = _json_kind(data)
            if kind is None:
                raise fail(p, "file", "JSON of unknown shape: expected whisperx output ('segments'), "
                           f"a redactdesk conversation ('format': '{FORMAT_NAME}') or a 'words' list")
        if kind == "whisperx":
            return parse_whisperx(data, p, audio_duration)
        return conversation_to_import(parse_conversation(data, p, audio_duration), kind)
    readers = {"ctm": read_ctm, "stm": read_stm, "textgrid": read_textgrid, "eaf": read_eaf, "vtt": read_vtt,
               "srt": read_srt}
    if kind not in readers:
        raise fail(p, "file", f"unknown transcript format; supported: {', '.join(FORMATS)}")
    if span_tier is None:
        return readers[kind](p, audio_duration)
    if kind not in ("textgrid", "eaf"):
        raise fail(p, "file", "a span tier can be read from TextGrid and EAF files only")
    t = readers[kind](p, audio_duration, span_tier=span_tier)
    if categories is None:
        from redactdesk.resources import load_taxonomy

        categories = load_taxonomy().ids()
    spans, problems = spans_from_intervals(t.words, t.span_intervals, categories, span_status)
    raise_if(p, problems)
    t.spans, t.span_intervals = spans, []
    return t


def _json_kind(data: object) -> str | None:
    if not isinstance(data, dict):
        return None
    if data.get("format") == FORMAT_NAME:
        return "conversation"
    if "segments" in data or "word_segments" in data:
        return "whisperx"
    if "words" in data:
        return "words"
    return None
