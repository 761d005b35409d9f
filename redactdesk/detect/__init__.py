"""PII detection on spoken transcripts: normaliser, validated patterns, gazetteer, spaCy NER, vote,
allow/deny lists, event grammar and evaluation.

Main entry points (see each module):

* :func:`detect_conversation` / :func:`detect_conversations` -> suggested :class:`~redactdesk.core.types.Span`
* :func:`detect_texts` / :func:`detect_jsonl` -> the JSONL contract (character offsets)
* :func:`evaluate` -> :class:`EvalReport` (``.table()`` prints it)
* :func:`register_source` -> plug in another recognizer (e.g. the active-learning model)
"""

from redactdesk.detect.errors import (
    DetectError,
    GrammarError,
    JsonlContractError,
    SourceParamsError,
    UnknownSourceError,
    UnsupportedLanguageError,
)
from redactdesk.detect.evaluate import EvalReport, comparison_table, evaluate
from redactdesk.detect.lists import DenyEntry, allow_entry_for, deny_entry_for
from redactdesk.detect.normalize import Normalized, normalize_words
from redactdesk.detect.pipeline import (
    detect_conversation,
    detect_conversations,
    detect_jsonl,
    detect_texts,
)
from redactdesk.detect.registry import DEFAULT_SOURCES, get_source, register_source
from redactdesk.detect.sources import DetectDoc, Hit, Source
from redactdesk.detect.vote import VotePolicy, combine

__all__ = [
    "DEFAULT_SOURCES",
    "DenyEntry",
    "DetectDoc",
    "DetectError",
    "EvalReport",
    "GrammarError",
    "Hit",
    "JsonlContractError",
    "Normalized",
    "Source",
    "SourceParamsError",
    "UnknownSourceError",
    "UnsupportedLanguageError",
    "VotePolicy",
    "allow_entry_for",
    "combine",
    "comparison_table",
    "deny_entry_for",
    "detect_conversation",
    "detect_conversations",
    "detect_jsonl",
    "detect_texts",
    "evaluate",
    "get_source",
    "normalize_words",
    "register_source",
]
