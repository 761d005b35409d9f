"""Keyboard review on a real window: key presses change the project file and its audit log."""

from __future__ import annotations

from PySide6.QtCore import Qt

from redactdesk.core.types import SpanStatus
from redactdesk.store import Project

CID = "call_synth_001"


def stored(path, cid=CID):
    """The spans and audit log as another program would see them (a fresh connection)."""
    with Project.open(path) as p:
        return p.spans(cid), p.audit_log(conversation_id=cid)


def key(qtbot, win, k, mods=Qt.KeyboardModifier.NoModifier):
    widget = win.focusWidget() or win.transcript
    qtbot.keyClick(widget, k, mods)


def suggested(win):
    return [s for s in win.ctx.conversation.spans if s.status == SpanStatus.SUGGESTED]


def test_navigate_accept_reject_with_keys(qtbot, window, project_path):
    win = window
    first, second, third = sorted(suggested(win), key=lambda s: s.start_word)[:3]
    key(qtbot, win, Qt.Key.Key_J)
    assert win.ctx.current_span_id == first.id
    key(qtbot, win, Qt.Key.Key_Tab)
    assert win.ctx.current_span_id == second.id
    key(qtbot, win, Qt.Key.Key_K)
    assert win.ctx.current_span_id == first.id

    key(qtbot, win, Qt.Key.Key_A)  # accept, then on to the next suggestion
    assert win.ctx.current_span_id == second.id
    key(qtbot, win, Qt.Key.Key_X)  # reject
    assert win.ctx.current_span_id == third.id
    key(qtbot, win, Qt.Key.Key_Return)  # accept with Enter

    spans, log = stored(project_path)
    status = {s.id: s.status for s in spans}
    assert status[first.id] == SpanStatus.ACCEPTED
    assert status[second.id] == SpanStatus.REJECTED
    assert status[third.id] == SpanStatus.ACCEPTED
    actions = [(d.action, d.span_id) for d in reversed(log) if d.span_id is not None]
    assert actions == [("accept", first.id), ("reject", second.id), ("accept", third.id)]
    assert all(d.role.value == "annotator" and d.actor == "tester" for d in log if d.span_id)
    # the transcript, waveform and spans list follow the selection
    nxt = win.ctx.current_span()
    assert win.transcript.current_span_id == nxt.id
    assert win.waveform.spans.current == nxt.id
    tree = win.panel_widgets["spans"].tree
    assert tree.currentItem().data(0, Qt.ItemDataRole.UserRole) == nxt.id


def test_backspace_rejects_and_backtab_goes_back(qtbot, window, project_path):
    win = window
    first, second = sorted(suggested(win), key=lambda s: s.start_word)[:2]
    key(qtbot, win, Qt.Key.Key_J)
    key(qtbot, win, Qt.Key.Key_J)
    assert win.ctx.current_span_id == second.id
    key(qtbot, win, Qt.Key.Key_Backtab, Qt.KeyboardModifier.ShiftModifier)
    assert win.ctx.current_span_id == first.id
    key(qtbot, win, Qt.Key.Key_Backspace)
    spans, _ = stored(project_path)
    assert {s.id: s.status for s in spans}[first.id] == SpanStatus.REJECTED


def test_skipped_suggestions_come_back_at_the_end(qtbot, window, project_path):
    win = window
    order = [s.id for s in sorted(suggested(win), key=lambda s: s.start_word)]
    key(qtbot, win, Qt.Key.Key_J)
    key(qtbot, win, Qt.Key.Key_S)  # skip the first
    assert win.ctx.current_span_id == order[1]
    seen = []
    for _ in order[1:]:
        seen.append(win.ctx.current_span_id)
        key(qtbot, win, Qt.Key.Key_A)
    assert seen == order[1:]
    assert win.ctx.current_span_id == order[0]  # the skipped one, last
    spans, log = stored(project_path)
    status = {s.id: s.status for s in spans}
    assert status[order[0]] == SpanStatus.SUGGESTED  # skipping is not a decision
    assert all(status[i] == SpanStatus.ACCEPTED for i in order[1:])
    assert not any(d.span_id == order[0] for d in log)


def test_number_key_changes_category_and_accepts(qtbot, window, project_path):
    win = window
    key(qtbot, win, Qt.Key.Key_J)
    span = win.ctx.current_span()
    target = win.ctx.taxonomy.keys[3]
    assert span.category != target
    key(qtbot, win, Qt.Key.Key_3)
    spans, log = stored(project_path)
    after = {s.id: s for s in spans}[span.id]
    assert (after.category, after.status) == (target, SpanStatus.ACCEPTED)
    assert log[0].action == "recategorise"
    assert log[0].before["category"] == span.category and log[0].after["category"] == target


