"""Registers the built-in sources (imported lazily by the registry)."""

from __future__ import annotations

from redactdesk.detect.baseline import KeywordBaselineSource
from redactdesk.detect.gazetteer import GazetteerSource, part_sources
from redactdesk.detect.identifiers import IdentifierSource
from redactdesk.detect.ner import SpacySource
from redactdesk.detect.patterns import PatternSource
from redactdesk.detect.sources import _REGISTRY, register_source
from redactdesk.detect.tagger import TaggerSource

for _src in (PatternSource(), GazetteerSource(), SpacySource(), KeywordBaselineSource(), TaggerSource(), IdentifierSource()):
    if _src.name not in _REGISTRY:
        register_source(_src)
for _src in part_sources():  # the gazetteer's recognisers one by one: worldnames, places, addresses, ...
    if _src.name not in _REGISTRY:
        register_source(_src)
