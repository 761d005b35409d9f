"""``export_release``: the gate, then the stages in order, into a staging folder renamed at the end."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from redactdesk.core.types import Decision, Role
from redactdesk.formats.files import sha256_file
from redactdesk.pipeline.progress import CancelFn, Cancelled, ProgressFn, check_cancel
from redactdesk.pipeline.release import audio, gate, manifest, scan, staging, text
from redactdesk.pipeline.release.errors import ExportError
from redactdesk.pipeline.release.job import (
    MANIFEST,
    MaskFn,
    ProsodyFn,
    ReleaseJob,
    ReleaseResult,
    RelistenFn,
    Stage,
    Steps,
    SubstituteFn,
    Tools,
)
from redactdesk.store import Project, utc_now

STAGES: tuple[Stage, ...] = (text.SUBSTITUTE, text.RECHECK, audio.MASK, audio.RELISTEN, audio.PROSODY, scan.SCAN,
                             manifest.REPORT_STAGE, manifest.FINISH)


def export_release(
    project: Project,
    out_dir: str | os.PathLike[str],
    *,
    draft: bool = False,
    mask_method: str | None = None,
    progress: ProgressFn | None = None,
    cancel: CancelFn | None = None,
    override_reason: str | None = None,
    conversation_ids: Sequence[str] | None = None,
    substitute: SubstituteFn | None = None,
    mask: MaskFn | None = None,
    relisten: RelistenFn | bool | None = None,
    prosody: ProsodyFn | bool | None = None,
    executor: Any = None,
) -> ReleaseResult:
    """Write a release of ``project`` to the folder ``out_dir`` (``out_dir-DRAFT`` for a draft).

    Refuses (ExportRefused, nothing written) while the sign-off is missing or stale unless
    ``draft``; while the masked audio's re-listen check hears an accepted item, unless a reviewer's
    ``override_reason`` is given (or stored in the project setting ``review.leak_override``); and
    when any original value is found in the written text. ``substitute``, ``mask``, ``relisten`` and
    ``prosody`` replace the real stages (tests); ``relisten=False``/``prosody=False`` skip them
    (recorded in the manifest and report). Raises ``Cancelled`` when ``cancel()`` turns true.
    ``executor`` (:mod:`redactdesk.pipeline.executor`) runs the masking and the re-listen check of
    each recording on its workers (the staging folder must be on a path they can write); the text
    steps stay here.
    """
    t0 = time.perf_counter()
    allowed = gate.check(project, out_dir, draft=draft, conversation_ids=conversation_ids,
                         override_reason=override_reason)
    final, ids = allowed.final, allowed.ids
    tools = _tools(substitute, mask, relisten, prosody)
    settings = project.settings()

    convs = {cid: project.load_conversation(cid) for cid in ids}
    overridden = {g.id for g in allowed.readiness.overridden}
    for cid in overridden:  # released unreviewed by a written override: open suggestions are anonymised
        convs[cid] = gate.suggestions_accepted(convs[cid])

    final.parent.mkdir(parents=True, exist_ok=True)
    removed = staging.remove_stale_partials(final.parent)
    tmp = staging.make_staging(final)
    lock = staging.hold_partial(tmp)
    job = ReleaseJob(project=project, gate=allowed, draft=draft, tools=tools, settings=settings,
                     method=mask_method or settings.get("mask.method") or "silence",
                     mask_params=settings.get("mask.params"), convs=convs, overridden=overridden,
                     has_audio=[cid for cid in ids if convs[cid].audio_path], staging=tmp, executor=executor,
                     cancel=cancel, removed_partials=removed)
    for cid in job.has_audio:
        job.audio_rel[cid] = f"audio/{cid}{Path(convs[cid].audio_path or '').suffix.lower() or '.wav'}"
    steps = Steps({stage.name: stage.weight(job) for stage in STAGES}, progress, cancel)
    try:
        if audio.runs_beside_text(job):
            _text_beside_audio(job, steps)
        for stage in STAGES:
            if stage.applies(job) and stage.name not in job.done_stages:
                stage.run(job, steps.start(stage.name, stage.message(job)))
        staging.fsync_tree(tmp)
        check_cancel(cancel)
        if final.exists():
            raise ExportError(f"{final} appeared while exporting; nothing was replaced")
        os.rename(tmp, final)
    except BaseException as exc:
        staging.discard(tmp)
        if isinstance(exc, Cancelled):  # the export's own, or a stage's (MaskCancelled, AsrCancelled...)
            raise Cancelled("export cancelled; no release was written") from exc
        raise
    finally:
        staging.release_partial(tmp, lock)
    staging.fsync_dir(final.parent)
    if progress is not None:
        progress(1.0, "release written")
    _log_export(job)
    assert job.risk is not None  # manifest.REPORT_STAGE always runs
    return ReleaseResult(path=final, draft=draft, conversations=ids,
                         files={**job.sums, MANIFEST: sha256_file(final / MANIFEST)}, manifest=job.manifest,
                         risk=job.risk, signoff=allowed.state, relisten=job.relisten_results,
                         override_reason=allowed.override_reason if job.override else None,
                         audio_seconds=audio.audio_seconds(job), seconds=time.perf_counter() - t0,
                         warnings=job.warnings, readiness=allowed.readiness, recheck=job.recheck)


BESIDE_AUDIO = (text.SUBSTITUTE, text.RECHECK, scan.SCAN)  # the text steps, which need no masked audio


def _text_beside_audio(job: ReleaseJob, steps: Steps) -> None:
    """The recordings go to the cluster's workers (mask, re-listen, prosody: one task each) while this
    process runs the text steps in a thread beside them, so neither waits for the other. A text step
    that refuses (undecided items, surrogates not signed off, an original value in the text) stops
    the audio run at once and is the export's answer, as it would be when the steps run in order;
    a failed audio task stops the text steps."""
    tasks = audio.audio_tasks(job)  # reads the project here, before the thread starts
    audio_names = [st.name for st in (audio.MASK, audio.RELISTEN, audio.PROSODY) if st.applies(job)]
    names = [st.name for st in BESIDE_AUDIO] + audio_names
    report = steps.start(names, "writing the text; masking and re-listening on the cluster")
    stop = threading.Event()
    failed: list[BaseException] = []

    def text_steps() -> None:
        def quiet(_fraction: float, *_: Any) -> None:
            if stop.is_set():
                raise Cancelled("stopped beside a failed audio step")
            check_cancel(job.cancel)

        try:
            for stage in BESIDE_AUDIO:
                stage.run(job, quiet)
        except BaseException as exc:  # noqa: BLE001 - handed to the export's thread below
            failed.append(exc)
            stop.set()

    worker = threading.Thread(target=text_steps, name="release-text", daemon=True)
    worker.start()
    try:
        audio.run_audio_tasks(job, tasks, report, cancel=lambda: stop.is_set() or bool(job.cancel and job.cancel()))
    except BaseException:
        if not stop.is_set():  # the audio failed first: the text steps stop, the audio error is the answer
            stop.set()
            worker.join()
            raise
    worker.join()
    if failed:
        raise failed[0]
    job.done_stages.update(names)
    if job.tools.relisten is not None:
        audio.decide_relisten_leaks(job)


def _tools(substitute: SubstituteFn | None, mask: MaskFn | None, relisten: RelistenFn | bool | None,
           prosody: ProsodyFn | bool | None) -> Tools:
    """The real stages unless a caller (a test) gave its own; ``False`` skips re-listen or prosody."""
    substitute_fn = substitute or text.default_substitute()
    default_mask = audio.default_mask()
    relisten_fn = audio.default_relisten() if relisten is None or relisten is True else (relisten or None)
    prosody_fn = audio.default_prosody() if prosody is None or prosody is True else (prosody or None)
    return Tools(substitute=substitute_fn, mask=mask or default_mask, mask_is_default=mask in (None, default_mask),
                 relisten=relisten_fn, relisten_is_default=relisten is None or relisten is True, prosody=prosody_fn)


def _log_export(job: ReleaseJob) -> None:
    project, final = job.project, job.gate.final
    with project.transaction():
        if job.override is not None:
            project.log(Decision(action="leak_override", actor=project.actor, role=Role(project.role),
                                 at=job.override["at"], after={"release": final.name, "leaks": job.relisten_leaks,
                                                               "reason": job.gate.override_reason}))
        project.log(Decision(action="export", actor=project.actor, role=Role(project.role), at=utc_now(),
                             after={"release": final.name, "draft": job.draft, "conversations": len(job.ids),
                                    "files": len(job.sums) + 1, "content_hash": job.content_hash}))
