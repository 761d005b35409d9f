"""Where the batch stages run: in this process, or over a Dask cluster — one small protocol.

A stage (transcribe, detect, mask, the audio part of export) cuts its work into :class:`Task`\\ s
whose function is pure: it gets what it needs as arguments (conversations, audio paths, ranges) and
returns a result; it never opens the project file. The stage iterates
``executor.run(fn, tasks, ...)``, which yields ``(task, result)`` as each task finishes, and
commits each result itself in one transaction: the client is the project file's single writer.
That is what makes the cluster safe to lose: a worker killed mid-task has written nothing, Dask
runs the task again elsewhere, and a result is committed once because each task's future
completes once (the executor also drops a key it has already yielded).

:class:`InProcess` runs the tasks one after another here (``--workers 1``, tests, one-item jobs);
:class:`~redactdesk.pipeline.distributed.DaskExecutor` runs them on a ``LocalCluster`` sized to
the machine or on an existing scheduler. :func:`resolve_config` picks between them from the
command line, the project's ``executor.*`` settings and the environment, in that order.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Protocol

from redactdesk.pipeline.progress import CancelFn, ProgressFn, check_cancel

WORKERS_SETTING = "executor.workers"
SCHEDULER_SETTING = "executor.scheduler"
WORKERS_ENV = "REDACTDESK_WORKERS"
SCHEDULER_ENV = "REDACTDESK_SCHEDULER"
MAX_WORKERS = 1024
DEFAULT_MIN_TASKS = 8  # with no setting at all, smaller jobs stay in this process


class ExecutorError(Exception):
    """The executor could not be set up (bad worker count, unreachable scheduler); nothing ran."""


def machine_cores() -> int:
    """The cores this process may use (the affinity mask where the platform has one)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


@dataclass(frozen=True)
class ExecutorConfig:
    """``workers`` processes of ``threads_per_worker`` threads on this machine, or ``scheduler``.

    ``workers`` None means one per core. With a ``scheduler`` the cluster's own workers are used
    and ``workers`` is ignored. ``min_tasks``: a local cluster starts only for a stage with at
    least this many tasks (each worker loads its own models, seconds of work a small job does not
    win back).
    """

    workers: int | None = None
    scheduler: str | None = None
    threads_per_worker: int = 1
    min_tasks: int = 2  # fewer tasks than this run in this process (no cluster to start)

    @property
    def in_process(self) -> bool:
        return self.scheduler is None and self.local_workers() <= 1

    def local_workers(self) -> int:
        return self.workers if self.workers is not None else machine_cores()

    def describe(self) -> str:
        if self.scheduler:
            return "the Dask scheduler given (its workers)"
        n = self.local_workers()
        return "this process" if n <= 1 else f"a local Dask cluster of {n} worker processes"


def _workers_value(value: Any, where: str) -> int:
    text = str(value).strip()
    if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= MAX_WORKERS:
        raise ExecutorError(f"{where}: the number of workers must be a whole number from 1 to {MAX_WORKERS}")
    return int(text)


def _scheduler_value(value: Any, where: str) -> str | None:
    if value is None:
        return None
    text = str(value).strip()
    if not text:
        return None
    if any(c.isspace() or not c.isprintable() for c in text) or len(text) > 500:
        raise ExecutorError(f"{where}: a scheduler address looks like tcp://HOST:8786 (no spaces)")
    return text


