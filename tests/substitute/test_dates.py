"""Dates move together: distances, weekdays with day numbers, and months said alone keep agreeing."""

from __future__ import annotations

import datetime as dt
import re

import pytest

from redactdesk.substitute import substitute_conversation
from redactdesk.substitute.dates import DateValue, parse_date


def _date(said: str, language: str = "en") -> dt.date | None:
    st = parse_date(said.split(), language)
    assert st is not None and st.value is not None
    return st.value.as_date()


def test_relations_between_dates_survive(make_conv, secret):
    for i in range(15):
        conv = make_conv(
            [("c", "I sent it on March third twenty twenty four"),
             ("a", "and it arrived on March seventh twenty twenty four"),
             ("c", "I was born on the twenty ninth of February nineteen eighty four")],
            [(0, "March third twenty twenty four", "DATE"), (1, "March seventh twenty twenty four", "DATE"),
             (2, "the twenty ninth of February nineteen eighty four", "DATE_OF_BIRTH")], cid=f"d{i}")
        res = substitute_conversation(conv, secret=secret)
        a, b, dob = (_date(r.surrogate) for r in res.replacements)
        assert (b - a).days == 4
        assert a.weekday() == dt.date(2024, 3, 3).weekday()  # a whole number of weeks
        # a birth date moves in whole weeks too (weekday kept) but always to another year (the age)
        assert (dob - dt.date(1984, 2, 29)).days % 7 == 0 and dob.year != 1984
        assert a != dt.date(2024, 3, 3)
        assert not res.warnings, [str(w) for w in res.warnings]


def test_same_date_said_two_ways_gets_one_surrogate(make_conv, secret):
    conv = make_conv([("c", "lo mandé el diez del nueve"), ("c", "el diez de septiembre")],
                     [(0, "diez del nueve", "DATE"), (1, "diez de septiembre", "DATE")], language="es")
    res = substitute_conversation(conv, secret=secret)
    one = parse_date(res.replacements[0].surrogate.split(), "es").value
    two = parse_date(res.replacements[1].surrogate.split(), "es").value
    assert (one.month, one.day) == (two.month, two.day) != (9, 10)
    assert res.replacements[1].surrogate.split()[1] == "de"  # "diez de septiembre" keeps its form


def test_weekday_with_day_number_and_months_said_alone(make_conv, secret):
    conv = make_conv(
        [("c", "hoy es lunes veinticinco de mayo y el viernes es el veintinueve de mayo"),
         ("a", "estamos en mayo el mes pasado fue abril")],
        [(0, "veinticinco de mayo", "DATE"), (0, "veintinueve de mayo", "DATE"), (1, "mayo", "MONTH"),
         (1, "abril", "MONTH")], language="es")
    res = substitute_conversation(conv, secret=secret)
    d1, d2 = (parse_date(r.surrogate.split(), "es").value for r in res.replacements[:2])
    assert d1.month == d2.month and d2.day - d1.day == 4
    may, april = (r.surrogate for r in res.replacements[2:])
    months = ["enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre",
              "noviembre", "diciembre"]
    assert (months.index(may) - months.index(april)) % 12 == 1
    assert months.index(may) + 1 == d1.month  # the month said alone moved like the dates
    assert "lunes" in res.revised_text() and "viernes" in res.revised_text()
    assert not res.warnings, [str(w) for w in res.warnings]


def test_numeric_dates_keep_their_form(make_conv, secret):
    conv = make_conv([("c", "my birthday is oh three oh three eighty four")],
                     [(0, "oh three oh three eighty four", "DATE_OF_BIRTH")])
    res = substitute_conversation(conv, secret=secret)
    said = res.replacements[0].surrogate.split()
    assert 4 <= len(said) <= 6 and not any(ch.isdigit() for w in said for ch in w)  # digits said as words
    new = _date(res.replacements[0].surrogate)
    assert new.year != 1984 and str(new.year)[2:] in {"80", "81", "82", "83", "85", "86", "87", "88"}  # "eighty x"


