"""The main window: corpus browser, waveform, transcript, side panels, menus and keyboard review."""

from __future__ import annotations

import bisect
import os
from pathlib import Path

from PySide6.QtCore import QByteArray, QPoint, QRect, QSettings, Qt, QTimer
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QDialog,
    QDockWidget,
    QFileDialog,
    QFrame,
    QLabel,
    QLineEdit,
    QMainWindow,
    QMenu,
    QMessageBox,
    QPlainTextEdit,
    QScrollArea,
    QSplitter,
    QTextEdit,
    QToolButton,
    QToolTip,
    QVBoxLayout,
    QWidget,
)

from redactdesk.core.types import Role, Span, SpanStatus
from redactdesk.gui import commands, dialogs, panels, stage_actions, style, window_tools
from redactdesk.gui.audiosource import (
    AudioSource,
    AudioUnavailable,
    default_cache_dir,
    load_pyramid,
    resolve_audio_path,
)
from redactdesk.gui.context import AppContext
from redactdesk.gui.corpus import CorpusBrowser
from redactdesk.gui.dialogs import CategoryPicker, pref
from redactdesk.gui.playback import Player
from redactdesk.gui.review_queue import ReviewQueue
from redactdesk.gui.stage_jobs import StageJobs
from redactdesk.gui.transcript import TranscriptView
from redactdesk.gui.waveform import WaveformView
from redactdesk.gui.widgets import ConversationHeader, JobIndicator, LegendBar

POSITION_KEY = "ui.position"
_WINDOWS: list[QMainWindow] = []  # windows opened from File ▸ Open stay alive here
SYNC_AUDIO_FRAMES = 16000 * 60 * 20  # build the waveform inline below ~20 min of audio; else in the background
_AREAS = {"right": Qt.DockWidgetArea.RightDockWidgetArea, "left": Qt.DockWidgetArea.LeftDockWidgetArea,
          "bottom": Qt.DockWidgetArea.BottomDockWidgetArea}
DEFAULT_SIZE = (1480, 920)
OUTSIDE_POLL_MS = 2000  # how often the window looks for commits by other programs (PRAGMA data_version)
CORPUS_MIN_WIDTH = 180  # docks narrower than their contents scroll; the window fits 1024 px screens
PANEL_MIN_WIDTH = 220


def _is_text_input(widget: QWidget | None) -> bool:
    """A widget that takes typed text (keys there are the user's, not the review's)."""
    if isinstance(widget, (QLineEdit, QAbstractSpinBox)):
        return True
    if isinstance(widget, (QTextEdit, QPlainTextEdit)):
        return not widget.isReadOnly()
    return isinstance(widget, QComboBox) and widget.isEditable()


def scrolling(panel: QWidget) -> QScrollArea:
    """``panel`` in a frameless scroll area: a dock narrower or shorter than the panel scrolls instead
    of forcing the window wider than the screen."""
    area = QScrollArea()
    area.setObjectName(f"scroll_{panel.objectName() or type(panel).__name__}")
    area.setWidgetResizable(True)
    area.setFrameShape(QFrame.Shape.NoFrame)
    area.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # a click on a panel's blank space leaves the keys where they are
    area.setWidget(panel)
    area.setMinimumWidth(PANEL_MIN_WIDTH)
    return area


