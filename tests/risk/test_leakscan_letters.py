"""The leak scan reads letter sequences: a released spelled passage that still spells an original
(whatever its separators or alphabet words) is a leak; other letters are not."""

from __future__ import annotations

import pytest

from redactdesk.core.types import Conversation, Span, SpanStatus, Word
from redactdesk.pipeline.release_scan import scan_lines
from redactdesk.risk.leakscan import letter_sequences, needles, scan_text


def _conv(originals: list[tuple[str, str]], language: str = "en") -> Conversation:
    words, spans = [], []
    for text, category in originals:
        start = len(words)
        words += [Word(t, 0, 1) for t in text.split()]
        spans.append(Span(start, len(words), category, status=SpanStatus.ACCEPTED, id=len(spans) + 1))
    return Conversation(id="c", language=language, words=words, spans=spans)


CONV = _conv([("John Medina.", "PERSON"), ("M -D -D -I -N -A.", "PERSON")])


@pytest.mark.parametrize("released", [
    "can you spell it? M -E -D -I -N -A. thanks",
    "it's m, e, d, i, n, a",
    "M as in Mary E as in Edward D as in David I as in Ida N as in Nancy A as in Adam.",
    "M is in Mike, E is in Echo, D is in Delta, I is in India, N is in November, A is in Alfa",
    "sure, M -D -D -I -N -A.",  # the ASR's own letters, spelled again
])
def test_spelled_original_in_the_release_is_found(released):
    found = scan_text(released, "revised.txt", needles([CONV]))
    assert found and "spelled" in {f.variant for f in found}
    assert all("medina" not in f.hint.lower() for f in found)
    assert scan_lines(released, "revised.txt", needles([CONV])) == found  # the prefiltered scan agrees


@pytest.mark.parametrize("released", [
    "can you spell it? M -U -E -L -L -E -R. thanks",
    "S as in Sam M as in Mary I as in Ida T as in Tom H as in Henry",
    "I met Dina and Ed at the medical centre",
])
def test_other_letters_are_not_a_leak(released):
    assert not scan_text(released, "revised.txt", needles([CONV]))


def test_spanish_spelling_with_accents_is_read():
    conv = _conv([("Cabezas", "PERSON")], "es")
    assert scan_text("C de Cádiz, A de Ávila, B de Barcelona, E de España, Z de Zaragoza, A de Ávila, S de Sevilla",
                     "r.txt", needles([conv]))


def test_letter_sequences_skip_function_words_and_short_words():
    assert letter_sequences("the 5th of March") == {"march"}
    assert letter_sequences("C, A, B, E, C, A, S.", "es") == {"cabecas"}


def test_a_word_inside_a_longer_spelled_name_is_not_a_leak():
    conv = _conv([("42 Elizabeth Way", "ADDRESS")])
    assert not scan_text("the last name c, o, n, w, a, y. thanks", "r.txt", needles([conv]))
    assert scan_text("the street is w, a, y. thanks", "r.txt", needles([conv]))
