"""The revised transcript as files: text (one line per turn) and a redactdesk conversation JSON.

Neither file holds an original value: the substitution result's words, turns and spans, and the
conversation's metadata without the keys that may hold originals.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from redactdesk.core.types import Conversation
from redactdesk.formats.files import atomic_write_text
from redactdesk.substitute.engine import SubstitutionResult
from redactdesk.substitute.errors import SubstitutionError

# meta keys that may hold original values (the demo generator's ground truth) and never leave
SENSITIVE_META = {"span_values", "quasi_identifiers"}


def revised_text(result: SubstitutionResult) -> str:
    """One line per turn: ``speaker: words``."""
    lines = []
    for t in result.revised_turns:
        words = " ".join(w.text for w in result.revised_words[t.start_word:t.end_word])
        lines.append(f"{t.speaker}: {words}")
    if not result.revised_turns:
        lines.append(result.revised_text())
    return "\n".join(lines) + "\n"


def revised_document(conv: Conversation, result: SubstitutionResult,
                     extra_meta: dict[str, Any] | None = None) -> dict[str, Any]:
    """The revised conversation as a redactdesk conversation JSON document (no original values)."""
    meta = {k: v for k, v in conv.meta.items() if k not in SENSITIVE_META}
    meta["substitution"] = {"mode": result.mode, "replacements": len(result.replacements),
                            "warnings": len(result.warnings)}
    if extra_meta:
        meta.update(extra_meta)
    return {
        "format": "redactdesk-conversation", "version": 1, "id": conv.id, "language": result.language,
        "duration": conv.duration, "sample_rate": conv.sample_rate, "channels": conv.channels,
        "words": [w.to_dict() for w in result.revised_words],
        "turns": [t.to_dict() for t in result.revised_turns],
        "spans": [s.to_dict() for s in result.revised_spans],
        "meta": meta,
    }


def write_revised(conv: Conversation, result: SubstitutionResult, out_dir: str | os.PathLike[str], *,
                  extra_meta: dict[str, Any] | None = None) -> tuple[Path, Path]:
    """Write ``<id>.txt`` and ``<id>.json`` (revised words, turns, spans) into ``out_dir``."""
    if result.conversation_id != conv.id:
        raise SubstitutionError(f"result is for {result.conversation_id!r}, not {conv.id!r}")
    folder = Path(out_dir)
    txt, js = folder / f"{conv.id}.txt", folder / f"{conv.id}.json"
    atomic_write_text(txt, revised_text(result))
    atomic_write_text(js, json.dumps(revised_document(conv, result, extra_meta), ensure_ascii=False, indent=1) + "\n")
    return txt, js
