"""The main window: position restored on reopen, roles and panels, playback without a device,
corpus filter, background jobs, tooltips, waveform zoom and pan."""

from __future__ import annotations

import time

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from redactdesk.core.types import Role, SpanStatus
from redactdesk.gui.app import build_main_window
from redactdesk.store import Project


def open_window(qtbot, path, settings, role="annotator"):
    project = Project.open(path, actor="tester")
    win = build_main_window(project, role=role, settings=settings)
    win.show()
    qtbot.waitExposed(win)
    win.activateWindow()
    return win, project


def focus_transcript(qtbot, win):
    win.activateWindow()
    win.transcript.setFocus()
    qtbot.waitUntil(win.transcript.hasFocus)


def close_window(qtbot, win, project):
    win.close()
    win.deleteLater()
    qtbot.wait(1)
    project.close()


def test_reopening_restores_conversation_span_and_zoom(qtbot, project_path, settings):
    win, project = open_window(qtbot, project_path, settings)
    other = [c for c in project.conversation_ids() if c != "call_synth_001"]
    win.choose_conversation("call_synth_001")
    focus_transcript(qtbot, win)
    qtbot.keyClick(win.transcript, Qt.Key.Key_J)
    qtbot.keyClick(win.transcript, Qt.Key.Key_J)
    span_id = win.ctx.current_span_id
    win.waveform.set_range(2.0, 6.0)
    close_window(qtbot, win, project)
    with Project.open(project_path) as p:
        pos = p.setting("ui.position")
    assert pos["conversation"] == "call_synth_001" and pos["span"] == span_id

    win, project = open_window(qtbot, project_path, settings)
    assert win.ctx.conversation.id == "call_synth_001"
    assert win.ctx.current_span_id == span_id
    assert win.transcript.current_span_id == span_id
    x0, x1 = win.waveform.x_range()
    assert abs(x0 - 2.0) < 0.05 and abs(x1 - 6.0) < 0.05
    if other:
        win.choose_conversation(other[0])
        assert win.ctx.conversation.id == other[0]
    close_window(qtbot, win, project)


def test_role_is_recorded_and_decides_panels(qtbot, project_path, settings):
    from redactdesk.gui import panels

    panels.register_panel("reviewer_only_test", "Reviewer test", lambda ctx: __import__(
        "PySide6.QtWidgets", fromlist=["QLabel"]).QLabel("only reviewers"), roles=("reviewer",))
    try:
        win, project = open_window(qtbot, project_path, settings, role="annotator")
        win.choose_conversation("call_synth_001")
        assert "reviewer_only_test" not in win.docks
        assert {"spans", "history"} <= set(win.docks)
        win.ctx.set_role("reviewer")
        assert win.docks["reviewer_only_test"].toggleViewAction().isChecked()
        assert win.docks["reviewer_only_test"].isVisible()  # raised in front of its tab group
        assert project.role == Role.REVIEWER and settings.value("role") == "reviewer"
        focus_transcript(qtbot, win)
        qtbot.keyClick(win.transcript, Qt.Key.Key_J)
        qtbot.keyClick(win.transcript, Qt.Key.Key_X)
        win.ctx.set_role("annotator")
        assert not win.docks["reviewer_only_test"].toggleViewAction().isChecked()
        assert win.role_button.text() == "Role: annotator"
        close_window(qtbot, win, project)
    finally:
        panels.unregister_panel("reviewer_only_test")
    with Project.open(project_path) as p:
        rejects = [d for d in p.audit_log() if d.action == "reject"]
    assert len(rejects) == 1 and rejects[0].role == Role.REVIEWER


def test_playback_without_a_device_says_so_and_review_goes_on(qtbot, window, monkeypatch):
    win = window
    player = win.player

    class NoDevice:
        class PortAudioError(Exception):
            pass

        CallbackStop = Exception

        def OutputStream(self, **kw):  # noqa: N802 - sounddevice's name
            raise self.PortAudioError("Error querying device -1")

    monkeypatch.setattr(player, "sd", NoDevice())
    qtbot.keyClick(win.transcript, Qt.Key.Key_J)
    qtbot.keyClick(win.transcript, Qt.Key.Key_Space)  # play the span with context
    assert "Playback unavailable" in win.statusBar().currentMessage()
    assert "no audio output" in win.audio_out_label.text()
    assert not player.playing
    span = win.ctx.current_span()
    qtbot.keyClick(win.transcript, Qt.Key.Key_A)
    assert win.ctx.project.span(span.id)[1].status == SpanStatus.ACCEPTED


