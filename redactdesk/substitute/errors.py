"""Errors raised by the substitution stage."""

from __future__ import annotations


class SubstitutionError(Exception):
    """Bad input to substitution (unknown mode, language, broken gazetteer or hierarchy file)."""
