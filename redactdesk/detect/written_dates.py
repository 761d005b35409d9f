"""Calendar dates as people write them: "5-MAY-2021", "May-21", "21/05/2021", "05.05.2021",
"2021-05-21", "May 5, 2021", "5th of May 2021", "Tuesday 3 March", "2021-05-21T10:30:00Z"; a day
and a month in digits only after a word that puts a day in time ("on 3/14", "by 12/5"; "3/14" alone
may be a score).

Month and weekday names come from the lexicon. Every match is checked as a real date (day within
its month, four-digit years 1900-2099; 1000-2099 with a day and a month's name, "10 December 1815").
A time on its own ("10:30"), a year on its own, version numbers ("3.2.1") and scores ("3-1") are no
dates. A month name that is also an everyday word
("may", "march") counts only capitalised, with a dash ("may-21") or with a year.
"""

from __future__ import annotations

import calendar
import functools
import re
from typing import Any

from redactdesk.detect.char_spans import CharSpan

_ORD = r"(?:st|nd|rd|th|º|ª)?"
_TIME = r"(?:[T ](?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?"
_END = r"(?![\w/]|[.-]\d)"
_START = r"(?<![\w/.-])"


@functools.lru_cache(maxsize=4)
def month_alternation(lex: Any) -> str:
    """The lexicon's month names and abbreviations as one regex alternation, longest first."""
    return "|".join(sorted((re.escape(m) for m in lex.months), key=len, reverse=True))


@functools.lru_cache(maxsize=4)
def _regexes(lex: Any) -> list[tuple[re.Pattern[str], str]]:
    months = month_alternation(lex)
    days = "|".join(sorted((re.escape(d) for d in lex.weekdays), key=len, reverse=True))
    mon = rf"(?P<mon>{months})\.?"
    wday = rf"(?:(?:{days}),?\s+)?" if days else ""
    year = r"(?P<year>(?:1\d|20)\d{2}|'\d{2})"  # with a day and a month's name, earlier centuries too
    of = r"(?:\s+of|\s+de)?"
    return [
        (re.compile(rf"{_START}(?P<year>\d{{4}})(?P<sep>[-/.])(?P<m>\d{{1,2}})(?P=sep)(?P<d>\d{{1,2}}){_TIME}{_END}"),
         "ymd"),
        (re.compile(rf"{_START}(?P<a>\d{{1,2}})(?P<sep>[-/.])(?P<b>\d{{1,2}})(?P=sep)(?P<year>\d{{4}}|\d{{2}}){_END}"),
         "numeric"),
        # 5-MAY-2021, 5 May 2021, 5th of May, 2021, Tuesday 3 March
        (re.compile(rf"(?<![\w-]){wday}(?:the\s+)?(?P<d>[0-3]?\d){_ORD}{of}(?:\s+|-)(?:de\s+)?{mon}"
                    rf"(?:,?(?:\s+|-)(?:de\s+)?{year})?(?![\w-])", re.IGNORECASE), "dmy"),
        # May 5, 2021, Tuesday, March 3rd, May the 5th
        (re.compile(rf"(?<![\w-]){wday}{mon}(?:\s+|-)(?:the\s+)?(?P<d>[0-3]?\d){_ORD}(?:,?\s+{year})?(?![\w-]|:\d)",
                    re.IGNORECASE), "mdy"),
        # "on 3/14", "by 12/5": a day and a month without a year, after a word that puts a day in time
        (re.compile(r"\b(?:on|by|until|till|before|after|from|since|through|thru|due|el|para|hasta|desde)\s+"
                    r"(?P<date>(?P<a>[0-3]?\d)/(?P<b>[0-3]?\d))(?![\w/]|[.,]\d)", re.IGNORECASE), "md_cued"),
        # May-21, May 2021, May '21
        (re.compile(rf"(?<![\w-]){mon}(?:-|\s+|\s*')(?P<year>(?:19|20)\d{{2}}|\d{{2}})(?![\w-]|:\d)", re.IGNORECASE),
         "my"),
    ]


def _valid(year: int | None, month: int, day: int | None, first_year: int = 1900) -> bool:
    if not 1 <= month <= 12:
        return False
    if year is not None and not first_year <= year <= 2099:
        return False
    if day is None:
        return True
    return 1 <= day <= calendar.monthrange(year or 2000, month)[1]


def _year(text: str | None) -> int | None:
    if not text:
        return None
    y = int(text.lstrip("'"))
    return y if y >= 100 else (1900 + y if y > 30 else 2000 + y)


def find_dates(text: str, lex: Any) -> list[CharSpan]:
    """Written dates in ``text`` (longest first, no overlaps), category DATE."""
    found: list[tuple[int, int, bool]] = []
    for rx, kind in _regexes(lex):
        for m in rx.finditer(text):
            g = m.groupdict()
            if kind == "ymd":
                ok = _valid(int(g["year"]), int(g["m"]), int(g["d"]))
                has_year = True
            elif kind == "md_cued":
                a, b = int(g["a"]), int(g["b"])
                if (a, b) == (24, 7) or a < b <= 10:
                    continue  # "24/7 support", "fell by 1/3": round the clock and fractions, no day
                ok = _valid(None, a, b) or _valid(None, b, a)
                has_year = False
            elif kind == "numeric":
                a, b, sep, ytxt = int(g["a"]), int(g["b"]), g["sep"], g["year"]
                # dots and dashes with a two-digit year read as versions and scores unless zero-padded
                if sep != "/" and len(ytxt) == 2 and not (len(g["a"]) == 2 and len(g["b"]) == 2):
                    continue
                y = _year(ytxt)
                ok = _valid(y, b, a) or _valid(y, a, b)
                has_year = True
            else:
                mon = g["mon"]
                month = lex.months[mon.lower()]
                ytxt = g.get("year")
                d = int(g["d"]) if g.get("d") else None
                if kind == "my" and ytxt is None:
                    continue
                ambiguous = mon.lower() in lex.ambiguous_months or len(mon) <= 3
                spelled_lower = mon.islower()
                if ambiguous and spelled_lower and ytxt is None and "-" not in m.group(0):
                    continue
                if kind == "my" and spelled_lower and "-" not in m.group(0) and len(ytxt or "") != 4:
                    continue  # "may 21" is no month-year
                # a day and a month's name make a year of an earlier century a date too ("10 December 1815")
                ok = _valid(_year(ytxt), month, d, 1000 if d is not None else 1900)
                has_year = ytxt is not None
            if ok:
                found.append((m.start("date") if kind == "md_cued" else m.start(), m.end(), has_year))
    found.sort(key=lambda f: (-(f[1] - f[0]), f[0]))
    taken: list[tuple[int, int]] = []
    out: list[CharSpan] = []
    for s, e, has_year in found:
        if any(s < b and a < e for a, b in taken):
            continue
        taken.append((s, e))
        out.append(CharSpan(s, e, "DATE", 0.8 if has_year else 0.7,
                            "written calendar date" + (" with year" if has_year else "")))
    return sorted(out)


def is_written_date(word: str, lex: Any) -> bool:
    """Is ``word`` (edge punctuation aside) one calendar date as written: "2031-04-17", "17/04/2031"?
    A number format that also accepts it is no reason to read it as an identifier."""
    core = word.strip(".,;:!?()[]\"'")
    found = find_dates(core, lex) if core else []
    return len(found) == 1 and (found[0].start, found[0].end) == (0, len(core))
