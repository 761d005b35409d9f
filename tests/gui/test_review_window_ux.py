"""The review window as annotators, linguists and reviewers expect it (issue 19, items 2-5).

Every test drives the window with real key and mouse events (pytest-qt): focus comes back to the
review after panel actions and the status bar says where keys go; no key creates an accepted span
without an explicit accept; no shortcut clashes with window managers; a category key accepts and
moves on; Z frames the current suggestion and Ctrl++ zooms around it; decisions never re-wrap the
transcript; "Mark missed" takes the words selected in the transcript; the window fits 1024 px with
every panel usable; the role dialog is not clipped; the pseudonym editor is wide enough, its two
transcripts scroll together and Apply after Regenerate acts on the regenerated entry.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QApplication, QLabel, QScrollArea, QWidget

from redactdesk.core.types import Conversation, Role, Span, SpanStatus, Turn, Word
from redactdesk.gui import dialogs
from redactdesk.gui.app import build_main_window
from redactdesk.store import Project

CID = "call_synth_001"
NO_MODS = Qt.KeyboardModifier.NoModifier
SHIFT = Qt.KeyboardModifier.ShiftModifier
CTRL = Qt.KeyboardModifier.ControlModifier
README = Path(__file__).resolve().parents[2] / "README.md"


def stored(path, cid=CID):
    with Project.open(path) as p:
        return {s.id: s for s in p.spans(cid)}


def press(qtbot, win, key, mods=NO_MODS):
    """A key press where the keyboard is now (as a user's key press goes)."""
    qtbot.keyClick(QApplication.focusWidget() or win, key, mods)


def suggested(win):
    return sorted((s for s in win.ctx.conversation.spans if s.status == SpanStatus.SUGGESTED),
                  key=lambda s: s.start_word)


def free_word(win, text):
    conv = win.ctx.conversation
    covered = {w for s in conv.spans for w in s.word_range()}
    return next(i for i, w in enumerate(conv.words) if i not in covered and w.text == text)


def activate(qtbot, window):
    """What the window manager does for a new dialog (the offscreen platform does not)."""
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)


def click_word(qtbot, win, index, mods=NO_MODS):
    qtbot.mouseClick(win.transcript.viewport(), Qt.MouseButton.LeftButton, mods,
                     pos=win.transcript.word_rect(index).center())


@pytest.fixture
def open_window(qtbot, project_path, tmp_path):
    """open_window(role) -> a shown window on the synthetic call, transcript focused."""
    opened = []

    def make(role="annotator"):
        settings = QSettings(str(tmp_path / f"settings-{role}.ini"), QSettings.Format.IniFormat)
        project = Project.open(project_path, actor="tester")
        win = build_main_window(project, role=role, settings=settings)
        qtbot.addWidget(win)
        win.show()
        qtbot.waitExposed(win)
        win.choose_conversation(CID)
        win.activateWindow()
        win.transcript.setFocus()
        qtbot.waitUntil(win.transcript.hasFocus)
        opened.append((win, project))
        return win

    yield make
    for win, project in opened:
        win.close()
        win.deleteLater()
        qtbot.wait(1)
        project.close()


# ------------------------------------------------------------------------------------------ 2. focus
def test_label_next_row_gives_the_keyboard_back_to_the_review(qtbot, window, project_path):
    """Double-clicking a queue row used to leave the keys in the list: ten keys did nothing."""
    from redactdesk.learn.service import QueueItem

    win = window
    queue = win.panel_widgets["al_queue"]
    conv = win.ctx.conversation
    turn = conv.turns[1]  # "hi my name is john smith and I lost my card"
    target = next(s for s in suggested(win) if turn.start_word <= s.start_word < turn.end_word)
    queue.ctl.items = [QueueItem(CID, 1, 0.9, 0.05, turn.start_word, turn.end_word, "hi my name is ...")]
    queue.show_items()
    win.docks["al_queue"].raise_()
    qtbot.waitUntil(queue.tree.isVisible)
    row = queue.tree.topLevelItem(0)
    pos = queue.tree.visualItemRect(row).center()
    qtbot.mouseClick(queue.tree.viewport(), Qt.MouseButton.LeftButton, pos=pos)
    qtbot.mouseDClick(queue.tree.viewport(), Qt.MouseButton.LeftButton, pos=pos)
    qtbot.waitUntil(win.transcript.hasFocus)
    assert win.ctx.current_span_id == target.id  # the turn's first open suggestion, ready to decide
    press(qtbot, win, Qt.Key.Key_A)
    assert stored(project_path)[target.id].status == SpanStatus.ACCEPTED


