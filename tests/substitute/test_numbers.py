"""Numbers keep their spoken form: digit count, grouping, words, and Spanish number classes."""

from __future__ import annotations

import random
import re

import pytest
from stdnum import iban, luhn
from stdnum.es import dni, nie

from redactdesk.substitute import digits as D
from redactdesk.substitute import substitute_conversation
from redactdesk.substitute.numbers import number_table, signature

TENS_ES = ["treinta", "cuarenta", "cincuenta", "sesenta", "setenta", "ochenta", "noventa"]
UNITS_ES = ["uno", "dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve"]


def _fill_many(tokens: str, language: str, n: int = 200, **kw) -> list[list[str]]:
    tpl = D.parse(tokens.split(), language)
    out = []
    for seed in range(n):
        value = D.fill(tpl, random.Random(seed), avoid=tpl.value, **kw)
        assert value is not None
        out.append(D.render(tpl, value))
    return out


def test_spanish_tens_and_units_stay_tens_and_units():
    for said in _fill_many("cuarenta y cuatro", "es"):
        assert len(said) == 3 and said[0] in TENS_ES and said[1] == "y" and said[2] in UNITS_ES, said
        assert "diez" not in said


def test_spanish_number_classes_never_mix():
    table = number_table("es")
    for original in ["veinticuatro", "cuatrocientos veinticuatro", "cuatrocientos cuarenta y cuatro",
                     "cuatrocientos cuatro", "cuarenta", "cien", "dos mil trescientos uno"]:
        sig = signature(tuple(original.split()), "es")
        for said in _fill_many(original, "es", n=60):
            assert tuple(said) in table.value_of, said  # a real number
            assert signature(tuple(said), "es") == sig, (original, said)


def test_zero_never_lands_in_a_unit_position():
    for said in _fill_many("treinta", "es") + _fill_many("doscientos", "es"):
        assert "cero" not in said and "y" not in said


def test_english_pairs_and_digits_keep_their_form():
    for said in _fill_many("forty one eleven oh five double seven", "en", n=100):
        assert len(said) == 7
        assert said[0] in {"twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"}
        assert said[2] in {"ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
                           "eighteen", "nineteen"}
        assert said[3] == "oh" or said[3] in "one two three four five six seven eight nine".split()
        assert said[5] == "double"


def test_written_numerals_keep_length_and_separators():
    tpl = D.parse(["555-0123", "ext", "42"], "en")
    value = D.fill(tpl, random.Random(3), avoid=tpl.value)
    said = D.render(tpl, value)
    assert re.fullmatch(r"\d{3}-\d{4}", said[0]) and said[1] == "ext" and re.fullmatch(r"\d\d", said[2])


def _conv_with(make_conv, text, category, language="en", cid="call_1"):
    return make_conv([("customer", f"okay {text} thanks")], [(0, text, category)], language=language, cid=cid)


@pytest.mark.parametrize("said", [
    "four one one one one one one one one one one one one one one one",
    "forty one eleven eleven eleven forty one eleven eleven eleven",
    "4111 1111 1111 1111",
])
def test_card_numbers_keep_length_form_and_pass_luhn(make_conv, secret, said):
    for i in range(25):
        res = substitute_conversation(_conv_with(make_conv, said, "CREDIT_CARD", cid=f"c{i}"), secret=secret)
        new = res.replacements[0].surrogate
        digits = D.parse(new.split(), "en").digits
        assert len(digits) == 16 and luhn.is_valid(digits) and digits != "4111111111111111"
        assert digits[0] == "4"  # the issuer digit stays
        assert len(new.split()) == len(said.split())
    assert not res.warnings


def test_us_phone_uses_the_fictional_555_01_range(make_conv, secret):
    said = "three one two eight four seven two nine one six"
    for i in range(10):
        res = substitute_conversation(_conv_with(make_conv, said, "PHONE", cid=f"p{i}"), secret=secret)
        digits = D.parse(res.replacements[0].surrogate.split(), "en").digits
        assert len(digits) == 10 and digits[3:8] == "55501" and digits[0] in "23456789"


