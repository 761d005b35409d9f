"""The Dask side of the executor: a ``LocalCluster`` sized to the machine, or an existing scheduler.

Why Dask: pure Python, a local cluster starts in seconds, and the same client code reaches a Slurm
allocation (dask-jobqueue) or Kubernetes (the Dask operator or Gateway) by scheduler address.

- Workers are processes with one thread each (the stages are CPU-bound and hold the GIL); a
  :class:`ModelPlugin` loads the stage's models once per worker process when it starts (and again
  in a replacement worker), and caps the speech recogniser's threads to the worker's.
- Tasks get audio by path (a shared folder, NFS) and return plain results; the project file is
  never opened on a worker (see :mod:`redactdesk.pipeline.executor`).
- A worker that dies mid-task is replaced by its nanny and the scheduler runs the task again on a
  live worker; a task that kills workers ``distributed.scheduler.allowed-failures`` times (3) fails
  the run with :class:`ExecutorError`, the results committed before it stay.
- Cancel (the app's button, polled every 0.1 s) cancels what is pending and raises ``Cancelled``;
  Ctrl+C does the same through ``KeyboardInterrupt``; either way the cluster is shut down.
"""

from __future__ import annotations

import importlib.util
import logging
import signal
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from redactdesk.pipeline.executor import ExecutorConfig, ExecutorError, InProcess, Task
from redactdesk.pipeline.progress import CancelFn, Cancelled, ProgressFn

POLL_SECONDS = 0.1
# Dask samples every task thread's stack every 10 ms for its dashboard's profile; on pure-Python stages
# (detection) that costs a good share of a worker's time, and redactdesk does not show that profile.
# Its nanny also starts workers with MALLOC_TRIM_THRESHOLD_ set, which turns off glibc's adaptive
# mmap threshold (every large numpy buffer a fresh mmap); the thread caps stay.
DASK_CONFIG = {
    "distributed.worker.profile.enabled": False,
    "distributed.nanny.pre-spawn-environ": {"OMP_NUM_THREADS": 1, "MKL_NUM_THREADS": 1, "OPENBLAS_NUM_THREADS": 1},
}
WARM_UP_TEXT = {
    "en": "hello my name is John Smith and I live at 12 High Street London W1A 1AA my card number is four one "
          "one one one one one one one one one one one one one one and my email is john at example dot com "
          "I was born on the third of March nineteen eighty call me on 020 7946 0018 thanks Mary",
    "es": "hola me llamo Juan García vivo en la calle Mayor 12 de Madrid mi DNI es 12345678Z y mi teléfono es "
          "seis uno dos tres cuatro cinco seis siete ocho nací el tres de marzo de mil novecientos ochenta",
}
WINDOW_PER_WORKER = 3  # tasks in flight per worker: enough to keep each busy, few enough to hold little
CONNECT_TIMEOUT = "20s"

try:  # a worker process imports this module to unpickle the plugin: keep the import cheap and safe
    from distributed.diagnostics.plugin import WorkerPlugin
except ImportError:  # pragma: no cover - distributed is a pinned dependency
    WorkerPlugin = object  # type: ignore[assignment,misc]


def dashboard_installed() -> bool:
    """Dask's dashboard needs bokeh, which redactdesk does not pin."""
    return importlib.util.find_spec("bokeh") is not None


def cap_model_threads(threads: int) -> None:
    """CTranslate2 takes min(4, cores) threads per model and ONNX Runtime one per core by default:
    N workers on N cores would ask for 4N (or N x N). A worker's recogniser and contextual tagger get
    the worker's own threads instead."""
    try:
        from redactdesk.asr import faster_whisper_backend
        from redactdesk.detect import encoder
    except ImportError:  # pragma: no cover
        return
    faster_whisper_backend.cap_threads(threads)
    encoder.cap_threads(threads)


def _ignore_sigint() -> None:
    """Ctrl+C in a terminal reaches the whole process group; the client stops the run and shuts the
    cluster down, so a local worker ignores it instead of dying with a traceback."""
    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:  # not the main thread of the worker process
        pass


