"""Accent folding: one set of helpers, each keeping what its users rely on."""

from redactdesk.lang.folding import fold, fold_key, strip_accents, strip_marks


def test_strip_accents_keeps_enye_a_letter_of_its_own():
    assert strip_accents("Muñoz Sánchez") == "Muñoz Sanchez"
    assert strip_accents("PEÑA Ángel") == "PEÑA Angel"


def test_strip_marks_removes_every_mark_and_keeps_case():
    assert strip_marks("Muñoz Sábado") == "Munoz Sabado"
    assert strip_marks("Zoë") == "Zoe"


def test_fold_gives_the_ascii_keys_of_the_name_lists():
    assert fold("García") == "garcia"
    assert fold("Łukasz") == "lukasz"
    assert fold("Александр") == "aleksandr"
    assert fold_key("O’Neill") == "oneill"
    assert fold_key("St.") == "st"


def test_strip_marks_leaves_ascii_text_as_it_is_and_folds_the_rest():
    text = "Call 555-0100, ask for Jose (no accents here) \t\n~^`'"
    assert strip_marks(text) == text
    assert strip_marks("José ﬁle Ａ") == "Jose file A"  # NFKD: ligature and full-width letters too
