"""Pseudonyms on what Whisper actually wrote (issue 18's Why list): spelled names re-spelled from the
linked surrogate in the same style, e-mails said in words, digits kept digits, a repeated year moved
with its date, addresses whose numbers and ordinals keep their form."""

from __future__ import annotations

import re

import pytest

from redactdesk.risk.leakscan import needles, scan_text
from redactdesk.substitute import substitute_conversation
from redactdesk.substitute.autofix import auto_fix
from redactdesk.substitute.gazetteer import load_gazetteer
from redactdesk.substitute.spelling import parse
from redactdesk.substitute.text import plain_letters


def _rep(res, category, nth=0):
    return [r for r in res.replacements if r.category == category][nth]


def _surname(res, key):
    return next(it.surrogate for it in res.items if it.key == key)


def _spelled(res, span_id):
    return next(r.surrogate for r in res.replacements if r.span_id == span_id)


def _no_leak(conv, res):
    return not scan_text(res.revised_text(), "revised", needles([conv]))


def test_dashed_letters_are_respelled_from_the_surname_surrogate(make_conv, secret):
    conv = make_conv([("c", "It's John Medina."), ("a", "Can you spell the last name?"), ("c", "M -D -D -I -N -A.")],
                     [(0, "John Medina.", "PERSON"), (2, "M -D -D -I -N -A.", "PERSON")])
    res = substitute_conversation(conv, secret=secret)
    said = _spelled(res, 2).split()
    surname = _surname(res, "person:surname:medina")
    assert all(re.fullmatch(r"-[A-Z]", t) for t in said[1:-1]) and said[-1].endswith(".")  # same dashes
    assert plain_letters("".join(said)) == plain_letters(surname)  # spells the surname's surrogate
    assert not any(len(t.strip("-.")) > 1 for t in said)  # letters, not names ("Becky Gilmore Gilmore")
    assert not [w for w in res.warnings if w.kind == "spelling"]
    assert _no_leak(conv, res)


def test_comma_letters_in_spanish_spell_the_linked_surname(make_conv, secret):
    conv = make_conv([("c", "Me llamo Reyes Cabezas Prada."), ("a", "Me deletrea el primer apellido."),
                      ("c", "Sí, C, A, B, E, C, A, S. Fecha de nacimiento.")],
                     [(0, "Reyes Cabezas Prada.", "PERSON"), (2, "C, A, B, E, C, A, S.", "PERSON")], language="es")
    res = substitute_conversation(conv, secret=secret)
    said = _spelled(res, 2).split()
    assert all(t.endswith(",") for t in said[:-1]) and said[-1].endswith(".")
    assert plain_letters("".join(said)) == plain_letters(_surname(res, "person:surname:cabezas"))
    assert _no_leak(conv, res)


def test_is_in_alphabet_passage_respells_letters_and_words(make_conv, secret):
    passage = "G is in George, A is in Adam, R is in Robert, C is in Charlie, I is in I to A is in Adam."
    conv = make_conv([("c", "Okay, Richard Garcia."), ("a", "the surname for me."), ("c", passage)],
                     [(0, "Richard Garcia.", "PERSON"), (2, passage, "PERSON")])
    res = substitute_conversation(conv, secret=secret)
    said = _spelled(res, 2)
    sp = parse(said.split(), "en", load_gazetteer("en").spelling_words)
    assert sp is not None and sp.connector == ("is", "in")  # the same connector as said
    assert sp.letters == plain_letters(_surname(res, "person:surname:garcia"))
    assert "GARCIA" not in plain_letters(said)  # the letters of the real name did not stay
    words = load_gazetteer("en").spelling_words
    for letter in sp.letters:  # every alphabet word from the one list, for its own letter
        assert f"{letter} is in {words[letter]}" in said
    assert _no_leak(conv, res)


def test_spelled_name_with_no_name_said_gets_a_surname_spelled(make_conv, secret):
    conv = make_conv([("c", "It is W -A -L -K -E -R, thanks")], [(0, "W -A -L -K -E -R,", "PERSON")])
    res = substitute_conversation(conv, secret=secret)
    item = next(it for it in res.items if it.occurrences)
    assert item.klass == "person" and plain_letters(item.surrogate) != "WALKER"
    assert load_gazetteer("en").contains("surnames", item.surrogate)  # a drawn surname, not random letters
    assert plain_letters(_spelled(res, 1)) == plain_letters(item.surrogate)


