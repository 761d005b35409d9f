"""Release export: the signed-off corpus, anonymised, as one folder that appears all at once.

``export_release`` checks the sign-off, substitutes every conversation, writes the text formats
(JSON, JSONL, TextGrid, EAF, CoNLL, placeholder text), masks the audio, re-listens to the masked
audio, scans every text file for original values, writes ``report.html`` and ``manifest.json``
(sha256 of every file) and only then renames the temporary sibling folder to the release name.
Any error, refusal or cancel removes the temporary folder: no partial release ever exists.

What never enters a release: the pseudonym map, original values (also not in warnings, meta or the
report), the project secret, the original audio's path or hash.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
import os
import shutil
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from redactdesk import __version__
from redactdesk.core.ids import is_safe_id
from redactdesk.core.types import Conversation, Decision, Role, SpanStatus
from redactdesk.pipeline import export_formats as ef
from redactdesk.pipeline import export_interop as interop
from redactdesk.pipeline.executor import Task, is_in_process
from redactdesk.pipeline.progress import CancelFn, Cancelled, ProgressFn, check_cancel, part
from redactdesk.pipeline.release_recheck import RecheckFinding, findings_message, recheck_release
from redactdesk.pipeline.release_scan import (
    blank_structure,
    cross_hits,
    id_pattern,
    inside_other_surrogates,
    scan_lines,
    scan_release,
)
from redactdesk.risk.gate import Readiness, release_readiness
from redactdesk.risk.leakscan import LeakFinding, needles
from redactdesk.risk.residual import RiskSummary
from redactdesk.risk.signoff import SIGNED_SETTINGS_PREFIXES, SignOffState
from redactdesk.store import Project, utc_now

MANIFEST = "manifest.json"
SIGNATURE = "manifest.sig"
REPORT = "report.html"
README = "README.txt"
DRAFT_SUFFIX = "-DRAFT"
RELEASE_FORMAT = "redactdesk-release"
RELEASE_VERSION = 1
DEFAULT_RISK_THRESHOLD = 5.0


class ExportError(Exception):
    """The release could not be written; nothing was left behind."""


class ExportRefused(ExportError):
    """The release may not be written yet (sign-off missing or stale, leaks found)."""


class LeaksFound(ExportRefused):
    """Original values were found in the would-be release (findings carry hints, never values)."""

    def __init__(self, message: str, findings: Sequence[LeakFinding]) -> None:
        super().__init__(message)
        self.findings = list(findings)


class GateClosed(ExportRefused):
    """Included conversations are undecided, never detected or not reviewed (``readiness`` says which)."""

    def __init__(self, message: str, readiness: Readiness) -> None:
        super().__init__(message)
        self.readiness = readiness


class UndecidedFound(ExportRefused):
    """Detection over the release text finds items nobody decided about (``findings``: where, never what)."""

    def __init__(self, message: str, findings: Sequence[RecheckFinding]) -> None:
        super().__init__(message)
        self.findings = list(findings)


@dataclass
class ReleaseResult:
    """What one export wrote. ``path`` is the release folder."""

    path: Path
    draft: bool
    conversations: list[str]
    files: dict[str, str]  # relative path -> sha256
    manifest: dict[str, Any]
    risk: RiskSummary
    signoff: SignOffState
    leak_findings: list[LeakFinding] = field(default_factory=list)
    relisten: dict[str, dict[str, Any]] = field(default_factory=dict)
    override_reason: str | None = None
    audio_seconds: float = 0.0
    seconds: float = 0.0
    warnings: list[str] = field(default_factory=list)
    readiness: Readiness | None = None
    recheck: list[RecheckFinding] = field(default_factory=list)  # allow-listed (or, in a draft, all) findings

    @property
    def verdict(self) -> str:
        return self.manifest.get("verdict", "")

    @property
    def folder(self) -> Path:
        return self.path

    @property
    def relisten_leaks(self) -> int:
        return sum(int(r.get("leaks", 0)) for r in self.relisten.values())


# ---------------------------------------------------------------------------------------------- steps
class _Steps:
    """Maps step-local progress onto one 0..1 bar and checks cancel at every report."""

    def __init__(self, weights: dict[str, float], progress: ProgressFn | None, cancel: CancelFn | None) -> None:
        self.weights = weights
        self.total = sum(weights.values()) or 1.0
        self.done = 0.0
        self.progress = progress
        self.cancel = cancel

    def start(self, name: str, message: str) -> Callable[[float], None]:
        check_cancel(self.cancel)
        base, weight = self.done, self.weights.get(name, 0.0)
        self.done += weight

        def report(fraction: float, *_: Any) -> None:
            check_cancel(self.cancel)
            if self.progress is not None:
                self.progress(min(1.0, (base + weight * min(max(fraction, 0.0), 1.0)) / self.total), message)

        report(0.0)
        return report


# ---------------------------------------------------------------------------------------------- tools
def _default_substitute() -> Callable[..., Any]:
    try:
        from redactdesk.substitute.engine import substitute_conversation
    except ImportError as exc:
        raise ExportError(f"substitution is not available in this installation ({exc})") from exc
    return substitute_conversation


def _default_mask() -> Callable[..., Any]:
    from redactdesk.audio import mask_file

    return mask_file


def _default_relisten() -> Callable[..., Any]:
    from redactdesk.audio import relisten

    return relisten


def _default_prosody() -> Callable[..., Any]:
    from redactdesk.audio import prosody_report

    return prosody_report


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


def _as_dict(obj: Any) -> dict[str, Any]:
    if obj is None:
        return {}
    if isinstance(obj, dict):
        return dict(obj)
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type) and not hasattr(obj, "to_dict"):
        return dataclasses.asdict(obj)
    to_dict = getattr(obj, "to_dict", None)
    return dict(to_dict()) if callable(to_dict) else {"value": str(obj)}


# ---------------------------------------------------------------------------------------------- files
def sha256_of(path: Path, chunk: int = 1 << 20) -> str:
    h = hashlib.sha256()
    with path.open("rb") as fh:
        while block := fh.read(chunk):
            h.update(block)
    return h.hexdigest()


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8", newline="\n")


def _fsync_tree(root: Path) -> None:
    """Flush every file and folder below ``root`` (and root itself) to disk."""
    dirs = [root]
    for p in sorted(root.rglob("*")):
        if p.is_dir():
            dirs.append(p)
            continue
        fd = os.open(p, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
    for d in dirs:
        _fsync_dir(d)


def _fsync_dir(d: Path) -> None:
    try:
        fd = os.open(d, os.O_RDONLY)
    except OSError:  # some platforms cannot open folders
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def release_path(out_dir: str | os.PathLike[str], draft: bool) -> Path:
    """The folder a release goes to: ``out_dir``, with "-DRAFT" appended to a draft's name."""
    p = Path(out_dir)
    if draft and not p.name.endswith(DRAFT_SUFFIX):
        p = p.with_name(p.name + DRAFT_SUFFIX)
    return p


