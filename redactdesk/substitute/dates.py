"""Dates in spoken form: parse them, shift them by the conversation's offset, say them again.

Every date of a conversation moves by the same number of days, a whole number of weeks, so
relations survive: "today is Monday the 25th, Friday is the 29th" stays true, a weekday stays
with its day number, and a date said twice in two forms ("the tenth of the ninth", "September
tenth") gets the same surrogate. Month names on their own move by the same number of months as
the dates. Card expiry dates move by a per-item number of months.
"""

from __future__ import annotations

import calendar
import datetime as dt
import random
import re
from dataclasses import dataclass, field

from num2words import num2words

from redactdesk.core.types import Span
from redactdesk.lang.calendar import LANGUAGES, month_abbreviations, month_keys, month_words, weekday_keys
from redactdesk.lang.digits import DIGIT_WORDS
from redactdesk.substitute import digits as D
from redactdesk.substitute.base import Context, Generator, Item, Occurrence, Piece, register
from redactdesk.substitute.numbers import is_number_word, number_table
from redactdesk.substitute.text import apply_case, case_of, norm, split_punct

# key forms (lower case, no accents) of the month and weekday names, from Babel (redactdesk.lang.calendar)
MONTHS = {lang: list(month_keys(lang)) for lang in LANGUAGES}
WEEKDAYS = {lang: list(weekday_keys(lang)) for lang in LANGUAGES}
# other month words read as a month: regional spellings ("setiembre") and abbreviations ("sept")
MONTH_ALIASES = {
    lang: {k: v for k, v in {**month_words(lang), **month_abbreviations(lang)}.items() if k not in MONTHS[lang]}
    for lang in LANGUAGES
}
REF_YEAR = 2000  # a leap year, for dates said without a year (29 February stays valid)


def month_of(token: str, language: str) -> int | None:
    k = norm(split_punct(token)[1])
    if k in MONTHS[language]:
        return MONTHS[language].index(k) + 1
    return MONTH_ALIASES[language].get(k)


def _ordinals(language: str) -> dict[tuple[str, ...], int]:
    out: dict[tuple[str, ...], int] = {}
    if language == "en":
        for d in range(1, 32):
            words = tuple(t for t in re.split(r"[\s\-]+", num2words(d, to="ordinal", lang="en").replace(",", "")) if t)
            out[words] = d
    else:
        out[("primero",)] = 1
    return out


_NUM_ORDINAL = re.compile(r"^(\d{1,2})(st|nd|rd|th|º|°)$", re.I)


@dataclass
class DateValue:
    year: int | None = None
    month: int | None = None
    day: int | None = None
    yy: bool = False  # the year was said with two digits

    def iso(self) -> str:
        y = f"{self.year:04d}" if self.year is not None else "XXXX"
        m = f"{self.month:02d}" if self.month is not None else "XX"
        d = f"{self.day:02d}" if self.day is not None else "XX"
        return f"{y}-{m}-{d}"

    @classmethod
    def from_iso(cls, text: str) -> DateValue | None:
        m = re.match(r"^(\d{4}|XXXX)-(\d{2}|XX)-(\d{2}|XX)$", text.strip())
        if not m:
            return None
        y, mo, d = (None if p.startswith("X") else int(p) for p in m.groups())
        if mo is not None and not 1 <= mo <= 12 or d is not None and not 1 <= d <= 31:
            return None
        return cls(y, mo, d)

    def as_date(self, ref_month: int | None = None) -> dt.date | None:
        """The calendar date (year 2000 when none was said; ``ref_month`` for a day said alone)."""
        month = self.month if self.month is not None else ref_month
        if month is None or self.day is None:
            return None
        try:
            return dt.date(self.year if self.year is not None else REF_YEAR, month, self.day)
        except (ValueError, OverflowError):
            return None


@dataclass
class Field:
    role: str  # day | month | year
    start: int
    end: int
    form: str  # month_name | ordinal | num_ordinal | number | numeral | digits
    length: int = 0  # digits said (numeric fields)
    case: str = "lower"
    units: list[D.Unit] = field(default_factory=list)