@contextmanager
def _sigint_ignored() -> Iterator[None]:
    """SIGINT ignored while worker processes are spawned (they inherit it), restored after."""
    try:
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:  # not the main thread (the app's job thread): nothing to inherit
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def warm_up(spec: Sequence[str]) -> None:
    """Load what a stage needs once, in this process: ("detect", LANG), ("asr", MODEL),
    ("mask", METHOD), ("relisten", MODEL, LANG). The loaders cache per process, so the tasks find them loaded."""
    kind = spec[0]
    if kind == "detect":
        from redactdesk.core.types import Conversation, Word
        from redactdesk.detect.pipeline import detect_conversations

        language = spec[1] if len(spec) > 1 else "en"
        text = WARM_UP_TEXT.get(language, WARM_UP_TEXT["en"]).split()  # made-up values that wake every source
        words = [Word(t, i * 0.5, i * 0.5 + 0.4) for i, t in enumerate(text)]
        detect_conversations([Conversation(id="warm-up", language=language, words=words)], language=language)
    elif kind == "asr":
        from redactdesk.asr.faster_whisper_backend import load_whisper
        from redactdesk.asr.models import resolve_model

        load_whisper(resolve_model(spec[1]).path)
    elif kind == "mask":
        from redactdesk.audio.maskfile import mask_file  # noqa: F401 - imports soundfile, scipy
        from redactdesk.audio.registry import get_masker

        get_masker(spec[1]).available()
    elif kind == "relisten":
        from redactdesk.audio.recognise import whisper_recogniser

        whisper_recogniser(spec[1], spec[2] if len(spec) > 2 else "en")


class ModelPlugin(WorkerPlugin):  # type: ignore[misc,valid-type]
    """Runs on every worker as it starts (and on workers already running when registered)."""

    def __init__(self, warm: Sequence[Sequence[str]] = (), threads: int = 1) -> None:
        self.warm = [tuple(s) for s in warm]
        self.threads = threads

    def setup(self, worker: Any) -> None:
        _ignore_sigint()  # a replacement worker, started after the client's start-up, too
        cap_model_threads(self.threads)
        for spec in self.warm:
            try:
                warm_up(spec)
            except Exception:  # noqa: BLE001 - the task itself reports the real error to the client
                logging.getLogger(__name__).warning("warm-up %s failed on a worker", spec[0])


def _slug(text: str) -> str:
    return "".join(c if c.isalnum() else "-" for c in text.lower())[:40] or "task"