def test_card_expiry_moves_forward_and_keeps_form(make_conv, secret):
    for i in range(10):
        conv = make_conv([("c", "it expires oh four twenty seven")], [(0, "oh four twenty seven", "CARD_EXPIRY")],
                         cid=f"x{i}")
        res = substitute_conversation(conv, secret=secret)
        st = parse_date(res.replacements[0].surrogate.split(), "en", expiry=True)
        assert st is not None and (st.value.year, st.value.month) > (2027, 4)
        assert len(res.replacements[0].surrogate.split()) in (3, 4)


def test_relative_dates_stay_and_are_not_flagged(make_conv, secret):
    conv = make_conv([("c", "it happened yesterday")], [(0, "yesterday", "DATE")])
    res = substitute_conversation(conv, secret=secret)
    assert res.replacements[0].surrogate == "yesterday" and not res.warnings


def test_date_value_iso_round_trip():
    v = DateValue(None, 2, 29)
    assert DateValue.from_iso(v.iso()) == v and v.as_date() == dt.date(2000, 2, 29)
    assert DateValue.from_iso("1984-13-01") is None


def test_garbled_expiry_and_date_are_said_afresh(make_conv, secret):
    """ASR turned "December 2028" into "the number twenty twenty eight": no month to shift, numbers inside."""
    conv = make_conv([("c", "expiry the number twenty twenty eight okay"), ("c", "born on the number nine")],
                     [(0, "the number twenty twenty eight", "CARD_EXPIRY"), (1, "the number nine", "DATE_OF_BIRTH")])
    res = substitute_conversation(conv, secret=secret)
    expiry, dob = (r.surrogate for r in res.replacements)
    assert "twenty twenty eight" not in expiry and "number" not in expiry
    assert expiry.split()[0] in ("january", "february", "march", "april", "may", "june", "july", "august",
                                 "september", "october", "november", "december")
    assert dob != "the number nine" and _date(dob) is not None
    assert not [w for w in res.warnings if w.kind in ("same_as_original", "kept_as_tag")]


def test_an_item_that_cannot_be_replaced_becomes_its_tag(make_conv, secret, monkeypatch):
    """Fail closed: a generator that keeps the original (a bug, a new garble) never lets it through."""
    from redactdesk.substitute.dates import ExpiryGenerator

    monkeypatch.setattr(ExpiryGenerator, "generate", lambda self, ctx, item: item.original)
    monkeypatch.setattr(ExpiryGenerator, "render", lambda self, ctx, item, occ, tokens: list(tokens))
    conv = make_conv([("c", "it expires the number twenty twenty eight")],
                     [(0, "the number twenty twenty eight", "CARD_EXPIRY")])
    res = substitute_conversation(conv, secret=secret)
    assert res.replacements[0].surrogate == "[CARD_EXPIRY]"
    assert " ".join(w.text for w in res.revised_words) == "it expires [CARD_EXPIRY]"
    assert [w.kind for w in res.warnings if w.kind == "kept_as_tag"] == ["kept_as_tag"]


def test_a_birth_date_always_changes_its_year(make_conv, secret):
    """The year of birth is the age: a surrogate keeping it leaks the most telling part."""
    for i in range(20):
        conv = make_conv([("c", "I was born March 14, 1977.")], [(0, "March 14, 1977.", "DATE_OF_BIRTH")],
                         cid=f"b{i}")
        new = _date(substitute_conversation(conv, secret=secret).replacements[0].surrogate)
        assert new.year != 1977 and 1 <= abs(new.year - 1977) <= 5


def test_a_card_expiry_always_changes_its_year(make_conv, secret):
    for i in range(20):
        conv = make_conv([("c", "it expires June 2029 okay")], [(0, "June 2029", "CARD_EXPIRY")], cid=f"e{i}")
        surrogate = substitute_conversation(conv, secret=secret).replacements[0].surrogate
        assert "2029" not in surrogate and "twenty nine" not in surrogate


