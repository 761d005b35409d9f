"""The project file: SQLite through sqlite-utils, with migrations and an append-only audit log."""

from redactdesk.store.errors import CorruptProject, NewerSchema, NotAProject, NotFound, ProjectError
from redactdesk.store.project import ConversationSummary, Project, utc_now
from redactdesk.store.schema import SCHEMA_VERSION

__all__ = [
    "ConversationSummary",
    "CorruptProject",
    "NewerSchema",
    "NotAProject",
    "NotFound",
    "Project",
    "ProjectError",
    "SCHEMA_VERSION",
    "utc_now",
]
