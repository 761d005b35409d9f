"""What each role may do in the app (no Qt: shared by the window, panels and tests).

Capabilities are plain strings; panels and actions ask ``can(role, capability)``. Later panels
may add capabilities with :func:`grant` (e.g. a substitution panel granting "edit_pseudonyms" to
linguists) instead of editing this table.
"""

from __future__ import annotations

from redactdesk.core.types import Role

ALL_ROLES: tuple[Role, ...] = (Role.ANNOTATOR, Role.LINGUIST, Role.REVIEWER)

ROLE_HELP = {
    Role.ANNOTATOR: "Reviews suggestions: accept, reject, recategorise and mark missed personal data.",
    Role.LINGUIST: "Everything an annotator does, plus pseudonyms, allow/deny lists and models.",
    Role.REVIEWER: "Checks samples of finished work, corrects decisions and signs releases off.",
}

_CAPABILITIES: dict[Role, set[str]] = {
    Role.ANNOTATOR: {"review", "create_span", "import", "transcribe", "detect"},
    Role.LINGUIST: {"review", "create_span", "import", "transcribe", "detect", "edit_pseudonyms",
                    "edit_lists", "train", "export"},
    Role.REVIEWER: {"review", "create_span", "sign_off", "export", "review_sample"},
}


def as_role(role: Role | str) -> Role:
    """A Role from an enum or its value; a readable error otherwise."""
    try:
        return Role(role)
    except ValueError:
        names = ", ".join(r.value for r in Role)
        raise ValueError(f"unknown role {role!r}; choose one of {names}") from None


def can(role: Role | str, capability: str) -> bool:
    return capability in _CAPABILITIES[as_role(role)]


def capabilities(role: Role | str) -> frozenset[str]:
    return frozenset(_CAPABILITIES[as_role(role)])


def grant(capability: str, *roles: Role | str) -> None:
    """Let ``roles`` use ``capability`` (idempotent)."""
    for role in roles:
        _CAPABILITIES[as_role(role)].add(capability)
