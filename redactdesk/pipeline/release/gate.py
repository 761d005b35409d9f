"""The checks that refuse a release before anything is written: sign-off, signing key, audit log,
the conversations asked for, and the release gate (``risk.gate.release_readiness``)."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Sequence
from pathlib import Path

from redactdesk.core.ids import is_safe_id
from redactdesk.core.types import Conversation, SpanStatus
from redactdesk.pipeline.release.errors import ExportError, ExportRefused, GateClosed
from redactdesk.pipeline.release.job import DRAFT_SUFFIX, GateOutcome
from redactdesk.risk.gate import release_readiness
from redactdesk.risk.signoff import SignOffState
from redactdesk.store import Project


def release_path(out_dir: str | os.PathLike[str], draft: bool) -> Path:
    """The folder a release goes to: ``out_dir``, with "-DRAFT" appended to a draft's name."""
    p = Path(out_dir)
    if draft and not p.name.endswith(DRAFT_SUFFIX):
        p = p.with_name(p.name + DRAFT_SUFFIX)
    return p


def check(project: Project, out_dir: str | os.PathLike[str], *, draft: bool,
          conversation_ids: Sequence[str] | None, override_reason: str | None) -> GateOutcome:
    """Refuse (``ExportRefused``/``ExportError``) unless this release may be written; say what goes in."""
    from redactdesk.risk.signoff import signoff_state

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
    return GateOutcome(final=final, state=state, ids=ids, excluded=excluded, readiness=readiness,
                       override_reason=override_reason)


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


def _check_audit(project: Project, draft: bool) -> None:
    """The whole audit log must verify before anything is released (a draft reports it)."""
    verify = getattr(project, "verify_audit", None)
    if verify is None:
        return
    check = verify(full=True)
    if not getattr(check, "ok", True) and not draft:
        raise ExportRefused(f"release refused: the project's audit log does not verify ({check.reason}); it was "
                            "changed outside redactdesk. Restore a backup of the project file.")


def suggestions_accepted(conv: Conversation) -> Conversation:
    """A copy of ``conv`` whose open suggestions count as accepted (overridden, unreviewed conversations)."""
    spans = [dataclasses.replace(s, status=SpanStatus.ACCEPTED) if s.status == SpanStatus.SUGGESTED else s
             for s in conv.spans]
    return dataclasses.replace(conv, spans=spans)