class MainWindow(QMainWindow):
    """One open project. Build with :func:`redactdesk.gui.app.build_main_window`."""

    def __init__(self, ctx: AppContext) -> None:
        super().__init__()
        self.ctx = ctx
        ctx.window = self
        self.project = ctx.project
        self.setObjectName("mainWindow")
        self.setWindowTitle(f"{Path(str(self.project.path)).name} — redactdesk")
        self.setDockOptions(QMainWindow.DockOption.AnimatedDocks | QMainWindow.DockOption.AllowTabbedDocks)
        self.queues: dict[str, ReviewQueue] = {}
        self.source: AudioSource | None = None
        self.cursor_time: float | None = None
        self._audio_generation = 0
        self._pending_range: tuple[float, float] | None = None
        self._restoring = False
        self.picker: CategoryPicker | None = None
        self.docks: dict[str, QDockWidget] = {}
        self.panel_widgets: dict[str, QWidget] = {}
        self.review_actions: list[QAction] = []
        self._review_targets: list[QWidget] = []  # panel widgets where the review keys work too

        ctx.set_status_sink(lambda text, msecs: self.statusBar().showMessage(text, msecs))
        ctx.set_focus_sink(self.focus_review)
        ctx.player = self.player = Player(self)
        self._build_central()
        self._build_corpus_dock()
        self._build_actions()
        self._build_menus()
        self._build_status_bar()
        self._build_panels()
        self._connect()
        self._hook_panel(self.corpus, escape=True, buttons=False)
        self.stage_jobs = StageJobs(ctx, open_conversation=self.choose_conversation,
                                    refresh_corpus=self.refresh_corpus)  # import, transcribe, detect, demo
        self.stage = stage_actions.install(self)  # context menus, speaker edits, mask shading
        window_tools.install(self)  # find in transcripts, speed/loop, spectrogram range, theme, quit guard, keys
        self._apply_prefs()
        self.resize(*self._default_size())
        self._restore_window_state()
        self.refresh_corpus()
        self.restore_position()
        QTimer.singleShot(0, self._probe_audio)

    # ================================================================== construction
    def _build_central(self) -> None:
        tax = self.ctx.taxonomy
        self.header = ConversationHeader()
        self.waveform = WaveformView(tax)
        self.transcript = TranscriptView(tax)
        self.legend = LegendBar(tax)
        self.split = QSplitter(Qt.Orientation.Vertical)
        self.split.setObjectName("centralSplit")
        self.split.setChildrenCollapsible(False)
        self.split.addWidget(self.waveform)
        self.split.addWidget(self.transcript)
        self.split.setStretchFactor(0, 2)
        self.split.setStretchFactor(1, 3)
        self.split.setSizes([300, 460])
        self.review_area = QWidget()
        self.review_area.setObjectName("reviewArea")
        lay = QVBoxLayout(self.review_area)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(0)
        lay.addWidget(self.header)
        lay.addWidget(self.split, 1)
        lay.addWidget(self.legend)
        self.setCentralWidget(self.review_area)

    def _build_corpus_dock(self) -> None:
        self.corpus = CorpusBrowser()
        dock = QDockWidget("Corpus", self)
        dock.setObjectName("dock_corpus")
        dock.setWidget(self.corpus)
        dock.setMinimumWidth(CORPUS_MIN_WIDTH)
        self.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, dock)
        self.corpus_dock = dock

    def _action(self, text: str, slot, shortcuts=(), *, tip: str = "", review: bool = False,
                checkable: bool = False, name: str | None = None) -> QAction:
        a = QAction(text, self)
        if name:
            a.setObjectName(name)
        if shortcuts:
            a.setShortcuts([QKeySequence(s) if isinstance(s, str) else QKeySequence(s) for s in shortcuts])
        if tip:
            a.setStatusTip(tip)
            a.setToolTip(tip)
        a.setCheckable(checkable)
        if checkable:
            a.toggled.connect(slot)
        else:
            a.triggered.connect(lambda _=False: slot())
        if review:
            # review keys act where the review happens (transcript, waveform, spans list), never in text fields
            a.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            self.review_area.addAction(a)
            self.review_actions.append(a)
        else:
            self.addAction(a)
        return a

    def _build_actions(self) -> None:
        A = self._action
        K = Qt.Key
        M = Qt.KeyboardModifier
        self.act_open = A("&Open project…", self.open_project, [QKeySequence.StandardKey.Open])
        self.act_import = A("&Import recordings…", self.import_recordings, ["Ctrl+I"],
                            tip="Import audio files with their transcripts")
        self.act_settings = A("&Settings…", self.show_settings, ["Ctrl+,"])
        self.act_quit = A("&Quit", self.close, [QKeySequence.StandardKey.Quit])
        self.act_undo = self.ctx.undo_stack.createUndoAction(self, "&Undo")
        self.act_undo.setShortcuts([QKeySequence("Ctrl+Z")])
        self.act_redo = self.ctx.undo_stack.createRedoAction(self, "&Redo")
        self.act_redo.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])
        self.addAction(self.act_undo)
        self.addAction(self.act_redo)
        self.act_find = A("&Find conversation", self.focus_search, [QKeySequence.StandardKey.Find])
        self.act_next_conv = A("Next conversation", lambda: self.step_conversation(1), ["Ctrl+PgDown"])
        self.act_prev_conv = A("Previous conversation", lambda: self.step_conversation(-1), ["Ctrl+PgUp"])
        self.act_next_open = A("Next conversation with open suggestions", self.next_open_conversation,
                               ["Ctrl+J"])
        self.act_mark_reviewed = A("Mark conversation &reviewed", self.mark_reviewed, ["Ctrl+Shift+R"],
                                   tip="A person has read the whole conversation and decided every suggestion "
                                       "(also one without suggestions); undo with Ctrl+Z",
                                   name="act_mark_reviewed")
        # review (one key per decision)
        self.act_next = A("&Next suggestion", self.review_next, ["J", QKeySequence(K.Key_Tab)], review=True,
                          name="act_next")
        self.act_prev = A("&Previous suggestion", self.review_prev,
                          ["K", QKeySequence(M.ShiftModifier | K.Key_Backtab), "Shift+Tab"], review=True,
                          name="act_prev")
        self.act_accept = A("&Accept", lambda: self.decide(SpanStatus.ACCEPTED),
                            ["A", QKeySequence(K.Key_Return), QKeySequence(K.Key_Enter)], review=True,
                            name="act_accept")
        self.act_reject = A("&Reject", lambda: self.decide(SpanStatus.REJECTED),
                            ["X", QKeySequence(K.Key_Backspace)], review=True, name="act_reject")
        self.act_reopen = A("Re&open as suggestion", lambda: self.decide(SpanStatus.SUGGESTED), ["U"],
                            review=True)
        self.act_skip = A("&Skip (comes back at the end)", self.skip, ["S"], review=True, name="act_skip")
        # (Alt+Shift+arrows are taken by window managers and keyboard-layout switching: not used)
        self.act_extend = A("&Extend span by a word", lambda: self.resize_span(0, 1), ["Shift+Right"],
                            review=True, name="act_extend")
        self.act_shrink = A("S&hrink span by a word", lambda: self.resize_span(0, -1), ["Shift+Left"],
                            review=True, name="act_shrink")
        self.act_start_left = A("Move span start left", lambda: self.resize_span(-1, 0), ["Ctrl+Shift+Left"],
                                review=True, name="act_start_left")
        self.act_start_right = A("Move span start right", lambda: self.resize_span(1, 0), ["Ctrl+Shift+Right"],
                                 review=True, name="act_start_right")
        self.act_mark = A("&Mark selected words…", self.mark_current_word, ["M"], review=True, name="act_mark")
        self.act_delete = A("&Delete span", self.delete_span, [QKeySequence(K.Key_Delete)], review=True)
        self.act_zoom_span = A("&Zoom to current", self.zoom_to_span, ["Z"], review=True, name="act_zoom_span",
                               tip="Frame the current span (or word) in the waveform with context around it")
        self.act_focus_review = A("&Back to the review", self.focus_review, ["F6"], name="act_focus_review",
                                  tip="Give the keyboard back to the transcript (Esc does it in the panels)")
        self.category_actions: list[QAction] = []
        for key in range(1, 10):
            cid = self.ctx.taxonomy.keys.get(key)
            if not cid:
                continue
            label = self.ctx.taxonomy.get(cid).label
            a = A(f"{label}", lambda c=cid: self.set_category(c), [str(key)], review=True, name=f"act_cat_{key}")
            a.setIcon(style.swatch_icon(self.ctx.taxonomy.get(cid).colour, self.ctx.taxonomy.get(cid).pattern))
            self.category_actions.append(a)
        # playback
        self.act_play_span = A("Play &span with context", self.play_span, ["Space"], review=True,
                               name="act_play_span")
        self.act_play_cursor = A("&Play / pause from cursor", self.play_from_cursor, ["P"], review=True)
        self.act_stop = A("S&top", self.player.stop, ["Esc"], review=True)
        # view
        # zoom keeps the current selection in view (the waveform zooms around it)
        self.act_zoom_in = A("Zoom &in", lambda: self.waveform.zoom(0.5), ["Ctrl++", "Ctrl+="], name="act_zoom_in")
        self.act_zoom_out = A("Zoom &out", lambda: self.waveform.zoom(2.0), ["Ctrl+-"], name="act_zoom_out")
        self.act_zoom_all = A("&Whole call", self.waveform.show_all, ["Ctrl+0"])
        self.act_pan_left = A("Pan &left", lambda: self.waveform.pan(-0.25), ["Alt+Left"])
        self.act_pan_right = A("Pan &right", lambda: self.waveform.pan(0.25), ["Alt+Right"])
        self.act_spectro = A("&Spectrogram", self._toggle_spectrogram, ["Ctrl+G"], checkable=True)
        self.act_rejected = A("Show &rejected spans", self._toggle_rejected, checkable=True)
        # tools
        self.act_transcribe = A("&Transcribe selected conversations", self.transcribe_selected, ["Ctrl+T"])
        self.act_detect = A("&Detect personal data in selected", self.detect_selected, ["Ctrl+D"])
        # help
        self.act_shortcuts = A("&Keyboard shortcuts", self.show_shortcuts, ["F1"], name="act_shortcuts")
        self.act_about = A("&About redactdesk", lambda: dialogs.about(self, self.ctx.taxonomy))

    def _build_menus(self) -> None:
        mb = self.menuBar()
        m = mb.addMenu("&File")
        m.addActions([self.act_open, self.act_import])
        m.addSeparator()
        m.addAction(self.act_settings)
        m.addSeparator()
        m.addAction(self.act_quit)
        m = mb.addMenu("&Edit")
        m.addActions([self.act_undo, self.act_redo])
        m.addSeparator()
        m.addActions([self.act_mark, self.act_delete])
        m.addSeparator()
        m.addAction(self.act_find)
        m = mb.addMenu("&Review")
        m.addActions([self.act_next, self.act_prev])
        m.addSeparator()
        m.addActions([self.act_accept, self.act_reject, self.act_skip, self.act_reopen])
        cat_menu = m.addMenu("Set &category")
        cat_menu.addActions(self.category_actions)
        m.addSeparator()
        m.addActions([self.act_extend, self.act_shrink, self.act_start_left, self.act_start_right])
        m.addSeparator()
        m.addActions([self.act_next_open, self.act_next_conv, self.act_prev_conv])
        m.addSeparator()
        m.addAction(self.act_mark_reviewed)
        m.addSeparator()
        m.addAction(self.act_focus_review)
        m = mb.addMenu("&Playback")
        m.addActions([self.act_play_span, self.act_play_cursor, self.act_stop])
        m = mb.addMenu("&View")
        m.addActions([self.act_zoom_in, self.act_zoom_out, self.act_zoom_all, self.act_zoom_span,
                      self.act_pan_left, self.act_pan_right])
        m.addSeparator()
        m.addActions([self.act_spectro, self.act_rejected])
        m.addSeparator()
        self.panels_menu = m.addMenu("&Panels")
        self.panels_menu.addAction(self.corpus_dock.toggleViewAction())
        m.addAction(self._action("Reset &layout", self.reset_layout))
        m = mb.addMenu("&Tools")
        m.addActions([self.act_transcribe, self.act_detect])
        m = mb.addMenu("&Help")
        m.addActions([self.act_shortcuts, self.act_about])

    def _build_status_bar(self) -> None:
        sb = self.statusBar()
        self.jobs_indicator = JobIndicator()
        sb.addPermanentWidget(self.jobs_indicator)
        self.review_progress = QLabel("")
        self.review_progress.setObjectName("muted")
        sb.addPermanentWidget(self.review_progress)
        self._audio_facts = ""
        self.audio_label = QLabel("")
        self.audio_label.setObjectName("muted")
        sb.addPermanentWidget(self.audio_label)
        self.audio_out_label = QLabel("")
        self.audio_out_label.setObjectName("muted")
        sb.addPermanentWidget(self.audio_out_label)
        self.saved_label = QLabel("")
        self.saved_label.setObjectName("muted")
        sb.addPermanentWidget(self.saved_label)
        self.role_button = QToolButton()
        self.role_button.setObjectName("roleButton")
        self.role_button.setAutoRaise(True)
        self.role_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        menu = QMenu(self.role_button)
        group = QActionGroup(self)
        self.role_actions: dict[Role, QAction] = {}
        for role in Role:
            a = menu.addAction(role.value.capitalize())
            a.setCheckable(True)
            group.addAction(a)
            a.triggered.connect(lambda _=False, r=role: self.ctx.set_role(r))
            self.role_actions[role] = a
        self.role_button.setMenu(menu)
        self.keys_label = QLabel("")
        self.keys_label.setObjectName("keysLabel")
        for w in (self.review_progress, self.audio_label, self.audio_out_label, self.saved_label, self.keys_label):
            w.setContentsMargins(10, 0, 10, 0)
        sb.addPermanentWidget(self.keys_label)
        sb.addPermanentWidget(self.role_button)
        self._show_role()
        self.ctx.jobs.started.connect(self.jobs_indicator.track)

    def _build_panels(self) -> None:
        errors = panels.discover()
        for name, err in errors.items():
            self.ctx.status(f"Panel {name} unavailable: {err}", 10000)
        self._sync_panels()

    def _sync_panels(self) -> None:
        """Create docks for the panels this role may see; hide the others."""
        allowed = {s.id for s in panels.panels_for_role(self.ctx.role)}
        previous: dict[str, QDockWidget] = {}
        created: list[QDockWidget] = []
        first_build = not self.docks
        for spec in panels.registered_panels():
            dock = self.docks.get(spec.id)
            if spec.id not in allowed:
                if dock is not None:
                    dock.hide()
                    dock.toggleViewAction().setVisible(False)
                continue
            if dock is None:
                try:
                    widget = spec.factory(self.ctx)
                except Exception as exc:  # one panel failing must not take the window down
                    self.ctx.status(f"Panel {spec.title} failed to open: {exc}", 10000)
                    continue
                dock = QDockWidget(spec.title, self)
                dock.setObjectName(f"dock_{spec.id}")
                dock.setWidget(scrolling(widget))
                self.addDockWidget(_AREAS[spec.area], dock)
                if spec.area in previous:
                    self.tabifyDockWidget(previous[spec.area], dock)
                self.docks[spec.id] = dock
                self.panel_widgets[spec.id] = widget
                created.append(dock)
                dock.show()
                self.panels_menu.addAction(dock.toggleViewAction())
                target = getattr(widget, "review_keys_target", None)
                if target is None and getattr(widget, "review_keys", False):
                    target = widget
                if target is not None:
                    target.addActions(self.review_actions)
                    self._review_targets.append(target)
                self._hook_panel(widget, escape=target is None)
            else:
                dock.toggleViewAction().setVisible(True)
                dock.show()
                hook = getattr(self.panel_widgets.get(spec.id), "on_role_changed", None)
                if callable(hook):
                    hook(self.ctx.role)
            previous.setdefault(spec.area, dock)
        if not first_build and created:
            created[0].raise_()  # show the user what the new role brought

    # ================================================================== keyboard focus
    def _hook_panel(self, widget: QWidget, *, escape: bool = True, buttons: bool = True) -> None:
        """After a panel's button or list activation the keyboard goes back to the review; Esc in a
        panel (without review keys of its own) does the same."""
        if buttons:
            for button in widget.findChildren(QAbstractButton):
                button.clicked.connect(self._after_panel_action)
        for view in widget.findChildren(QAbstractItemView):
            view.activated.connect(self._after_panel_action)
        if escape:
            back = QAction("Back to the review", widget)
            back.setShortcut(QKeySequence(Qt.Key.Key_Escape))
            back.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            back.triggered.connect(lambda _=False: self.focus_review())
            widget.addAction(back)

    def _after_panel_action(self, *_args) -> None:
        QTimer.singleShot(0, self._return_focus)

    def _return_focus(self) -> None:
        """Focus the review unless a dialog took over (then: when it closes) or the user is typing."""
        if getattr(self, "_closed", False):
            return
        modal = QApplication.activeModalWidget()
        if modal is not None and modal is not self:
            self._focus_review_after(modal)
            return
        if QApplication.activePopupWidget() is not None:
            return
        focus = QApplication.focusWidget()
        if focus is not None and focus.window() is not self:
            self._focus_review_after(focus.window())
            return
        if _is_text_input(focus):
            return
        self.focus_review()

    def _focus_review_after(self, window: QWidget) -> None:
        if isinstance(window, QDialog) and not window.property("_focus_back"):
            window.setProperty("_focus_back", True)
            window.finished.connect(lambda _r: QTimer.singleShot(0, self.focus_review))

    def focus_review(self) -> None:
        """Give the keyboard to the transcript, where the review keys work (F6, Esc in a panel)."""
        if getattr(self, "_closed", False):
            return
        self.transcript.setFocus(Qt.FocusReason.OtherFocusReason)
        self._show_key_target(self.transcript)

    def key_target(self, widget: QWidget | None) -> str | None:
        """Where typed keys go: None for the review (transcript, waveform, a panel with review keys),
        else a short name of the place (a panel's title, "Corpus")."""
        if widget is None:
            return None
        if widget is self.review_area or self.review_area.isAncestorOf(widget):
            return None
        for target in self._review_targets:
            if widget is target or target.isAncestorOf(widget):
                return None
        dock = widget
        while dock is not None and not isinstance(dock, QDockWidget):
            dock = dock.parentWidget()
        place = dock.windowTitle() if dock is not None else "the menu bar"
        return f"typing in {place}" if _is_text_input(widget) else place

    def _focus_moved(self, _old: QWidget | None, new: QWidget | None) -> None:
        if new is None or getattr(self, "_closed", False) or new.window() is not self:
            return
        self._show_key_target(new)

    def _show_key_target(self, widget: QWidget | None) -> None:
        place = self.key_target(widget)
        if place is None:
            self.keys_label.setText("⌨ review keys")
            self.keys_label.setStyleSheet(f"color: {style.MUTED}")
            self.keys_label.setToolTip("Keys go to the review: J/K move, A accept, X reject, 1–9 category (F1)")
        else:
            self.keys_label.setText(f"⌨ keys → {place} · Esc/F6: review")
            self.keys_label.setStyleSheet(f"color: {style.WARN}; font-weight: 600")
            self.keys_label.setToolTip(f"Keys now go to {place}, not to the review. Press Esc (in a panel) or F6, "
                                       "or click the transcript, to review with the keyboard again.")

    def _connect(self) -> None:
        ctx = self.ctx
        app = QApplication.instance()
        if app is not None:
            app.focusChanged.connect(self._focus_moved)
        ctx.conversation_changed.connect(self._conversation_changed)
        ctx.spans_changed.connect(self._spans_changed)
        ctx.selection_changed.connect(self._selection_changed)
        ctx.corpus_changed.connect(self._corpus_timer_start)
        ctx.role_changed.connect(self._role_changed)
        ctx.undo_stack.indexChanged.connect(self._saved)
        self.corpus.conversation_chosen.connect(self.choose_conversation)
        self.transcript.word_clicked.connect(self.click_word)
        self.transcript.span_clicked.connect(lambda sid: self.ctx.select(sid))
        self.transcript.span_requested.connect(self.request_span)
        self.transcript.range_selected.connect(self._range_selected)
        self.ctx.missed_marks.connect(self.transcript.set_missed)
        ctx.words_revealed.connect(self._words_revealed)
        self.waveform.time_clicked.connect(self.click_time)
        self.waveform.range_changed.connect(lambda *_: self._position_timer.start())
        self.player.position_changed.connect(self._playing_at)
        self.player.playing_changed.connect(self._playing_changed)
        self.player.unavailable.connect(self._audio_unavailable)
        self._corpus_timer = QTimer(self, singleShot=True, interval=80)
        self._corpus_timer.timeout.connect(self.refresh_corpus)
        self._outside_version = self.project.outside_version()
        self._outside_timer = QTimer(self, interval=OUTSIDE_POLL_MS)  # another program's writes
        self._outside_timer.timeout.connect(self.check_outside_changes)
        self._outside_timer.start()
        self._position_timer = QTimer(self, singleShot=True, interval=400)
        self._position_timer.timeout.connect(self.save_position)

    def _corpus_timer_start(self) -> None:
        self._corpus_timer.start()

    def _apply_prefs(self) -> None:
        s = self.ctx.settings
        self.transcript.set_font_size(pref(s, "transcript_font_size"))
        show_rejected = pref(s, "show_rejected")
        self.act_rejected.blockSignals(True)
        self.act_rejected.setChecked(show_rejected)
        self.act_rejected.blockSignals(False)
        self.transcript.show_rejected = show_rejected
        self.waveform.set_show_rejected(show_rejected)
        spectro = pref(s, "spectrogram")
        self.act_spectro.blockSignals(True)
        self.act_spectro.setChecked(spectro)
        self.act_spectro.blockSignals(False)
        self.waveform.set_spectrogram_visible(spectro)
        if self.ctx.conversation is not None:
            self.transcript.set_spans(self.ctx.conversation.spans)

    # ================================================================== window state
    def _restore_window_state(self) -> None:
        s = self.ctx.settings
        geo = s.value("window/geometry")
        if isinstance(geo, (QByteArray, bytes)):
            self.restoreGeometry(QByteArray(geo))
        state = s.value("window/state")
        if isinstance(state, (QByteArray, bytes)):
            self.restoreState(QByteArray(state))
        sizes = s.value("window/split")
        if isinstance(sizes, (QByteArray, bytes)):
            self.split.restoreState(QByteArray(sizes))
        self._state_restored = isinstance(state, (QByteArray, bytes))

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if not getattr(self, "_shown_once", False):
            self._shown_once = True
            if not self._state_restored:
                QTimer.singleShot(0, self.reset_layout)

    def _default_size(self) -> tuple[int, int]:
        """1480 x 920, or the screen's free area when it is smaller (a 1280 laptop, half a 1920 screen)."""
        screen = self.screen() or QApplication.primaryScreen()
        if screen is None:
            return DEFAULT_SIZE
        free = screen.availableGeometry()
        return min(DEFAULT_SIZE[0], max(free.width(), 640)), min(DEFAULT_SIZE[1], max(free.height(), 480))

    def dock_widths(self, width: int | None = None) -> tuple[int, int]:
        """Default widths of the corpus (left) and the panels (right) for a window ``width`` wide: 390 and
        360 px on a wide window, less on a narrow one so the transcript keeps about half the width."""
        w = self.width() if width is None else width
        return int(min(390, max(CORPUS_MIN_WIDTH + 20, 0.22 * w))), int(min(360, max(PANEL_MIN_WIDTH + 80, 0.28 * w)))

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        narrow = self.width() < 1200  # the status bar keeps room for messages: the least needed facts go
        for label in (self.audio_label, self.saved_label):
            label.setVisible(not narrow)

    def reset_layout(self) -> None:
        """Default sizes (:meth:`dock_widths`): corpus on the left, panels on the right, Spans in front."""
        for dock in [self.corpus_dock, *self.docks.values()]:
            dock.setFloating(False)
            if dock.toggleViewAction().isVisible():
                dock.show()
        right = [d for sid, d in self.docks.items() if d.isVisible()
                 and self.dockWidgetArea(d) == Qt.DockWidgetArea.RightDockWidgetArea]
        docks = [self.corpus_dock, *right[:1]]
        self.resizeDocks(docks, list(self.dock_widths())[: len(docks)], Qt.Orientation.Horizontal)
        h = max(400, self.split.height())
        self.split.setSizes([int(h * 0.4), int(h * 0.6)])
        if "spans" in self.docks and self.docks["spans"].isVisible():
            self.docks["spans"].raise_()

    def closeEvent(self, event) -> None:
        if not self.quit_guard.allow_close(event):  # a job runs: asked first (gui/quitguard.py)
            return
        self.player.stop()
        self.save_position()
        self._corpus_timer.stop()
        self._position_timer.stop()
        self._closed = True
        self.ctx.closing.emit()
        s = self.ctx.settings
        s.setValue("window/geometry", self.saveGeometry())
        s.setValue("window/state", self.saveState())
        s.setValue("window/split", self.split.saveState())
        s.sync()
        if self.ctx.jobs.jobs:
            self.ctx.jobs.cancel_all()
            self.ctx.jobs.wait(5000)
        super().closeEvent(event)

    # ================================================================== position (autosaved in the project)
    # Kept in the project file, unaudited (it changes nothing a release holds): it names a conversation,
    # and conversation ids come from file names that may hold personal data, which the user's settings
    # folder must not collect (docs/architecture.md, the stage jobs paragraph).
    def position(self) -> dict:
        conv = self.ctx.conversation
        x0, x1 = self.waveform.x_range()
        return {"conversation": conv.id if conv else None, "span": self.ctx.current_span_id,
                "word": self.ctx.current_word, "range": [round(x0, 3), round(x1, 3)]}

    def save_position(self) -> None:
        if self._restoring or getattr(self, "_closed", False):
            return
        try:
            self.project.set_setting(POSITION_KEY, self.position())
        except Exception as exc:  # a locked or read-only project must not break the window
            self.ctx.status(f"Could not remember the position: {exc}")

    def restore_position(self) -> None:
        pos = self.project.setting(POSITION_KEY) or {}
        conv_id = pos.get("conversation")
        if not conv_id or not self.project.has_conversation(conv_id):
            ids = self.project.conversation_ids()
            if ids:
                self.choose_conversation(ids[0])
            return
        self._restoring = True
        try:
            rng = pos.get("range")
            rng = tuple(float(v) for v in rng) if isinstance(rng, list) and len(rng) == 2 else None
            self.choose_conversation(conv_id)
            span_id, word = pos.get("span"), pos.get("word")
            if span_id is not None or word is not None:
                self.ctx.select(span_id, word)
            if rng is not None:
                if self.waveform.pyramid is not None or self.source is None:
                    self.waveform.set_range(*rng)
                else:  # the waveform is still being read: apply when it is drawn
                    self._pending_range = rng
        finally:
            self._restoring = False

    # ================================================================== corpus & conversations
    def check_outside_changes(self) -> bool:
        """Show what another program (a command line, a second window) committed since the last look:
        the corpus list, and the open conversation's spans. True when something had changed."""
        try:
            version = self.project.outside_version()
        except Exception:  # noqa: BLE001 - the file is busy or going away: look again at the next tick
            return False
        if version == self._outside_version:
            return False
        self._outside_version = version
        if self.ctx.conversation is not None:
            self.ctx.reload()  # re-reads its spans and refreshes the corpus list
        else:
            self.refresh_corpus()
        return True

    def refresh_corpus(self) -> None:
        conv = self.ctx.conversation
        signoff = self.project.latest_signoff() or {}
        scope = signoff.get("scope") if isinstance(signoff.get("scope"), dict) else {}
        self.corpus.set_rows(self.project.list_conversations(), conv.id if conv else None,
                             excluded=scope.get("excluded") or (), overrides=scope.get("overrides") or {})
        if conv is not None:
            for row in self.corpus.model.rows:
                if row.id == conv.id and row.status != conv.status.value:
                    conv.status = type(conv.status)(row.status)
            self.header.show_conversation(conv)

    def choose_conversation(self, conversation_id: str) -> None:
        if self.ctx.conversation is not None and self.ctx.conversation.id == conversation_id:
            return
        self.player.stop()
        try:
            self.ctx.open_conversation(conversation_id)
        except Exception as exc:
            self.ctx.error("Cannot open the conversation", str(exc))
            return
        self.corpus.mark_current(conversation_id)
        self.focus_review()

    def step_conversation(self, step: int) -> None:
        ids = [self.corpus.proxy.index(r, 0).data(Qt.ItemDataRole.UserRole + 2)
               for r in range(self.corpus.proxy.rowCount())]
        if not ids:
            return
        cur = self.ctx.conversation.id if self.ctx.conversation else None
        i = ids.index(cur) + step if cur in ids else 0
        if 0 <= i < len(ids):
            self.choose_conversation(ids[i])

    def next_open_conversation(self) -> None:
        rows = self.project.list_conversations()
        cur = self.ctx.conversation.id if self.ctx.conversation else None
        ids = [r.id for r in rows]
        start = ids.index(cur) + 1 if cur in ids else 0
        for r in rows[start:] + rows[:start]:
            if r.suggested and r.id != cur:
                self.choose_conversation(r.id)
                self.review_next()
                return
        self.ctx.status("No other conversation has open suggestions")

    def mark_reviewed(self) -> None:
        """Ctrl+Shift+R: a person finished reviewing the current conversation (undoable, audited).

        Refused, with the reason in the status bar, while suggestions are open or without a transcript.
        """
        if not self._need_conversation() or not self._may("review"):
            return
        conv = self.ctx.conversation
        row = next((r for r in self.project.list_conversations() if r.id == conv.id), None)
        if row is None:
            return
        if row.suggested:
            self.ctx.status(f"Not marked reviewed: {conv.id} still has {row.suggested} undecided suggestion(s). "
                            "Accept or reject each (J for the next one), then mark it reviewed.", 10000)
            return
        if not row.n_words:
            self.ctx.status(f"Not marked reviewed: {conv.id} has no transcript yet (Tools ▸ Transcribe).", 10000)
            return
        if row.status in ("reviewed", "signed_off"):
            self.ctx.status(f"{conv.id} is already reviewed", 5000)
            return
        if self.ctx.push_command(commands.MarkReviewed(self.ctx, conv.id, row.status)):
            note = ("" if row.detected_at else
                    " — but detection never ran over its words: run Tools ▸ Detect (Ctrl+D) before a release")
            self.ctx.status(f"{conv.id} marked reviewed (Ctrl+Z undoes){note}", 10000)

    def _words_revealed(self, conversation_id: str, start: int | None, end: int | None) -> None:
        """ctx.reveal(): mark the conversation in the corpus; frame the words in transcript and waveform."""
        self.corpus.mark_current(conversation_id)
        conv = self.ctx.conversation
        if conv is None or conv.id != conversation_id:
            return
        if start is None or not conv.words:
            self._clear_found()
        else:
            self.transcript.set_highlight(start, end)
            a, b = self.transcript.highlight
            self.waveform.set_found(conv.words[a].start, conv.words[b - 1].end)
        self.transcript.setFocus()

    def _clear_found(self) -> None:
        self.transcript.set_highlight(None)
        self.waveform.set_found(None)

    def focus_search(self) -> None:
        self.corpus_dock.show()
        self.corpus.search.setFocus()
        self.corpus.search.selectAll()

    def _conversation_changed(self, conv) -> None:
        self.header.show_conversation(conv)
        self.transcript.set_conversation(conv)
        self.cursor_time = None
        self.waveform.set_cursor(None)
        self.waveform.set_playhead(None)
        self.waveform.set_found(None)
        self._load_audio(conv)
        self._spans_to_waveform()
        self._update_review_progress()
        self._position_timer.start()

    def _queue(self) -> ReviewQueue:
        cid = self.ctx.conversation.id if self.ctx.conversation else ""
        return self.queues.setdefault(cid, ReviewQueue())

    # ================================================================== audio
    def _load_audio(self, conv) -> None:
        self._audio_generation += 1
        generation = self._audio_generation
        self.source = None
        if conv is None:
            self.waveform.clear(1.0, "")
            return
        fallback = conv.duration or (conv.words[-1].end if conv.words else 1.0)
        path = resolve_audio_path(conv.audio_path, self.project.path)
        if path is None:
            self.waveform.clear(fallback, "no audio for this conversation")
            self._set_audio_facts("no audio")
            return
        try:
            source = AudioSource.open(path)
        except AudioUnavailable as exc:
            self.waveform.clear(fallback, str(exc))
            self._set_audio_facts("audio missing")
            return
        self.source = source
        cache = default_cache_dir() if os.environ.get("REDACTDESK_NO_PEAK_CACHE") != "1" else None
        if source.frames <= SYNC_AUDIO_FRAMES:
            self._audio_ready(generation, source, load_pyramid(source, cache, conv.audio_sha256))
            return
        self.waveform.clear(source.duration, "reading audio…")

        def work(job):
            return load_pyramid(source, cache, conv.audio_sha256, progress=lambda f: job.report(f))

        self.ctx.run_job(f"Reading {path.name}", work,
                         lambda pyr, g=generation, s=source: self._audio_ready(g, s, pyr))

    def _audio_ready(self, generation: int, source: AudioSource, pyramid) -> None:
        if generation != self._audio_generation:
            return  # the user moved on to another conversation meanwhile
        self.waveform.set_audio(source, pyramid)
        ch = "stereo" if source.channels == 2 else "mono"
        self._set_audio_facts(f"{source.rate / 1000:g} kHz {ch}")
        if self._pending_range:
            self.waveform.set_range(*self._pending_range)
            self._pending_range = None
        found = self.waveform.found_range()
        span = self.ctx.current_span()
        if found is not None:
            self.waveform.ensure_visible(*found, margin=max(1.0, 0.5 * (found[1] - found[0])))
        elif span is not None:
            self._show_span_in_waveform(span)

    # ================================================================== spans & selection
    def _span_items(self):
        conv = self.ctx.conversation
        if conv is None or not conv.words:
            return []
        out = []
        for s in conv.spans:
            t0, t1 = conv.span_times(s)
            out.append((t0, t1, s.category, s.status, s.id))
        return out

    def _spans_to_waveform(self) -> None:
        self.waveform.set_spans(self._span_items())
        self.waveform.set_current_span(self.ctx.current_span_id)

    def _spans_changed(self) -> None:
        conv = self.ctx.conversation
        self.transcript.set_spans(conv.spans if conv else [])
        self.transcript.set_current(self.ctx.current_span_id, self.ctx.current_word)
        self._spans_to_waveform()
        self.header.show_conversation(conv)
        self.header.show_span(conv, self.ctx.current_span(), self.ctx.taxonomy)
        self._update_focus_range()
        self._update_review_progress()

    def _selection_changed(self, span_id, word) -> None:
        conv = self.ctx.conversation
        found = self.transcript.highlight
        if found is not None and (word is None or not found[0] <= word < found[1]):
            self._clear_found()  # the user moved on from the place a list pointed at
        if span_id is not None or word is None:
            self._select_words(None)  # a span (or nothing) is selected now, not loose words
        self.transcript.set_current(span_id, word)
        self.waveform.set_current_span(span_id)
        span = self.ctx.span(span_id)
        self.header.show_span(conv, span, self.ctx.taxonomy)
        if conv is not None and word is not None and 0 <= word < len(conv.words):
            self.cursor_time = conv.words[word].start
            self.waveform.set_cursor(self.cursor_time)
        self._update_focus_range()
        if span is not None:
            self._show_span_in_waveform(span)
        elif self.cursor_time is not None:
            self.waveform.ensure_visible(self.cursor_time, self.cursor_time, margin=0.5)
        self._position_timer.start()

    def current_times(self) -> tuple[float, float] | None:
        """Seconds of the current selection: the span, else the selected words, else the word cursor."""
        conv = self.ctx.conversation
        if conv is None or not conv.words:
            return None
        span = self.ctx.current_span()
        if span is not None:
            return conv.span_times(span)
        words = self.ctx.selected_words
        if words is None and self.ctx.current_word is not None and 0 <= self.ctx.current_word < len(conv.words):
            words = (self.ctx.current_word, self.ctx.current_word + 1)
        if words is None:
            return None
        return conv.words[words[0]].start, conv.words[words[1] - 1].end

    def _update_focus_range(self) -> None:
        times = self.current_times()
        self.waveform.set_focus_range(*(times if times is not None else (None, None)))

    def _select_words(self, words: tuple[int, int] | None, anchor: int | None = None) -> None:
        """Select loose words (a drag, Shift+click, Shift+arrows without a span) or clear the selection."""
        if words is None:
            if self.ctx.selected_words is None and self.transcript.selection is None:
                return
            self.ctx.set_selected_words(None)
            self.transcript.set_selection(None)
        else:
            self.ctx.set_selected_words(*words)
            self.transcript.set_selection(*self.ctx.selected_words, anchor=anchor)
        self._update_focus_range()

    def _range_selected(self, start: int, end: int) -> None:
        """Shift+click in the transcript: the words from the cursor to the clicked word."""
        if self.ctx.conversation is None:
            return
        anchor = self.transcript.selection_anchor
        if self.ctx.current_span_id is not None:
            self.ctx.select(None, anchor if anchor is not None else start)
        self._select_words((start, end), anchor=anchor)
        self._selection_hint()

    def _selection_hint(self) -> None:
        words = self.ctx.selected_words
        if words is None:
            return
        n = words[1] - words[0]
        extra = " · Shift+M: mark them missed" if self.ctx.can("review_sample") else ""
        self.ctx.status(f"{n} word(s) selected — M: mark them{extra} · Shift+→/←: one more / fewer", 6000)

    def _show_span_in_waveform(self, span: Span) -> None:
        conv = self.ctx.conversation
        if conv is None or self._pending_range:
            return
        t0, t1 = conv.span_times(span)
        self.waveform.ensure_visible(t0, t1, margin=max(1.0, 0.5 * (t1 - t0)))

    def _update_review_progress(self) -> None:
        conv = self.ctx.conversation
        if conv is None or not conv.spans:
            self.review_progress.setText("")
            return
        counts = conv.counts()
        total = len(conv.spans)
        decided = counts["accepted"] + counts["rejected"]
        skipped = len(self._queue().skipped)
        extra = f" ({skipped} skipped)" if skipped else ""
        self.review_progress.setText(f"{decided}/{total} decided · {counts['suggested']} open{extra}")

    # ================================================================== keyboard review
    def _need_conversation(self) -> bool:
        if self.ctx.conversation is None:
            self.ctx.status("Open a conversation first")
            return False
        return True

    def _need_span(self) -> Span | None:
        span = self.ctx.current_span()
        if span is None:
            self.ctx.status("No span selected — press J for the next suggestion")
        return span

    def _may(self, capability: str) -> bool:
        return self.ctx.may(capability)

    def review_next(self) -> None:
        if not self._need_conversation():
            return
        current = self.ctx.current_span()
        word = self.ctx.current_word if current is None else None
        nxt = self._queue().next(self.ctx.conversation.spans, current, word)
        self._go(nxt)

    def review_prev(self) -> None:
        if not self._need_conversation():
            return
        prv = self._queue().previous(self.ctx.conversation.spans, self.ctx.current_span())
        self._go(prv)

    def _go(self, span: Span | None) -> None:
        if span is None:
            if self._queue().skipped:
                self.ctx.status("Only skipped suggestions are left")
            else:
                self.ctx.status("All suggestions in this conversation are decided — Ctrl+J for the next "
                                "conversation with open ones")
            return
        self.ctx.select(span.id)

    def decide(self, status: SpanStatus) -> None:
        if not self._need_conversation() or not self._may("review"):
            return
        span = self._need_span()
        if span is None:
            return
        if span.status == status:
            if pref(self.ctx.settings, "auto_advance") and status != SpanStatus.SUGGESTED:
                self.review_next()
            return
        self._queue().forget(span.id)
        if self.ctx.push_command(commands.SetStatus(self.ctx, span, status)):
            self.ctx.status(f"{status.value.capitalize()}: {span.category}", 2500)
            if status != SpanStatus.SUGGESTED:
                self._advance()

    def _advance(self) -> None:
        """After a decision: on to the next open suggestion (the auto-advance preference)."""
        if not pref(self.ctx.settings, "auto_advance") or self.ctx.conversation is None:
            return
        nxt = self._queue().next(self.ctx.conversation.spans, self.ctx.current_span())
        if nxt is not None:
            self.ctx.select(nxt.id)
        else:
            self._go(None)

    def skip(self) -> None:
        if not self._need_conversation():
            return
        span = self._need_span()
        if span is None:
            return
        if span.status != SpanStatus.SUGGESTED:
            self.review_next()
            return
        queue = self._queue()
        nxt = queue.next(self.ctx.conversation.spans, span)
        queue.skip(span.id)
        self._update_review_progress()
        if nxt is not None and nxt.id != span.id:
            self.ctx.select(nxt.id)
            self.ctx.status("Skipped — it comes back after the others", 2500)
        else:
            self.ctx.status("Only skipped suggestions are left")

    def set_category(self, category: str) -> None:
        """A number key: the selected span gets the category, is accepted, and the next suggestion comes.

        Never creates a span: with only a word cursor (a click to get the focus back leaves one) a
        stray digit would otherwise mark that word as accepted personal data. The status bar says how
        to mark words instead (M, double-click, drag)."""
        if not self._need_conversation() or not self._may("review"):
            return
        span = self.ctx.current_span()
        if span is None:
            key = next((k for k, c in self.ctx.taxonomy.keys.items() if c == category), "1–9")
            conv = self.ctx.conversation
            words = self.ctx.selected_words
            if words is None and self.ctx.current_word is not None:
                words = (self.ctx.current_word, self.ctx.current_word + 1)
            if words is None:
                self.ctx.status(f"No suggestion selected: {key} sets the category of a selected suggestion "
                                "(J for the next one)", 8000)
            else:
                text = conv.text(*words)
                text = text if len(text) <= 24 else text[:23] + "…"
                hint = (f"Nothing changed: press M to mark “{text}” ({key} only sets the category of a selected "
                        "suggestion; J goes to the next one)")
                self.ctx.status(hint, 10000)
                rect = self.transcript.word_rect(words[0])  # said where the eyes are, too
                QToolTip.showText(self.transcript.viewport().mapToGlobal(rect.bottomLeft()), hint,
                                  self.transcript.viewport(), QRect(), 5000)
            return
        if span.category == category and span.status == SpanStatus.ACCEPTED:
            self._advance()
            return
        self._queue().forget(span.id)
        if self.ctx.push_command(commands.SetCategory(self.ctx, span, category, accept=True)):
            self.ctx.status(f"Accepted as {category}", 2500)
            self._advance()

    def resize_span(self, d_start: int, d_end: int) -> None:
        if not self._need_conversation() or not self._may("review"):
            return
        if self.ctx.current_span() is None and self.ctx.current_word is not None:
            self._resize_selection(d_start, d_end)  # no span: Shift+arrows select words
            return
        span = self._need_span()
        if span is None:
            return
        n = len(self.ctx.conversation.words)
        start = min(max(0, span.start_word + d_start), n - 1)
        end = min(max(1, span.end_word + d_end), n)
        if end <= start or (start, end) == (span.start_word, span.end_word):
            self.ctx.status("A span keeps at least one word" if end <= start else "Already at the edge")
            return
        self.ctx.push_command(commands.SetBounds(self.ctx, span, start, end))

    def _resize_selection(self, d_start: int, d_end: int) -> None:
        n = len(self.ctx.conversation.words)
        word = self.ctx.current_word
        a, b = self.ctx.selected_words or (word, word + 1)
        a, b = min(max(0, a + d_start), n - 1), min(max(1, b + d_end), n)
        if b <= a:
            b = a + 1
        self._select_words((a, b), anchor=a)
        self._selection_hint()

    def delete_span(self) -> None:
        if not self._need_conversation() or not self._may("review"):
            return
        span = self._need_span()
        if span is not None:
            self.ctx.push_command(commands.DeleteSpan(self.ctx, span))

    def zoom_to_span(self) -> None:
        """Z: frame the current span (else the selected words, else the word cursor) with context."""
        times = self.current_times()
        if times is None:
            self.ctx.status("Nothing selected to zoom to — J selects the next suggestion")
            return
        self.waveform.frame(*times)

    # ================================================================== marking words
    def click_word(self, index: int) -> None:
        conv = self.ctx.conversation
        if conv is None or not 0 <= index < len(conv.words):
            return
        spans = self.ctx.spans_at_word(index)
        visible = [s for s in spans if s.status != SpanStatus.REJECTED or self.transcript.show_rejected]
        span_id = visible[0].id if visible else None
        self._select_words(None)
        self.ctx.select(span_id, index)
        if self.player.playing and self.source is not None:
            self.player.play(self.source, conv.words[index].start)

    def click_time(self, t: float) -> None:
        conv = self.ctx.conversation
        if conv is None or not conv.words:
            self.cursor_time = t
            self.waveform.set_cursor(t)
            return
        starts = [w.start for w in conv.words]
        i = max(0, bisect.bisect_right(starts, t) - 1)
        self.click_word(i)
        self.cursor_time = t
        self.waveform.set_cursor(t)

    def request_span(self, start: int, end: int) -> None:
        """Double-click or drag in the transcript: ask for a category, then mark (or recategorise)."""
        if not self._need_conversation() or not self._may("create_span"):
            return
        self.ctx.select(None, start)
        self._select_words((start, end), anchor=start)  # stays selected when the menu is dismissed
        self.transcript.show_pending(start, end)
        picker = CategoryPicker(self.ctx.taxonomy, self, title=f"Mark “{self.ctx.conversation.text(start, end)[:40]}” as…")
        picker.picked.connect(lambda cid, a=start, b=end: self.create_span(a, b, cid))
        picker.aboutToHide.connect(self._picker_closed)
        review = self.panel_widgets.get("review")
        if review is not None and hasattr(review, "mark_missed") and self.ctx.can("review_sample"):
            picker.add_missed(review.mark_missed)
        self.picker = picker
        self._review_keys_enabled(False)  # digits and letters belong to the picker while it is open
        rect = self.transcript.word_rect(end - 1)
        picker.popup(self.transcript.viewport().mapToGlobal(QPoint(rect.left(), rect.bottom() + 6)))

    def _review_keys_enabled(self, on: bool) -> None:
        for a in self.review_actions:
            a.setEnabled(on)
        if on:
            self._show_role()

    def _picker_closed(self) -> None:
        self._review_keys_enabled(True)
        self.transcript.show_pending(None)
        QTimer.singleShot(0, self.transcript.setFocus)

    def mark_current_word(self) -> None:
        """M: mark the selected words (drag, Shift+click, Shift+arrows), else the word cursor's word."""
        if self.ctx.selected_words is not None:
            self.request_span(*self.ctx.selected_words)
            return
        word = self.ctx.current_word
        if word is None:
            self.ctx.status("Click a word first")
            return
        found = self.transcript.highlight
        if found is not None and found[0] <= word < found[1]:  # the words an export refusal pointed at
            self.request_span(*found)
            return
        self.request_span(word, word + 1)

    def create_span(self, start: int, end: int, category: str) -> None:
        conv = self.ctx.conversation
        if conv is None or not self._may("create_span"):
            return
        same = next((s for s in conv.spans if (s.start_word, s.end_word) == (start, end)), None)
        if same is not None:
            self.ctx.push_command(commands.SetCategory(self.ctx, same, category, accept=True))
            return
        if self.ctx.push_command(commands.CreateSpan(self.ctx, conv.id, start, end, category)):
            self._select_words(None)
            self.ctx.status(f"Marked {end - start} word(s) as {category}", 2500)
            if self.transcript.highlight == (start, end):  # the found words are decided now
                self._clear_found()

    # ================================================================== playback
    def play_span(self) -> None:
        if self.player.playing:
            self.player.stop()
            return
        span = self.ctx.current_span()
        conv = self.ctx.conversation
        if span is None or conv is None:
            self.play_from_cursor()
            return
        if self.source is None:
            self.ctx.status("No audio to play for this conversation")
            return
        context = pref(self.ctx.settings, "play_context")
        t0, t1 = conv.span_times(span)
        self.player.play(self.source, t0 - context, t1 + context)

    def play_from_cursor(self) -> None:
        if self.player.playing:
            self.player.stop()
            return
        if self.source is None:
            self.ctx.status("No audio to play for this conversation")
            return
        t = self.cursor_time if self.cursor_time is not None else self.waveform.x_range()[0]
        self.player.play(self.source, t)

    def _playing_at(self, t: float) -> None:
        self.waveform.set_playhead(t, follow=pref(self.ctx.settings, "follow_playhead"))
        conv = self.ctx.conversation
        if conv is None or not conv.words:
            return
        starts = [w.start for w in conv.words]
        i = bisect.bisect_right(starts, t) - 1
        if i >= 0 and conv.words[i].end + 0.05 >= t:
            self.transcript.set_playing_word(i)
        else:
            self.transcript.set_playing_word(None)

    def _playing_changed(self, playing: bool) -> None:
        if not playing:
            self.transcript.set_playing_word(None)
            self.waveform.set_playhead(None)
        self._set_audio_facts(self._audio_facts)

    def _set_audio_facts(self, text: str) -> None:
        self._audio_facts = text
        self.audio_label.setText(f"▶ playing · {text}" if self.player.playing else text)

    def _probe_audio(self) -> None:
        reason = self.player.probe()
        if reason:
            self.audio_out_label.setText("no audio output")
            self.audio_out_label.setToolTip(f"Playback is off: {reason}. Everything else works.")

    def _audio_unavailable(self, reason: str) -> None:
        self.ctx.status(f"Playback unavailable: {reason}. Everything else works.", 10000)
        self.audio_out_label.setText("no audio output")
        self.audio_out_label.setToolTip(reason)

    # ================================================================== view toggles
    def _toggle_spectrogram(self, on: bool) -> None:
        dialogs.set_pref(self.ctx.settings, "spectrogram", on)
        self.waveform.set_spectrogram_visible(on)

    def _toggle_rejected(self, on: bool) -> None:
        dialogs.set_pref(self.ctx.settings, "show_rejected", on)
        self._apply_prefs()

    # ================================================================== roles, settings, files
    def _show_role(self) -> None:
        role = self.ctx.role
        self.role_button.setText(f"Role: {role.value}")
        self.role_button.setToolTip("Change role (recorded in the audit log with every decision)")
        self.role_actions[role].setChecked(True)
        can_review = self.ctx.can("review")
        for a in self.review_actions:
            if a not in (self.act_next, self.act_prev, self.act_play_span, self.act_play_cursor, self.act_stop,
                         self.act_zoom_span):
                a.setEnabled(can_review)
        self.act_mark.setEnabled(self.ctx.can("create_span"))
        self.act_mark_reviewed.setEnabled(can_review)
        self.act_import.setEnabled(self.ctx.can("import"))
        self.act_transcribe.setEnabled(self.ctx.can("transcribe"))
        self.act_detect.setEnabled(self.ctx.can("detect"))

    def _role_changed(self, _role: str) -> None:
        self._show_role()
        self._sync_panels()
        self.ctx.status(f"You are now working as {self.ctx.role.value}")

    def _saved(self, _index: int) -> None:
        self.saved_label.setText("✓ saved")
        self.saved_label.setToolTip("Every change is written to the project file at once")

    def show_settings(self) -> None:
        dlg = dialogs.SettingsDialog(self.ctx.settings, self.ctx.role, self)
        if dlg.exec():
            role = dlg.save()
            self.ctx.set_role(role)
            self._apply_prefs()
        QTimer.singleShot(0, self.focus_review)

    def show_shortcuts(self) -> None:
        self.keymap.show_help()  # the keys as they are now (gui/shortcuts.py); focus returns when it closes

    def open_project(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Open project", str(Path(str(self.project.path)).parent),
                                              "redactdesk projects (*.rdproj *.sqlite *.db);;All files (*)")
        if not path:
            return
        from redactdesk.gui.app import open_window

        try:
            win = open_window(path, role=self.ctx.role.value, settings=self.ctx.settings)
        except Exception as exc:
            QMessageBox.warning(self, "Cannot open project", str(exc))
            return
        win.show()
        _WINDOWS.append(win)
        self.close()
        self.project.close()

    # ================================================================== long work
    def _selected_or_current(self) -> list[str]:
        ids = self.corpus.selected_ids()
        if not ids and self.ctx.conversation is not None:
            ids = [self.ctx.conversation.id]
        return ids

    def import_recordings(self, paths: list[Path] | None = None) -> None:
        if not self._may("import"):
            return
        language = "en"
        if paths is None:
            dlg = dialogs.ImportDialog(self, str(Path(str(self.project.path)).parent))
            accepted = dlg.exec()
            QTimer.singleShot(0, self.focus_review)
            if not accepted or not dlg.paths():
                return
            paths, language = dlg.paths(), dlg.language.currentData()
        self.stage_jobs.import_recordings(paths, language)

    def transcribe_selected(self) -> None:
        if not self._may("transcribe"):
            return
        ids = self._selected_or_current()
        if not ids:
            self.ctx.status("Select conversations to transcribe")
            return
        s = self.ctx.settings
        languages = {self.project.load_conversation(cid).language for cid in ids}
        models = {lang: pref(s, "asr_model_en") if lang == "en" else pref(s, "asr_model_other") for lang in languages}
        self.stage_jobs.transcribe(ids, models)

    def prepare_pending(self) -> None:
        """Transcribe and detect the project's untranscribed calls in the background (the demo project):
        see :meth:`redactdesk.gui.stage_jobs.StageJobs.prepare_demo`."""
        if self.ctx.can("transcribe"):
            self.stage_jobs.prepare_demo()

    def detect_selected(self) -> None:
        if not self._may("detect"):
            return
        ids = self._selected_or_current()
        if not ids:
            self.ctx.status("Select conversations to run detection on")
            return
        self.stage_jobs.detect(ids)


def app_settings() -> QSettings:
    """The user's preferences (not project data): ini file in the user config folder."""
    return QSettings(QSettings.Format.IniFormat, QSettings.Scope.UserScope, "redactdesk", "redactdesk")

