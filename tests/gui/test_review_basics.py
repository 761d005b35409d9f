"""The basics ELAN, Praat, Label Studio and Prodigy users reach for (issue 19, item 6).

Driven with real key and mouse events (pytest-qt): find in the transcripts of every call (Enter or a
double-click opens the call at the words, the search runs in the project file), playback at 0.5-1.5x
with the pitch kept ([ and ]), looping the current span (L), remappable shortcuts (editor, conflicts
refused, F1 and reset follow the map, kept in the user's settings), the colour scheme (View menu and
the system's), the spectrogram's frequency and dynamic range, and a question before quitting while a
job runs.
"""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication, QDialog, QMessageBox, QPushButton

from redactdesk.core.types import SpanStatus
from redactdesk.gui import style, theme
from redactdesk.gui.app import build_main_window
from redactdesk.store import Project
from redactdesk.store.search import find_words

CID = "call_synth_001"
NO_MODS = Qt.KeyboardModifier.NoModifier
SHIFT = Qt.KeyboardModifier.ShiftModifier
CTRL = Qt.KeyboardModifier.ControlModifier
ALT = Qt.KeyboardModifier.AltModifier


def press(qtbot, win, key, mods=NO_MODS):
    """A key press where the keyboard is now (as a user's key press goes)."""
    qtbot.keyClick(QApplication.focusWidget() or win, key, mods)


def first_suggestion(win):
    return min((s for s in win.ctx.conversation.spans if s.status == SpanStatus.SUGGESTED),
               key=lambda s: s.start_word)


def dialog_named(qtbot, parent, name):
    """The dialog that just opened, activated as a window manager does (the offscreen platform does not)."""
    found = []
    qtbot.waitUntil(lambda: bool(found.extend(parent.findChildren(QDialog, name)) or found)
                    and found[-1].isVisible())
    dialog = found[-1]
    dialog.activateWindow()
    qtbot.waitUntil(dialog.isActiveWindow)
    return dialog


class FakeStream:
    def __init__(self, callback, channels, samplerate, **kw):
        self.callback, self.channels, self.rate = callback, channels, samplerate

    def start(self):
        pass

    def stop(self):
        pass

    def close(self):
        pass


class FakeSD:
    PortAudioError = OSError
    CallbackStop = type("CallbackStop", (Exception,), {})

    def __init__(self):
        self.streams = []

    def OutputStream(self, **kw):  # noqa: N802 - sounddevice's name
        stream = FakeStream(**kw)
        self.streams.append(stream)
        return stream


@pytest.fixture
def sd(window, monkeypatch):
    fake = FakeSD()
    monkeypatch.setattr(window.player, "sd", fake)
    monkeypatch.setattr(window.player, "reason", None)
    return fake


@pytest.fixture(autouse=True)
def _light_again():
    yield
    if theme.is_dark():
        theme.set_colours(False)  # colours are process-wide: the next test starts light


# ------------------------------------------------------------------------------------------ find
def test_find_in_transcripts_lists_every_call_and_enter_opens_the_call_at_the_words(qtbot, window, monkeypatch):
    win = window
    loads = []
    real_load = win.project.load_conversation
    monkeypatch.setattr(win.project, "load_conversation", lambda cid: loads.append(cid) or real_load(cid))
    press(qtbot, win, Qt.Key.Key_F, CTRL | SHIFT)
    search = win.search_window
    assert search.isVisible()
    qtbot.waitUntil(search.query.hasFocus)
    qtbot.keyClicks(search.query, "My Name is")
    qtbot.keyClick(search.query, Qt.Key.Key_Return)
    expected, _ = find_words(win.project, "my name is")
    rows = search.results.topLevelItemCount()
    assert rows == len(expected) >= 2
    assert {search.results.topLevelItem(r).text(0) for r in range(rows)} == {h.conversation_id for h in expected}
    assert loads == []  # found in the project file: no call was loaded for it
    assert "place(s) in" in search.summary.text()
    assert search.results.hasFocus()  # Enter in the query: on to the results
    # the second hit of the synthetic call ("my name is john smith"), opened with Enter
    row = [r for r in range(rows) if search.results.topLevelItem(r).text(0) == CID][1]
    hit = [h for h in expected if h.conversation_id == CID][1]
    win.click_word(0)  # somewhere else first
    search.results.setCurrentItem(search.results.topLevelItem(row))
    qtbot.keyClick(search.results, Qt.Key.Key_Return)
    assert win.ctx.conversation.id == CID
    assert win.transcript.highlight == (hit.start_word, hit.end_word)
    assert win.ctx.current_word == hit.start_word
    qtbot.waitUntil(lambda: win.transcript.hasFocus())  # the keys are the review's again
    assert search.isVisible()  # and the list stays for the next place


