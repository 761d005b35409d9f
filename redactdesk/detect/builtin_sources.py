"""Registers the built-in sources (imported lazily by the registry)."""

from __future__ import annotations

from redactdesk.detect.baseline import KeywordBaselineSource
from redactdesk.detect.gazetteer import GazetteerSource
from redactdesk.detect.ner import SpacySource
from redactdesk.detect.patterns import PatternSource
from redactdesk.detect.sources import _REGISTRY, register_source

for _src in (PatternSource(), GazetteerSource(), SpacySource(), KeywordBaselineSource()):
    if _src.name not in _REGISTRY:
        register_source(_src)
