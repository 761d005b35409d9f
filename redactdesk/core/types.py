"""The domain model shared by every stage of the data path.

Times are seconds (float). Word ranges are half-open ``[start_word, end_word)`` indices into
``Conversation.words``. Nothing here touches files, databases or Qt.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from enum import Enum
from typing import Any


class SpanStatus(str, Enum):
    """Where a span stands in review."""

    SUGGESTED = "suggested"
    ACCEPTED = "accepted"
    REJECTED = "rejected"


class Role(str, Enum):
    """Who is working; decides which actions the app offers."""

    ANNOTATOR = "annotator"
    LINGUIST = "linguist"
    REVIEWER = "reviewer"


class ConversationStatus(str, Enum):
    """Progress of one conversation through the data path."""

    NEW = "new"  # audio (and maybe a transcript) imported
    TRANSCRIBED = "transcribed"  # words with times exist
    DETECTED = "detected"  # suggestions exist
    IN_REVIEW = "in_review"  # at least one human decision
    REVIEWED = "reviewed"  # every suggestion decided
    SIGNED_OFF = "signed_off"


@dataclass
class Word:
    """One token of speech. ``aligned`` is False when the times are estimates, not measurements."""

    text: str
    start: float
    end: float
    confidence: float | None = None
    speaker: str | None = None
    channel: int | None = None
    aligned: bool = True

    @property
    def duration(self) -> float:
        return self.end - self.start

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Word:
        return cls(
            text=str(d["text"]),
            start=float(d["start"]),
            end=float(d["end"]),
            confidence=None if d.get("confidence") is None else float(d["confidence"]),
            speaker=d.get("speaker"),
            channel=d.get("channel"),
            aligned=bool(d.get("aligned", True)),
        )


@dataclass
class Turn:
    """A stretch of consecutive words by one speaker: words ``[start_word, end_word)``."""

    speaker: str
    start_word: int
    end_word: int
    channel: int | None = None

    def word_range(self) -> range:
        return range(self.start_word, self.end_word)

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Turn:
        return cls(
            speaker=str(d["speaker"]),
            start_word=int(d["start_word"]),
            end_word=int(d["end_word"]),
            channel=d.get("channel"),
        )


@dataclass
class Span:
    """A stretch of words that holds (or may hold) one personal item.

    ``sources`` names every recognizer or person that proposed it; ``reason`` is one line a
    reviewer can read on hover. ``entity`` links spans that are the same real-world item
    (Marc / Mark / M-A-R-K) so they share one surrogate. ``id`` is the project-file key
    (None until stored).
    """

    start_word: int
    end_word: int
    category: str
    status: SpanStatus = SpanStatus.SUGGESTED
    score: float = 1.0
    sources: tuple[str, ...] = ()
    reason: str = ""
    entity: str | None = None
    id: int | None = None

    def __post_init__(self) -> None:
        if self.end_word <= self.start_word:
            raise ValueError(f"span must cover at least one word ({self.start_word}, {self.end_word})")
        if not 0.0 <= self.score <= 1.0:
            raise ValueError(f"span score must be in [0, 1], got {self.score}")
        self.status = SpanStatus(self.status)
        self.sources = tuple(self.sources)

    def word_range(self) -> range:
        return range(self.start_word, self.end_word)

    def overlaps(self, other: Span) -> bool:
        return self.start_word < other.end_word and other.start_word < self.end_word

    def to_dict(self) -> dict[str, Any]:
        d = dataclasses.asdict(self)
        d["status"] = self.status.value
        d["sources"] = list(self.sources)
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Span:
        return cls(
            start_word=int(d["start_word"]),
            end_word=int(d["end_word"]),
            category=str(d["category"]),
            status=SpanStatus(d.get("status", "suggested")),
            score=float(d.get("score", 1.0)),
            sources=tuple(d.get("sources", ())),
            reason=str(d.get("reason", "")),
            entity=d.get("entity"),
            id=d.get("id"),
        )


@dataclass(frozen=True)
class Category:
    """One kind of personal data, as defined in the taxonomy (resources/taxonomy.yaml)."""

    id: str
    label: str
    colour: str
    risk: int
    identifier: str = "direct"  # "direct" or "quasi"
    substitution: str = "tag"  # substitution class used by redactdesk.substitute
    pattern: str = "solid"  # underline/hatch style so colour is not the only cue
    description: str = ""


@dataclass
class Decision:
    """One human (or automatic) change, as written to the append-only audit log.

    ``before``/``after`` are span dicts (or other small JSON-able payloads); ``at`` is an ISO 8601
    UTC time stamp supplied by the caller.
    """

    action: str
    actor: str
    role: Role
    at: str
    conversation_id: str | None = None
    span_id: int | None = None
    before: dict[str, Any] | None = None
    after: dict[str, Any] | None = None
    id: int | None = None


@dataclass
class Conversation:
    """One recorded call: its audio facts, words, turns and spans."""

    id: str
    audio_path: str | None = None
    audio_sha256: str | None = None
    sample_rate: int | None = None
    channels: int | None = None
    duration: float | None = None
    language: str = "en"
    status: ConversationStatus = ConversationStatus.NEW
    words: list[Word] = field(default_factory=list)
    turns: list[Turn] = field(default_factory=list)
    spans: list[Span] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.status = ConversationStatus(self.status)

    def text(self, start_word: int, end_word: int) -> str:
        """The words ``[start_word, end_word)`` joined by spaces."""
        return " ".join(w.text for w in self.words[start_word:end_word])

    def span_text(self, span: Span) -> str:
        return self.text(span.start_word, span.end_word)

    def span_times(self, span: Span) -> tuple[float, float]:
        """Start of the span's first word and end of its last word, in seconds."""
        return self.words[span.start_word].start, self.words[span.end_word - 1].end

    def turn_of_word(self, index: int) -> Turn | None:
        for turn in self.turns:
            if turn.start_word <= index < turn.end_word:
                return turn
        return None

    def spans_by_status(self, status: SpanStatus) -> list[Span]:
        return [s for s in self.spans if s.status == status]

    def counts(self) -> dict[str, int]:
        """Number of spans per status, every status present."""
        out = {s.value: 0 for s in SpanStatus}
        for span in self.spans:
            out[span.status.value] += 1
        return out

    def turns_from_speakers(self) -> list[Turn]:
        """Group consecutive words with the same speaker into turns."""
        turns: list[Turn] = []
        for i, w in enumerate(self.words):
            speaker = w.speaker or "SPEAKER_00"
            if turns and turns[-1].speaker == speaker and turns[-1].end_word == i:
                turns[-1].end_word = i + 1
            else:
                turns.append(Turn(speaker=speaker, start_word=i, end_word=i + 1, channel=w.channel))
        return turns