# ---------------------------------------------------------------------------------------------- export
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
    substitute: Callable[..., Any] | None = None,
    mask: Callable[..., Any] | None = None,
    relisten: Callable[..., Any] | bool | None = None,
    prosody: Callable[..., Any] | bool | None = None,
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
    from redactdesk.resources import load_taxonomy
    from redactdesk.risk.residual import project_summary
    from redactdesk.risk.sample import sample_ids
    from redactdesk.risk.signoff import content_hash, signoff_state

    t0 = time.perf_counter()
    final = release_path(out_dir, draft)
    state = signoff_state(project)
    if not draft and not state.valid:
        raise ExportRefused(f"release refused: {state.describe()}. A reviewer must sign off the current "
                            "decisions first (or export a draft).")
    if not draft:
        _check_signing_key(state)
    if final.exists():
        raise ExportError(f"{final} already exists; choose another folder name")
    _check_audit(project, draft)
    excluded = set(state.excluded) if state.signed else set()
    overrides = dict(state.overrides) if state.signed else {}
    if conversation_ids is not None:
        ids = list(conversation_ids)
        unknown = [c for c in ids if not project.has_conversation(c)]
        if unknown:
            raise ExportError(f"no conversation {unknown[0]!r} in the project")
        left_out = [c for c in ids if c in excluded]
        if left_out and not draft:
            raise ExportRefused(f"release refused: {left_out[0]!r} is excluded from the release by the sign-off")
    else:
        ids = [c for c in project.conversation_ids() if c not in excluded]
    if not ids:
        raise ExportError("the project has no conversations to release"
                          + (" (the sign-off excludes every one)" if excluded else ""))
    unsafe = [n for n, c in enumerate(ids, 1) if not is_safe_id(c)]
    if unsafe:
        raise ExportRefused(f"release refused: {len(unsafe)} conversation id(s) (the first is number {unsafe[0]} "
                            "in the list) are not safe as file names; ids may use letters, digits, '.', '_' "
                            "and '-'. Re-import those recordings with --id.")
    readiness = release_readiness(project, ids, overrides=overrides)
    if readiness.blocked and not draft:
        raise GateClosed(readiness.refusal(), readiness)
    override_reason = (override_reason or "").strip() or None
    stored_override = project.setting("review.leak_override")
    if override_reason is None and isinstance(stored_override, str) and stored_override.strip():
        override_reason = stored_override.strip()
    elif override_reason is None and isinstance(stored_override, dict) and stored_override.get("reason"):
        override_reason = str(stored_override["reason"]).strip() or None

    substitute = substitute or _default_substitute()
    default_mask = _default_mask()
    mask = mask or default_mask
    relisten_fn = _default_relisten() if relisten is None or relisten is True else (relisten or None)
    prosody_fn = _default_prosody() if prosody is None or prosody is True else (prosody or None)
    settings = project.settings()
    method = mask_method or settings.get("mask.method") or "silence"
    mask_params = settings.get("mask.params")

    convs = {cid: project.load_conversation(cid) for cid in ids}
    overridden = {g.id for g in readiness.overridden}
    for cid in overridden:  # released unreviewed by a written override: open suggestions are anonymised
        convs[cid] = _suggestions_accepted(convs[cid])
    has_audio = [cid for cid in ids if convs[cid].audio_path]
    # shares of the bar in seconds per call as measured on the demo corpus (2 busy cores)
    weights = {"substitute": 1.0 * len(ids), "recheck": 0.3 * len(ids), "mask": 0.5 * len(has_audio),
               "relisten": (30.0 * len(has_audio)) if relisten_fn else 0.0,
               "prosody": (2.0 * len(has_audio)) if prosody_fn else 0.0,
               "scan": 0.3 * len(ids), "report": 2.0, "finish": 0.5}
    steps = _Steps(weights, progress, cancel)

    final.parent.mkdir(parents=True, exist_ok=True)
    removed = remove_stale_partials(final.parent)
    tmp = Path(tempfile.mkdtemp(prefix=f".{final.name}{PARTIAL_MARK}", dir=final.parent))
    lock = _hold_partial(tmp)
    try:
        warnings: list[str] = []
        # 1. substitute and write the text formats
        report = steps.start("substitute", "substituting and writing transcripts")
        revised: dict[str, ef.RevisedConversation] = {}
        jsonl: list[str] = []
        conll: list[str] = []
        audio_rel: dict[str, str] = {}
        mode = str(settings.get("substitute.mode", "pseudonym"))
        general = _generalisation_levels(convs, int(settings.get("substitute.k", 3))) if mode == "generalise" else {}
        for n, cid in enumerate(ids):
            conv = convs[cid]
            if conv.audio_path:
                audio_rel[cid] = f"audio/{cid}{Path(conv.audio_path).suffix.lower() or '.wav'}"
            rev, unsigned = _revise(project, conv, substitute, mode, general.get(cid))
            if cid in overridden:
                unsigned = 0  # surrogates of the open suggestions are made now; the override covers them
            if unsigned and not draft:
                raise ExportRefused(
                    f"release refused: {unsigned} surrogate(s) of {cid!r} are not in the project's pseudonym map, "
                    "so the sign-off did not cover them. Run substitution, check it, and sign off again.")
            if unsigned:
                warnings.append(f"{cid}: {unsigned} surrogate(s) not yet stored in the project (run substitution)")
            revised[cid] = rev
            open_suggestions = len(conv.spans_by_status(SpanStatus.SUGGESTED))
            if open_suggestions:
                warnings.append(f"{cid}: {open_suggestions} suggestion(s) still undecided (not anonymised)")
            _write(_inside(tmp, "corpus", f"{cid}.json"),
                   ef.format_release_json(rev, f"../{audio_rel[cid]}" if cid in audio_rel else None, draft=draft))
            from redactdesk.formats import write_eaf, write_textgrid

            write_textgrid(rev.words, _inside(tmp, "textgrid", f"{cid}.TextGrid"), duration=rev.duration,
                           items=ef.textgrid_items(rev))
            write_eaf(rev.words, _inside(tmp, "eaf", f"{cid}.eaf"),
                      audio_rel=f"../{audio_rel[cid]}" if cid in audio_rel else None,
                      items=ef.eaf_items(rev), vocabulary=ef.category_vocabulary(load_taxonomy()))
            interop.write_conversation_files(lambda *parts: _inside(tmp, *parts), rev, audio_rel.get(cid))
            _write(_inside(tmp, "text", f"{cid}.txt"), ef.placeholder_text(rev))
            jsonl.extend(ef.jsonl_lines(rev))
            conll.append(ef.conll_text(rev))
            report((n + 1) / len(ids))
        _write(tmp / "corpus.jsonl", "\n".join(jsonl) + "\n")
        _write(tmp / "corpus.conll", "".join(conll))
        interop.write_corpus_files(tmp, [revised[c] for c in ids], audio_rel)
        if removed:
            warnings.append(f"removed {removed} unfinished release folder(s) left by an export that was stopped")

        # 1b. detection again over the release text: what nobody decided about stops the export here,
        #     before the slow audio steps
        report = steps.start("recheck", "detecting again over the release text")
        recheck = recheck_release(convs, revised, deny=[(t, c or "GENERIC_ID") for t, c in project.terms("deny")],
                                  allow_signed=[t for t, _ in project.terms("allow")])
        blocking = [f for f in recheck if not f.allow_listed]
        if blocking and not draft:
            raise UndecidedFound(findings_message(blocking), blocking)
        for f in blocking:
            warnings.append(f"undecided: {f.describe()}")
        report(1.0)

        # 2. masked audio (same format as the source), then the re-listen check and prosody
        from redactdesk.audio import mask_ranges
        from redactdesk.audio.masker_params import conversation_params
        from redactdesk.pipeline.audio_project import audio_file, range_settings, sha256_of

        mask_reports: dict[str, dict[str, Any]] = {}
        ranges_of: dict[str, list[Any]] = {}
        sources: dict[str, Path] = {}
        on_cluster = not is_in_process(executor) and len(has_audio) > 1
        mask_jobs: list[Task] = []
        report = steps.start("mask", f"masking audio ({method})")
        for n, cid in enumerate(has_audio):
            conv = convs[cid]
            src = audio_file(project, conv)
            if src is None or not src.is_file():
                raise ExportError(f"the audio of {cid!r} is missing; relink it before exporting")
            if on_cluster:  # the worker checks the sha256 as it reads the file
                sources[cid] = src
                ranges_of[cid] = mask_ranges(conv, **range_settings(project))
                interop.write_audacity(lambda *parts: _inside(tmp, *parts), cid, ranges_of[cid])
                dst = _inside(tmp, *audio_rel[cid].split("/"))
                surrogates = {it.span_id: it.surrogate for it in revised[cid].items}
                mask_jobs.append(Task(key=cid, weight=float(conv.duration or 1.0), args=(
                    str(src), str(dst), ranges_of[cid], method,
                    conversation_params(method, mask_params, conv, {cid: surrogates}), conv.audio_sha256,
                    None if mask is default_mask else mask)))
                continue
            if conv.audio_sha256 and sha256_of(src) != conv.audio_sha256:
                raise ExportError(f"the audio of {cid!r} has changed since it was imported (sha256 differs), "
                                  "so its word times may not fit; re-import it before exporting")
            sources[cid] = src
            ranges = mask_ranges(conv, **range_settings(project))
            ranges_of[cid] = ranges
            dst = _inside(tmp, *audio_rel[cid].split("/"))
            dst.parent.mkdir(parents=True, exist_ok=True)
            surrogates = {it.span_id: it.surrogate for it in revised[cid].items}
            params = conversation_params(method, mask_params, conv, {cid: surrogates})
            rep = mask(src, dst, ranges, method, params, progress=part(report, n, 1, total=len(has_audio)),
                       cancel=cancel)
            mask_reports[cid] = _mask_summary(rep, ranges)
            interop.write_audacity(lambda *parts: _inside(tmp, *parts), cid, ranges)
            report((n + 1) / len(has_audio))
        if mask_jobs:
            from redactdesk.pipeline.stage_tasks import mask_task

            for task, rep in executor.run(mask_task, mask_jobs, label=f"masking ({method})", cancel=cancel,
                                          warm=[("mask", method)], progress=part(report)):
                mask_reports[task.key] = _mask_summary(rep, ranges_of[task.key])
            mask_reports = {cid: mask_reports[cid] for cid in has_audio}

        relisten_results: dict[str, dict[str, Any]] = {}
        if relisten_fn is not None and has_audio:
            report = steps.start("relisten", "re-listening to the masked audio")
            extra = {"model": settings["mask.relisten_model"]} if settings.get("mask.relisten_model") else {}
            if on_cluster:
                from redactdesk.pipeline.stage_tasks import relisten_task

                own = None if relisten is None or relisten is True else relisten_fn
                jobs = [Task(key=cid, weight=float(convs[cid].duration or 1.0), kwargs=extra,
                             args=(str(tmp / audio_rel[cid]), convs[cid], ranges_of[cid], own)) for cid in has_audio]
                warm = sorted({("relisten", str(extra.get("model", "tiny.en")), convs[c].language) for c in has_audio})
                for task, res in executor.run(relisten_task, jobs, label="re-listening", cancel=cancel, warm=warm,
                                              progress=part(report)):
                    relisten_results[task.key] = _relisten_summary(res)
                relisten_results = {cid: relisten_results[cid] for cid in has_audio}
            for n, cid in enumerate(has_audio if not on_cluster else []):
                res = relisten_fn(tmp / audio_rel[cid], convs[cid], ranges_of[cid],
                                  progress=part(report, n, 1, total=len(has_audio)), cancel=cancel, **extra)
                relisten_results[cid] = _relisten_summary(res)
                report((n + 1) / len(has_audio))
        relisten_leaks = sum(r["leaks"] for r in relisten_results.values())
        override = None
        if relisten_leaks:
            if override_reason is None:
                raise ExportRefused(
                    f"release refused: the re-listen check still recognises {relisten_leaks} accepted item(s) in "
                    f"the masked audio ({_leak_places(relisten_results)}). Mask with a stronger method, or a "
                    "reviewer may override with a written reason.")
            if not _valid_reason(override_reason):
                raise ExportRefused("a leak override needs a written reason (at least 10 characters)")
            if Role(project.role) != Role.REVIEWER:
                raise ExportRefused("only a reviewer can override re-listen leaks; switch to the reviewer role")
            override = {"reason": override_reason, "by": project.actor, "role": Role(project.role).value,
                        "at": utc_now(), "leaks": relisten_leaks}

        prosody_rows: list[dict[str, Any]] = []
        if prosody_fn is not None and has_audio:
            report = steps.start("prosody", "measuring prosody of the masked audio")
            for n, cid in enumerate(has_audio):
                summary = prosody_fn(sources[cid], tmp / audio_rel[cid], ranges_of[cid], method=method)
                prosody_rows.append(_prosody_row(cid, summary, len(ranges_of[cid])))
                report((n + 1) / len(has_audio))

        # 3. leak scan over every text file written so far
        report = steps.start("scan", "scanning the release for original values")
        _write(tmp / README, _readme(draft, ids, method))
        all_needles = needles(convs.values())
        findings, coincidental = inside_other_surrogates(scan_release(tmp, convs.values(), ns=all_needles),
                                                         convs.values(), revised, ns=all_needles)
        if findings:
            raise LeaksFound(_findings_message(findings), findings)
        for c in sorted({f.conversation_id for f in coincidental}):
            cats = sorted({f.category for f in coincidental if f.conversation_id == c})
            warnings.append(f"{c}: a value accepted as {', '.join(cats)} also occurs inside another item's "
                            "surrogate (a coincidence of generated values, not a leak)")
        cross: dict[str, dict[str, int]] = {}
        for hit in cross_hits(tmp, convs.values(), ns=all_needles):
            cross.setdefault(hit.conversation_id, {}).setdefault(hit.category, 0)
            cross[hit.conversation_id][hit.category] += 1
        report(1.0)

        # 4. risk, report, manifest
        report = steps.start("report", "writing the report")
        taxonomy = load_taxonomy()
        sample = sample_ids(settings.get("review.sample"))
        risk_ids = [c for c in sample if c in convs] if sample else []
        risk_ids = risk_ids or ids
        threshold = float(settings.get("review.threshold", DEFAULT_RISK_THRESHOLD))
        risk = project_summary(project, risk_ids, taxonomy, threshold)
        if risk.measured and not risk.passed and not draft:
            raise ExportRefused(f"release refused: residual risk mu+sigma {risk.criterion:.2f} is not below the "
                                f"threshold {risk.threshold:g} ({len(risk.scores)} conversation(s) scored from "
                                "reviewers' MISSED_ marks). Fix the misses and sign off again.")
        unknown_not_overridden = [c for c in risk.unknown if c not in overridden]
        if unknown_not_overridden and not draft:  # the gate should have stopped this; never pass it silently
            raise ExportRefused(f"release refused: the residual risk of {len(unknown_not_overridden)} "
                                "conversation(s) is unknown (not reviewed)")
        current_hash = content_hash(project)
        verdict = _verdict(draft, readiness, risk, relisten_leaks, override, len(ids))
        manifest: dict[str, Any] = {
            "verdict": verdict,
            "format": RELEASE_FORMAT, "version": RELEASE_VERSION, "tool": "redactdesk", "tool_version": __version__,
            "created": utc_now(), "draft": draft, "release": final.name,
            "gate": {**readiness.counts(), "excluded_ids": sorted(excluded),
                     "overrides": {g.id: {"reason": g.override, "open": g.problems} for g in readiness.overridden}},
            "recheck": {"undecided": len(blocking), "allow_listed": sum(f.allow_listed for f in recheck),
                        "where": [{"conversation": f.conversation_id, "start_word": f.start_word,
                                   "end_word": f.end_word, "category": f.category, "allow_listed": f.allow_listed}
                                  for f in recheck]},
            "conversations": [{"id": cid, "words": len(revised[cid].words), "items": len(revised[cid].items),
                               "audio": audio_rel.get(cid)} for cid in ids],
            "settings": {k: v for k, v in sorted(settings.items()) if k.startswith(SIGNED_SETTINGS_PREFIXES)},
            "mask": {"method": method, "params": mask_params, "audio": mask_reports},
            "signoff": {"state": _signoff_label(state), "reviewer": state.reviewer, "at": state.at,
                        "comment": state.comment, "content_hash": state.content_hash,
                        "key_id": getattr(state, "key_id", None)},
            "content_hash": current_hash,
            "leak_scan": {"text_findings": 0, "cross_conversation": cross, "relisten_run": relisten_fn is not None,
                          "relisten_leaks": relisten_leaks, "relisten": relisten_results},
            "leak_override": override,
            "risk": risk.to_dict(),
            "prosody": prosody_rows,
            "warnings": warnings,
        }
        from redactdesk.pipeline.report import render_report

        report_text = render_report(manifest, risk, prosody_rows)
        findings = scan_lines(blank_structure(REPORT, report_text, id_pattern(convs)), REPORT, all_needles)
        if findings:
            raise LeaksFound(_findings_message(findings), findings)
        _write(tmp / REPORT, report_text)
        report(1.0)

        report = steps.start("finish", "writing the manifest")
        files = {p.relative_to(tmp).as_posix(): p for p in sorted(tmp.rglob("*")) if p.is_file()}
        sums = {rel: sha256_of(p) for rel, p in files.items()}
        manifest["files"] = {rel: {"sha256": sums[rel], "bytes": files[rel].stat().st_size} for rel in sums}
        manifest_text = json.dumps(manifest, ensure_ascii=False, indent=1, allow_nan=False) + "\n"
        findings = scan_lines(blank_structure(MANIFEST, manifest_text, id_pattern(convs)), MANIFEST, all_needles)
        if findings:
            raise LeaksFound(_findings_message(findings), findings)
        _write(tmp / MANIFEST, manifest_text)
        if not draft:  # the reviewer's Ed25519 signature over the manifest: `redactdesk verify RELEASE`
            (tmp / SIGNATURE).write_bytes(_sign_manifest(manifest_text.encode("utf-8"), state))
        _fsync_tree(tmp)
        check_cancel(cancel)
        if final.exists():
            raise ExportError(f"{final} appeared while exporting; nothing was replaced")
        os.rename(tmp, final)
    except BaseException as exc:
        shutil.rmtree(tmp, ignore_errors=True)
        if isinstance(exc, Cancelled):  # the export's own, or a stage's (MaskCancelled, AsrCancelled...)
            raise Cancelled("export cancelled; no release was written") from exc
        raise
    finally:
        _release_partial(tmp, lock)
    _fsync_dir(final.parent)
    if progress is not None:
        progress(1.0, "release written")
    audio_seconds = sum(float(convs[c].duration or 0.0) for c in has_audio)
    with project.transaction():
        if override is not None:
            project.log(Decision(action="leak_override", actor=project.actor, role=Role(project.role),
                                 at=override["at"], after={"release": final.name, "leaks": relisten_leaks,
                                                           "reason": override_reason}))
        project.log(Decision(action="export", actor=project.actor, role=Role(project.role), at=utc_now(),
                             after={"release": final.name, "draft": draft, "conversations": len(ids),
                                    "files": len(sums) + 1, "content_hash": current_hash}))
    return ReleaseResult(path=final, draft=draft, conversations=ids,
                         files={**sums, MANIFEST: sha256_of(final / MANIFEST)}, manifest=manifest, risk=risk,
                         signoff=state, relisten=relisten_results, override_reason=override_reason if override else None,
                         audio_seconds=audio_seconds, seconds=time.perf_counter() - t0, warnings=warnings,
                         readiness=readiness, recheck=recheck)