def test_email_mid_sentence_is_a_spoken_surrogate_not_a_placeholder(make_conv, secret):
    conv = make_conv([("c", "Okay, Richard Garcia."),
                      ("c", "Which email should I use? I'm Richard. Garcia. Addexample .com. Your last purchase")],
                     [(0, "Richard Garcia.", "PERSON"), (1, "Richard. Garcia. Addexample .com.", "EMAIL")])
    res = substitute_conversation(conv, secret=secret)
    said = _rep(res, "EMAIL").surrogate
    assert "[" not in said and "@" not in said
    toks = said.rstrip(".").split()
    assert " at " in f" {said} " and "dot" in toks
    given, surname = (_surname(res, k).lower() for k in ("person:given:richard", "person:surname:garcia"))
    assert toks[:3] == [plain_letters(given).lower(), "dot", plain_letters(surname).lower()]
    assert not [w for w in res.warnings if w.kind == "placeholder"]
    assert _no_leak(conv, res)


def test_spanish_email_with_a_roba_is_spoken_too(make_conv, secret):
    conv = make_conv([("c", "Me llamo Reyes Cabezas."), ("c", "Es reyes .cabezas 70 a roba Coreo. Puntoexample .com")],
                     [(0, "Reyes Cabezas.", "PERSON"), (1, "reyes .cabezas 70 a roba Coreo. Puntoexample .com", "EMAIL")],
                     language="es")
    said = _rep(substitute_conversation(conv, secret=secret), "EMAIL").surrogate
    assert "[" not in said and "arroba" in said.split() and "punto" in said.split()
    assert re.search(r"\b\d\d\b", said)  # the two digits are still two digits


def test_birth_date_said_as_single_digits_stays_single_digits(make_conv, secret):
    conv = make_conv([("c", "And your date of birth? 0 6 0 6 9 5. Do you")], [(0, "0 6 0 6 9 5.", "DATE_OF_BIRTH")])
    res = substitute_conversation(conv, secret=secret)
    said = _rep(res, "DATE_OF_BIRTH").surrogate.rstrip(".").split()
    assert len(said) == 6 and all(re.fullmatch(r"\d", t) for t in said)
    assert said != "0 6 0 6 9 5".split()
    assert not [w for w in res.warnings if w.kind == "form_changed"]


def test_unreadable_digit_birth_date_gets_new_digits_not_words(make_conv, secret):
    conv = make_conv([("c", "I was born 0 8 1 5 6 today")], [(0, "0 8 1 5 6", "DATE_OF_BIRTH")])
    said = _rep(substitute_conversation(conv, secret=secret), "DATE_OF_BIRTH").surrogate.split()
    assert len(said) == 5 and all(t.isdigit() for t in said) and said != "0 8 1 5 6".split()


def test_repeated_year_moves_with_its_date(make_conv, secret):
    line = "Fecha de nacimiento. El 12 de mayo de 1958. 58. Sudene y Oñe."
    conv = make_conv([("c", line)], [(0, "12 de mayo de 1958. 58.", "DATE_OF_BIRTH")], language="es")
    said = _rep(substitute_conversation(conv, secret=secret), "DATE_OF_BIRTH").surrogate.split()
    year = said[-2].rstrip(".")
    assert year != "1958" and said[-1] == f"{year[2:]}."  # "… de 1956. 56."


def test_repeated_year_outside_the_span_is_flagged_and_auto_fixed(make_conv, secret):
    line = "Fecha de nacimiento. El 12 de mayo de 1958. 58. Sudene y Oñe."
    conv = make_conv([("c", line)], [(0, "12 de mayo de 1958.", "DATE_OF_BIRTH")], language="es")
    res = substitute_conversation(conv, secret=secret)
    assert [w.kind for w in res.warnings] == ["original_nearby"]
    assert res.warnings[0].span_ids == (1,) and "58" not in res.warnings[0].message
    fixed_conv, fixed, plan = auto_fix(conv, secret=secret)
    assert plan.span_bounds == {1: (4, 10)} and not fixed.warnings
    assert " 58." not in fixed.revised_text() and "1958" not in fixed.revised_text()


def test_address_keeps_tens_and_ordinals(make_conv, secret):
    conv = make_conv([("c", "La nueva dirección. Plaza de varos 70 y 2, 6to, Alicante")],
                     [(0, "Plaza de varos 70 y 2, 6to,", "ADDRESS")], language="es")
    said = _rep(substitute_conversation(conv, secret=secret), "ADDRESS").surrogate.split()
    tens, unit, floor = said[3], said[5].rstrip(","), said[6].rstrip(",")
    assert re.fullmatch(r"[1-9]0", tens) and re.fullmatch(r"[1-9]", unit)  # "setenta y dos" stays tens y unit
    assert re.fullmatch(r"\d(ro|do|to|mo|vo|no|º)", floor) and floor != "6to"  # an ordinal stays an ordinal
    assert said[2].lower() != "varos" and tens != "70"


