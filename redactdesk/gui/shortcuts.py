"""Remappable keyboard shortcuts: the key map, its editor, and the F1 help that follows it.

People coming from ELAN, Praat, Label Studio or Prodigy bring their fingers with them (Prodigy's
A/X/Space, ELAN's Ctrl+Space play, a left-handed layout). Every action of the window with a key
(``act_*`` attributes and the category keys) is in the map; the user's changes are stored in the
user's settings (``shortcuts/<action>``, the same QSettings file as the role and the reviewer's
name) and applied when a window opens. A key that another action already has is refused with a
message naming that action — two actions on one key would make neither work — and so are the
combinations window managers and keyboard-layout switching take (Alt+Shift, Ctrl+Alt, Super). The
F1 help lists the keys as they are now; "Reset to defaults" brings back the built-in ones.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt, QTimer
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QKeySequenceEdit,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
)

from redactdesk.gui import dialogs, style

GROUP = "shortcuts"
PORTABLE = QKeySequence.SequenceFormat.PortableText
NATIVE = QKeySequence.SequenceFormat.NativeText

# rows of the F1 help (dialogs.SHORTCUT_HELP, by their keys text) and the actions whose keys they show
HELP_ACTIONS = {
    "J / Tab": ("act_next",), "K / Shift+Tab": ("act_prev",), "A / Enter": ("act_accept",),
    "X / Backspace": ("act_reject",), "S": ("act_skip",), "U": ("act_reopen",),
    "1 … 9": tuple(f"act_cat_{k}" for k in range(1, 10)),
    "Shift+→ / Shift+←": ("act_extend", "act_shrink"),
    "Ctrl+Shift+← / →": ("act_start_left", "act_start_right"), "Delete": ("act_delete",),
    "Space": ("act_play_span",), "P": ("act_play_cursor",), "Esc": ("act_stop",), "Z": ("act_zoom_span",),
    "Ctrl++ / Ctrl+- / Ctrl+0": ("act_zoom_in", "act_zoom_out", "act_zoom_all"),
    "Alt+← / Alt+→": ("act_pan_left", "act_pan_right"), "M": ("act_mark",),
    "F6 / Esc in a panel": ("act_focus_review",), "Ctrl+Z / Ctrl+Shift+Z": ("act_undo", "act_redo"),
    "Ctrl+F": ("act_find",), "Ctrl+J": ("act_next_open",),
    "Ctrl+PgDown / Ctrl+PgUp": ("act_next_conv", "act_prev_conv"),
    "Ctrl+Shift+R": ("act_mark_reviewed",), "F1": ("act_shortcuts",),
}


def _strings(action: QAction) -> list[str]:
    return [s.toString(PORTABLE) for s in action.shortcuts() if not s.isEmpty()]


def _label(action: QAction) -> str:
    return action.text().replace("&&", "\0").replace("&", "").replace("\0", "&").split("\t")[0].rstrip("…")


def wm_clash(seq: QKeySequence) -> str | None:
    """Why window managers or layout switching would take ``seq`` (None when they would not)."""
    if seq.isEmpty():
        return None
    mods = seq[0].keyboardModifiers()
    M = Qt.KeyboardModifier
    if mods & M.MetaModifier:
        return "the Super (Windows) key belongs to the desktop"
    if mods & M.AltModifier and mods & M.ShiftModifier:
        return "Alt+Shift combinations switch keyboard layouts or desktops"
    if mods & M.AltModifier and mods & M.ControlModifier:
        return "Ctrl+Alt combinations belong to the window manager"
    return None


class KeyMap(QObject):
    """The window's actions with keys, their built-in keys and the user's changes."""

    def __init__(self, window) -> None:
        super().__init__(window)
        self.window = window
        self.settings = window.ctx.settings
        self.actions: dict[str, QAction] = {}
        for name, value in vars(window).items():
            if name.startswith("act_") and isinstance(value, QAction):
                self.actions[name] = value
        for action in getattr(window, "category_actions", []):
            if action.objectName():
                self.actions[action.objectName()] = action
        self.defaults = {name: _strings(a) for name, a in self.actions.items()}
        self.clashes: list[str] = []  # stored keys set back to the defaults when the window opened
        self.load()

    # ------------------------------------------------------------------ storage
    def load(self) -> None:
        """Apply the user's stored keys (unknown actions and unusable keys are ignored)."""
        for name in self.actions:
            value = self.settings.value(f"{GROUP}/{name}")
            if value is None:
                continue
            keys = [k for k in str(value).split(";") if k] if not isinstance(value, list) else list(value)
            seqs = [QKeySequence(k) for k in keys]
            if any(s.isEmpty() or wm_clash(s) for s in seqs):
                continue
            self.actions[name].setShortcuts(seqs)
        self.clashes = self._undo_clashes()

    def _undo_clashes(self) -> list[str]:
        """Stored keys that collide (another action got the key by default in a newer version, or the
        file was edited by hand) go back to their defaults: a key that does two things does neither."""
        owners: dict[str, list[str]] = {}
        for name in self.actions:
            for key in self.keys(name):
                owners.setdefault(key, []).append(name)
        undone = sorted({n for names in owners.values() if len(names) > 1 for n in names
                         if self.keys(n) != self.defaults[n]})
        for name in undone:
            self.actions[name].setShortcuts([QKeySequence(k) for k in self.defaults[name]])
            self.settings.remove(f"{GROUP}/{name}")
        return undone

    def _store(self, name: str) -> None:
        keys = _strings(self.actions[name])
        if keys == self.defaults[name]:
            self.settings.remove(f"{GROUP}/{name}")
        else:
            self.settings.setValue(f"{GROUP}/{name}", ";".join(keys))
        self.settings.sync()

    # ------------------------------------------------------------------ queries
    def keys(self, name: str) -> list[str]:
        return _strings(self.actions[name])

    def label(self, name: str) -> str:
        return _label(self.actions[name])

    def owner(self, seq: QKeySequence, *, other_than: str | None = None) -> str | None:
        """The action that has ``seq`` as one of its keys."""
        text = seq.toString(PORTABLE)
        for name, action in self.actions.items():
            if name != other_than and text in _strings(action):
                return name
        return None

    def changed(self) -> list[str]:
        return [n for n in self.actions if self.keys(n) != self.defaults[n]]

    # ------------------------------------------------------------------ changes
    def assign(self, name: str, seq: QKeySequence) -> str | None:
        """Make ``seq`` the main key of action ``name`` (its other keys stay); the reason when refused."""
        if seq.isEmpty():
            return "Press the new key (or key combination) first"
        text = seq.toString(NATIVE)
        clash = wm_clash(seq)
        if clash:
            return f"{text} is not available: {clash}. Nothing changed."
        other = self.owner(seq, other_than=name)
        if other is not None:
            return (f"{text} is already the key of “{self.label(other)}”. Nothing changed — give that action "
                    "another key first, or choose a different one.")
        action = self.actions[name]
        others = [s for s in action.shortcuts()[1:] if s.toString(PORTABLE) != seq.toString(PORTABLE)]
        action.setShortcuts([seq, *others])  # the main key replaced, the others kept
        self._store(name)
        return None

    def clear(self, name: str) -> None:
        """No key for action ``name`` (it stays in the menus)."""
        self.actions[name].setShortcuts([])
        self._store(name)

    def reset(self) -> None:
        """Every action back to its built-in keys; the stored changes are removed."""
        for name, action in self.actions.items():
            action.setShortcuts([QKeySequence(k) for k in self.defaults[name]])
        self.settings.remove(GROUP)
        self.settings.sync()

    # ------------------------------------------------------------------ help
    def help_rows(self) -> list[tuple[str, str]]:
        """The F1 help as (keys, does) with the keys as they are now."""
        rows = []
        covered: set[str] = set()
        for keys, does in dialogs.SHORTCUT_HELP:
            names = [n for n in HELP_ACTIONS.get(keys, ()) if n in self.actions]
            covered.update(names)
            if names and any(self.keys(n) != self.defaults[n] for n in names):
                shown = [" / ".join(QKeySequence(k).toString(NATIVE) for k in self.keys(n)) or "(no key)"
                         for n in names]
                keys = " / ".join(dict.fromkeys(shown))
            rows.append((keys, does))
        for name in self.actions:
            if name not in covered and self.keys(name):
                keys = " / ".join(QKeySequence(k).toString(NATIVE) for k in self.keys(name))
                rows.append((keys, self.actions[name].statusTip() or self.label(name)))
        return rows

    def show_help(self) -> None:
        dlg = KeysHelp(self, self.window)
        dlg.finished.connect(lambda _r: QTimer.singleShot(0, self.window.focus_review))
        dlg.open()

    def open_editor(self) -> None:
        dlg = ShortcutEditor(self, self.window)
        dlg.finished.connect(lambda _r: QTimer.singleShot(0, self.window.focus_review))
        dlg.open()


