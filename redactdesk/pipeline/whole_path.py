"""The whole data path on a transcribed, detected project: review, substitute, mask, sign off, export.

Used by ``redactdesk demo --headless``. Review is played by an oracle annotator that knows each
conversation's reference transcript (kept in the conversation's meta by the demo build).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Protocol

from redactdesk.core.types import Conversation, Role, Span, SpanStatus
from redactdesk.pipeline.reference import oracle_decisions, project_spans, repeated_occurrences
from redactdesk.resources import load_taxonomy
from redactdesk.risk.residual import MissedItem, corpus_summary
from redactdesk.store import Project


class Printer(Protocol):
    def add(self, line: str) -> None: ...


def reference_of(conv: Conversation) -> Conversation | None:
    ref = conv.meta.get("reference")
    if not ref or not Path(ref).exists():
        return None
    from redactdesk.formats import read_conversation_json

    return read_conversation_json(ref)


def misses_of(conv: Conversation, truth: list[Span], statuses: tuple[SpanStatus, ...]) -> list[MissedItem]:
    """True items not fully covered by spans with the given statuses (partly covered = _PARTIAL)."""
    covered: set[int] = set()
    for s in conv.spans:
        if s.status in statuses:
            covered.update(s.word_range())
    out = []
    for t in truth:
        words = set(t.word_range())
        if words <= covered:
            continue
        key = conv.span_text(t).lower()
        out.append(MissedItem(conv.id, t.category, key, partial=bool(words & covered), speaker=True))
    return out


def review_with_oracle(project: Project, out: Printer) -> dict[str, Any]:
    """Accept, fix, reject and add spans as a careful annotator with the reference would."""
    taxonomy = load_taxonomy()
    before: dict[str, list[MissedItem]] = {}
    after: dict[str, list[MissedItem]] = {}
    tp = fp = fn = added = 0
    for cid in project.conversation_ids():
        conv = project.load_conversation(cid)
        ref = reference_of(conv)
        if ref is None:
            continue
        truth = project_spans(ref, conv)
        before[cid] = misses_of(conv, truth, (SpanStatus.SUGGESTED, SpanStatus.ACCEPTED))
        decisions = oracle_decisions(conv, truth)
        with project.transaction():
            for span_id, category, start, end in decisions.accept:
                project.update_span(span_id, action="accept", status="accepted", category=category,
                                    start_word=start, end_word=end)
            for span_id in decisions.reject:
                project.update_span(span_id, action="reject", status="rejected")
            for span in decisions.add:
                span.sources = ("annotator",)
                span.reason = "added by the annotator"
                project.add_span(cid, span)
        reviewed = project.load_conversation(cid)
        repeats = repeated_occurrences(reviewed)
        with project.transaction():
            for span in repeats:
                project.add_span(cid, span)
        reviewed.spans += repeats
        tp += len(decisions.accept)
        fp += len(decisions.reject)
        fn += len(decisions.add)
        added += len(decisions.add) + len(repeats)
        after[cid] = misses_of(reviewed, truth, (SpanStatus.ACCEPTED,))
    risk_before = corpus_summary(before, taxonomy)
    risk_after = corpus_summary(after, taxonomy)
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    out.add(f"review: {tp} suggestions accepted, {fp} rejected, {added} missed items added by the annotator "
            f"(suggestion precision {precision:.2f}, item recall {recall:.2f})")
    out.add(f"residual risk if suggestions were taken blindly: mean {risk_before.mean:.2f}, "
            f"mu+sigma {risk_before.criterion:.2f} -> {'PASS' if risk_before.passed else 'FAIL'} (threshold 5)")
    out.add(f"residual risk after review: mean {risk_after.mean:.2f}, mu+sigma {risk_after.criterion:.2f} "
            f"-> {'PASS' if risk_after.passed else 'FAIL'}")
    return {"before": risk_before, "after": risk_after, "precision": precision, "recall": recall}


def precheck_with_oracle(project: Project, max_rounds: int = 3) -> tuple[int, int]:
    """Resolve what the release pre-check finds as the annotator with the reference would: a found
    stretch that is part of a true item widens the accepted span next to it (or becomes one); one
    that is not is rejected (a decision, so the export's re-detection respects it).

    Returns (rounds run, items decided)."""
    from redactdesk.pipeline.release_recheck import precheck_project
    from redactdesk.pipeline.substitute_project import substitute_project

    decided = rounds = 0
    for rounds in range(1, max_rounds + 1):  # noqa: B007 - the count is returned
        findings = precheck_project(project)
        if not findings:
            return rounds, decided
        by_conv: dict[str, list] = {}
        for f in findings:
            by_conv.setdefault(f.conversation_id, []).append(f)
        for cid, found in by_conv.items():
            conv = project.load_conversation(cid)
            ref = reference_of(conv)
            truth = project_spans(ref, conv) if ref is not None else []
            with project.transaction():
                for f in found:
                    _decide_finding(project, conv, f, truth)
                    decided += 1
        substitute_project(project, mode=project.setting("substitute.mode", "pseudonym"))
    return rounds, decided


def _decide_finding(project: Project, conv: Conversation, f: Any, truth: list[Span]) -> None:
    words = set(range(f.start_word, f.end_word))
    hit = next((t for t in truth if words & set(t.word_range())), None)
    if hit is None:
        project.add_span(conv.id, Span(f.start_word, f.end_word, f.category, status=SpanStatus.REJECTED,
                                       sources=("annotator",), reason="pre-check: not personal data"))
        return
    for s in conv.spans:  # widen the accepted span of the same item when it touches the found words
        if s.status == SpanStatus.ACCEPTED and s.category == hit.category and \
                s.start_word <= f.end_word and f.start_word <= s.end_word:
            start, end = min(s.start_word, f.start_word), max(s.end_word, f.end_word)
            if not any(o is not s and o.status == SpanStatus.ACCEPTED and o.start_word < end and start < o.end_word
                       for o in conv.spans):
                project.update_span(s.id, action="extend", start_word=start, end_word=end)
                s.start_word, s.end_word = start, end
                return
    project.add_span(conv.id, Span(f.start_word, f.end_word, hit.category, status=SpanStatus.ACCEPTED,
                                   sources=("annotator",), reason="pre-check: part of a personal item"))


def run(project: Project, out: Printer, *, mask_method: str, out_root: Path, reviewer: str,
        quiet: bool = False) -> Path | None:
    """Run review → substitute → mask → sign-off → export; returns the release folder."""
    from redactdesk.risk.signoff import sign_off

    t0 = time.perf_counter()
    rows = project.list_conversations()
    out.add(f"project {project.path}: {len(rows)} conversations, {sum(r.n_words for r in rows)} words, "
            f"{sum(r.suggested for r in rows)} open suggestions")
    review_with_oracle(project, out)

    from redactdesk.pipeline.substitute_project import substitute_project

    sub = substitute_project(project, mode=project.setting("substitute.mode", "pseudonym")).summary()
    warnings = ", ".join(f"{n} {kind}" for kind, n in sorted(sub["warnings"].items())) or "none"
    out.add(f"substitute ({sub['mode']}): {sub['replacements']} items replaced in {sub['conversations']} "
            f"conversations; revision warnings: {warnings}")

    from redactdesk.pipeline.substitute_project import autofix_project

    fixed = autofix_project(project)  # what the linguist's Auto-fix does, over every call
    out.add(f"linguist auto-fix: {fixed.spans_grown} span(s) grown over the rest of their item, "
            f"{fixed.surrogates_redrawn} surrogate(s) drawn again, {fixed.warnings_left} warning(s) left to read")
    if fixed.spans_grown or fixed.surrogates_redrawn:
        substitute_project(project, mode=project.setting("substitute.mode", "pseudonym"))

    rounds, decided = precheck_with_oracle(project)
    out.add(f"release pre-check (detection again over the revised text): {decided} item(s) nobody had decided "
            f"about, decided by the annotator in {rounds} round(s)")
    if decided:
        sub = substitute_project(project, mode=project.setting("substitute.mode", "pseudonym")).summary()

    project.set_setting("mask.method", mask_method)
    project.role = Role.REVIEWER
    state = sign_off(project, reviewer, comment="demo run: oracle review of the bundled sample calls")
    out.add(f"sign-off: {state.describe()}")

    from redactdesk.pipeline.export import export_release, release_summary
    from redactdesk.pipeline.progress import tqdm_progress

    out_root.mkdir(parents=True, exist_ok=True)
    update, close = tqdm_progress("exporting the release", disable=quiet)
    try:
        result = export_release(project, out_root / time.strftime("release-%Y%m%d-%H%M%S"), mask_method=mask_method,
                                progress=update)
    finally:
        close()
    for line in release_summary(result).splitlines():
        out.add(line)
    out.add(f"whole path finished in {time.perf_counter() - t0:.0f} s")
    return getattr(result, "path", None)
