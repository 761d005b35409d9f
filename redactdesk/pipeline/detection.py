"""Run PII detection over a project's conversations and store the suggestions."""

from __future__ import annotations

from collections.abc import Sequence

from redactdesk.pipeline.progress import CancelFn, ProgressFn, track
from redactdesk.store import Project


def project_lists(project: Project) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """The project's allow and deny lists as (text, category) pairs."""
    return project.terms("allow"), project.terms("deny")


def detect_project(project: Project, conversation_ids: Sequence[str] | None = None, *,
                   progress: ProgressFn | None = None, cancel: CancelFn | None = None) -> dict[str, int]:
    """(Re)detect each conversation: open suggestions are replaced, human decisions kept.

    Returns the number of suggestions stored per conversation. Each conversation is one transaction.
    """
    from redactdesk.detect.pipeline import detect_conversation

    ids = list(conversation_ids) if conversation_ids is not None else project.conversation_ids()
    allow, deny = project_lists(project)
    counts: dict[str, int] = {}
    for cid in track(ids, len(ids), progress, cancel, label=lambda c: f"detecting {c}"):
        conv = project.load_conversation(cid)
        if not conv.words:
            counts[cid] = 0
            continue
        spans = detect_conversation(conv, language=conv.language, allow=allow, deny=deny)
        counts[cid] = len(project.replace_suggestions(cid, spans))
    return counts