def test_playing_moves_playhead_and_highlights_the_spoken_word(qtbot, window, monkeypatch):
    win = window
    player = win.player

    class FakeStream:
        def __init__(self, callback, channels, **kw):
            self.callback, self.channels = callback, channels

        def start(self):
            import numpy as np

            out = np.zeros((16000, self.channels), dtype=np.float32)
            self.callback(out, 8000, None, None)  # half a second played

        def stop(self):
            pass

        def close(self):
            pass

    class FakeSD:
        PortAudioError = OSError
        CallbackStop = type("CallbackStop", (Exception,), {})

        def OutputStream(self, **kw):  # noqa: N802
            return FakeStream(**kw)

    monkeypatch.setattr(player, "sd", FakeSD())
    conv = win.ctx.conversation
    first_word = conv.words[0]
    win.click_word(0)
    qtbot.keyClick(win.transcript, Qt.Key.Key_P)  # play from the cursor (word 0)
    qtbot.waitUntil(lambda: player.position is not None and player.position > first_word.start + 0.4)
    assert win.waveform.playhead.isVisible()
    assert abs(win.waveform.playhead.value() - player.position) < 1e-6
    spoken = win.transcript.playing_word
    assert spoken is not None and conv.words[spoken].start <= player.position
    qtbot.keyClick(win.transcript, Qt.Key.Key_Escape)
    assert not player.playing and win.transcript.playing_word is None


def test_corpus_filter_and_search(qtbot, window):
    win = window
    corpus = win.corpus
    total = corpus.proxy.rowCount()
    assert total >= 1
    corpus.search.setFocus()
    qtbot.keyClicks(corpus.search, "synth")
    assert corpus.proxy.rowCount() == 1
    # review keys do not fire while typing in the search box
    qtbot.keyClicks(corpus.search, "a")
    assert win.ctx.current_span_id is None
    corpus.search.clear()
    assert corpus.proxy.rowCount() == total
    corpus.filter.setCurrentIndex([label for label, _ in __import__(
        "redactdesk.gui.corpus", fromlist=["FILTERS"]).FILTERS].index("Reviewed"))
    assert corpus.proxy.rowCount() == 0
    corpus.filter.setCurrentIndex(1)  # with open suggestions
    assert corpus.proxy.rowCount() == total
    row = corpus.model.rows[corpus.model.row_of("call_synth_001")]
    assert (row.suggested, row.accepted, row.rejected) == (7, 0, 0)


def test_corpus_counts_follow_decisions(qtbot, window):
    win = window
    qtbot.keyClick(win.transcript, Qt.Key.Key_J)
    qtbot.keyClick(win.transcript, Qt.Key.Key_A)
    qtbot.keyClick(win.transcript, Qt.Key.Key_X)
    qtbot.waitUntil(lambda: win.corpus.model.rows[win.corpus.model.row_of("call_synth_001")].accepted == 1)
    row = win.corpus.model.rows[win.corpus.model.row_of("call_synth_001")]
    assert (row.suggested, row.accepted, row.rejected, row.status) == (5, 1, 1, "in_review")
    history = win.panel_widgets["history"]
    qtbot.waitUntil(lambda: history.tree.topLevelItemCount() >= 3)
    assert history.tree.topLevelItem(0).text(1) == "Rejected"
    assert history.tree.topLevelItem(1).text(1) == "Accepted"


def test_background_job_reports_progress_and_cancels(qtbot, window):
    ctx = window.ctx
    progress = []

    def slow(job):
        for i in range(200):
            job.report(i, 200, f"step {i}")
            time.sleep(0.01)
        return "finished"

    job = ctx.run_job("Slow work", slow, lambda r: progress.append(r))
    job.progress.connect(lambda f, m: progress.append(f))
    qtbot.waitUntil(lambda: any(isinstance(p, float) and p > 0 for p in progress), timeout=5000)
    assert window.jobs_indicator.isVisible()
    with qtbot.waitSignal(job.ended, timeout=5000):
        window.jobs_indicator.cancel.click()
    assert job.was_cancelled and "finished" not in progress
    assert not window.jobs_indicator.isVisible()

    done = []
    job2 = ctx.run_job("Quick", lambda job: 42, done.append)
    qtbot.waitUntil(lambda: done == [42], timeout=5000)
    failed = ctx.run_job("Broken", lambda job: 1 / 0, None, on_error=done.append)
    qtbot.waitSignal(failed.ended, timeout=5000).wait() if failed.running else None
    qtbot.waitUntil(lambda: len(done) == 2, timeout=5000)
    assert "ZeroDivisionError" in done[1]
    assert job2.result == 42