class DaskExecutor:
    """Runs tasks on Dask; the cluster (or the connection to one) starts at the first real run."""

    def __init__(self, config: ExecutorConfig, *, announce: Callable[[str], None] | None = None) -> None:
        self.config = config
        self.announce = announce
        self.client: Any = None
        self.cluster: Any = None
        self._plugins: set[tuple[tuple[str, ...], ...]] = set()

    # ------------------------------------------------------------------ cluster
    @property
    def workers(self) -> int:
        if self.client is None:
            return self.config.local_workers() if not self.config.scheduler else 0
        return len(self.client.scheduler_info().get("workers", {}))

    def start(self, n_tasks: int | None = None) -> Any:
        """The Dask client (starting the local cluster, or connecting, on first use)."""
        if self.client is not None:
            return self.client
        import dask
        from distributed import Client, LocalCluster

        dask.config.set(DASK_CONFIG)  # local workers inherit the client's configuration
        if self.config.scheduler:
            try:
                self.client = Client(self.config.scheduler, timeout=CONNECT_TIMEOUT)
            except (OSError, TimeoutError, ValueError) as exc:
                raise ExecutorError(f"could not reach the Dask scheduler at {self.config.scheduler} "
                                    f"({type(exc).__name__}); is it running, and is the address right?") from None
            where = f"Dask scheduler {self.config.scheduler} ({self.workers} workers)"
        else:
            n = self.config.local_workers()
            if n_tasks is not None:
                n = max(1, min(n, n_tasks))
            with _sigint_ignored():  # Ctrl+C is the client's to handle: workers start with it ignored
                self.cluster = LocalCluster(n_workers=n, threads_per_worker=self.config.threads_per_worker,
                                            processes=True, silence_logs=logging.ERROR,
                                            dashboard_address=":0")  # a free port: runs may share a host
            self.client = Client(self.cluster)
            where = f"local Dask cluster: {n} worker process(es) x {self.config.threads_per_worker} thread(s)"
        if self.announce is not None:
            link = f"; dashboard {self.client.dashboard_link}" if dashboard_installed() else ""
            self.announce(f"running on a {where}{link}")
        return self.client

    def worker_pids(self) -> dict[str, int]:
        """Worker address -> process id (tests kill one; the benchmark measures memory)."""
        import os

        return self.start().run(os.getpid)

    def worker_memory(self) -> dict[str, int]:
        """Worker address -> resident memory in bytes."""
        return self.start().run(_rss)

    def close(self) -> None:
        client, cluster, self.client, self.cluster = self.client, self.cluster, None, None
        for thing in (client, cluster):
            if thing is None:
                continue
            try:
                thing.close()
            except Exception:  # noqa: BLE001 - shutting down after an error or Ctrl+C: best effort
                pass

    # ------------------------------------------------------------------ running
    def prepare(self, warm: Sequence[tuple[str, ...]]) -> None:
        """Start the cluster if needed and load the models ``warm`` names on every worker (blocks)."""
        self.start()
        key = tuple(tuple(s) for s in warm)
        if key in self._plugins:
            return
        self.client.register_plugin(ModelPlugin(key, threads=self.config.threads_per_worker),
                                    name="redactdesk-models-" + uuid.uuid4().hex[:8])
        self._plugins.add(key)

    def run(self, fn: Callable[..., Any], tasks: Sequence[Task], *, label: str = "working",
            warm: Sequence[tuple[str, ...]] = (), progress: ProgressFn | None = None,
            cancel: CancelFn | None = None) -> Iterator[tuple[Task, Any]]:
        if not tasks:
            return
        if self.client is None and len(tasks) < max(2, self.config.min_tasks) and not self.config.scheduler:
            yield from InProcess().run(fn, tasks, label=label, progress=progress, cancel=cancel)
            return
        from distributed import KilledWorker, as_completed

        client = self.start(len(tasks))
        self.prepare(warm)
        run_id = uuid.uuid4().hex[:10]
        keys = [t.key for t in tasks]
        if len(set(keys)) != len(keys):
            raise ValueError("task keys must be unique within a run")
        window = max(4, WINDOW_PER_WORKER * max(1, self.workers))
        queue = list(enumerate(tasks))
        queue.reverse()
        futures: dict[Any, Task] = {}
        ac = as_completed()

        def submit_more() -> None:
            while queue and len(futures) < window:
                i, task = queue.pop()
                fut = client.submit(fn, *task.arguments(), key=f"{_slug(label)}-{run_id}-{i}", pure=False,
                                    **task.kwargs)
                futures[fut] = task
                ac.add(fut)

        total = sum(t.weight for t in tasks) or 1.0
        done_weight = 0.0
        seen: set[str] = set()
        try:
            submit_more()
            if progress is not None:
                progress(0.0, f"{label} 0/{len(tasks)} on {self.workers} worker(s)")
            while futures:
                if cancel is not None and cancel():
                    raise Cancelled(f"{label} cancelled; what finished before is kept")
                batch = ac.next_batch(block=False) if ac.has_ready() else []
                if not batch:
                    time.sleep(POLL_SECONDS)
                    continue
                for fut in batch:
                    task = futures.pop(fut)
                    if fut.status == "error":
                        exc = fut.exception()
                        if isinstance(exc, KilledWorker):
                            raise ExecutorError(f"{label}: a task kept killing its worker (out of memory?); the "
                                                "results committed before it are kept") from None
                        raise exc
                    if fut.status == "cancelled":
                        raise Cancelled(f"{label} cancelled on the cluster; what finished before is kept")
                    result = fut.result()
                    fut.release()
                    submit_more()
                    if task.key in seen:  # never commit one task's result twice
                        continue
                    seen.add(task.key)
                    done_weight += task.weight
                    if progress is not None:
                        progress(done_weight / total, f"{label} {len(seen)}/{len(tasks)} on "
                                                      f"{self.workers} worker(s)")
                    yield task, result
        finally:
            if futures:
                try:
                    client.cancel(list(futures), force=True)
                except Exception:  # noqa: BLE001 - the cluster may already be going away
                    pass
        if progress is not None:
            progress(1.0, f"{label}: done")


def _rss() -> int:
    import psutil

    return int(psutil.Process().memory_info().rss)