def test_status_bar_says_where_keys_go_and_esc_or_f6_brings_them_back(qtbot, window, project_path):
    win = window
    assert "review" in win.keys_label.text()
    history = win.panel_widgets["history"]
    win.docks["history"].raise_()
    qtbot.waitUntil(history.tree.isVisible)
    qtbot.mouseClick(history.tree.viewport(), Qt.MouseButton.LeftButton, pos=history.tree.viewport().rect().center())
    qtbot.waitUntil(history.tree.hasFocus)
    assert "History" in win.keys_label.text() and "F6" in win.keys_label.text()
    press(qtbot, win, Qt.Key.Key_Escape)  # Esc in a panel: back to the review
    qtbot.waitUntil(win.transcript.hasFocus)
    assert "History" not in win.keys_label.text()
    win.corpus.search.setFocus()
    qtbot.waitUntil(win.corpus.search.hasFocus)
    assert "typing in Corpus" in win.keys_label.text()
    press(qtbot, win, Qt.Key.Key_F6)
    qtbot.waitUntil(win.transcript.hasFocus)
    press(qtbot, win, Qt.Key.Key_J)
    assert win.ctx.current_span_id == suggested(win)[0].id


def test_panel_buttons_and_list_activations_give_the_keyboard_back(qtbot, window):
    win = window
    masking = win.panel_widgets["masking"]
    win.docks["masking"].raise_()
    qtbot.waitUntil(masking.stop.isVisible)
    qtbot.mouseClick(masking.stop, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(win.transcript.hasFocus)
    history = win.panel_widgets["history"]
    win.docks["history"].raise_()
    press(qtbot, win, Qt.Key.Key_J)
    press(qtbot, win, Qt.Key.Key_A)  # something in the history to jump to
    qtbot.waitUntil(lambda: history.tree.topLevelItemCount() > 0)
    qtbot.waitUntil(history.tree.isVisible)
    item = history.tree.topLevelItem(0)
    pos = history.tree.visualItemRect(item).center()
    qtbot.mouseClick(history.tree.viewport(), Qt.MouseButton.LeftButton, pos=pos)
    assert history.tree.hasFocus()
    qtbot.mouseDClick(history.tree.viewport(), Qt.MouseButton.LeftButton, pos=pos)
    qtbot.waitUntil(win.transcript.hasFocus)


def test_a_stray_digit_on_a_word_cursor_creates_no_span(qtbot, window, project_path):
    """Clicking into the transcript leaves a word cursor; "Done 1100" once became an accepted ADDRESS."""
    win = window
    before = stored(project_path)
    index = free_word(win, "card")
    click_word(qtbot, win, index)
    assert win.ctx.current_word == index and win.ctx.current_span_id is None
    for k in (Qt.Key.Key_1, Qt.Key.Key_1, Qt.Key.Key_0, Qt.Key.Key_5):
        press(qtbot, win, k)
    assert stored(project_path) == before  # nothing created, nothing accepted
    assert "press M" in win.ctx.last_status
    # an explicit mark still works: M opens the category menu, a digit there picks
    press(qtbot, win, Qt.Key.Key_M)
    qtbot.waitUntil(lambda: win.picker is not None and win.picker.isVisible())
    qtbot.keyClick(win.picker, Qt.Key.Key_5)
    made = [s for s in stored(project_path).values() if (s.start_word, s.end_word) == (index, index + 1)]
    assert [(s.category, s.status) for s in made] == [(win.ctx.taxonomy.keys[5], SpanStatus.ACCEPTED)]


def test_j_from_a_word_cursor_goes_to_the_next_suggestion_after_it(qtbot, window):
    """After a click (or a queue row) put the cursor in the middle of the call, J continues from there."""
    win = window
    index = free_word(win, "card")
    click_word(qtbot, win, index)
    press(qtbot, win, Qt.Key.Key_J)
    after = [s for s in suggested(win) if s.end_word > index]
    assert win.ctx.current_span_id == after[0].id


def _combos(seq: QKeySequence) -> list[tuple[Qt.KeyboardModifier, int]]:
    return [(seq[i].keyboardModifiers(), seq[i].key()) for i in range(seq.count())]


def test_no_shortcut_clashes_with_window_managers_and_the_new_ones_work(qtbot, window, project_path):
    """Alt+Shift+arrows switched keyboard layouts or desktops; Ctrl+Alt and Super combos are the WM's too."""
    win = window
    alt, shift, meta = Qt.KeyboardModifier.AltModifier, SHIFT, Qt.KeyboardModifier.MetaModifier
    for action in win.findChildren(type(win.act_next)):
        for seq in action.shortcuts():
            for mods, _key in _combos(seq):
                assert not (mods & alt and mods & shift), (action.text(), seq.toString())
                assert not (mods & alt and mods & CTRL), (action.text(), seq.toString())
                assert not mods & meta, (action.text(), seq.toString())
    help_text = " ".join(keys for keys, _ in dialogs.SHORTCUT_HELP)
    assert "Alt+Shift" not in help_text and "Ctrl+Shift+← / →" in help_text
    app_section = README.read_text(encoding="utf-8").split("## The app", 1)[1].split("\n## ", 1)[0]
    assert "Alt+Shift+←" not in app_section and "Ctrl+Shift+←/→" in app_section
    press(qtbot, win, Qt.Key.Key_J)
    press(qtbot, win, Qt.Key.Key_J)
    span = win.ctx.current_span()
    press(qtbot, win, Qt.Key.Key_Left, CTRL | SHIFT)  # the start one word left
    after = stored(project_path)[span.id]
    assert (after.start_word, after.end_word) == (span.start_word - 1, span.end_word)
    press(qtbot, win, Qt.Key.Key_Right, CTRL | SHIFT)
    after = stored(project_path)[span.id]
    assert (after.start_word, after.end_word) == (span.start_word, span.end_word)


def test_a_category_key_sets_the_category_accepts_and_moves_on(qtbot, window, project_path):
    win = window
    first, second = suggested(win)[:2]
    press(qtbot, win, Qt.Key.Key_J)
    press(qtbot, win, Qt.Key.Key_3)
    after = stored(project_path)[first.id]
    assert (after.category, after.status) == (win.ctx.taxonomy.keys[3], SpanStatus.ACCEPTED)
    assert win.ctx.current_span_id == second.id  # one key per decision: on to the next
    press(qtbot, win, Qt.Key.Key_1)
    assert stored(project_path)[second.id].status == SpanStatus.ACCEPTED


# ------------------------------------------------------------------------------------------ 3. zoom
def _span_pixels(win, span) -> float:
    t0, t1 = win.ctx.conversation.span_times(span)
    x0, x1 = win.waveform.x_range()
    return (t1 - t0) / (x1 - x0) * win.waveform.pixels()


def test_z_frames_the_current_suggestion_or_word_with_context(qtbot, window):
    win = window
    wf = win.waveform
    wf.show_all()
    press(qtbot, win, Qt.Key.Key_J)
    span = win.ctx.current_span()
    t0, t1 = win.ctx.conversation.span_times(span)
    assert wf.x_range() == (0.0, wf.duration)  # the whole call: the suggestion is a sliver
    press(qtbot, win, Qt.Key.Key_Z)
    x0, x1 = wf.x_range()
    assert x0 <= t0 - 0.9 and x1 >= t1 + 0.9  # context on both sides
    assert _span_pixels(win, span) >= 0.12 * wf.pixels()  # was a few pixels in the whole call
    # no span selected, only a word cursor: Z frames the word
    index = free_word(win, "card")
    wf.show_all()
    click_word(qtbot, win, index)
    press(qtbot, win, Qt.Key.Key_Z)
    word = win.ctx.conversation.words[index]
    x0, x1 = wf.x_range()
    assert x0 < word.start < word.end < x1 and x1 - x0 < 0.5 * wf.duration
    assert any(keys == "Z" for keys, _ in dialogs.SHORTCUT_HELP)  # and F1 tells about it


def test_ctrl_plus_zooms_around_the_current_selection(qtbot, window):
    win = window
    wf = win.waveform
    wf.show_all()
    press(qtbot, win, Qt.Key.Key_K)  # the last suggestion, far from the middle of the call
    span = win.ctx.current_span()
    t0, t1 = win.ctx.conversation.span_times(span)
    for _ in range(3):
        press(qtbot, win, Qt.Key.Key_Plus, CTRL)
    x0, x1 = wf.x_range()
    assert x1 - x0 < 0.2 * wf.duration
    assert x0 <= t0 and t1 <= x1
    press(qtbot, win, Qt.Key.Key_Minus, CTRL)
    x0, x1 = wf.x_range()
    assert x0 <= t0 and t1 <= x1


def test_decisions_never_rewrap_the_transcript(qtbot, window):
    """Badges keep their width, so words stay under the mouse whatever is decided."""
    win = window
    view = win.transcript
    n = len(win.ctx.conversation.words)

    def layout():
        return [view._rects[i] for i in range(n)], len(view._lines)

    before = layout()
    for key in (Qt.Key.Key_J, Qt.Key.Key_A, Qt.Key.Key_X, Qt.Key.Key_3, Qt.Key.Key_9, Qt.Key.Key_A):
        press(qtbot, win, key)
        assert layout() == before, key
    press(qtbot, win, Qt.Key.Key_K)
    press(qtbot, win, Qt.Key.Key_U)  # reopen a decided one
    assert layout() == before


# ------------------------------------------------------------------------------------------ 4. reviewer
def test_mark_missed_takes_the_words_selected_in_the_transcript(qtbot, open_window, project_path):
    win = open_window("reviewer")
    panel = win.panel_widgets["review"]
    a = free_word(win, "northwind")
    view = win.transcript.viewport()
    start, end = win.transcript.word_rect(a).center(), win.transcript.word_rect(a + 1).center()
    qtbot.mousePress(view, Qt.MouseButton.LeftButton, pos=start)
    qtbot.mouseMove(view, end)
    qtbot.mouseRelease(view, Qt.MouseButton.LeftButton, pos=end)
    qtbot.waitUntil(lambda: win.picker is not None and win.picker.isVisible())
    qtbot.keyClick(win.picker, Qt.Key.Key_Escape)  # not personal data of a category: a missed item
    qtbot.waitUntil(win.transcript.hasFocus)
    press(qtbot, win, Qt.Key.Key_M, SHIFT)
    qtbot.waitUntil(lambda: panel.dialog is not None and panel.dialog.isVisible())
    dialog = panel.dialog
    activate(qtbot, dialog)
    assert dialog.values()["start_word"] == a and dialog.values()["end_word"] == a + 2
    assert dialog.words.text() == "“northwind bank”"
    assert not dialog.adjust_row.isVisible()  # word numbers only as a fallback
    dialog.set_category("ORGANIZATION")
    qtbot.keyClick(dialog, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: not dialog.isVisible())
    activate(qtbot, win)
    qtbot.waitUntil(win.transcript.hasFocus)  # the keyboard is back on the review
    with Project.open(project_path) as p:
        marks = [(r["start_word"], r["end_word"], r["category"]) for r in p.missed_items(CID)]
    assert marks == [(a, a + 2, "ORGANIZATION")]

    # Shift+click selects from the word cursor; the category menu of a drag offers "Missed item" too
    b = free_word(win, "lost")
    click_word(qtbot, win, b)
    click_word(qtbot, win, b + 2, SHIFT)
    assert win.ctx.selected_words == (b, b + 3)
    press(qtbot, win, Qt.Key.Key_M, SHIFT)
    qtbot.waitUntil(lambda: panel.dialog is not dialog and panel.dialog.isVisible())
    activate(qtbot, panel.dialog)
    assert (panel.dialog.values()["start_word"], panel.dialog.values()["end_word"]) == (b, b + 3)
    qtbot.keyClick(panel.dialog, Qt.Key.Key_Escape)
    activate(qtbot, win)
    qtbot.waitUntil(win.transcript.hasFocus)

    # the panel's button: the dialog takes the keys, and gives them back to the review, not the button
    win.docks["review"].raise_()
    button = panel.findChild(type(panel.sign_button), "markMissedButton")
    panel.findChild(QScrollArea).ensureWidgetVisible(button)
    qtbot.waitUntil(button.isVisible)
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: panel.dialog.isVisible())
    activate(qtbot, panel.dialog)
    qtbot.keyClick(panel.dialog, Qt.Key.Key_Escape)
    activate(qtbot, win)
    qtbot.waitUntil(win.transcript.hasFocus)


