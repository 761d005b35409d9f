"""Bring recordings (and optional transcripts) into a project, all-or-nothing per recording."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from redactdesk.core.types import Conversation, ConversationStatus, SpanStatus
from redactdesk.pipeline.progress import CancelFn, ProgressFn, track
from redactdesk.store import Project

TRANSCRIPT_SUFFIXES = (".whisperx.json", ".json", ".ctm", ".TextGrid", ".textgrid", ".eaf", ".vtt", ".srt")
AUDIO_SUFFIXES = (".wav", ".flac", ".ogg", ".mp3")


@dataclass
class ImportResult:
    conversation_id: str
    words: int
    unaligned: int
    spans: int
    warnings: list[str] = field(default_factory=list)


def conversation_id_for(project: Project, audio_path: Path, wanted: str | None = None) -> str:
    """A readable, unique id: the given one, or the audio file's stem (made unique with a suffix)."""
    if wanted:
        if project.has_conversation(wanted):
            raise ValueError(f"a conversation called {wanted!r} already exists")
        return wanted
    stem = audio_path.name
    for suffix in AUDIO_SUFFIXES:
        if stem.lower().endswith(suffix):
            stem = stem[: -len(suffix)]
    base = re.sub(r"[^A-Za-z0-9_.-]+", "_", stem) or "conversation"
    cid, n = base, 2
    while project.has_conversation(cid):
        cid, n = f"{base}_{n}", n + 1
    return cid


def find_sidecar_transcript(audio_path: Path) -> Path | None:
    """A transcript next to the audio with the same stem (call.wav -> call.whisperx.json, call.ctm, ...)."""
    stem = audio_path.with_suffix("")
    for suffix in TRANSCRIPT_SUFFIXES:
        candidate = Path(str(stem) + suffix)
        if candidate.exists():
            return candidate
    return None


def import_recording(project: Project, audio_path: str | Path, transcript_path: str | Path | None = None, *,
                     conversation_id: str | None = None, language: str | None = None,
                     keep_spans_as: SpanStatus | None = None) -> ImportResult:
    """Probe the audio, read and validate the transcript, and store one conversation in one transaction.

    Raises ``redactdesk.formats.ImportFailed`` listing every problem; nothing is written then.
    ``keep_spans_as`` keeps spans carried by the transcript (the project's own JSON) with that status;
    by default they are kept as they are.
    """
    from redactdesk.formats import probe_audio, read_transcript

    audio = Path(audio_path)
    info = probe_audio(audio)
    conv = Conversation(
        id=conversation_id_for(project, audio, conversation_id),
        audio_path=str(audio.resolve()), audio_sha256=info.sha256, sample_rate=info.sample_rate,
        channels=info.channels, duration=info.duration, language=language or "en",
    )
    warnings: list[str] = []
    if transcript_path is not None:
        t = read_transcript(transcript_path, audio_duration=info.duration)
        conv.words, conv.turns, warnings = t.words, t.turns, list(t.warnings)
        conv.language = language or t.language or "en"
        conv.status = ConversationStatus.TRANSCRIBED
        conv.meta["transcript_source"] = {"format": t.format, "file": Path(transcript_path).name}
        for span in t.spans:
            if keep_spans_as is not None:
                span.status = keep_spans_as
            span.id = None
        conv.spans = list(t.spans)
    project.add_conversation(conv)
    return ImportResult(conv.id, len(conv.words), sum(not w.aligned for w in conv.words), len(conv.spans), warnings)


def import_many(project: Project, audio_paths: list[Path], *, language: str | None = None,
                progress: ProgressFn | None = None, cancel: CancelFn | None = None) -> list[ImportResult]:
    """Import several recordings, each with its sidecar transcript when one exists."""
    results = []
    for audio in track(audio_paths, len(audio_paths), progress, cancel, label=lambda p: p.name):
        results.append(import_recording(project, audio, find_sidecar_transcript(audio), language=language))
    return results
