"""Number words: parse spoken cardinals and keep their grammatical form when the value changes.

A run of number words is split into *units* by longest match against a table of every cardinal
0-9999 as num2words writes it (plus the variants callers use: "one hundred twelve" without "and";
Spanish "un"/"una"). Each unit has a *signature*: the class of each of its words. For Spanish the
classes follow the ES-Port categories (seed 004): I units (uno..nueve), II 10-29 (one word: diez,
veintidós), III tens 30-90 (treinta..noventa), IV hundreds (cien, ciento, doscientos...), plus
"y", "mil" and zero. A surrogate is drawn from the units with the same signature, so "cuarenta y
cuatro" (III y I) becomes another III y I number and never "diez y cuatro"; zero never appears
in a unit position ("treinta y cero").
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from num2words import num2words

from redactdesk.lang.digits import DIGIT_WORDS
from redactdesk.substitute.errors import SubstitutionError

LANGUAGES = ("en", "es")
MAX_VALUE = 9999

ZERO_ALIASES = {"en": ("oh", "o"), "es": ()}
REPEAT_WORDS = {"en": {"double": 2, "triple": 3}, "es": {}}
CONNECTORS = {"en": "and", "es": "y"}


def check_language(language: str) -> str:
    if language not in LANGUAGES:
        raise SubstitutionError(f"unsupported language {language!r}: substitution knows {', '.join(LANGUAGES)}")
    return language


def _tokens(text: str) -> tuple[str, ...]:
    return tuple(t for t in re.split(r"[\s\-]+", text.replace(",", " ").lower()) if t)


def _es_class(tok: str) -> str:
    if tok == "cero":
        return "Z"
    if tok in ("un", "una"):
        return "U1" if tok == "un" else "U1f"
    if tok in DIGIT_WORDS["es"][1:]:
        return "I"
    if tok == "y":
        return "&"
    if tok == "mil":
        return "K"
    if tok in ("cien", "ciento") or tok.endswith(("cientos", "cientas")) or tok == "quinientos":
        return "IV"
    if tok in ("treinta", "cuarenta", "cincuenta", "sesenta", "setenta", "ochenta", "noventa"):
        return "III"
    if tok in ("veintiún", "veintiuna"):
        return "II1" if tok == "veintiún" else "II1f"
    return "II"  # diez..veintinueve


def _en_class(tok: str) -> str:
    if tok == "zero":
        return "Z"
    if tok in DIGIT_WORDS["en"][1:]:
        return "I"
    if tok == "and":
        return "&"
    if tok == "hundred":
        return "H"
    if tok == "thousand":
        return "K"
    if tok in ("twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"):
        return "III"
    return "II"  # ten..nineteen


def word_class(tok: str, language: str) -> str:
    return _es_class(tok) if language == "es" else _en_class(tok)


def signature(tokens: tuple[str, ...], language: str) -> tuple[str, ...]:
    return tuple(word_class(t, language) for t in tokens)


@dataclass(frozen=True)
class NumberTable:
    """Every cardinal 0..9999 in one language, as token tuples, grouped by signature."""

    language: str
    value_of: dict[tuple[str, ...], int]
    by_signature: dict[tuple[str, ...], list[tuple[str, ...]]]
    forms: dict[int, list[tuple[str, ...]]]
    longest: int

    def parse(self, toks: list[str], i: int) -> tuple[int, int] | None:
        """Longest number starting at ``toks[i]`` (lower-case): (value, token count) or None."""
        for n in range(min(self.longest, len(toks) - i), 0, -1):
            key = tuple(toks[i : i + n])
            if key in self.value_of:
                return self.value_of[key], n
        return None

    def same_form(self, tokens: tuple[str, ...]) -> list[tuple[str, ...]]:
        """All numbers written with the same signature (same word classes, same word count)."""
        return self.by_signature.get(signature(tokens, self.language), [])

    def render(self, value: int, like: tuple[str, ...] | None = None) -> tuple[str, ...]:
        """Words of ``value``; when ``like`` is given, prefer the variant with its signature."""
        forms = self.forms.get(value, [])
        if not forms:
            return _tokens(num2words(value, lang=self.language))
        if like is not None:
            sig = signature(like, self.language)
            for f in forms:
                if signature(f, self.language) == sig:
                    return f
            if "and" not in like and self.language == "en":
                for f in forms:
                    if "and" not in f:
                        return f
        return forms[0]


@functools.lru_cache(maxsize=256)
def _small(value: int, language: str) -> tuple[str, ...]:
    """The words of a number under a hundred (asked for once per hundreds form of the table)."""
    return _tokens(num2words(value, lang=language))


def _variants(value: int, language: str) -> list[tuple[str, ...]]:
    base = _tokens(num2words(value, lang=language))
    out = [base]
    if language == "en" and "and" in base:
        out.append(tuple(t for t in base if t != "and"))
    if language == "en" and 1100 <= value <= 9999 and (value // 100) % 10:
        # "fifteen hundred", "twelve hundred and five": how English says a house number or a year's
        # amount in hundreds (num2words says "one thousand, five hundred")
        head = (*_small(value // 100, language), "hundred")
        rest = value % 100
        if not rest:
            out.append(head)
        else:
            tail = _small(rest, language)
            out += [(*head, "and", *tail), (*head, *tail)]
    if language == "es" and base and base[-1] in ("uno", "veintiuno"):
        short = "un" if base[-1] == "uno" else "veintiún"
        fem = "una" if base[-1] == "uno" else "veintiuna"
        out.append((*base[:-1], short))
        out.append((*base[:-1], fem))
    return out


@functools.lru_cache(maxsize=4)
def number_table(language: str) -> NumberTable:
    check_language(language)
    value_of: dict[tuple[str, ...], int] = {}
    for v in range(MAX_VALUE + 1):
        for toks in _variants(v, language):
            value_of.setdefault(toks, v)
    by_sig: dict[tuple[str, ...], list[tuple[str, ...]]] = {}
    forms: dict[int, list[tuple[str, ...]]] = {}
    for toks, v in value_of.items():
        by_sig.setdefault(signature(toks, language), []).append(toks)
        forms.setdefault(v, []).append(toks)
    return NumberTable(language, value_of, by_sig, forms, max(len(k) for k in value_of))


def is_number_word(tok: str, language: str) -> bool:
    t = tok.lower()
    table = number_table(language)
    return (t,) in table.value_of or t in ZERO_ALIASES[language] or t in REPEAT_WORDS[language] or (
        t == CONNECTORS[language])
