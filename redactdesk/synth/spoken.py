"""Spoken forms of numbers, letters, e-mails and dates, the way callers say them on the phone.

Every function returns a list of tokens, one per spoken word ("four" "one" "double" "five"), in
English ("en") or Spanish ("es"). :func:`digits_from_spoken` is the inverse for digit strings, used
to check the ground truth (a card span must still pass Luhn after mapping its words back).
"""

from __future__ import annotations

import functools
import re

from num2words import num2words

from redactdesk.lang.alphabet import plain_letters, spelling_words
from redactdesk.lang.calendar import month_names
from redactdesk.lang.digits import DIGIT_WORDS
from redactdesk.synth.errors import SynthError

LANGUAGES = ("en", "es")

_DOUBLE = {"en": "double", "es": None}  # Spanish callers do not say "doble cinco"

_AS_IN = {"en": ["as", "in"], "es": ["de"]}

_EMAIL_WORDS = {
    "en": {".": "dot", "@": "at", "_": "underscore", "-": "dash"},
    "es": {".": "punto", "@": "arroba", "_": ["guion", "bajo"], "-": "guion"},
}


def check_language(language: str) -> str:
    if language not in LANGUAGES:
        raise SynthError(f"unsupported language {language!r}: the generator speaks {', '.join(LANGUAGES)}")
    return language


def words_of(text: str) -> list[str]:
    """Split a phrase (e.g. num2words output) into spoken tokens: no commas, hyphens split."""
    return [t for t in re.split(r"[\s\-]+", text.replace(",", " ")) if t]


def number_words(n: int, language: str) -> list[str]:
    """A cardinal number as tokens ("forty" "two"; "cuarenta" "y" "dos")."""
    return words_of(num2words(n, lang=check_language(language)))


def digit_word(d: str, language: str, *, zero: str = "zero") -> str:
    if d == "0" and language == "en" and zero == "oh":
        return "oh"
    return DIGIT_WORDS[language][int(d)]


def _pair_words(pair: str, language: str, zero: str) -> list[str]:
    """Two digits read as one number ("41" -> forty one); a leading zero is read as a digit."""
    if pair[0] == "0":
        return [digit_word("0", language, zero=zero), digit_word(pair[1], language, zero=zero)]
    return number_words(int(pair), language)


def digits_spoken(
    digits: str,
    language: str,
    *,
    grouping: str = "single",
    zero: str = "zero",
    doubles: bool = False,
    chunks: list[int] | None = None,
) -> list[str]:
    """Read a digit string aloud.

    ``grouping`` "single" reads digit by digit (with "double five" for repeats when ``doubles``);
    "pairs" reads two-digit numbers ("forty one eleven"). ``chunks`` gives the caller's grouping
    (e.g. [3, 3, 4] for a US phone): in "pairs" mode a chunk of odd length starts with one single
    digit. ``zero`` is "zero" or "oh" (English only).
    """
    check_language(language)
    if not digits.isdigit():
        raise SynthError("digits_spoken needs a string of digits")
    if grouping not in ("single", "pairs"):
        raise SynthError(f"unknown digit grouping {grouping!r} (use 'single' or 'pairs')")
    if zero not in ("zero", "oh"):
        raise SynthError(f"unknown zero word {zero!r} (use 'zero' or 'oh')")
    out: list[str] = []
    if grouping == "single":
        i = 0
        while i < len(digits):
            d = digits[i]
            if doubles and _DOUBLE[language] and i + 1 < len(digits) and digits[i + 1] == d:
                out += [_DOUBLE[language], digit_word(d, language, zero=zero)]
                i += 2
            else:
                out.append(digit_word(d, language, zero=zero))
                i += 1
        return out
    pieces: list[str] = []  # digit groups, each read as one number
    for chunk in _chunked(digits, chunks):
        if len(chunk) % 2:
            pieces.append(chunk[0])
            chunk = chunk[1:]
        pieces += [chunk[j : j + 2] for j in range(0, len(chunk), 2)]
    for k, piece in enumerate(pieces):
        nxt = pieces[k + 1] if k + 1 < len(pieces) else ""
        if len(piece) == 1:
            out.append(digit_word(piece, language, zero=zero))
        elif language == "en" and piece[1] == "0" and piece[0] >= "2" and len(nxt) == 1 and nxt != "0":
            # "seventy" + "seven" would be heard as 77: read the tens digit by digit instead
            out += [digit_word(piece[0], language, zero=zero), digit_word("0", language, zero=zero)]
        else:
            out += _pair_words(piece, language, zero)
    return out


def _chunked(digits: str, chunks: list[int] | None) -> list[str]:
    if not chunks:
        return [digits]
    if sum(chunks) != len(digits):
        raise SynthError(f"chunks {chunks} do not add up to {len(digits)} digits")
    out, i = [], 0
    for c in chunks:
        out.append(digits[i : i + c])
        i += c
    return out


@functools.lru_cache(maxsize=4)
def _spoken_table(language: str) -> dict[tuple[str, ...], str]:
    """Token sequences that stand for digits: single digits, "oh", two-digit numbers, "double X"."""
    table: dict[tuple[str, ...], str] = {}
    for n in range(10, 100):
        table[tuple(w.lower() for w in number_words(n, language))] = f"{n:02d}"
    for d, w in enumerate(DIGIT_WORDS[language]):
        table[(w,)] = str(d)
        if _DOUBLE[language]:
            table[(_DOUBLE[language], w)] = str(d) * 2
    if language == "en":
        table[("oh",)] = "0"
        table[("double", "oh")] = "00"
    return table


