"""Model versions of the active learner in the project file, which one is in use, and rollback.

Every update of the learner is a row of the project's ``models`` table (name ``active_learning``,
``kind`` = the learner's kind: ``spacy-ner`` for the tagger learner, ``crf`` for the baseline), with
its scores in ``metrics`` and the model in ``blob``. Rows are never changed or deleted, so the
history stays whole; the version *in use* is a pointer kept in the project's settings
(``learn.active_model``, one per kind). Without a pointer the newest version is in use.

A rollback (a reviewer's action) moves the pointer back to an earlier version and writes an audit entry
(``rollback_model``) in the same transaction; the next update then starts from that version, and
its row is appended after the newer ones (its ``parent`` in the metrics says where it started).
No schema change is needed: the table has held every version since schema v1.
"""

from __future__ import annotations

from typing import Any

from redactdesk.learn.errors import LearnError

MODEL_NAME = "active_learning"
LEARNER_SETTING = "learn.learner"
ACTIVE_SETTING = "learn.active_model"
LEARNER_KINDS = {"tagger": "spacy-ner", "crf": "crf"}
DEFAULT_LEARNER = "tagger"


def check_learner(learner: str) -> str:
    name = str(learner).strip().lower()
    if name not in LEARNER_KINDS:
        raise LearnError(f"unknown learner {learner!r} (choose from {', '.join(LEARNER_KINDS)})")
    return name


def project_learner(project: Any, override: str | None = None) -> str:
    """The learner a project uses: ``override``, else its setting, else the default (the tagger)."""
    if override:
        return check_learner(override)
    stored = project.setting(LEARNER_SETTING)
    try:
        return check_learner(stored) if stored else DEFAULT_LEARNER
    except LearnError:
        return DEFAULT_LEARNER


def set_project_learner(project: Any, learner: str) -> None:
    project.set_setting(LEARNER_SETTING, check_learner(learner))


def kind_of(learner: str) -> str:
    return LEARNER_KINDS[check_learner(learner)]


def version_rows(project: Any, kind: str) -> list[dict[str, Any]]:
    """Stored versions of one learner kind, oldest first (metrics, no blobs)."""
    return [r for r in project.models(MODEL_NAME) if r["kind"] == kind]


def active_id(project: Any, kind: str, rows: list[dict[str, Any]] | None = None) -> int | None:
    """The version in use: the pointer when it names a stored version of ``kind``, else the newest."""
    rows = version_rows(project, kind) if rows is None else rows
    if not rows:
        return None
    pointer = (project.setting(ACTIVE_SETTING) or {}).get(kind)
    ids = {int(r["id"]) for r in rows}
    return int(pointer) if pointer is not None and int(pointer) in ids else int(rows[-1]["id"])


def set_active(project: Any, kind: str, model_id: int | None) -> None:
    """Point at ``model_id`` (None: follow the newest version)."""
    pointers = dict(project.setting(ACTIVE_SETTING) or {})
    if model_id is None:
        pointers.pop(kind, None)
    else:
        pointers[kind] = int(model_id)
    project.set_setting(ACTIVE_SETTING, pointers)


def rollback(project: Any, model_id: int, learner: str | None = None) -> dict[str, Any]:
    """Make an earlier stored version the one in use (audited). Returns its row (metrics, no blob).

    A reviewer's action: the project must be open with the reviewer role."""
    from redactdesk.core.types import Role

    if Role(project.role) != Role.REVIEWER:
        raise LearnError("rolling the model back is a reviewer's action (open the project as reviewer: "
                         "--role reviewer)")
    kind = kind_of(project_learner(project, learner))
    rows = version_rows(project, kind)
    row = next((r for r in rows if int(r["id"]) == int(model_id)), None)
    if row is None:
        known = ", ".join(str(r["id"]) for r in rows) or "none"
        raise LearnError(f"no {kind} model version {int(model_id)} in this project (versions: {known})")
    from datetime import UTC, datetime

    from redactdesk.core.types import Decision

    before = active_id(project, kind, rows)
    with project.transaction():
        set_active(project, kind, int(model_id))
        project.log(Decision(action="rollback_model", actor=project.actor, role=project.role,
                             at=datetime.now(UTC).isoformat(timespec="milliseconds"),
                             before={"model_id": before, "kind": kind},
                             after={"model_id": int(model_id), "kind": kind}))
    return row
