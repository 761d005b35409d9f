"""Loading our spaCy pipelines does not import other packages' spaCy plug-ins (Presidio's pulls in
transformers: seconds at every process start)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from redactdesk.lang import spacy_pipelines


def test_the_tagger_and_a_release_docbin_load_without_presidio():
    pytest.importorskip("presidio_analyzer")
    code = ("import sys\n"
            "from redactdesk.detect.tagger import load_tagger\n"
            "from redactdesk.core.types import Conversation, Word\n"
            "from redactdesk.formats.docbin import docbin_bytes\n"
            "conv = Conversation(id='c', words=[Word('hello', 0.0, 0.5), Word('there', 0.5, 1.0)])\n"
            "assert docbin_bytes([conv])\n"
            "assert load_tagger('en') is not None\n"
            "print(sorted(m for m in ('presidio_analyzer', 'transformers') if m in sys.modules))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert out.stdout.strip() == "[]"


def test_the_plug_in_lookup_is_restored_after_loading():
    from spacy.util import registry

    from redactdesk.detect.tagger import model_dir

    before = registry._entry_point_factories.entry_points
    nlp = spacy_pipelines.load(model_dir("en"))
    assert [t.text for t in nlp("call me later")] == ["call", "me", "later"]
    assert registry._entry_point_factories.entry_points == before
    with pytest.raises(OSError):
        spacy_pipelines.load("/nonexistent/model/folder")
    assert registry._entry_point_factories.entry_points == before