def _verdict(draft: bool, readiness: Readiness, risk: RiskSummary, relisten_leaks: int,
             leak_override: dict[str, Any] | None, n: int) -> str:
    """The release's one-line verdict: the first line of the report and of the CLI summary."""
    c = readiness.counts()
    if draft:
        open_bits = readiness.summary_line()
        return f"DRAFT — NOT FOR RELEASE: {n} conversation(s); {open_bits}; residual risk {risk.verdict}"
    extra = []
    if c["overridden"]:
        extra.append(f"{c['overridden']} conversation(s) released unreviewed by written override "
                     "(their residual risk is unknown)")
    if leak_override:
        extra.append(f"{relisten_leaks} re-listen finding(s) overridden")
    head = "PASS WITH OVERRIDES" if extra else "PASS"
    risk_part = (f"residual risk mu+sigma {risk.criterion:.2f} < {risk.threshold:g}" if risk.measured
                 else f"residual risk {risk.verdict}")
    tail = f"; {'; '.join(extra)}" if extra else ""
    excluded = f", {c['excluded']} excluded" if c["excluded"] else ""
    return (f"{head}: signed release of {n} conversation(s){excluded}, every one detected and reviewed"
            f"{' or overridden' if c['overridden'] else ''}; leak scan 0; re-detection 0 undecided; {risk_part}"
            f"{tail}")