class KeysHelp(QDialog):
    """F1: every key as it is now (after the user's changes), with a way to change them."""

    def __init__(self, keymap: KeyMap, parent=None) -> None:
        super().__init__(parent)
        self.keymap = keymap
        self.setObjectName("keysHelp")
        self.setWindowTitle("Keyboard shortcuts")
        self.table = QTableWidget(0, 2)
        self.table.setObjectName("shortcutTable")
        self.table.setHorizontalHeaderLabels(["Keys", "Does"])
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setWordWrap(True)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.fill()
        self.change = QPushButton("Change keys…")
        self.change.setObjectName("changeKeys")
        self.change.clicked.connect(self._edit)
        self.change.setAutoDefault(False)
        box = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        box.addButton(self.change, QDialogButtonBox.ButtonRole.ActionRole)
        box.rejected.connect(self.reject)
        lay = QVBoxLayout(self)
        lay.addWidget(self.table)
        lay.addWidget(box)
        self.resize(660, 620)

    def fill(self) -> None:
        rows = self.keymap.help_rows()
        self.table.setRowCount(len(rows))
        for i, (keys, does) in enumerate(rows):
            self.table.setItem(i, 0, QTableWidgetItem(keys))
            self.table.setItem(i, 1, QTableWidgetItem(does))
        self.table.resizeColumnToContents(0)
        self.table.resizeRowsToContents()

    def text(self) -> str:
        return "\n".join(f"{self.table.item(r, 0).text()}\t{self.table.item(r, 1).text()}"
                         for r in range(self.table.rowCount()))

    def _edit(self) -> None:
        dlg = ShortcutEditor(self.keymap, self)
        dlg.finished.connect(lambda _r: self.fill())
        dlg.open()


