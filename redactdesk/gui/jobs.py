"""Long work off the GUI thread: a job runs ``fn(job)`` in a thread pool with progress and cancel.

Inside ``fn`` (worker thread) call ``job.report(done, total, text)`` now and then — it raises
:class:`JobCancelled` once the user pressed Cancel — or ``job.check()``. Do not touch widgets or the
window's own project connection from ``fn``: a job that writes opens its own connection with
``ctx.job_project()`` (see :mod:`redactdesk.gui.context`); ``on_done(result)`` runs on the GUI
thread. A job that finishes work piece by piece (a call transcribed and detected) hands each piece
to the GUI thread with ``job.deliver(value)``, which emits ``delivered(value)`` there.

While any job runs, Python's cyclic garbage collector runs only on the GUI thread (see
:class:`GuiThreadCollector`).
"""

from __future__ import annotations

import gc
import threading
import traceback
from collections.abc import Callable
from typing import Any

import shiboken6
from PySide6.QtCore import QCoreApplication, QObject, QRunnable, Qt, QThreadPool, QTimer, Signal, Slot

from redactdesk.core.progress import Cancelled


class GuiThreadCollector(QObject):
    """Keeps Python's cyclic garbage collection on the GUI thread while background jobs run.

    CPython collects in whichever thread crosses the allocation threshold, and jobs allocate a lot,
    so collections would otherwise run in a worker and destroy the Qt objects that sit in reference
    cycles there (widgets, pixmaps, fonts, pyqtgraph items of closed views): Qt objects must be
    destroyed on their own thread, and a window was seen to hang while it painted and an
    active-learning job collected. While jobs run, automatic collection is off and a GUI-thread timer
    collects the young generations instead (as pyqtgraph's GarbageCollector does); the usual
    automatic collection comes back when the last job ends.
    """

    def __init__(self, parent: QObject | None = None, interval_ms: int = 100) -> None:
        super().__init__(parent)
        self.users = 0
        self._was_enabled = False
        self.timer = QTimer(self)
        self.timer.setInterval(interval_ms)
        self.timer.timeout.connect(self.collect)

    def acquire(self) -> None:
        self.users += 1
        if self.users == 1:
            self._was_enabled = gc.isenabled()
            gc.disable()
            self.timer.start()

    def release(self) -> None:
        if self.users == 0:
            return
        self.users -= 1
        if self.users == 0:
            self.timer.stop()
            self.collect()
            if self._was_enabled:
                gc.enable()

    @Slot()
    def collect(self) -> None:
        """Collect the generations the automatic collector would have collected by now (not the oldest:
        CPython's own heuristics take it over when the jobs end)."""
        t0, t1, _ = gc.get_threshold()
        c0, c1, _ = gc.get_count()
        if c0 > t0:
            gc.collect(1 if c1 > t1 else 0)


_collector: list[GuiThreadCollector] = []


def gui_thread_collector() -> GuiThreadCollector:
    """The process's collector (created on first use, on the GUI thread, owned by the application)."""
    if not _collector or not shiboken6.isValid(_collector[0]):
        _collector[:] = [GuiThreadCollector(QCoreApplication.instance())]
    return _collector[0]


class JobCancelled(Cancelled):
    """Raised inside a job's function when the user cancelled it."""


class Job(QObject):
    """One background task. Its public signals are emitted on the GUI thread."""

    progress = Signal(float, str)  # fraction in [0, 1] (or -1: unknown), message
    done = Signal(object)  # the function's result
    failed = Signal(str)  # readable error message
    cancelled = Signal()
    ended = Signal()  # after done, failed or cancelled
    delivered = Signal(object)  # a piece of the work finished (``deliver``), before the job ends

    # emitted by the worker thread; relayed to the public signals by slots of this GUI-thread object
    _w_progress = Signal(float, str)
    _w_end = Signal(str)
    _w_deliver = Signal(object)

    def __init__(self, title: str, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.title = title
        self._cancel = threading.Event()
        self.running = True
        self.result: Any = None
        self.error: str | None = None
        self.exception: Exception | None = None  # what ``fn`` raised (traceback dropped), for dialogs that list details
        self.was_cancelled = False
        self._w_progress.connect(self._relay_progress, Qt.ConnectionType.QueuedConnection)
        self._w_end.connect(self._relay_end, Qt.ConnectionType.QueuedConnection)
        self._w_deliver.connect(self._relay_deliver, Qt.ConnectionType.QueuedConnection)

    @Slot(float, str)
    def _relay_progress(self, fraction: float, message: str) -> None:
        if self.running:
            self.progress.emit(fraction, message)

    @Slot(object)
    def _relay_deliver(self, value: object) -> None:
        self.delivered.emit(value)  # also after a cancel: the piece is committed, the window shows it

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

    def deliver(self, value: Any) -> None:
        """Hand one finished piece of the work to the GUI thread (``delivered``); never raises on cancel:
        the piece is already committed."""
        self._w_deliver.emit(value)
    def progress_fn(self, fraction: float, message: str = "") -> None:
        """:meth:`report` as a :data:`~redactdesk.core.progress.ProgressFn` (``fraction, message``), to hand
        to a pipeline step as its ``progress``."""
        self.report(fraction, None, message)


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
                how = "cancelled"
            else:
                job.error = _readable(exc)
                traceback.print_exc()
                job.exception = exc.with_traceback(None)  # keep no worker frames (and their objects) alive
                how = "failed"
        self.fn = None  # the closure is the job's (released with it on the GUI thread)
        try:
            job._w_end.emit(how)
        except RuntimeError:  # the window (and the job object) went away while the job ran
            pass


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
        job._fn = fn  # released on the GUI thread when the job ends, not in the worker
        if on_done is not None:
            job.done.connect(on_done)
        if on_error is not None:
            job.failed.connect(on_error)
        self.jobs.append(job)
        job.ended.connect(self._forget_ended)
        collector = gui_thread_collector()
        collector.acquire()
        held = [True]

        def release() -> None:  # once: when the job ends, or when it is destroyed before it could end
            if held[0]:
                held[0] = False
                collector.release()

        job.ended.connect(release)
        job.destroyed.connect(release)
        self.started.emit(job)
        self.pool.start(_Runnable(job, fn))
        return job

    @Slot()
    def _forget_ended(self) -> None:
        for job in self.jobs:
            if not job.running:
                job._fn = None
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
