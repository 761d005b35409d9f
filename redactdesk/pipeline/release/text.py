"""The release's text: each conversation substituted and written in every text format, then
detection run again over the revised text (what nobody decided about stops the export here,
before the slow audio steps)."""

from __future__ import annotations

from redactdesk.core.types import Conversation, SpanStatus
from redactdesk.pipeline import export_formats as ef
from redactdesk.pipeline import export_interop as interop
from redactdesk.pipeline.release.errors import ExportError, ExportRefused, UndecidedFound
from redactdesk.pipeline.release.job import ReleaseJob, Report, Stage, SubstituteFn, write_text
from redactdesk.pipeline.release_recheck import findings_message, recheck_release
from redactdesk.store import Project


def default_substitute() -> SubstituteFn:
    try:
        from redactdesk.substitute.engine import substitute_conversation
    except ImportError as exc:
        raise ExportError(f"substitution is not available in this installation ({exc})") from exc
    return substitute_conversation


def write_revised(job: ReleaseJob, report: Report) -> None:
    """Substitute every conversation and write its text files; refuse surrogates the sign-off did not cover."""
    from redactdesk.formats import write_eaf, write_textgrid
    from redactdesk.resources import load_taxonomy

    ids, convs, draft, tmp = job.ids, job.convs, job.draft, job.staging
    jsonl: list[str] = []
    conll: list[str] = []
    mode = str(job.settings.get("substitute.mode", "pseudonym"))
    general = (_generalisation_levels(convs, int(job.settings.get("substitute.k", 3)))
               if mode == "generalise" else {})
    for n, cid in enumerate(ids):
        conv = convs[cid]
        rev, unsigned = _revise(job.project, conv, job.tools.substitute, mode, general.get(cid))
        if cid in job.overridden:
            unsigned = 0  # surrogates of the open suggestions are made now; the override covers them
        if unsigned and not draft:
            raise ExportRefused(
                f"release refused: {unsigned} surrogate(s) of {cid!r} are not in the project's pseudonym map, "
                "so the sign-off did not cover them. Run substitution, check it, and sign off again.")
        if unsigned:
            job.warnings.append(f"{cid}: {unsigned} surrogate(s) not yet stored in the project (run substitution)")
        job.revised[cid] = rev
        open_suggestions = len(conv.spans_by_status(SpanStatus.SUGGESTED))
        if open_suggestions:
            job.warnings.append(f"{cid}: {open_suggestions} suggestion(s) still undecided (not anonymised)")
        audio_rel = f"../{job.audio_rel[cid]}" if cid in job.audio_rel else None
        write_text(job.inside("corpus", f"{cid}.json"), ef.format_release_json(rev, audio_rel, draft=draft))
        write_textgrid(rev.words, job.inside("textgrid", f"{cid}.TextGrid"), duration=rev.duration,
                       items=ef.textgrid_items(rev))
        write_eaf(rev.words, job.inside("eaf", f"{cid}.eaf"), audio_rel=audio_rel,
                  items=ef.eaf_items(rev), vocabulary=ef.category_vocabulary(load_taxonomy()))
        interop.write_conversation_files(job.inside, rev, job.audio_rel.get(cid))
        write_text(job.inside("text", f"{cid}.txt"), ef.placeholder_text(rev))
        jsonl.extend(ef.jsonl_lines(rev))
        conll.append(ef.conll_text(rev))
        report((n + 1) / len(ids))
    write_text(tmp / "corpus.jsonl", "\n".join(jsonl) + "\n")
    write_text(tmp / "corpus.conll", "".join(conll))
    interop.write_corpus_files(tmp, [job.revised[c] for c in ids], job.audio_rel)
    if job.removed_partials:
        job.warnings.append(f"removed {job.removed_partials} unfinished release folder(s) left by an export "
                            "that was stopped")


def recheck(job: ReleaseJob, report: Report) -> None:
    """Detection again over the release text: undecided items refuse the release (a draft lists them)."""
    project = job.project
    job.recheck = recheck_release(job.convs, job.revised,
                                  deny=[(t, c or "GENERIC_ID") for t, c in project.terms("deny")],
                                  allow_signed=[t for t, _ in project.terms("allow")])
    job.blocking = [f for f in job.recheck if not f.allow_listed]
    if job.blocking and not job.draft:
        raise UndecidedFound(findings_message(job.blocking), job.blocking)
    for f in job.blocking:
        job.warnings.append(f"undecided: {f.describe()}")
    report(1.0)


# shares of the bar in seconds per call as measured on the demo corpus (2 busy cores)
SUBSTITUTE = Stage("substitute", weight=lambda job: 1.0 * len(job.ids),
                   message=lambda job: "substituting and writing transcripts", run=write_revised)
RECHECK = Stage("recheck", weight=lambda job: 0.3 * len(job.ids),
                message=lambda job: "detecting again over the release text", run=recheck)


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


def _revise(project: Project, conv: Conversation, substitute: SubstituteFn, mode: str,
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
