"""Light and dark colour schemes: the system's choice (Qt 6.5+ ``QStyleHints.colorScheme()``) or the user's.

A day of reviewing in a dark room under a white window tires the eyes, and a desktop set to dark
with one glaring app looks broken. View ▸ Colour scheme offers System (the default: follows the
desktop, also when it changes while the app runs), Light and Dark; the choice is kept in the user's
settings. The palette, the style sheet, the waveform (background, axes, trace) and the transcript
(paper, ink, muted text) follow; category colours stay the same in both, so a category looks alike
everywhere.

The colours live in :mod:`redactdesk.gui.style` as module attributes read at paint time; this module
switches them between :data:`LIGHT` and :data:`DARK`, gives the window the dark style sheet (over
the application's) and re-colours what was drawn with the old ones.
"""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction, QActionGroup, QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication

from redactdesk.gui import style

SCHEME_KEY = "appearance/colour_scheme"
SCHEMES = ("system", "light", "dark")
_NAMES = ("INK", "MUTED", "PAPER", "CANVAS", "BORDER", "ACCENT", "WAVE", "SPOKEN", "FOUND_FILL",
          "LOW_CONFIDENCE", "ALT_ROW", "SELECTION", "BUTTON")
style.ALT_ROW = getattr(style, "ALT_ROW", "#f9fafb")
style.SELECTION = getattr(style, "SELECTION", "#dbe7fd")
style.BUTTON = getattr(style, "BUTTON", "#eef1f4")
LIGHT = {name: getattr(style, name) for name in _NAMES}
DARK = {
    "INK": "#e6edf3", "MUTED": "#9198a1", "PAPER": "#0d1117", "CANVAS": "#161b22", "BORDER": "#30363d",
    "ACCENT": "#4493f8", "WAVE": "#9aa7b4", "SPOKEN": "#5c4b00", "FOUND_FILL": "#4a3a00",
    "LOW_CONFIDENCE": "#8b949e", "ALT_ROW": "#121820", "SELECTION": "#1f3a66", "BUTTON": "#21262d",
}
_LIGHT_SHEET = style.STYLESHEET
LIGHT_SPEAKERS = list(style.SPEAKER_COLOURS)
DARK_SPEAKERS = ["#6cb6ff", "#c297ff", "#39c5bb", "#ff7b72", "#d4b44a", "#f38ab3"]  # the same hues, lighter


def system_is_dark() -> bool:
    """Whether the desktop asks for a dark scheme (False when it says nothing, as offscreen and Xvfb do)."""
    app = QGuiApplication.instance()
    if app is None:
        return False
    return QGuiApplication.styleHints().colorScheme() == Qt.ColorScheme.Dark


def is_dark() -> bool:
    """Whether the dark colours are in use now."""
    return style.PAPER == DARK["PAPER"]


def dark_sheet() -> str:
    """The app's style sheet with every light colour swapped for its dark counterpart."""
    sheet = _LIGHT_SHEET
    for name in _NAMES:
        sheet = sheet.replace(LIGHT[name], f"@{name}@")
    for name in _NAMES:
        sheet = sheet.replace(f"@{name}@", DARK[name])
    return sheet


def set_colours(dark: bool) -> None:
    """Switch :mod:`style`'s colours and the application palette to the dark or light set.

    The application's style sheet is left as it is (setting it again re-polishes every widget and
    changes header metrics of windows opened later); each window gets the dark sheet on top of it
    (:meth:`Theme.apply`)."""
    colours = DARK if dark else LIGHT
    for name, value in colours.items():
        setattr(style, name, value)
    style.SPEAKER_COLOURS = DARK_SPEAKERS if dark else LIGHT_SPEAKERS
    app = QApplication.instance()
    if app is None:
        return
    pal = QPalette()
    roles = QPalette.ColorRole
    for role, name in ((roles.Window, "CANVAS"), (roles.WindowText, "INK"), (roles.Base, "PAPER"),
                       (roles.AlternateBase, "ALT_ROW"), (roles.Text, "INK"), (roles.Button, "BUTTON"),
                       (roles.ButtonText, "INK"), (roles.Highlight, "ACCENT"), (roles.ToolTipBase, "PAPER"),
                       (roles.ToolTipText, "INK"), (roles.PlaceholderText, "MUTED")):
        pal.setColor(role, QColor(colours[name]))
    pal.setColor(roles.HighlightedText, QColor("#ffffff"))
    app.setPalette(pal)
    pg.setConfigOptions(background=colours["PAPER"], foreground=colours["MUTED"])