def resolve_config(workers: int | str | None = None, scheduler: str | None = None, project: Any = None,
                   env: Mapping[str, str] | None = None) -> ExecutorConfig:
    """The executor to use: the arguments first, then the project's settings
    (``executor.scheduler``, ``executor.workers``), then ``REDACTDESK_SCHEDULER`` /
    ``REDACTDESK_WORKERS``, else a local cluster with one worker per core."""
    env = os.environ if env is None else env
    if scheduler is not None:
        return ExecutorConfig(scheduler=_scheduler_value(scheduler, "--scheduler"))
    if workers is not None:
        return ExecutorConfig(workers=_workers_value(workers, "--workers"))
    if project is not None:
        sched = _scheduler_value(project.setting(SCHEDULER_SETTING), f"project setting {SCHEDULER_SETTING}")
        if sched:
            return ExecutorConfig(scheduler=sched)
        n = project.setting(WORKERS_SETTING)
        if n is not None:
            return ExecutorConfig(workers=_workers_value(n, f"project setting {WORKERS_SETTING}"))
    sched = _scheduler_value(env.get(SCHEDULER_ENV), SCHEDULER_ENV)
    if sched:
        return ExecutorConfig(scheduler=sched)
    if env.get(WORKERS_ENV, "").strip():
        return ExecutorConfig(workers=_workers_value(env[WORKERS_ENV], WORKERS_ENV))
    return ExecutorConfig(min_tasks=DEFAULT_MIN_TASKS)


@dataclass
class Task:
    """One unit of work: ``fn(*args, **kwargs)``. ``key`` names it (unique within a run);
    ``weight`` is its share of the progress bar (e.g. seconds of audio). ``load``, when given,
    makes the arguments just before the task is sent (conversations are read from the project
    only when a worker is about to need them, so a long run holds a few in memory, not all)."""

    key: str
    args: tuple[Any, ...] = ()
    kwargs: dict[str, Any] = field(default_factory=dict)
    weight: float = 1.0
    load: Callable[[], tuple[Any, ...]] | None = None

    def arguments(self) -> tuple[Any, ...]:
        return self.load() if self.load is not None else self.args


class Executor(Protocol):
    """Runs tasks and yields ``(task, result)`` as they finish; raises ``Cancelled`` on cancel and a
    task's own exception when one fails (after stopping the others)."""

    workers: int

    def run(self, fn: Callable[..., Any], tasks: Sequence[Task], *, label: str = "working",
            warm: Sequence[tuple[str, ...]] = (), progress: ProgressFn | None = None,
            cancel: CancelFn | None = None) -> Iterator[tuple[Task, Any]]: ...


class InProcess:
    """Runs every task here, one after another, in the order given."""

    workers = 1

    def run(self, fn: Callable[..., Any], tasks: Sequence[Task], *, label: str = "working",
            warm: Sequence[tuple[str, ...]] = (), progress: ProgressFn | None = None,
            cancel: CancelFn | None = None) -> Iterator[tuple[Task, Any]]:
        total = sum(t.weight for t in tasks) or 1.0
        done = 0.0
        for i, task in enumerate(tasks):
            check_cancel(cancel)
            if progress is not None:
                progress(done / total, f"{label} {i + 1}/{len(tasks)}")
            result = fn(*task.arguments(), **task.kwargs)
            check_cancel(cancel)
            done += task.weight
            yield task, result
        if progress is not None:
            progress(1.0, f"{label}: done")


def batch_size(executor: Any, n: int, per_worker: int, cap: int) -> int:
    """Items per task for ``n`` small items: at most ``cap``, few enough for ``per_worker`` tasks per
    worker, and never so many that a job of ``min_tasks`` items or more ends up with fewer tasks
    (which would keep it off the cluster)."""
    workers = max(1, int(getattr(executor, "workers", 1) or 1))
    config = getattr(executor, "config", None)
    floor = int(getattr(config, "min_tasks", 2) or 2)
    return max(1, min(cap, n // max(per_worker * workers, floor)))


def is_in_process(executor: Any) -> bool:
    return executor is None or isinstance(executor, InProcess)


@contextmanager
def open_executor(config: ExecutorConfig | None = None, *,
                  announce: Callable[[str], None] | None = None) -> Iterator[Executor]:
    """The executor ``config`` asks for, shut down on exit (Ctrl+C included).

    A Dask cluster starts only when a stage first has two or more tasks to run, so a one-call job
    never pays for it; ``announce`` gets one line when it does (where it runs, the dashboard link).
    """
    config = config or ExecutorConfig(workers=1)
    if config.in_process:
        yield InProcess()
        return
    from redactdesk.pipeline.distributed import DaskExecutor

    executor = DaskExecutor(config, announce=announce)
    try:
        yield executor
    finally:
        executor.close()