@dataclass
class DateStyle:
    mode: str  # "text", "numeric" or "written" (one written token, its fields parted by ``sep``)
    fields: list[Field]
    template: D.Template | None = None  # numeric mode without separators: the whole span
    value: DateValue | None = None
    sep: str = ""
    rest: str = ""  # a written token's time after its date ("T14:22:10Z"), kept as written


# one written token of digits parted by a slash, dot or dash: "3/14", "14/3/2020", "1/2/95", "03.05.21"
_WRITTEN_NUMERIC = re.compile(r"(\d{1,2})([/.\-])(\d{1,2})(?:\2(\d{2}|\d{4}))?")


# "2021-11-03T14:22:10Z": an ISO date and its time in one token; "5-MAY-2021", "May-21": a month's name inside
_ISO_DATETIME = re.compile(r"(\d{4})-(\d{2})-(\d{2})(T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)")
_DAY_MONTH_YEAR = re.compile(r"(\d{1,2})([-/])([^\W\d_]{3,9})\.?\2(\d{2}|\d{4})")
_MONTH_YEAR = re.compile(r"([^\W\d_]{3,9})-(\d{2}|\d{4})")


def _written_with_names(core: str, language: str) -> DateStyle | None:
    """An ISO date with its time, or a date with its month's name written in one token ("5-MAY-2021",
    "May-21"): each became a date said afresh in words ("december sixteenth nineteen sixty three")."""
    if m := _ISO_DATETIME.fullmatch(core):
        v = DateValue(int(m.group(1)), int(m.group(2)), int(m.group(3)))
        if v.as_date() is None:
            return None
        return DateStyle("written", [Field("year", 0, 1, "digits", 4), Field("month", 0, 1, "digits", 2),
                                     Field("day", 0, 1, "digits", 2)], None, v, "-", m.group(4))
    day = year = name = sep = None
    if m := _DAY_MONTH_YEAR.fullmatch(core):
        day, sep, name, year = m.group(1), m.group(2), m.group(3), m.group(4)
    elif m := _MONTH_YEAR.fullmatch(core):
        sep, name, year = "-", m.group(1), m.group(2)
    month = month_of(name, language) if name else None
    if month is None or year is None:
        return None
    v = DateValue(_expand_year(int(year), False) if len(year) == 2 else int(year), month,
                  int(day) if day else None, len(year) == 2)
    if day is not None and v.as_date() is None:
        return None
    fields = ([Field("day", 0, 1, "digits", 2 if day.startswith("0") else 1)] if day else []) + [
        # a month written short ("MAY", "Sept", "jan") is written in three letters, a full name ("March") whole
        Field("month", 0, 1, "month_name", 3 if len(name) <= 3 or norm(name) not in MONTHS[language] else 0,
              case=case_of(name)), Field("year", 0, 1, "digits", len(year))]
    return DateStyle("written", fields, None, v, sep)


def _written_numeric(core: str, language: str) -> DateStyle | None:
    """A date written as digits parted by separators, each field as long as written: "3/14/2020" was
    read as one run of digits and said back as "11232020", "1/2/95" as the year 1295."""
    m = _WRITTEN_NUMERIC.fullmatch(core)
    if m is None:
        return None
    texts = [t for t in (m.group(1), m.group(3), m.group(4)) if t]
    order = ["month", "day", "year"] if language == "en" else ["day", "month", "year"]
    for attempt in (order, ["day", "month", "year"], ["month", "day", "year"]):
        v = _read_fields(attempt[:len(texts)], texts, False)
        if v.month is not None and 1 <= v.month <= 12 and v.day is not None and 1 <= v.day <= 31 and (
                v.as_date() is not None or v.year is None):
            # zero-padded day and month ("03/05/2021") stay padded, unpadded ones ("3/14") unpadded
            padded = any(len(t) == 2 and t.startswith("0") for t in texts[:2])
            fields = [Field(role, 0, 1, "digits", len(t) if role == "year" else 2 if padded else 1)
                      for role, t in zip(attempt, texts, strict=False)]
            return DateStyle("written", fields, None, v, m.group(2))
    return None


def _read_fields(roles: list[str], texts: list[str], expiry: bool) -> DateValue:
    """The date that digit groups ``texts`` say read in the order ``roles`` (a year of two digits expanded)."""
    v = DateValue()
    for role, t in zip(roles, texts, strict=True):
        n = int(t)
        if role == "year":
            v.year, v.yy = (_expand_year(n, expiry), True) if len(t) <= 2 else (n, False)
        elif role == "month":
            v.month = n
        else:
            v.day = n
    return v


