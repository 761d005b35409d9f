"""Resumable stage runs: a rerun of an interrupted run does only what is left.

When a project-wide stage starts, it records ``runs.<stage>`` in the project's settings: a run
id, when it started, a fingerprint of its parameters and the conversations it covers. Each
conversation's result is committed in its own transaction together with the mark that says this
run finished it (the transcription's ``meta.asr.run``; detection's ``detected_at``), so after a
crash, Ctrl+C or a lost cluster the next run with the same parameters over the same conversations
skips the finished ones. A run that completes removes its record, so running the stage again
later redoes everything, as before.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

PREFIX = "runs."


@dataclass
class Run:
    stage: str
    run_id: str
    started: str
    ids: list[str]
    pending: list[str]

    @property
    def resumed(self) -> bool:
        return len(self.pending) < len(self.ids)


def fingerprint(params: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(params, sort_keys=True, default=str).encode()).hexdigest()[:16]


def begin(project: Any, stage: str, ids: Sequence[str], params: dict[str, Any],
          finished: Callable[[str, dict[str, Any]], bool]) -> Run:
    """Start (or resume) a run of ``stage`` over ``ids``; ``finished(cid, record)`` says whether the
    unfinished run described by ``record`` already committed ``cid``."""
    from redactdesk.store import utc_now

    ids = list(ids)
    key = PREFIX + stage
    record = project.setting(key)
    fp = fingerprint(params)
    if isinstance(record, dict) and record.get("params") == fp and record.get("ids") == ids:
        pending = [cid for cid in ids if not finished(cid, record)]
        return Run(stage, str(record["run"]), str(record["started"]), ids, pending)
    record = {"run": uuid.uuid4().hex, "started": utc_now(), "params": fp, "ids": ids}
    project.set_setting(key, record)
    return Run(stage, record["run"], record["started"], ids, list(ids))


def finish(project: Any, run: Run) -> None:
    """The run is complete: forget it, so the next run starts afresh."""
    with project.transaction():
        record = project.setting(PREFIX + run.stage)
        if isinstance(record, dict) and record.get("run") == run.run_id:
            project.set_setting(PREFIX + run.stage, None)
