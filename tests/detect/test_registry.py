"""The source catalogue: built-ins by name (made on first ask), plug-ins beside them."""

import pytest

from redactdesk.detect import registry
from redactdesk.detect.errors import SourceParamsError, UnknownSourceError
from redactdesk.detect.registry import DEFAULT_SOURCES, get_source, register_source, source_names


class _Rules:
    name = "patterns"
    categories = frozenset({"PHONE"})
    trusted = frozenset()

    def validate(self, params):
        return {}

    def apply(self, docs, params):
        return [[] for _ in docs]


@pytest.fixture
def empty_registry(monkeypatch):
    monkeypatch.setattr(registry, "_REGISTRY", {})


def test_every_builtin_and_gazetteer_part_is_listed_before_any_was_made(empty_registry):
    assert set(DEFAULT_SOURCES) <= set(source_names())
    assert {"keyword_baseline", "worldnames", "places", "addresses", "organisations", "spelling"} <= set(source_names())
    assert get_source("places").categories == frozenset({"CITY", "COUNTRY", "LOCATION"})
    assert get_source("gazetteer") is get_source("gazetteer")


def test_a_builtin_name_is_taken_even_before_the_builtin_was_made(empty_registry):
    # the old registry took a plug-in named "patterns" here, and then never loaded the other built-ins
    with pytest.raises(SourceParamsError, match="already registered"):
        register_source(_Rules())
    register_source(_Rules(), replace=True)
    assert isinstance(get_source("patterns"), _Rules)
    assert get_source("identifiers").name == "identifiers"


def test_an_unknown_source_is_refused_with_the_known_ones(empty_registry):
    with pytest.raises(UnknownSourceError, match="no detection source named 'nope'; registered: addresses"):
        get_source("nope")