def _expand_year(yy: int, expiry: bool) -> int:
    if expiry:
        return 2000 + yy
    return 2000 + yy if yy <= 30 else 1900 + yy


def parse_date(tokens: list[str], language: str, *, expiry: bool = False) -> DateStyle | None:
    """Read a spoken date (or a card expiry with ``expiry``); None when it has no date in it."""
    cores = [split_punct(t)[1] for t in tokens]
    if len(cores) == 1 and not expiry and (written := _written_numeric(cores[0], language)
                                            or _written_with_names(cores[0], language)) is not None:
        return written
    low = [norm(c) for c in cores]
    marked = list(tokens)
    fields: list[Field] = []
    for i, c in enumerate(cores):
        m = month_of(c, language)
        if m is not None:
            fields.append(Field("month", i, i + 1, "month_name", case=case_of(c)))
            marked[i] = "§"
    ords = _ordinals(language)
    longest = max(len(k) for k in ords)
    i = 0
    while i < len(low):
        hit = None
        for n in range(min(longest, len(low) - i), 0, -1):
            if tuple(low[i : i + n]) in ords and all(marked[j] != "§" for j in range(i, i + n)):
                hit = n
                break
        if hit:
            fields.append(Field("day", i, i + hit, "ordinal"))
            for j in range(i, i + hit):
                marked[j] = "§"
            i += hit
            continue
        mo = _NUM_ORDINAL.match(cores[i])
        if mo:
            fields.append(Field("day", i, i + 1, "num_ordinal"))
            marked[i] = "§"
        i += 1
    tpl = D.parse(marked, language)
    groups: list[list[D.Unit]] = []
    for u in tpl.units:
        if groups and groups[-1][-1].end == u.start:
            groups[-1].append(u)
        else:
            groups.append([u])
    value = DateValue()
    has_month_name = any(f.form == "month_name" for f in fields)
    if has_month_name or any(f.role == "day" for f in fields):
        for f in fields:
            if f.form == "month_name":
                value.month = month_of(cores[f.start], language)
                continue
            if f.form == "ordinal":
                n = ords[tuple(low[f.start : f.end])]
            elif f.form == "num_ordinal":
                mo = _NUM_ORDINAL.match(cores[f.start])
                assert mo is not None
                n = int(mo.group(1))
            else:
                continue
            if value.day is not None and value.month is None and not has_month_name and 1 <= n <= 12:
                f.role, value.month = "month", n  # "the fifth of the eleventh": the second ordinal is the month
            else:
                value.day = n
        month_pos = next((f.start for f in fields if f.form == "month_name"), None)
        for g in _split_day_year(groups):
            text = "".join(u.text for u in g)
            form = "numeral" if g[0].kind == "numeral" else "number"
            fld = Field("?", g[0].start, g[-1].end, form, len(text), units=g)
            n = int(text)
            if value.day is None and len(text) <= 2 and 1 <= n <= 31 and not (
                    len(groups) == 1 and month_pos is not None and g[0].start > month_pos and language == "es"):
                fld.role, value.day = "day", n
            elif value.year is None and 1 <= n <= 9999:
                fld.role = "year"
                if len(text) <= 2:
                    value.year, value.yy = _expand_year(n, expiry), True
                else:
                    value.year = n
            elif value.year is not None and len(text) == 2 and n == value.year % 100 and not value.yy:
                fld.role = "year"  # the ASR's repeat of the year ("de 1958. 58."): it moves with the year
            else:
                continue
            fields.append(fld)
        if expiry:
            value.day = None
        if value.month is None and value.day is None:
            return None
        fields.sort(key=lambda f: f.start)
        return DateStyle("text", fields, None, value)
    if not groups:
        return None
    if not expiry and len(groups) == 1:  # a year said alone ("in 2005", "nineteen eighty seven"): it moves as one
        g = groups[0]
        text = "".join(u.text for u in g)
        if len(text) == 4 and 1000 <= int(text) <= 2099 and not tpl.literal_indices():
            form = "numeral" if all(u.kind == "numeral" for u in g) else "number"
            return DateStyle("text", [Field("year", g[0].start, g[-1].end, form, 4, units=g)], None,
                             DateValue(year=int(text)))
    order = ["month", "year"] if expiry else (["month", "day", "year"] if language == "en" else ["day", "month", "year"])
    if len(groups) >= 2:
        parts = [("".join(u.text for u in g), g) for g in groups]
        numeric_fields = [Field("?", g[0].start, g[-1].end, "digits", len(t), units=g) for t, g in parts]
        texts = [t for t, _ in parts]
        template = None
    else:
        digits_all = tpl.digits
        lengths = {2: [1, 1], 3: [1, 2], 4: [2, 2], 5: [1, 2, 2], 6: [2, 2, 2], 7: [1, 2, 4], 8: [2, 2, 4]}
        if expiry:
            lengths = {3: [1, 2], 4: [2, 2], 5: [1, 4], 6: [2, 4]}
        iso = _ISO_DATE.fullmatch(cores[0]) if len(cores) == 1 and not expiry else None
        if iso:  # "2019-03-05": year, month, day, as written in forms and logs
            lengths = {len(digits_all): [len(iso.group(1)), len(iso.group(3)), len(iso.group(4))]}
            order = ["year", "month", "day"]
        split = lengths.get(len(digits_all))
        if split is None:
            return None
        texts, pos = [], 0
        for n in split:
            texts.append(digits_all[pos : pos + n])
            pos += n
        numeric_fields = [Field("?", 0, len(tokens), "digits", len(t)) for t in texts]
        template = tpl
    if len(texts) > len(order):
        return None
    for attempt in (order, ["day", "month", "year"], ["month", "day", "year"]) if order[0] != "year" else (order,):
        roles = attempt[: len(texts)]
        v = _read_fields(roles, texts, expiry)
        if (v.month is None or 1 <= v.month <= 12) and (v.day is None or 1 <= v.day <= 31) and (
                v.month is not None) and (v.year is None or 1 <= v.year <= 9999):
            for f, role in zip(numeric_fields, roles, strict=True):
                f.role = role
            return DateStyle("numeric", numeric_fields, template, v)
        if expiry:
            break
    return None


