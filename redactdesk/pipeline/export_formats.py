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

    Words outside accepted spans map one to one; each accepted span is replaced by as many revised
    words as its surrogate has tokens. Raises RevisionError (naming span ids, never text) when an
    accepted span has no replacement, spans overlap, or the counts do not add up.
    """
    accepted = sorted(conv.spans_by_status(SpanStatus.ACCEPTED), key=lambda s: (s.start_word, s.end_word))
    by_span: dict[Any, ReplacementLike] = {}
    for r in replacements:
        by_span[r.span_id] = r
    for a, b in zip(accepted, accepted[1:], strict=False):
        if b.start_word < a.end_word:
            raise RevisionError(f"conversation {conv.id!r}: accepted spans {a.id} and {b.id} overlap; "
                                "resolve the overlap before exporting")
    plan: list[tuple[Span, ReplacementLike, int]] = []
    for s in accepted:
        r = by_span.get(s.id if s.id is not None else f"{s.start_word}:{s.end_word}")
        if r is None:
            raise RevisionError(f"conversation {conv.id!r}: accepted span {s.id} ({s.category}) has no surrogate; "
                                "run substitution again")
        k = len(_tokens(r.surrogate))
        if k == 0:
            raise RevisionError(f"conversation {conv.id!r}: span {s.id} ({s.category}) has an empty surrogate")
        plan.append((s, r, k))
    expected = len(conv.words) - sum(s.end_word - s.start_word for s in accepted) + sum(k for *_, k in plan)
    if expected != len(revised_words):
        raise RevisionError(f"conversation {conv.id!r}: the substitution gave {len(revised_words)} words where "
                            f"{expected} were expected; run substitution again")

    words: list[Word] = []
    new_index = [0] * (len(conv.words) + 1)  # original word index -> revised index of its first word
    items: list[AnonItem] = []
    placeholders: dict[tuple[str, str], str] = {}
    counters: dict[str, int] = {}
    i = j = 0
    for s, r, k in plan + [(None, None, 0)]:
        stop = s.start_word if s is not None else len(conv.words)
        while i < stop:
            new_index[i] = j
            words.append(revised_words[j])
            i, j = i + 1, j + 1
        if s is None:
            break
        for n in range(s.start_word, s.end_word):
            new_index[n] = j
        key = (r.category, " ".join(_tokens(r.surrogate)).casefold())
        if key not in placeholders:
            counters[r.category] = counters.get(r.category, 0) + 1
            placeholders[key] = f"[{r.category}_{counters[r.category]}]"
        chunk = list(revised_words[j:j + k])
        words.extend(chunk)
        items.append(AnonItem(index=len(items), category=r.category, surrogate=r.surrogate,
                              placeholder=placeholders[key], start_word=j, end_word=j + k,
                              start=chunk[0].start, end=chunk[-1].end, turn=None))
        i, j = s.end_word, j + k
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
    items = [replace(it, turn=turn_of.get(it.start_word)) for it in items]
    return RevisedConversation(id=conv.id, language=conv.language, duration=conv.duration,
                               sample_rate=conv.sample_rate, channels=conv.channels, words=words, turns=turns,
                               items=items, speakers=_speakers(conv))


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


def format_release_json(rev: RevisedConversation, audio_rel: str | None, *, draft: bool) -> str:
    return json.dumps(release_json(rev, audio_rel, draft=draft), ensure_ascii=False, indent=1, allow_nan=False) + "\n"


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
                parts.append(it.placeholder)
                i = it.end_word
            else:
                parts.append(rev.words[i].text)
                i += 1
        lines.append(f"{t.speaker}: {' '.join(parts)}")
    return "\n".join(lines) + "\n"
