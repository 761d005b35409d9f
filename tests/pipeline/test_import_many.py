"""Importing several recordings: one that cannot be imported never takes the others down."""

from __future__ import annotations

import numpy as np
import soundfile as sf

from redactdesk.pipeline.importing import find_sidecar_transcript, import_many
from redactdesk.store import Project


def _wav(path, seed):
    sf.write(str(path), np.random.default_rng(seed).standard_normal(8000).astype("float32") * 0.1, 16000)
    return path


def test_a_duplicate_and_a_damaged_file_are_listed_and_the_rest_imported(tmp_path):
    a, b = _wav(tmp_path / "a.wav", 1), _wav(tmp_path / "b.wav", 2)
    bad = tmp_path / "c.wav"
    bad.write_bytes(b"RIFF not really audio")
    with Project.create(tmp_path / "p.rdproj") as p:
        import_many(p, [a])
        failures: list[tuple[str, str]] = []
        results = import_many(p, [a, bad, b], failures=failures)
        assert [r.conversation_id for r in results] == ["b"]
        assert [name for name, _ in failures] == ["a.wav", "c.wav"]
        assert "already imported" in failures[0][1]
        assert sorted(p.conversation_ids()) == ["a", "b"]


def test_a_sidecar_name_too_long_for_the_file_system_is_no_sidecar(tmp_path):
    assert find_sidecar_transcript(tmp_path / ("x" * 300 + ".wav")) is None
