"""Bring recordings (and optional transcripts) into a project, all-or-nothing per recording."""

from __future__ import annotations

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
    """A readable, unique id that is safe as a file name (``redactdesk.core.ids``): the given one,
    or one made from the audio file's stem (cut to 64 characters, made unique with a suffix).

    Raises ``IdError`` (a ValueError; the message never repeats the id) when ``wanted`` breaks the
    id rule or is taken. Ids differing only in letter case count as taken: a release folder on a
    case-insensitive disk could not hold both.
    """
    from redactdesk.core.ids import IdError, check_id, safe_id_from, unique_id

    taken_folded = {c.casefold() for c in project.conversation_ids()}
    if wanted is not None:
        check_id(wanted)
        if wanted.casefold() in taken_folded:
            raise IdError("a conversation with this id already exists (ids are compared ignoring case)")
        return wanted
    stem = audio_path.name
    for suffix in AUDIO_SUFFIXES:
        if stem.lower().endswith(suffix):
            stem = stem[: -len(suffix)]
    return unique_id(safe_id_from(stem), lambda cid: cid.casefold() in taken_folded)


def find_sidecar_transcript(audio_path: Path) -> Path | None:
    """A transcript next to the audio with the same stem (call.wav -> call.whisperx.json, call.ctm, ...)."""
    stem = audio_path.with_suffix("")
    for suffix in TRANSCRIPT_SUFFIXES:
        candidate = Path(str(stem) + suffix)
        try:
            if candidate.exists():
                return candidate
        except OSError:  # a name too long for the file system cannot exist
            continue
    return None


def import_recording(project: Project, audio_path: str | Path, transcript_path: str | Path | None = None, *,
                     conversation_id: str | None = None, language: str | None = None,
                     keep_spans_as: SpanStatus | None = None, span_tier: str | None = None,
                     transcript_format: str | None = None, transcript_name: str | None = None) -> ImportResult:
    """Probe the audio, read and validate the transcript, and store one conversation in one transaction.

    Raises ``redactdesk.formats.ImportFailed`` listing every problem; nothing is written then.
    ``keep_spans_as`` keeps spans carried by the transcript (the project's own JSON) with that status;
    by default they are kept as they are. ``span_tier`` names a TextGrid/EAF tier of items read as
    spans (suggested unless ``keep_spans_as`` says otherwise); item tiers are never taken as speakers.
    ``transcript_format`` (a name of ``redactdesk.formats.FORMATS``) overrides detection;
    ``transcript_name`` is what the project records as the transcript's file (e.g. "stdin").
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
        t = read_transcript(transcript_path, audio_duration=info.duration, fmt=transcript_format,
                            span_tier=span_tier, span_status=keep_spans_as or SpanStatus.SUGGESTED)
        conv.words, conv.turns, warnings = t.words, t.turns, list(t.warnings)
        conv.language = language or t.language or "en"
        conv.status = ConversationStatus.TRANSCRIBED
        conv.meta["transcript_source"] = {"format": t.format, "file": transcript_name or Path(transcript_path).name}
        for span in t.spans:
            if keep_spans_as is not None:
                span.status = keep_spans_as
            span.id = None
        conv.spans = list(t.spans)
    # the id is chosen again under the write lock, in the transaction that stores the conversation:
    # two processes importing at once can neither take the same id nor both store one recording
    project.add_conversation(conv, id_chooser=lambda p: conversation_id_for(p, audio, conversation_id),
                             refuse_duplicate=conversation_id is None)
    return ImportResult(conv.id, len(conv.words), sum(not w.aligned for w in conv.words), len(conv.spans), warnings)


def import_many(project: Project, audio_paths: list[Path], *, language: str | None = None,
                progress: ProgressFn | None = None, cancel: CancelFn | None = None,
                failures: list[tuple[str, str]] | None = None) -> list[ImportResult]:
    """Import several recordings, each with its sidecar transcript when one exists.

    A recording that cannot be imported (a damaged file, an already imported one) is left out —
    all or nothing for that recording — and the others go on; ``failures`` collects (file name,
    message) pairs, messages free of values from the files. Without ``failures`` the first error is
    raised, as before.
    """
    from redactdesk.formats.errors import ImportFailed
    from redactdesk.store.errors import ProjectBusy, ProjectError

    results = []
    for audio in track(audio_paths, len(audio_paths), progress, cancel, label=lambda p: p.name):
        try:
            results.append(import_recording(project, audio, find_sidecar_transcript(audio), language=language))
        except ProjectBusy:
            raise
        except (ImportFailed, ProjectError, ValueError) as exc:
            if failures is None:
                raise
            failures.append((Path(audio).name, str(exc)))
    return results
