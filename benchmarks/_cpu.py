"""What the benchmarks share about CPU time: holding a run to N cores and timing a block.

Imported before numpy (``limit_threads`` must set the BLAS/OpenMP variables first); the scripts in
this folder import it as ``_cpu`` (the folder is on ``sys.path`` when a script runs).
"""

from __future__ import annotations

import os
import time


def limit_threads(n: int) -> None:
    """BLAS and OpenMP held to ``n`` threads, and this process to ``n`` cores."""
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "BLIS_NUM_THREADS"):
        os.environ[var] = str(n)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, sorted(os.sched_getaffinity(0))[:n])


class Timer:
    """``with Timer() as t: ...`` then ``t.wall`` and ``t.cpu`` (seconds)."""

    def __enter__(self) -> Timer:
        self.w, self.c = time.perf_counter(), time.process_time()
        return self

    def __exit__(self, *exc: object) -> None:
        self.wall = time.perf_counter() - self.w
        self.cpu = time.process_time() - self.c
