"""Digit strings in spoken form: parse a span into units, draw a new value of the same shape, say it.

A *template* keeps every token of the original: digit words ("four"), "double five", number words
("forty one", "cuarenta y cuatro"), written numerals ("4111", "555-0123"), single capital letters
(IDs such as "X one two ... Z") and literal words ("dash", "euros") that stay as they are. The
value is the concatenation of the units (digits and letters). :func:`fill` draws a new value
whose every unit can be said in the original's form (same digit count, same number-word
signature, repeated digits stay repeated), subject to a validator (Luhn, check letters) and
optional fixed positions (fictional phone ranges). :func:`render` says a value in the template's
form, falling back to plain digit words for a unit that cannot keep its form (e.g. after an edit).
"""

from __future__ import annotations

import functools
import random
import re
import string
from collections.abc import Callable
from dataclasses import dataclass, field

from redactdesk.lang.alphabet import ONE_LETTER_WORDS
from redactdesk.lang.digits import AGE_WORD, CURRENCY_SIGNS, DIGIT_WORDS
from redactdesk.substitute.numbers import (
    REPEAT_WORDS,
    ZERO_ALIASES,
    number_table,
)
from redactdesk.substitute.text import apply_case, case_of, split_punct

LETTERS = string.ascii_uppercase
_NUMERAL = re.compile(r"^\d(?:[\d\-./,]*\d)?$")  # "2,500": a thousands comma stays
# an amount written with its currency's sign ("$1,200", "US$5.99", "45,50€", "£3.2m"): the sign,
# the separators and a size letter stay as they are, the digits change
_SIGN = f"[{re.escape(CURRENCY_SIGNS)}]"
_WRITTEN_AMOUNT = re.compile(rf"^(?:[A-KM-Z]{{0,3}}{_SIGN})?\d(?:[\d,.'\u00a0\u202f]*\d)?(?:k|m|bn|K|M)?{_SIGN}?$")
_CURRENCY = re.compile(_SIGN)
# A written code mixing capitals and digits ("JH704755", "H704725", "SP-733551"): a recogniser
# writes a spelled reference this way when it hears it clearly.
_CODE = re.compile(r"^(?=[^\d]*\d)(?=[^A-Za-z]*[A-Za-z])[A-Za-z\d](?:[A-Za-z\d\-./]*[A-Za-z\d])?$")


@dataclass
class Unit:
    """One spoken unit covering tokens ``[start, end)`` of the span, standing for ``text``."""

    start: int
    end: int
    kind: str  # digit | repeat | number | numeral | letter
    text: str
    tokens: tuple[str, ...] = ()  # lower-case words of the original (number units)
    zero: str = ""  # "oh" when the caller said oh for 0
    layout: str = ""  # numeral with separators: "ddd-dddd"
    suffix: str = ""  # written on after the number in the same word: "-year-old"


@dataclass
class Template:
    """The original tokens with their units; literal tokens are the ones no unit covers."""

    tokens: list[str]
    language: str
    units: list[Unit] = field(default_factory=list)

    @property
    def value(self) -> str:
        return "".join(u.text for u in self.units)

    @property
    def digits(self) -> str:
        return "".join(c for c in self.value if c.isdigit())

    def literal_indices(self) -> list[int]:
        covered = {i for u in self.units for i in range(u.start, u.end)}
        return [i for i in range(len(self.tokens)) if i not in covered]


def _digit_of(word: str, language: str) -> str | None:
    if word in DIGIT_WORDS[language]:
        return str(DIGIT_WORDS[language].index(word))
    if word in ZERO_ALIASES[language]:
        return "0"
    return None


