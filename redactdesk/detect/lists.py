"""Per-project allow list ("never flag this") and deny list ("always flag this").

The caller owns the lists (the project file's settings table); entries match on normalised text, so
"four one one one" in a list matches "4111" in a transcript and vice versa.

GUI context menu: "never flag this" -> ``allow_entry_for(conv, span)`` gives the string to store;
"always flag this" -> ``deny_entry_for(conv, span)`` gives ``{"text": ..., "category": ...}``.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from redactdesk.core.types import Conversation, Span
from redactdesk.detect.errors import DetectError
from redactdesk.detect.normalize import normalize_words
from redactdesk.detect.sources import DetectDoc, Hit

ALLOW_SOURCE = "allow_list"
DENY_SOURCE = "deny_list"


@dataclass(frozen=True)
class DenyEntry:
    """A phrase that is always flagged, as ``category``."""

    text: str
    category: str = "GENERIC_ID"


def normalise_phrase(text: str, language: str = "en") -> str:
    """The form list entries are compared in: normalised, lower case, single spaces."""
    words = str(text).split()
    if not words:
        return ""
    return " ".join(normalize_words(words, language).text.split())


def as_deny_entries(deny: Iterable[str | DenyEntry | Mapping[str, str] | tuple[str, str]]) -> list[DenyEntry]:
    """Accept plain strings, (text, category) pairs, {"text", "category"} dicts or DenyEntry."""
    out: list[DenyEntry] = []
    for item in deny:
        if isinstance(item, DenyEntry):
            out.append(item)
        elif isinstance(item, str):
            out.append(DenyEntry(item))
        elif isinstance(item, Mapping):
            if "text" not in item:
                raise DetectError(f"deny list entry needs a 'text' field: {dict(item)!r}")
            out.append(DenyEntry(str(item["text"]), str(item.get("category") or "GENERIC_ID")))
        elif isinstance(item, tuple) and len(item) == 2:
            out.append(DenyEntry(str(item[0]), str(item[1])))
        else:
            raise DetectError(f"cannot read deny list entry {item!r} (use text, (text, category) or a dict)")
    return [e for e in out if e.text.strip()]


def deny_hits(doc: DetectDoc, deny: Iterable[str | DenyEntry | Mapping[str, str] | tuple[str, str]]) -> list[Hit]:
    """Every occurrence of a deny-list phrase in the document, as a hit that needs no vote."""
    assert doc.norm is not None
    text = doc.norm.text
    hits: list[Hit] = []
    for entry in as_deny_entries(deny):
        phrase = normalise_phrase(entry.text, doc.language)
        if not phrase:
            continue
        rx = re.compile(r"(?<![\w@.])" + re.escape(phrase).replace(r"\ ", r"[ \n]") + r"(?![\w@])")
        for m in rx.finditer(text):
            wr = doc.norm.word_range(m.start(), m.end())
            if wr:
                hits.append(Hit(wr[0], wr[1], entry.category, 1.0, DENY_SOURCE, "on the project's deny list"))
    return hits


def allowed(words: list[str], span: Span, allow: set[str], language: str = "en") -> bool:
    """True when the span's normalised text is on the allow list."""
    return normalise_phrase(" ".join(words[span.start_word : span.end_word]), language) in allow


@functools.lru_cache(maxsize=64)
def _normalised_set(entries: tuple[str, ...], language: str) -> frozenset[str]:
    return frozenset(e for e in (normalise_phrase(a, language) for a in entries) if e)


def span_norm_text(doc: DetectDoc, span: Span) -> str:
    """The normalised text of a span's words, from the document's own normalisation."""
    assert doc.norm is not None
    t0 = None
    for w in range(span.start_word, span.end_word):
        t0 = doc.norm.token_of_word(w)
        if t0 is not None:
            break
    if t0 is None:
        return ""
    toks = doc.norm.tokens
    t1 = t0
    while t1 < len(toks) and toks[t1].w0 < span.end_word:
        t1 += 1
    return " ".join(doc.norm.tokens_text(t0, t1).split())


def filter_allowed(doc: DetectDoc, spans: list[Span], allow: Iterable[str]) -> list[Span]:
    """Drop spans whose normalised text is an allow-list entry."""
    norm_allow = _normalised_set(tuple(allow), doc.language)
    if not norm_allow:
        return spans
    return [s for s in spans if span_norm_text(doc, s) not in norm_allow]


def allow_entry_for(conv: Conversation, span: Span, language: str | None = None) -> str:
    """The allow-list string for "never flag this" on ``span``."""
    return normalise_phrase(conv.span_text(span), language or conv.language or "en")


def deny_entry_for(conv: Conversation, span: Span, language: str | None = None) -> dict[str, str]:
    """The deny-list entry for "always flag this" on ``span``."""
    return {"text": normalise_phrase(conv.span_text(span), language or conv.language or "en"),
            "category": span.category}
