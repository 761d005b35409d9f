"""The app and a command line on one project: a key press on a stale view never overwrites a decision
another program made meanwhile (it is refused, said, and the view shows what is stored)."""

from __future__ import annotations

from PySide6.QtCore import Qt

from redactdesk.core.types import SpanStatus
from redactdesk.store import ChangedElsewhere, Project

CID = "call_synth_001"


def test_a_stale_accept_does_not_overwrite_a_rejection_made_by_another_program(qtbot, window, project_path,
                                                                                 monkeypatch):
    win = window
    errors = []
    monkeypatch.setattr(win.ctx, "error", lambda title, message: errors.append(message))
    qtbot.keyClick(win.focusWidget(), Qt.Key.Key_J)
    current = win.ctx.current_span()
    assert current is not None and current.status == SpanStatus.SUGGESTED
    with Project.open(project_path, actor="cli") as other:  # e.g. `redactdesk decide … --reject`
        other.update_span(current.id, action="reject", status="rejected")
    qtbot.keyClick(win.focusWidget(), Qt.Key.Key_A)  # the view still shows it as suggested
    with Project.open(project_path) as p:
        _, stored = p.span(current.id)
        log = [(d.action, d.actor) for d in p.audit_log(conversation_id=CID) if d.span_id == current.id]
    assert stored.status == SpanStatus.REJECTED  # the other program's decision stands
    assert log == [("reject", "cli")]
    assert errors and "another program" in errors[0]
    assert next(s for s in win.ctx.conversation.spans if s.id == current.id).status == SpanStatus.REJECTED


def test_update_span_with_what_the_caller_saw(project_path):
    with Project.open(project_path) as p:
        span = next(s for s in p.spans(CID) if s.status == SpanStatus.SUGGESTED)
        p.update_span(span.id, action="accept", status="accepted", expect={"status": "suggested"})
        try:
            p.update_span(span.id, action="reject", status="rejected", expect={"status": "suggested"})
        except ChangedElsewhere as exc:
            assert "another program" in str(exc)
        else:
            raise AssertionError("a stale expectation was not refused")
        assert p.span(span.id)[1].status == SpanStatus.ACCEPTED
