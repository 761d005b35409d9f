"""Model versions of the active learner in the project file, which one is in use, and rollback.

Every update of the learner is a row of the project's ``models`` table (name ``active_learning``,
``kind`` = the learner's kind: ``spacy-ner`` for the tagger learner, ``crf`` for the baseline), with
its scores in ``metrics`` and the model in ``blob``. Rows are never deleted, so the history of
scores stays whole; the version *in use* is a pointer kept in the project's settings
(``learn.active_model``, one per kind). Without a pointer the newest version is in use.

Pruning. A tagger version is about 6 MB, so only the newest ``learn.keep_versions`` versions
(default 5) and the one in use keep their model; every new version drops the older blobs
(:func:`prune`, audited ``prune_models``). Their rows and scores stay, marked pruned, and a rollback
to one is refused. SQLite reuses the freed pages, so the project file stops growing.

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
KEEP_SETTING = "learn.keep_versions"
DEFAULT_KEEP = 5  # newest versions that keep their model (plus the one in use)


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
    if not row.get("stored", True):
        kept = ", ".join(str(r["id"]) for r in rows if r.get("stored", True)) or "none"
        raise LearnError(f"model version {int(model_id)} was pruned: only its scores are kept, so it cannot be "
                         f"used again (versions with their model: {kept}; setting {KEEP_SETTING})")
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


def keep_versions(project: Any) -> int:
    """How many of the newest versions keep their model (the project's setting; the default when unset
    or not a whole number of at least 1)."""
    value = project.setting(KEEP_SETTING)
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        return DEFAULT_KEEP
    return value


def prune(project: Any, kind: str, keep: int | None = None) -> list[int]:
    """Drop the models of ``kind``'s versions older than the newest ``keep`` (default: the project's
    setting), except the one in use; rows and scores stay. Returns the ids pruned now."""
    keep = keep_versions(project) if keep is None else max(1, int(keep))
    rows = version_rows(project, kind)
    kept = {int(r["id"]) for r in rows[-keep:]}
    active = active_id(project, kind, rows)
    if active is not None:
        kept.add(active)
    return project.drop_model_blobs([int(r["id"]) for r in rows if r.get("stored", True) and int(r["id"]) not in kept])
