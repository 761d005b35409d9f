"""Settings changed from the panels go through project_config.set_setting: checked, audited, undoable."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSettings

from redactdesk.core.types import Role
from redactdesk.gui.commands import SetSetting
from redactdesk.gui.context import AppContext
from redactdesk.gui.panels.review import make_review_panel
from redactdesk.resources import load_taxonomy
from redactdesk.store import Project


@pytest.fixture
def reviewer(qtbot, project_path, tmp_path):
    project = Project.open(project_path, actor="rita", role=Role.REVIEWER)
    ctx = AppContext(project, load_taxonomy(), Role.REVIEWER, QSettings(str(tmp_path / "s.ini"),
                                                                        QSettings.Format.IniFormat))
    panel = make_review_panel(ctx)
    qtbot.addWidget(panel)
    yield ctx, panel
    ctx.jobs.cancel_all()
    ctx.jobs.wait(30000)
    project.close()


def _settings_log(project):
    return [(d.action, d.before["key"], d.before["value"], d.after["value"], d.actor, d.role)
            for d in project.audit_log(newest_first=False) if d.action.endswith("setting")]


def test_the_review_threshold_set_in_the_panel_is_an_audited_undoable_setting(reviewer):
    ctx, panel = reviewer
    panel.threshold.setValue(7.5)
    panel.threshold.editingFinished.emit()
    assert ctx.project.setting("review.threshold") == 7.5
    ctx.undo_stack.undo()
    assert ctx.project.setting("review.threshold") == 5.0  # the catalogue's default, as it read before
    ctx.undo_stack.redo()
    assert _settings_log(ctx.project) == [
        ("setting", "review.threshold", None, 7.5, "rita", Role.REVIEWER),
        ("undo_setting", "review.threshold", 7.5, 5.0, "rita", Role.REVIEWER),
        ("redo_setting", "review.threshold", 5.0, 7.5, "rita", Role.REVIEWER)]


def test_the_review_sample_drawn_and_cleared_in_the_panel_is_audited(reviewer):
    ctx, panel = reviewer
    panel.sample_size.setValue(1)
    panel.draw_sample()
    drawn = ctx.project.setting("review.sample")
    assert isinstance(drawn, list) and len(drawn) == 1
    panel.clear_sample()
    assert ctx.project.setting("review.sample") is None
    assert [(a, k, after) for a, k, _, after, _, _ in _settings_log(ctx.project)] == [
        ("setting", "review.sample", drawn), ("setting", "review.sample", None)]


def test_a_value_the_catalogue_refuses_is_not_stored_and_the_message_repeats_nothing(reviewer):
    ctx, _ = reviewer
    errors = []
    ctx.error = lambda title, text: errors.append(text)
    assert not ctx.push_command(SetSetting(ctx, "review.threshold", "Marjorie", "Risk threshold"))
    assert ctx.project.setting("review.threshold") is None and not _settings_log(ctx.project)
    assert errors and "number" in errors[0] and "Marjorie" not in errors[0]
    assert ctx.undo_stack.count() == 0  # nothing to undo


def test_the_learning_strategy_chosen_in_the_panel_is_an_audited_setting(qtbot, window):
    queue = window.panel_widgets["al_queue"]
    queue.strategy.setCurrentIndex(queue.strategy.findData("t-kmax"))
    assert window.project.setting("learn.strategy") == "t-kmax"
    assert _settings_log(window.project)[-1] == ("setting", "learn.strategy", None, "t-kmax", "tester",
                                                 Role.ANNOTATOR)
