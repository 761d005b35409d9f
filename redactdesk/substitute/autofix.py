"""Auto-fix for revision warnings: what a rule can resolve, resolved; the rest left for the linguist.

Two rules, both over what the project stores (spans and the pseudonym map), so a fix is an
ordinary, undoable decision:

- an original fragment said right next to its item (``original_nearby``: the ASR's repeat of a
  year, the digit a span boundary cut off a run) → the span grows by that word, and the
  generators say it with the item ("de 1956. 56.");
- an item whose surrogate draws a warning of its own (spelling, form, agreement, category, a
  placeholder, an equal or real surrogate) → the surrogate is drawn again, with fresh salts, until
  its warnings clear; locked entries are never touched.

:func:`plan_fixes` says what to change; :func:`auto_fix` applies a plan to a copy of the
conversation and substitutes again, for the CLI and the benchmark. Nothing is written anywhere.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from redactdesk.core.types import Conversation, SpanStatus
from redactdesk.substitute.engine import SubstitutionResult, substitute_conversation
from redactdesk.substitute.revision import RevisionWarning
from redactdesk.substitute.revision_asr import continuation, original_fragments, token_core

REDRAW_KINDS = {"spelling", "form_changed", "agreement", "category", "placeholder", "same_as_original",
                "real_entity", "number_grammar"}
MAX_SALTS = 8


@dataclass
class FixPlan:
    span_bounds: dict[int, tuple[int, int]] = field(default_factory=dict)  # span id -> (start, end) words
    surrogates: dict[str, dict[str, Any]] = field(default_factory=dict)  # map key -> new map row
    unresolved: list[RevisionWarning] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.span_bounds or self.surrogates)


def _extension(conv: Conversation, result: SubstitutionResult, w: RevisionWarning) -> tuple[int, int] | None:
    """New bounds that take in the fragment said right after (or before) the span, or None."""
    span = next((s for s in conv.spans if s.id in w.span_ids and s.status == SpanStatus.ACCEPTED), None)
    rep = next((r for r in result.replacements if r.span_id in w.span_ids), None)
    if span is None or rep is None:
        return None
    klass = next((it.klass for it in result.items if rep.keys and it.key == rep.keys[0]), "")
    frags = original_fragments(rep.original, klass, rep.surrogate, result.language)
    taken = {i for s in conv.spans if s.status == SpanStatus.ACCEPTED and s.id != span.id
             for i in range(s.start_word, s.end_word)}
    cores = [token_core(w.text) for w in conv.words]
    grown = continuation(cores, lambda i: i in taken, span.end_word, rep.original, klass, frags)
    if grown > span.end_word:
        return span.start_word, grown
    before = span.start_word - 1
    if before >= 0 and before not in taken and cores[before] and cores[before] in frags:
        return before, span.end_word
    return None


def _warnings_of(result: SubstitutionResult, key: str) -> set[str]:
    return {w.kind for w in result.warnings if w.item_key == key and w.kind in REDRAW_KINDS}


def plan_fixes(conv: Conversation, result: SubstitutionResult, *, secret: str,
               existing_map: list[dict[str, Any]] | None = None, **kwargs: Any) -> FixPlan:
    """What a rule can do about ``result``'s warnings (``kwargs`` as for ``substitute_conversation``)."""
    plan = FixPlan()
    rows = {r["key"]: r for r in (existing_map or [])}
    redraw: dict[str, RevisionWarning] = {}
    for w in result.warnings:
        if w.kind == "original_nearby":
            bounds = _extension(conv, result, w)
            if bounds is not None and w.span_ids and w.span_ids[0] is not None:
                plan.span_bounds[int(w.span_ids[0])] = bounds
                continue
        elif w.kind in REDRAW_KINDS and w.item_key and not rows.get(w.item_key, {}).get("locked"):
            redraw.setdefault(w.item_key, w)
            continue
        plan.unresolved.append(w)
    for key, w in redraw.items():
        before = _warnings_of(result, key)
        others = [r for r in (existing_map or result.map_rows) if r["key"] != key]
        for n in range(MAX_SALTS):
            res = substitute_conversation(conv, secret=secret, existing_map=others, salts={key: f"autofix{n}"},
                                          **kwargs)
            row = next((r for r in res.map_rows if r["key"] == key), None)
            if row is None:
                continue
            if not (_warnings_of(res, key) & before):
                plan.surrogates[key] = {k: row[k] for k in ("key", "category", "original", "surrogate", "locked")}
                break
        else:
            plan.unresolved.append(w)
    return plan


def apply_bounds(conv: Conversation, plan: FixPlan) -> Conversation:
    """A copy of ``conv`` with the plan's span bounds."""
    out = copy.deepcopy(conv)
    for s in out.spans:
        if s.id in plan.span_bounds:
            s.start_word, s.end_word = plan.span_bounds[s.id]
    return out


def auto_fix(conv: Conversation, *, secret: str, existing_map: list[dict[str, Any]] | None = None,
             rounds: int = 3, **kwargs: Any) -> tuple[Conversation, SubstitutionResult, FixPlan]:
    """Substitute, fix what a rule can, substitute again (a few rounds); returns the fixed copy of
    the conversation, its result and everything the rounds changed."""
    rows = list(existing_map or [])
    total = FixPlan()
    result = substitute_conversation(conv, secret=secret, existing_map=rows, **kwargs)
    for _ in range(rounds):
        if not result.warnings:
            break
        plan = plan_fixes(conv, result, secret=secret, existing_map=rows or result.map_rows, **kwargs)
        total.unresolved = plan.unresolved
        if not plan:
            break
        conv = apply_bounds(conv, plan)
        total.span_bounds.update(plan.span_bounds)
        total.surrogates.update(plan.surrogates)
        keep = {r["key"]: r for r in (rows or result.map_rows)}
        keep.update(plan.surrogates)
        rows = list(keep.values())
        result = substitute_conversation(conv, secret=secret, existing_map=rows, **kwargs)
    total.unresolved = list(result.warnings)
    return conv, result, total