def digits_from_spoken(tokens: list[str], language: str) -> str:
    """Map spoken digit tokens back to a digit string (longest match first); other tokens are skipped."""
    table = _spoken_table(check_language(language))
    longest = max(len(k) for k in table)
    toks = [t.lower() for t in tokens]
    out: list[str] = []
    i = 0
    while i < len(toks):
        for n in range(min(longest, len(toks) - i), 0, -1):
            key = tuple(toks[i : i + n])
            if key in table:
                out.append(table[key])
                i += n
                break
        else:
            i += 1
    return "".join(out)


def spell(word: str, language: str, *, style: str = "letters") -> list[str]:
    """Spell a word letter by letter: "S" "M" ... or "S" "as" "in" "Sam" ... (``style`` "as_in")."""
    check_language(language)
    if style not in ("letters", "as_in"):
        raise SynthError(f"unknown spelling style {style!r} (use 'letters' or 'as_in')")
    out: list[str] = []
    for letter in plain_letters(word):
        out.append(letter)
        if style == "as_in":
            out += [*_AS_IN[language], spelling_words(language).get(letter, letter)]
    return out


def email_spoken(address: str, language: str, *, zero: str = "zero") -> list[str]:
    """Read an e-mail aloud: "john" "dot" "smith" "at" "example" "dot" "com"; digits one by one."""
    check_language(language)
    out: list[str] = []
    for piece in re.findall(r"[A-Za-z]+|\d|[._@\-]", address):
        if piece.isdigit():
            out.append(digit_word(piece, language, zero=zero))
        elif piece in _EMAIL_WORDS[language]:
            w = _EMAIL_WORDS[language][piece]
            out += w if isinstance(w, list) else [w]
        else:
            out.append(piece.lower())
    return out


def ordinal_day(day: int, language: str) -> list[str]:
    if language == "en":
        return words_of(num2words(day, to="ordinal", lang="en"))
    return ["primero"] if day == 1 else number_words(day, language)


def year_words(year: int, language: str) -> list[str]:
    if language == "en":
        return words_of(num2words(year, to="year", lang="en"))
    return number_words(year, language)


def date_spoken(year: int, month: int, day: int, language: str, *, style: str = "month_first",
                zero: str = "zero") -> list[str]:
    """A date as said on the phone.

    en: "March third nineteen eighty four" (month_first), "the third of March ..." (day_first),
    "oh three oh three eighty four" (numeric). es: "tres de marzo de mil novecientos ..." or
    numeric "tres del tres del ochenta y cuatro".
    """
    check_language(language)
    if style not in ("month_first", "day_first", "numeric"):
        raise SynthError(f"unknown date style {style!r} (use month_first, day_first or numeric)")
    m = month_names(language)[month - 1]
    if language == "en":
        if style == "month_first":
            return [m, *ordinal_day(day, "en"), *year_words(year, "en")]
        if style == "day_first":
            return ["the", *ordinal_day(day, "en"), "of", m, *year_words(year, "en")]
        yy = f"{year % 100:02d}"
        return [*digits_spoken(f"{month:02d}", "en", grouping="pairs", zero=zero),
                *digits_spoken(f"{day:02d}", "en", grouping="pairs", zero=zero),
                *digits_spoken(yy, "en", grouping="pairs", zero=zero)]
    if style == "numeric":
        yy = number_words(year % 100, "es") if year % 100 >= 10 else ["cero", *number_words(year % 10, "es")]
        return [*ordinal_day(day, "es"), "del", *number_words(month, "es"), "del", *yy]
    return [*ordinal_day(day, "es"), "de", m, "de", *year_words(year, "es")]


def expiry_spoken(month: int, year: int, language: str, *, style: str = "numeric",
                  zero: str = "zero") -> list[str]:
    """Card expiry: "oh four twenty seven" / "April twenty twenty seven"; es "cero cuatro veintisiete"."""
    check_language(language)
    yy = year % 100
    if style == "numeric":
        return [*digits_spoken(f"{month:02d}", language, grouping="pairs", zero=zero),
                *digits_spoken(f"{yy:02d}", language, grouping="pairs", zero=zero)]
    if language == "en":
        return [month_names("en")[month - 1], *year_words(year, "en")]
    return [month_names("es")[month - 1], "de", *year_words(year, "es")]


def money_spoken(cents: int, language: str, *, style: str = "full") -> list[str]:
    """An amount: "one hundred and twenty four dollars and fifty cents"; es "... euros con cincuenta"."""
    check_language(language)
    units, rest = divmod(cents, 100)
    if language == "en":
        cur = ["dollar"] if units == 1 else ["dollars"]
        if style == "short" and rest:
            return [*number_words(units, "en"), *number_words(rest, "en")]
        out = [*number_words(units, "en"), *cur]
        if rest:
            out += ["and", *number_words(rest, "en"), "cent" if rest == 1 else "cents"]
        return out
    cur = ["euro"] if units == 1 else ["euros"]
    out = [*_apocope(number_words(units, "es")), *cur]
    if rest:
        out += ["con", *_apocope(number_words(rest, "es"))]
        if style == "full":
            out.append("céntimo" if rest == 1 else "céntimos")
    return out


def _apocope(words: list[str]) -> list[str]:
    """Spanish "uno" before a noun: "un euro", "veintiún euros", "treinta y un céntimos"."""
    if words and words[-1].endswith("uno"):
        last = words[-1][:-3] + ("ún" if words[-1] != "uno" else "un")
        return [*words[:-1], last]
    return words
