"""The release's account of itself: residual risk, ``report.html``, ``manifest.json`` (sha256 of
every file) and the reviewer's signature over the manifest. Both files are scanned for original
values before they are written."""

from __future__ import annotations

import json
from typing import Any

from redactdesk import __version__
from redactdesk.formats.files import sha256_file
from redactdesk.pipeline.release.errors import ExportRefused, LeaksFound
from redactdesk.pipeline.release.job import (
    DEFAULT_RISK_THRESHOLD,
    MANIFEST,
    RELEASE_FORMAT,
    RELEASE_VERSION,
    REPORT,
    SIGNATURE,
    ReleaseJob,
    Report,
    Stage,
    write_text,
)
from redactdesk.pipeline.release.scan import findings_message
from redactdesk.pipeline.release_scan import blank_structure, id_pattern, scan_lines
from redactdesk.risk.gate import Readiness
from redactdesk.risk.residual import RiskSummary
from redactdesk.risk.signoff import SIGNED_SETTINGS_PREFIXES, SignOffState
from redactdesk.store import utc_now


def write_report(job: ReleaseJob, report: Report) -> None:
    """Residual risk (refusing a failed or unknown one), the manifest's content, and ``report.html``."""
    from redactdesk.pipeline.report import render_report
    from redactdesk.resources import load_taxonomy
    from redactdesk.risk.residual import project_summary
    from redactdesk.risk.sample import sample_ids
    from redactdesk.risk.signoff import content_hash

    project, settings, convs, ids, draft = job.project, job.settings, job.convs, job.ids, job.draft
    gate, state, readiness, revised = job.gate, job.gate.state, job.gate.readiness, job.revised
    taxonomy = load_taxonomy()
    sample = sample_ids(settings.get("review.sample"))
    risk_ids = [c for c in sample if c in convs] if sample else []
    risk_ids = risk_ids or ids
    threshold = float(settings.get("review.threshold", DEFAULT_RISK_THRESHOLD))
    job.risk = risk = project_summary(project, risk_ids, taxonomy, threshold)
    if risk.measured and not risk.passed and not draft:
        raise ExportRefused(f"release refused: residual risk mu+sigma {risk.criterion:.2f} is not below the "
                            f"threshold {risk.threshold:g} ({len(risk.scores)} conversation(s) scored from "
                            "reviewers' MISSED_ marks). Fix the misses and sign off again.")
    unknown_not_overridden = [c for c in risk.unknown if c not in job.overridden]
    if unknown_not_overridden and not draft:  # the gate should have stopped this; never pass it silently
        raise ExportRefused(f"release refused: the residual risk of {len(unknown_not_overridden)} "
                            "conversation(s) is unknown (not reviewed)")
    job.content_hash = current_hash = content_hash(project)
    verdict = _verdict(draft, readiness, risk, job.relisten_leaks, job.override, len(ids))
    recheck = job.recheck
    job.manifest = manifest = {
        "verdict": verdict,
        "format": RELEASE_FORMAT, "version": RELEASE_VERSION, "tool": "redactdesk", "tool_version": __version__,
        "created": utc_now(), "draft": draft, "release": gate.final.name,
        "gate": {**readiness.counts(), "excluded_ids": sorted(gate.excluded),
                 "overrides": {g.id: {"reason": g.override, "open": g.problems} for g in readiness.overridden}},
        "recheck": {"undecided": len(job.blocking), "allow_listed": sum(f.allow_listed for f in recheck),
                    "where": [{"conversation": f.conversation_id, "start_word": f.start_word,
                               "end_word": f.end_word, "category": f.category, "allow_listed": f.allow_listed}
                              for f in recheck]},
        "conversations": [{"id": cid, "words": len(revised[cid].words), "items": len(revised[cid].items),
                           "audio": job.audio_rel.get(cid)} for cid in ids],
        "settings": {k: v for k, v in sorted(settings.items()) if k.startswith(SIGNED_SETTINGS_PREFIXES)},
        "mask": {"method": job.method, "params": job.mask_params, "audio": job.mask_reports},
        "signoff": {"state": _signoff_label(state), "reviewer": state.reviewer, "at": state.at,
                    "comment": state.comment, "content_hash": state.content_hash,
                    "key_id": getattr(state, "key_id", None)},
        "content_hash": current_hash,
        "leak_scan": {"text_findings": 0, "cross_conversation": job.cross,
                      "relisten_run": job.tools.relisten is not None,
                      "relisten_leaks": job.relisten_leaks, "relisten": job.relisten_results},
        "leak_override": job.override,
        "risk": risk.to_dict(),
        "prosody": job.prosody_rows,
        "warnings": job.warnings,
    }
    report_text = render_report(manifest, risk, job.prosody_rows)
    findings = scan_lines(blank_structure(REPORT, report_text, id_pattern(convs)), REPORT, job.needles)
    if findings:
        raise LeaksFound(findings_message(findings), findings)
    write_text(job.staging / REPORT, report_text)
    report(1.0)


def write_manifest(job: ReleaseJob, report: Report) -> None:
    """sha256 of every file, the manifest, and (not for a draft) the reviewer's signature over it."""
    tmp = job.staging
    files = {p.relative_to(tmp).as_posix(): p for p in sorted(tmp.rglob("*")) if p.is_file()}
    job.sums = sums = {rel: sha256_file(p) for rel, p in files.items()}
    manifest = job.manifest
    manifest["files"] = {rel: {"sha256": sums[rel], "bytes": files[rel].stat().st_size} for rel in sums}
    manifest_text = json.dumps(manifest, ensure_ascii=False, indent=1, allow_nan=False) + "\n"
    findings = scan_lines(blank_structure(MANIFEST, manifest_text, id_pattern(job.convs)), MANIFEST, job.needles)
    if findings:
        raise LeaksFound(findings_message(findings), findings)
    write_text(tmp / MANIFEST, manifest_text)
    if not job.draft:  # the reviewer's Ed25519 signature over the manifest: `redactdesk verify RELEASE`
        (tmp / SIGNATURE).write_bytes(_sign_manifest(manifest_text.encode("utf-8"), job.gate.state))


REPORT_STAGE = Stage("report", weight=lambda job: 2.0, message=lambda job: "writing the report", run=write_report)
FINISH = Stage("finish", weight=lambda job: 0.5, message=lambda job: "writing the manifest", run=write_manifest)


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


def _sign_manifest(manifest_bytes: bytes, state: SignOffState) -> bytes:
    from redactdesk.pipeline.release_signature import sign_release

    return sign_release(manifest_bytes, state.reviewer or "")