# ------------------------------------------------------------------------------------------ 5. layout
def _fits(win) -> None:
    """Every visible panel is usable: at its own minimum width (or scrollable to it), none squeezed."""
    for sid, dock in win.docks.items():
        if not dock.isVisible() or dock.visibleRegion().isEmpty():
            continue
        panel = win.panel_widgets[sid]
        assert dock.width() >= 200, sid
        assert panel.width() >= panel.minimumSizeHint().width(), sid  # scrolls rather than squeezes
    assert win.transcript.width() >= 300
    assert win.waveform.width() >= 300
    assert win.corpus.table.width() >= 150


@pytest.mark.parametrize("role", ["annotator", "linguist", "reviewer"])
def test_window_fits_1024_and_1280_wide_with_every_panel_usable(qtbot, open_window, role):
    win = open_window(role)
    assert win.minimumSizeHint().width() <= 1024
    for size in ((1024, 700), (1280, 800)):
        win.resize(*size)
        win.reset_layout()
        qtbot.waitUntil(lambda s=size: (win.width(), win.height()) == s)
        QApplication.processEvents()
        _fits(win)
        for dock in win.docks.values():  # each panel in front in turn, as its tab would put it
            if dock.toggleViewAction().isVisible():
                dock.raise_()
                QApplication.processEvents()
                _fits(win)


