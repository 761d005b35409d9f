"""The text-only dialogue generator: determinism, ground-truth spans that mean what they say."""

from __future__ import annotations

import re

import pytest
from stdnum import luhn
from stdnum.es import dni, nie

from redactdesk.core.types import SpanStatus
from redactdesk.resources import load_taxonomy
from redactdesk.synth import REQUIRED_CATEGORIES, SynthError, generate_call, generate_corpus
from redactdesk.synth.script import SCENARIOS, VARIATION_CHOICES
from redactdesk.synth.spoken import digits_from_spoken

SEEDS = range(100_000, 100_040)


def _calls(language):
    return generate_corpus(SEEDS, language)


@pytest.mark.parametrize("language", ["en", "es"])
def test_same_seed_same_call(language):
    a, b = generate_call(100_001, language), generate_call(100_001, language)
    assert [w.text for w in a.words] == [w.text for w in b.words]
    assert [s.to_dict() for s in a.spans] == [s.to_dict() for s in b.spans]
    c = generate_call(100_002, language)
    assert [w.text for w in a.words] != [w.text for w in c.words]


@pytest.mark.parametrize("language", ["en", "es"])
def test_every_call_carries_the_required_kinds(language):
    taxonomy = load_taxonomy()
    scenarios = set()
    for call in _calls(language):
        cats = {s.category for s in call.spans}
        assert REQUIRED_CATEGORIES[language] <= cats, (call.id, REQUIRED_CATEGORIES[language] - cats)
        assert all(c in taxonomy for c in cats)
        scenarios.add(call.meta["scenario"])
    assert scenarios == set(SCENARIOS[language])


@pytest.mark.parametrize("language", ["en", "es"])
def test_spans_are_valid_ground_truth(language):
    for call in _calls(language):
        n = len(call.words)
        assert len(call.meta["span_values"]) == len(call.spans)
        for span in call.spans:
            assert 0 <= span.start_word < span.end_word <= n
            assert span.status is SpanStatus.ACCEPTED and span.score == 1.0
            assert span.sources == ("ground_truth",)
            turn = call.turn_of_word(span.start_word)
            assert turn is not None and span.end_word <= turn.end_word  # a span never crosses turns
        ordered = sorted(call.spans, key=lambda s: s.start_word)
        assert all(a.end_word <= b.start_word for a, b in zip(ordered, ordered[1:], strict=False))


@pytest.mark.parametrize("language", ["en", "es"])
def test_digit_spans_map_back_to_their_values(language):
    for call in _calls(language):
        for span, value in zip(call.spans, call.meta["span_values"], strict=True):
            words = [w.text for w in call.words[span.start_word : span.end_word]]
            if span.category == "CREDIT_CARD":
                digits = digits_from_spoken(words, language)
                assert len(digits) == 16 and luhn.is_valid(digits), call.id
                assert digits == value
            elif span.category in ("PHONE", "CVV", "POSTCODE"):
                assert digits_from_spoken(words, language) == value, (call.id, span.category)
            elif span.category == "ES_ID":
                letters = "".join(w for w in words if len(w) == 1 and w.isalpha())
                rebuilt = (letters[0] if value[0].isalpha() else "") + digits_from_spoken(words, "es") + letters[-1]
                assert rebuilt == value and (dni.is_valid(value) or nie.is_valid(value))
            elif span.category == "EMAIL":
                at = "at" if language == "en" else "arroba"
                assert words.count(at) == 1 and value.count("@") == 1


def test_spelled_surname_is_the_surname():
    for call in _calls("en"):
        spelled = [s for s in call.spans if "spelled" in s.reason]
        assert len(spelled) == 1
        letters = [w.text for w in call.words[spelled[0].start_word : spelled[0].end_word]
                   if re.fullmatch(r"[A-Z]", w.text)]
        value = call.meta["span_values"][call.spans.index(spelled[0])]
        assert "".join(letters) == value.upper()
        assert spelled[0].entity == "customer"


def test_variation_switches_the_spoken_form_only():
    base = generate_call(100_010, "en", variation={"digits": "single", "zero": "zero", "spelling": "letters"})
    pairs = generate_call(100_010, "en", variation={"digits": "pairs", "zero": "oh", "spelling": "as_in"})
    assert base.meta["span_values"] == pairs.meta["span_values"]  # same people, cards, ...
    cards = [next(c.span_text(s) for s in c.spans if s.category == "CREDIT_CARD") for c in (base, pairs)]
    assert len(cards[0].split()) == 16 and cards[0] != cards[1]
    assert digits_from_spoken(cards[0].split(), "en") == digits_from_spoken(cards[1].split(), "en")
    assert "zero" not in cards[1].split()
    spelled = next(s for s in pairs.spans if "spelled" in s.reason)
    assert "as" in pairs.text(spelled.start_word, spelled.end_word).split()


def test_doubles_and_oh():
    found_double = found_oh = False
    for seed in SEEDS:
        call = generate_call(seed, "en", variation={"digits": "single", "doubles": True, "zero": "oh"})
        texts = [w.text for w in call.words]
        assert "zero" not in texts
        found_double |= "double" in texts
        found_oh |= "oh" in texts
    assert found_double and found_oh


def test_turns_alternate_and_times_are_ordered():
    call = generate_call(100_003, "es")
    assert call.turns[0].speaker == "agent"
    assert all(a.speaker != b.speaker for a, b in zip(call.turns, call.turns[1:], strict=False))
    assert call.turns[0].start_word == 0 and call.turns[-1].end_word == len(call.words)
    for a, b in zip(call.words, call.words[1:], strict=False):
        assert a.start < a.end <= b.start
    assert call.duration >= call.words[-1].end


def test_bad_arguments_are_clear():
    with pytest.raises(SynthError, match="unsupported language"):
        generate_call(1, "fr")
    with pytest.raises(SynthError, match="unknown variation"):
        generate_call(1, "en", variation={"speed": 2})
    with pytest.raises(SynthError, match="must be one of"):
        generate_call(1, "en", variation={"digits": "triples"})
    assert set(VARIATION_CHOICES) >= {"digits", "zero", "doubles", "spelling"}
