"""Test-wide settings: Qt renders offscreen, models never reach for a hub."""

import os

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")


@pytest.fixture(autouse=True)
def _private_config_dir(tmp_path_factory, monkeypatch):
    """Every test gets its own redactdesk config folder (reviewers' keys, trust store): none writes
    the real home folder, and no test sees another's keys."""
    monkeypatch.setenv("REDACTDESK_CONFIG_DIR", str(tmp_path_factory.mktemp("config")))
