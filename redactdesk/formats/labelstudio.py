"""Label Studio tasks: a conversation as audio plus dialogue paragraphs with word times, its spans as
``predictions`` (pre-annotations), and annotations read back as spans.

Shape (Label Studio's basic JSON task format; labeling config from :func:`labeling_config`)::

    {"data": {"conversation_id": "call_1", "audio": "audio/call_1.wav",
              "paragraphs": [{"author": "agent", "text": "hello who is calling", "start": 0.1, "end": 1.0}],
              "words": [{"text": "hello", "start": 0.1, "end": 0.4, "paragraph": 0,
                         "startOffset": 0, "endOffset": 5}]},
     "predictions": [{"model_version": "redactdesk", "result": [
         {"id": "s0", "from_name": "label", "to_name": "text", "type": "paragraphlabels",
          "value": {"start": 1, "end": 1, "startOffset": 8, "endOffset": 29,
                    "text": "...", "paragraphlabels": ["PERSON"]}}]}]}

Reading takes ``paragraphlabels`` regions (paragraph index + character offsets in the paragraph's
text, which must still equal the project's words) and ``labels`` regions on the audio (seconds; a
word belongs to a region when its middle lies inside). Messages name the task and region, never
their text.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import Any
from xml.sax.saxutils import quoteattr

from redactdesk.core.types import Conversation, Span, SpanStatus
from redactdesk.formats._textio import load_json
from redactdesk.formats.errors import ImportProblem
from redactdesk.formats.interchange import Paragraph, paragraphs, shown_spans, words_in_chars
from redactdesk.formats.span_tier import label_category

FROM_NAME, TO_NAME, AUDIO_NAME = "label", "text", "audio"
MODEL_VERSION = "redactdesk"
SOURCE = "import:labelstudio"


def labeling_config(categories: Iterable[tuple[str, str]]) -> str:
    """The Label Studio labeling config for these tasks: audio synced with dialogue paragraphs and
    one label per (category id, colour)."""
    labels = "\n".join(f"    <Label value={quoteattr(cid)} background={quoteattr(colour)}/>"
                       for cid, colour in categories)
    return f"""<View>
  <Audio name="{AUDIO_NAME}" value="$audio" sync="{TO_NAME}"/>
  <ParagraphLabels name="{FROM_NAME}" toName="{TO_NAME}">
{labels}
  </ParagraphLabels>
  <Paragraphs name="{TO_NAME}" value="$paragraphs" layout="dialogue" nameKey="author" textKey="text"
              sync="{AUDIO_NAME}"/>
