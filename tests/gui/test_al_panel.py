"""Active learning in the app: label a batch from the queue, see the model retrain and the queue move on."""

from __future__ import annotations

import dataclasses

import pytest

from redactdesk.core.types import SpanStatus

USER_ROLE = 256  # Qt.ItemDataRole.UserRole


@pytest.fixture
def al_window(qtbot, tmp_path, settings, monkeypatch):
    monkeypatch.setenv("REDACTDESK_AL_AUTOSTART", "1")
    from redactdesk.gui.app import build_main_window
    from redactdesk.learn.training import TrainingSettings
    from redactdesk.store import Project
    from redactdesk.synth import generate_corpus

    path = tmp_path / "al.rdproj"
    with Project.create(path, actor="tester") as project:
        for conv in generate_corpus(range(100_300, 100_306)):
            conv.spans = [dataclasses.replace(s, status=SpanStatus.SUGGESTED) for s in conv.spans]
            project.add_conversation(conv)
    project = Project.open(path, actor="tester")
    win = build_main_window(project, role="annotator", settings=settings)
    qtbot.addWidget(win)
    win.show()
    queue, model = win.panel_widgets["al_queue"], win.panel_widgets["al_model"]
    ctl = queue.ctl
    ctl.learner.training = TrainingSettings(max_iterations=25)
    queue.batch.setValue(6)
    yield win, queue, model, ctl
    win.close()
    project.close()


def _rows(queue):
    return [queue.tree.topLevelItem(i) for i in range(queue.tree.topLevelItemCount())]


def _label_queue(qtbot, win, queue):
    """Label every queued turn the way an annotator would: accept its suggestions, or say 'nothing here'."""
    from redactdesk.gui.commands import SetStatus

    ctx = win.ctx
    items = [row.data(0, USER_ROLE) for row in _rows(queue)]
    for item in items:
        row = next(r for r in _rows(queue) if r.data(0, USER_ROLE) == item)  # labelled rows leave the queue
        queue.tree.setCurrentItem(row)
        queue._open(row)  # what a double-click does
        assert ctx.conversation.id == item.conversation_id and ctx.current_word == item.start_word
        spans = [s for s in ctx.conversation.spans
                 if s.start_word < item.end_word and item.start_word < s.end_word and s.status == SpanStatus.SUGGESTED]
        if spans:
            for span in spans:
                assert ctx.push_command(SetStatus(ctx, span, SpanStatus.ACCEPTED))
        else:
            queue.none_btn.click()


def test_label_a_batch_then_queue_and_curve_update(qtbot, al_window):
    win, queue, model, ctl = al_window
    qtbot.waitUntil(lambda: queue.tree.topLevelItemCount() == 6 and not ctl.busy, timeout=60_000)
    assert model.curve_points() == [] and "No model yet" in model.version.text()
    first = [queue.tree.topLevelItem(i).data(0, USER_ROLE) for i in range(6)]
    assert all(q.margin is not None for q in first)  # the bundled source model scores the seed

    _label_queue(qtbot, win, queue)
    qtbot.waitUntil(lambda: len(model.curve_points()) == 1, timeout=60_000)
    qtbot.waitUntil(lambda: not ctl.busy and queue.tree.topLevelItemCount() == 6, timeout=60_000)
    n1 = model.curve_points()[0][0]
    assert n1 >= 6 and "Model v" in model.version.text()
    second = [queue.tree.topLevelItem(i).data(0, USER_ROLE) for i in range(6)]
    assert not {(q.conversation_id, q.turn_index) for q in second} & {(q.conversation_id, q.turn_index) for q in first}
    assert ctl.learner.model is not None and "of" in queue.counts.text()

    _label_queue(qtbot, win, queue)
    qtbot.waitUntil(lambda: len(model.curve_points()) == 2, timeout=60_000)
    assert model.curve_points()[1][0] > n1
    qtbot.waitUntil(lambda: not ctl.busy, timeout=60_000)
    assert model.table.topLevelItemCount() > 0 and model.hint.text()


def test_strategy_selector_changes_the_queue_strategy(qtbot, al_window):
    win, queue, model, ctl = al_window
    qtbot.waitUntil(lambda: not ctl.busy and queue.tree.topLevelItemCount() == 6, timeout=60_000)
    index = queue.strategy.findData("t-kmax")
    queue.strategy.setCurrentIndex(index)
    assert ctl.learner.strategy.spec == "t-kmax"
    assert win.ctx.project.setting("learn.strategy") == "t-kmax"