def parse(tokens: list[str], language: str, *, letters: bool = False, typed_codes: bool = False) -> Template:
    """Find the digit (and, with ``letters``, capital-letter) units of a span's tokens; with
    ``typed_codes`` (a span that is one code: a reference, a national number, a plate), lower-case
    letter groups beside written digits too."""
    table = number_table(language)
    cores = [split_punct(t)[1] for t in tokens]
    low = [c.lower() for c in cores]
    tpl = Template(list(tokens), language)
    i, n = 0, len(tokens)
    # a code typed in lower case ("ab12 cde", "jg 10 37 58 a"): its letter groups beside its digits
    # are the code's, not words to keep
    typed = letters and typed_codes and any(ch.isdigit() for c in cores for ch in c)
    while i < n:
        c, lc = cores[i], low[i]
        age = AGE_WORD.fullmatch(c) if c else None  # "67-year-old": the number changes, the words stay
        if age:
            digits = age.group(1)
            tpl.units.append(Unit(i, i + 1, "numeral", digits, layout="d" * len(digits), suffix=age.group(2)))
            i += 1
            continue
        if c and _CURRENCY.search(c) and _WRITTEN_AMOUNT.match(c):
            tpl.units.append(Unit(i, i + 1, "numeral", re.sub(r"\D", "", c), layout=re.sub(r"\d", "d", c)))
            i += 1
            continue
        if c and _NUMERAL.match(c.lstrip("-#").rstrip("°º")):  # "-182946", "#4821", "40.7128°": the signs stay
            layout = re.sub(r"\d", "d", c)
            tpl.units.append(Unit(i, i + 1, "numeral", re.sub(r"\D", "", c), layout=layout))
            i += 1
            continue
        if letters and c and (_CODE.match(c.strip("-./#")) or re.fullmatch(r"[A-Z]{2,4}", c) or (
                typed and re.fullmatch(r"[a-z]{1,4}", c) and _beside_digits(cores, i)
                and table.parse(low, i) is None)):  # "-H704725", "PT", the "cde" of "ab12 cde"
            layout = re.sub(r"[A-Za-z]", "L", re.sub(r"\d", "d", c))
            tpl.units.append(Unit(i, i + 1, "numeral", re.sub(r"[^A-Za-z\d]", "", c).upper(), layout=layout))
            i += 1
            continue
        if lc in REPEAT_WORDS[language] and i + 1 < n and _digit_of(low[i + 1], language) is not None:
            d = _digit_of(low[i + 1], language)
            assert d is not None
            zero = "oh" if low[i + 1] in ZERO_ALIASES[language] else ""
            tpl.units.append(Unit(i, i + 2, "repeat", d * REPEAT_WORDS[language][lc],
                                  (lc, low[i + 1]), zero=zero))
            i += 2
            continue
        if lc in ZERO_ALIASES[language] and (lc != "o" or c == "O" or c == "o" and n > 1):
            tpl.units.append(Unit(i, i + 1, "digit", "0", (lc,), zero="oh"))
            i += 1
            continue
        m = table.parse(low, i)
        if m is not None:
            value, k = m
            kind = "digit" if k == 1 and value < 10 and low[i] in DIGIT_WORDS[language] else "number"
            tpl.units.append(Unit(i, i + k, kind, str(value), tuple(low[i : i + k])))
            i += k
            continue
        if letters and (named := _letter_names(language).get(lc)) is not None and len(lc) > 1 and (
                _beside_digits(cores, i) or typed_codes):
            # a letter said by its name ("... nueve ocho equis", "zeta uno dos ..."): the code's letter,
            # said by the name of the new one
            tpl.units.append(Unit(i, i + 1, "letter", named.upper(), tokens=(c,), layout="name"))
            i += 1
            continue
        if letters and len(c) == 1 and c.isalpha() and (c.isupper() or _lower_letter(low, i, language, typed_codes)):
            # a letter of the code; in a lower-case transcript too ("q q one two three four five six c")
            tpl.units.append(Unit(i, i + 1, "letter", c.upper(), tokens=(c,)))
            i += 1
            continue
        i += 1
    return tpl


def _beside_digits(cores: list[str], i: int) -> bool:
    """Is a written token with digits next to token ``i``?"""
    return any(0 <= k < len(cores) and any(ch.isdigit() for ch in cores[k]) for k in (i - 1, i + 1))


@functools.lru_cache(maxsize=4)
def _letter_names(language: str) -> dict[str, str]:
    """The language's names of letters ("equis" -> "x", "zeta" -> "z"), one word each."""
    from redactdesk.lang.lexicon import load_lexicon

    return {k: v for k, v in load_lexicon(language).letter_names.items() if " " not in k and len(v) == 1}


@functools.lru_cache(maxsize=4)
def _name_of_letter(language: str) -> dict[str, str]:
    """Each letter's first-listed name ("x" -> "equis")."""
    out: dict[str, str] = {}
    for name, letter in _letter_names(language).items():
        out.setdefault(letter, name)
    return out


def _lower_letter(low: list[str], i: int, language: str, code: bool = False) -> bool:
    """Is the lower-case one-letter token ``i`` a letter of a code read aloud? A one-letter word
    ("a", "y") only beside another letter — or, in a span that is one code (``code``), at its first or
    last token: "y cuatro siete uno dos nueve nueve cero m" is an NIE whose Y is also "and", "... tres
    e" one whose check letter is (the detector took them into the item because the ID is then valid)."""
    if len(low) < 2:
        return False
    if low[i] not in ONE_LETTER_WORDS.get(language, frozenset()):
        return True
    if code and i in (0, len(low) - 1):
        return True
    return any(0 <= k < len(low) and len(low[k]) == 1 and low[k].isalpha() for k in (i - 1, i + 1))


_FIXED_WORDS = {"un", "una", "uno", "veintiún", "veintiuna", "one", "a"}