class Theme(QObject):
    """The colour scheme of one window: the user's choice, the system's, and re-colouring the views."""

    def __init__(self, window) -> None:
        super().__init__(window)
        self.window = window
        self.settings = window.ctx.settings
        group = QActionGroup(self)
        self.actions: dict[str, QAction] = {}
        for scheme, text in (("system", "&System (follow the desktop)"), ("light", "&Light"), ("dark", "&Dark")):
            a = QAction(text, self)
            a.setObjectName(f"act_scheme_{scheme}")
            a.setCheckable(True)
            a.triggered.connect(lambda _=False, s=scheme: self.choose(s))
            group.addAction(a)
            self.actions[scheme] = a
        for action in window.menuBar().actions():
            if action.menu() is not None and action.text().replace("&", "") == "View":
                action.menu().addSeparator()
                sub = action.menu().addMenu("&Colour scheme")
                sub.setObjectName("schemeMenu")
                sub.addActions(list(self.actions.values()))
        app = QGuiApplication.instance()
        if app is not None:
            QGuiApplication.styleHints().colorSchemeChanged.connect(self._system_changed)
        self.apply()

    @property
    def choice(self) -> str:
        value = str(self.settings.value(SCHEME_KEY, "system"))
        return value if value in SCHEMES else "system"

    def dark_wanted(self, system_dark: bool | None = None) -> bool:
        if self.choice == "system":
            return system_is_dark() if system_dark is None else system_dark
        return self.choice == "dark"

    def choose(self, scheme: str) -> None:
        """The user's choice (View ▸ Colour scheme), kept in the settings."""
        self.settings.setValue(SCHEME_KEY, scheme if scheme in SCHEMES else "system")
        self.apply()

    def _system_changed(self, scheme) -> None:
        if self.choice == "system":
            self.apply(system_dark=scheme == Qt.ColorScheme.Dark)

    def apply(self, system_dark: bool | None = None) -> None:
        dark = self.dark_wanted(system_dark)
        for scheme, a in self.actions.items():
            a.setChecked(scheme == self.choice)
        if dark != is_dark():
            set_colours(dark)
        sheet = dark_sheet() if dark else ""
        if self.window.styleSheet() != sheet:
            self.window.setStyleSheet(sheet)  # over the app's sheet; its dialogs (children) follow
        self.recolour()

    def recolour(self) -> None:
        """Colour what was drawn with the previous colours: transcript paper, waveform plots, labels."""
        w = self.window
        viewport = w.transcript.viewport()
        pal = viewport.palette()
        pal.setColor(viewport.backgroundRole(), QColor(style.PAPER))
        viewport.setPalette(pal)
        viewport.update()
        wf = w.waveform
        for plot in (wf.plot, wf.overview, wf.spectro):
            plot.setBackground(style.PAPER)
            for name in ("left", "bottom"):
                axis = plot.getPlotItem().getAxis(name)
                axis.setPen(pg.mkPen(style.MUTED))
                axis.setTextPen(pg.mkPen(style.MUTED))
        for curve in wf.curves:
            curve.setPen(pg.mkPen(style.WAVE, width=1))
        for curve in wf.ov_curves:
            curve.setPen(pg.mkPen(style.MUTED, width=1))
        wf.message.setColor(style.MUTED)
        wf.update()
        w.legend.update()
        if hasattr(w, "_show_key_target"):
            w._show_key_target(QApplication.focusWidget())


def install(window) -> Theme:
    theme = Theme(window)
    window.theme = theme
    return theme