def test_asr_address_form_is_kept_and_changed(make_conv, secret):
    conv = make_conv([("c", "La nueva dirección. Plaza de pinar 96 y 6 8CY, Alicante")],
                     [(0, "Plaza de pinar 96 y 6 8CY,", "ADDRESS")], language="es")
    res = substitute_conversation(conv, secret=secret)
    said = _rep(res, "ADDRESS").surrogate.split()
    assert len(said) == 7 and said[0] == "Plaza" and said[2].lower() != "pinar"
    assert re.fullmatch(r"\d\d", said[3]) and re.fullmatch(r"\d", said[5]) and re.fullmatch(r"\d[A-Z]{2},", said[6])
    assert said[3] != "96"  # no original number stays in the surrogate
    assert not res.warnings


def test_email_with_a_misheard_surname_follows_the_surname_surrogate(make_conv, secret):
    conv = make_conv([("c", "Okay, Holly Thompson."), ("c", "in your email. Holly .tompsonetexample .com. Anything else")],
                     [(0, "Holly Thompson.", "PERSON"), (1, "Holly .tompsonetexample .com.", "EMAIL")])
    res = substitute_conversation(conv, secret=secret)
    toks = _rep(res, "EMAIL").surrogate.rstrip(".").split()
    given, surname = (_surname(res, k) for k in ("person:given:holly", "person:surname:thompson"))
    assert toks[:4] == [plain_letters(given).lower(), "dot", plain_letters(surname).lower(), "at"]


def test_spanish_y_is_the_letter_i_only_before_an_i_word():
    words = load_gazetteer("es").spelling_words
    assert parse("F de Francia y de Italia, G de Granada".split(), "es", words).letters == "FIG"
    assert parse("T de Toledo U de Úbeda N de Navarra Y de yegua".split(), "es", words).letters == "TUNY"


def test_garbled_connectors_and_fused_capitals_still_follow_the_surname(make_conv, secret):
    passage = "A is an atom U is an union S as and Sam T is and Tom I is an I to N as an ANSI."
    conv = make_conv([("c", "It's Jennifer Austin."), ("c", passage), ("c", "It's John Medina,"), ("c", "MDDINA, And")],
                     [(0, "Jennifer Austin.", "PERSON"), (1, passage, "PERSON"), (2, "John Medina,", "PERSON"),
                      (3, "MDDINA,", "PERSON")])
    res = substitute_conversation(conv, secret=secret)
    said = _spelled(res, 2)
    sp = parse(said.split(), "en", load_gazetteer("en").spelling_words)
    assert sp is not None and sp.connector == ("as", "in")
    assert sp.letters == plain_letters(_surname(res, "person:surname:austin"))
    assert _spelled(res, 4) == _surname(res, "person:surname:medina").upper() + ","  # "MDDINA," → "NASH,"


def test_written_amounts_never_gain_a_leading_zero(make_conv):
    conv = make_conv([("c", "El importe es de 760 y 4 euros con 6 centimos lo paga")],
                     [(0, "760 y 4 euros con 6 centimos", "MONEY")], language="es")
    for k in range(12):
        said = substitute_conversation(conv, secret=f"secret-{k}").replacements[0].surrogate.split()
        assert said[0][0] != "0" and len(said[0]) == 3, said


def test_a_long_asr_street_name_is_not_one_surname_said_again_and_again(make_conv, secret):
    line = "la dirección de entrega paseo de el adió lo bate 30, y 1 segundo derecha 40"
    conv = make_conv([("c", line)], [(0, "paseo de el adió lo bate 30, y 1 segundo derecha", "ADDRESS")],
                     language="es")
    said = [w.lower().strip(",") for w in substitute_conversation(conv, secret=secret).replacements[0].surrogate.split()]
    names = [w for w in said if w not in ("paseo", "de", "el", "y", "derecha") and not w.isdigit()]
    assert max(names.count(w) for w in names) == 1, said
    assert not {"adió", "bate"} & set(said)


@pytest.mark.parametrize("text,value,lang,joiner", [
    ("i live on the corner of elm and fifth", "elm and fifth", "en", "and"),
    ("the intersection of maple road and route nine", "maple road and route nine", "en", "and"),
    ("vivo en la esquina de la calle alcalá con goya", "la calle alcalá con goya", "es", "con"),
])
def test_two_streets_that_meet_keep_the_word_that_joins_them(make_conv, secret, text, value, lang, joiner):
    conv = make_conv([("c", text)], [(0, value, "ADDRESS")], language=lang)
    new = _rep(substitute_conversation(conv, secret=secret), "ADDRESS").surrogate
    assert joiner in new.split() and len(new.split()) == len(value.split())
    kept = {w for w in value.split() if w in ("and", "con", "la", "calle", "road", "route")}
    assert kept <= set(new.split())
    assert not {w for w in value.split() if w not in kept} & set(new.split())  # every street name replaced