def test_role_dialog_is_not_clipped(qtbot):
    dialog = dialogs.RoleDialog(Role.ANNOTATOR)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    inside = dialog.rect()
    for label in dialog.findChildren(QLabel):
        assert label.height() >= label.heightForWidth(label.width()), label.text()
    for child in dialog.findChildren(QWidget):
        if child.isVisible() and child.parentWidget() is dialog:
            assert inside.contains(child.geometry()), child


def _long_conversation() -> Conversation:
    lines = [("agent", "thank you for calling this is Emma how may I help you today"),
             ("customer", "hi it's Daniel Brooks I am calling about my account again please")] * 12
    words, turns, spans = [], [], []
    t = 0.0
    for speaker, text in lines:
        first = len(words)
        for tok in text.split():
            words.append(Word(tok, round(t, 2), round(t + 0.3, 2), 0.9, speaker))
            t += 0.4
        turns.append(Turn(speaker, first, len(words)))
        name = text.split().index("Emma" if speaker == "agent" else "Daniel")
        spans.append(Span(first + name, first + name + (1 if speaker == "agent" else 2), "PERSON",
                          SpanStatus.ACCEPTED))
    return Conversation(id="call_1", words=words, turns=turns, spans=spans, language="en")


@pytest.fixture
def linguist_panel(qtbot, tmp_path):
    from redactdesk.gui.context import AppContext
    from redactdesk.gui.panels.linguist import LinguistPanel
    from redactdesk.resources import load_taxonomy

    project = Project.create(tmp_path / "ling.rdproj", actor="lena", role=Role.LINGUIST)
    project.add_conversation(_long_conversation())
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    ctx = AppContext(project, load_taxonomy(), Role.LINGUIST, settings)
    ctx.open_conversation("call_1")
    panel = LinguistPanel(ctx)
    qtbot.addWidget(panel)
    panel.resize(340, 640)  # a right-hand dock's width
    panel.show()
    qtbot.waitExposed(panel)
    yield panel
    ctx.closing.emit()
    qtbot.wait(60)
    project.close()


