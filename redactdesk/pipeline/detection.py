"""Run PII detection over a project's conversations and store the suggestions."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from redactdesk.pipeline import run_journal
from redactdesk.pipeline.executor import Executor, Task, batch_size, is_in_process
from redactdesk.pipeline.progress import CancelFn, ProgressFn, track
from redactdesk.store import Project

BATCH = 8  # conversations per detection call: spaCy batches across them
CLUSTER_BATCH = 16  # at most per task on a cluster: fewer, larger tasks spend less on scheduling


def project_lists(project: Project) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """The project's allow and deny lists as (text, category) pairs."""
    return project.terms("allow"), project.terms("deny")


def detect_project(project: Project, conversation_ids: Sequence[str] | None = None, *,
                   progress: ProgressFn | None = None, cancel: CancelFn | None = None,
                   executor: Executor | None = None, resume: bool = False) -> dict[str, int]:
    """(Re)detect each conversation: open suggestions are replaced, human decisions kept.

    Returns the number of suggestions stored per conversation detected now. Each conversation is
    one transaction, committed here as its result arrives (from this process, or from the
    ``executor``'s workers). ``resume``: record the run (:mod:`redactdesk.pipeline.run_journal`)
    so that a rerun after an interruption skips the conversations already detected.
    """
    ids = list(conversation_ids) if conversation_ids is not None else project.conversation_ids()
    allow_pairs, deny_pairs = project_lists(project)
    allow = [text for text, _ in allow_pairs]
    deny = [(text, category or "GENERIC_ID") for text, category in deny_pairs]
    run = None
    if resume:
        run = run_journal.begin(project, "detect", ids, {"allow": sorted(allow), "deny": sorted(deny)},
                                finished=lambda cid, rec: (project.detected_at(cid) or "") >= rec["started"])
        ids = run.pending
    if is_in_process(executor):
        counts = _detect_here(project, ids, allow, deny, progress, cancel)
    else:
        counts = _detect_on(executor, project, ids, allow, deny, progress, cancel)
    if run is not None:
        run_journal.finish(project, run)
    return counts


def _detect_here(project: Project, ids: list[str], allow: list[str], deny: list[tuple[str, str]],
                 progress: ProgressFn | None, cancel: CancelFn | None) -> dict[str, int]:
    from redactdesk.detect.pipeline import detect_conversations

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


def _detect_on(executor: Executor, project: Project, ids: list[str], allow: list[str],
               deny: list[tuple[str, str]], progress: ProgressFn | None, cancel: CancelFn | None) -> dict[str, int]:
    """Detection on the executor's workers: batches small enough to keep every worker busy, each
    conversation committed in its own transaction as its batch comes back."""
    from redactdesk.pipeline.stage_tasks import detect_task

    size = batch_size(executor, len(ids), 4, CLUSTER_BATCH)
    batches = [ids[i:i + size] for i in range(0, len(ids), size)]
    languages = sorted({r.language for r in project.list_conversations() if r.id in set(ids)}) or ["en"]

    def loader(batch: list[str]) -> Callable[[], tuple]:
        return lambda: ([c for c in (project.load_conversation(cid) for cid in batch) if c.words], allow, deny)

    batch_of = {f"batch-{n}": b for n, b in enumerate(batches)}
    tasks = [Task(key=key, weight=len(b), load=loader(b)) for key, b in batch_of.items()]
    counts: dict[str, int] = {}
    for task, found in executor.run(detect_task, tasks, label="detecting", progress=progress, cancel=cancel,
                                    warm=[("detect", lang) for lang in languages]):
        for cid in batch_of[task.key]:
            if cid in counts:
                continue
            counts[cid] = len(project.replace_suggestions(cid, found.get(cid, [])))
    return counts
