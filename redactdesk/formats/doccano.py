"""doccano sequence-labeling JSONL: one line per turn, ``{"text": ..., "label": [[start, end, "PERSON"]]}``
(character offsets, end exclusive) — doccano's import format for sequence labeling. Extra keys
(``conversation_id``, ``turn``, ``speaker``, ``start``, ``end``) ride along as metadata.
"""

from __future__ import annotations

import json
from typing import Any

from redactdesk.core.types import Conversation
from redactdesk.formats.interchange import char_range, paragraphs, shown_spans


def doccano_records(conv: Conversation) -> list[dict[str, Any]]:
    """One record per turn; a span crossing a turn boundary is cut at it."""
    spans = shown_spans(conv)
    out = []
    for ti, p in enumerate(paragraphs(conv)):
        first, last = p.offsets[0][0], p.offsets[-1][0] + 1
        labels = []
        for s in spans:
            a, b = max(s.start_word, first), min(s.end_word, last)
            if a < b:
                rng = char_range(p.offsets, a, b)
                if rng is not None:
                    labels.append([rng[0], rng[1], s.category])
        out.append({"text": p.text, "label": labels, "conversation_id": conv.id, "turn": ti, "speaker": p.speaker,
                    "start": round(p.start, 4), "end": round(p.end, 4)})
    return out


def doccano_lines(conv: Conversation) -> list[str]:
    return [json.dumps(r, ensure_ascii=False, allow_nan=False) for r in doccano_records(conv)]
