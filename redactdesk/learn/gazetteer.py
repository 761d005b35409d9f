"""Gazetteer membership for features: which lists (first names, surnames, places, months) a word is in.

Uses the project's gazetteers from :mod:`redactdesk.substitute` when that package offers them, and
otherwise Faker's locale data (en_US, es_ES) from :mod:`redactdesk.lang.names`; month names (English
and Spanish, "setiembre" too) from :mod:`redactdesk.lang.calendar`.
"""

from __future__ import annotations

import functools

from redactdesk.lang.calendar import month_words
from redactdesk.lang.names import address, person

_FUNCTION_WORDS = frozenset("the of and da de del la las los el y e di van von der den saint st".split())


def _words(items: object) -> set[str]:
    """Lower-cased words of the entries, without function words ("Isle of Man" -> isle, man)."""
    out: set[str] = set()
    for item in items:  # type: ignore[attr-defined]
        for w in str(item).replace("-", " ").replace(",", " ").replace("(", " ").replace(")", " ").split():
            low = w.lower()
            if len(low) > 1 and low not in _FUNCTION_WORDS:
                out.add(low)
    return out


def _from_substitute() -> dict[str, set[str]] | None:
    try:  # the substitute helper's gazetteers, when present
        from redactdesk.substitute import gazetteers as gz  # type: ignore[attr-defined]
    except Exception:
        return None
    loader = getattr(gz, "load_gazetteers", None) or getattr(gz, "load", None)
    if loader is None:
        return None
    out: dict[str, set[str]] = {}
    try:
        for lang in ("en", "es"):
            data = loader(lang)
            for cat, entries in dict(data).items():
                out.setdefault(str(cat).lower(), set()).update(_words(entries))
    except Exception:
        return None
    return out or None


def _from_faker() -> dict[str, set[str]]:
    AddrEN, AddrES, PersonEN, PersonES = address("en_US"), address("es_ES"), person("en_US"), person("es_ES")

    return {
        "first": _words(PersonEN.first_names) | _words(PersonES.first_names),
        "last": _words(PersonEN.last_names) | _words(PersonES.last_names),
        "place": _words(AddrEN.countries) | _words(AddrES.countries) | _words(AddrEN.states),
    }


@functools.lru_cache(maxsize=1)
def gazetteers() -> dict[str, frozenset[str]]:
    """Category name -> lower-cased single words. Always has 'month'."""
    lists = _from_substitute() or _from_faker()
    lists["month"] = set(month_words("en")) | set(month_words("es"))
    return {k: frozenset(v) for k, v in lists.items()}


def memberships(word: str) -> tuple[str, ...]:
    """Names of the gazetteers holding this word (lower-cased), sorted."""
    low = word.lower()
    return tuple(sorted(name for name, entries in gazetteers().items() if low in entries))
