"""The revised (anonymised) view of a conversation and the text formats a release carries.

A :class:`RevisedConversation` holds the words after substitution, turns re-indexed over them and
one :class:`AnonItem` per replaced span (category, surrogate, placeholder, word range, times). It
never holds an original value: it is built from a substitution result's revised words and
surrogates, and only the *positions* of the original spans are used.

Writers here render it as the release's JSON (the project's conversation JSON, readable by
``read_conversation_json``, plus ES-Port-like ``speakers``/``utterances``/``anonymised``), JSONL
(one turn per line, ``tokens``/``tags`` as ``redactdesk simulate`` reads), CoNLL/BIO and
placeholder-tagged text (``[PERSON_1]``, numbered per call).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from redactdesk.core.types import Conversation, Span, SpanStatus, Turn, Word

RELEASE_JSON_FORMAT = "redactdesk-conversation"  # readable by redactdesk.formats.read_conversation_json
RELEASE_JSON_VERSION = 1
EXPORTED_META_KEYS = ("speakers",)  # everything else in meta may describe originals (e.g. synthetic values)
EXPORTED_SPEAKER_KEYS = ("role",)
PUNCT = ".,;:?!"


class RevisionError(Exception):
    """A substitution result does not line up with its conversation; nothing is exported."""


class ReplacementLike(Protocol):
    span_id: Any
    category: str
    surrogate: str


@dataclass(frozen=True)
class AnonItem:
    """One anonymised item in the revised words ``[start_word, end_word)``."""

    index: int
    category: str
    surrogate: str
    placeholder: str  # "[PERSON_1]": the same within a call for the same surrogate
    start_word: int
    end_word: int
    start: float
    end: float
    turn: int | None
    span_id: Any = None  # the project span it replaces (kept in memory, never written)

    def to_dict(self) -> dict[str, Any]:
        return {"item": self.index, "category": self.category, "surrogate": self.surrogate,
                "placeholder": self.placeholder, "start_word": self.start_word, "end_word": self.end_word,
                "start": self.start, "end": self.end, "turn": self.turn}


@dataclass
class RevisedConversation:
    """A conversation after substitution: revised words and turns, anonymised items, no originals."""

    id: str
    language: str
    duration: float | None
    sample_rate: int | None
    channels: int | None
    words: list[Word]
    turns: list[Turn]
    items: list[AnonItem]
    speakers: dict[str, dict[str, Any]] = field(default_factory=dict)
    # for each revised word, the original word it is (None inside a surrogate); in memory only
    source_word: list[int | None] = field(default_factory=list)

    def item_of_word(self) -> list[int | None]:
        """For each revised word, the index of the item covering it (None outside items)."""
        out: list[int | None] = [None] * len(self.words)
        for it in self.items:
            for i in range(it.start_word, it.end_word):
                out[i] = it.index
        return out

    def bio_tags(self) -> list[str]:
        tags = ["O"] * len(self.words)
        for it in self.items:
            tags[it.start_word] = f"B-{it.category}"
            for i in range(it.start_word + 1, it.end_word):
                tags[i] = f"I-{it.category}"
        return tags

    def to_conversation(self, audio_path: str | None = None) -> Conversation:
        """A core Conversation whose spans are the anonymised items (entity = placeholder)."""
        spans = [Span(it.start_word, it.end_word, it.category, status=SpanStatus.ACCEPTED,
                      entity=it.placeholder.strip("[]")) for it in self.items]
        return Conversation(id=self.id, audio_path=audio_path, sample_rate=self.sample_rate, channels=self.channels,
                            duration=self.duration, language=self.language, words=list(self.words),
                            turns=list(self.turns), spans=spans, meta={"speakers": self.speakers})


def _tokens(text: str) -> list[str]:
    return text.split()


def _speakers(conv: Conversation) -> dict[str, dict[str, Any]]:
    raw = conv.meta.get("speakers")
    out: dict[str, dict[str, Any]] = {}
    if isinstance(raw, dict):
        for name, info in raw.items():
            out[str(name)] = {k: info[k] for k in EXPORTED_SPEAKER_KEYS if isinstance(info, dict) and k in info}
    for w in conv.words:
        if w.speaker and w.speaker not in out:
            out[w.speaker] = {}
    return out


def build_revised(conv: Conversation, revised_words: Sequence[Word], replacements: Iterable[ReplacementLike]
                  ) -> RevisedConversation:
    """Line up a substitution result with the original conversation's accepted spans.

    Each replacement covers original words ``[start_word, end_word)`` and revised words
    ``[revised_start, revised_end)``; when a result does not carry these, a replacement takes its
    span's words and as many revised words as its surrogate has tokens. Words between replacements
    map one to one. Raises RevisionError (naming span ids, never text) when an accepted span's words
    are not all replaced, or the counts do not add up.
    """
    accepted = conv.spans_by_status(SpanStatus.ACCEPTED)
    spans_by_key = {(s.id if s.id is not None else f"{s.start_word}:{s.end_word}"): s for s in accepted}
    plan: list[tuple[int, int, int | None, int | None, ReplacementLike]] = []
    for r in replacements:
        span = spans_by_key.get(r.span_id)
        start = getattr(r, "start_word", None)
        end = getattr(r, "end_word", None)
        if start is None or end is None:
            if span is None:
                raise RevisionError(f"conversation {conv.id!r}: a replacement names span {r.span_id}, "
                                    "which is not accepted; run substitution again")
            start, end = span.start_word, span.end_word
        if not _tokens(r.surrogate):
            raise RevisionError(f"conversation {conv.id!r}: span {r.span_id} ({r.category}) has an empty surrogate")
        plan.append((int(start), int(end), getattr(r, "revised_start", None), getattr(r, "revised_end", None), r))
    plan.sort(key=lambda p: (p[0], p[1]))
    for a, b in zip(plan, plan[1:], strict=False):
        if b[0] < a[1]:
            raise RevisionError(f"conversation {conv.id!r}: replacements of spans {a[4].span_id} and "
                                f"{b[4].span_id} overlap; resolve the overlap before exporting")
    replaced = set()
    for start, end, *_ in plan:
        replaced.update(range(start, end))
    for s in sorted(accepted, key=lambda s: s.start_word):
        if not set(s.word_range()) <= replaced:
            what = "has no surrogate" if not set(s.word_range()) & replaced else "is only partly replaced"
            raise RevisionError(f"conversation {conv.id!r}: accepted span {s.id} ({s.category}) {what} "
                                "(overlapping spans?); resolve it and run substitution again")

    words: list[Word] = []
    new_index = [0] * (len(conv.words) + 1)  # original word index -> revised index of its first word
    items: list[AnonItem] = []
    links: list[set[tuple[str, str]]] = []
    i = j = 0
    mismatch = RevisionError(f"conversation {conv.id!r}: the substitution result does not line up with "
                             f"its {len(conv.words)} words; run substitution again")
    for start, end, rstart, rend, r in [*plan, (len(conv.words), len(conv.words), None, None, None)]:
        gap = start - i
        if rstart is not None and rstart - j != gap:
            raise mismatch
        if j + gap > len(revised_words):
            raise mismatch
        for n in range(gap):
            new_index[i + n] = j + n
        words.extend(revised_words[j:j + gap])
        i, j = start, j + gap
        if r is None:
            break
        k = len(_tokens(r.surrogate)) if rend is None else rend - j
        if k <= 0 or j + k > len(revised_words):
            raise mismatch
        for n in range(start, end):
            new_index[n] = j
        chunk = list(revised_words[j:j + k])
        words.extend(chunk)
        items.append(AnonItem(index=len(items), category=r.category, surrogate=r.surrogate,
                              placeholder="", start_word=j, end_word=j + k,
                              start=chunk[0].start, end=chunk[-1].end, turn=None, span_id=r.span_id))
        links.append(_link_keys(r, spans_by_key.get(r.span_id)))
        i, j = end, j + k
    if j != len(revised_words):
        raise mismatch
    new_index[len(conv.words)] = j

    turns = []
    for t in conv.turns:
        a, b = new_index[t.start_word], new_index[t.end_word]
        if b > a:
            turns.append(Turn(speaker=t.speaker, start_word=a, end_word=b, channel=t.channel))
    turn_of = {}
    for ti, t in enumerate(turns):
        for w in range(t.start_word, t.end_word):
            turn_of[w] = ti
    placeholders = _placeholders(items, links)
    items = [replace(it, turn=turn_of.get(it.start_word), placeholder=placeholders[n]) for n, it in enumerate(items)]
    source_word: list[int | None] = [None] * len(words)
    replaced_words = set()
    for start, end, *_ in plan:
        replaced_words.update(range(start, end))
    for n in range(len(conv.words)):
        if n not in replaced_words:
            source_word[new_index[n]] = n
    return RevisedConversation(id=conv.id, language=conv.language, duration=conv.duration,
                               sample_rate=conv.sample_rate, channels=conv.channels, words=words, turns=turns,
                               items=items, speakers=_speakers(conv), source_word=source_word)


def _link_keys(r: ReplacementLike, span: Span | None) -> set[tuple[str, str]]:
    """What makes two items the same real-world item: surrogate, map keys, annotator's entity link."""
    out = {("surrogate", r.category + ":" + " ".join(_tokens(r.surrogate)).casefold().strip(PUNCT))}
    out |= {("key", str(k)) for k in getattr(r, "keys", ()) or ()}
    if span is not None and span.entity:
        out.add(("entity", str(span.entity)))
    return out


