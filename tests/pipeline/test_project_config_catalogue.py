"""The settings the panels change are in project_config's catalogue: checked like any other setting."""

from __future__ import annotations

import pytest

from redactdesk.learn.service import DEFAULT_STRATEGY, STRATEGY_SETTING
from redactdesk.pipeline.project_config import SETTINGS, SettingError, as_text, set_setting
from redactdesk.store import Project


@pytest.fixture
def project(tmp_path):
    with Project.create(tmp_path / "p.rdproj", actor="tester") as p:
        yield p


def test_the_learning_strategy_is_checked_stored_canonical_and_defaults_like_the_learner(project):
    assert SETTINGS[STRATEGY_SETTING].default == DEFAULT_STRATEGY
    assert set_setting(project, STRATEGY_SETTING, " T-KMAX ")[1] == "t-kmax"
    with pytest.raises(SettingError) as refused:
        set_setting(project, STRATEGY_SETTING, "quillfeather")
    assert "quillfeather" not in str(refused.value) and project.setting(STRATEGY_SETTING) == "t-kmax"


def test_the_review_sample_is_a_list_of_ids_or_nothing(project):
    assert set_setting(project, "review.sample", as_text(["call_1", "call_2"]))[1] == ["call_1", "call_2"]
    assert set_setting(project, "review.sample", as_text(None))[1] is None
    for bad in ('{"a": 1}', "[1, 2]", "call_1", '[""]'):
        with pytest.raises(SettingError) as refused:
            set_setting(project, "review.sample", bad)
        assert bad not in str(refused.value)
    assert project.setting("review.sample") is None