_ISO_DATE = re.compile(r"(\d{4})([-/.])(\d{1,2})\2(\d{1,2})")


def _split_day_year(groups: list[list[D.Unit]]) -> list[list[D.Unit]]:
    """"March 14 1977" / "fourteen nineteen seventy seven": digits that run on past four are a day
    followed by a year, not one number."""
    out: list[list[D.Unit]] = []
    for g in groups:
        first, rest = g[0].text, "".join(u.text for u in g[1:])
        if len(g) > 1 and len(first + rest) > 4 and len(first) <= 2 and 1 <= int(first) <= 31 and len(rest) <= 4:
            out += [g[:1], g[1:]]
        elif len(g) > 1 and len(first + rest) > 4 and all(u.kind == "numeral" for u in g):
            out += [[u] for u in g]  # written numbers side by side ("1958. 58."): each on its own
        else:
            out.append(g)
    return out


def _year_words(year: int, language: str, like_pairs: bool) -> list[str]:
    if language == "en":
        text = num2words(year, to="year", lang="en") if like_pairs or year < 2000 else num2words(year, lang="en")
    else:
        text = num2words(year, lang="es")
    return [t for t in re.split(r"[\s\-]+", text.replace(",", "")) if t]


def _two_digit_words(n: int, language: str, zero: str) -> list[str]:
    if n < 10:
        return [zero or DIGIT_WORDS[language][0], DIGIT_WORDS[language][n]]
    return list(number_table(language).render(n))


