"""Allow/deny lists from a span's context menu (undoable, re-detects), and Tools ▸ Detect for real."""

from __future__ import annotations

from PySide6.QtCore import QPoint
from PySide6.QtGui import QContextMenuEvent
from PySide6.QtWidgets import QApplication

from redactdesk.core.types import Role, SpanStatus
from redactdesk.detect.lists import allow_entry_for


def right_click(qtbot, widget, pos):
    """What a right-click delivers (QTest's mouse clicks do not make context-menu events)."""
    event = QContextMenuEvent(QContextMenuEvent.Reason.Mouse, pos, widget.mapToGlobal(pos))
    QApplication.sendEvent(widget, event)


def right_click_word(qtbot, win, index):
    win.stage.menu = None
    win.transcript.ensure_visible(index, index)
    right_click(qtbot, win.transcript.viewport(), win.transcript.word_rect(index).center())
    qtbot.waitUntil(lambda: win.stage.menu is not None and win.stage.menu.isVisible())
    return win.stage.menu


def menu_action(menu, name):
    found = [a for a in menu.actions() if a.objectName() == name]
    assert found, f"no {name} in {[a.text() for a in menu.actions()]}"
    return found[0]


def wait_for_detection(qtbot, win):
    qtbot.waitUntil(lambda: not win.ctx.jobs.jobs and win.ctx.last_status.startswith("Detected again"),
                    timeout=60000)
    win.ctx.last_status = ""


def suggested_texts(win):
    conv = win.project.load_conversation("call_synth_001")
    return {allow_entry_for(conv, s): s for s in conv.spans if s.status == SpanStatus.SUGGESTED}


def test_never_flag_this_adds_to_the_allow_list_and_redetects_undoably(qtbot, window):
    win = window
    win.ctx.set_role("linguist")
    conv = win.ctx.conversation
    email = next(s for s in conv.spans if s.category == "EMAIL")
    entry = allow_entry_for(conv, email)
    assert entry

    menu = right_click_word(qtbot, win, email.start_word + 1)
    assert win.ctx.current_span_id == email.id  # right-click selects what it points at
    menu_action(menu, "act_never_flag").trigger()
    menu.close()
    wait_for_detection(qtbot, win)
    assert win.project.terms("allow") == [(entry, "")]
    found = suggested_texts(win)
    assert entry not in found
    assert any("patterns" in s.sources for s in found.values())  # the detector, not the test's spans
    log = win.project.audit_log()
    assert any(d.action == "allow_list_add" and d.role == Role.LINGUIST for d in log)
    # hover shows what the detector said about a span
    sarah = next(s for s in win.ctx.conversation.spans if win.ctx.conversation.span_text(s) == "sarah")
    html = win.transcript.tooltip_html(sarah.start_word)
    assert sarah.sources and all(src in html for src in sarah.sources)
    assert sarah.reason and sarah.reason.split()[0] in html

    win.act_undo.trigger()
    wait_for_detection(qtbot, win)
    assert win.project.terms("allow") == []
    found = suggested_texts(win)
    assert entry in found and found[entry].category == "EMAIL"
    assert any(d.action == "allow_list_remove" for d in win.project.audit_log())


def test_always_flag_this_adds_to_the_deny_list_and_flags_other_mentions(qtbot, window):
    win = window
    win.ctx.set_role("linguist")
    words = [w.text for w in win.ctx.conversation.words]
    first = words.index("card")
    second = words.index("card", first + 1)
    win.create_span(first, first + 1, "GENERIC_ID")

    menu = right_click_word(qtbot, win, first)
    action = menu_action(menu, "act_always_flag")
    assert "GENERIC_ID" in action.text()
    action.trigger()
    menu.close()
    wait_for_detection(qtbot, win)
    assert win.project.terms("deny") == [("card", "GENERIC_ID")]
    at_second = [s for s in win.project.spans("call_synth_001") if s.start_word == second]
    assert len(at_second) == 1 and at_second[0].sources == ("deny_list",)
    assert at_second[0].status == SpanStatus.SUGGESTED
    manual = [s for s in win.project.spans("call_synth_001") if s.start_word == first]
    assert [s.status for s in manual] == [SpanStatus.ACCEPTED]  # the person's decision stays

    win.act_undo.trigger()
    wait_for_detection(qtbot, win)
    assert win.project.terms("deny") == []
    assert not [s for s in win.project.spans("call_synth_001") if s.start_word == second]

    # the same entry twice is not a second command
    menu = right_click_word(qtbot, win, first)
    menu_action(menu, "act_always_flag").trigger()
    menu.close()
    wait_for_detection(qtbot, win)
    count = win.ctx.undo_stack.count()
    menu = right_click_word(qtbot, win, first)
    menu_action(menu, "act_always_flag").trigger()
    menu.close()
    assert win.ctx.undo_stack.count() == count and "Already on the deny list" in win.ctx.last_status


def test_annotators_see_the_list_actions_disabled(qtbot, window):
    win = window
    span = win.ctx.conversation.spans[0]
    menu = right_click_word(qtbot, win, span.start_word)
    assert not menu_action(menu, "act_never_flag").isEnabled()
    assert not menu_action(menu, "act_always_flag").isEnabled()
    menu.close()
    # the Menu key opens the same menu for the word under the cursor
    win.stage.menu = None
    win.click_word(span.start_word)
    QApplication.sendEvent(win.transcript, QContextMenuEvent(QContextMenuEvent.Reason.Keyboard, QPoint(0, 0),
                                                             win.transcript.mapToGlobal(QPoint(0, 0))))
    qtbot.waitUntil(lambda: win.stage.menu is not None and win.stage.menu.isVisible())
    names = [a.objectName() for a in win.stage.menu.actions()]
    assert {"act_never_flag", "act_always_flag", "act_rename_speaker", "act_edit_turn"} <= set(names)
    win.stage.menu.close()
    assert win.project.terms("allow") == [] and win.project.terms("deny") == []


def test_tools_detect_selected_runs_the_detector_on_the_current_conversation(qtbot, window):
    win = window
    before = {s.id for s in win.ctx.conversation.spans}
    win.act_detect.trigger()
    qtbot.waitUntil(lambda: not win.ctx.jobs.jobs and "suggestion(s)" in win.ctx.last_status, timeout=60000)
    spans = win.project.spans("call_synth_001")
    assert spans and not {s.id for s in spans} & before  # the test's suggestions were replaced
    assert {s.category for s in spans} >= {"PERSON", "EMAIL", "PHONE"}
    assert {s.id for s in win.ctx.conversation.spans} == {s.id for s in spans}  # the view follows
