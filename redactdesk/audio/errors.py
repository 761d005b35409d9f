"""Errors raised while masking audio; messages say what to change and never quote personal data."""

from __future__ import annotations

from redactdesk.core.progress import Cancelled


class MaskError(Exception):
    """Masking cannot go ahead (bad input, unsupported file, bad parameters). Nothing was written."""


class MaskCancelled(MaskError, Cancelled):
    """The user cancelled masking; no output file was written."""

    def __init__(self, message: str = "masking cancelled; no output was written") -> None:
        super().__init__(message)


class MaskerUnavailable(MaskError):
    """A masker needs something this machine lacks (e.g. espeak-ng for spoken surrogates)."""
