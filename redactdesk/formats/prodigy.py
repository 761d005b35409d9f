"""Prodigy tasks (JSONL): one task per conversation with ``text``, ``tokens`` (one per word),
``spans`` (``label``, character ``start``/``end``, ``token_start``/``token_end`` — Prodigy's
token_end is inclusive) and, with audio, ``audio`` + ``audio_spans`` (seconds) — what the
``ner.manual``/``spans.manual`` and ``audio.manual`` recipes show and save.

Reading takes accepted answers (or tasks without an answer): ``spans`` by token indices (the
tokens must still be the project's words) or, without tokens, by characters; ``audio_spans`` by
time (a word belongs when its middle lies inside). Rejected and ignored answers are skipped.
"""

from __future__ import annotations

import json
from collections.abc import Collection
from typing import Any

from redactdesk.core.types import Conversation, Span, SpanStatus
from redactdesk.formats._textio import parse_json, read_text
from redactdesk.formats.errors import ImportProblem
from redactdesk.formats.interchange import char_range, shown_spans, whole_text, words_in_chars
from redactdesk.formats.span_tier import label_category

SOURCE = "import:prodigy"


def prodigy_task(conv: Conversation, audio: str | None = None) -> dict[str, Any]:
    """One Prodigy task for ``conv``: every span not rejected in ``spans`` and ``audio_spans``."""
    text, offsets = whole_text(conv)
    tokens = [{"text": conv.words[i].text, "start": a, "end": b, "id": i, "ws": i < len(conv.words) - 1}
              for i, a, b in offsets]
    spans, audio_spans = [], []
    for s in shown_spans(conv):
        a, b = char_range(offsets, s.start_word, s.end_word) or (0, 0)
        spans.append({"start": a, "end": b, "token_start": s.start_word, "token_end": s.end_word - 1,
                      "label": s.category})
        t0, t1 = conv.span_times(s)
        audio_spans.append({"start": round(t0, 4), "end": round(t1, 4), "label": s.category})
    task: dict[str, Any] = {"conversation_id": conv.id, "text": text, "tokens": tokens, "spans": spans}
    if audio:
        task["audio"] = audio
        task["audio_spans"] = audio_spans
    task["meta"] = {"conversation_id": conv.id, "language": conv.language}
    return task


def prodigy_line(conv: Conversation, audio: str | None = None) -> str:
    return json.dumps(prodigy_task(conv, audio), ensure_ascii=False, allow_nan=False)


def read_prodigy(path: str) -> list[Any]:
    """Tasks from a Prodigy JSONL file (``prodigy db-out``); blank lines are skipped."""
    out = []
    for line in read_text(path).splitlines():
        if line.strip():
            out.append(parse_json(line, path))
    return out


def _conversation_id(task: dict[str, Any]) -> Any:
    meta = task.get("meta")
    return task.get("conversation_id") or (meta.get("conversation_id") if isinstance(meta, dict) else None)


def _index(x: Any) -> int | None:
    return x if isinstance(x, int) and not isinstance(x, bool) else None


def spans_from_prodigy(tasks: list[Any], conversations: dict[str, Conversation], categories: Collection[str],
                       status: SpanStatus = SpanStatus.SUGGESTED) -> tuple[dict[str, list[Span]], list[ImportProblem]]:
    """Spans per conversation id from Prodigy tasks (accepted answers only)."""
    out: dict[str, list[Span]] = {}
    problems: list[ImportProblem] = []
    for ti, task in enumerate(tasks, 1):
        if not isinstance(task, dict) or task.get("answer", "accept") != "accept":
            continue
        cid = _conversation_id(task)
        if not isinstance(cid, str) or cid not in conversations:
            problems.append(ImportProblem(f"line {ti}", "conversation_id (or meta.conversation_id) names no "
                                          "conversation of the project"))
            continue
        conv = conversations[cid]
        text, offsets = whole_text(conv)
        tokens = task.get("tokens")
        tokens_match = isinstance(tokens, list) and [t.get("text") if isinstance(t, dict) else None
                                                     for t in tokens] == [w.text for w in conv.words]
        if tokens is not None and not tokens_match:
            problems.append(ImportProblem(f"line {ti}", "the tokens differ from the project's words"))
            continue
        if tokens is None and task.get("spans") and task.get("text") != text:
            problems.append(ImportProblem(f"line {ti}", "the text differs from the project's words"))
            continue
        spans = out.setdefault(cid, [])
        for key in ("spans", "audio_spans"):
            for si, sp in enumerate(task.get(key) or [], 1):
                where = f"line {ti}, {key} {si}"
                if not isinstance(sp, dict) or not isinstance(sp.get("label"), str):
                    problems.append(ImportProblem(where, "expected an object with a 'label'"))
                    continue
                category = label_category(sp["label"], categories)
                if category is None:
                    problems.append(ImportProblem(where, "the label names no category of the taxonomy"))
                    continue
                rng = _range(conv, offsets, sp, key, tokens_match)
                if rng is None:
                    problems.append(ImportProblem(where, "the span covers no word, or its indices are out of range"))
                    continue
                spans.append(Span(rng[0], rng[1], category, status=status, sources=(SOURCE,),
                                  reason=f"from a Prodigy {'audio ' if key == 'audio_spans' else ''}annotation"))
    return out, problems


def _range(conv: Conversation, offsets: Any, sp: dict[str, Any], key: str, tokens_match: bool
           ) -> tuple[int, int] | None:
    start, end = sp.get("start"), sp.get("end")
    if key == "audio_spans":
        if not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in (start, end)):
            return None
        inside = [i for i, w in enumerate(conv.words) if start <= (w.start + w.end) / 2 < end]
        return (inside[0], inside[-1] + 1) if inside else None
    t0, t1 = _index(sp.get("token_start")), _index(sp.get("token_end"))
    if tokens_match and t0 is not None and t1 is not None:
        return (t0, t1 + 1) if 0 <= t0 <= t1 < len(conv.words) else None
    a, b = _index(start), _index(end)
    if a is None or b is None or a >= b:
        return None
    return words_in_chars(offsets, a, b)
