"""Aligning ASR words with a reference transcript and replaying the reference as an annotator."""

from redactdesk.core import Conversation, Span, SpanStatus, Word
from redactdesk.pipeline.reference import oracle_decisions, project_spans, spoken_tokens


def conv(text, spans=()):
    words = [Word(t, i * 0.3, i * 0.3 + 0.2) for i, t in enumerate(text.split())]
    return Conversation(id="c", words=words, spans=list(spans))


def test_spoken_tokens_expand_digits_and_strip_punctuation():
    assert spoken_tokens("4111,") == ["four", "one", "one", "one"]
    assert spoken_tokens("Smith.") == ["smith"]
    assert spoken_tokens("oh") == ["zero"]
    assert spoken_tokens("4-1-1") == ["four", "one", "one"]
    assert spoken_tokens("44", "es") == ["cuatro", "cuatro"]


def test_reference_spans_land_on_the_right_asr_words():
    ref = conv("my card is four one one one one two two two and my name is john smith",
               [Span(3, 11, "CREDIT_CARD", status=SpanStatus.ACCEPTED), Span(14, 16, "PERSON", status=SpanStatus.ACCEPTED)])
    hyp = conv("My card is 4111 1222, and my name is John Smith.")
    spans = project_spans(ref, hyp)
    assert [(s.start_word, s.end_word, s.category) for s in spans] == [(3, 5, "CREDIT_CARD"), (8, 10, "PERSON")]


def test_a_surname_heard_fused_with_the_first_name_still_lands_on_that_word():
    """ASR often hears two said words as one ("fred hammond" -> "Fredham"): the reference's surname span
    must land on the heard word, or the demo's annotator counts a found name as missed."""
    ref = conv("hi it's fred hammond from leeds", [Span(3, 4, "PERSON", status=SpanStatus.ACCEPTED)])
    hyp = conv("Hi, it's Fredham from Leeds.")
    assert [(s.start_word, s.end_word) for s in project_spans(ref, hyp)] == [(2, 3)]


def test_oracle_accepts_overlaps_rejects_others_adds_misses():
    hyp = conv("call john smith at five five five one two one two today", [
        Span(1, 2, "PERSON", id=1), Span(11, 12, "DATE", id=2)])
    truth = [Span(1, 3, "PERSON", status=SpanStatus.ACCEPTED), Span(4, 11, "PHONE", status=SpanStatus.ACCEPTED)]
    d = oracle_decisions(hyp, truth)
    # the partial name suggestion is stretched over the whole name; the missed phone is added
    assert d.accept == [(1, "PERSON", 1, 3)] and d.reject == [2]
    assert [(s.start_word, s.end_word, s.category) for s in d.add] == [(4, 11, "PHONE")]


def test_items_sharing_a_recognised_word_become_one_span():
    """'2028095' holds an expiry and a security code: one accepted span, the riskier category."""
    hyp = conv("expires 2028095 thanks and zip 90210 fifty dollars", [
        Span(1, 2, "CARD_EXPIRY", id=1), Span(5, 7, "POSTCODE", id=2), Span(6, 8, "MONEY", id=3)])
    truth = [Span(1, 2, "CARD_EXPIRY", status=SpanStatus.ACCEPTED), Span(1, 2, "CVV", status=SpanStatus.ACCEPTED),
             Span(5, 6, "POSTCODE", status=SpanStatus.ACCEPTED), Span(6, 8, "MONEY", status=SpanStatus.ACCEPTED)]
    d = oracle_decisions(hyp, truth)
    assert d.add == []
    assert (1, "CVV", 1, 2) in d.accept  # CVV scores higher than an expiry (taxonomy)
    assert (2, "POSTCODE", 5, 6) in d.accept and (3, "MONEY", 6, 8) in d.accept  # trimmed to the items
    ranges = sorted((a, b) for _, _, a, b in d.accept)
    assert all(x[1] <= y[0] for x, y in zip(ranges, ranges[1:], strict=False))  # no overlaps


def test_repeats_of_an_accepted_item_are_found_once_each():
    from redactdesk.pipeline.reference import repeated_occurrences

    c = conv("the amount is 141 .8 in full yes 141 .8 and con con", [
        Span(3, 5, "MONEY", status=SpanStatus.ACCEPTED), Span(10, 11, "PERSON", status=SpanStatus.ACCEPTED)])
    c.language = "es"
    found = repeated_occurrences(c)
    assert [(s.start_word, s.end_word, s.category) for s in found] == [(8, 10, "MONEY")]  # "con" is not searched


def test_a_whole_address_suggested_as_one_item_is_accepted_as_one():
    """Detection gives street, town and postcode as one ADDRESS; the generated calls' reference marks
    them apart: the annotator accepts the one suggestion and adds nothing."""
    hyp = conv("it's 19 Hamilton Avenue apartment 22 Denver double 2041 and a phone", [
        Span(1, 9, "ADDRESS", id=1)])
    truth = [Span(1, 6, "ADDRESS", status=SpanStatus.ACCEPTED), Span(6, 7, "CITY", status=SpanStatus.ACCEPTED),
             Span(7, 9, "POSTCODE", status=SpanStatus.ACCEPTED)]
    d = oracle_decisions(hyp, truth)
    assert d.accept == [(1, "ADDRESS", 1, 9)] and d.add == [] and d.reject == []
    # a person's name over a city is no address: the city is added
    hyp = conv("it's 19 Hamilton Avenue apartment 22 Denver double 2041 and a phone", [
        Span(1, 6, "ADDRESS", id=1), Span(6, 7, "PERSON", id=2)])
    d = oracle_decisions(hyp, truth)
    assert (1, "ADDRESS", 1, 6) in d.accept and (2, "CITY", 6, 7) in d.accept
    assert [(s.start_word, s.end_word) for s in d.add] == [(7, 9)]
