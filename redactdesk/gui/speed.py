"""Playback speed (0.5×–1.5×, pitch kept) and looping the current span: the listening tools of Praat/ELAN.

``[`` slower and ``]`` faster in steps of :data:`redactdesk.audio.timestretch.SPEEDS` (also Playback ▸
Speed); the speed is remembered in the user's settings and shown in the status bar when it is not
1×. ``L`` turns looping on: the current span (or the selected words, or the word at the cursor) with
its context plays again and again — moving to another suggestion (J/K) loops that one — until ``L``
is pressed again. The player does the work (:class:`redactdesk.gui.playback.Player` ``speed`` and
``loop``); this module holds the actions, their menu and the status-bar note.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt, QTimer
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QLabel, QMenu

from redactdesk.audio.timestretch import SPEEDS, SpeedOutOfRange, check_speed
from redactdesk.gui import style
from redactdesk.gui.dialogs import pref

SPEED_KEY = "playback/speed"


def stored_speed(settings) -> float:
    """The remembered speed, 1.0 when none (or a bad one) is stored."""
    try:
        return check_speed(settings.value(SPEED_KEY, 1.0))
    except SpeedOutOfRange:
        return 1.0


def _menu(window, title: str) -> QMenu | None:
    for action in window.menuBar().actions():
        if action.menu() is not None and action.text().replace("&", "") == title:
            return action.menu()
    return None


class PlaybackTools(QObject):
    """Speed and loop actions of one main window (``window.playback_tools``)."""

    def __init__(self, window) -> None:
        super().__init__(window)
        self.window = window
        self.player = window.player
        self.settings = window.ctx.settings
        self.player.speed = stored_speed(self.settings)

        self.act_slower = self._review_action("Slower", "[", self.slower, "act_slower",
                                              "Play slower, pitch kept (down to 0.5×)")
        self.act_faster = self._review_action("Faster", "]", self.faster, "act_faster",
                                              "Play faster, pitch kept (up to 1.5×)")
        self.act_loop = self._review_action("&Loop the current span", "L", None, "act_loop",
                                            "Play the current span with context again and again (L again stops)")
        self.act_loop.setCheckable(True)
        self.act_loop.toggled.connect(self.set_loop)
        group = QActionGroup(self)
        self.speed_actions: dict[float, QAction] = {}
        for speed in SPEEDS:
            a = QAction(f"{speed:g}×" + ("  (normal)" if speed == 1.0 else ""), self)
            a.setCheckable(True)
            a.setObjectName(f"act_speed_{int(speed * 100)}")
            a.triggered.connect(lambda _=False, v=speed: self.set_speed(v))
            group.addAction(a)
            self.speed_actions[speed] = a

        menu = _menu(window, "Playback")
        if menu is not None:
            menu.addSeparator()
            sub = menu.addMenu("Spee&d")
            sub.setObjectName("speedMenu")
            sub.addActions([self.act_slower, self.act_faster])
            sub.addSeparator()
            sub.addActions(list(self.speed_actions.values()))
            menu.addAction(self.act_loop)

        self.label = QLabel("")
        self.label.setObjectName("playbackNote")
        self.label.setContentsMargins(10, 0, 10, 0)
        window.statusBar().addPermanentWidget(self.label)
        window.ctx.selection_changed.connect(self._selection_changed)
        self.player.playing_changed.connect(lambda _on: self._show())
        # window attributes, so the shortcut editor (gui/shortcuts.py) finds them with the others
        window.act_slower, window.act_faster, window.act_loop = self.act_slower, self.act_faster, self.act_loop
        self._show()

    def _review_action(self, text: str, key: str, slot, name: str, tip: str) -> QAction:
        """An action whose key works where the review keys do (transcript, waveform, Spans list) for
        every role: listening is not a decision."""
        a = QAction(text, self.window)
        a.setObjectName(name)
        a.setShortcut(QKeySequence(key))
        a.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        a.setStatusTip(tip)
        a.setToolTip(tip)
        if slot is not None:
            a.triggered.connect(lambda _=False: slot())
        self.window.review_area.addAction(a)
        for target in getattr(self.window, "_review_targets", []):
            target.addAction(a)
        return a

    # ------------------------------------------------------------------ speed
    @property
    def speed(self) -> float:
        return self.player.speed

    def slower(self) -> None:
        lower = [s for s in SPEEDS if s < self.speed - 1e-6]
        if not lower:
            self.window.ctx.status(f"Already at the slowest speed ({SPEEDS[0]:g}×)", 3000)
            return
        self.set_speed(lower[-1])

    def faster(self) -> None:
        higher = [s for s in SPEEDS if s > self.speed + 1e-6]
        if not higher:
            self.window.ctx.status(f"Already at the fastest speed ({SPEEDS[-1]:g}×)", 3000)
            return
        self.set_speed(higher[0])

    def set_speed(self, speed: float) -> None:
        speed = check_speed(speed)
        self.player.speed = speed
        self.settings.setValue(SPEED_KEY, speed)
        self.window.ctx.status(f"Playback speed {speed:g}× (pitch kept)", 3000)
        self._show()
        if self.player.playing and self.player.source is not None and self.player.range is not None:
            a, b = self.player.range  # go on from where it is, at the new speed
            start = a if self.player.loop else (self.player.position or a)
            self.player.play(self.player.source, start, b)

    # ------------------------------------------------------------------ loop
    def set_loop(self, on: bool) -> None:
        self.player.loop = on
        if on:
            if not self._play_current():
                self.act_loop.blockSignals(True)
                self.act_loop.setChecked(False)
                self.act_loop.blockSignals(False)
                self.player.loop = False
        else:
            self.player.stop()
            self.window.ctx.status("Loop off", 2000)
        self._show()

    def _play_current(self) -> bool:
        window = self.window
        times = window.current_times()
        if times is None:
            window.ctx.status("Nothing to loop — J selects the next suggestion, or click a word")
            return False
        if window.source is None:
            window.ctx.status("No audio to play for this conversation")
            return False
        context = pref(self.settings, "play_context")
        self.player.play(window.source, times[0] - context, times[1] + context)
        if self.player.playing:
            window.ctx.status("Looping the current span — L stops", 4000)
        return self.player.playing

    def _selection_changed(self, *_args) -> None:
        if self.player.loop and self.player.playing:
            QTimer.singleShot(0, self._play_current)  # J/K while looping: loop the new one

    # ------------------------------------------------------------------ status
    def _show(self) -> None:
        for speed, a in self.speed_actions.items():
            a.setChecked(abs(speed - self.speed) < 1e-6)
        parts = []
        if abs(self.speed - 1.0) > 1e-6:
            parts.append(f"{self.speed:g}×")
        if self.player.loop:
            parts.append("⟳ loop")
        self.label.setText(" · ".join(parts))
        self.label.setStyleSheet(f"color: {style.WARN}; font-weight: 600" if parts else "")
        self.label.setToolTip("Playback speed (pitch kept; [ and ] change it) and looping (L)" if parts else "")
        self.label.setVisible(bool(parts))


def install(window) -> PlaybackTools:
    tools = PlaybackTools(window)
    window.playback_tools = tools
    return tools
