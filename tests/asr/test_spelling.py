"""Whisper's fused Spanish spellings are split back into letter | de | word with times inside the word."""

from redactdesk.asr.spelling import split_fused_spelling
from redactdesk.asr.timing import prepare_words
from redactdesk.core.types import Word


def words(text: str) -> list[Word]:
    return [Word(text=t, start=i * 0.5, end=i * 0.5 + 0.4) for i, t in enumerate(text.split())]


def texts(ws: list[Word]) -> str:
    return " ".join(w.text for w in ws)


def test_fused_letter_joiner_and_word_are_split_inside_the_word_span():
    out = split_fused_spelling(words("Udeúbeda, e de España"), language="es")
    assert texts(out) == "U de Úbeda, e de España"
    u, de, ubeda = out[:3]
    assert (u.start, ubeda.end) == (0.0, 0.4)
    assert u.end == de.start and de.end == ubeda.start and u.start < u.end < ubeda.start
    assert not any(w.aligned for w in out[:3])


def test_letter_name_fused_with_de_before_its_word():
    assert texts(split_fused_spelling(words("Pede París, ade Antonio"), language="es")) == "P de París, A de Antonio"


def test_word_split_across_two_tokens_is_joined_and_keeps_the_second_tokens_end():
    out = split_fused_spelling(words("odeo Viedo, M. de Madrid"), language="es")
    assert texts(out) == "O de Oviedo, M. de Madrid"
    assert out[2].start == out[1].end and out[2].end == 0.9  # "Oviedo" runs to the end of "Viedo"


def test_ordinary_words_and_english_are_left_alone():
    text = "puede ser verde y de nuevo cede todo en el Odeón de Madrid"
    assert texts(split_fused_spelling(words(text), language="es")) == text
    assert texts(split_fused_spelling(words("Pede París"), language="en")) == "Pede París"
    assert texts(split_fused_spelling(words("alike and before bed"), language="en")) == "alike and before bed"


def test_prepare_words_splits_untimed_fusions_without_inventing_times():
    ws = [Word(text="Udeúbeda", start=None, end=None), Word(text="gracias", start=1.0, end=1.5)]
    out, report = prepare_words(ws, language="es")
    assert texts(out) == "U de Úbeda gracias"
    assert report.pieces == 2
    assert all(w.start is not None and w.end >= w.start for w in out)
