"""The release's audio: each recording masked (same format as the source), the masked audio
re-listened by a recogniser (accepted items still heard refuse the release unless a reviewer writes
an override), and its prosody measured. With an executor, masking and re-listening run on workers."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from redactdesk.core.types import Role
from redactdesk.pipeline import export_interop as interop
from redactdesk.pipeline.executor import Task, is_in_process
from redactdesk.pipeline.progress import part
from redactdesk.pipeline.release.errors import ExportError, ExportRefused
from redactdesk.pipeline.release.job import (
    MaskFn,
    ProsodyFn,
    ReleaseJob,
    RelistenFn,
    Report,
    Stage,
    as_dict,
)
from redactdesk.store import utc_now


def default_mask() -> MaskFn:
    from redactdesk.audio import mask_file

    return mask_file


def default_relisten() -> RelistenFn:
    from redactdesk.audio import relisten

    return relisten


def default_prosody() -> ProsodyFn:
    from redactdesk.audio import prosody_report

    return prosody_report


def mask(job: ReleaseJob, report: Report) -> None:
    """Mask every recording into the staging folder (checking it is the one that was imported)."""
    from redactdesk.audio import mask_ranges
    from redactdesk.audio.masker_params import conversation_params
    from redactdesk.formats.files import sha256_file
    from redactdesk.pipeline.audio_project import audio_file, range_settings

    project, convs, has_audio, method = job.project, job.convs, job.has_audio, job.method
    executor, cancel = job.executor, job.cancel
    job.on_cluster = on_cluster = not is_in_process(executor) and len(has_audio) > 1
    mask_jobs: list[Task] = []
    for n, cid in enumerate(has_audio):
        conv = convs[cid]
        src = audio_file(project, conv)
        if src is None or not src.is_file():
            raise ExportError(f"the audio of {cid!r} is missing; relink it before exporting")
        if on_cluster:  # the worker checks the sha256 as it reads the file
            surrogates = {it.span_id: it.surrogate for it in job.revised[cid].items}
            mask_jobs.append(Task(key=cid, weight=float(conv.duration or 1.0),
                                  args=_worker_mask_args(job, cid, src, {cid: surrogates})))
            continue
        if conv.audio_sha256 and sha256_file(src) != conv.audio_sha256:
            raise ExportError(f"the audio of {cid!r} has changed since it was imported (sha256 differs), "
                              "so its word times may not fit; re-import it before exporting")
        job.sources[cid] = src
        ranges = mask_ranges(conv, **range_settings(project))
        job.ranges_of[cid] = ranges
        dst = job.inside(*job.audio_rel[cid].split("/"))
        dst.parent.mkdir(parents=True, exist_ok=True)
        surrogates = {it.span_id: it.surrogate for it in job.revised[cid].items}
        params = conversation_params(method, job.mask_params, conv, {cid: surrogates})
        rep = job.tools.mask(src, dst, ranges, method, params, progress=part(report, n, 1, total=len(has_audio)),
                             cancel=cancel)
        job.mask_reports[cid] = _mask_summary(rep, ranges)
        interop.write_audacity(job.inside, cid, ranges)
        report((n + 1) / len(has_audio))
    if mask_jobs:
        from redactdesk.pipeline.stage_tasks import mask_task

        for task, rep in executor.run(mask_task, mask_jobs, label=f"masking ({method})", cancel=cancel,
                                      warm=[("mask", method)], progress=part(report)):
            job.mask_reports[task.key] = _mask_summary(rep, job.ranges_of[task.key])
        job.mask_reports = {cid: job.mask_reports[cid] for cid in has_audio}


# ------------------------------------------------------------------ on a cluster, beside the text steps
def runs_beside_text(job: ReleaseJob) -> bool:
    """True when the recordings are masked, re-listened and measured on the cluster's workers while
    this process substitutes, re-checks and scans the text: two or more recordings, a cluster, and
    a masking method that does not speak the surrogates (``voice`` needs the substituted text first)."""
    return not is_in_process(job.executor) and len(job.has_audio) > 1 and job.method != "voice"


def audio_tasks(job: ReleaseJob) -> list[Task]:
    """One worker task per recording (mask, re-listen, prosody); reads the project, so it runs
    before the text steps start beside it."""
    from redactdesk.pipeline.audio_project import audio_file

    project, convs = job.project, job.convs
    job.on_cluster = True
    relisten_options = _relisten_options(job) if job.tools.relisten is not None else None
    own_relisten = None if job.tools.relisten_is_default else job.tools.relisten
    own = job.tools.prosody
    prosody: Any = False if own is None else True if own is default_prosody() else own  # True: the worker's own
    tasks = []
    for cid in job.has_audio:
        conv = convs[cid]
        src = audio_file(project, conv)
        if src is None or not src.is_file():
            raise ExportError(f"the audio of {cid!r} is missing; relink it before exporting")
        tasks.append(Task(key=cid, weight=float(conv.duration or 1.0),
                          args=(_worker_mask_args(job, cid, src, None), conv, relisten_options, own_relisten, prosody)))
    tasks.sort(key=lambda t: -t.weight)  # longest first: what finishes last, while a worker idles, is short
    return tasks


def _worker_mask_args(job: ReleaseJob, cid: str, src: Any, surrogates: Any) -> tuple[Any, ...]:
    """``stage_tasks.mask_task``'s arguments for one recording (its ranges and Audacity labels made
    here); the worker checks the recording's sha256 as it reads it."""
    from redactdesk.audio import mask_ranges
    from redactdesk.audio.masker_params import conversation_params
    from redactdesk.pipeline.audio_project import range_settings

    conv = job.convs[cid]
    job.sources[cid] = src
    job.ranges_of[cid] = mask_ranges(conv, **range_settings(job.project))
    interop.write_audacity(job.inside, cid, job.ranges_of[cid])
    dst = job.inside(*job.audio_rel[cid].split("/"))
    return (str(src), str(dst), job.ranges_of[cid], job.method,
            conversation_params(job.method, job.mask_params, conv, surrogates), conv.audio_sha256,
            None if job.tools.mask_is_default else job.tools.mask)