def _signoff_label(state: SignOffState) -> str:
    if state.valid:
        return "valid"
    for flag in ("forged", "untrusted", "history_changed", "stale"):
        if getattr(state, flag, False):
            return flag
    return "missing" if not state.signed else "invalid"


def _check_signing_key(state: SignOffState) -> None:
    """The release is signed with the key that signed the sign-off: it must be on this machine."""
    from redactdesk.risk import keys

    if not state.reviewer or not keys.has_key(state.reviewer):
        raise ExportRefused(f"release refused: the release is signed with the key of the reviewer who signed it "
                            f"off ({state.reviewer}), and that key is not on this machine. The reviewer exports "
                            "it, or signs off again here.")
    local = keys.key_id(keys.public_key_text(keys.reviewer_key(state.reviewer)))
    if getattr(state, "key_id", None) and local != state.key_id:
        raise ExportRefused(f"release refused: the sign-off was made with another key of {state.reviewer} (key "
                            f"{state.key_id}, this machine has {local}); sign off again here.")


def _sign_manifest(manifest_bytes: bytes, state: SignOffState) -> bytes:
    from redactdesk.pipeline.release_signature import sign_release

    return sign_release(manifest_bytes, state.reviewer or "")


def _check_audit(project: Project, draft: bool) -> None:
    """The whole audit log must verify before anything is released (a draft reports it)."""
    verify = getattr(project, "verify_audit", None)
    if verify is None:
        return
    check = verify(full=True)
    if not getattr(check, "ok", True) and not draft:
        raise ExportRefused(f"release refused: the project's audit log does not verify ({check.reason}); it was "
                            "changed outside redactdesk. Restore a backup of the project file.")


