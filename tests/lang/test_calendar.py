"""Month and weekday names come from Babel and read the way every stage expects them."""

import pytest

from redactdesk.lang.calendar import (
    month_abbreviations,
    month_keys,
    month_names,
    month_words,
    weekday_keys,
    weekday_names,
    weekday_words,
)
from redactdesk.lang.errors import UnsupportedLanguageError
from redactdesk.lang.lexicon import load_lexicon


def test_names_are_written_as_the_language_writes_them():
    assert month_names("en")[0] == "January" and month_names("en")[11] == "December"
    assert month_names("es") == ("enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto",
                                 "septiembre", "octubre", "noviembre", "diciembre")
    assert weekday_names("en")[0] == "Monday"  # Monday first, as datetime.date.weekday() counts
    assert weekday_names("es") == ("lunes", "martes", "miércoles", "jueves", "viernes", "sábado", "domingo")


def test_key_forms_are_lower_case_without_accents_for_the_date_substitution():
    from redactdesk.substitute.dates import MONTHS, WEEKDAYS, month_of

    assert weekday_keys("es") == ("lunes", "martes", "miercoles", "jueves", "viernes", "sabado", "domingo")
    assert MONTHS["en"] == list(month_keys("en")) and MONTHS["en"][4] == "may"
    assert WEEKDAYS["es"] == list(weekday_keys("es"))
    # regional spellings and abbreviations are read as the month they name
    assert month_of("Setiembre", "es") == 9
    assert month_of("Sept.", "en") == 9 and month_of("Jan", "en") == 1
    assert month_of("Dic", "es") == 12


def test_regional_spellings_and_abbreviations():
    assert month_words("es")["setiembre"] == 9  # Peru and Uruguay (es_PE)
    assert month_abbreviations("en")["sept"] == 9 and month_abbreviations("en")["sep"] == 9
    assert month_abbreviations("es")["sep"] == 9 and month_abbreviations("es")["sept"] == 9
    assert "may" not in month_abbreviations("en")  # a full name, not an abbreviation
    assert {"sábado", "sabado", "miércoles", "miercoles"} <= weekday_words("es")


def test_detection_lexicon_reads_the_months_it_read_from_its_own_lists_before():
    en = load_lexicon("en")
    assert en.months == {
        "january": 1, "february": 2, "march": 3, "april": 4, "may": 5, "june": 6, "july": 7, "august": 8,
        "september": 9, "october": 10, "november": 11, "december": 12, "jan": 1, "feb": 2, "mar": 3, "apr": 4,
        "jun": 6, "jul": 7, "aug": 8, "sep": 9, "sept": 9, "oct": 10, "nov": 11, "dec": 12,
    }
    es = load_lexicon("es")
    # Spanish abbreviations are not months in detection: "mar" is the sea
    assert es.months == {"enero": 1, "febrero": 2, "marzo": 3, "abril": 4, "mayo": 5, "junio": 6, "julio": 7,
                         "agosto": 8, "septiembre": 9, "setiembre": 9, "octubre": 10, "noviembre": 11,
                         "diciembre": 12}
    assert en.weekdays == {"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"}
    assert es.weekdays == {"lunes", "martes", "miércoles", "miercoles", "jueves", "viernes", "sábado", "sabado",
                           "domingo"}


def test_unknown_language_is_refused_without_repeating_it():
    with pytest.raises(UnsupportedLanguageError, match="supported: en, es") as err:
        month_names("xx-secret")
    assert "xx-secret" not in str(err.value)