def run_audio_tasks(job: ReleaseJob, tasks: Sequence[Task], report: Report, cancel: Any) -> None:
    """Run :func:`audio_tasks` on the cluster and keep what each recording's reports say (counts,
    times and categories; never what was heard)."""
    from redactdesk.pipeline.stage_tasks import release_audio_task

    model = str(_relisten_options(job).get("model", "tiny.en"))
    warm = sorted({("mask", job.method)} | ({("relisten", model, job.convs[c].language) for c in job.has_audio}
                                             if job.tools.relisten is not None else set()))
    prosody: dict[str, dict[str, Any]] = {}
    for task, res in job.executor.run(release_audio_task, tasks, label=f"masking ({job.method}) and re-listening",
                                      cancel=cancel, warm=warm, progress=part(report)):
        cid = task.key
        job.mask_reports[cid] = _mask_summary(res["mask"], job.ranges_of[cid])
        if res["relisten"] is not None:
            job.relisten_results[cid] = _relisten_summary(res["relisten"])
        if res["prosody"] is not None:
            prosody[cid] = _prosody_row(cid, res["prosody"], len(job.ranges_of[cid]))
    job.mask_reports = {cid: job.mask_reports[cid] for cid in job.has_audio}
    if job.tools.relisten is not None:
        job.relisten_results = {cid: job.relisten_results[cid] for cid in job.has_audio}
    job.prosody_rows = [prosody[cid] for cid in job.has_audio if cid in prosody]


def _relisten_options(job: ReleaseJob) -> dict[str, Any]:
    return {"model": job.settings["mask.relisten_model"]} if job.settings.get("mask.relisten_model") else {}


def relisten(job: ReleaseJob, report: Report) -> None:
    """Re-listen to every masked recording; what is still heard is counted, never kept as text."""
    relisten_fn = job.tools.relisten
    assert relisten_fn is not None  # RELISTEN.applies
    convs, has_audio, tmp, results = job.convs, job.has_audio, job.staging, job.relisten_results
    extra = _relisten_options(job)
    if job.on_cluster:
        from redactdesk.pipeline.stage_tasks import relisten_task

        own = None if job.tools.relisten_is_default else relisten_fn
        jobs = [Task(key=cid, weight=float(convs[cid].duration or 1.0), kwargs=extra,
                     args=(str(tmp / job.audio_rel[cid]), convs[cid], job.ranges_of[cid], own)) for cid in has_audio]
        warm = sorted({("relisten", str(extra.get("model", "tiny.en")), convs[c].language) for c in has_audio})
        for task, res in job.executor.run(relisten_task, jobs, label="re-listening", cancel=job.cancel, warm=warm,
                                          progress=part(report)):
            results[task.key] = _relisten_summary(res)
        job.relisten_results = results = {cid: results[cid] for cid in has_audio}
    for n, cid in enumerate(has_audio if not job.on_cluster else []):
        res = relisten_fn(tmp / job.audio_rel[cid], convs[cid], job.ranges_of[cid],
                          progress=part(report, n, 1, total=len(has_audio)), cancel=job.cancel, **extra)
        results[cid] = _relisten_summary(res)
        report((n + 1) / len(has_audio))
    decide_relisten_leaks(job)


