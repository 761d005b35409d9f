"""Dialogs: role choice, settings, about, keyboard help, category picker and import."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings, Qt, Signal
from PySide6.QtGui import QAction, QKeyEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QMenu,
    QMessageBox,
    QPushButton,
    QRadioButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from redactdesk.core.types import Role
from redactdesk.gui import style
from redactdesk.gui.roles import ROLE_HELP

# --------------------------------------------------------------------------- preferences

DEFAULTS = {
    "transcript_font_size": 12,
    "play_context": 0.5,
    "auto_advance": True,
    "show_rejected": True,
    "spectrogram": False,
    "follow_playhead": True,
    "asr_model_en": "base",  # more accurate than tiny.en on the demo calls, no slower here
    "asr_model_other": "base",
}


def pref(settings: QSettings, key: str):
    """A user preference with its default and type."""
    default = DEFAULTS[key]
    value = settings.value(f"prefs/{key}", default)
    if isinstance(default, bool):
        return value if isinstance(value, bool) else str(value).lower() in ("1", "true", "yes")
    if isinstance(default, int):
        try:
            return int(value)
        except (TypeError, ValueError):
            return default
    if isinstance(default, float):
        try:
            return float(value)
        except (TypeError, ValueError):
            return default
    return str(value)


def set_pref(settings: QSettings, key: str, value) -> None:
    settings.setValue(f"prefs/{key}", value)


def fit_height_for_width(dialog: QWidget, width: int) -> None:
    """Size a window whose layout has word-wrapped labels so none is clipped at ``width`` or wider.

    Qt does not apply height-for-width to top-level windows: a wrapped label gets the height of one
    line and the rest of its text is cut off. The minimum height is the layout's height at the
    minimum width (wider only needs less)."""
    lay = dialog.layout()
    dialog.setMinimumWidth(width)
    lay.activate()
    height = max(lay.totalHeightForWidth(width), lay.totalMinimumSize().height())
    dialog.setMinimumHeight(height)
    dialog.resize(width, height)


class RoleDialog(QDialog):
    """Who are you today? Asked on first start; changeable from the status bar or Settings."""

    def __init__(self, current: Role | None = None, parent=None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Choose your role")
        lay = QVBoxLayout(self)
        intro = QLabel("The role decides which panels and actions you get, and is written to the audit log "
                       "with every decision.")
        intro.setWordWrap(True)
        lay.addWidget(intro)
        self.buttons: dict[Role, QRadioButton] = {}
        for role in Role:
            b = QRadioButton(role.value.capitalize())
            b.setToolTip(ROLE_HELP[role])
            lay.addWidget(b)
            hint = QLabel(ROLE_HELP[role])
            hint.setObjectName("muted")
            hint.setWordWrap(True)
            hint.setContentsMargins(24, 0, 0, 6)
            lay.addWidget(hint)
            self.buttons[role] = b
        self.buttons[current or Role.ANNOTATOR].setChecked(True)
        box = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        box.accepted.connect(self.accept)
        box.rejected.connect(self.reject)
        lay.addWidget(box)
        fit_height_for_width(self, 460)

    def role(self) -> Role:
        return next(r for r, b in self.buttons.items() if b.isChecked())


class SettingsDialog(QDialog):
    """Preferences (stored per user in QSettings) and the current role."""

    def __init__(self, settings: QSettings, role: Role, parent=None) -> None:
        super().__init__(parent)
        self.settings = settings
        self.setWindowTitle("Settings")
        form = QFormLayout()
        self.role = QComboBox()
        for r in Role:
            self.role.addItem(r.value.capitalize(), r.value)
        self.role.setCurrentIndex(list(Role).index(role))
        form.addRow("Role", self.role)
        self.font_size = QSpinBox()
        self.font_size.setRange(8, 28)
        self.font_size.setValue(pref(settings, "transcript_font_size"))
        form.addRow("Transcript text size", self.font_size)
        self.context = QDoubleSpinBox()
        self.context.setRange(0.0, 5.0)
        self.context.setSingleStep(0.25)
        self.context.setSuffix(" s")
        self.context.setValue(pref(settings, "play_context"))
        form.addRow("Context around a played span", self.context)
        self.auto_advance = QCheckBox("Go to the next suggestion after accept / reject")
        self.auto_advance.setChecked(pref(settings, "auto_advance"))
        form.addRow("", self.auto_advance)
        self.show_rejected = QCheckBox("Show rejected spans (greyed)")
        self.show_rejected.setChecked(pref(settings, "show_rejected"))
        form.addRow("", self.show_rejected)
        self.follow = QCheckBox("Scroll the waveform with the playhead")
        self.follow.setChecked(pref(settings, "follow_playhead"))
        form.addRow("", self.follow)
        self.model_en = QComboBox()
        self.model_en.addItems(["tiny.en", "base"])
        self.model_en.setCurrentText(pref(settings, "asr_model_en"))
        form.addRow("Speech model (English)", self.model_en)
        self.model_other = QComboBox()
        self.model_other.addItems(["base"])
        self.model_other.setCurrentText(pref(settings, "asr_model_other"))
        form.addRow("Speech model (other languages)", self.model_other)
        box = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        box.accepted.connect(self.accept)
        box.rejected.connect(self.reject)
        lay = QVBoxLayout(self)
        lay.addLayout(form)
        lay.addWidget(box)

    def save(self) -> str:
        """Write the preferences; returns the chosen role's value."""
        set_pref(self.settings, "transcript_font_size", self.font_size.value())
        set_pref(self.settings, "play_context", self.context.value())
        set_pref(self.settings, "auto_advance", self.auto_advance.isChecked())
        set_pref(self.settings, "show_rejected", self.show_rejected.isChecked())
        set_pref(self.settings, "follow_playhead", self.follow.isChecked())
        set_pref(self.settings, "asr_model_en", self.model_en.currentText())
        set_pref(self.settings, "asr_model_other", self.model_other.currentText())
        return self.role.currentData()


