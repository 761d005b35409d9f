"""The catalogue of detection sources: the built-ins by name, and any registered at run time.

The protocol and the document view live in :mod:`redactdesk.detect.sources`; the sources know
nothing of this catalogue (the Presidio shape: no import circle between the registry and what it
lists). The built-ins are named here by module, factory and arguments and made the first time one
is asked for, so spaCy and the word lists load only then. :func:`register_source` adds others: the
active-learning model, a project's own rules, test doubles; they take part in the vote like the
built-ins.
"""

from __future__ import annotations

import importlib
from typing import Any

from redactdesk.detect.errors import SourceParamsError, UnknownSourceError
from redactdesk.detect.sources import Source

DEFAULT_SOURCES = ("patterns", "identifiers", "gazetteer", "spacy", "tagger")
_GAZETTEER = "redactdesk.detect.gazetteer"
BUILTIN: dict[str, tuple[str, str, tuple[Any, ...]]] = {  # name -> (module, factory, arguments)
    "patterns": ("redactdesk.detect.patterns", "PatternSource", ()),
    "identifiers": ("redactdesk.detect.identifiers", "IdentifierSource", ()),
    "gazetteer": (_GAZETTEER, "GazetteerSource", ()),
    "spacy": ("redactdesk.detect.ner", "SpacySource", ()),
    "tagger": ("redactdesk.detect.tagger", "TaggerSource", ()),
    "keyword_baseline": ("redactdesk.detect.baseline", "KeywordBaselineSource", ()),
    # the gazetteer's recognisers one by one (for evaluation and custom source sets)
    "worldnames": (_GAZETTEER, "PartSource", ("worldnames", "names", frozenset({"PERSON"}))),
    "places": (_GAZETTEER, "PartSource", ("places", "places", frozenset({"CITY", "COUNTRY", "LOCATION"}))),
    "addresses": (_GAZETTEER, "PartSource", ("addresses", "addresses", frozenset({"ADDRESS"}))),
    "organisations": (_GAZETTEER, "PartSource", ("organisations", "organisations", frozenset({"ORGANIZATION"}))),
    "spelling": (_GAZETTEER, "PartSource", ("spelling", "spelling", frozenset({"SPELLED_LETTERS"}))),
    "groups": (_GAZETTEER, "PartSource", ("groups", "groups", frozenset({"NRP"}))),
}
_REGISTRY: dict[str, Source] = {}


def register_source(source: Source, *, replace: bool = False) -> Source:
    """Add a source to the catalogue (the hook for the active-learning model and project rules);
    a name already known, a built-in's too, needs ``replace=True``."""
    for attr in ("name", "categories", "trusted", "validate", "apply"):
        if not hasattr(source, attr):
            raise SourceParamsError(f"a detection source needs {attr!r}; {source!r} has none")
    if (source.name in _REGISTRY or source.name in BUILTIN) and not replace:
        raise SourceParamsError(f"a source named {source.name!r} is already registered (pass replace=True)")
    _REGISTRY[source.name] = source
    return source


def unregister_source(name: str) -> None:
    """Forget a registered source (a built-in is made afresh when next asked for)."""
    _REGISTRY.pop(name, None)


def get_source(name: str) -> Source:
    """The source called ``name`` (one instance per process); UnknownSourceError naming the known ones."""
    source = _REGISTRY.get(name)
    if source is None and name in BUILTIN:
        module, factory, args = BUILTIN[name]
        source = _REGISTRY[name] = getattr(importlib.import_module(module), factory)(*args)
    if source is None:
        raise UnknownSourceError(f"no detection source named {name!r}; registered: {', '.join(source_names())}")
    return source


def source_names() -> list[str]:
    """Every known source name, sorted."""
    return sorted(set(BUILTIN) | set(_REGISTRY))