def _suggestions_accepted(conv: Conversation) -> Conversation:
    """A copy of ``conv`` whose open suggestions count as accepted (overridden, unreviewed conversations)."""
    spans = [dataclasses.replace(s, status=SpanStatus.ACCEPTED) if s.status == SpanStatus.SUGGESTED else s
             for s in conv.spans]
    return dataclasses.replace(conv, spans=spans)


def _inside(root: Path, *parts: str) -> Path:
    """``root/parts`` — refusing any path that would leave ``root`` (ids are data, not paths)."""
    target = root.joinpath(*parts)
    if any(p in ("", ".", "..") or "/" in p or "\\" in p or "\0" in p for p in parts):
        raise ExportRefused("release refused: a file name in the release would leave the release folder")
    if os.path.commonpath([os.path.abspath(root), os.path.abspath(target)]) != os.path.abspath(root):
        raise ExportRefused("release refused: a file name in the release would leave the release folder")
    return target


# ------------------------------------------------------------------------------- unfinished releases
PARTIAL_MARK = ".partial-"
LOCK_SUFFIX = ".lock"
STALE_UNLOCKED_SECONDS = 120.0  # a partial folder with no lock file (killed before locking) counts as stale after


def _hold_partial(tmp: Path) -> Any:
    """Lock a file beside the staging folder for as long as this export runs (released if it dies)."""
    import fcntl

    fh = open(str(tmp) + LOCK_SUFFIX, "w")  # noqa: SIM115 - held open until the export ends
    fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    return fh


