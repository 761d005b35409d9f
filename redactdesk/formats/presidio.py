"""Presidio ``RecognizerResult`` JSON as a detection source: what ``AnalyzerEngine.analyze`` returns,
serialised with ``RecognizerResult.to_dict()`` (``entity_type``, ``start``, ``end``, ``score``),
over a conversation's words joined by single spaces (the ``text`` of ``redactdesk tasks export
--to text``).

Input: JSONL, one line per conversation — ``{"id": CONV, "text": TEXT, "results": [...]}`` (``text``
optional; when present it must still be the project's words) — or one JSON object
``{CONV: [...], ...}``. Presidio's entity names map to the taxonomy (``PHONE_NUMBER`` → ``PHONE``);
a name the taxonomy also uses passes as is; others are counted and left out (a warning names how
many). No presidio package is needed to read it.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from redactdesk.core.types import Conversation, Span, SpanStatus
from redactdesk.formats._textio import parse_json, read_text
from redactdesk.formats.errors import ImportProblem
from redactdesk.formats.interchange import whole_text, words_in_chars

SOURCE = "import:presidio"
# Presidio's predefined recognizers' entity names -> taxonomy categories
PRESIDIO_TO_CATEGORY = {
    "PERSON": "PERSON", "LOCATION": "LOCATION", "ORGANIZATION": "ORGANIZATION", "EMAIL_ADDRESS": "EMAIL",
    "PHONE_NUMBER": "PHONE", "CREDIT_CARD": "CREDIT_CARD", "IBAN_CODE": "IBAN", "IP_ADDRESS": "IP_ADDRESS",
    "DATE_TIME": "DATE", "US_SSN": "SSN", "URL": "URL", "US_BANK_NUMBER": "BANK_ACCOUNT", "US_PASSPORT": "PASSPORT",
    "US_DRIVER_LICENSE": "NATIONAL_ID", "US_ITIN": "NATIONAL_ID", "UK_NHS": "NATIONAL_ID", "UK_NINO": "NATIONAL_ID",
    "ES_NIF": "ES_ID", "ES_NIE": "ES_ID", "IT_FISCAL_CODE": "NATIONAL_ID", "IN_AADHAAR": "NATIONAL_ID",
    "IN_PAN": "NATIONAL_ID", "SG_NRIC_FIN": "NATIONAL_ID", "AU_TFN": "NATIONAL_ID", "PL_PESEL": "NATIONAL_ID",
}
CATEGORY_TO_PRESIDIO = {"PERSON": "PERSON", "LOCATION": "LOCATION", "CITY": "LOCATION", "COUNTRY": "LOCATION",
                        "ADDRESS": "LOCATION", "ORGANIZATION": "ORGANIZATION", "EMAIL": "EMAIL_ADDRESS",
                        "PHONE": "PHONE_NUMBER", "CREDIT_CARD": "CREDIT_CARD", "IBAN": "IBAN_CODE",
                        "IP_ADDRESS": "IP_ADDRESS", "DATE": "DATE_TIME", "DATE_OF_BIRTH": "DATE_TIME",
                        "SSN": "US_SSN", "URL": "URL", "BANK_ACCOUNT": "US_BANK_NUMBER", "PASSPORT": "US_PASSPORT",
                        "ES_ID": "ES_NIF", "NRP": "NRP",
                        "OCCUPATION": "TITLE"}  # presidio-research's label of job titles


def category_of(entity_type: str, categories: Collection[str]) -> str | None:
    cat = PRESIDIO_TO_CATEGORY.get(entity_type, entity_type)
    return cat if cat in categories else None


def read_presidio(path: str) -> list[tuple[Any, Any, Any, str]]:
    """(conversation id, text or None, results, where) per conversation in a Presidio results file."""
    import json

    text = read_text(path)
    try:
        whole = json.loads(text)
    except ValueError:
        whole = None
    if isinstance(whole, dict) and "id" not in whole:  # {CONV: [results]}
        return [(k, None, v, "file") for k, v in whole.items()]
    if isinstance(whole, dict | list):
        lines = whole if isinstance(whole, list) else [whole]
        return [_row(d, f"item {n}") for n, d in enumerate(lines, 1)]
    return [_row(parse_json(line, path), f"line {ln}") for ln, line in enumerate(text.splitlines(), 1)
            if line.strip()]


def _row(d: Any, where: str) -> tuple[Any, Any, Any, str]:
    if not isinstance(d, dict):
        return None, None, None, where
    return d.get("id"), d.get("text"), d.get("results", d.get("spans")), where


def spans_from_presidio(rows: list[tuple[Any, Any, Any, str]], conversations: dict[str, Conversation],
                        categories: Collection[str], status: SpanStatus = SpanStatus.SUGGESTED
                        ) -> tuple[dict[str, list[Span]], list[ImportProblem], int]:
    """Spans per conversation, problems, and how many results named an entity with no category."""
    out: dict[str, list[Span]] = {}
    problems: list[ImportProblem] = []
    unmapped = 0
    for cid, given_text, results, where in rows:
        if not isinstance(cid, str) or cid not in conversations:
            problems.append(ImportProblem(where, "the id names no conversation of the project"))
            continue
        conv = conversations[cid]
        text, offsets = whole_text(conv)
        if given_text is not None and given_text != text:
            problems.append(ImportProblem(where, "the text differs from the project's words"))
            continue
        if not isinstance(results, list):
            problems.append(ImportProblem(where, "expected a list of RecognizerResult objects"))
            continue
        spans = out.setdefault(cid, [])
        for ri, r in enumerate(results, 1):
            loc = f"{where}, result {ri}"
            if not (isinstance(r, dict) and isinstance(r.get("entity_type"), str)
                    and all(isinstance(r.get(k), int) and not isinstance(r.get(k), bool) for k in ("start", "end"))):
                problems.append(ImportProblem(loc, "expected entity_type, start and end (whole numbers)"))
                continue
            category = category_of(r["entity_type"], categories)
            if category is None:
                unmapped += 1
                continue
            rng = words_in_chars(offsets, r["start"], r["end"]) if 0 <= r["start"] < r["end"] <= len(text) else None
            if rng is None:
                problems.append(ImportProblem(loc, "start and end do not cover a word of the text"))
                continue
            score = r.get("score")
            score = float(score) if isinstance(score, (int, float)) and not isinstance(score, bool) else 1.0
            spans.append(Span(rng[0], rng[1], category, status=status, score=min(max(score, 0.0), 1.0),
                              sources=(SOURCE,), reason=f"Presidio {r['entity_type'][:40]}"))
    return out, problems, unmapped
