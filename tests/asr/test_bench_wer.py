"""The ASR benchmark's WER normaliser: spoken and written forms of the same words must agree."""

import importlib.util
from pathlib import Path

import pytest

spec = importlib.util.spec_from_file_location("bench_asr", Path(__file__).parents[2] / "benchmarks" / "bench_asr.py")
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)


@pytest.mark.parametrize(("spoken", "written", "lang"), [
    ("six five oh seven double four", "6507 44", "en"),
    ("the twenty third of May", "the 23rd of may", "en"),
    ("um it's triple nine", "it's 999", "en"),
    ("J Y nine five nine", "JY959", "en"),
    ("doble cuatro", "44", "es"),
    ("kelly dot walker at example dot com", "kelly.walker@example.com", "en"),
    ("it's holly dot thompson at example dot com", "it's holly.thompson at example .com", "en"),
    ("three hundred and three dollars and ninety seven cents", "$303.97", "en"),
    ("one thousand one hundred and forty four dollars and thirty two cents", "$1,144.32 cents", "en"),
    ("one hundred and forty one dollars", "$141 dollars", "en"),
    ("trescientos diecisiete euros con treinta y siete céntimos", "317,37 €", "es"),
    ("reyes punto cabezas arroba correo punto com", "reyes.cabezas arroba correo.com", "es"),
    ("cuesta treinta y siete euros", "cuesta 30 y 7 euros", "es"),
])
def test_spoken_and_written_forms_agree(spoken, written, lang):
    assert bench.normalise(spoken, lang) == bench.normalise(written, lang)


def test_oh_is_a_word_away_from_digits():
    assert bench.normalise("oh I see", "en") == ["oh", "i", "see"]


def test_errors_are_split_between_items_and_other_words():
    ref = [{"text": t} for t in "my card is four one one one thanks".split()]
    tokens, flags = bench.region_tokens(ref, [{"start_word": 3, "end_word": 7}], "en")
    assert flags == [False] * 3 + [True] * 4 + [False]
    errors = bench.split_errors(tokens, flags, "my card is 4 1 2 1 thanks a lot".split())
    assert errors == {True: [1, 4], False: [2, 4]}  # one wrong digit; "a lot" inserted after "thanks"


def test_sentence_ends_and_plain_numbers_are_left_alone():
    assert bench.spoken_forms("Thanks. Then 4111 1111, and I. as in Ida", "en") == \
        "Thanks. Then 4111 1111, and I. as in Ida"