def _release_partial(tmp: Path, lock: Any) -> None:
    try:
        lock.close()
    finally:
        Path(str(tmp) + LOCK_SUFFIX).unlink(missing_ok=True)


def remove_stale_partials(folder: Path) -> int:
    """Remove staging folders that an export left when it was killed; returns how many.

    A staging folder belongs to a running export while its lock file is locked; once that process
    is gone the lock is free, so the folder is stale. Folders without a lock file count as stale
    once they are a little old (an export killed between creating the folder and locking it).
    """
    import fcntl

    removed = 0
    for d in folder.glob(f".*{PARTIAL_MARK}*"):
        if not d.is_dir() or d.name.endswith(LOCK_SUFFIX):
            continue
        lock_path = Path(str(d) + LOCK_SUFFIX)
        if lock_path.exists():
            try:
                fh = open(lock_path, "a")  # noqa: SIM115
            except OSError:
                continue
            try:
                fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                fh.close()
                continue  # a running export holds it
            try:
                shutil.rmtree(d, ignore_errors=True)
                lock_path.unlink(missing_ok=True)
            finally:
                fh.close()
            removed += 1
        elif time.time() - d.stat().st_mtime > STALE_UNLOCKED_SECONDS:
            shutil.rmtree(d, ignore_errors=True)
            removed += 1
    return removed


