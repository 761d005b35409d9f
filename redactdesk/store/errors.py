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


class ProjectBusy(ProjectError):
    """Another connection (usually another redactdesk process) held the project's lock for too long."""


class ChangedElsewhere(ProjectError):
    """A decision was made on what a program last saw, but another program changed that row since."""


class SpanGone(NotFound, ChangedElsewhere):
    """A span a program read is no longer stored: another program removed it meanwhile (detection run
    again replaces a call's open suggestions, a reviewer deleted it). Nothing was changed; the caller
    reads the call again and decides on what is there now."""


class TamperedProject(ProjectError):
    """The audit log, or its append-only guard, was changed outside redactdesk."""


class AlreadyImported(ProjectError, ValueError):
    """The same recording with the same transcript is already in the project.

    Also a ``ValueError``, like the other per-file refusals of an import (an id already taken), so a
    batch import reports it for that file and goes on with the next.
    """
