"""Test-wide settings: Qt renders offscreen, models never reach for a hub."""

import os

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
# batch stages run in the test process unless a test asks for a cluster (--workers N, executor=...)
os.environ.setdefault("REDACTDESK_WORKERS", "1")


@pytest.fixture(autouse=True)
def _private_config_dir(tmp_path_factory, monkeypatch):
    """Every test gets its own redactdesk config folder (reviewers' keys, trust store): none writes
    the real home folder, and no test sees another's keys."""
    monkeypatch.setenv("REDACTDESK_CONFIG_DIR", str(tmp_path_factory.mktemp("config")))
    # the CLI's activity log and crash logs go to the user log folder ($XDG_STATE_HOME/redactdesk/log)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path_factory.mktemp("state")))
