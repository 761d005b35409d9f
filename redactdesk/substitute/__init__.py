"""Substitution: natural pseudonyms (and placeholders, tags, redaction, generalisation) for the
accepted spans of a conversation, with per-conversation maps and revision checks.

Public entry points::

    substitute_conversation(conv, *, mode="pseudonym", secret, existing_map=None, language=None,
                            gazetteer_edits=None) -> SubstitutionResult
    revision_checks(conv, result) -> list[RevisionWarning]
    write_revised(conv, result, out_dir) -> (txt_path, json_path)

Substitution over a whole project (its pseudonym maps, Auto-fix) is :mod:`redactdesk.pipeline.substitute_project`.
"""

from redactdesk.substitute.engine import (
    MODES,
    ItemReport,
    OccurrenceReport,
    Replacement,
    SubstitutionResult,
    substitute_conversation,
)
from redactdesk.substitute.errors import SubstitutionError
from redactdesk.substitute.gazetteer import load_gazetteer
from redactdesk.substitute.generalise import (
    GeneralisationReport,
    extract_quasi_identifiers,
    generalise_records,
)
from redactdesk.substitute.mapping import MapEntry, PseudonymMap
from redactdesk.substitute.revised_files import write_revised
from redactdesk.substitute.revision import RevisionWarning, revision_checks

__all__ = [
    "MODES", "GeneralisationReport", "ItemReport", "MapEntry", "OccurrenceReport",
    "PseudonymMap", "Replacement", "RevisionWarning", "SubstitutionError", "SubstitutionResult",
    "extract_quasi_identifiers", "generalise_records", "load_gazetteer", "revision_checks",
    "substitute_conversation", "write_revised",
]
