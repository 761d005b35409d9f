"""The spoken-form normaliser: text forms and the map back to whole words."""

import pytest

from redactdesk.detect.normalize import LETTER, NUM, normalize_words


def norm(text: str, lang: str = "en", breaks=()):
    return normalize_words(text.split(), lang, breaks)


def span_words(n, needle: str) -> tuple[int, int]:
    i = n.text.index(needle)
    return n.word_range(i, i + len(needle))


def test_number_words_become_digits_and_map_back_to_their_words():
    n = norm("my card is four one one one and forty one eleven")
    assert n.text == "my card is 4 1 1 1 and 41 11"
    assert span_words(n, "4 1 1 1") == (3, 7)
    assert span_words(n, "41 11") == (8, 11)  # "forty one" is one token over two words


def test_asr_digit_forms():
    assert norm("it is 4 -1 -1 -1 1111 1111").text == "it is 4 1 1 1 1111 1111"
    assert norm("call 555-123-4567.").text == "call 555 123 4567"
    assert norm("that's 4,111").text == "that's 4111"


def test_double_triple_and_oh():
    n = norm("five double five oh one triple seven")
    assert n.text == "5 5 5 01 7 7 7"
    assert span_words(n, "7 7 7") == (5, 7)
    assert norm("expires oh four twenty six").text == "expires 04 26"
    assert norm("oh okay thanks").text == "oh okay thanks"  # an interjection stays a word
    assert norm("the code is two five oh").text == "the code is 2 5 0"


def test_double_before_a_digit_group_asr_wrote_repeats_its_first_digit():
    """Whisper writes "double two oh four one" as "double 2041"."""
    n = norm("Denver, double 2041, and a contact")
    assert "22041" in n.text
    assert span_words(n, "22041") == (1, 3)
    assert norm("double 5 then 3").text == "5 5 then 3"  # a single digit as before


def test_and_only_joins_numbers_after_hundred():
    assert norm("one hundred and five").text == "105"
    assert norm("thirty and five seven four").text == "30 and 5 7 4"


def test_spanish_numbers():
    assert norm("mil novecientos ochenta y cinco", "es").text == "1985"
    assert norm("cuatro uno uno uno treinta y dos", "es").text == "4 1 1 1 32"


def test_spelled_letters_are_glued_and_cover_every_word():
    n = norm("my name is L, A, U, R, A and M-K")
    assert n.text == "my name is laura and mk"
    assert span_words(n, "laura") == (3, 8)
    assert all(t.kind == LETTER for t in n.tokens if t.w0 >= 3 and t.w1 <= 8)
    n = norm("it's M as in Mary K as in kilo ok")
    assert n.text == "it's mk ok"
    assert span_words(n, "mk") == (1, 9)


def test_spelled_letters_in_spanish_and_lone_articles():
    assert norm("se escribe M de Madrid E de España", "es").text == "se escribe me"
    assert norm("I have a card").text == "i have a card"  # "I" and "a" are words, not spelling


def test_spanish_spelling_that_whisper_fused_or_heard_as_y_is_still_spelling():
    # Whisper base on Spanish calls: "P de París" -> "Pede París", "U de Úbeda" -> "Udeúbeda",
    # "O de Oviedo" -> "Odeo Viedo", "I de Italia" -> "y de Italia"
    n = norm("se escribe Pede París, ade Antonio L. de Lorenzo. Odeo Viedo, y de Italia, Udeúbeda gracias", "es")
    assert n.text == "se escribe paloiu gracias"
    assert span_words(n, "paloiu") == (2, 15)  # every word of the spelling, "Viedo" included
    # ordinary words that merely contain "de" stay words
    assert norm("puede ser verde y de nuevo", "es").text == "puede ser verde y de nuevo"
    assert norm("they look alike and before bed").text == "they look alike and before bed"


