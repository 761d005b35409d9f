"""The app and a command line on one project: a key press on a stale view never overwrites a decision
another program made meanwhile (it is refused, said, and the view shows what is stored)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from redactdesk.core.types import Span, SpanStatus
from redactdesk.store import ChangedElsewhere, NotFound, Project, SpanGone

CID = "call_synth_001"


def _first_suggestion_selected(qtbot, win, monkeypatch):
    """J selects the first open suggestion; the messages the window would show are collected."""
    errors = []
    monkeypatch.setattr(win.ctx, "error", lambda title, message: errors.append(message))
    qtbot.keyClick(win.focusWidget(), Qt.Key.Key_J)
    current = win.ctx.current_span()
    assert current is not None and current.status == SpanStatus.SUGGESTED
    return errors, current


def test_a_stale_accept_does_not_overwrite_a_rejection_made_by_another_program(qtbot, window, project_path,
                                                                                 monkeypatch):
    win = window
    errors, current = _first_suggestion_selected(qtbot, win, monkeypatch)
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


def test_a_key_on_a_suggestion_detection_replaced_meanwhile_says_so_and_changes_nothing(qtbot, window, project_path,
                                                                                        monkeypatch):
    """`redactdesk detect` run again while the app is open replaces the call's open suggestions (new
    ids): accepting the one the view still shows is refused with a message that says why."""
    win = window
    errors, current = _first_suggestion_selected(qtbot, win, monkeypatch)
    with Project.open(project_path, actor="cli") as other:
        again = [Span(s.start_word, s.end_word, s.category, score=s.score, sources=s.sources)
                 for s in other.spans(CID, SpanStatus.SUGGESTED)]
        other.replace_suggestions(CID, again)
    qtbot.keyClick(win.focusWidget(), Qt.Key.Key_A)  # on the old id
    assert errors and "another program" in errors[0] and "no longer" in errors[0]
    with Project.open(project_path) as p:
        assert not [d for d in p.audit_log(conversation_id=CID) if d.action == "accept"]
        same = [s for s in p.spans(CID) if (s.start_word, s.end_word) == (current.start_word, current.end_word)]
    assert [s.status for s in same] == [SpanStatus.SUGGESTED]  # the new suggestion, still open
    assert current.id not in [s.id for s in win.ctx.conversation.spans]  # the view shows what is stored


def test_changing_or_deleting_a_span_removed_since_it_was_read(project_path):
    with Project.open(project_path) as p:
        span = next(s for s in p.spans(CID) if s.status == SpanStatus.SUGGESTED)
        p.delete_span(span.id)
        for change in (lambda: p.update_span(span.id, action="recategorize", category="CITY"),
                       lambda: p.delete_span(span.id)):
            with pytest.raises(SpanGone, match="another program") as caught:
                change()
            assert isinstance(caught.value, NotFound) and isinstance(caught.value, ChangedElsewhere)


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


def test_the_window_shows_what_another_program_committed_without_a_key_press(qtbot, window, project_path):
    """A command line decides while the app is open: within a poll the open call's spans and the corpus
    list show it, with no key pressed in the app."""
    win = window
    conv = win.ctx.conversation
    assert conv is not None and conv.id == CID
    span = next(s for s in conv.spans if s.status == SpanStatus.SUGGESTED)
    assert win.check_outside_changes() is False  # nothing new yet
    with Project.open(project_path, actor="cli") as other:
        other.update_span(span.id, action="reject", status="rejected")
        other.add_conversation(type(conv)(id="call_from_cli", words=conv.words[:5], language=conv.language))
    qtbot.waitUntil(lambda: next(s for s in win.ctx.conversation.spans if s.id == span.id).status
                    == SpanStatus.REJECTED, timeout=10_000)
    qtbot.waitUntil(lambda: "call_from_cli" in [r.id for r in win.corpus.model.rows], timeout=5_000)
    assert win.check_outside_changes() is False  # seen once, not reloaded again


def test_the_windows_own_decisions_do_not_count_as_outside_changes(qtbot, window):
    win = window
    qtbot.keyClick(win.focusWidget(), Qt.Key.Key_J)
    qtbot.keyClick(win.focusWidget(), Qt.Key.Key_A)
    assert win.check_outside_changes() is False