def test_hover_tooltip_names_category_score_source_and_reason(qtbot, window):
    win = window
    span = sorted(win.ctx.conversation.spans, key=lambda s: s.start_word)[1]
    html = win.transcript.tooltip_html(span.start_word)
    label = win.ctx.taxonomy.get(span.category).label
    assert label in html and f"{span.score:.2f}" in html and "test" in html and span.reason in html
    unaligned = next(i for i, w in enumerate(win.ctx.conversation.words) if not w.aligned)
    assert "not aligned" in win.transcript.tooltip_html(unaligned)


def test_clicking_a_word_selects_it_and_its_span(qtbot, window):
    win = window
    span = sorted(win.ctx.conversation.spans, key=lambda s: s.start_word)[0]
    rect = win.transcript.word_rect(span.start_word)
    qtbot.mouseClick(win.transcript.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert win.ctx.current_span_id == span.id and win.ctx.current_word == span.start_word
    word = win.ctx.conversation.words[span.start_word]
    assert win.cursor_time == word.start
    assert win.waveform.cursor_line.value() == word.start
    qtbot.keyClick(win.transcript, Qt.Key.Key_Right)  # move the word cursor
    assert win.ctx.current_word == span.start_word + 1


def test_waveform_keyboard_zoom_and_pan(qtbot, window):
    win = window
    wf = win.waveform
    wf.show_all()
    x0, x1 = wf.x_range()
    wf.setFocus()
    qtbot.keyClick(wf, Qt.Key.Key_Plus)
    y0, y1 = wf.x_range()
    assert (y1 - y0) < 0.6 * (x1 - x0)
    qtbot.keyClick(wf, Qt.Key.Key_Right)
    z0, z1 = wf.x_range()
    assert z0 > y0 and abs((z1 - z0) - (y1 - y0)) < 1e-6
    qtbot.keyClick(wf, Qt.Key.Key_0)
    assert wf.x_range() == (0.0, wf.duration) or abs(wf.x_range()[1] - wf.duration) < 1e-6
    win.act_spectro.setChecked(True)
    QApplication.processEvents()
    assert wf.spectro.isVisible()
    wf.set_range(1.0, 4.0)
    wf._update_spectrogram()
    assert wf.spectro_image.image is not None and wf.spectro_image.image.shape[1] == 257


def test_settings_dialog_changes_preferences_and_role(qtbot, window, monkeypatch):
    from redactdesk.gui import dialogs

    win = window

    def fake_exec(dlg):
        dlg.font_size.setValue(15)
        dlg.auto_advance.setChecked(False)
        dlg.role.setCurrentIndex(dlg.role.findData("linguist"))
        return True

    monkeypatch.setattr(dialogs.SettingsDialog, "exec", fake_exec)
    win.show_settings()
    assert dialogs.pref(win.ctx.settings, "transcript_font_size") == 15
    assert win.transcript.font_.pointSize() == 15
    assert win.ctx.role == Role.LINGUIST and win.ctx.project.role == Role.LINGUIST
    # without auto-advance, accepting stays on the span
    qtbot.keyClick(win.transcript, Qt.Key.Key_J)
    span_id = win.ctx.current_span_id
    qtbot.keyClick(win.transcript, Qt.Key.Key_A)
    assert win.ctx.current_span_id == span_id


def test_window_geometry_and_layout_are_remembered(qtbot, project_path, settings):
    win, project = open_window(qtbot, project_path, settings)
    assert win.corpus_dock.isVisible()
    win.corpus_dock.hide()
    close_window(qtbot, win, project)
    assert settings.value("window/geometry") is not None and settings.value("window/state") is not None
    win, project = open_window(qtbot, project_path, settings)
    assert not win.corpus_dock.isVisible()  # the layout came back as it was left
    win.reset_layout()
    assert win.corpus_dock.isVisible()
    close_window(qtbot, win, project)


def test_dragging_the_overview_window_moves_the_waveform(qtbot, window):
    wf = window.waveform
    wf.set_range(0.0, 5.0)
    wf.window_region.setRegion((10.0, 15.0))
    x0, x1 = wf.x_range()
    assert abs(x0 - 10.0) < 1e-6 and abs(x1 - 15.0) < 1e-6


def test_reopening_the_conversation_keeps_the_waveform_drawn(window):
    """After a background job (transcribe, detect, demo preparation) the open call is reloaded:
    the same audio at the same range must still be drawn, not just its overview."""
    cid = window.ctx.conversation.id
    assert len(window.waveform.curves[0].getData()[0]) > 0
    window.ctx.conversation = None
    window.ctx.open_conversation(cid)
    assert len(window.waveform.curves[0].getData()[0]) > 0
