"""The leak scan over every text file of the staging folder: an original value refuses the release;
values said in one call and accepted in another are counted for the report (possible misses)."""

from __future__ import annotations

from collections.abc import Sequence

from redactdesk.pipeline import export_interop as interop
from redactdesk.pipeline.release.errors import LeaksFound
from redactdesk.pipeline.release.job import README, ReleaseJob, Report, Stage, write_text
from redactdesk.pipeline.release_scan import cross_hits, inside_other_surrogates, scan_release
from redactdesk.risk.leakscan import LeakFinding, needles


def scan(job: ReleaseJob, report: Report) -> None:
    convs, tmp = job.convs, job.staging
    write_text(tmp / README, _readme(job.draft, job.ids, job.method))
    job.needles = all_needles = needles(convs.values())
    findings, coincidental = inside_other_surrogates(scan_release(tmp, convs.values(), ns=all_needles),
                                                     convs.values(), job.revised, ns=all_needles)
    if findings:
        raise LeaksFound(findings_message(findings), findings)
    for c in sorted({f.conversation_id for f in coincidental}):
        cats = sorted({f.category for f in coincidental if f.conversation_id == c})
        job.warnings.append(f"{c}: a value accepted as {', '.join(cats)} also occurs inside another item's "
                            "surrogate (a coincidence of generated values, not a leak)")
    for hit in cross_hits(tmp, convs.values(), ns=all_needles):
        job.cross.setdefault(hit.conversation_id, {}).setdefault(hit.category, 0)
        job.cross[hit.conversation_id][hit.category] += 1
    report(1.0)


SCAN = Stage("scan", weight=lambda job: 0.3 * len(job.ids),
             message=lambda job: "scanning the release for original values", run=scan)


def findings_message(findings: Sequence[LeakFinding]) -> str:
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