def about(parent: QWidget, taxonomy) -> None:
    try:
        from importlib.metadata import version

        ver = version("redactdesk")
    except Exception:
        ver = "development copy"
    QMessageBox.about(
        parent, "About redactdesk",
        f"<h3>redactdesk {ver}</h3>"
        "<p>Find, review and replace personal data in recorded conversations — transcripts and audio.</p>"
        f"<p>{len(taxonomy)} categories of personal data. Every decision is written to the project's "
        "append-only audit log.</p>"
        "<p>MIT licence. Built with PySide6 (Qt), pyqtgraph, spaCy, faster-whisper and friends.</p>")


SHORTCUT_HELP = [
    ("J / Tab", "next suggestion (from the word cursor when no span is selected)"),
    ("K / Shift+Tab", "previous suggestion"),
    ("A / Enter", "accept, go to the next"), ("X / Backspace", "reject, go to the next"),
    ("S", "skip (comes back at the end)"), ("U", "reopen as a suggestion"),
    ("1 … 9", "set the category, accept, go to the next (needs a selected span; to mark words use M)"),
    ("Shift+→ / Shift+←", "extend / shrink the span's end by a word (no span: the word selection)"),
    ("Ctrl+Shift+← / →", "move the span's start left / right"), ("Delete", "delete the span"),
    ("Space", "play the span with context"), ("P", "play / pause from the cursor"), ("Esc", "stop"),
    ("Z", "zoom the waveform to the current span (or word) with context"),
    ("Ctrl++ / Ctrl+- / Ctrl+0", "zoom in / out around the selection / whole call"),
    ("Alt+← / Alt+→", "pan the waveform"),
    ("← → ↑ ↓", "move the word cursor (transcript)"),
    ("double-click / drag", "mark words as personal data (a category menu opens)"),
    ("Shift+click", "select the words from the cursor to the clicked word"),
    ("M", "mark the selected words (or the word cursor, or the framed words a finding points at)"),
    ("Shift+M", "reviewer: mark the selected words as a missed item (MISSED_)"),
    ("F6 / Esc in a panel", "back to the review (the status bar says where keys go)"),
    ("Ctrl+Z / Ctrl+Shift+Z", "undo / redo"), ("Ctrl+F", "search conversations"),
    ("Ctrl+J", "next conversation with open suggestions"),
    ("Ctrl+PgDown / Ctrl+PgUp", "next / previous conversation"),
    ("Ctrl+Shift+R", "mark the conversation reviewed (nothing left undecided)"),
    ("F1", "this list"),
]


class ShortcutsDialog(QDialog):
    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Keyboard shortcuts")
        table = QTableWidget(len(SHORTCUT_HELP), 2)
        table.setHorizontalHeaderLabels(["Keys", "Does"])
        table.verticalHeader().hide()
        table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        for i, (keys, does) in enumerate(SHORTCUT_HELP):
            table.setItem(i, 0, QTableWidgetItem(keys))
            table.setItem(i, 1, QTableWidgetItem(does))
        table.setObjectName("shortcutTable")
        table.setWordWrap(True)
        table.resizeColumnToContents(0)
        table.horizontalHeader().setStretchLastSection(True)
        table.resizeRowsToContents()
        self.table = table
        lay = QVBoxLayout(self)
        lay.addWidget(table)
        box = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        box.rejected.connect(self.reject)
        lay.addWidget(box)
        self.resize(640, 620)