def _placeholders(items: list[AnonItem], links: list[set[tuple[str, str]]]) -> list[str]:
    """``[CATEGORY_n]`` per item: linked items (shared surrogate, map key or entity) share n."""
    parent = list(range(len(items)))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    owner: dict[tuple[str, str], int] = {}
    for n, keys in enumerate(links):
        for key in keys:
            if key in owner:
                parent[find(n)] = find(owner[key])
            else:
                owner[key] = n
    numbers: dict[tuple[str, int], int] = {}
    counters: dict[str, int] = {}
    out = []
    for n, it in enumerate(items):
        group = (it.category, find(n))
        if group not in numbers:
            counters[it.category] = counters.get(it.category, 0) + 1
            numbers[group] = counters[it.category]
        out.append(f"[{it.category}_{numbers[group]}]")
    return out


# ---------------------------------------------------------------------------------------------- writers
def _word_dict(w: Word) -> dict[str, Any]:
    return {"text": w.text, "start": round(w.start, 4), "end": round(w.end, 4), "confidence": w.confidence,
            "speaker": w.speaker, "channel": w.channel, "aligned": w.aligned}


def release_json(rev: RevisedConversation, audio_rel: str | None, *, draft: bool) -> dict[str, Any]:
    """The release JSON of one conversation: conversation-JSON fields plus ES-Port-like views."""
    item_of = rev.item_of_word()
    d: dict[str, Any] = {"format": RELEASE_JSON_FORMAT, "version": RELEASE_JSON_VERSION, "id": rev.id,
                         "language": rev.language}
    if audio_rel:
        d["audio"] = audio_rel
    d.update(duration=rev.duration, sample_rate=rev.sample_rate, channels=rev.channels)
    d["words"] = [_word_dict(w) for w in rev.words]
    d["turns"] = [t.to_dict() for t in rev.turns]
    d["spans"] = [{"start_word": it.start_word, "end_word": it.end_word, "category": it.category,
                   "status": "accepted", "entity": it.placeholder.strip("[]")} for it in rev.items]
    d["meta"] = {"release": True, "draft": draft, "speakers": rev.speakers}
    d["speakers"] = [{"id": name, **info} for name, info in rev.speakers.items()]
    d["utterances"] = [
        {"turn": ti, "speaker": t.speaker, "channel": t.channel,
         "start": round(rev.words[t.start_word].start, 4), "end": round(rev.words[t.end_word - 1].end, 4),
         "text": " ".join(w.text for w in rev.words[t.start_word:t.end_word]),
         "tokens": [{"text": rev.words[i].text, "start": round(rev.words[i].start, 4),
                     "end": round(rev.words[i].end, 4), "item": item_of[i]}
                    for i in range(t.start_word, t.end_word)]}
        for ti, t in enumerate(rev.turns)]
    d["anonymised"] = [it.to_dict() for it in rev.items]
    return d


