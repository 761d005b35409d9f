"""Errors raised by the detection stage, each with a message a user can act on."""

from __future__ import annotations

from redactdesk.lang.errors import UnsupportedLanguageError

__all__ = ["DetectError", "UnknownSourceError", "SourceParamsError", "UnsupportedLanguageError",
           "JsonlContractError", "GrammarError"]


class DetectError(Exception):
    """Base class for detection errors."""


class UnknownSourceError(DetectError, KeyError):
    """A recognizer source name that is not registered."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else "unknown source"


class SourceParamsError(DetectError, ValueError):
    """Parameters given to a source that it cannot use."""




class JsonlContractError(DetectError, ValueError):
    """A JSONL input line that does not follow the detect contract."""


class GrammarError(DetectError, ValueError):
    """An event grammar that cannot be learnt, loaded or applied."""