def _numeric_by_field(tpl: D.Template, parts: list[str], tokens: list[str], language: str,
                      zero: str) -> list[str] | None:
    """Say each field of a date read as digits the natural way ("twelve", "oh five", "sixty") when
    the original units line up with the fields; None when they do not."""
    table = number_table(language)
    bounds, pos = [], 0
    for p in parts:
        bounds.append((pos, pos + len(p)))
        pos += len(p)
    groups: list[list[D.Unit]] = [[] for _ in parts]
    pos = 0
    for u in tpl.units:
        a, b = pos, pos + len(u.text)
        pos = b
        idx = next((i for i, (x, y) in enumerate(bounds) if x <= a and b <= y), None)
        if idx is None:
            return None
        groups[idx].append(u)
    if any(not g for g in groups):
        return None
    out = list(tokens[: groups[0][0].start])
    for g, text in zip(groups, parts, strict=True):
        was = "".join(u.text for u in g)
        if all(u.kind == "digit" for u in g) and not was.startswith("0") and len(g) == len(text):
            said = [DIGIT_WORDS[language][int(ch)] if ch != "0" or not zero else zero for ch in text]
        elif len(text) == 2 and text[0] == "0":
            said = [zero or DIGIT_WORDS[language][0], DIGIT_WORDS[language][int(text[1])]]
        elif len(text) == 4:
            said = _year_words(int(text), language, like_pairs=len(g) > 1)
        else:
            said = list(table.render(int(text)))
        lead = split_punct(tokens[g[0].start])[0]
        trail = split_punct(tokens[g[-1].end - 1])[2]
        said[0] = lead + said[0]  # one at a time: with one word, a tuple assignment lost the lead ("(")
        said[-1] += trail
        out += said
    out += tokens[groups[-1][-1].end :]
    return out


def _written_digits(tpl: D.Template) -> bool:
    """True when every unit of the template was written with digit characters (ASR output)."""
    return bool(tpl.units) and all(
        any(ch.isdigit() for t in tpl.tokens[u.start:u.end] for ch in t) for u in tpl.units)


def render_date(style: DateStyle, new: DateValue, tokens: list[str], language: str) -> list[str]:
    """Say ``new`` in the form of the original date (``style``)."""
    repl: dict[int, tuple[int, list[str]]] = {}
    zero = "oh" if any(norm(t) == "oh" for t in tokens) else ""
    table = number_table(language)
    if style.mode == "written":
        values = {"day": new.day, "month": new.month, "year": new.year}
        parts = []
        for f in style.fields:
            v = values[f.role] or 0
            if f.form == "month_name":
                word = MONTHS[language][v - 1]
                parts.append(apply_case(word[:f.length] if f.length else word, f.case))
            elif f.role == "year":
                parts.append(f"{v % 100:02d}" if f.length == 2 else str(v))
            else:
                parts.append(f"{v:0{f.length}d}" if f.length == 2 else str(v))
        lead, _, trail = split_punct(tokens[0])
        return [lead + style.sep.join(parts) + style.rest + trail]
    if style.mode == "numeric" and style.template is not None:
        parts = []
        for f in style.fields:
            v = {"day": new.day, "month": new.month, "year": new.year}[f.role] or 0
            if f.role == "year" and f.length <= 2:
                v %= 100
            parts.append(f"{v:0{f.length}d}")
        if _written_digits(style.template):  # "0 6 0 6 9 5" stays digits, grouped as it was
            return D.render(style.template, "".join(parts))
        by_field = _numeric_by_field(style.template, parts, tokens, language, zero)
        return by_field if by_field is not None else D.render(style.template, "".join(parts))
    for f in style.fields:
        v = {"day": new.day, "month": new.month, "year": new.year}[f.role]
        if v is None:
            continue
        if f.form == "month_name":
            names = MONTHS[language]
            orig = split_punct(tokens[f.start])[1]
            word = names[v - 1]
            word = apply_case(word, f.case if f.case != "mixed" else "title")
            if len(orig) <= 4 and orig.lower() in MONTH_ALIASES[language]:
                word = word[: len(orig)]
            said = [word]
        elif f.form == "ordinal":
            if language == "en":
                said = [t for t in re.split(r"[\s\-]+", num2words(v, to="ordinal", lang="en")) if t]
            else:
                said = ["primero"] if v == 1 else list(table.render(v))
        elif f.form == "num_ordinal":
            suffix = "th" if 10 <= v % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(v % 10, "th")
            said = [f"{v}{suffix}"] if language == "en" else [f"{v}º"]
        elif f.form == "numeral":
            said = [f"{v % 100:02d}" if f.role == "year" and f.length <= 2 else str(v)]
        elif f.role == "year" and f.units and all(u.kind == "numeral" for u in f.units):
            said = [f"{v % 100:02d}" if f.length <= 2 else str(v)]  # a written year stays written
        elif f.role == "year":
            if f.length <= 2:
                said = _two_digit_words(v % 100, language, zero)
            else:
                said = _year_words(v, language, like_pairs=len(f.units) > 1)
                if "and" in said and not any(norm(x) == "and" for x in tokens[f.start:f.end]):
                    said = [w for w in said if w != "and"]  # "two thousand twelve" -> "two thousand thirteen"
        elif f.form == "digits":
            sub = D.Template(tokens[f.start : f.end], language,
                             [D.Unit(u.start - f.start, u.end - f.start, u.kind, u.text, u.tokens, u.zero, u.layout)
                              for u in f.units])
            padded = bool(f.units) and f.units[0].text == "0" and f.length > 1
            text = f"{v:0{f.length}d}" if padded else str(v)
            if f.units and all(u.kind == "numeral" for u in f.units):
                said = D.render(sub, text)  # written digits stay written digits ("11 del 11" → "31 del 5")
            elif len(text) == f.length and (padded or all(u.kind in ("digit", "numeral") for u in f.units)):
                said = D.render(sub, text)
            else:
                said = list(table.render(v, like=tuple(t for u in f.units for t in u.tokens) or None))
            repl[f.start] = (f.end, said)
            continue
        else:  # a day said as a cardinal number
            said = ["primero"] if v == 1 and norm(tokens[f.start]) == "primero" else list(
                table.render(v, like=tuple(u for un in f.units for u in un.tokens) or None))
        lead = split_punct(tokens[f.start])[0]
        trail = split_punct(tokens[f.end - 1])[2]
        if said:
            if f.form != "month_name" and case_of(split_punct(tokens[f.start])[1]) == "title":
                said[0] = apply_case(said[0], "title")
            said[0] = lead + said[0]  # one at a time: with one word, a tuple assignment lost the lead ("(")
            said[-1] += trail
        repl[f.start] = (f.end, said)
    out: list[str] = []
    i = 0
    while i < len(tokens):
        if i in repl:
            end, said = repl[i]
            out += said
            i = end
        else:
            out.append(tokens[i])
            i += 1
    return out