@functools.lru_cache(maxsize=64)
def _wider(language: str, n_digits: int, n_tokens: int) -> list[str]:
    """Values with the same digit count said in one more word ("mil" → "dos mil")."""
    table = number_table(language)
    out = sorted({str(v) for toks, v in table.value_of.items()
                  if len(str(v)) == n_digits and len(toks) == n_tokens + 1 and not (set(toks) & _FIXED_WORDS)})
    return out


def _unit_slots(u: Unit, language: str) -> list[list[str]]:
    """Candidate strings per slot; a slot is one character except for number units."""
    if u.kind == "digit":
        return [list("0123456789")]
    if u.kind == "repeat":
        return [[d * len(u.text) for d in "0123456789"]]
    if u.kind == "number":
        table = number_table(language)
        forms = table.same_form(u.tokens) or [u.tokens]
        values = sorted({str(table.value_of[f]) for f in forms if f in table.value_of} or {u.text})
        if u.tokens in (("veintiún",), ("veintiuna",)):  # before a plural noun any other one-word 10-29 fits
            return [[str(v) for v in range(10, 30) if v != 21]]
        if len(values) == 1 and not any(t in _FIXED_WORDS for t in u.tokens):
            values = _wider(language, len(u.text), len(u.tokens)) or values  # "mil" has no other one-word form
        return [values]
    if u.kind == "letter":
        return [list(LETTERS)]
    return [list(LETTERS) if ch.isalpha() else list("0123456789") for ch in u.text]  # numeral or code


TENS_JOINERS = {"y", "and"}


def tens_pairs(tpl: Template) -> list[tuple[int, int]]:
    """Value positions (the tens' 0, the unit) of numbers Whisper writes as "70 y 2" (setenta y
    dos): the new value must say tens and a unit again, never "96 y 6"."""
    starts, pos = [], 0
    for u in tpl.units:
        starts.append(pos)
        pos += len(u.text)
    out = []
    for k in range(len(tpl.units) - 1):
        a, b = tpl.units[k], tpl.units[k + 1]
        between = [split_punct(t)[1].lower() for t in tpl.tokens[a.end:b.start]]
        if (a.kind == "numeral" and len(a.text) == 2 and a.text.isdigit() and a.text[1] == "0" and a.text[0] != "0"
                and between in (["y"], ["and"]) and len(b.text) == 1 and b.text.isdigit() and b.text != "0"):
            out.append((starts[k] + 1, starts[k + 1]))
    return out


def leading_digits(tpl: Template) -> list[int]:
    """Value positions of the first digit of written numbers that do not start with 0 ("760"): a
    new "069" would be said another way, so these stay non-zero."""
    out, pos = [], 0
    for u in tpl.units:
        if u.kind == "numeral" and len(u.text) >= 2 and u.text.isdigit() and u.text[0] != "0":
            out.append(pos)
        pos += len(u.text)
    return out


def fill(
    tpl: Template,
    rng: random.Random,
    *,
    validator: Callable[[str], bool] | None = None,
    fixed_options: list[dict[int, str]] | None = None,
    avoid: str | None = None,
    unit_ok: Callable[[Unit, str], bool] | None = None,
    repair: Callable[[str], str] | None = None,
    tries: int = 4000,
) -> str | None:
    """A new value with the template's shape, or None when no value meets the constraints.

    ``fixed_options`` are tried in order: each maps positions of the value to required characters
    (e.g. the 555 exchange of a fictional US phone number); ``{}`` means no fixed positions.
    ``unit_ok(unit, candidate)`` can rule out values of single units (e.g. "one" before "cents").
    ``repair(value)`` may set check digits that sit anywhere (an IBAN's); the result must still be
    sayable in the template's form.
    """
    slots: list[list[str]] = []
    for u in tpl.units:
        unit_slots = _unit_slots(u, tpl.language)
        if unit_ok is not None and len(unit_slots) == 1:
            kept = [c for c in unit_slots[0] if unit_ok(u, c)]
            unit_slots = [kept or unit_slots[0]]
        slots += unit_slots
    if not slots:
        return None
    base_ok = validator or (lambda s: True)
    pairs = tens_pairs(tpl)
    leads = leading_digits(tpl)
    if pairs or leads:
        inner_ok = base_ok

        def base_ok(s: str) -> bool:
            return inner_ok(s) and all(s[i - 1] != "0" and s[i] == "0" and s[j] != "0" for i, j in pairs) and all(
                s[i] != "0" for i in leads)
    if _needs_stability(tpl):
        def ok(s: str) -> bool:
            return base_ok(s) and stable(tpl, s)
    else:
        ok = base_ok
    for fixed in fixed_options or [{}]:
        cands: list[list[str]] = []
        pos = 0
        for cand in slots:
            width = len(cand[0])
            kept = [c for c in cand if all(fixed.get(pos + j, ch) == ch for j, ch in enumerate(c))]
            cands.append(kept)
            pos += width
        if any(not c for c in cands):
            continue
        if repair is not None:
            for _ in range(tries):
                fixed_value = repair("".join(rng.choice(c) for c in cands))
                if fixed_value != avoid and ok(fixed_value) and sayable(tpl, fixed_value) and all(
                        fixed.get(i, ch) == ch for i, ch in enumerate(fixed_value)):
                    return fixed_value
            continue
        for _ in range(tries):
            head = "".join(rng.choice(c) for c in cands[:-1])
            last = [c for c in cands[-1] if ok(head + c) and head + c != avoid]
            if last:
                return head + rng.choice(last)
    return None


