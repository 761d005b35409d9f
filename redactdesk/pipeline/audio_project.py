"""Mask every conversation of a project: one masked file per recording, same format as its source.

This is orchestration over a ``Project`` (its settings, its audio paths), so it lives in ``pipeline``;
the per-conversation parts that need no project are :mod:`redactdesk.audio.masker_params`.

Settings read from the project (defaults in brackets): ``mask.padding`` [0.05 s],
``mask.min_confidence`` [0.5], ``mask.channel_mode`` ["speaker"].
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from redactdesk.audio.errors import MaskError
from redactdesk.audio.masker_params import Surrogates, conversation_params, ready_masker
from redactdesk.audio.maskfile import MaskReport, mask_file
from redactdesk.audio.ranges import MaskRange, mask_ranges
from redactdesk.core.progress import CancelFn, FractionFn, part
from redactdesk.core.types import Conversation
from redactdesk.formats.files import sha256_file


def range_settings(project: Any) -> dict[str, Any]:
    """The project's mask settings as keyword arguments for :func:`mask_ranges`."""
    return {
        "padding": float(project.setting("mask.padding", 0.05)),
        "min_confidence": float(project.setting("mask.min_confidence", 0.5)),
        "channel_mode": str(project.setting("mask.channel_mode", "speaker")),
    }


def audio_file(project: Any, conv: Conversation) -> Path | None:
    """The conversation's recording (relative paths are read from the project file's folder)."""
    if not conv.audio_path:
        return None
    p = Path(conv.audio_path).expanduser()
    if not p.is_absolute() and getattr(project, "path", None) is not None:
        p = Path(project.path).parent / p
    return p


def output_name(conv: Conversation, source: Path) -> str:
    """``<conversation id><source suffix>`` with characters unsafe in file names replaced."""
    safe = re.sub(r"[^\w.\-]+", "_", conv.id).strip("._") or "conversation"
    return safe + source.suffix.lower()


def unique_output_name(conv: Conversation, source: Path, used: set[str]) -> str:
    """:func:`output_name`, numbered when two ids differ only in unsafe characters; adds it to ``used``."""
    name = output_name(conv, source)
    stem, n = name[: -len(source.suffix)] if source.suffix else name, 1
    while name.lower() in used:
        n += 1
        name = f"{stem}-{n}{source.suffix.lower()}"
    used.add(name.lower())
    return name


def mask_conversation(project: Any, conv: Conversation, out_dir: Path, method: str,
                      params: Mapping[str, Any] | None = None, *, surrogates: Surrogates | None = None,
                      event_ranges: Iterable[Any] = (), verify_audio: bool = True, out_name: str | None = None,
                      progress: FractionFn | None = None, cancel: CancelFn | None = None) -> MaskReport:
    """Mask one conversation's recording into ``out_dir``; a report with ``skipped`` set if it has none."""
    src = audio_file(project, conv)
    if src is None:
        return MaskReport(source="", output=None, method=method, conversation_id=conv.id,
                          skipped="the conversation has no audio")
    if not src.is_file():
        raise MaskError(f"conversation {conv.id!r}: its audio {src} is missing; relink it before masking")
    if verify_audio and conv.audio_sha256 and sha256_file(src) != conv.audio_sha256:
        raise MaskError(f"conversation {conv.id!r}: {src.name} has changed since it was imported (sha256 "
                        "differs), so its word times may not fit; re-import it before masking")
    ranges: list[MaskRange] = mask_ranges(conv, event_ranges=event_ranges, **range_settings(project))
    report = mask_file(src, out_dir / (out_name or output_name(conv, src)), ranges, method,
                       conversation_params(method, params, conv, surrogates), progress, cancel)
    report.conversation_id = conv.id
    return report


def mask_project(project: Any, out_dir: str | os.PathLike[str], method: str,
                 params: Mapping[str, Any] | None = None, progress: FractionFn | None = None, *,
                 cancel: CancelFn | None = None, surrogates: Surrogates | None = None,
                 conversation_ids: Iterable[str] | None = None, verify_audio: bool = True) -> list[MaskReport]:
    """Write one masked file per conversation into ``out_dir`` (created if needed); one report each.

    ``surrogates`` (for ``method="voice"``): conversation id -> {span id -> surrogate text}, or a
    function of the conversation returning that mapping. Parameters are checked before any file is
    written; ``progress`` gets the overall fraction 0..1.
    """
    masker, out = ready_masker(method, params, out_dir)
    ids = list(conversation_ids) if conversation_ids is not None else list(project.conversation_ids())
    reports = []
    used: set[str] = set()
    for i, cid in enumerate(ids):
        conv = project.load_conversation(cid)
        step = part(progress, i, 1, total=len(ids))
        src = audio_file(project, conv)
        name = unique_output_name(conv, src, used) if src is not None else None
        reports.append(mask_conversation(project, conv, out, method, params, surrogates=surrogates,
                                         verify_audio=verify_audio, out_name=name, progress=step, cancel=cancel))
        if progress is not None:
            progress((i + 1) / len(ids))
    return reports
