"""Digit words and misheard digits: one table, read the same by detection and the re-listen check."""

from redactdesk.lang.digits import DIGIT_VALUES, DIGIT_WORDS, MISHEARD_DIGITS, NUMBER_WORDS


def test_misheard_digits_map_as_the_recogniser_writes_them():
    assert MISHEARD_DIGITS["en"] == {"for": "4", "to": "2", "too": "2", "won": "1", "ate": "8"}
    assert MISHEARD_DIGITS["es"] == {}


def test_digit_words_and_their_other_forms():
    assert DIGIT_WORDS["en"][0] == "zero" and DIGIT_WORDS["es"][9] == "nueve"
    assert DIGIT_VALUES["en"]["oh"] == "0" and DIGIT_VALUES["es"]["una"] == "1"
    assert {"veintitrés", "dieciseis", "noventa", "mil"} <= NUMBER_WORDS["es"]


def test_detection_and_relisten_read_a_misheard_digit_alike():
    from redactdesk.audio.matching import normalise
    from redactdesk.detect.normalize import normalize_words

    assert normalize_words("five five for one".split(), "en").text == "5 5 4 1"
    assert normalise("five won two", "en") == ["512"]
    assert normalise("I went to the shop for bread", "en")[2] == "to"  # not between digits: a word
