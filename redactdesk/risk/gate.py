"""The release gate: which conversations may be released, and why the others may not.

A conversation may go into a release only when all of these hold:

- it has a transcript (audio alone cannot be checked: its words were never seen);
- detection ran over its current words (``detected_at``; cleared whenever the words change);
- no suggestion is left undecided;
- a person finished reviewing it (status ``reviewed``: every suggestion decided, or marked reviewed).

Otherwise a reviewer must either exclude it from the release or record a written override for it,
both as part of the sign-off. Unreviewed means *unknown* risk, never 0: nothing here treats a
conversation nobody looked at as clean.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

REVIEWED_STATUSES = frozenset({"reviewed", "signed_off"})


@dataclass(frozen=True)
class ConversationGate:
    """What the gate knows about one conversation."""

    id: str
    words: int
    suggested: int
    accepted: int
    rejected: int
    detected: bool
    reviewed: bool
    excluded: bool = False
    override: str | None = None

    @property
    def problems(self) -> list[str]:
        """Why it is not ready (empty when it is), in words a reviewer reads."""
        out = []
        if self.words == 0:
            out.append("no transcript")
        elif not self.detected:
            out.append("never detected")
        if self.suggested:
            out.append(f"{self.suggested} undecided suggestion(s)")
        if not self.reviewed:
            out.append("not reviewed")
        return out

    @property
    def ready(self) -> bool:
        return not self.problems

    @property
    def included(self) -> bool:
        return not self.excluded

    @property
    def blocked(self) -> bool:
        """Included, not ready, and no written override."""
        return self.included and not self.ready and self.override is None

    @property
    def risk_known(self) -> bool:
        """Its residual risk can be measured: it was detected and reviewed by a person."""
        return self.ready


@dataclass
class Readiness:
    """The gate over a set of conversations, with the sign-off's exclusions and overrides applied."""

    conversations: list[ConversationGate] = field(default_factory=list)

    @property
    def included(self) -> list[ConversationGate]:
        return [c for c in self.conversations if c.included]

    @property
    def blocked(self) -> list[ConversationGate]:
        return [c for c in self.conversations if c.blocked]

    @property
    def overridden(self) -> list[ConversationGate]:
        return [c for c in self.included if c.override is not None and not c.ready]

    @property
    def ok(self) -> bool:
        return bool(self.included) and not self.blocked

    def counts(self) -> dict[str, int]:
        """The numbers a reviewer sees first when signing off (over the included conversations)."""
        inc = self.included
        return {
            "conversations": len(self.conversations),
            "included": len(inc),
            "excluded": len(self.conversations) - len(inc),
            "ready": sum(c.ready for c in inc),
            "undecided_suggestions": sum(c.suggested for c in inc),
            "no_transcript": sum(c.words == 0 for c in inc),
            "never_detected": sum(c.words > 0 and not c.detected for c in inc),
            "not_reviewed": sum(not c.reviewed for c in inc),
            "overridden": len(self.overridden),
            "blocked": len(self.blocked),
            "accepted_items": sum(c.accepted for c in inc),
        }

    def summary_line(self) -> str:
        c = self.counts()
        if not c["included"]:
            return "nothing to release: every conversation is excluded"
        head = (f"{c['ready']} of {c['included']} conversation(s) ready"
                + (f", {c['excluded']} excluded" if c["excluded"] else ""))
        problems = [f"{c['undecided_suggestions']} undecided suggestion(s)" if c["undecided_suggestions"] else "",
                    f"{c['no_transcript']} without transcript" if c["no_transcript"] else "",
                    f"{c['never_detected']} never detected" if c["never_detected"] else "",
                    f"{c['not_reviewed']} not reviewed" if c["not_reviewed"] else "",
                    f"{c['overridden']} released by written override" if c["overridden"] else ""]
        problems = [p for p in problems if p]
        return head + ("; " + ", ".join(problems) if problems else "")

    def refusal(self, limit: int = 8) -> str:
        """The message export gives when the gate is closed (ids and counts only, never values)."""
        blocked = self.blocked
        shown = "; ".join(f"{c.id}: {', '.join(c.problems)}" for c in blocked[:limit])
        more = f"; and {len(blocked) - limit} more" if len(blocked) > limit else ""
        return (f"release refused: {len(blocked)} conversation(s) are not ready ({shown}{more}). Review them, "
                "or a reviewer excludes them from the release or records a written override for each when "
                "signing off.")


def release_readiness(project: Any, conversation_ids: Sequence[str] | None = None, *,
                      excluded: Iterable[str] = (), overrides: Mapping[str, str] | None = None) -> Readiness:
    """The gate for ``conversation_ids`` (default: every conversation of ``project``)."""
    rows = {r.id: r for r in project.list_conversations()}
    ids = list(conversation_ids) if conversation_ids is not None else list(rows)
    excluded = set(excluded)
    overrides = dict(overrides or {})
    out = []
    for cid in ids:
        r = rows.get(cid)
        if r is None:
            raise ValueError(f"no conversation {cid!r} in the project")
        out.append(ConversationGate(
            id=cid, words=int(r.n_words), suggested=int(r.suggested), accepted=int(r.accepted),
            rejected=int(r.rejected), detected=bool(getattr(r, "detected_at", None)),
            reviewed=r.status in REVIEWED_STATUSES, excluded=cid in excluded, override=overrides.get(cid)))
    return Readiness(out)


def unknown_risk_ids(project: Any, conversation_ids: Iterable[str] | None = None) -> list[str]:
    """Conversations whose residual risk cannot be measured (not detected and reviewed)."""
    ids = None if conversation_ids is None else list(conversation_ids)
    return [c.id for c in release_readiness(project, ids).conversations if not c.risk_known]
