"""Dates said relative to the day of the call: "tomorrow", "next friday", "this weekend", "on the
twenty first", "el próximo viernes".

Combined with the recording's date they pin a day, so they are DATE items — with a low score, so
a reviewer decides. Their surrogate is themselves (a date shift moves the call's date, and
"tomorrow" stays tomorrow), so the leak scan does not search for them either. The words come from
the lexicon's ``relative_dates`` block; everything works on the cleaned lower-case words, so
written and spoken input read alike.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from redactdesk.detect.sources import DetectDoc, Hit

SCORE = 0.45
REASON = "a date said relative to the call"


def _words(raw: Any) -> frozenset[str]:
    return frozenset(str(w).lower() for w in (raw or ()))


@functools.lru_cache(maxsize=4)
def _vocabulary(lex: Any) -> dict[str, Any] | None:
    spec = (lex.raw or {}).get("relative_dates") or {}
    if not spec:
        return None
    days = [tuple(str(d).lower().split()) for d in spec.get("days", ())]
    phrases = sorted([tuple(str(w).lower() for w in p) for p in spec.get("phrases", ())] + days, key=len, reverse=True)
    weekdays = frozenset(lex.weekdays)
    months = frozenset(m for m in lex.months if m not in lex.ambiguous_months and len(m) > 3)
    v = {key: _words(spec.get(name)) for key, name in (
        ("modifiers", "modifiers"), ("units", "units"), ("preps", "day_prepositions"), ("ordinals", "ordinals"),
        ("tens", "tens"), ("not_after", "not_after"), ("service_days", "service_days"), ("counted", "counted"))}
    v.update(phrases=phrases, weekdays=weekdays, named=weekdays | months, days=frozenset(d[0] for d in days if len(d) == 1),
             first_words=frozenset(p[0] for p in phrases))
    v["triggers"] = (v["first_words"] | v["modifiers"] | weekdays | v["tens"] | v["ordinals"])
    return v


def day_words(lex: Any) -> frozenset[str]:
    """The one-word days of the lexicon's ``relative_dates`` ("tomorrow", "tmrw", "hoy")."""
    v = _vocabulary(lex)
    return v["days"] if v else frozenset()


_DETERMINERS = frozenset({"the", "my", "our", "your", "his", "her", "their", "its", "a", "that", "el", "la", "su", "mi"})


def relative_date_ranges(lower: Sequence[str], lex: Any) -> list[tuple[int, int]]:
    """Word ranges ``[a, b)`` of relative dates in the cleaned lower-case words ``lower``."""
    v = _vocabulary(lex)
    if v is None or not any(w.removesuffix("'s") in v["triggers"] for w in lower):
        return []
    phrases, modifiers, units, preps = v["phrases"], v["modifiers"], v["units"], v["preps"]
    ordinals, tens, not_after, service_days = v["ordinals"], v["tens"], v["not_after"], v["service_days"]
    weekdays, named, first_words = v["weekdays"], v["named"], v["first_words"]
    n = len(lower)
    out: list[tuple[int, int]] = []
    i = 0
    while i < n:
        w = lower[i].removesuffix("'s")
        got = None
        for p in phrases if w in first_words else ():
            if tuple(x.removesuffix("'s") for x in lower[i:i + len(p)]) == p:
                got = (i, i + len(p))
                break
        if got and lex.language == "es" and lower[i] == "mañana" and i and lower[i - 1] in ("la", "las"):
            got = None  # "por la mañana": the morning, not tomorrow
        if got and got[1] - got[0] == 1 and w in service_days and i and lower[i - 1] in not_after:
            got = None  # "anything else today"
        if got and w in modifiers and i and lower[i - 1] in _DETERMINERS:
            got = None  # "the last night of the festival": a night counted, not yesterday's
        if got is None and w in modifiers and i + 1 < n:
            nxt = lower[i + 1].removesuffix("'s")
            if nxt in units | named:
                got = (i, i + 2)
            elif i + 2 < n and nxt in ("de", "del") and lower[i + 2] in units:
                got = (i, i + 3)
        if got is None and w in weekdays and not (i and lower[i - 1] in ("every", "each", "cada", "todos")):
            a = i - 1 if i and lower[i - 1] in modifiers else i
            got = (a, i + 1)  # "every friday" is a recurrence, not a day
            # "tuesday the 3rd", "monday the twenty first": the day of the month said with it is one date
            if i + 2 < n and lower[i + 1] in ("the", "el") and lower[i + 2] in ordinals:
                got = (a, i + 3)
            elif i + 3 < n and lower[i + 1] in ("the", "el") and lower[i + 2] in tens and lower[i + 3] in ordinals:
                got = (a, i + 4)
            if got[1] < n and lower[got[1]].strip(".,;:!?") in v["counted"]:
                got = (a, i + 1)  # "friday the 13th floor"
        if got is None and w in tens and i + 1 < n and lower[i + 1] in ordinals:
            got = (i, i + 2)  # "twenty second"
        if got is None and w in ordinals and i >= 2 and lower[i - 1] == "the" and (
                lower[i - 2] in preps or (lower[i - 2] in ("and", "to", "y", "al") and out and out[-1][1] == i - 2)):
            got = (i - 1, i + 1)  # "on the fifth", "between the second and the fifteenth"
        if got is not None and (w in ordinals or w in tens) and got[1] < n and lower[got[1]].strip(".,;:!?") in v["counted"]:
            got = None  # "for the 5th time", "on the twenty second floor": what is counted, no day
        if got is not None:
            a, b = got
            if out and out[-1][1] >= a:  # "next friday" right after "this weekend": one item each
                a = max(a, out[-1][1])
            if b > a:
                out.append((a, b))
            i = b
            continue
        i += 1
    return out


def find_relative_dates(doc: DetectDoc, taken: Sequence[bool] | None = None) -> list[Hit]:
    """DATE hits for relative dates in ``doc`` not on words already ``taken``."""
    if doc.lex is None:
        return []
    lower = [w.lower().strip(".,;:!?¡¿\"“”()") for w in doc.words]
    hits = []
    for a, b in relative_date_ranges(lower, doc.lex):
        if taken is not None and any(taken[a:b]):
            continue
        hits.append(Hit(a, b, "DATE", SCORE, "identifiers", REASON))
    return hits