def _generalisation_levels(convs: dict[str, Conversation], k: int) -> dict[str, dict[str, int]]:
    """Per conversation {span category: level}, as ``substitute_project`` computes it (mode "generalise")."""
    from redactdesk.substitute.generalise import (
        SPAN_CATEGORY_OF_QI,
        extract_quasi_identifiers,
        generalise_records,
    )

    records = {cid: extract_quasi_identifiers(c) for cid, c in convs.items()}
    report = generalise_records(records, {cid: c.language for cid, c in convs.items()}, k=k)
    return {cid: {SPAN_CATEGORY_OF_QI[q]: lv for q, lv in report.levels[cid].items() if q in SPAN_CATEGORY_OF_QI}
            for cid in convs}


def _revise(project: Project, conv: Conversation, substitute: Callable[..., Any], mode: str,
            generalisation: dict[str, int] | None) -> tuple[ef.RevisedConversation, int]:
    """The revised conversation and how many surrogates differ from the project's stored map."""
    stored = project.pseudonyms(conv.id)
    extra = {"generalisation": generalisation} if mode == "generalise" else {}
    result = substitute(conv, mode=mode, secret=project.secret, existing_map=stored, language=conv.language,
                        gazetteer_edits=project.gazetteer_entries(conv.language), **extra)
    kept = {(r["key"], r["category"]): r["surrogate"] for r in stored}
    unsigned = sum(1 for r in getattr(result, "map_rows", None) or []
                   if kept.get((r["key"], r["category"])) != r["surrogate"])
    try:
        return ef.build_revised(conv, result.revised_words, result.replacements), unsigned
    except ef.RevisionError as exc:
        raise ExportError(str(exc)) from exc


def _mask_summary(rep: Any, ranges: Sequence[Any]) -> dict[str, Any]:
    d = _as_dict(rep)
    return {"method": d.get("method"), "sample_rate": d.get("sample_rate"), "channels": d.get("channels"),
            "frames": d.get("frames"), "format": d.get("format"), "subtype": d.get("subtype"),
            "ranges": len(ranges), "masked_seconds": round(sum(r.end - r.start for r in ranges), 3)}


def _finite(x: Any) -> Any:
    if isinstance(x, float):
        return round(x, 4) if math.isfinite(x) else None
    return x


def _prosody_row(cid: str, summary: Any, n_ranges: int) -> dict[str, Any]:
    """One report row per conversation: the prosody summary's totals (NaN -> None)."""
    d = _as_dict(summary)
    row: dict[str, Any] = {"conversation": cid, "ranges": n_ranges}
    for key in ("pitch_rmsd", "pitch_rmsd_silence", "pitch_gain", "energy_rmsd", "energy_rmsd_silence",
                "energy_gain"):
        if key in d:
            row[key] = _finite(d[key])
    return row


