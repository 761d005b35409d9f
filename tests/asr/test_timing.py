"""Timing repair and numeric splitting on whisperx-shaped output with missing timestamps."""

import math

import pytest

from redactdesk.asr.timing import (
    count_untimed,
    is_untimed,
    prepare_words,
    repair_timings,
    split_numeric_tokens,
)
from redactdesk.asr.whisperx_backend import words_from_whisperx_result
from redactdesk.core.types import Word

NAN = float("nan")

# What whisperx gives for "my card is 4111 1111 1111 1111 thanks": the number is left without times.
WHISPERX_RESULT = {
    "segments": [
        {
            "start": 0.5,
            "end": 6.0,
            "speaker": "SPEAKER_01",
            "words": [
                {"word": "my", "start": 0.5, "end": 0.7, "score": 0.9},
                {"word": "card", "start": 0.8, "end": 1.1, "score": 0.8},
                {"word": "is", "start": 1.2, "end": 1.3, "score": 0.95},
                {"word": "4111"},
                {"word": "1111"},
                {"word": "1111"},
                {"word": "1111"},
                {"word": "thanks", "start": 5.0, "end": 5.5, "score": 0.7},
            ],
        }
    ]
}


def test_whisperx_result_keeps_missing_times_as_nan():
    words = words_from_whisperx_result(WHISPERX_RESULT)
    assert [w.text for w in words][:4] == ["my", "card", "is", "4111"]
    assert count_untimed(words) == 4
    assert math.isnan(words[3].start) and words[3].aligned is False
    assert words[0].speaker == "SPEAKER_01" and words[0].confidence == 0.9


def test_repair_fills_gap_between_neighbours_proportionally():
    words = words_from_whisperx_result(WHISPERX_RESULT)
    fixed = repair_timings(words)
    assert count_untimed(fixed) == 0
    gap = fixed[3:7]
    assert gap[0].start == pytest.approx(1.3) and gap[-1].end == pytest.approx(5.0)
    assert all(a.end == pytest.approx(b.start) for a, b in zip(gap, gap[1:], strict=False))
    assert all(not w.aligned for w in gap)
    assert fixed[0] == words[0] and fixed[7] == words[7]  # timed words untouched
    assert math.isnan(words[3].start)  # input not modified


def test_repair_weights_by_character_length():
    words = [Word("a", 0.0, 1.0), Word("x", NAN, NAN), Word("xxx", NAN, NAN), Word("b", 5.0, 6.0)]
    fixed = repair_timings(words)
    assert fixed[1].duration == pytest.approx(1.0)
    assert fixed[2].duration == pytest.approx(3.0)


def test_repair_at_edges_and_with_nothing_timed():
    lead = repair_timings([Word("hello", NAN, NAN), Word("there", 2.0, 2.5)])
    assert 0.0 <= lead[0].start < lead[0].end <= 2.0
    tail = repair_timings([Word("hello", 1.0, 1.4), Word("again", None, None)])  # type: ignore[arg-type]
    assert tail[1].start == pytest.approx(1.4) and tail[1].end > 1.4
    alone = repair_timings([Word("one", NAN, NAN), Word("two", NAN, NAN)])
    assert alone[0].start == 0.0 and alone[0].end <= alone[1].start < alone[1].end


def test_reversed_or_negative_times_count_as_untimed():
    assert is_untimed(Word("x", 2.0, 1.0))
    assert is_untimed(Word("x", -1.0, 1.0))
    assert is_untimed(Word("x", float("inf"), 1.0))
    assert not is_untimed(Word("x", 1.0, 1.0))


@pytest.mark.parametrize(
    ("token", "pieces"),
    [
        ("4111 1111 1111 1111", ["4111", "1111", "1111", "1111"]),
        ("4-1-1", ["4", "1", "1"]),
        ("555-123-4567", ["555", "123", "4567"]),
        ("$250", ["250", "dollars"]),
        ("$1", ["1", "dollar"]),
        ("1,250", ["1,250"]),
        ("2024", ["2024"]),
        ("90210", ["9", "0", "2", "1", "0"]),
        ("12.50", ["12.50"]),
        ("192.168.0.1", ["192", "168", "0", "1"]),
        ("50%", ["50", "percent"]),
        ("4,1,1", ["4", "1", "1"]),
        ("hello", ["hello"]),
        ("3rd", ["3rd"]),
    ],
)
def test_split_numeric_tokens(token, pieces):
    out = split_numeric_tokens([Word(token, 1.0, 3.0, confidence=0.5, speaker="agent", channel=0)])
    assert [w.text for w in out] == pieces
    assert out[0].start == 1.0 and out[-1].end == 3.0
    assert all(a.end == pytest.approx(b.start) for a, b in zip(out, out[1:], strict=False))
    assert all(w.speaker == "agent" and w.channel == 0 and w.confidence == 0.5 for w in out)
    if len(pieces) > 1:
        assert not any(w.aligned for w in out)


def test_split_keeps_punctuation_on_outer_pieces_and_spanish_currency():
    out = split_numeric_tokens([Word("4111-1111.", 0.0, 1.0)])
    assert [w.text for w in out] == ["4111", "1111."]
    es = split_numeric_tokens([Word("250€", 0.0, 1.0)], language="es")
    assert [w.text for w in es] == ["250", "euros"]


def test_whisper_dangling_minus_after_a_number_is_dropped():
    words = [Word("4", 0.0, 0.3), Word("-1", 0.3, 0.6), Word("-1,", 0.6, 0.9)]
    assert [w.text for w in split_numeric_tokens(words)] == ["4", "1", "1,"]
    assert [w.text for w in split_numeric_tokens([Word("minus", 0, 1), Word("-1", 1, 2)])] == ["minus", "-1"]


def test_spoken_length_weights_pieces():
    out = split_numeric_tokens([Word("$250", 0.0, 1.0)])
    # "two hundred and fifty" takes longer to say than "dollars"
    assert out[0].duration > out[1].duration


def test_prepare_words_on_whisperx_output_times_every_word():
    words = words_from_whisperx_result(WHISPERX_RESULT)
    words.append(Word("$250", NAN, NAN))
    out, report = prepare_words(words)
    assert report.timed == 5
    assert report.split_tokens == 1 and report.pieces == 1
    assert count_untimed(out) == 0
    assert [w.text for w in out][-2:] == ["250", "dollars"]
    starts = [w.start for w in out]
    assert starts == sorted(starts)
