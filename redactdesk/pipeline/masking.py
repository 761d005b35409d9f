"""Masking a whole project on an executor: one task per recording, the same files as in-process.

``redactdesk mask`` comes here. In this process it is :func:`redactdesk.pipeline.audio_project.mask_project`
as before; on a cluster each worker reads its recording by path, checks its sha256 and writes the
masked copy atomically into the output folder (which every worker must be able to write: a shared
folder when the cluster spans machines). Masking writes no project data, so a rerun simply writes
every file again; a worker killed mid-file leaves only a temporary file that the rerun of its task
replaces. :func:`relisten_project_with` then runs the re-listen check of each masked file on the
same executor, one task per recording (``redactdesk mask --relisten``).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from redactdesk.pipeline.executor import Executor, Task, batch_size, is_in_process
from redactdesk.pipeline.progress import CancelFn, ProgressFn, part

BATCH = 8  # recordings per task at most: a short call masks in less time than a task costs to schedule
BATCHES_PER_WORKER = 3  # tasks per worker at least, so the workers finish together


def mask_project_with(project: Any, out_dir: str | os.PathLike[str], method: str,
                      params: Mapping[str, Any] | None = None, *, executor: Executor | None = None,
                      progress: ProgressFn | None = None, cancel: CancelFn | None = None,
                      surrogates: Any = None, conversation_ids: Iterable[str] | None = None,
                      verify_audio: bool = True) -> list[Any]:
    """One masked file per conversation in ``out_dir`` and one ``MaskReport`` each, in id order."""
    from redactdesk.audio.errors import MaskError
    from redactdesk.audio.masker_params import conversation_params, ready_masker
    from redactdesk.audio.maskfile import MaskReport
    from redactdesk.audio.ranges import mask_ranges
    from redactdesk.pipeline.audio_project import audio_file, mask_project, range_settings, unique_output_name

    if is_in_process(executor):
        return mask_project(project, out_dir, method, params, part(progress, message=f"masking ({method})"),
                            cancel=cancel, surrogates=surrogates, conversation_ids=conversation_ids,
                            verify_audio=verify_audio)
    _masker, out = ready_masker(method, params, out_dir)  # fail before any task runs
    ids = list(conversation_ids) if conversation_ids is not None else list(project.conversation_ids())
    settings = range_settings(project)
    rows = {r.id: r for r in project.list_conversations()}
    reports: dict[str, Any] = {}
    todo: list[tuple[str, Path, Path, float]] = []
    used: set[str] = set()
    for cid in ids:
        row = rows.get(cid)
        if row is None:
            project.load_conversation(cid)  # raises NotFound, as in this process
        if not row.audio_path:
            reports[cid] = MaskReport(source="", output=None, method=method, conversation_id=cid,
                                      skipped="the conversation has no audio")
            continue
        src = audio_file(project, _Stub(cid, row.audio_path))
        if not src.is_file():
            raise MaskError(f"conversation {cid!r}: its audio {src} is missing; relink it before masking")
        todo.append((cid, src, out / unique_output_name(_Stub(cid, row.audio_path), src, used),
                     float(row.duration or 1.0)))

    def job(cid: str, src: Path, dst: Path) -> tuple[Any, ...]:
        conv = project.load_conversation(cid)
        ranges = mask_ranges(conv, **settings)
        return (str(src), str(dst), ranges, method, conversation_params(method, params, conv, surrogates),
                conv.audio_sha256 if verify_audio else None)

    size = batch_size(executor, len(todo), BATCHES_PER_WORKER, BATCH)
    groups = {f"batch-{n}": todo[i:i + size] for n, i in enumerate(range(0, len(todo), size))}
    tasks = [Task(key=key, weight=sum(d for *_, d in group),
                  load=lambda group=group: ([job(cid, src, dst) for cid, src, dst, _ in group],))
             for key, group in groups.items()]
    from redactdesk.pipeline.stage_tasks import mask_batch_task

    for task, batch in executor.run(mask_batch_task, tasks, label=f"masking ({method})", progress=progress,
                                    cancel=cancel, warm=[("mask", method)]):
        for (cid, *_), report in zip(groups[task.key], batch, strict=True):
            report.conversation_id = cid
            reports[cid] = report
    return [reports[cid] for cid in ids]


class _Stub:
    """What :func:`audio_file` and :func:`unique_output_name` read of a conversation: id and path."""

    def __init__(self, cid: str, audio_path: str) -> None:
        self.id = cid
        self.audio_path = audio_path


RELISTEN_MODEL_SETTING = "mask.relisten_model"  # the export's setting too


def relisten_project_with(project: Any, reports: Iterable[Any], *, executor: Executor | None = None,
                          method: str = "", surrogates: Any = None, scheme: str | None = None,
                          progress: ProgressFn | None = None, cancel: CancelFn | None = None) -> dict[str, Any]:
    """The re-listen check of each masked recording in ``reports`` (:func:`mask_project_with`'s), one
    task per conversation on ``executor``: conversation id -> ``LeakReport``, in the reports' order.

    Uses the project's ``mask.relisten_model`` (default tiny.en) and, for the voice method, the
    surrogates spoken in each range (so words an item shares with its surrogate are no leak).
    ``scheme``: how the check lays clips into recogniser calls (``redactdesk.audio.relisten.SCHEMES``;
    default: the check's own default).
    """
    from redactdesk.pipeline.executor import InProcess
    from redactdesk.pipeline.stage_tasks import relisten_task

    model = str(project.setting(RELISTEN_MODEL_SETTING) or "tiny.en")
    done = [r for r in reports if r.output and not r.skipped]
    languages = {r.id: r.language for r in project.list_conversations()}

    def load(report: Any) -> tuple[Any, ...]:
        conv = project.load_conversation(report.conversation_id)
        return (str(report.output), conv, list(report.ranges))

    common: dict[str, Any] = {"model": model, **({"scheme": scheme} if scheme else {})}

    def options(report: Any) -> dict[str, Any]:
        if method != "voice" or surrogates is None:
            return dict(common)
        return {**common, "spoken": surrogates(project.load_conversation(report.conversation_id))}

    tasks = [Task(key=r.conversation_id, weight=float(r.duration or 1.0), kwargs=options(r),
                  load=lambda r=r: load(r)) for r in done]
    tasks.sort(key=lambda t: -t.weight)  # longest first: what finishes last, while a worker idles, is short
    warm = sorted({("relisten", model, str(languages.get(r.conversation_id) or "en")) for r in done})
    results = dict((task.key, rep) for task, rep in (executor or InProcess()).run(
        relisten_task, tasks, label="re-listening", warm=warm, progress=progress, cancel=cancel))
    return {r.conversation_id: results[r.conversation_id] for r in done}
