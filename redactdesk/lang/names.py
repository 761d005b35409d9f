"""Faker's name and place lists, loaded once: the person, address and lorem providers of a locale.

Faker keeps its lists as class attributes of per-locale provider modules
(``faker.providers.person.es_ES.Provider.first_names_female``); importing the module is the load.
Every stage that needs first names, surnames, countries, states or everyday words takes the
providers from here, so each is imported once and named in one way.
"""

from __future__ import annotations

import functools
import importlib
from typing import Any

# the Faker locale of each language's names and places
LOCALES = {"en": "en_US", "es": "es_ES"}


@functools.lru_cache(maxsize=16)
def _provider(kind: str, locale: str) -> Any:
    return importlib.import_module(f"faker.providers.{kind}.{locale}").Provider


def person(locale: str) -> Any:
    """Faker's person provider of ``locale`` (``first_names_female``, ``last_names``, ...)."""
    return _provider("person", locale)


def address(locale: str) -> Any:
    """Faker's address provider of ``locale`` (``countries``, ``states``, ``street_suffixes``, ...)."""
    return _provider("address", locale)


@functools.lru_cache(maxsize=1)
def lorem_words() -> tuple[str, ...]:
    """Faker's English lorem word list: everyday words, some of them also names ("will", "mark")."""
    return tuple(_provider("lorem", "en_US").word_list)


# countries whose addresses carry a region's code ("Vancouver, BC", "New York, NY 10017", "Sydney NSW 2000"),
# with the Faker locale and attribute that list the codes
_REGION_CODES = (("en_US", "states_abbr"), ("en_CA", "provinces_abbr"), ("en_AU", "states_abbr"))


@functools.lru_cache(maxsize=1)
def region_codes() -> tuple[tuple[str, ...], ...]:
    """The region codes written in addresses, one tuple per country (US states, Canadian provinces,
    Australian states), from Faker's address providers."""
    return tuple(tuple(getattr(address(locale), attr)) for locale, attr in _REGION_CODES)


@functools.lru_cache(maxsize=1)
def world_first_names() -> dict[str, str | None]:
    """Given names of every Faker locale, folded to ASCII keys ("Priya" -> "priya", "Юлия" -> "iuliia"):
    'f' or 'm' where at least twice as many of its lists say so as say the other, else None (a name
    given to both, or a list's slip: one locale files "Mohammed" under women). About 0.1 s to read."""
    import pkgutil

    import faker.providers.person as people

    from redactdesk.lang.folding import fold_key

    votes: dict[str, list[int]] = {}
    for module in pkgutil.iter_modules(people.__path__):
        try:
            provider = _provider("person", module.name)
        except ImportError:  # pragma: no cover - a locale Faker lists but cannot load
            continue
        for attr, side in (("first_names_female", 0), ("first_names_male", 1)):
            for key in {fold_key(str(name)) for name in getattr(provider, attr, ()) or ()}:
                if key and key.isalpha():
                    votes.setdefault(key, [0, 0])[side] += 1
    return {k: "f" if f >= 2 * m else "m" if m >= 2 * f else None for k, (f, m) in votes.items()}


@functools.lru_cache(maxsize=1)
def particle_surnames() -> dict[str, tuple[str, ...]]:
    """Surnames said after their particles, by the particles ("de la" -> Fuente, Garza, Rosa, Torre ...;
    "del" -> Río, Valle): Faker's Spanish-language surname lists that write them so."""
    out: dict[str, list[str]] = {}
    for locale in ("es_MX", "es_ES", "es_CO", "es_AR", "es_CL"):
        try:
            names = getattr(person(locale), "last_names", ()) or ()
        except ImportError:  # pragma: no cover - a locale this Faker lacks
            continue
        for name in names:
            words = str(name).split()
            if len(words) >= 2 and words[0].islower() and len(words[-1]) > 1:
                out.setdefault(" ".join(words[:-1]), []).append(words[-1])
    return {k: tuple(dict.fromkeys(v)) for k, v in out.items()}


# the same countries' regions by name ("Georgia", "British Columbia", "New South Wales")
_REGION_NAMES = (("en_US", "states"), ("en_CA", "provinces"), ("en_AU", "states"))


@functools.lru_cache(maxsize=1)
def region_names() -> tuple[tuple[str, ...], ...]:
    """The names of US states, Canadian provinces and Australian states, one tuple per country, from
    Faker's address providers."""
    return tuple(tuple(getattr(address(locale), attr)) for locale, attr in _REGION_NAMES)


@functools.lru_cache(maxsize=1)
def country_keys() -> frozenset[str]:
    """Names of the world's countries and territories, in key form (lower case, no accents), in every
    language Babel's CLDR data writes them in that this project speaks and in the languages of the
    addresses it meets most ("France", "Deutschland", "Italia", "España", "United Kingdom"), and the
    short forms addresses end in ("USA", "UK")."""
    from babel import Locale

    from redactdesk.lang.folding import strip_accents

    out: set[str] = set()
    for lang in ("en", "es", "fr", "de", "it", "pt"):  # (not Dutch: its "Norfolk" is the island)
        for name in Locale.parse(lang).territories.values():
            out.add(" ".join(strip_accents(name).lower().replace("-", " ").split()))
    return frozenset(out | {"usa", "uk", "uae", "u s a", "u k"})  # short forms addresses end in


# a family named in the plural ("the Smiths", "the Joneses", "the Lynches"): detection reads the surname
# from it, substitution says the surrogate surname so
SIBILANT_ENDS = ("s", "sh", "ch", "x", "z")


def plural_surname_stems(word: str) -> tuple[str, ...]:
    """The surnames a plural may be of, the plainer first: "smiths" -> ("smith",), "joneses" ->
    ("jonese", "jones"), "lynches" -> ("lynche", "lynch")."""
    low = word.lower()
    if low.endswith("es") and low[:-2].endswith(SIBILANT_ENDS):
        return word[:-1], word[:-2]
    return (word[:-1],)


def plural_surname(surname: str) -> str:
    """A family's name from its surname: "Miller" -> "Millers", "Cruz" -> "Cruzes", "Lynch" -> "Lynches"."""
    return surname + ("es" if surname.lower().endswith(SIBILANT_ENDS) else "s")
