"""Run PII detection over a project's conversations and store the suggestions."""

from __future__ import annotations

from collections.abc import Sequence

from redactdesk.pipeline.progress import CancelFn, ProgressFn, track
from redactdesk.store import Project

BATCH = 8  # conversations per detection call: spaCy batches across them


def project_lists(project: Project) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """The project's allow and deny lists as (text, category) pairs."""
    return project.terms("allow"), project.terms("deny")


def detect_project(project: Project, conversation_ids: Sequence[str] | None = None, *,
                   progress: ProgressFn | None = None, cancel: CancelFn | None = None) -> dict[str, int]:
    """(Re)detect each conversation: open suggestions are replaced, human decisions kept.

    Returns the number of suggestions stored per conversation. Each conversation is one transaction.
    """
    from redactdesk.detect.pipeline import detect_conversations

    ids = list(conversation_ids) if conversation_ids is not None else project.conversation_ids()
    allow_pairs, deny_pairs = project_lists(project)
    allow = [text for text, _ in allow_pairs]
    deny = [(text, category or "GENERIC_ID") for text, category in deny_pairs]
    counts: dict[str, int] = {}
    batches = [ids[i:i + BATCH] for i in range(0, len(ids), BATCH)]
    for batch in track(batches, len(batches), progress, cancel, label=lambda b: f"detecting {b[0]}…"):
        convs = [c for c in (project.load_conversation(cid) for cid in batch) if c.words]
        by_language: dict[str, list] = {}
        for conv in convs:
            by_language.setdefault(conv.language, []).append(conv)
        found = {}
        for language, group in by_language.items():
            found.update(detect_conversations(group, language=language, allow=allow, deny=deny))
        for cid in batch:
            counts[cid] = len(project.replace_suggestions(cid, found.get(cid, [])))
    return counts
