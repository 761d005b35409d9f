"""The few lines the CLI and the app show after an export."""

from __future__ import annotations

from redactdesk.pipeline.release.job import ReleaseResult


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