class ShortcutEditor(QDialog):
    """Pick an action, press its new key. Refusals (a key in use, a window-manager key) say why."""

    def __init__(self, keymap: KeyMap, parent=None) -> None:
        super().__init__(parent)
        self.keymap = keymap
        self.setObjectName("shortcutEditor")
        self.setWindowTitle("Change keyboard shortcuts")
        self.names = sorted(keymap.actions, key=lambda n: keymap.label(n).lower())
        self.table = QTableWidget(len(self.names), 2)
        self.table.setObjectName("shortcutEditorTable")
        self.table.setHorizontalHeaderLabels(["Action", "Keys"])
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.itemActivated.connect(lambda _item: self.key_edit.setFocus())  # Enter on a row: press the key
        self.table.currentCellChanged.connect(lambda *_a: self._row_changed())
        self.key_edit = QKeySequenceEdit()
        self.key_edit.setObjectName("newKey")
        self.key_edit.setMaximumSequenceLength(1)
        self.key_edit.editingFinished.connect(self._assign)
        self.clear_button = QPushButton("No key")
        self.clear_button.setObjectName("clearKey")
        self.clear_button.clicked.connect(self._clear)
        self.reset_button = QPushButton("Reset to defaults")
        self.reset_button.setObjectName("resetKeys")
        self.reset_button.clicked.connect(self._reset)
        for button in (self.clear_button, self.reset_button):
            button.setAutoDefault(False)  # Enter on a row starts the key capture, it must not press these
        self.message = QLabel("Choose an action, then press its new key (Enter on a row starts).")
        self.message.setObjectName("shortcutMessage")
        self.message.setWordWrap(True)
        row = QHBoxLayout()
        row.addWidget(QLabel("New key:"))
        row.addWidget(self.key_edit, 1)
        row.addWidget(self.clear_button)
        row.addWidget(self.reset_button)
        box = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        box.rejected.connect(self.reject)
        lay = QVBoxLayout(self)
        lay.addWidget(self.table, 1)
        lay.addLayout(row)
        lay.addWidget(self.message)
        lay.addWidget(box)
        self.fill()
        self.resize(620, 560)

    def keyPressEvent(self, event) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.key_edit.setFocus()  # Enter on a row: the next key pressed is its new key (never "Close")
            return
        super().keyPressEvent(event)

    def fill(self) -> None:
        for i, name in enumerate(self.names):
            keys = ", ".join(QKeySequence(k).toString(NATIVE) for k in self.keymap.keys(name)) or "(no key)"
            label = QTableWidgetItem(self.keymap.label(name))
            label.setData(Qt.ItemDataRole.UserRole, name)
            if name in self.keymap.changed():
                font = label.font()
                font.setBold(True)
                label.setFont(font)
                label.setToolTip("changed from the default")
            self.table.setItem(i, 0, label)
            self.table.setItem(i, 1, QTableWidgetItem(keys))
        self.table.resizeColumnToContents(0)

    def select(self, name: str) -> None:
        self.table.setCurrentCell(self.names.index(name), 0)

    def current(self) -> str | None:
        row = self.table.currentRow()
        return self.names[row] if 0 <= row < len(self.names) else None

    def _row_changed(self) -> None:
        self.key_edit.clear()

    def _say(self, text: str, *, bad: bool = False) -> None:
        self.message.setText(text)
        self.message.setStyleSheet(f"color: {style.BAD}; font-weight: 600" if bad else "")

    def _assign(self) -> None:
        name = self.current()
        seq = self.key_edit.keySequence()
        if name is None or seq.isEmpty():
            return
        error = self.keymap.assign(name, seq)
        self.key_edit.clear()
        if error:
            self._say(error, bad=True)
        else:
            self._say(f"“{self.keymap.label(name)}” is now on {seq.toString(NATIVE)} (saved)")
            self.fill()
        self.table.setFocus()

    def _clear(self) -> None:
        name = self.current()
        if name is not None:
            self.keymap.clear(name)
            self._say(f"“{self.keymap.label(name)}” has no key now (still in the menus)")
            self.fill()

    def _reset(self) -> None:
        self.keymap.reset()
        self._say("Every key is back to its default")
        self.fill()


def install(window) -> KeyMap:
    """The key map of ``window`` (after every action exists) and File ▸ Keyboard shortcuts…"""
    keymap = KeyMap(window)
    window.keymap = keymap
    if keymap.clashes:
        names = ", ".join(f"“{keymap.label(n)}”" for n in keymap.clashes)
        window.ctx.status(f"Your keys for {names} collided with others and are back to their defaults (F1)", 10000)
    act = QAction("Change &keyboard shortcuts…", window)
    act.setObjectName("act_edit_shortcuts")
    act.setStatusTip("Give actions other keys (saved in your settings); F1 lists them")
    act.triggered.connect(lambda _=False: keymap.open_editor())
    window.addAction(act)
    for action in window.menuBar().actions():
        if action.menu() is not None and action.text().replace("&", "") == "File":
            menu = action.menu()
            items = menu.actions()
            settings_action = getattr(window, "act_settings", None)
            at = items.index(settings_action) + 1 if settings_action in items else len(items)
            if at < len(items):
                menu.insertAction(items[at], act)  # just below Settings…
            else:
                menu.addAction(act)
    window.act_edit_shortcuts = act
    return keymap
