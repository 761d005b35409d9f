"""Utterances: the unit the model learns from and the unit annotators are asked about.

An utterance is one turn of a conversation (or one sentence of a corpus file): its tokens, the
speaker's role, the ASR confidences and, once a person has settled it, IOB2 tags. A turn longer
than 30 s -- and a mono call without speaker turns, which is one long "turn" -- is cut at its
pauses into segments of at most 30 s (:mod:`redactdesk.learn.segments`), so the queue never asks
about a whole call and ``turn_index`` counts these segments.

**Labelled utterance.** A turn counts as labelled -- usable as training data -- when a person has
settled everything in it:

1. it was explicitly marked labelled (``ActiveLearner.mark_labelled``, e.g. "no personal data here"), or
2. its conversation is ``REVIEWED`` or ``SIGNED_OFF`` (every suggestion decided), or
3. at least one span overlaps the turn and none of those spans is still ``SUGGESTED``.

Its tags come from the ``ACCEPTED`` spans (clipped to the turn); rejected spans and untouched words
are ``O``. ``context`` holds the previous turn's words: in a call the question ("and your phone
number?") is usually in the other speaker's turn, not beside the answer.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from redactdesk.core.types import Conversation, ConversationStatus, SpanStatus, Turn
from redactdesk.learn.errors import DataFormatError
from redactdesk.learn.segments import utterance_segments
from redactdesk.learn.tags import check_tag, spans_to_tags

ROLES = ("agent", "customer")


@dataclass
class Utterance:
    """Tokens of one turn/sentence with optional gold tags and where it came from."""

    tokens: list[str]
    tags: list[str] | None = None
    role: str | None = None
    confidences: list[float | None] | None = None
    conversation_id: str | None = None
    turn_index: int | None = None
    start_word: int = 0
    language: str = "en"
    labelled: bool = False
    context: list[str] | None = None  # the previous turn's words (what the other speaker just asked)
    meta: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.tags is not None:
            if len(self.tags) != len(self.tokens):
                raise DataFormatError(
                    f"utterance {self.key}: {len(self.tokens)} tokens but {len(self.tags)} tags")
            for t in self.tags:
                check_tag(t)
        if self.confidences is not None and len(self.confidences) != len(self.tokens):
            raise DataFormatError(f"utterance {self.key}: confidences do not match the tokens")

    @property
    def key(self) -> tuple[str | None, int | None]:
        return (self.conversation_id, self.turn_index)

    def __len__(self) -> int:
        return len(self.tokens)


def speaker_role(conv: Conversation, speaker: str | None) -> str | None:
    """The role (agent / customer) of a speaker, from the conversation's meta or the speaker name."""
    if speaker is None:
        return None
    meta = conv.meta or {}
    for key in ("roles", "speaker_roles"):
        roles = meta.get(key)
        if isinstance(roles, dict) and speaker in roles:
            return str(roles[speaker]).lower()
    speakers = meta.get("speakers")
    if isinstance(speakers, dict) and isinstance(speakers.get(speaker), dict):
        role = speakers[speaker].get("role")
        if role:
            return str(role).lower()
    low = speaker.lower()
    for role in ROLES + ("caller",):
        if low.startswith(role):
            return "customer" if role == "caller" else role
    return None


def _turns(conv: Conversation) -> list[Turn]:
    return utterance_segments(conv)


def is_turn_labelled(conv: Conversation, turn: Turn, marked: bool = False) -> bool:
    """The labelled rule of this module's docstring for one turn."""
    if marked or conv.status in (ConversationStatus.REVIEWED, ConversationStatus.SIGNED_OFF):
        return True
    overlapping = [s for s in conv.spans if s.start_word < turn.end_word and turn.start_word < s.end_word]
    return bool(overlapping) and all(s.status != SpanStatus.SUGGESTED for s in overlapping)


def turn_tags(conv: Conversation, turn: Turn) -> list[str]:
    """IOB2 tags of a turn from the conversation's accepted spans, clipped to the turn."""
    spans = [
        (max(s.start_word, turn.start_word) - turn.start_word,
         min(s.end_word, turn.end_word) - turn.start_word, s.category)
        for s in conv.spans
        if s.status == SpanStatus.ACCEPTED and s.start_word < turn.end_word and turn.start_word < s.end_word
    ]
    return spans_to_tags(turn.end_word - turn.start_word, spans)


def utterances_from_conversation(conv: Conversation, marked_turns: Iterable[int] = (),
                                 gold_spans: bool = False) -> list[Utterance]:
    """One utterance per non-empty turn; tags from accepted spans (or from every span if ``gold_spans``).

    ``gold_spans`` treats all spans as ground truth (generated calls), and marks every turn labelled.
    """
    marked = set(marked_turns)
    out: list[Utterance] = []
    previous: list[str] | None = None
    for ti, turn in enumerate(_turns(conv)):
        words = conv.words[turn.start_word:turn.end_word]
        if not words:
            continue
        context, previous = previous, [w.text for w in words]
        if gold_spans:
            spans = [(max(s.start_word, turn.start_word) - turn.start_word,
                      min(s.end_word, turn.end_word) - turn.start_word, s.category)
                     for s in conv.spans if s.start_word < turn.end_word and turn.start_word < s.end_word]
            tags = spans_to_tags(len(words), spans)
            labelled = True
        else:
            tags = turn_tags(conv, turn)
            labelled = is_turn_labelled(conv, turn, ti in marked)
        vote = spans_to_tags(len(words), [
            (max(s.start_word, turn.start_word) - turn.start_word, min(s.end_word, turn.end_word) - turn.start_word,
             s.category)
            for s in conv.spans
            if s.status != SpanStatus.REJECTED and s.start_word < turn.end_word and turn.start_word < s.end_word])
        out.append(Utterance(
            tokens=[w.text for w in words],
            tags=tags,
            role=speaker_role(conv, turn.speaker),
            confidences=[w.confidence for w in words],
            conversation_id=conv.id,
            turn_index=ti,
            start_word=turn.start_word,
            language=conv.language,
            labelled=labelled,
            context=context,
            meta={"vote_tags": vote},  # the detection vote's view (redactdesk.learn.disagreement)
        ))
    return out
