"""The app's stage work in the background: import, transcribe, detect and the demo's preparation.

Each is one :class:`~redactdesk.gui.jobs.Job` on its own connection to the project
(``ctx.job_project()``). Transcription, detection and the demo's preparation run on the project's
executor — ``open_executor(resolve_config(project=p))``, the same as ``redactdesk transcribe`` and
``redactdesk detect``: in this process, or on a Dask cluster when the project's ``executor.*``
settings or the environment ask for one (a local cluster starts only for a run of many calls).
So the app has one way to run a stage over many calls:

- one progress bar over all the calls (the executor's progress, weighted by call);
- Cancel in the status bar stops the executor run (the pipeline's ``cancel``): what is pending on
  the cluster is dropped, the calls committed before are kept, none is half written (each call's
  result is one transaction, written by this process as it arrives).

:class:`StageJobs` takes the context and the two things of the window it shows results with:
``open_conversation(id)`` (open a call in the review) and ``refresh_corpus()`` (the list of calls).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from redactdesk.gui.jobs import Job

if TYPE_CHECKING:
    from redactdesk.gui.context import AppContext
    from redactdesk.store import Project

StageFn = Callable[["Project", Any, Job], Any]  # (the job's project, the executor, the job) -> result


def cancel_of(job: Job) -> Callable[[], bool]:
    """The pipeline's ``cancel()``: True once the user pressed Cancel on the job."""
    return lambda: job.is_cancelled


def on_executor(ctx: AppContext, title: str, stage: StageFn, on_done: Callable[[Any], None] | None = None,
                on_error: Callable[[str], None] | None = None, *, calls: int = 2) -> Job:
    """Run ``stage(project, executor, job)`` in the background on the job's own connection and the
    executor the project's settings choose (shut down when the stage ends, cancelled or not). A
    one-call job (``calls`` 1: re-detecting the open call) runs in this process, as a local cluster
    would run it anyway, without importing Dask (about 2 s the first time)."""

    def work(job: Job) -> Any:
        from redactdesk.pipeline.executor import ExecutorConfig, open_executor, resolve_config

        with ctx.job_project() as project:
            config = resolve_config(project=project) if calls > 1 else ExecutorConfig(workers=1)
            with open_executor(config) as executor:
                return stage(project, executor, job)

    return ctx.run_job(title, work, on_done, on_error)


