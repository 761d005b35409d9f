"""Errors raised when a project file cannot be opened or changed."""


class ProjectError(Exception):
    """Base class: the message is meant for the user."""


class NotAProject(ProjectError):
    """The file exists but is not a redactdesk project (or not SQLite at all)."""


class NewerSchema(ProjectError):
    """The project was written by a newer redactdesk; opening it here could damage it."""


class CorruptProject(ProjectError):
    """The file is a damaged or half-written SQLite database."""


class NotFound(ProjectError):
    """A conversation, span or other row asked for does not exist."""