def shift(value: DateValue, days: int, months: int, years: int, ref_month: int = 6) -> DateValue:
    """Move a date by the conversation's offsets (days when the day is known)."""
    d = value.as_date(ref_month)
    if d is not None:
        try:
            nd = d + dt.timedelta(days=days)
        except OverflowError:
            return DateValue(value.year, value.month, value.day, value.yy)
        return DateValue(nd.year if value.year is not None else None,
                         nd.month if value.month is not None else None, nd.day, value.yy)
    if value.month is not None:
        idx = (value.year if value.year is not None else REF_YEAR) * 12 + value.month - 1 + months
        y, m = divmod(idx, 12)
        if not 1 <= y <= 9999:
            return DateValue(value.year, value.month, value.day, value.yy)
        day = value.day
        if day is not None:
            day = min(day, calendar.monthrange(y, m + 1)[1])
        return DateValue(y if value.year is not None else None, m + 1, day, value.yy)
    if value.year is not None:
        return DateValue(value.year + years, None, None, value.yy)
    return DateValue()


def plan_offset(ctx: Context, values: list[DateValue]) -> None:
    """Pick the conversation's shift: whole weeks (2-26, either way) keeping month steps equal."""
    rng = ctx.conv_rng("date-offset")
    weeks = [w for w in range(-26, 27) if abs(w) >= 2]
    rng.shuffle(weeks)
    full = [d for d in (v.as_date() for v in values) if d is not None]
    ctx.ref_month = full[0].month if full else 6
    dated = [d for d in (v.as_date(ctx.ref_month) for v in values) if d is not None]
    ref = dated[0] if dated else dt.date(REF_YEAR, ctx.ref_month, 15)
    best = None
    for w in weeks:
        days = 7 * w
        steps = {((x + dt.timedelta(days=days)).year - x.year) * 12 + (x + dt.timedelta(days=days)).month - x.month
                 for x in (dated or [ref])}
        if len(steps) == 1:
            best = (days, steps.pop())
            if best[1] != 0:
                break
    if best is None:
        days = 7 * weeks[0]
        nd = ref + dt.timedelta(days=days)
        best = (days, (nd.year - ref.year) * 12 + nd.month - ref.month)
    ctx.offset_days, ctx.month_shift = best
    if ctx.month_shift == 0:
        ctx.month_shift = 1 if ctx.offset_days > 0 else -1
    nd = ref + dt.timedelta(days=ctx.offset_days)
    ctx.year_shift = (nd.year - ref.year) or (1 if ctx.offset_days > 0 else -1)


