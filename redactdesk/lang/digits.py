"""Digit and number words, and the words a recogniser writes for a spoken digit.

- :data:`DIGIT_WORDS`: the ten digit words, zero first ("zero".."nine", "cero".."nueve").
- :data:`OTHER_DIGIT_WORDS`: other words said for one digit: English "oh" (zero), Spanish "una" (one).
- :data:`DIGIT_VALUES`: both of the above, word -> digit; :data:`SINGLE_DIGIT_WORDS` their words.
- :data:`NUMBER_WORDS`: the words of cardinal numbers up to thousands, digit words included.
- :data:`SPANISH_TENS`: "treinta".."noventa", joined to their units with "y".
- :data:`MISHEARD_DIGITS`: words a recogniser writes for a digit said inside a digit string
  ("for one one" = 4 1 1; "won" = 1). Only read as digits between other digits.
- :data:`CURRENCY_SIGNS`: the signs an amount is written with ("$1,200", "45,50€").
- :data:`AGE_WORD`: an age written as one word ("67-year-old", "3-month-olds"): its number, then
  the words after it (hyphen included).
"""

from __future__ import annotations

import re

# the signs an amount is written with, before or after it ("$1,200", "45,50€"): detection reads
# such amounts and substitution changes their digits
CURRENCY_SIGNS = "$€£¥₹₩₽"
AGE_WORD = re.compile(r"(\d{1,3})([-–](?:year|yr|month|week)s?[-–]olds?)", re.IGNORECASE)

DIGIT_WORDS: dict[str, tuple[str, ...]] = {
    "en": ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"),
    "es": ("cero", "uno", "dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve"),
}
OTHER_DIGIT_WORDS: dict[str, dict[str, str]] = {"en": {"oh": "0"}, "es": {"una": "1"}}

MISHEARD_DIGITS: dict[str, dict[str, str]] = {
    "en": {"for": "4", "to": "2", "too": "2", "won": "1", "ate": "8"},
    "es": {},
}

SPANISH_TENS = frozenset("treinta cuarenta cincuenta sesenta setenta ochenta noventa".split())

_LARGER_WORDS = {
    "en": frozenset(
        "ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty thirty forty "
        "fifty sixty seventy eighty ninety hundred thousand".split()
    ),
    "es": frozenset(
        "diez once doce trece catorce quince dieciséis dieciseis diecisiete dieciocho diecinueve veinte "
        "veintiuno veintidós veintitrés veinticuatro veinticinco veintiséis veintisiete veintiocho "
        "veintinueve cien ciento mil".split()
    ) | SPANISH_TENS,
}


# every word said for one digit -> the digit ("five": "5", "oh": "0", "una": "1")
DIGIT_VALUES: dict[str, dict[str, str]] = {
    lang: {**{w: str(i) for i, w in enumerate(words)}, **OTHER_DIGIT_WORDS[lang]} for lang, words in DIGIT_WORDS.items()
}
SINGLE_DIGIT_WORDS: dict[str, frozenset[str]] = {lang: frozenset(DIGIT_VALUES[lang]) for lang in DIGIT_WORDS}
NUMBER_WORDS: dict[str, frozenset[str]] = {lang: SINGLE_DIGIT_WORDS[lang] | _LARGER_WORDS[lang] for lang in DIGIT_WORDS}
