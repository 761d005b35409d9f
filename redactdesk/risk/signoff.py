"""Sign-off: a reviewer's approval bound to a hash of exactly what was approved.

The content hash covers every span decision (word range, category, status), every surrogate,
every reviewer's MISSED_ mark and every masking setting. Any later change gives a different hash, so the sign-off reads as
stale and a release export refuses until someone signs again.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from redactdesk.core.types import Role, SpanStatus
from redactdesk.store import Project

SIGNED_SETTINGS_PREFIXES = ("mask.", "substitute.", "export.")


def content_hash(project: Project) -> str:
    """sha256 over decisions, surrogates and masking/substitution settings, in a canonical order."""
    h = hashlib.sha256()

    def feed(obj: Any) -> None:
        h.update(json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8"))
        h.update(b"\n")

    for cid in project.conversation_ids():
        feed(["conversation", cid])
        for span in project.spans(cid):
            if span.status == SpanStatus.SUGGESTED:
                feed(["open", span.start_word, span.end_word, span.category])
            else:
                feed(["span", span.start_word, span.end_word, span.category, span.status.value, span.entity])
        for row in project.pseudonyms(cid):
            feed(["surrogate", row["key"], row["category"], row["surrogate"], bool(row["locked"])])
        for m in project.missed_items(cid):
            feed(["missed", m["start_word"], m["end_word"], m["category"], m["partial"], m["speaker"], m["item_key"]])
    settings = project.settings()
    feed(["settings", {k: v for k, v in sorted(settings.items()) if k.startswith(SIGNED_SETTINGS_PREFIXES)}])
    feed(["leak_overrides", settings.get("review.leak_override")])
    return h.hexdigest()


@dataclass
class SignOffState:
    signed: bool
    stale: bool
    reviewer: str | None = None
    at: str | None = None
    comment: str | None = None
    content_hash: str | None = None
    excluded: tuple[str, ...] = ()  # conversations the reviewer left out of the release
    overrides: dict[str, str] = field(default_factory=dict)  # conversation -> written reason to release unreviewed
    scope: dict[str, Any] = field(default_factory=dict)  # everything the sign-off recorded (counts seen, ...)

    @property
    def valid(self) -> bool:
        return self.signed and not self.stale

    def describe(self) -> str:
        if not self.signed:
            return "not signed off"
        if self.stale:
            return f"STALE: signed by {self.reviewer} at {self.at}, but decisions or settings changed since"
        return f"signed off by {self.reviewer} at {self.at}"


MIN_OVERRIDE_CHARS = 10


def _scope(project: Project, exclude: Iterable[str], overrides: Mapping[str, str] | None) -> dict[str, Any]:
    """The sign-off's scope, checked: known ids, written reasons, no id both excluded and overridden."""
    excluded = sorted({str(c) for c in exclude})
    reasons = {str(c): " ".join(str(r).split()) for c, r in (overrides or {}).items()}
    known = set(project.conversation_ids())
    unknown = [c for c in [*excluded, *reasons] if c not in known]
    if unknown:
        raise ValueError(f"no conversation {unknown[0]!r} in the project")
    both = sorted(set(excluded) & set(reasons))
    if both:
        raise ValueError(f"{both[0]!r} cannot be both excluded from and released with an override")
    short = sorted(c for c, r in reasons.items() if len(r) < MIN_OVERRIDE_CHARS)
    if short:
        raise ValueError(f"the override for {short[0]!r} needs a written reason (at least {MIN_OVERRIDE_CHARS} "
                         "characters)")
    return {"excluded": excluded, "overrides": dict(sorted(reasons.items()))}


def sign_off(project: Project, reviewer: str, comment: str = "", role: Role = Role.REVIEWER, *,
             exclude: Iterable[str] = (), overrides: Mapping[str, str] | None = None,
             seen: Mapping[str, Any] | None = None) -> SignOffState:
    """Record a reviewer's sign-off over the project's current content. Only reviewers may sign.

    ``exclude`` leaves conversations out of the release; ``overrides`` maps a conversation to a
    written reason to release it although it is not fully reviewed (its open suggestions are then
    anonymised as suggested). ``seen`` records the counts the reviewer was shown when signing.
    """
    if Role(role) != Role.REVIEWER:
        raise PermissionError("only a reviewer can sign a release off")
    if not reviewer.strip():
        raise ValueError("a sign-off needs the reviewer's name")
    scope = _scope(project, exclude, overrides)
    if seen:
        scope["seen"] = dict(seen)
    digest = content_hash(project)
    project.add_signoff(reviewer.strip(), Role.REVIEWER, comment, digest, scope=scope)
    return signoff_state(project)


def signoff_state(project: Project) -> SignOffState:
    row = project.latest_signoff()
    if row is None:
        return SignOffState(signed=False, stale=False)
    stale = row["content_hash"] != content_hash(project)
    scope = row.get("scope") or {}
    return SignOffState(True, stale, row["reviewer"], row["at"], row["comment"], row["content_hash"],
                        excluded=tuple(scope.get("excluded", ())), overrides=dict(scope.get("overrides", {})),
                        scope=scope)