class StageJobs:
    """The window's import, transcribe, detect and demo-preparation jobs."""

    def __init__(self, ctx: AppContext, *, open_conversation: Callable[[str], None],
                 refresh_corpus: Callable[[], None]) -> None:
        self.ctx = ctx
        self.open_conversation = open_conversation
        self.refresh_corpus = refresh_corpus

    # ------------------------------------------------------------------ showing results (GUI thread)
    def show_results(self, message: str) -> None:
        """After a job changed calls: the message, the current call re-read, the list refreshed."""
        if self.ctx.closed:  # the window closed: a job that still ends shows nothing
            return
        ctx = self.ctx
        ctx.status(message, 8000)
        current = ctx.conversation.id if ctx.conversation else None
        if current and ctx.project.has_conversation(current):
            ctx.conversation = None
            ctx.open_conversation(current)
        self.refresh_corpus()

    def show_ready(self, conversation_id: str, *, first: bool = False) -> None:
        """One call became ready: list it; open it when it is the ``first`` ready one and the review
        shows nothing to work on (no call, or a call with no words yet); re-read it when it is open."""
        if self.ctx.closed:  # the window closed: a job that still ends shows nothing
            return
        self.refresh_corpus()
        conv = self.ctx.conversation
        if conv is not None and conv.id == conversation_id:
            self.ctx.conversation = None
            self.ctx.open_conversation(conversation_id)
        elif conv is None or (first and not conv.words):
            self.open_conversation(conversation_id)

    # ------------------------------------------------------------------ the stages
    def import_recordings(self, paths: Sequence[Path], language: str) -> Job | None:
        try:
            from redactdesk.pipeline.importing import import_many
        except ImportError as exc:
            self.ctx.error("Import not available", f"the import pipeline is not installed ({exc})")
            return None
        failures: list[tuple[str, str]] = []

        def work(job: Job) -> Any:
            with self.ctx.job_project() as project:
                return import_many(project, list(paths), language=language, failures=failures,
                                   progress=job.progress_fn, cancel=cancel_of(job))

        def done(results: list[Any]) -> None:
            warn = sum(len(r.warnings) for r in results)
            self.show_results(f"Imported {len(results)} recording(s)" + (f", {warn} warning(s)" if warn else "")
                              + (f", {len(failures)} not imported" if failures else ""))
            if failures:
                self.ctx.error(f"{len(failures)} recording(s) not imported",
                               "\n\n".join(f"{name}: {msg}" for name, msg in failures[:20]))
            if self.ctx.conversation is None and results:
                self.open_conversation(results[0].conversation_id)

        return self.ctx.run_job("Importing", work, done)

    def transcribe(self, ids: Sequence[str], models: Mapping[str, str]) -> Job | None:
        """Transcribe ``ids`` on the executor; ``models`` maps a language to its model (others: default)."""
        try:
            from redactdesk.pipeline.transcription import transcribe_project
        except ImportError as exc:
            self.ctx.error("Transcription not available", f"speech recognition is not installed ({exc})")
            return None
        ids, models = list(ids), dict(models)

        def stage(project: Project, executor: Any, job: Job) -> Any:
            return transcribe_project(project, ids, model=models, executor=executor,
                                      progress=job.progress_fn, cancel=cancel_of(job))

        return on_executor(self.ctx, "Transcribing", stage,
                           lambda out: self.show_results(f"Transcribed {len(out)} conversation(s)"), calls=len(ids))

    def detect(self, ids: Sequence[str], on_done: Callable[[dict[str, int]], None] | None = None) -> Job | None:
        """Detect ``ids`` again on the executor; ``on_done(counts)`` (default: show the results)."""
        try:
            from redactdesk.pipeline import detection
        except ImportError as exc:
            self.ctx.error("Detection not available", f"the detectors are not installed ({exc})")
            return None
        ids = list(ids)

        def stage(project: Project, executor: Any, job: Job) -> dict[str, int]:
            return detection.detect_project(project, ids, progress=job.progress_fn, cancel=cancel_of(job),
                                            executor=executor)

        if on_done is None:
            def on_done(counts: dict[str, int]) -> None:
                self.show_results(f"{sum(counts.values())} suggestion(s) in {len(counts)} conversation(s)")

        return on_executor(self.ctx, "Detecting", stage, on_done, calls=len(ids))

    def prepare_demo(self) -> Job | None:
        """Transcribe and detect the project's unprepared calls (the demo) in one background job.

        The window is already open; each call appears (status "detected") as soon as it is ready and
        the first ready one is opened. Cancel stops the run; finished calls are kept and the rest
        are prepared the next time the demo opens. None when nothing is left to prepare.
        """
        from redactdesk.pipeline.demo import pending_conversations, prepare_pending_calls

        total = len(pending_conversations(self.ctx.project)[1])
        if not total:
            return None
        ready: list[str] = []

        def stage(project: Project, executor: Any, job: Job) -> dict[str, Any]:
            return prepare_pending_calls(project, executor=executor, progress=job.progress_fn,
                                         cancel=cancel_of(job), on_ready=lambda cid, n: job.deliver((cid, n)))

        def one_ready(item: tuple[str, int]) -> None:
            if self.ctx.closed:  # the window closed: a job that still ends shows nothing
                return
            cid, suggestions = item
            ready.append(cid)
            self.show_ready(cid, first=len(ready) == 1)
            self.ctx.status(f"{cid} ready ({len(ready)} of {total}): {suggestions} suggestion(s)", 8000)

        def done(_stats: dict[str, Any]) -> None:
            if self.ctx.closed:  # the window closed: a job that still ends shows nothing
                return
            self.refresh_corpus()
            self.ctx.status(f"Demo ready: {total} call(s) transcribed and checked for personal data", 10000)

        self.ctx.status(f"Preparing {total} call(s) in the background: transcribing and detecting…", 8000)
        job = on_executor(self.ctx, f"Preparing {total} call(s)", stage, done, calls=total)
        job.delivered.connect(one_ready)
        return job
