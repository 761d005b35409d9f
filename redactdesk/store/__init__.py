"""The project file: SQLite through sqlite-utils, with migrations and an append-only audit log."""

from redactdesk.store.errors import (
    AlreadyImported,
    ChangedElsewhere,
    CorruptProject,
    NewerSchema,
    NotAProject,
    NotFound,
    ProjectBusy,
    ProjectError,
    SpanGone,
    TamperedProject,
)
from redactdesk.store.project import AuditCheck, ConversationSummary, Project, utc_now
from redactdesk.store.schema import SCHEMA_VERSION

__all__ = [
    "AlreadyImported",
    "AuditCheck",
    "ChangedElsewhere",
    "ConversationSummary",
    "CorruptProject",
    "NewerSchema",
    "NotAProject",
    "NotFound",
    "Project",
    "ProjectBusy",
    "ProjectError",
    "SCHEMA_VERSION",
    "SpanGone",
    "TamperedProject",
    "utc_now",
]
