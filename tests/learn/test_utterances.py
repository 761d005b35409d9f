"""The labelled-utterance rule and the conversation -> utterances mapping."""

from __future__ import annotations

from redactdesk.core.types import Conversation, ConversationStatus, Span, SpanStatus, Turn, Word
from redactdesk.learn.utterances import utterances_from_conversation


def _conv(spans, status=ConversationStatus.IN_REVIEW):
    words = [Word(t, i, i + 0.5, speaker=s, confidence=0.9) for i, (t, s) in enumerate(
        [("name", "agent"), ("please", "agent"), ("John", "customer"), ("Smith", "customer"),
         ("thanks", "agent"), ("bye", "customer")])]
    turns = [Turn("agent", 0, 2), Turn("customer", 2, 4), Turn("agent", 4, 5), Turn("customer", 5, 6)]
    return Conversation(id="c", words=words, turns=turns, spans=spans, status=status,
                        meta={"speakers": {"agent": {"role": "agent"}, "customer": {"role": "customer"}}})


def test_turn_with_decided_spans_is_labelled_and_tagged_from_accepted_spans():
    conv = _conv([Span(2, 4, "PERSON", SpanStatus.ACCEPTED), Span(4, 5, "PERSON", SpanStatus.REJECTED),
                  Span(5, 6, "PERSON", SpanStatus.SUGGESTED)])
    utts = utterances_from_conversation(conv)
    assert [u.labelled for u in utts] == [False, True, True, False]
    assert utts[1].tags == ["B-PERSON", "I-PERSON"] and utts[2].tags == ["O"]
    assert utts[1].role == "customer" and utts[1].context == ["name", "please"]
    assert utts[1].start_word == 2 and utts[1].confidences == [0.9, 0.9]


def test_marked_turns_and_reviewed_conversations_are_labelled():
    conv = _conv([])
    assert [u.labelled for u in utterances_from_conversation(conv, marked_turns=[0, 3])] == [True, False, False, True]
    done = _conv([], status=ConversationStatus.REVIEWED)
    assert all(u.labelled for u in utterances_from_conversation(done))


def test_span_across_turns_is_clipped():
    conv = _conv([Span(1, 3, "PERSON", SpanStatus.ACCEPTED)])
    utts = utterances_from_conversation(conv)
    assert utts[0].tags == ["O", "B-PERSON"] and utts[1].tags == ["B-PERSON", "O"]


def test_gold_spans_mode_uses_every_span():
    conv = _conv([Span(2, 4, "PERSON", SpanStatus.SUGGESTED)])
    utts = utterances_from_conversation(conv, gold_spans=True)
    assert all(u.labelled for u in utts) and utts[1].tags == ["B-PERSON", "I-PERSON"]
