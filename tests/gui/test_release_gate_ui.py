"""Release gate in the app (issue 15, "fail closed"): the sign-off dialog shows the counts first and
takes exclusions and written overrides; the export dialog lists what it refuses over and goes there;
Ctrl+Shift+R marks a conversation reviewed; the corpus shows each conversation's gate; the risk
panel calls unreviewed conversations unknown."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QSettings, Qt

from redactdesk.core.types import Role, Span, SpanStatus
from redactdesk.gui import export_dialog
from redactdesk.gui.app import build_main_window
from redactdesk.gui.context import AppContext
from redactdesk.gui.corpus import GATE_TEXT_ROLE
from redactdesk.gui.panels import review as review_module
from redactdesk.resources import load_taxonomy
from redactdesk.risk.signoff import signoff_state
from redactdesk.store import Project

OPEN, REVIEWED, UNDETECTED, EMPTY = "open", "reviewed", "undetected", "empty"


def make_project(tmp_path: Path, kinds: dict[str, str], synthetic, actor: str = "rita") -> Path:
    """A project with one synthetic call (seven PII spans) per entry of ``kinds``:

    open: detected, every span still suggested; reviewed: detected, every span accepted, marked
    reviewed; undetected: spans accepted but detection never ran; empty: detected, no spans, not reviewed.
    ``synthetic`` is the ``synthetic_call`` fixture (tests/gui/conftest.py).
    """
    path = tmp_path / "gate.rdproj"
    with Project.create(path, actor=actor, role=Role.REVIEWER) as project:
        for cid, kind in kinds.items():
            conv = synthetic(tmp_path, cid)
            spans = [Span(s.start_word, s.end_word, s.category, SpanStatus.SUGGESTED, score=s.score,
                          sources=s.sources, reason=s.reason) for s in conv.spans]
            conv.spans = [] if kind in (OPEN, EMPTY) else [
                Span(s.start_word, s.end_word, s.category, SpanStatus.ACCEPTED) for s in spans]
            project.add_conversation(conv)
            if kind == OPEN:
                project.replace_suggestions(cid, spans, source="detect")
            elif kind in (REVIEWED, EMPTY):
                project.replace_suggestions(cid, [], source="detect")
            if kind == REVIEWED:
                project.mark_reviewed(cid)
    return path


@pytest.fixture
def settings(tmp_path):
    return QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)


@pytest.fixture
def gate_ctx(qtbot, tmp_path, settings, synthetic_call):
    """A reviewer's context on call_1 (7 open suggestions), call_2 (reviewed), call_3 (never detected)."""
    project = Project.open(make_project(tmp_path, {"call_1": OPEN, "call_2": REVIEWED, "call_3": UNDETECTED},
                                        synthetic_call),
                           actor="root", role=Role.REVIEWER)
    ctx = AppContext(project, load_taxonomy(), Role.REVIEWER, settings)
    yield ctx
    ctx.jobs.cancel_all()
    ctx.jobs.wait(30000)
    project.close()


def open_window(qtbot, path: Path, settings, role: str = "reviewer"):
    project = Project.open(path, actor="root")
    win = build_main_window(project, role=role, settings=settings)
    win.show()
    qtbot.waitExposed(win)
    return win, project


def close_window(qtbot, win, project) -> None:
    win.ctx.jobs.cancel_all()
    win.ctx.jobs.wait(30000)
    win.close()
    win.deleteLater()
    qtbot.wait(1)
    project.close()


def _top(widget, dialog) -> int:
    return widget.mapTo(dialog, QPoint(0, 0)).y()


# ---------------------------------------------------------------------------------------------- sign-off
def test_sign_off_dialog_shows_the_counts_before_the_name_and_remembers_the_reviewer(qtbot, gate_ctx):
    panel = review_module.ReviewPanel(gate_ctx)
    qtbot.addWidget(panel)
    dialog = panel.open_sign_off()
    qtbot.waitExposed(dialog)
    assert dialog.counts.text() == "1 of 3 conversation(s) ready for release"
    detail = dialog.counts_detail.text()
    assert "7 undecided suggestion(s)" in detail and "1 never detected" in detail and "2 not reviewed" in detail
    assert review_module.style.BAD in dialog.counts.styleSheet()  # red: something is blocked
    assert _top(dialog.counts, dialog) < _top(dialog.name, dialog)  # counts first, then who signs
    # the conversations that are not ready, with what is open
    rows = {dialog.table.item(r, 0).text(): dialog.table.item(r, 1).text() for r in range(dialog.table.rowCount())}
    assert set(rows) == {"call_1", "call_3"}
    assert "7 undecided suggestion(s)" in rows["call_1"] and "never detected" in rows["call_3"]
    # signing with them kept is allowed, but the dialog says plainly what follows, above the button
    effect = dialog.effect.text()
    assert "2 conversation(s) still blocked" in effect
    assert "the export will refuse until these are reviewed, excluded or overridden" in effect
    assert _top(dialog.effect, dialog) < _top(dialog.sign_button, dialog)
    assert dialog.name.text() == "root"  # nothing remembered yet: the login name
    dialog.name.setText("Rita Reviewer")
    qtbot.mouseClick(dialog.sign_button, Qt.MouseButton.LeftButton)
    state = signoff_state(gate_ctx.project)
    assert state.valid and state.reviewer == "Rita Reviewer" and not state.excluded and not state.overrides
    assert state.scope["seen"]["undecided_suggestions"] == 7 and state.scope["seen"]["blocked"] == 2
    # the next sign-off (another session: a new dialog) remembers the reviewer
    again = panel.open_sign_off()
    assert again.name.text() == "Rita Reviewer"
    again.reject()