def test_pseudonym_edit_box_is_wide_enough(qtbot, linguist_panel):
    panel = linguist_panel
    assert panel.edit.width() >= 160 and panel.edit.width() >= 0.5 * panel.width()


def test_original_and_revised_panes_scroll_together(qtbot, linguist_panel):
    panel = linguist_panel
    orig, rev = panel.original_view, panel.revised_view
    qtbot.waitUntil(lambda: orig.verticalScrollBar().maximum() > 0 and rev.verticalScrollBar().maximum() > 0)
    orig.setFocus()
    for _ in range(3):
        qtbot.keyClick(orig, Qt.Key.Key_PageDown)
    assert orig.verticalScrollBar().value() > 0

    def top_block(view):
        return view.cursorForPosition(view.viewport().rect().topLeft()).blockNumber()

    assert rev.verticalScrollBar().value() > 0
    assert abs(top_block(rev) - top_block(orig)) <= 1  # the same turn at the top of both
    rev.setFocus()
    qtbot.keyClick(rev, Qt.Key.Key_End)
    qtbot.keyClick(rev, Qt.Key.Key_PageUp)
    assert abs(top_block(rev) - top_block(orig)) <= 1


def test_apply_after_regenerate_acts_on_the_regenerated_entry(qtbot, linguist_panel):
    panel = linguist_panel
    ctx = panel.ctx
    key = "person:surname:brooks"
    panel.select_key(key)
    qtbot.mouseClick(panel.regen_button, Qt.MouseButton.LeftButton)
    qtbot.wait(200)  # the panel rebuilds its list after every change (a 50 ms timer)
    regenerated = next(r for r in ctx.project.pseudonyms("call_1") if r["key"] == key)["surrogate"]
    assert panel.selected_keys() == [key] and panel.edit.text() == regenerated
    qtbot.mouseClick(panel.edit, Qt.MouseButton.LeftButton)
    panel.edit.selectAll()
    qtbot.keyClicks(panel.edit, "Okafor")
    qtbot.mouseClick(panel.apply_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: next(r for r in ctx.project.pseudonyms("call_1") if r["key"] == key)["surrogate"]
                    == "Okafor")
    # with nothing selected Apply says why instead of doing nothing silently
    panel.tree.clearSelection()
    qtbot.mouseClick(panel.apply_button, Qt.MouseButton.LeftButton)
    assert re.search(r"select one entry", ctx.last_status)
