"""The pure task functions the batch stages send to workers.

Each gets what it needs as arguments and returns a result; none opens the project file (the client
is the single writer). They are module-level functions so a worker that has redactdesk installed
imports them by name instead of receiving their code.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from redactdesk.core.types import Conversation, Span


def detect_task(convs: Sequence[Conversation], allow: Sequence[str],
                deny: Sequence[tuple[str, str]]) -> dict[str, list[Span]]:
    """Suggested spans for a few conversations, keyed by id (spaCy batches across each language's)."""
    from redactdesk.detect.pipeline import detect_conversations

    by_language: dict[str, list[Conversation]] = {}
    for conv in convs:
        by_language.setdefault(conv.language, []).append(conv)
    found: dict[str, list[Span]] = {}
    for language, group in by_language.items():
        found.update(detect_conversations(group, language=language, allow=list(allow), deny=list(deny)))
    return found


def transcribe_task(audio_path: str, *, backend: str, model: str, language: str | None,
                    threads: int | None = None, speakers: int = 0) -> Any:
    """The transcription of one recording (a ``TranscriptionResult``); ``threads`` caps the recogniser;
    ``speakers`` > 0 diarizes a mono recording into that many speakers."""
    from redactdesk.asr.transcribe import transcribe_file

    options = {"threads": threads} if threads and backend == "faster-whisper" else None
    return transcribe_file(audio_path, backend=backend, model=model, language=language, backend_options=options,
                           diarize=speakers > 0, num_speakers=speakers or None)


def mask_task(src: str, dst: str, ranges: Sequence[Any], method: str, params: Mapping[str, Any] | None,
              expected_sha256: str | None = None, mask: Any = None) -> Any:
    """Mask one recording into ``dst`` (written atomically) after checking it is the imported one."""
    from redactdesk.audio.errors import MaskError
    from redactdesk.formats.files import sha256_file

    source = Path(src)
    if not source.is_file():
        raise MaskError(f"the audio {source.name} is missing on the worker; masking needs the recordings on a "
                        "path every worker can read (a shared folder)")
    if expected_sha256 and sha256_file(source) != expected_sha256:
        raise MaskError(f"{source.name} has changed since it was imported (sha256 differs), so its word times may "
                        "not fit; re-import it before masking")
    if mask is None:
        from redactdesk.audio.maskfile import mask_file as mask
    folder = Path(dst).parent
    if not folder.parent.is_dir():  # a stopped export removed its staging folder: write nothing, make nothing
        raise MaskError("the output folder is gone; the run this task belonged to has stopped")
    folder.mkdir(exist_ok=True)
    return mask(source, Path(dst), list(ranges), method, dict(params or {}))


def mask_batch_task(jobs: Sequence[tuple[Any, ...]]) -> list[Any]:
    """:func:`mask_task` over a few recordings: one task per call costs more in scheduling than
    masking a short call takes."""
    return [mask_task(*job) for job in jobs]


def relisten_task(masked: str | os.PathLike[str], conv: Conversation, ranges: Sequence[Any],
                  relisten: Any = None, **options: Any) -> Any:
    """The re-listen report of one masked recording."""
    if relisten is None:
        from redactdesk.audio.relisten import relisten
    return relisten(masked, conv, list(ranges), **options)


def release_audio_task(mask_args: Sequence[Any], conv: Conversation, relisten_options: Mapping[str, Any] | None,
                       relisten: Any = None, prosody: Any = False) -> dict[str, Any]:
    """A release's audio work for one recording on one worker: mask it (:func:`mask_task` with
    ``mask_args``), re-listen to the masked copy (``relisten_options`` None: not checked) and measure
    its prosody (``prosody`` False: not measured; True: the default measure; else the function).
    The reports come back as they are; the client turns them into counts."""
    src, dst, ranges, method = mask_args[:4]
    out: dict[str, Any] = {"mask": mask_task(*mask_args), "relisten": None, "prosody": None}
    if relisten_options is not None:
        out["relisten"] = relisten_task(dst, conv, ranges, relisten, **relisten_options)
    if prosody is not False:
        if prosody is True:
            from redactdesk.audio import prosody_report as prosody
        out["prosody"] = prosody(Path(src), Path(dst), list(ranges), method=method)
    return out