def test_excluding_and_overriding_from_the_dialog_are_stored_in_the_sign_off(qtbot, gate_ctx):
    panel = review_module.ReviewPanel(gate_ctx)
    qtbot.addWidget(panel)
    dialog = panel.open_sign_off()
    qtbot.waitExposed(dialog)
    exclude = dialog.choice_boxes["call_3"]
    exclude.setCurrentIndex(exclude.findText("Exclude from release"))
    override = dialog.choice_boxes["call_1"]
    assert not dialog.reason_edits["call_1"].isEnabled()
    override.setCurrentIndex(override.findText("Release with override"))
    reason = dialog.reason_edits["call_1"]
    assert reason.isEnabled()
    qtbot.keyClicks(reason, "agreed with the data owner: names are public")
    assert "refuse" not in dialog.effect.text() and "1 released by written override" in dialog.effect.text()
    dialog.name.setText("Rita Reviewer")
    qtbot.mouseClick(dialog.sign_button, Qt.MouseButton.LeftButton)
    assert dialog.error is None and not dialog.isVisible()
    state = signoff_state(gate_ctx.project)
    assert state.valid
    assert state.excluded == ("call_3",)
    assert state.overrides == {"call_1": "agreed with the data owner: names are public"}
    assert state.scope["seen"]["excluded"] == 1 and state.scope["seen"]["blocked"] == 0
    assert state.scope["seen"]["before_choices"]["undecided_suggestions"] == 7
    # the panel's gate line follows the sign-off's choices
    assert "1 excluded" in panel.gate_label.text() and "override" in panel.gate_label.text()


def test_a_too_short_override_reason_is_refused_with_a_message(qtbot, gate_ctx):
    panel = review_module.ReviewPanel(gate_ctx)
    qtbot.addWidget(panel)
    dialog = panel.open_sign_off()
    qtbot.waitExposed(dialog)
    dialog.name.setText("Rita Reviewer")
    box = dialog.choice_boxes["call_1"]
    box.setCurrentIndex(box.findText("Release with override"))
    qtbot.keyClicks(dialog.reason_edits["call_1"], "ok  fine")
    qtbot.mouseClick(dialog.sign_button, Qt.MouseButton.LeftButton)
    assert dialog.isVisible()  # still open: nothing was signed
    assert dialog.message.isVisible()
    assert "call_1" in dialog.message.text() and "at least 10 characters" in dialog.message.text()
    assert "it has 7" in dialog.message.text()
    assert not signoff_state(gate_ctx.project).signed
    # a real reason is taken
    qtbot.keyClicks(dialog.reason_edits["call_1"], ", the caller asked for it")
    qtbot.mouseClick(dialog.sign_button, Qt.MouseButton.LeftButton)
    assert signoff_state(gate_ctx.project).overrides == {"call_1": "ok fine, the caller asked for it"}


# ---------------------------------------------------------------------------------------------- export
def _export_dialog(qtbot, win, tmp_path: Path, name: str):
    export = win.panel_widgets["review"].open_export()
    qtbot.waitExposed(export)
    export.folder.setText(str(tmp_path / "releases"))
    export.name.setText(name)
    export.relisten.setChecked(False)
    export.prosody.setChecked(False)
    return export