def test_spanish_ids_get_valid_check_letters(make_conv, secret):
    for i in range(10):
        conv = make_conv([("c", "es el seis ocho nueve seis cero dos siete nueve T vale"),
                          ("c", "y el X uno dos tres cuatro cinco seis siete L")],
                         [(0, "seis ocho nueve seis cero dos siete nueve T", "ES_ID"),
                          (1, "X uno dos tres cuatro cinco seis siete L", "ES_ID")], language="es", cid=f"d{i}")
        res = substitute_conversation(conv, secret=secret)
        a = D.parse(res.replacements[0].surrogate.split(), "es", letters=True).value
        b = D.parse(res.replacements[1].surrogate.split(), "es", letters=True).value
        assert dni.is_valid(a) and nie.is_valid(b) and b[0] == "X"


@pytest.mark.parametrize("said", ["y cuatro siete uno dos nueve nueve cero m", "z tres cero ocho seis dos cero tres e"])
def test_a_spanish_id_whose_letter_is_also_a_word_gets_a_valid_surrogate(make_conv, secret, said):
    """An NIE's Y ("and") or check letter E ("and") said as the word: the surrogate kept the word and
    re-drew eight characters with no rule, an NIE no validator accepts ("y nueve cuatro ... o")."""
    for i in range(5):
        conv = make_conv([("c", f"es el {said} gracias")], [(0, said, "ES_ID")], language="es", cid=f"n{i}")
        new = substitute_conversation(conv, secret=secret).replacements[0].surrogate
        value = D.parse(new.split(), "es", letters=True, typed_codes=True).value
        assert nie.is_valid(value) and value[0] == said[0].upper(), new


def test_iban_keeps_country_and_checksum(make_conv, secret):
    said = ("E S nine one two one zero zero zero four one eight four five zero two zero zero zero five one three three"
            " two")
    res = substitute_conversation(_conv_with(make_conv, said, "IBAN"), secret=secret)
    value = D.parse(res.replacements[0].surrogate.split(), "en", letters=True).value
    assert value.startswith("ES") and len(value) == 24 and iban.is_valid(value)


def test_money_keeps_words_and_never_says_one_before_a_plural(make_conv, secret):
    for i in range(30):
        res = substitute_conversation(_conv_with(make_conv, "seis euros con cuarenta y dos céntimos", "MONEY", "es",
                                                 cid=f"m{i}"), secret=secret)
        said = res.replacements[0].surrogate.split()
        assert said[1] == "euros" and said[2] == "con" and said[-1] == "céntimos"
        assert said[0] not in ("uno", "un") and said[3] in TENS_ES + ["veinte"] or said[3] in TENS_ES
        assert not res.warnings


def test_an_age_written_as_one_word_keeps_its_words(make_conv, secret):
    """"67-year-old" was taken for a code: "25-UZID-UPK man". Only the number changes."""
    for i in range(10):
        conv = make_conv([("c", "the 67-year-old man")], [(0, "67-year-old", "AGE")], cid=f"a{i}")
        res = substitute_conversation(conv, secret=secret)
        new = res.replacements[0].surrogate
        assert re.fullmatch(r"\d{1,3}-year-old", new) and new != "67-year-old", new


def test_letters_of_an_id_read_aloud_in_lower_case_stay_letters(make_conv, secret):
    """"q q one two three four five six c" came back as "falcon saffron nine six ... saffron"."""
    text = "my national insurance number is q q one two three four five six c"
    conv = make_conv([("c", text)], [(0, "q q one two three four five six c", "NATIONAL_ID")])
    said = substitute_conversation(conv, secret=secret).replacements[0].surrogate.split()
    assert len(said) == 9 and all(len(w) == 1 and w.isalpha() and w.islower() for w in said[:2] + said[-1:]), said
    assert said != "q q one two three four five six c".split()


@pytest.mark.parametrize("written", ["$1,200", "€45.50", "45,50€", "US$5.99", "£3.2m"])
def test_an_amount_written_with_its_sign_keeps_the_sign_and_shape(make_conv, secret, written):
    res = substitute_conversation(_conv_with(make_conv, written, "MONEY", cid=f"w{written}"), secret=secret)
    new = res.replacements[0].surrogate
    shape = re.sub(r"\d", "9", written)
    assert re.sub(r"\d", "9", new) == shape and new != written, new


@pytest.mark.parametrize("written", ["#55321", "#INV-20931", "#112-3345678-9988776"])
def test_a_reference_after_the_number_sign_keeps_the_sign(make_conv, secret, written):
    res = substitute_conversation(_conv_with(make_conv, written, "GENERIC_ID", cid=f"r{written}"), secret=secret)
    new = res.replacements[0].surrogate
    def shape(s):
        return re.sub(r"[A-Z]", "A", re.sub(r"\d", "9", s))

    assert new != written and shape(new) == shape(written), new


