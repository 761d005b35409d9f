"""spaCy pipelines loaded without importing other packages' plug-ins.

Creating any spaCy ``Language`` imports every package that registers a pipeline factory through
the ``spacy_factories`` entry point, whether the pipeline uses it or not. With Presidio installed
(the ``presidio`` and ``bench`` extras) that is ``presidio_analyzer`` and, through it,
``transformers``: about 3 s on 2 cores, paid by every process that loads the tagger, the NER model
or a learner version (each CLI command, each cluster worker, the app). redactdesk's pipelines use
only spaCy's own factories, so these loaders switch the entry-point lookup off while they build a
pipeline and restore it after; other code in the process sees spaCy as it was.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

_LOCK = threading.Lock()


@contextlib.contextmanager
def _own_factories_only() -> Iterator[None]:
    from spacy.util import registry

    plugins = getattr(registry, "_entry_point_factories", None)  # spaCy 3.x; elsewhere nothing changes
    if plugins is None or not hasattr(plugins, "entry_points"):
        yield
        return
    with _LOCK:
        before = plugins.entry_points
        plugins.entry_points = False
        try:
            yield
        finally:
            plugins.entry_points = before


def load(name: str | Path, **kwargs: Any) -> Any:
    """``spacy.load(name, **kwargs)`` without other packages' factory plug-ins."""
    import spacy

    with _own_factories_only():
        return spacy.load(name, **kwargs)


def from_config(config: Any, **kwargs: Any) -> Any:
    """``spacy.util.load_model_from_config(config, **kwargs)`` without other packages' factory plug-ins."""
    from spacy.util import load_model_from_config

    with _own_factories_only():
        return load_model_from_config(config, **kwargs)