def _relisten_summary(res: Any) -> dict[str, Any]:
    d = _as_dict(res)
    leaks = _leak_count(res)
    out: dict[str, Any] = {"leaks": leaks}
    for key in ("ranges_checked", "items_checked", "model", "seconds"):
        if key in d and isinstance(d[key], (int, float, str)):
            out[key] = d[key]
    raw = d.get("leaks")
    if isinstance(raw, (list, tuple)):  # keep where and what category; never what was heard
        out["where"] = [{k: _as_dict(x).get(k) for k in ("start", "end", "category", "kind")} for x in raw]
    return out


def _leak_places(results: dict[str, dict[str, Any]]) -> str:
    return ", ".join(f"{cid}: {r['leaks']}" for cid, r in results.items() if r["leaks"])


def _findings_message(findings: Sequence[LeakFinding]) -> str:
    shown = "; ".join(f"{f.file}:{f.line} {f.category} ({f.variant}, {f.hint})" for f in findings[:8])
    more = f" and {len(findings) - 8} more" if len(findings) > 8 else ""
    return (f"release refused: {len(findings)} original value(s) found in the exported text: {shown}{more}. "
            "Nothing was written; check the substitution of these items.")


def _readme(draft: bool, ids: Sequence[str], method: str) -> str:
    banner = ("DRAFT — NOT SIGNED OFF. This release is a draft for checking only; do not share it.\n\n"
              if draft else "")
    return banner + f"""redactdesk release{' (DRAFT)' if draft else ''} — {len(ids)} conversation(s)

corpus/<id>.json    revised conversation: words with times, turns, speakers, anonymised items with
                    category and surrogate (redactdesk conversation JSON with ES-Port-like
                    "speakers", "utterances" and "anonymised")
corpus.jsonl        one turn per line: tokens, BIO tags, token times, speaker and role
corpus.conll        token TAB tag (IOB2) over the revised tokens, a blank line after each turn
textgrid/<id>.TextGrid   Praat TextGrid, one word tier per speaker and a tier "items" (CATEGORY [PLACEHOLDER])
eaf/<id>.eaf        ELAN annotation file, one tier per speaker and a tier "items" (categories from a
                    controlled vocabulary) with the placeholders on its child tier
text/<id>.txt       transcript with anonymised items as [CATEGORY_n] placeholders (numbered per call)
{interop.README_LINES}audio/<id>.*        masked audio ({method}), same format as the recording
report.html         residual risk, leak scan, masking and prosody metrics, sign-off
manifest.json       sha256 of every file, tool version, settings, sign-off{', DRAFT flag' if draft else ''}

No original value and no pseudonym map is contained in this release.
"""


# ---------------------------------------------------------------------------------------------- summary
def release_summary(result: ReleaseResult) -> str:
    """A few lines for the CLI and the app: where, what, leak scan, risk, sign-off."""
    m = result.manifest
    n_items = sum(c["items"] for c in m["conversations"])
    lines = [m.get("verdict") or ("DRAFT — NOT FOR RELEASE" if result.draft else "UNKNOWN"),
             f"release{' (DRAFT)' if result.draft else ''}: {result.path}",
             f"  {len(result.conversations)} conversation(s), {n_items} anonymised item(s), "
             f"{len(result.files)} file(s), {result.audio_seconds / 60:.1f} min of masked audio "
             f"({m['mask']['method']}), written in {result.seconds:.1f} s"]
    relisten = (f"re-listen: {result.relisten_leaks} item(s) still recognised"
                + (f" (overridden: {result.override_reason})" if result.override_reason else "")
                if m["leak_scan"]["relisten_run"] else "re-listen: not run")
    lines.append(f"  leak scan: {len(result.leak_findings)} original value(s) in the text; {relisten}")
    cross = m["leak_scan"].get("cross_conversation") or {}
    if cross:
        n = sum(sum(c.values()) for c in cross.values())
        lines.append(f"  possible misses: {n} value(s) accepted in one call are said unanonymised in "
                     f"{len(cross)} other call(s) (see report.html)")
    r = result.risk
    lines.append(f"  residual risk: {len(r.scores)} conversation(s), mean {r.mean:.2f}, sd {r.sd:.2f}, "
                 f"P95 {r.p95:.2f}, max {r.max}, mu+sigma {r.criterion:.2f} vs threshold {r.threshold:g} -> "
                 f"{r.verdict}" + (f" ({len(r.unknown)} not reviewed: risk unknown)" if r.unknown else ""))
    if result.readiness is not None:
        lines.append(f"  release gate: {result.readiness.summary_line()}")
    n_allow = sum(f.allow_listed for f in result.recheck)
    lines.append(f"  re-detection of the release text: {m.get('recheck', {}).get('undecided', 0)} undecided"
                 + (f", {n_allow} on the signed allow list" if n_allow else ""))
    lines.append(f"  sign-off: {result.signoff.describe()}")
    for w in result.warnings:
        lines.append(f"  warning: {w}")
    return "\n".join(lines)