def _compact(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, allow_nan=False, separators=(", ", ": "))


def dump_lines(d: dict[str, Any]) -> str:
    """JSON with one top-level key per line and one list element per line (a word, a turn, ...).

    Readable and diff-able like indented JSON, at a tenth of the lines.
    """
    out = ["{"]
    items = list(d.items())
    for i, (key, value) in enumerate(items):
        comma = "," if i < len(items) - 1 else ""
        if isinstance(value, list) and value:
            out.append(f" {_compact(key)}: [")
            out.extend(f"  {_compact(x)}{',' if j < len(value) - 1 else ''}" for j, x in enumerate(value))
            out.append(f" ]{comma}")
        else:
            out.append(f" {_compact(key)}: {_compact(value)}{comma}")
    out.append("}")
    return "\n".join(out) + "\n"


def format_release_json(rev: RevisedConversation, audio_rel: str | None, *, draft: bool) -> str:
    return dump_lines(release_json(rev, audio_rel, draft=draft))


def jsonl_lines(rev: RevisedConversation) -> list[str]:
    """One JSON object per turn: tokens, BIO tags, token times, speaker (and its role), text."""
    tags = rev.bio_tags()
    out = []
    for ti, t in enumerate(rev.turns):
        ws = rev.words[t.start_word:t.end_word]
        out.append(json.dumps({
            "conversation_id": rev.id, "turn_index": ti, "language": rev.language, "speaker": t.speaker,
            "role": rev.speakers.get(t.speaker, {}).get("role"),
            "start": round(ws[0].start, 4), "end": round(ws[-1].end, 4),
            "text": " ".join(w.text for w in ws),
            "tokens": [w.text for w in ws], "tags": tags[t.start_word:t.end_word],
            "times": [[round(w.start, 4), round(w.end, 4)] for w in ws],
        }, ensure_ascii=False, allow_nan=False))
    return out