def test_undo_and_redo_with_keys_are_audited(qtbot, window, project_path):
    win = window
    key(qtbot, win, Qt.Key.Key_J)
    span = win.ctx.current_span()
    key(qtbot, win, Qt.Key.Key_A)
    key(qtbot, win, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    spans, log = stored(project_path)
    assert {s.id: s.status for s in spans}[span.id] == SpanStatus.SUGGESTED
    assert log[0].action == "undo_accept" and log[0].span_id == span.id
    assert win.ctx.current_span_id == span.id  # undo brings the span back into view
    key(qtbot, win, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    spans, log = stored(project_path)
    assert {s.id: s.status for s in spans}[span.id] == SpanStatus.ACCEPTED
    assert [d.action for d in log[:3]] == ["redo_accept", "undo_accept", "accept"]


def test_extend_and_shrink_span_by_a_word(qtbot, window, project_path):
    win = window
    key(qtbot, win, Qt.Key.Key_J)
    span = win.ctx.current_span()
    key(qtbot, win, Qt.Key.Key_Right, Qt.KeyboardModifier.ShiftModifier)
    key(qtbot, win, Qt.Key.Key_Right, Qt.KeyboardModifier.ShiftModifier)
    key(qtbot, win, Qt.Key.Key_Left, Qt.KeyboardModifier.ShiftModifier)
    spans, log = stored(project_path)
    after = {s.id: s for s in spans}[span.id]
    assert (after.start_word, after.end_word) == (span.start_word, span.end_word + 1)
    assert [d.action for d in log[:3]] == ["resize", "resize", "resize"]


def test_double_click_marks_a_word_with_a_picked_category(qtbot, window, project_path):
    win = window
    conv = win.ctx.conversation
    covered = {w for s in conv.spans for w in s.word_range()}
    index = next(i for i, w in enumerate(conv.words) if i not in covered and w.text == "card")
    rect = win.transcript.word_rect(index)
    qtbot.mouseDClick(win.transcript.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    picker = win.picker
    assert picker is not None
    qtbot.waitUntil(picker.isVisible)
    qtbot.keyClick(picker, Qt.Key.Key_7)
    qtbot.waitUntil(win.transcript.hasFocus)
    category = win.ctx.taxonomy.keys[7]
    spans, log = stored(project_path)
    made = [s for s in spans if (s.start_word, s.end_word) == (index, index + 1)]
    assert len(made) == 1
    assert (made[0].category, made[0].status, made[0].sources) == (category, SpanStatus.ACCEPTED, ("manual",))
    assert log[0].action == "create" and log[0].role.value == "annotator"
    # undo removes it, redo restores it under the same id
    key(qtbot, win, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    spans, log = stored(project_path)
    assert not [s for s in spans if s.id == made[0].id]
    assert log[0].action == "undo_create"
    key(qtbot, win, Qt.Key.Key_Y, Qt.KeyboardModifier.ControlModifier)
    spans, _ = stored(project_path)
    assert [s.category for s in spans if s.id == made[0].id] == [category]


def test_drag_across_words_marks_them(qtbot, window, project_path):
    win = window
    conv = win.ctx.conversation
    start = next(i for i, w in enumerate(conv.words) if w.text == "northwind")
    view = win.transcript.viewport()
    a, b = win.transcript.word_rect(start).center(), win.transcript.word_rect(start + 1).center()
    qtbot.mousePress(view, Qt.MouseButton.LeftButton, pos=a)
    qtbot.mouseMove(view, b)
    qtbot.mouseRelease(view, Qt.MouseButton.LeftButton, pos=b)
    qtbot.waitUntil(lambda: win.picker is not None and win.picker.isVisible())
    qtbot.keyClick(win.picker, Qt.Key.Key_8)
    qtbot.waitUntil(win.transcript.hasFocus)
    spans, _ = stored(project_path)
    assert any((s.start_word, s.end_word, s.category) == (start, start + 2, win.ctx.taxonomy.keys[8])
               for s in spans)


def test_delete_key_removes_a_span_and_undo_brings_it_back(qtbot, window, project_path):
    win = window
    key(qtbot, win, Qt.Key.Key_J)
    span = win.ctx.current_span()
    key(qtbot, win, Qt.Key.Key_Delete)
    spans, log = stored(project_path)
    assert span.id not in {s.id for s in spans}
    assert log[0].action == "delete" and log[0].before["category"] == span.category
    key(qtbot, win, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    spans, log = stored(project_path)
    back = {s.id: s for s in spans}[span.id]
    assert (back.start_word, back.end_word, back.category, back.status) == (
        span.start_word, span.end_word, span.category, span.status)
    assert log[0].action == "undo_delete"
    assert win.ctx.current_span_id == span.id


def test_review_keys_work_from_the_spans_list(qtbot, window, project_path):
    win = window
    tree = win.panel_widgets["spans"].tree
    tree.setFocus()
    qtbot.waitUntil(tree.hasFocus)
    qtbot.keyClick(tree, Qt.Key.Key_J)
    span = win.ctx.current_span()
    assert span is not None and tree.currentItem().data(0, Qt.ItemDataRole.UserRole) == span.id
    qtbot.keyClick(tree, Qt.Key.Key_X)
    spans, _ = stored(project_path)
    assert {s.id: s.status for s in spans}[span.id] == SpanStatus.REJECTED
