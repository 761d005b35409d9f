"""Errors of the language layer."""

from __future__ import annotations


class UnsupportedLanguageError(ValueError):
    """A language redactdesk has no lexicon for (the message names the supported ones)."""
