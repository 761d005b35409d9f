"""What the app's demo preparation costs before the first call is ready: in this process vs a local Dask cluster.

Run: ``.venv/bin/python benchmarks/bench_demo_start.py [--calls 3] [--model tiny.en] [--workers 2]``

The app opens the demo window at once and prepares the calls in a background job
(:meth:`redactdesk.gui.stage_jobs.StageJobs.prepare_demo` ->
:func:`redactdesk.pipeline.demo.prepare_pending_calls` on ``open_executor(resolve_config(project=p))``).
This runs the same function, without a window, on a fresh copy of the demo project for each
executor and prints: seconds until the executor is open (imports), until the first call is
committed and detected (what a user waits for), until every call is, and the peak resident memory
of this process (workers not counted). The cluster is what ``resolve_config`` gives a project with
``executor.workers`` set (no setting: one worker per core once the run has 8 calls or more).
Real speech recognition (faster-whisper) and detection: on a shared machine, the wall times move
with the load; the load average is printed with them.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def run(mode: str, calls: int, model: str, workers: int, folder: Path) -> dict[str, float]:
    from redactdesk.pipeline.demo import ensure_demo_project, prepare_pending_calls
    from redactdesk.pipeline.executor import ExecutorConfig, open_executor
    from redactdesk.store import Project

    path = ensure_demo_project(folder / mode / "demo.rdproj", prepare=False, limit=calls, quiet=True)
    config = ExecutorConfig(workers=1) if mode == "in-process" else ExecutorConfig(workers=workers, min_tasks=2)
    out: dict[str, float] = {}
    t0 = time.perf_counter()
    with Project.open(path, actor="bench") as project, open_executor(config) as executor:
        out["executor open s"] = time.perf_counter() - t0

        def ready(_cid: str, _n: int) -> None:
            out.setdefault("first call ready s", time.perf_counter() - t0)

        prepare_pending_calls(project, executor=executor, model=model, on_ready=ready)
        out["all calls ready s"] = time.perf_counter() - t0
    out["peak RSS here MiB"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=3)
    parser.add_argument("--model", default="tiny.en")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--modes", default="in-process,local-cluster")
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for mode in args.modes.split(","):
            load = os.getloadavg()[0]
            rows.append((mode, load, run(mode, args.calls, args.model, args.workers, Path(tmp))))
    keys = ["executor open s", "first call ready s", "all calls ready s", "peak RSS here MiB"]
    print(f"demo preparation of {args.calls} call(s), model {args.model}, cluster of {args.workers} worker(s), "
          f"{os.cpu_count()} cores")
    print(f"{'mode':15} {'load':>5} " + " ".join(f"{k:>19}" for k in keys))
    for mode, load, out in rows:
        print(f"{mode:15} {load:5.1f} " + " ".join(f"{out.get(k, float('nan')):19.1f}" for k in keys))


if __name__ == "__main__":
    main()
