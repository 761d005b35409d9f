"""Month and weekday names of English and Spanish, from Babel's locale data (CLDR).

Babel writes them as the language does: "January", "Monday"; "enero", "miércoles", "sábado".
Callers that compare against key forms (lower case, no accents) take :func:`month_keys` and
:func:`weekday_keys`. Regional locales add the other forms callers say: Peru's "setiembre"
(es_PE), British "Sept" (en_GB) and Mexican "sep" (es_MX).
"""

from __future__ import annotations

import functools

from redactdesk.lang.folding import strip_accents

LANGUAGES = ("en", "es")
# the locale whose names are the language's own, then regional locales whose other spellings are heard
_NAME_LOCALES = {"en": ("en",), "es": ("es", "es_PE")}  # es_PE: "setiembre"
_ABBREVIATION_LOCALES = {"en": ("en", "en_GB"), "es": ("es", "es_MX")}  # en_GB: "sept"; es_MX: "sep"


def _lang(language: str) -> str:
    if language not in LANGUAGES:
        from redactdesk.lang.errors import UnsupportedLanguageError

        raise UnsupportedLanguageError(f"no month or weekday names for that language; supported: {', '.join(LANGUAGES)}")
    return language


@functools.lru_cache(maxsize=8)
def month_names(language: str) -> tuple[str, ...]:
    """The twelve month names, January first, written as the language writes them."""
    from babel.dates import get_month_names  # Babel on first use: ~25 ms that a CLI start need not pay

    names = get_month_names("wide", "format", _NAME_LOCALES[_lang(language)][0])
    return tuple(str(names[m]) for m in range(1, 13))


@functools.lru_cache(maxsize=8)
def weekday_names(language: str) -> tuple[str, ...]:
    """The seven weekday names, Monday first (as :meth:`datetime.date.weekday` counts)."""
    from babel.dates import get_day_names

    names = get_day_names("wide", "format", _NAME_LOCALES[_lang(language)][0])
    return tuple(str(names[d]) for d in range(7))


def month_keys(language: str) -> tuple[str, ...]:
    """:func:`month_names` in lower case without accents ("enero", "january")."""
    return tuple(strip_accents(m).lower() for m in month_names(language))


def weekday_keys(language: str) -> tuple[str, ...]:
    """:func:`weekday_names` in lower case without accents ("miercoles", "sabado")."""
    return tuple(strip_accents(d).lower() for d in weekday_names(language))


@functools.lru_cache(maxsize=8)
def month_words(language: str) -> dict[str, int]:
    """Lower-case full month names -> month number, regional spellings included ("setiembre": 9)."""
    from babel.dates import get_month_names

    out: dict[str, int] = {}
    for loc in _NAME_LOCALES[_lang(language)]:
        for m, name in get_month_names("wide", "format", loc).items():
            out.setdefault(str(name).lower(), int(m))
    return out


@functools.lru_cache(maxsize=8)
def month_abbreviations(language: str) -> dict[str, int]:
    """Lower-case month abbreviations without their dot -> month number ("jan": 1, "sept": 9);
    an abbreviation that is a full name ("may") is left to :func:`month_words`."""
    from babel.dates import get_month_names

    full = month_words(language)
    out: dict[str, int] = {}
    for loc in _ABBREVIATION_LOCALES[_lang(language)]:
        for m, name in get_month_names("abbreviated", "format", loc).items():
            key = str(name).lower().rstrip(".")
            if key not in full:
                out.setdefault(key, int(m))
    return out


@functools.lru_cache(maxsize=8)
def weekday_words(language: str) -> frozenset[str]:
    """Lower-case weekday names as written and as written without accents ("sábado", "sabado")."""
    names = [d.lower() for d in weekday_names(language)]
    return frozenset(names) | frozenset(strip_accents(d) for d in names)
