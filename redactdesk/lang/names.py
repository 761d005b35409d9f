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