BIRTH_CATEGORIES = frozenset({"DATE_OF_BIRTH"})


def _move_birth_year(value: DateValue, year: int, rng: random.Random) -> DateValue:
    """The birth year is the most telling part (the age): move it 1-4 years. A full date moves by
    whole 52-week blocks, so its weekday (and the call's date relations) still hold."""
    steps = [-4, -3, -2, -1, 1, 2, 3, 4]
    rng.shuffle(steps)
    full = value.as_date() if value.month is not None and value.day is not None else None
    for k in steps:
        if full is not None:
            try:
                nd = full + dt.timedelta(days=364 * k)
            except OverflowError:
                continue
            if nd.year != year:
                return DateValue(nd.year, nd.month, nd.day, value.yy)
        elif 1 <= year + k <= 9999:
            return DateValue(year + k, value.month, value.day, value.yy)
    return value
FRESH_EXPIRY_YEARS = (2028, 2032)  # fixed, so a project's surrogates do not change with the calendar


def fresh_date_words(rng: random.Random, language: str, *, expiry: bool) -> str:
    """A made-up date said in words, for an accepted date the parser cannot read (ASR garble):
    month and year for a card expiry ("march twenty twenty nine"), day, month and year otherwise."""
    month = rng.randint(1, 12)
    if expiry:
        year = FRESH_EXPIRY_YEARS[0] + rng.randint(0, FRESH_EXPIRY_YEARS[1] - FRESH_EXPIRY_YEARS[0])
        return " ".join([MONTHS[language][month - 1], *(["de"] if language == "es" else []),
                         *_year_words(year, language, like_pairs=True)])
    day, year = rng.randint(1, 28), rng.randint(1950, 2005)
    if language == "en":
        words = [MONTHS["en"][month - 1], *num2words(day, to="ordinal", lang="en").replace("-", " ").split()]
    else:
        words = [*num2words(day, lang="es").split(), "de", MONTHS["es"][month - 1], "de"]
    return " ".join(words + _year_words(year, language, like_pairs=True))


def _without_numbers(tokens: list[str], language: str) -> bool:
    """No digits and no number words: a relative date ("tomorrow", "last week"), no date of a person."""
    return not any(ch.isdigit() for t in tokens for ch in t) and not any(
        is_number_word(split_punct(t)[1].lower(), language) for t in tokens)


