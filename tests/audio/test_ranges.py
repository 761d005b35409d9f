"""Mask ranges: accepted spans only, padding, fail-closed widening, channels, events, merging."""

import pytest

from redactdesk.audio import MaskError, MaskRange, mask_ranges, merge_ranges
from redactdesk.core.types import Conversation, Span, SpanStatus, Turn, Word


def conv_of(words, spans, channels=1, duration=10.0):
    return Conversation(id="c", channels=channels, duration=duration, words=words, spans=spans)


def w(text, start, end, **kw):
    return Word(text, start, end, **kw)


WORDS = [w("my", 1.0, 1.2), w("name", 1.3, 1.6), w("is", 1.7, 1.8), w("Ann", 2.0, 2.4), w("Lee", 2.5, 2.9),
         w("thanks", 3.5, 4.0)]


def test_only_accepted_spans_with_padding():
    spans = [Span(3, 5, "PERSON", SpanStatus.ACCEPTED, id=7), Span(0, 1, "PERSON", SpanStatus.SUGGESTED),
             Span(5, 6, "PERSON", SpanStatus.REJECTED)]
    (r,) = mask_ranges(conv_of(WORDS, spans), padding=0.05)
    assert (r.start, r.end) == pytest.approx((1.95, 2.95))
    assert r.span_ids == (7,) and r.category == "PERSON" and r.channel is None


def test_unaligned_edge_word_widens_to_aligned_neighbours():
    words = list(WORDS)
    words[3] = w("Ann", 2.0, 2.4, aligned=False)  # first word of the span has no measured time
    (r,) = mask_ranges(conv_of(words, [Span(3, 5, "PERSON", SpanStatus.ACCEPTED)]), padding=0.0)
    assert r.start == pytest.approx(1.8)  # end of "is", the aligned neighbour before
    assert r.end == pytest.approx(2.9)


def test_estimated_times_of_unaligned_words_are_not_trusted():
    words = list(WORDS)
    words[4] = w("Lee", 0.0, 0.0, aligned=False)  # an importer's placeholder time
    (r,) = mask_ranges(conv_of(words, [Span(3, 5, "PERSON", SpanStatus.ACCEPTED)]), padding=0.0)
    assert (r.start, r.end) == pytest.approx((2.0, 3.5))  # from "Ann" to the start of "thanks"


def test_low_confidence_last_word_widens_to_next_neighbour_and_none_counts_as_reliable():
    words = list(WORDS)
    words[4] = w("Lee", 2.5, 2.9, confidence=0.2)
    words[3] = w("Ann", 2.0, 2.4, confidence=None)
    (r,) = mask_ranges(conv_of(words, [Span(3, 5, "PERSON", SpanStatus.ACCEPTED)]), padding=0.0,
                       min_confidence=0.5)
    assert (r.start, r.end) == pytest.approx((2.0, 3.5))  # reaches the start of "thanks"


def test_no_reliable_neighbour_reaches_file_edges():
    words = [w("Ann", 0.5, 0.9, aligned=False), w("Lee", 1.0, 1.4, aligned=False)]
    (r,) = mask_ranges(conv_of(words, [Span(0, 2, "PERSON", SpanStatus.ACCEPTED)], duration=6.0), padding=0.0)
    assert (r.start, r.end) == (0.0, 6.0)


def test_clipped_to_duration_and_merged():
    spans = [Span(3, 4, "PERSON", SpanStatus.ACCEPTED, id=1), Span(4, 5, "ADDRESS", SpanStatus.ACCEPTED, id=2),
             Span(0, 1, "PERSON", SpanStatus.ACCEPTED, id=3)]
    ranges = mask_ranges(conv_of(WORDS, spans, duration=2.8), padding=0.1)
    assert [(r.span_ids, r.category) for r in ranges] == [((3,), "PERSON"), ((1, 2), "ADDRESS+PERSON")]
    assert ranges[1].end == pytest.approx(2.8)


def test_stereo_speaker_channel_or_both():
    words = [w("hi", 0.5, 0.8, channel=1), w("Ann", 1.0, 1.4, channel=1), w("ok", 1.0, 1.3, channel=0)]
    conv = conv_of(words, [Span(1, 2, "PERSON", SpanStatus.ACCEPTED)], channels=2)
    assert mask_ranges(conv)[0].channel == 1
    assert mask_ranges(conv, channel_mode="both")[0].channel is None
    mono = conv_of(words, [Span(1, 2, "PERSON", SpanStatus.ACCEPTED)], channels=1)
    assert mask_ranges(mono)[0].channel is None


def test_channel_from_turn_and_unknown_channel_masks_both():
    words = [w("Ann", 1.0, 1.4), w("Lee", 1.5, 1.9)]
    conv = conv_of(words, [Span(0, 2, "PERSON", SpanStatus.ACCEPTED)], channels=2)
    assert mask_ranges(conv)[0].channel is None
    conv.turns = [Turn("caller", 0, 2, channel=0)]
    assert mask_ranges(conv)[0].channel == 0


def test_event_ranges_are_masked_whole():
    ranges = mask_ranges(conv_of(WORDS, []), event_ranges=[(1.1, 3.7), (8.0, 12.0, 1)], duration=10.0)
    assert [(r.start, r.end, r.category) for r in ranges] == [(1.1, 3.7, "EVENT"), (8.0, 10.0, "EVENT")]


def test_bad_settings_are_refused():
    with pytest.raises(MaskError, match="channel mode"):
        mask_ranges(conv_of(WORDS, []), channel_mode="left")
    with pytest.raises(MaskError, match="padding"):
        mask_ranges(conv_of(WORDS, []), padding=-1)
    with pytest.raises(MaskError, match="event range"):
        mask_ranges(conv_of(WORDS, []), event_ranges=["soon"])


def test_merge_rules():
    a, b = MaskRange(0, 2, 0, (1,), "A"), MaskRange(1, 3, 1, (2,), "B")
    assert merge_ranges([a, b]) == [a, b]  # different channels stay apart
    both = MaskRange(2.5, 4, None, (3,), "C")
    (m,) = merge_ranges([a, b, both])  # a range on every channel swallows the ones it touches
    assert (m.start, m.end, m.channel, set(m.span_ids)) == (0, 4, None, {1, 2, 3})