class CategoryPicker(QMenu):
    """Pop-up list of categories; number keys 1-9 pick the numbered ones. Emits ``picked(id)``."""

    picked = Signal(str)

    def __init__(self, taxonomy, parent=None, title: str = "Mark as…") -> None:
        super().__init__(parent)
        self.setObjectName("categoryPicker")
        self.taxonomy = taxonomy
        self.missed_action: QAction | None = None
        head = self.addAction(title)
        head.setEnabled(False)
        numbered = {cid: key for key, cid in taxonomy.keys.items()}
        rest = QMenu("More categories", self)
        for cat in taxonomy:
            key = numbered.get(cat.id)
            label = f"{key}   {cat.label}" if key else cat.label
            action = QAction(style.swatch_icon(cat.colour, cat.pattern), label, self)
            action.setData(cat.id)
            action.setToolTip(cat.description)
            action.triggered.connect(lambda _=False, c=cat.id: self.picked.emit(c))
            (self if key else rest).addAction(action)
        self.addSeparator()
        self.addMenu(rest)

    def add_missed(self, slot) -> QAction:
        """An entry "Missed item (MISSED_)…" (Shift+M here too) that hands the words to ``slot``."""
        self.addSeparator()
        self.missed_action = self.addAction("Missed item (MISSED_)…\tShift+M")
        self.missed_action.setObjectName("pickMissed")
        self.missed_action.triggered.connect(lambda _=False: slot())
        return self.missed_action

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if (self.missed_action is not None and event.key() == Qt.Key.Key_M
                and event.modifiers() & Qt.KeyboardModifier.ShiftModifier):
            self.close()
            self.missed_action.trigger()
            return
        text = event.text()
        if text.isdigit() and int(text) in self.taxonomy.keys:
            cid = self.taxonomy.keys[int(text)]
            self.close()
            self.picked.emit(cid)
            return
        super().keyPressEvent(event)


class ImportDialog(QDialog):
    """Choose recordings to import; a transcript beside each (same name) is imported with it."""

    def __init__(self, parent=None, start_dir: str = "") -> None:
        super().__init__(parent)
        self.setWindowTitle("Import recordings")
        self.start_dir = start_dir
        self.files = QListWidget()
        self.files.setObjectName("importFiles")
        self.files.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        add = QPushButton("Add recordings…")
        add.clicked.connect(self._add)
        remove = QPushButton("Remove")
        remove.clicked.connect(lambda: [self.files.takeItem(self.files.row(i)) for i in self.files.selectedItems()])
        row = QHBoxLayout()
        row.addWidget(add)
        row.addWidget(remove)
        row.addStretch(1)
        self.language = QComboBox()
        self.language.addItem("English", "en")
        self.language.addItem("Spanish", "es")
        self.language.addItem("From the transcript", None)
        note = QLabel("Transcripts with the same name next to a recording (.json, .whisperx.json, .ctm, "
                      ".TextGrid, .eaf, .vtt, .srt) are imported with it. Recordings without one can be "
                      "transcribed afterwards (Tools ▸ Transcribe).")
        note.setWordWrap(True)
        note.setObjectName("muted")
        form = QFormLayout()
        form.addRow("Language", self.language)
        box = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        box.button(QDialogButtonBox.StandardButton.Ok).setText("Import")
        box.accepted.connect(self.accept)
        box.rejected.connect(self.reject)
        lay = QVBoxLayout(self)
        lay.addWidget(self.files)
        lay.addLayout(row)
        lay.addLayout(form)
        lay.addWidget(note)
        lay.addWidget(box)
        self.resize(560, 400)

    def _add(self) -> None:
        paths, _ = QFileDialog.getOpenFileNames(
            self, "Recordings", self.start_dir, "Audio (*.wav *.flac *.ogg *.mp3);;All files (*)")
        self.add_paths([Path(p) for p in paths])

    def add_paths(self, paths: list[Path]) -> None:
        present = {self.files.item(i).data(Qt.ItemDataRole.UserRole) for i in range(self.files.count())}
        for p in paths:
            if str(p) not in present:
                self.files.addItem(p.name)
                self.files.item(self.files.count() - 1).setData(Qt.ItemDataRole.UserRole, str(p))
                self.files.item(self.files.count() - 1).setToolTip(str(p))

    def paths(self) -> list[Path]:
        return [Path(self.files.item(i).data(Qt.ItemDataRole.UserRole)) for i in range(self.files.count())]