class DateGenerator(Generator):
    name = "date"
    priority = 3
    expiry = False

    def analyse(self, ctx: Context, span_index: int, tokens: list[str], span: Span) -> list[Piece]:
        style = parse_date(tokens, ctx.language)
        if style is None or style.value is None:
            return self._unreadable(tokens, span, ctx.language)
        return [Piece(0, len(tokens), "date", f"date:{style.value.iso()}", self.name, span.category,
                      style.value.iso(), style.value, style=style)]

    def _unreadable(self, tokens: list[str], span: Span, language: str) -> list[Piece]:
        """No absolute date: relative words stay; anything holding numbers is said afresh."""
        key = f"{self.name}:text:{norm(' '.join(tokens))}"
        if _without_numbers(tokens, language) and not self.expiry:
            return [Piece(0, len(tokens), "words", key, self.name, span.category, " ".join(tokens), None,
                          {"kept": "no absolute date"})]
        tpl = D.parse(tokens, language)
        if _written_digits(tpl) and len(tpl.literal_indices()) * 2 < len(tokens):
            # digits the date parser cannot read ("0 8 1 5 6"): new digits, same count and grouping
            return [Piece(0, len(tokens), "fresh_digits", key, self.name, span.category, " ".join(tokens), tpl,
                          style=tpl)]
        return [Piece(0, len(tokens), "fresh", key, self.name, span.category, " ".join(tokens), None)]

    def generate(self, ctx: Context, item: Item) -> str:
        if not isinstance(item.value, DateValue):
            if isinstance(item.value, D.Template):
                value = D.fill(item.value, ctx.rng(item), avoid=item.value.value) or item.value.value
                return " ".join(split_punct(t)[1] for t in D.render(item.value, value))
            if item.occurrences and item.occurrences[0].form == "fresh":
                return fresh_date_words(ctx.rng(item), ctx.language, expiry=self.expiry)
            return item.original  # relative dates ("tomorrow") stay
        new = shift(item.value, ctx.offset_days, ctx.month_shift, ctx.year_shift, ctx.ref_month)
        if item.category in BIRTH_CATEGORIES and new.year is not None and new.year == item.value.year:
            new = _move_birth_year(new, item.value.year, ctx.rng(item, "birth-year"))
        return new.iso()

    def render(self, ctx: Context, item: Item, occ: Occurrence, tokens: list[str]) -> list[str]:
        if occ.form == "fresh":
            return (item.surrogate or "").split()
        if occ.form == "fresh_digits" and isinstance(occ.style, D.Template):
            said = (item.surrogate or "").split()
            if len(said) == len(tokens):  # the original's punctuation around each group
                return [split_punct(t)[0] + w + split_punct(t)[2] for t, w in zip(tokens, said, strict=True)]
            return said
        new = DateValue.from_iso(item.surrogate or "")
        if occ.form != "date" or new is None or not isinstance(occ.style, DateStyle):
            return list(tokens) if occ.form != "date" else (item.surrogate or "").split()
        if occ.style.value is not None:
            new.yy = occ.style.value.yy
        return render_date(occ.style, new, tokens, ctx.language)


class ExpiryGenerator(DateGenerator):
    name = "expiry"
    priority = 3
    expiry = True

    def analyse(self, ctx: Context, span_index: int, tokens: list[str], span: Span) -> list[Piece]:
        style = parse_date(tokens, ctx.language, expiry=True)
        if style is None or style.value is None or style.value.month is None:
            return self._unreadable(tokens, span, ctx.language)
        return [Piece(0, len(tokens), "date", f"expiry:{style.value.iso()}", self.name, span.category,
                      style.value.iso(), style.value, style=style)]

    def generate(self, ctx: Context, item: Item) -> str:
        if isinstance(item.value, D.Template):
            return super().generate(ctx, item)  # unreadable digits: new digits in the same form
        if not isinstance(item.value, DateValue):
            return fresh_date_words(ctx.rng(item), ctx.language, expiry=True)
        rng = ctx.rng(item)
        months = rng.randint(2, 36)  # forward: a surrogate card should not have expired
        new = shift(item.value, 0, months, 0)
        if item.value.year is not None and new.year == item.value.year:
            new = shift(item.value, 0, months + 12, 0)  # the year is half the expiry: it always moves
        return new.iso()


class MonthGenerator(Generator):
    """A month name on its own: moved by the conversation's month step."""

    name = "month"
    priority = 4

    def analyse(self, ctx: Context, span_index: int, tokens: list[str], span: Span) -> list[Piece]:
        for i, t in enumerate(tokens):
            m = month_of(t, ctx.language)
            if m is not None:
                return [Piece(i, i + 1, "month", f"month:{m:02d}", self.name, span.category,
                              MONTHS[ctx.language][m - 1], m, style=case_of(split_punct(t)[1]))]
        return [Piece(0, len(tokens), "words", f"month:text:{norm(' '.join(tokens))}", self.name, span.category,
                      " ".join(tokens), None)]

    def generate(self, ctx: Context, item: Item) -> str:
        if not isinstance(item.value, int):
            return item.original
        return MONTHS[ctx.language][(item.value - 1 + ctx.month_shift) % 12]

    def render(self, ctx: Context, item: Item, occ: Occurrence, tokens: list[str]) -> list[str]:
        if occ.form != "month":
            return list(tokens)
        core = split_punct(tokens[0])[1]
        word = apply_case(item.surrogate or "", occ.style if occ.style in ("upper", "lower", "title") else "title")
        return [split_punct(tokens[0])[0] + word + split_punct(tokens[-1])[2]] if core else [word]


register(DateGenerator())
register(ExpiryGenerator())
register(MonthGenerator())