def test_an_amount_with_its_cents_after_the_currency_keeps_its_words(make_conv, secret):
    res = substitute_conversation(_conv_with(make_conv, "twelve dollars fifty", "MONEY", cid="c1"), secret=secret)
    said = res.replacements[0].surrogate.split()
    assert "dollars" in said and said != "twelve dollars fifty".split() and not said[0].startswith("["), said


def test_an_ipv4_written_as_one_token_gets_valid_octets(make_conv, secret):
    """"192.168.14.2" became "461.891.20.1": the octets of one written token were not read apart."""
    import ipaddress

    for i in range(5):
        res = substitute_conversation(_conv_with(make_conv, "192.168.14.2", "IP_ADDRESS", cid=f"ip{i}"), secret=secret)
        new = res.replacements[0].surrogate
        ipaddress.IPv4Address(new)
        assert new != "192.168.14.2"


def test_an_ipv6_gets_a_surrogate_in_its_own_shape(make_conv, secret):
    """"2001:db8::ff00:42:8329." became the tag "[IP_ADDRESS]" and lost its full stop."""
    import ipaddress

    conv = make_conv([("c", "a request from 2001:db8::ff00:42:8329. then")],
                     [(0, "2001:db8::ff00:42:8329.", "IP_ADDRESS")])
    new = substitute_conversation(conv, secret=secret).replacements[0].surrogate
    assert new.endswith(".") and "[" not in new and "::" in new
    ipaddress.IPv6Address(new[:-1])
    assert not {g for g in new[:-1].split(":") if len(g) >= 3} & {"2001", "ff00", "8329"}


@pytest.mark.parametrize("said", ["+1 (604) 555-0187", "(415) 555-0132"])
def test_a_phone_in_the_fictional_exchange_gets_a_surrogate_not_its_tag(make_conv, secret, said):
    """"(415) 555-0132" became "[PHONE]": the generator draws 555 on purpose, and the guard against
    kept digits read it as the original's."""
    conv = make_conv([("c", f"call me on {said} today")], [(0, said, "PHONE")])
    new = substitute_conversation(conv, secret=secret).replacements[0].surrogate
    assert "[" not in new and new != said and re.fullmatch(r"(\+1 )?\(\d{3}\) 555-\d{4}", new), new


def test_a_check_letter_said_by_its_name_gets_a_valid_one_said_by_its_name(make_conv, secret):
    """"... nueve ocho equis": the letter said by its name stayed as it was beside eight new digits — a
    DNI no validator accepts. Now the new check letter is computed and said by its name."""
    for i in range(6):
        said = "cinco tres cuatro dos uno cero nueve ocho equis"
        conv = make_conv([("c", f"mi dni es {said} vale")], [(0, said, "ES_ID")], language="es", cid=f"q{i}")
        new = substitute_conversation(conv, secret=secret).replacements[0].surrogate
        value = D.parse(new.split(), "es", letters=True, typed_codes=True).value
        assert dni.is_valid(value) and new.split()[-1] != "X", new


@pytest.mark.parametrize("said", ["2,500 EUR", "2,500 dollars"])
def test_an_amount_with_a_thousands_comma_and_no_sign_becomes_another_amount(make_conv, secret, said):
    """"Transfer 2,500 EUR" became "Transfer [MONEY] EUR": the comma made the number no numeral."""
    import re as _re

    conv = make_conv([("c", f"transfer {said} from my account")], [(0, said, "MONEY")])
    new = substitute_conversation(conv, secret=secret).replacements[0].surrogate
    assert "[" not in new and new != said and _re.fullmatch(r"\d,\d{3} \w+", new), new


@pytest.mark.parametrize("text,age", [("a white male in his 30s fled", "30s"),
                                      ("she is in her early forties now", "early forties"),
                                      ("I am in my mid-20s now", "mid-20s")])
def test_an_age_said_as_a_decade_becomes_another_decade(make_conv, secret, text, age):
    """"in his 30s" became "in his 27L", "early forties" "[AGE]"."""
    from redactdesk.lang.decades import read_decade

    conv = make_conv([("c", text)], [(0, age, "AGE")])
    revised = substitute_conversation(conv, secret=secret).revised_text()
    before, after = text.split(age)
    new = revised[len(before):len(revised) - len(after)]
    assert revised.startswith(before) and revised.endswith(after), revised
    decade = read_decade(new.split())
    assert decade is not None and new != age and decade.form == read_decade(age.split()).form, revised