def test_export_with_undecided_suggestions_lists_the_blocked_conversation_and_goes_there(qtbot, tmp_path,
                                                                                          settings, synthetic_call):
    path = make_project(tmp_path, {"call_a": OPEN, "call_b": REVIEWED}, synthetic_call)
    win, project = open_window(qtbot, path, settings)
    try:
        win.choose_conversation("call_b")
        # a valid sign-off that keeps call_a in (the dialog warned): only the gate stops the release
        sign = win.panel_widgets["review"].open_sign_off()
        sign.name.setText("Rita Reviewer")
        sign.accept()
        assert signoff_state(project).valid
        export = _export_dialog(qtbot, win, tmp_path, "r1")
        assert "1 of 2 conversation(s) ready" in export.gate_label.text()
        assert "7 undecided suggestion(s)" in export.gate_label.text()
        assert export.state_label.text().startswith("signed off by Rita Reviewer")
        assert not export.draft.isChecked()
        qtbot.mouseClick(export.export_button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: export.result is not None or export.error is not None, timeout=60000)
        assert export.result is None and type(export.refusal).__name__ == "GateClosed"
        assert export.problems.isVisible() and export.problems.count() == 1
        row = export.problems.item(0)
        assert row.text().startswith("call_a — ") and "7 undecided suggestion(s)" in row.text()
        assert export.verdict.text().startswith("REFUSED: 1 conversation(s) are not ready")
        assert not (tmp_path / "releases" / "r1").exists()
        # the corpus says so too
        corpus = win.corpus.model
        assert corpus.index(corpus.row_of("call_a"), 0).data(GATE_TEXT_ROLE) == "7 open"
        assert corpus.index(corpus.row_of("call_b"), 0).data(GATE_TEXT_ROLE) == "ready"
        blocked = corpus.index(corpus.row_of("call_a"), 1)
        assert blocked.data(Qt.ItemDataRole.DecorationRole) is not None  # the gate badge beside the status
        assert "Release: blocked (7 undecided suggestion(s), not reviewed)" in blocked.data(Qt.ItemDataRole.ToolTipRole)

        rect = export.problems.visualItemRect(row)
        # a double-click is a click, then a double-click event (QTest sends only the second part)
        qtbot.mouseClick(export.problems.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
        assert export.isVisible()  # one click only selects
        qtbot.mouseDClick(export.problems.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
        qtbot.waitUntil(lambda: not export.isVisible())
        ctx = win.ctx
        assert ctx.conversation.id == "call_a"
        first_open = min((s for s in ctx.conversation.spans if s.status == SpanStatus.SUGGESTED),
                         key=lambda s: s.start_word)
        assert ctx.current_span_id == first_open.id
        assert win.transcript.highlight == (first_open.start_word, first_open.end_word)
        assert win.corpus.selected_ids() == ["call_a"]
        assert "call_a" in ctx.last_status and "undecided" in ctx.last_status
    finally:
        close_window(qtbot, win, project)


def test_an_undecided_finding_goes_to_the_conversation_and_frames_its_words(qtbot, tmp_path, settings,
                                                                            monkeypatch, synthetic_call):
    from redactdesk.pipeline.export import UndecidedFound
    from redactdesk.pipeline.release_recheck import RecheckFinding

    path = make_project(tmp_path, {"call_a": REVIEWED, "call_b": REVIEWED}, synthetic_call)
    win, project = open_window(qtbot, path, settings)
    try:
        win.choose_conversation("call_b")
        finding = RecheckFinding("call_a", "PERSON", 3, 5, 0.81, ("spacy",), "P… N…")

        def refuse(*_args, **_kwargs):
            raise UndecidedFound("release refused: detection run again over the release text finds 1 item(s) "
                                 f"nobody decided about ({finding.describe()}).", [finding])

        monkeypatch.setattr(export_dialog, "run_export", refuse)
        export = _export_dialog(qtbot, win, tmp_path, "r2")
        export.draft.setChecked(False)
        qtbot.mouseClick(export.export_button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: export.error is not None, timeout=30000)
        assert export.problems.count() == 1
        text = export.problems.item(0).text()
        assert text.startswith("call_a — PERSON") and "words 3–5" in text and "P… N…" in text
        assert export.verdict.text().startswith("REFUSED: detection over the release text finds 1 item(s)")
        assert export.problems.hasFocus() and export.problems.currentRow() == 0
        qtbot.keyClick(export.problems, Qt.Key.Key_Return)  # Enter goes there (and starts no export)
        qtbot.waitUntil(lambda: not export.isVisible())
        assert export.job is None
        ctx = win.ctx
        conv = ctx.conversation
        assert conv.id == "call_a" and ctx.current_word == 3
        assert win.transcript.highlight == (3, 5)
        t0, t1 = win.waveform.found_range()
        assert abs(t0 - conv.words[3].start) < 1e-6 and abs(t1 - conv.words[4].end) < 1e-6
        x0, x1 = win.waveform.x_range()
        assert x0 <= t0 and t1 <= x1
        # M marks exactly the framed words (the category picker opens on them)
        win.mark_current_word()
        assert win.picker is not None and win.transcript._drag == (3, 4)
        win.picker.close()
        # moving on to another word takes the frame away
        win.click_word(10)
        assert win.transcript.highlight is None and win.waveform.found_range() is None
        ctx.reveal("call_a", 3, 5)
        assert win.transcript.highlight == (3, 5)
        # and so does another conversation
        win.choose_conversation("call_b")
        assert win.transcript.highlight is None and win.waveform.found_range() is None
    finally:
        close_window(qtbot, win, project)


def test_a_written_release_shows_its_verdict_first_in_colour(qtbot, tmp_path, settings, synthetic_call):
    path = make_project(tmp_path, {"call_a": OPEN, "call_b": REVIEWED}, synthetic_call)
    win, project = open_window(qtbot, path, settings)
    try:
        export = _export_dialog(qtbot, win, tmp_path, "d1")
        assert export.draft.isChecked()  # not signed: a draft only
        qtbot.mouseClick(export.export_button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: export.result is not None or export.error is not None, timeout=120000)
        assert export.error is None, export.error
        verdict = export.result.verdict
        assert verdict.startswith("DRAFT — NOT FOR RELEASE")
        assert export.verdict.isVisible() and export.verdict.text() == verdict
        assert review_module.style.WARN in export.verdict.styleSheet()
        assert export.summary.toPlainText().splitlines()[0] == verdict
        assert not export.problems.isVisible()
    finally:
        close_window(qtbot, win, project)


# ---------------------------------------------------------------------------------------------- mark reviewed
def test_mark_reviewed_refuses_with_open_suggestions_and_works_without(qtbot, tmp_path, settings, synthetic_call):
    path = make_project(tmp_path, {"call_a": OPEN, "call_c": EMPTY}, synthetic_call)
    win, project = open_window(qtbot, path, settings, role="annotator")
    try:
        ctx = win.ctx
        corpus = win.corpus.model

        def gate_of(cid: str) -> str:
            return corpus.index(corpus.row_of(cid), 0).data(GATE_TEXT_ROLE)

        def status_of(cid: str) -> str:
            return next(r.status for r in project.list_conversations() if r.id == cid)

        win.choose_conversation("call_a")
        win.activateWindow()
        win.transcript.setFocus()
        qtbot.waitUntil(win.transcript.hasFocus)
        mods = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
        qtbot.keyClick(win.transcript, Qt.Key.Key_R, mods)
        assert ctx.last_status.startswith("Not marked reviewed: call_a still has 7 undecided suggestion(s)")
        assert status_of("call_a") == "detected" and gate_of("call_a") == "7 open"
        assert project.audit_log(limit=1)[0].action != "mark_reviewed"

        win.choose_conversation("call_c")
        assert gate_of("call_c") == "not reviewed"
        win.transcript.setFocus()
        qtbot.keyClick(win.transcript, Qt.Key.Key_R, mods)
        assert status_of("call_c") == "reviewed"
        assert ctx.last_status.startswith("call_c marked reviewed")
        last = project.audit_log(limit=1)[0]
        assert (last.action, last.conversation_id) == ("mark_reviewed", "call_c")
        qtbot.waitUntil(lambda: gate_of("call_c") == "ready")
        assert win.header.facts.text().count("reviewed") == 1
        # undoable, and the undo is audited
        ctx.undo_stack.undo()
        assert status_of("call_c") == "detected"
        assert project.audit_log(limit=1)[0].action == "undo_mark_reviewed"
        qtbot.waitUntil(lambda: gate_of("call_c") == "not reviewed")
        ctx.undo_stack.redo()
        assert status_of("call_c") == "reviewed"
        assert win.act_mark_reviewed.shortcut().toString() == "Ctrl+Shift+R"
    finally:
        close_window(qtbot, win, project)


# ---------------------------------------------------------------------------------------------- risk
def test_risk_label_says_unknown_with_an_unreviewed_conversation_in_scope(qtbot, gate_ctx):
    panel = review_module.ReviewPanel(gate_ctx)
    qtbot.addWidget(panel)
    summary = panel.summary
    assert set(summary.unknown) == {"call_1", "call_3"}
    assert summary.scores == {"call_2": 0}  # the unreviewed ones are not scored 0
    assert "UNKNOWN" in panel.risk_label.text() and "PASS" not in panel.risk_label.text()
    assert review_module.style.WARN in panel.risk_label.text()  # amber
    assert "2 conversation(s) not reviewed" in panel.risk_label.text()
    heights = panel.bars.opts["height"]
    assert sum(heights) == 1  # only call_2 in the histogram
    assert panel.unknown_bar.isVisible() and list(panel.unknown_bar.opts["height"]) == [2]
    items = [panel.sample_list.item(i).text() for i in range(panel.sample_list.count())]
    assert "call_1  —  risk unknown (not reviewed)" in items and "call_2  —  risk 0" in items
    # a scope of reviewed conversations only is measured again
    gate_ctx.project.set_setting(review_module.SAMPLE_SETTING, ["call_2"])
    panel.refresh()
    assert "PASS" in panel.risk_label.text() and "UNKNOWN" not in panel.risk_label.text()
    assert not panel.unknown_bar.isVisible()
