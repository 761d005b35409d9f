"""Spectrogram range settings: the highest frequency shown and the dynamic range, as in Praat.

Praat users read fricatives and formants with a view range up to 5 kHz and a 50 dB dynamic range; a
telephone call carries nothing above 3.4 kHz, so the top half of a full 0–8 kHz picture is empty.
View ▸ Spectrogram settings… (Ctrl+Shift+G) sets both, keeps them in the user's settings and shows
the spectrogram (Ctrl+G toggles it) drawn with them.
"""

from __future__ import annotations

from PySide6.QtCore import QTimer
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QLabel,
    QSpinBox,
    QVBoxLayout,
)

from redactdesk.gui import dialogs

MAX_KHZ_KEY = "spectrogram/max_khz"
RANGE_DB_KEY = "spectrogram/range_db"
DEFAULT_MAX_KHZ = 8.0  # the whole band of 16 kHz audio (capped at the recording's Nyquist frequency)
DEFAULT_RANGE_DB = 70
MAX_KHZ_LIMITS = (0.5, 24.0)
RANGE_DB_LIMITS = (20, 120)


def _number(settings, key: str, default: float, low: float, high: float) -> float:
    try:
        value = float(settings.value(key, default))
    except (TypeError, ValueError):
        return default
    return value if low <= value <= high else default


def stored(settings) -> tuple[float, int]:
    """(highest frequency in kHz, dynamic range in dB) from the settings, defaults when unset or bad."""
    return (_number(settings, MAX_KHZ_KEY, DEFAULT_MAX_KHZ, *MAX_KHZ_LIMITS),
            int(_number(settings, RANGE_DB_KEY, DEFAULT_RANGE_DB, *RANGE_DB_LIMITS)))


class SpectrogramSettings(QDialog):
    def __init__(self, settings, parent=None) -> None:
        super().__init__(parent)
        self.setObjectName("spectrogramSettings")
        self.setWindowTitle("Spectrogram settings")
        max_khz, range_db = stored(settings)
        self.max_khz = QDoubleSpinBox()
        self.max_khz.setObjectName("spectroMaxKhz")
        self.max_khz.setRange(*MAX_KHZ_LIMITS)
        self.max_khz.setDecimals(1)
        self.max_khz.setSingleStep(0.5)
        self.max_khz.setSuffix(" kHz")
        self.max_khz.setValue(max_khz)
        self.range_db = QSpinBox()
        self.range_db.setObjectName("spectroRangeDb")
        self.range_db.setRange(*RANGE_DB_LIMITS)
        self.range_db.setSingleStep(5)
        self.range_db.setSuffix(" dB")
        self.range_db.setValue(range_db)
        form = QFormLayout()
        form.addRow("Highest frequency", self.max_khz)
        form.addRow("Dynamic range", self.range_db)
        note = QLabel("Praat's defaults are 5 kHz and 50 dB; telephone speech stops near 3.4 kHz. The top is "
                      "capped at half the recording's sample rate.")
        note.setObjectName("muted")
        note.setWordWrap(True)
        box = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
                               | QDialogButtonBox.StandardButton.RestoreDefaults)
        box.accepted.connect(self.accept)
        box.rejected.connect(self.reject)
        box.button(QDialogButtonBox.StandardButton.RestoreDefaults).clicked.connect(self.defaults)
        lay = QVBoxLayout(self)
        lay.addLayout(form)
        lay.addWidget(note)
        lay.addWidget(box)
        dialogs.fit_height_for_width(self, 380)

    def defaults(self) -> None:
        self.max_khz.setValue(DEFAULT_MAX_KHZ)
        self.range_db.setValue(DEFAULT_RANGE_DB)

    def save(self, settings) -> tuple[float, int]:
        settings.setValue(MAX_KHZ_KEY, self.max_khz.value())
        settings.setValue(RANGE_DB_KEY, self.range_db.value())
        return self.max_khz.value(), self.range_db.value()


def apply(window) -> None:
    """Draw the window's spectrogram with the stored range."""
    max_khz, range_db = stored(window.ctx.settings)
    window.waveform.set_spectrogram_range(max_khz * 1000.0, range_db)


def open_dialog(window) -> SpectrogramSettings:
    dlg = SpectrogramSettings(window.ctx.settings, window)

    def done(result: int) -> None:
        if result:
            dlg.save(window.ctx.settings)
            apply(window)
            if not window.act_spectro.isChecked():
                window.act_spectro.setChecked(True)  # show what was just set
        QTimer.singleShot(0, window.focus_review)

    dlg.finished.connect(done)
    dlg.open()
    return dlg


def install(window) -> QAction:
    """View ▸ Spectrogram settings… (Ctrl+Shift+G) on ``window``; the stored range applied."""
    act = window._action("Spectrogram se&ttings…", lambda: open_dialog(window), [QKeySequence("Ctrl+Shift+G")],
                         name="act_spectro_settings", tip="Highest frequency and dynamic range of the spectrogram")
    for action in window.menuBar().actions():
        if action.menu() is not None and action.text().replace("&", "") == "View":
            menu = action.menu()
            items = menu.actions()
            at = items.index(window.act_spectro) + 1 if window.act_spectro in items else len(items)
            if at < len(items):
                menu.insertAction(items[at], act)
            else:
                menu.addAction(act)
    window.act_spectro_settings = act
    apply(window)
    return act