def test_a_written_card_expiry_keeps_its_printed_form(make_conv, secret):
    """ "09/27" as printed on a card (a chat log, an agent's note) is replaced by a later "MM/YY"."""
    for i in range(10):
        conv = make_conv([("c", "card expires 09/27 thanks")], [(0, "09/27", "CARD_EXPIRY")], cid=f"w{i}")
        res = substitute_conversation(conv, secret=secret)
        new = res.replacements[0].surrogate
        assert re.fullmatch(r"\d{2}/\d{2}", new), new
        month, year = int(new[:2]), 2000 + int(new[3:])
        assert (year, month) > (2027, 9) and 1 <= month <= 12


def test_an_event_date_written_with_its_year_gets_a_date_not_its_tag(make_conv, secret):
    """"5 March 2019", "March 2019": the date moved by whole weeks and kept its year, which the guard
    against kept digits read as the original's — the item became "[DATE]"."""
    conv = make_conv([("c", "the appointment was on 5 March 2019 at the clinic"),
                      ("c", "she joined in March 2019 as a nurse")],
                     [(0, "5 March 2019", "DATE"), (1, "March 2019", "DATE")])
    res = substitute_conversation(conv, secret=secret)
    day, month = (r.surrogate for r in res.replacements)
    assert re.fullmatch(r"\d{1,2} [A-Z][a-z]+ \d{4}", day) and day != "5 March 2019"
    assert re.fullmatch(r"[A-Z][a-z]+ \d{4}", month) and month != "March 2019"


def test_an_event_date_of_an_earlier_century_gets_a_date_not_its_tag(make_conv, secret):
    """Detection reads "February 6, 1839" whole now; its kept year was read as a kept number: "[DATE]"."""
    conv = make_conv([("c", "Hitzig was born on February 6, 1839 and the war ended on 10 December 1815")],
                     [(0, "February 6, 1839", "DATE"), (0, "10 December 1815", "DATE")])
    res = substitute_conversation(conv, secret=secret)
    a, b = (r.surrogate for r in res.replacements)
    assert re.fullmatch(r"[A-Z][a-z]+ \d{1,2}, 1[78]\d\d", a) and a != "February 6, 1839", a
    assert re.fullmatch(r"\d{1,2} [A-Z][a-z]+ 181\d", b) and b != "10 December 1815", b


@pytest.mark.parametrize(("said", "shape"), [("(February 6, 1995)", r"\([A-Z][a-z]+ \d{1,2}, \d{4}\)"),
                                             ("(6 February 1995)", r"\(\d{1,2} [A-Z][a-z]+ \d{4}\)")])
def test_a_date_in_brackets_keeps_its_opening_bracket(make_conv, secret, said, shape):
    """"(February 6, 1995)" became "April 17, 1995)": a one-word month lost the bracket before it."""
    conv = make_conv([("c", f"It happened {said} in Berlin.")], [(0, said, "DATE")])
    new = substitute_conversation(conv, secret=secret).replacements[0].surrogate
    assert re.fullmatch(shape, new) and new != said, new


def test_an_iso_date_stays_a_valid_iso_date(make_conv, secret):
    """"2024-07-15" became "2644-99-42": the digits re-drawn with no calendar."""
    conv = make_conv([("c", "the meeting is scheduled for 2024-07-15.")], [(0, "2024-07-15.", "DATE")])
    new = substitute_conversation(conv, secret=secret).replacements[0].surrogate
    assert new.endswith(".") and new != "2024-07-15."
    dt.date.fromisoformat(new[:-1])


@pytest.mark.parametrize("said", ["the fifth of the eleventh eighty two", "the 5th of the 11th 1982",
                                  "the twenty third of the ninth nineteen seventy one"])
