"""Long work off the GUI thread: a job runs ``fn(job)`` in a thread pool with progress and cancel.

Inside ``fn`` (worker thread) call ``job.report(done, total, text)`` now and then — it raises
:class:`JobCancelled` once the user pressed Cancel — or ``job.check()``. Do not touch the project
file or widgets from ``fn``: compute there and return the result; ``on_done(result)`` runs on the
GUI thread and is where results are written.
"""

from __future__ import annotations

import threading
import traceback
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QRunnable, Qt, QThreadPool, Signal, Slot


class JobCancelled(Exception):
    """Raised inside a job's function when the user cancelled it."""


class Job(QObject):
    """One background task. Its public signals are emitted on the GUI thread."""

    progress = Signal(float, str)  # fraction in [0, 1] (or -1: unknown), message
    done = Signal(object)  # the function's result
    failed = Signal(str)  # readable error message
    cancelled = Signal()
    ended = Signal()  # after done, failed or cancelled

    # emitted by the worker thread; relayed to the public signals by slots of this GUI-thread object
    _w_progress = Signal(float, str)
    _w_end = Signal(str)

    def __init__(self, title: str, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.title = title
        self._cancel = threading.Event()
        self.running = True
        self.result: Any = None
        self.error: str | None = None
        self.was_cancelled = False
        self._w_progress.connect(self._relay_progress, Qt.ConnectionType.QueuedConnection)
        self._w_end.connect(self._relay_end, Qt.ConnectionType.QueuedConnection)

    @Slot(float, str)
    def _relay_progress(self, fraction: float, message: str) -> None:
        if self.running:
            self.progress.emit(fraction, message)

    @Slot(str)
    def _relay_end(self, how: str) -> None:
        self.running = False
        if how == "done":
            self.done.emit(self.result)
        elif how == "failed":
            self.failed.emit(self.error or "failed")
        else:
            self.cancelled.emit()
        self.ended.emit()

    # GUI side
    def cancel(self) -> None:
        self._cancel.set()

    # worker side
    @property
    def is_cancelled(self) -> bool:
        return self._cancel.is_set()

    def check(self) -> None:
        if self._cancel.is_set():
            raise JobCancelled(self.title)

    def report(self, done: float, total: float | None = None, message: str = "") -> None:
        """Report progress (``done`` of ``total``, or a fraction when ``total`` is None)."""
        self.check()
        if total:
            fraction = max(0.0, min(1.0, done / total))
        elif total is None and 0.0 <= done <= 1.0:
            fraction = float(done)
        else:
            fraction = -1.0
        self._w_progress.emit(fraction, message)


class _Runnable(QRunnable):
    def __init__(self, job: Job, fn: Callable[[Job], Any]) -> None:
        super().__init__()
        self.job = job
        self.fn = fn
        self.setAutoDelete(True)

    def run(self) -> None:  # worker thread
        job = self.job
        how = "done"
        try:
            result = self.fn(job)
            if job.is_cancelled:
                raise JobCancelled(job.title)
            job.result = result
        except JobCancelled:
            job.was_cancelled = True
            how = "cancelled"
        except Exception as exc:  # shown to the user, never swallowed
            if job.is_cancelled:  # e.g. the pipeline's own Cancelled exception
                job.was_cancelled = True
                job._w_end.emit("cancelled")
                return
            job.error = _readable(exc)
            traceback.print_exc()
            how = "failed"
        job._w_end.emit(how)


class JobRunner(QObject):
    """Starts jobs in a small thread pool and keeps them alive until they end."""

    started = Signal(object)  # Job

    def __init__(self, parent: QObject | None = None, max_threads: int = 2) -> None:
        super().__init__(parent)
        self.pool = QThreadPool(self)
        self.pool.setMaxThreadCount(max_threads)
        self.jobs: list[Job] = []

    def run(self, title: str, fn: Callable[[Job], Any], on_done: Callable[[Any], None] | None = None,
            on_error: Callable[[str], None] | None = None) -> Job:
        job = Job(title, self)
        if on_done is not None:
            job.done.connect(on_done)
        if on_error is not None:
            job.failed.connect(on_error)
        self.jobs.append(job)
        job.ended.connect(self._forget_ended)
        self.started.emit(job)
        self.pool.start(_Runnable(job, fn))
        return job

    @Slot()
    def _forget_ended(self) -> None:
        self.jobs = [j for j in self.jobs if j.running]

    def cancel_all(self) -> None:
        for job in list(self.jobs):
            job.cancel()

    def wait(self, msecs: int = 30000) -> bool:
        return self.pool.waitForDone(msecs)


def _readable(exc: Exception) -> str:
    """The message of an exception meant for users (our own errors already read well)."""
    text = str(exc) or type(exc).__name__
    if type(exc).__module__.startswith("redactdesk"):
        return text
    return f"{type(exc).__name__}: {text}"
