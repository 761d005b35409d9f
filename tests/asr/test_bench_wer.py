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
    ("setecientos sesenta y cuatro euros", "760 y 4 euros", "es"),
    ("en mil novecientos cincuenta y nueve", "en 1950 y 9", "es"),
    ("abril de dos mil veintinueve", "abril de 2000, 29", "es"),
    ("doscientos un euros", "200 1 euros", "es"),
    ("postal cuatro uno Un teléfono", "postal 4, 1. Un teléfono", "es"),
    ("setenta y dos sexto A", "70 y 2, 6to A", "es"),
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


def test_spanish_number_joining_leaves_separate_numbers_apart():
    # digit runs read one by one and a price with cents are not one number
    assert bench.normalise("3, 6, 0, 4, 1", "es") == ["3", "6", "0", "4", "1"]
    assert bench.normalise("el 2000, 3,50 euros", "es")[:5] == ["el", "2", "0", "0", "0"]
