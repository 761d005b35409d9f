"""Entry points, first-run role question, stereo waveform, and import/detect as background jobs."""

from __future__ import annotations

import numpy as np
import soundfile as sf
from PySide6.QtCore import QSettings, QTimer
from PySide6.QtWidgets import QApplication, QDialog

from redactdesk.core.types import Role
from redactdesk.store import Project


def _accept_dialog_later(choose: str) -> None:
    def accept():
        dlg = QApplication.activeModalWidget()
        if dlg is None:
            QTimer.singleShot(20, accept)
            return
        dlg.buttons[Role(choose)].setChecked(True)
        dlg.accept()

    QTimer.singleShot(20, accept)


def test_first_open_asks_the_role_and_remembers_it(qtbot, tmp_path):
    from redactdesk.gui.app import ask_role

    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    _accept_dialog_later("linguist")
    assert ask_role(settings, None) == Role.LINGUIST
    assert settings.value("role") == "linguist"
    assert ask_role(settings, None) == Role.LINGUIST  # remembered: no question
    assert ask_role(settings, "reviewer") == Role.REVIEWER  # given on the command line wins
    assert settings.value("role") == "reviewer"


def test_run_opens_the_project_and_returns_when_closed(qtbot, project_path, tmp_path):
    from redactdesk.gui import app

    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp_path / "config"))
    seen = {}

    def close_soon():
        windows = [w for w in QApplication.topLevelWidgets() if w.objectName() == "mainWindow" and w.isVisible()]
        if not windows:
            QTimer.singleShot(50, close_soon)
            return
        win = windows[0]
        seen["role"] = win.ctx.role
        seen["conversation"] = win.ctx.conversation.id if win.ctx.conversation else None
        win.close()  # the last window closing ends run()'s event loop

    QTimer.singleShot(50, close_soon)
    assert app.run(str(project_path), role="reviewer") == 0
    assert seen["role"] == Role.REVIEWER and seen["conversation"] is not None


def test_run_reports_a_file_that_is_not_a_project(qtbot, tmp_path, monkeypatch):
    from redactdesk.gui import app

    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp_path / "config"))
    bad = tmp_path / "notes.rdproj"
    bad.write_text("hello")
    messages = []
    monkeypatch.setattr(app.QMessageBox, "critical", lambda parent, title, text: messages.append(text))
    assert app.run(str(bad), role="annotator") == 2
    assert "not a redactdesk project" in messages[0]


def test_stereo_recording_draws_both_channels(qtbot, tmp_path, settings):
    from redactdesk.core.types import Conversation, Turn, Word
    from redactdesk.gui.app import build_main_window

    rate = 8000
    t = np.arange(rate * 4) / rate
    left = 0.5 * np.sin(2 * np.pi * 220 * t) * (t < 2)
    right = 0.3 * np.sin(2 * np.pi * 330 * t) * (t >= 2)
    path = tmp_path / "stereo.wav"
    sf.write(path, np.stack([left, right], axis=1).astype(np.float32), rate)
    words = [Word("hello", 0.2, 0.8, speaker="A", channel=0), Word("there", 2.2, 2.8, speaker="B", channel=1)]
    conv = Conversation("stereo", audio_path=str(path), sample_rate=rate, channels=2, duration=4.0, words=words,
                        turns=[Turn("A", 0, 1, 0), Turn("B", 1, 2, 1)])
    with Project.create(tmp_path / "st.rdproj") as p:
        p.add_conversation(conv)
    project = Project.open(tmp_path / "st.rdproj")
    win = build_main_window(project, role="annotator", settings=settings)
    try:
        win.show()
        win.choose_conversation("stereo")
        wf = win.waveform
        assert len(wf.curves) == 2 and wf.pyramid.channels == 2
        wf.redraw()
        y_left = wf.curves[0].getData()[1]
        y_right = wf.curves[1].getData()[1]
        assert y_left.max() > 0.5 and y_right.max() < -1.0  # second lane sits below the first
        assert wf.plot.getAxis("left").isVisible()
    finally:
        win.close()
        project.close()


def test_import_runs_in_the_background_and_adds_conversations(qtbot, window, tmp_path):
    win = window
    rate = 16000
    audio = tmp_path / "new_call.wav"
    sf.write(audio, (0.1 * np.sin(np.arange(rate * 2) / 10)).astype(np.float32), rate)
    before = set(win.project.conversation_ids())
    win.import_recordings([audio])
    qtbot.waitUntil(lambda: "new_call" in win.project.conversation_ids(), timeout=20000)
    qtbot.waitUntil(lambda: win.corpus.model.row_of("new_call") >= 0, timeout=5000)
    assert set(win.project.conversation_ids()) - before == {"new_call"}
    log = win.project.audit_log(conversation_id="new_call")
    assert log[0].action == "import" and log[0].role == Role.ANNOTATOR


def test_detection_job_can_be_cancelled_and_leaves_review_usable(qtbot, window, monkeypatch):
    import threading

    import redactdesk.pipeline.detection as detection

    started = threading.Event()

    def slow_detect(project, ids, progress=None, cancel=None, executor=None):
        started.set()
        for i in range(500):
            if cancel and cancel():
                from redactdesk.pipeline.progress import Cancelled

                raise Cancelled("cancelled by the user")
            progress(i / 500, f"detecting {ids[0]}")
            threading.Event().wait(0.01)
        return {ids[0]: 0}

    monkeypatch.setattr(detection, "detect_project", slow_detect)
    win = window
    win.detect_selected()
    qtbot.waitUntil(started.is_set, timeout=5000)
    qtbot.waitUntil(lambda: win.jobs_indicator.bar.value() > 0, timeout=5000)
    assert "Detecting" in win.jobs_indicator.label.text()
    win.jobs_indicator.cancel.click()
    qtbot.waitUntil(lambda: not win.jobs_indicator.isVisible(), timeout=5000)
    assert "cancelled" in win.ctx.last_status
    assert isinstance(QApplication.activeModalWidget(), (type(None), QDialog))
