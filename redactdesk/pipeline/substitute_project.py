"""Substitution over a project (the CLI's ``substitute`` command) and the linguist's Auto-fix over it.

``substitute_project`` reads every conversation, its stored pseudonym map and the project's
gazetteer edits, substitutes it, and stores the map rows back (logged as one ``substitute``
decision per conversation whose map changed); with ``out_dir`` it writes the revised transcripts
(:func:`redactdesk.substitute.revised_files.write_revised`). This is orchestration over a ``Project``,
so it lives in ``pipeline``; ``substitute`` itself works on one conversation and knows no store.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from redactdesk.core.types import Conversation
from redactdesk.substitute.engine import MODES, SubstitutionResult, substitute_conversation
from redactdesk.substitute.errors import SubstitutionError
from redactdesk.substitute.generalise import (
    SPAN_CATEGORY_OF_QI,
    GeneralisationReport,
    extract_quasi_identifiers,
    generalise_records,
)
from redactdesk.substitute.revised_files import write_revised

if TYPE_CHECKING:
    from redactdesk.store import Project


@dataclass
class ProjectSubstitution:
    """What ``substitute_project`` did: per-conversation results and totals."""

    mode: str
    results: dict[str, SubstitutionResult] = field(default_factory=dict)
    conversations: dict[str, Conversation] = field(default_factory=dict)
    generalisation: GeneralisationReport | None = None

    @property
    def n_replacements(self) -> int:
        return sum(len(r.replacements) for r in self.results.values())

    def warning_counts(self) -> dict[str, int]:
        return dict(Counter(w.kind for r in self.results.values() for w in r.warnings))

    def summary(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "mode": self.mode, "conversations": len(self.results), "replacements": self.n_replacements,
            "warnings": self.warning_counts(),
        }
        if self.generalisation is not None:
            out["generalisation"] = self.generalisation.summary()
        return out

def substitute_project(
    project: Project,
    mode: str = "pseudonym",
    *,
    k: int = 3,
    conversation_ids: Iterable[str] | None = None,
    out_dir: str | os.PathLike[str] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> ProjectSubstitution:
    """Substitute every (or the given) conversation of ``project``; store the pseudonym maps.

    With ``out_dir`` the revised transcripts are written there too (see :func:`write_revised`).
    In mode "generalise" the conversations' metadata quasi-identifiers are k-anonymised first.
    """
    if mode not in MODES:
        raise SubstitutionError(f"unknown substitution mode {mode!r}; use one of {', '.join(MODES)}")
    ids = list(conversation_ids) if conversation_ids is not None else project.conversation_ids()
    out = ProjectSubstitution(mode)
    secret = project.secret
    convs = {cid: project.load_conversation(cid) for cid in ids}
    general: dict[str, dict[str, int]] = {}
    if mode == "generalise":
        records = {cid: extract_quasi_identifiers(c) for cid, c in convs.items()}
        report = generalise_records(records, {cid: c.language for cid, c in convs.items()}, k=k)
        out.generalisation = report
        for cid in ids:
            general[cid] = {SPAN_CATEGORY_OF_QI[q]: lv for q, lv in report.levels[cid].items()
                            if q in SPAN_CATEGORY_OF_QI}
    for n, cid in enumerate(ids, 1):
        conv = convs[cid]
        existing = project.pseudonyms(cid)
        result = substitute_conversation(
            conv, mode=mode, secret=secret, existing_map=existing,
            gazetteer_edits=project.gazetteer_entries(conv.language), generalisation=general.get(cid))
        if mode in ("pseudonym", "generalise"):
            old = {(r["key"], r["category"]): (r["surrogate"], bool(r["locked"])) for r in existing}
            changed = [r for r in result.map_rows
                       if old.get((r["key"], r["category"])) != (r["surrogate"], bool(r["locked"]))]
            if changed:
                project.put_pseudonyms(cid, changed, action="substitute")
        out.results[cid] = result
        out.conversations[cid] = conv
        if out_dir is not None:
            meta = None
            if out.generalisation is not None:
                meta = _generalised_meta(conv, out.generalisation.values.get(cid, {}))
            write_revised(conv, result, out_dir, extra_meta=meta)
        if progress:
            progress(n, len(ids))
    return out

@dataclass
class AutoFixSummary:
    """What :func:`autofix_project` changed (counts only: it never holds values)."""

    spans_grown: int = 0
    surrogates_redrawn: int = 0
    warnings_left: int = 0

def autofix_project(project: Project, *, conversation_ids: Iterable[str] | None = None,
                    rounds: int = 3) -> AutoFixSummary:
    """The linguist's Auto-fix over whole conversations, stored as audited decisions.

    Per conversation, a few rounds of: substitute (pseudonym mode), :func:`~redactdesk.substitute.autofix.plan_fixes`,
    grow the spans it says (an original fragment said right after its item — the rest of a date, a
    repeated year — then belongs to the item, so it is replaced in the text *and masked in the
    audio*), store the surrogates it re-drew (locked entries are never touched). What no rule can
    resolve is left for the linguist and counted in ``warnings_left``.
    """
    from redactdesk.substitute.autofix import plan_fixes

    out = AutoFixSummary()
    secret = project.secret
    for cid in list(conversation_ids) if conversation_ids is not None else project.conversation_ids():
        result = None
        for n in range(rounds + 1):  # the last round only measures what is left
            conv = project.load_conversation(cid)
            kwargs = {"gazetteer_edits": project.gazetteer_entries(conv.language)}
            existing = project.pseudonyms(cid)
            result = substitute_conversation(conv, secret=secret, existing_map=existing, **kwargs)
            if not result.warnings or n == rounds:
                break
            plan = plan_fixes(conv, result, secret=secret, existing_map=existing or result.map_rows, **kwargs)
            if not plan:
                break
            with project.transaction():
                for sid, (start, end) in plan.span_bounds.items():
                    try:
                        project.update_span(sid, action="span_autofix", start_word=start, end_word=end)
                    except ValueError:  # it would overlap another span: the linguist decides
                        continue
                    out.spans_grown += 1
                if plan.surrogates:
                    project.put_pseudonyms(cid, list(plan.surrogates.values()), action="pseudonym_autofix")
                    out.surrogates_redrawn += len(plan.surrogates)
        if result is not None:
            out.warnings_left += len(result.warnings)
    return out

def _generalised_meta(conv: Conversation, values: dict[str, str]) -> dict[str, Any]:
    """Meta entries to overwrite in the revised file: the generalised quasi-identifiers, and the
    customer's gender in ``speakers`` replaced by its generalised value."""
    meta: dict[str, Any] = {"quasi_identifiers_generalised": dict(values)}
    speakers = conv.meta.get("speakers")
    if "gender" in values and isinstance(speakers, dict):
        new = {}
        for name, info in speakers.items():
            info = dict(info) if isinstance(info, dict) else info
            if isinstance(info, dict) and info.get("role") == "customer" and "gender" in info:
                info["gender"] = values["gender"]
            new[name] = info
        meta["speakers"] = new
    return meta