def test_a_month_said_as_an_ordinal_is_a_month(make_conv, secret, said):
    """"the fifth of the eleventh eighty two" became "the twentieth of the twentieth eighty four":
    both ordinals were read as the day, and the month got the new day's number."""
    conv = make_conv([("c", f"my date of birth is {said} yes")], [(0, said, "DATE_OF_BIRTH")])
    new = substitute_conversation(conv, secret=secret).replacements[0].surrogate
    style = parse_date(new.split(), "en")
    assert style is not None and style.value.month is not None and 1 <= style.value.month <= 12, new
    assert style.value.day is not None and new != said


@pytest.mark.parametrize("said, category", [
    ("two thousand and five", "DATE"),  # became "two thousand nine hundred and seven" (a number of its form)
    ("2005", "DATE_OF_BIRTH"),  # became "2907"
    ("nineteen eighty seven", "DATE_OF_BIRTH"),  # became "november fifteenth nineteen eighty three"
    ("two thousand twelve", "DATE"),
])
def test_a_year_said_alone_moves_as_a_year_in_its_form(make_conv, secret, said, category):
    conv = make_conv([("c", f"we moved here in {said} okay")], [(0, said, category)])
    new = substitute_conversation(conv, secret=secret).replacements[0].surrogate
    year = parse_date(new.split(), "en")
    assert year is not None and year.value.month is None and year.value.day is None, new
    assert 1 <= abs(year.value.year - parse_date(said.split(), "en").value.year) <= 5, new
    assert len(new.split()) == len(said.split()) and ("and" in new.split()) == ("and" in said.split()), new


@pytest.mark.parametrize(("said", "language", "category", "shape"), [
    ("3/14/2020", "en", "DATE", r"\d{1,2}/\d{1,2}/2020"),  # was "11232020" or "1/02/2020"
    ("1/2/95", "en", "DATE_OF_BIRTH", r"\d{1,2}/\d{1,2}/\d\d"),  # was read as the year 1295
    ("14/3/2020", "es", "DATE", r"\d{1,2}/\d{1,2}/2020"),  # was unread: new digits "84/9"
    ("3/14", "en", "DATE", r"\d{1,2}/\d{1,2}"),
    ("03/14/2020", "en", "DATE", r"\d\d/\d\d/2020"),  # zero-padded stays padded
])
def test_a_written_date_of_digits_and_separators_stays_a_valid_date_in_its_form(make_conv, secret, said, language,
                                                                                 category, shape):
    conv = make_conv([("c", f"the date is {said} ok")], [(0, said, category)], language=language)
    new = substitute_conversation(conv, secret=secret).replacements[0].surrogate
    assert re.fullmatch(shape, new) and new != said, new
    parts = [int(p) for p in new.split("/")]
    month, day = (parts[0], parts[1]) if language == "en" else (parts[1], parts[0])
    year = parts[2] if len(parts) > 2 else 2000
    dt.date(year + (1900 if year < 100 else 0), month, day)  # a real calendar date


@pytest.mark.parametrize(("said", "shape"), [
    ("2021-11-03T14:22:10Z", r"\d{4}-\d\d-\d\dT14:22:10Z"),  # was "november twenty fifth nineteen seventy eight"
    ("5-MAY-2021", r"\d{1,2}-[A-Z]{3}-2021"),  # was "december sixteenth nineteen sixty three"
    ("12-Sept-2020", r"\d{1,2}-[A-Z][a-z]{2,3}-2020"),
    ("May-21", r"[A-Z][a-z]{2}-2\d"),
])
def test_a_date_with_its_month_or_time_in_one_written_token_keeps_its_form(make_conv, secret, said, shape):
    conv = make_conv([("c", f"the record says {said} here")], [(0, said, "DATE")])
    new = substitute_conversation(conv, secret=secret).replacements[0].surrogate
    assert re.fullmatch(shape, new) and new != said, new