def _needs_stability(tpl: Template) -> bool:
    return any(a.kind == "number" and a.end == b.start for a, b in zip(tpl.units, tpl.units[1:], strict=False))


def stable(tpl: Template, value: str) -> bool:
    """Does ``value``, said in the template's form, read back as the same units? ("eighty" then
    "two" would be heard as eighty-two, where the original's "twenty" "zero" could not merge.)"""
    coded = any(u.kind == "letter" for u in tpl.units)  # read back as the code was read (typed_codes)
    again = parse(render(tpl, value), tpl.language, letters=coded, typed_codes=coded)
    return again.value == value and len(again.units) == len(tpl.units)


def sayable(tpl: Template, value: str) -> bool:
    """Can every unit of the template say its part of ``value`` in its original form?"""
    if len(value) != len(tpl.value):
        return False
    pos = 0
    for u in tpl.units:
        part = value[pos : pos + len(u.text)]
        pos += len(u.text)
        slots = _unit_slots(u, tpl.language)
        if len(slots) == 1:
            if part not in slots[0]:
                return False
        elif not all(ch in slot for ch, slot in zip(part, slots, strict=True)):
            return False
    return True


def _digit_words(text: str, language: str, zero: str) -> list[str]:
    out = []
    for ch in text:
        if ch.isdigit():
            out.append(zero if ch == "0" and zero else DIGIT_WORDS[language][int(ch)])
        else:
            out.append(ch)
    return out


def _say_unit(u: Unit, text: str, language: str, zero: str) -> list[str]:
    table = number_table(language)
    if u.kind == "letter" and u.layout == "name" and text.isalpha():
        return [_name_of_letter(language).get(text.lower(), text.upper())]
    if u.kind == "letter" or (len(text) == 1 and text.isalpha() and u.kind != "numeral"):
        return [text.upper()] if text.isalpha() else _digit_words(text, language, zero)
    if u.kind == "numeral":
        if len(text) == u.layout.count("d") + u.layout.count("L"):
            it = iter(text)
            return ["".join(next(it) if ch in "dL" else ch for ch in u.layout)]
        return [text]
    if not text.isdigit():
        return [ch if ch.isalpha() else DIGIT_WORDS[language][int(ch)] for ch in text]
    if u.kind == "digit":
        return _digit_words(text, language, u.zero or zero)
    if u.kind == "repeat":
        if len(set(text)) == 1 and len(text) == len(u.text):
            return [u.tokens[0], *_digit_words(text[0], language, u.zero or zero)]
        return _digit_words(text, language, u.zero or zero)
    if text[0] == "0" and len(text) > 1:
        return _digit_words(text, language, zero)
    return list(table.render(int(text), like=u.tokens))


def render(tpl: Template, value: str) -> list[str]:
    """The template's tokens with its units saying ``value`` (punctuation and case kept)."""
    zero = next((u.zero for u in tpl.units if u.zero), "")
    out: list[str] = []
    total = len(tpl.value)
    pieces: list[str]
    if len(value) == total:
        pieces, pos = [], 0
        for u in tpl.units:
            pieces.append(value[pos : pos + len(u.text)])
            pos += len(u.text)
    else:  # an edited value of another length: say it all in the first unit, drop the others
        pieces = [value] + [""] * (len(tpl.units) - 1)
    by_start = {u.start: (u, p) for u, p in zip(tpl.units, pieces, strict=True)}
    i = 0
    while i < len(tpl.tokens):
        if i in by_start:
            u, piece = by_start[i]
            lead, first_core, _ = split_punct(tpl.tokens[u.start])
            trail = split_punct(tpl.tokens[u.end - 1])[2]
            said = _say_unit(u, piece, tpl.language, zero) if piece else []
            if said:
                if u.kind != "letter" and u.kind != "numeral":
                    said[0] = apply_case(said[0], "title" if case_of(first_core) == "title" else "lower")
                elif u.kind == "letter" and u.tokens and u.tokens[0].islower():
                    said = [w.lower() for w in said]
                said[0] = lead + said[0]
                said[-1] = said[-1] + u.suffix + trail
            out += said
            i = u.end
        else:
            out.append(tpl.tokens[i])
            i += 1
    return out