def decide_relisten_leaks(job: ReleaseJob) -> None:
    """Refuse while the re-listen check hears accepted items, unless a reviewer gave a written reason
    (not run: no leaks, no override)."""
    job.relisten_leaks = relisten_leaks = sum(r["leaks"] for r in job.relisten_results.values())
    if not relisten_leaks:
        return
    project, override_reason = job.project, job.gate.override_reason
    if override_reason is None:
        raise ExportRefused(
            f"release refused: the re-listen check still recognises {relisten_leaks} accepted item(s) in "
            f"the masked audio ({_leak_places(job.relisten_results)}). Mask with a stronger method, or a "
            "reviewer may override with a written reason.")
    if not _valid_reason(override_reason):
        raise ExportRefused("a leak override needs a written reason (at least 10 characters)")
    if Role(project.role) != Role.REVIEWER:
        raise ExportRefused("only a reviewer can override re-listen leaks; switch to the reviewer role")
    job.override = {"reason": override_reason, "by": project.actor, "role": Role(project.role).value,
                    "at": utc_now(), "leaks": relisten_leaks}


def prosody(job: ReleaseJob, report: Report) -> None:
    prosody_fn = job.tools.prosody
    assert prosody_fn is not None  # PROSODY.applies
    for n, cid in enumerate(job.has_audio):
        summary = prosody_fn(job.sources[cid], job.staging / job.audio_rel[cid], job.ranges_of[cid],
                             method=job.method)
        job.prosody_rows.append(_prosody_row(cid, summary, len(job.ranges_of[cid])))
        report((n + 1) / len(job.has_audio))


MASK = Stage("mask", weight=lambda job: 0.5 * len(job.has_audio),
             message=lambda job: f"masking audio ({job.method})", run=mask)
RELISTEN = Stage("relisten", weight=lambda job: 30.0 * len(job.has_audio) if job.tools.relisten else 0.0,
                 message=lambda job: "re-listening to the masked audio", run=relisten,
                 applies=lambda job: job.tools.relisten is not None and bool(job.has_audio))
PROSODY = Stage("prosody", weight=lambda job: 2.0 * len(job.has_audio) if job.tools.prosody else 0.0,
                message=lambda job: "measuring prosody of the masked audio", run=prosody,
                applies=lambda job: job.tools.prosody is not None and bool(job.has_audio))


def _valid_reason(reason: str | None) -> bool:
    from redactdesk.audio.relisten import valid_reason

    return valid_reason(reason)


def _leak_count(report: Any) -> int:
    if report is None:
        return 0
    if isinstance(report, dict):
        leaks = report.get("leaks", 0)
    else:
        leaks = getattr(report, "leaks", 0)
    return len(leaks) if isinstance(leaks, (list, tuple)) else int(leaks or 0)


def _mask_summary(rep: Any, ranges: Sequence[Any]) -> dict[str, Any]:
    d = as_dict(rep)
    return {"method": d.get("method"), "sample_rate": d.get("sample_rate"), "channels": d.get("channels"),
            "frames": d.get("frames"), "format": d.get("format"), "subtype": d.get("subtype"),
            "ranges": len(ranges), "masked_seconds": round(sum(r.end - r.start for r in ranges), 3)}


def _finite(x: Any) -> Any:
    if isinstance(x, float):
        return round(x, 4) if math.isfinite(x) else None
    return x


def _prosody_row(cid: str, summary: Any, n_ranges: int) -> dict[str, Any]:
    """One report row per conversation: the prosody summary's totals (NaN -> None)."""
    d = as_dict(summary)
    row: dict[str, Any] = {"conversation": cid, "ranges": n_ranges}
    for key in ("pitch_rmsd", "pitch_rmsd_silence", "pitch_gain", "energy_rmsd", "energy_rmsd_silence",
                "energy_gain"):
        if key in d:
            row[key] = _finite(d[key])
    return row


def _relisten_summary(res: Any) -> dict[str, Any]:
    d = as_dict(res)
    leaks = _leak_count(res)
    out: dict[str, Any] = {"leaks": leaks}
    for key in ("ranges_checked", "items_checked", "model", "seconds"):
        if key in d and isinstance(d[key], (int, float, str)):
            out[key] = d[key]
    raw = d.get("leaks")
    if isinstance(raw, (list, tuple)):  # keep where and what category; never what was heard
        out["where"] = [{k: as_dict(x).get(k) for k in ("start", "end", "category", "kind")} for x in raw]
    return out


def _leak_places(results: dict[str, dict[str, Any]]) -> str:
    return ", ".join(f"{cid}: {r['leaks']}" for cid, r in results.items() if r["leaks"])


def audio_seconds(job: ReleaseJob) -> float:
    return sum(float(job.convs[c].duration or 0.0) for c in job.has_audio)