def test_spoken_email_url_and_ip_are_glued():
    n = norm("it's john dot smith at gmail dot com thanks")
    assert n.text == "it's john.smith@gmail.com thanks"
    assert span_words(n, "john.smith@gmail.com") == (1, 8)
    assert norm("j o h n underscore s m i t h eight five at yahoo dot co dot uk").text == "john_smith85@yahoo.co.uk"
    assert norm("go to www dot acme dash corp dot com").text == "go to www.acme-corp.com"
    assert norm("ip one nine two dot one six eight dot 1 dot 1").text == "ip 192.168.1.1"
    assert norm("mi correo es ana punto gil arroba correo punto es", "es").text == "mi correo es ana.gil@correo.es"


def test_turn_breaks_stop_runs_and_fillers_inside_runs_are_dropped():
    n = norm("four one one one um one two", breaks=[4])
    assert n.text == "4 1 1 1\num 1 2"  # a filler that starts a turn is kept
    assert [t.kind for t in n.tokens if t.text != "um"] == [NUM] * 6
    assert span_words(n, "1 2") == (5, 7)
    assert norm("4111 um 1111").text == "4111 1111"


def test_word_range_of_separator_only_is_none():
    n = norm("a b")
    assert n.word_range(len(n.text), len(n.text) + 1) is None


def test_unknown_language_is_a_clear_error():
    from redactdesk.detect.errors import UnsupportedLanguageError

    with pytest.raises(UnsupportedLanguageError, match="supported: en, es"):
        normalize_words(["hola"], "fr")


def test_whisper_spanish_split_numbers_are_one_number_over_all_their_words():
    n = norm("nací el 13 de diciembre de 1950 y 9. gracias", "es")
    assert n.text == "nací el 13 de diciembre de 1959 gracias"
    assert span_words(n, "1959") == (6, 9)  # "1950 y 9." — the year's last digit is inside the date
    assert norm("cuesta 760 y 4 euros", "es").text == "cuesta 764 euros"
    assert norm("caduca en abril de 2000, 29", "es").text == "caduca en abril de 2029"
    # digit groups and small numbers joined by "y" stay apart
    assert norm("llame al 900 12 34 56", "es").text == "llame al 900 12 34 56"
    assert norm("el 4 y 5", "es").text == "el 4 y 5"


def test_a_written_local_part_with_a_spoken_dot_is_one_email():
    from redactdesk.detect.pipeline import detect_texts

    text = "send it to jack@gmail dot com today"
    spans = detect_texts([text], "en")[0]
    assert ("jack@gmail dot com", "EMAIL") in [(text[s["start"]:s["end"]], s["category"]) for s in spans]


def test_a_possessive_token_after_a_name_belongs_to_it():
    from redactdesk.detect.pipeline import detect_texts

    text = "reply to derek 's email"
    spans = detect_texts([text], "en")[0]
    assert ("derek 's", "PERSON") in [(text[s["start"]:s["end"]], s["category"]) for s in spans]


def test_a_plural_scale_word_alone_is_a_crowd_not_a_number():
    """"visited by millions every year" was the number 1000000, and so a reference."""
    assert norm("visited by millions every year").text == "visited by millions every year"
    assert norm("vinieron miles de personas", "es").text == "vinieron miles de personas"
    assert norm("seven million two hundred thousand").text == "7200000"


@pytest.mark.parametrize("text,lang,letters", [
    ("one z nine nine nine a a one zero", "en", ["z", "a", "a"]),  # a code's letters that are words too
    ("de dos a tres personas", "es", []),  # Spanish "a", "o", "y" between numbers join them
    ("son dos o tres", "es", []),
])
def test_letters_between_digits(text, lang, letters):
    assert [t.text for t in norm(text, lang).tokens if t.kind == LETTER] == letters


def test_letters_closing_a_code_of_letters_and_digits_are_letters():
    """A British driving licence said aloud ends in two check letters ("... s m nine i j"): "i" is a
    word too, and the two were left out of the reference."""
    n = norm("my driving licence number is morga seven five three one one six s m nine i j")
    assert [t.text for t in n.tokens[-2:]] == ["i", "j"] and all(t.kind == "letter" for t in n.tokens[-2:])


@pytest.mark.parametrize("text", ["since the nineteen ninety s a growing number of people",
                                  "i have one two three a i think"])
def test_words_after_a_year_or_plain_digits_stay_words(text):
    n = norm(text)
    assert not any(t.kind == "letter" and t.text in ("a", "i") for t in n.tokens)