def test_a_double_click_on_a_result_opens_another_call(qtbot, window):
    win = window
    other = [cid for cid in win.project.conversation_ids() if cid != CID]
    press(qtbot, win, Qt.Key.Key_F, CTRL | SHIFT)
    search = win.search_window
    qtbot.waitUntil(search.query.hasFocus)
    word = "john" if not other else win.project.load_conversation(other[0]).words[5].text
    qtbot.keyClicks(search.query, word)
    qtbot.keyClick(search.query, Qt.Key.Key_Return)
    target = other[0] if other else CID
    item = next(search.results.topLevelItem(r) for r in range(search.results.topLevelItemCount())
                if search.results.topLevelItem(r).text(0) == target)
    if not other:
        win.ctx.open_conversation(None)
    rect = search.results.visualItemRect(item)
    qtbot.mouseClick(search.results.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())  # 1st click
    qtbot.mouseDClick(search.results.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert win.ctx.conversation is not None and win.ctx.conversation.id == target
    start, end = item.data(0, Qt.ItemDataRole.UserRole + 1)[1:]
    assert win.transcript.highlight == (start, end)


def test_nothing_found_says_so(qtbot, window):
    win = window
    press(qtbot, win, Qt.Key.Key_F, CTRL | SHIFT)
    qtbot.waitUntil(win.search_window.query.hasFocus)
    qtbot.keyClicks(win.search_window.query, "zyxwvut")
    qtbot.keyClick(win.search_window.query, Qt.Key.Key_Return)
    assert win.search_window.results.topLevelItemCount() == 0
    assert "Not found" in win.search_window.summary.text()


# ------------------------------------------------------------------------------------------ speed, loop
def test_brackets_change_the_speed_and_the_span_plays_stretched_and_remembered(qtbot, window, sd, settings):
    win = window
    press(qtbot, win, Qt.Key.Key_BracketRight)
    press(qtbot, win, Qt.Key.Key_BracketRight)
    assert win.player.speed == 1.5
    note = win.playback_tools.label
    assert note.isVisible() and "1.5×" in note.text()
    press(qtbot, win, Qt.Key.Key_BracketRight)  # no faster than 1.5
    assert win.player.speed == 1.5 and "fastest" in win.statusBar().currentMessage()
    press(qtbot, win, Qt.Key.Key_J)
    press(qtbot, win, Qt.Key.Key_Space)
    assert win.player.playing
    t0, t1 = win.player.range
    frames = (t1 - t0) * win.source.rate
    qtbot.waitUntil(lambda: win.player.complete)
    assert abs(len(win.player.buffered()) / frames - 1 / 1.5) < 0.05  # shorter: faster, and pitch kept
    out = np.zeros((4000, sd.streams[-1].channels), dtype=np.float32)
    sd.streams[-1].callback(out, 4000, None, None)  # a quarter of a second of output
    qtbot.waitUntil(lambda: win.player.position is not None and win.player.position > t0)
    assert abs(win.player.position - (t0 + 0.25 * 1.5)) < 0.01  # the playhead moves 1.5 s per second
    press(qtbot, win, Qt.Key.Key_Escape)
    for _ in range(5):
        press(qtbot, win, Qt.Key.Key_BracketLeft)
    assert win.player.speed == 0.5 and "slowest" in win.statusBar().currentMessage()
    press(qtbot, win, Qt.Key.Key_Space)
    qtbot.waitUntil(lambda: win.player.complete)
    assert abs(len(win.player.buffered()) / frames - 2.0) < 0.1
    assert float(settings.value("playback/speed")) == 0.5
    assert win.playback_tools.speed_actions[0.5].isChecked()


def test_a_long_range_starts_at_once_and_the_rest_is_stretched_while_it_plays(qtbot, window, sd):
    win = window
    for _ in range(2):
        press(qtbot, win, Qt.Key.Key_BracketLeft)
    assert win.player.speed == 0.5
    win.click_word(0)
    press(qtbot, win, Qt.Key.Key_P)  # from the cursor to the end of the call (about 25 s)
    player = win.player
    t0, t1 = player.range
    assert t1 - t0 > 10
    stream = sd.streams[-1]
    first = len(player.buffered())
    assert first < 0.3 * (t1 - t0) * 2 * win.source.rate  # only the first seconds before the sound starts
    out = np.zeros((first + 500, stream.channels), dtype=np.float32)
    stream.callback(out, first + 500, None, None)  # ahead of the stretching: silence, not the end
    assert player.playing
    qtbot.waitUntil(lambda: player.complete, timeout=10000)
    assert abs(len(player.buffered()) / ((t1 - t0) * win.source.rate) - 2.0) < 0.05
    press(qtbot, win, Qt.Key.Key_Escape)
    assert not player.playing


def test_l_loops_the_current_span_until_pressed_again(qtbot, window, sd):
    win = window
    press(qtbot, win, Qt.Key.Key_J)
    first = win.ctx.current_span()
    press(qtbot, win, Qt.Key.Key_L)
    player = win.player
    assert player.playing and player.loop and "loop" in win.playback_tools.label.text()
    a, b = win.ctx.conversation.span_times(first)
    assert player.range[0] < a and player.range[1] > b  # the span with its context
    qtbot.waitUntil(lambda: player.complete)
    n = len(player.buffered())
    stream = sd.streams[-1]
    out = np.zeros((n + 1000, stream.channels), dtype=np.float32)
    stream.callback(out, n + 1000, None, None)  # past the end: from the start again, no stop
    assert player.loops == 1 and player._frame == 1000
    assert np.array_equal(out[n:n + 1000], player.buffered()[:1000])
    qtbot.wait(80)
    assert player.playing
    press(qtbot, win, Qt.Key.Key_J)  # the next suggestion is looped now
    second = win.ctx.current_span()
    qtbot.waitUntil(lambda: player.range is not None and player.range[0] < win.ctx.conversation.span_times(second)[0]
                    and player.range[1] > win.ctx.conversation.span_times(second)[1])
    assert player.playing and player.loop
    press(qtbot, win, Qt.Key.Key_L)
    assert not player.playing and not player.loop and not win.playback_tools.label.isVisible()


# ------------------------------------------------------------------------------------------ shortcuts
def test_shortcuts_can_be_remapped_conflicts_refused_f1_and_reset_follow(qtbot, window, settings, project_path):
    win = window
    press(qtbot, win, Qt.Key.Key_F1)
    help_dialog = dialog_named(qtbot, win, "keysHelp")
    assert "J / Tab" in help_dialog.text()
    qtbot.mouseClick(help_dialog.findChild(QPushButton, "changeKeys"), Qt.MouseButton.LeftButton)
    editor = dialog_named(qtbot, help_dialog, "shortcutEditor")
    table = editor.table

    def choose(name):
        row = editor.names.index(name)
        rect = table.visualItemRect(table.item(row, 0))
        table.scrollToItem(table.item(row, 0))
        rect = table.visualItemRect(table.item(row, 0))
        qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
        assert editor.current() == name
        qtbot.keyClick(table, Qt.Key.Key_Return)  # Enter on the row: press the new key
        assert editor.key_edit.hasFocus() or QApplication.focusWidget() is editor.key_edit

    choose("act_next")
    qtbot.keyClick(editor.key_edit, Qt.Key.Key_N)
    assert [s.toString() for s in win.act_next.shortcuts()] == ["N", "Tab"]
    assert "saved" in editor.message.text()
    choose("act_accept")
    qtbot.keyClick(editor.key_edit, Qt.Key.Key_X)  # Reject's key
    assert "Reject" in editor.message.text() and "Nothing changed" in editor.message.text()
    assert [s.toString() for s in win.act_accept.shortcuts()][0] == "A"
    qtbot.keyClick(editor.key_edit, Qt.Key.Key_Left, ALT | SHIFT)  # layout switching's
    assert "Nothing changed" in editor.message.text()
    assert [s.toString() for s in win.act_accept.shortcuts()][0] == "A"
    editor.reject()
    qtbot.waitUntil(lambda: "N / Tab" in help_dialog.text())  # F1 follows the map
    help_dialog.reject()
    win.activateWindow()
    qtbot.waitUntil(lambda: win.transcript.hasFocus())
    first = first_suggestion(win)
    press(qtbot, win, Qt.Key.Key_J)  # J does nothing now
    assert win.ctx.current_span_id is None
    press(qtbot, win, Qt.Key.Key_N)
    assert win.ctx.current_span_id == first.id
    settings.sync()
    assert settings.value("shortcuts/act_next") == "N;Tab"
    # a window opened later has the user's keys
    project = Project.open(project_path, actor="tester")
    try:
        again = build_main_window(project, role="annotator", settings=settings)
        qtbot.addWidget(again)
        assert [s.toString() for s in again.act_next.shortcuts()] == ["N", "Tab"]
        again.close()
    finally:
        project.close()
    # reset to defaults
    win.act_edit_shortcuts.trigger()
    editor = dialog_named(qtbot, win, "shortcutEditor")
    qtbot.mouseClick(editor.findChild(QPushButton, "resetKeys"), Qt.MouseButton.LeftButton)
    assert [s.toString() for s in win.act_next.shortcuts()] == ["J", "Tab"]
    assert settings.value("shortcuts/act_next") is None
    editor.reject()
    win.activateWindow()
    qtbot.waitUntil(lambda: win.transcript.hasFocus())
    press(qtbot, win, Qt.Key.Key_J)
    assert win.ctx.current_span_id is not None and win.ctx.current_span_id != first.id


# ------------------------------------------------------------------------------------------ colours
def _paper(win):
    return win.transcript.viewport().palette().color(win.transcript.viewport().backgroundRole()).name()


def test_colour_scheme_follows_the_system_or_the_users_choice(qtbot, window, settings):
    win = window
    assert _paper(win) == theme.LIGHT["PAPER"]  # offscreen says nothing: light
    view = next(a for a in win.menuBar().actions() if a.text().replace("&", "") == "View")
    qtbot.mouseClick(win.menuBar(), Qt.MouseButton.LeftButton, pos=win.menuBar().actionGeometry(view).center())
    qtbot.waitUntil(lambda: view.menu().isVisible())
    qtbot.keyClick(view.menu(), Qt.Key.Key_C)  # &Colour scheme
    sub = win.findChild(type(view.menu()), "schemeMenu")
    qtbot.waitUntil(lambda: sub.isVisible())
    qtbot.keyClick(sub, Qt.Key.Key_D)  # &Dark
    qtbot.waitUntil(lambda: _paper(win) == theme.DARK["PAPER"])
    assert settings.value(theme.SCHEME_KEY) == "dark"
    assert win.waveform.plot.backgroundBrush().color().name() == theme.DARK["PAPER"]
    assert win.waveform.curves[0].opts["pen"].color().name() == theme.DARK["WAVE"]
    image = win.transcript.viewport().grab().toImage()
    assert image.pixelColor(image.width() - 3, image.height() - 3).lightness() < 60
    assert QApplication.instance().palette().color(QApplication.instance().palette().ColorRole.Window).lightness() < 60
    # back to the system's scheme, which then turns light and dark
    win.theme.actions["system"].trigger()
    assert _paper(win) == theme.LIGHT["PAPER"]
    hints = QGuiApplication.styleHints()
    hints.colorSchemeChanged.emit(Qt.ColorScheme.Dark)
    assert _paper(win) == theme.DARK["PAPER"] and style.INK == theme.DARK["INK"]
    hints.colorSchemeChanged.emit(Qt.ColorScheme.Light)
    assert _paper(win) == theme.LIGHT["PAPER"]


# ------------------------------------------------------------------------------------------ spectrogram
def test_spectrogram_frequency_and_dynamic_range_are_set_and_kept(qtbot, window, settings):
    win = window
    assert win.source is not None
    press(qtbot, win, Qt.Key.Key_G, CTRL | SHIFT)
    dlg = dialog_named(qtbot, win, "spectrogramSettings")
    for spin, text in ((dlg.max_khz, "4"), (dlg.range_db, "50")):
        spin.setFocus()
        qtbot.keyClick(spin, Qt.Key.Key_A, CTRL)
        qtbot.keyClicks(spin, text)
    qtbot.keyClick(dlg.range_db, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: not dlg.isVisible())
    win.activateWindow()  # the window manager's part
    wf = win.waveform
    assert wf.spectro.isVisible() and win.act_spectro.isChecked()  # shown with the new settings
    top = wf.spectro.getViewBox().viewRange()[1][1]
    assert abs(top - 4.0) < 1e-6  # was 8 kHz (half of 16 kHz)
    lo, hi = wf.spectro_image.getLevels()
    assert abs((hi - lo) - 50.0) < 1e-6  # was 70 dB
    assert wf.spectro_image.image.shape[1] == pytest.approx(257 * 4 / 8, abs=2)
    assert float(settings.value("spectrogram/max_khz")) == 4.0 and int(settings.value("spectrogram/range_db")) == 50
    qtbot.waitUntil(lambda: win.transcript.hasFocus())


# ------------------------------------------------------------------------------------------ quitting
def test_quitting_during_a_job_asks_first(qtbot, window):
    win = window
    release = threading.Event()
    seen = {}

    def work(job):
        deadline = time.monotonic() + 20
        while not job.is_cancelled and not release.is_set() and time.monotonic() < deadline:
            time.sleep(0.01)
        seen["cancelled"] = job.is_cancelled

    win.ctx.run_job("Transcribing", work, lambda _r: None)
    press(qtbot, win, Qt.Key.Key_Q, CTRL)
    box = win.findChild(QMessageBox, "quitGuard")
    assert box is not None and box.isVisible() and "Transcribing" in box.text()
    assert win.isVisible()
    qtbot.mouseClick(box.findChild(QPushButton, "keepWorking"), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: win.findChild(QMessageBox, "quitGuard") is None or not box.isVisible())
    assert win.isVisible() and win.ctx.jobs.jobs and "Still working" in win.statusBar().currentMessage()
    press(qtbot, win, Qt.Key.Key_Q, CTRL)
    box = next(b for b in win.findChildren(QMessageBox, "quitGuard") if b.isVisible())
    qtbot.mouseClick(box.findChild(QPushButton, "cancelAndQuit"), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not win.isVisible())
    assert seen.get("cancelled") is True


def test_quitting_without_a_job_closes_at_once(qtbot, window):
    press(qtbot, window, Qt.Key.Key_Q, CTRL)
    qtbot.waitUntil(lambda: not window.isVisible())
    assert window.findChild(QMessageBox, "quitGuard") is None


def test_the_new_keys_are_in_the_readme():
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    section = readme.split("## The app", 1)[1].split("\n## ", 1)[0]
    for key in ("Ctrl+Shift+F", "[ / ]", "L loop", "Ctrl+Shift+G", "Change keyboard shortcuts", "Ctrl+Q"):
        assert key in section, key


def test_stored_keys_that_collide_go_back_to_the_defaults(qtbot, project_path, settings):
    settings.setValue("shortcuts/act_skip", "J")  # J is Next suggestion's: a hand-edited or old settings file
    settings.setValue("shortcuts/act_reopen", "Ctrl+Alt+U")  # a window manager's key
    settings.setValue("shortcuts/act_mark", "G")  # fine
    project = Project.open(project_path, actor="tester")
    try:
        win = build_main_window(project, role="annotator", settings=settings)
        qtbot.addWidget(win)
        assert [s.toString() for s in win.act_skip.shortcuts()] == ["S"] and win.keymap.clashes == ["act_skip"]
        assert [s.toString() for s in win.act_next.shortcuts()] == ["J", "Tab"]
        assert [s.toString() for s in win.act_reopen.shortcuts()] == ["U"]
        assert [s.toString() for s in win.act_mark.shortcuts()] == ["G"]
        assert settings.value("shortcuts/act_skip") is None
        win.close()
    finally:
        project.close()