def conll_text(rev: RevisedConversation) -> str:
    """CoNLL/IOB2 over the revised tokens: ``token<TAB>tag``, a blank line after each turn.

    A ``-DOCSTART-`` line names the conversation (readers skip it).
    """
    tags = rev.bio_tags()
    lines = [f"-DOCSTART-\t{rev.id}", ""]
    for t in rev.turns:
        for i in range(t.start_word, t.end_word):
            tok = rev.words[i].text.replace("\t", " ")
            lines.append(f"{tok}\t{tags[i]}")
        lines.append("")
    return "\n".join(lines) + "\n"


def placeholder_text(rev: RevisedConversation) -> str:
    """One line per turn, ``speaker: text``, each anonymised item shown as its placeholder."""
    starts = {it.start_word: it for it in rev.items}
    lines = [f"# {rev.id} ({rev.language}) — anonymised items shown as [CATEGORY_n], numbered per call"]
    for t in rev.turns:
        parts: list[str] = []
        i = t.start_word
        while i < t.end_word:
            it = starts.get(i)
            if it is not None:
                last = rev.words[it.end_word - 1].text
                parts.append(it.placeholder + last[len(last.rstrip(PUNCT)):])
                i = it.end_word
            else:
                parts.append(rev.words[i].text)
                i += 1
        lines.append(f"{t.speaker}: {' '.join(parts)}")
    return "\n".join(lines) + "\n"


def textgrid_items(rev: RevisedConversation) -> list[tuple[float, float, str]]:
    """The items tier of a release TextGrid: (start, end, "CATEGORY [PLACEHOLDER]") per item."""
    from redactdesk.formats.span_tier import item_label

    return [(it.start, it.end, item_label(it.category, it.placeholder)) for it in rev.items]


def eaf_items(rev: RevisedConversation) -> list[tuple[float, float, str, str]]:
    """The items tier of a release EAF: (start, end, category, placeholder) per item."""
    return [(it.start, it.end, it.category, it.placeholder) for it in rev.items]


def category_vocabulary(taxonomy: Iterable[Any]) -> list[tuple[str, str]]:
    """(id, "label: description") of every category: the ELAN controlled vocabulary of item tiers."""
    return [(c.id, f"{c.label}: {c.description}" if c.description else c.label) for c in taxonomy]