</View>
"""


def _region(paras: list[Paragraph], span: Span, n: int) -> dict[str, Any] | None:
    where = {}
    for pi, p in enumerate(paras):
        for i, a, b in p.offsets:
            if i == span.start_word:
                where["start"] = (pi, a)
            if i == span.end_word - 1:
                where["end"] = (pi, b)
    if "start" not in where or "end" not in where:
        return None
    (p0, a), (p1, b) = where["start"], where["end"]
    text = paras[p0].text[a:b] if p0 == p1 else paras[p0].text[a:] + " " + paras[p1].text[:b]
    return {"id": f"s{n}", "from_name": FROM_NAME, "to_name": TO_NAME, "type": "paragraphlabels",
            "value": {"start": p0, "end": p1, "startOffset": a, "endOffset": b, "text": text,
                      "paragraphlabels": [span.category]}}


def labelstudio_task(conv: Conversation, audio: str | None, *, model_version: str = MODEL_VERSION) -> dict[str, Any]:
    """One task: audio, paragraphs with times, every word with its times and offsets, and the spans
    not rejected as one prediction (score: the lowest span score)."""
    paras = paragraphs(conv)
    words = [{"text": conv.words[i].text, "start": round(conv.words[i].start, 4),
              "end": round(conv.words[i].end, 4), "paragraph": pi, "startOffset": a, "endOffset": b}
             for pi, p in enumerate(paras) for i, a, b in p.offsets]
    data: dict[str, Any] = {"conversation_id": conv.id, "language": conv.language}
    if audio:
        data["audio"] = audio
    data["paragraphs"] = [{"author": p.speaker, "text": p.text, "start": round(p.start, 4), "end": round(p.end, 4)}
                          for p in paras]
    data["words"] = words
    spans = shown_spans(conv)
    result = [r for n, s in enumerate(spans) if (r := _region(paras, s, n)) is not None]
    task: dict[str, Any] = {"data": data}
    task["predictions"] = [{"model_version": model_version, "score": min((s.score for s in spans), default=1.0),
                            "result": result}]
    return task


def read_labelstudio(path: str) -> list[dict[str, Any]]:
    """Tasks from a Label Studio JSON export (a list of tasks, or one task)."""
    data = load_json(path)
    if isinstance(data, dict):
        data = [data]
    if not isinstance(data, list):
        from redactdesk.formats.errors import fail

        raise fail(path, "file", "expected a list of Label Studio tasks")
    return data


def _results(task: dict[str, Any], use_predictions: bool) -> list[Any]:
    out: list[Any] = []
    for key in ("annotations", "completions") + (("predictions",) if use_predictions else ()):
        for ann in task.get(key) or []:
            if isinstance(ann, dict) and not ann.get("was_cancelled"):
                out.extend(r for r in ann.get("result") or [] if isinstance(r, dict))
    return out


def _int(x: Any) -> int | None:
    if isinstance(x, bool):
        return None
    if isinstance(x, int):
        return x
    if isinstance(x, str) and x.isascii() and x.isdigit() and len(x) < 10:
        return int(x)
    return None


def _num(x: Any) -> float | None:
    return float(x) if isinstance(x, (int, float)) and not isinstance(x, bool) else None


def _paragraph_range(paras: list[Paragraph], value: dict[str, Any]) -> tuple[int, int] | None | bool:
    """Words of a paragraphlabels region; None when it covers none, False when it is malformed."""
    p0, p1 = _int(value.get("start")), _int(value.get("end"))
    a, b = _int(value.get("startOffset")), _int(value.get("endOffset"))
    if p0 is None or p1 is None or a is None or b is None or not 0 <= p0 <= p1 < len(paras):
        return False
    if p0 == p1:
        return words_in_chars(paras[p0].offsets, a, b)
    first = words_in_chars(paras[p0].offsets, a, len(paras[p0].text) + 1)
    last = words_in_chars(paras[p1].offsets, 0, b)
    return (first[0], last[1]) if first and last else None


def spans_from_labelstudio(tasks: list[Any], conversations: dict[str, Conversation], categories: Collection[str],
                           status: SpanStatus = SpanStatus.SUGGESTED, *, use_predictions: bool = False
                           ) -> tuple[dict[str, list[Span]], list[ImportProblem]]:
    """Spans per conversation id from annotated tasks (annotations; also predictions when asked)."""
    out: dict[str, list[Span]] = {}
    problems: list[ImportProblem] = []
    for ti, task in enumerate(tasks, 1):
        data = task.get("data") if isinstance(task, dict) else None
        cid = data.get("conversation_id") if isinstance(data, dict) else None
        if not isinstance(cid, str) or cid not in conversations:
            problems.append(ImportProblem(f"task {ti}", "data.conversation_id names no conversation of the project"))
            continue
        conv = conversations[cid]
        paras = paragraphs(conv)
        given = data.get("paragraphs")
        if not isinstance(given, list) or [p.get("text") if isinstance(p, dict) else None for p in given] != \
                [p.text for p in paras]:
            problems.append(ImportProblem(f"task {ti}", "the paragraphs differ from the project's words "
                                          "(the transcript changed since the tasks were exported)"))
            continue
        spans = out.setdefault(cid, [])
        for ri, r in enumerate(_results(task, use_predictions), 1):
            where = f"task {ti}, region {ri}"
            value = r.get("value") if isinstance(r.get("value"), dict) else {}
            labels = value.get("paragraphlabels") or value.get("labels")
            if not (isinstance(labels, list) and labels and isinstance(labels[0], str)):
                continue  # not a labelled region (e.g. a text area)
            category = label_category(labels[0], categories)
            if category is None:
                problems.append(ImportProblem(where, "the label names no category of the taxonomy"))
                continue
            rng: tuple[int, int] | None | bool = None
            if r.get("type") == "paragraphlabels":
                rng = _paragraph_range(paras, value)
                if rng is False:
                    problems.append(ImportProblem(where, "paragraph indices or offsets are missing or out of range"))
                    continue
            elif r.get("type") == "labels" and r.get("to_name") == AUDIO_NAME:
                t0, t1 = _num(value.get("start")), _num(value.get("end"))
                if t0 is None or t1 is None:
                    problems.append(ImportProblem(where, "audio region without start and end seconds"))
                    continue
                inside = [i for i, w in enumerate(conv.words) if t0 <= (w.start + w.end) / 2 < t1]
                rng = (inside[0], inside[-1] + 1) if inside else None
            else:
                continue
            if not isinstance(rng, tuple):
                problems.append(ImportProblem(where, "the region covers no word"))
                continue
            score = _num(r.get("score"))
            spans.append(Span(rng[0], rng[1], category, status=status, sources=(SOURCE,),
                              score=min(max(score, 0.0), 1.0) if score is not None else 1.0,
                              reason="from a Label Studio annotation"))
    return out, problems

