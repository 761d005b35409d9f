"""Look of the app: a calm dark-on-light palette, readable fonts, category colours and line patterns."""

from __future__ import annotations

import math

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QColor, QFont, QIcon, QPainter, QPainterPath, QPalette, QPen, QPixmap
from PySide6.QtWidgets import QApplication

from redactdesk.core.types import SpanStatus

INK = "#1f2328"
MUTED = "#656d76"
PAPER = "#ffffff"
CANVAS = "#f6f7f9"
BORDER = "#d0d7de"
ACCENT = "#2f6feb"
PLAYHEAD = "#d1242f"
SPOKEN = "#fff3b0"
MISSED = "#cf222e"  # reviewers' MISSED_ marks on the transcript
WAVE = "#4a5563"
UNALIGNED = "#bc4c00"
LOW_CONFIDENCE = "#6e7781"  # words the recogniser was unsure of
FOUND = "#bf8700"  # words an export refusal or re-detection finding points at
FOUND_FILL = "#fff1c2"
GOOD = "#1b5e20"  # verdicts and gate states: ready / pass
BAD = "#b00020"  # blocked / fail / refused
WARN = "#9a6700"  # unknown / override / draft: neither pass nor fail

STATUS_COLOURS = {
    "new": "#8c959f", "transcribed": "#6e7781", "detected": "#bf8700", "in_review": "#2f6feb",
    "reviewed": "#1a7f37", "signed_off": "#8250df",
}

SPEAKER_COLOURS = ["#0b5cad", "#8a3ffc", "#007d79", "#a2191f", "#6f5f00", "#b2396b"]

STYLESHEET = f"""
QMainWindow, QDialog {{ background: {CANVAS}; }}
QDockWidget::title {{ background: {CANVAS}; padding: 4px 8px; font-weight: 600; }}
QToolTip {{ background: {PAPER}; color: {INK}; border: 1px solid {BORDER}; padding: 6px; }}
QStatusBar {{ background: {CANVAS}; border-top: 1px solid {BORDER}; }}
QStatusBar::item {{ border: none; border-left: 1px solid {BORDER}; }}
QLabel#muted {{ color: {MUTED}; }}
QLabel#convTitle {{ font-size: 15px; font-weight: 600; }}
QFrame#legend {{ background: {PAPER}; border-top: 1px solid {BORDER}; }}
QHeaderView::section {{ background: {CANVAS}; border: none; border-bottom: 1px solid {BORDER};
                        padding: 4px 6px; font-weight: 600; color: {MUTED}; }}
QTableView, QTreeWidget, QTreeView {{ background: {PAPER}; alternate-background-color: #f9fafb;
                                      selection-background-color: #dbe7fd; selection-color: {INK};
                                      border: 1px solid {BORDER}; }}
QLineEdit, QComboBox {{ padding: 3px 6px; }}
QSplitter::handle {{ background: {BORDER}; }}
QSplitter::handle:vertical {{ height: 1px; }}
QSplitter::handle:horizontal {{ width: 1px; }}
"""


def apply_app_style(app: QApplication, font_size: int | None = None) -> None:
    """Fusion style, a light palette whatever the desktop theme, and a readable base font."""
    app.setStyle("Fusion")
    pal = QPalette()
    pal.setColor(QPalette.ColorRole.Window, QColor(CANVAS))
    pal.setColor(QPalette.ColorRole.WindowText, QColor(INK))
    pal.setColor(QPalette.ColorRole.Base, QColor(PAPER))
    pal.setColor(QPalette.ColorRole.AlternateBase, QColor("#f9fafb"))
    pal.setColor(QPalette.ColorRole.Text, QColor(INK))
    pal.setColor(QPalette.ColorRole.Button, QColor("#eef1f4"))
    pal.setColor(QPalette.ColorRole.ButtonText, QColor(INK))
    pal.setColor(QPalette.ColorRole.Highlight, QColor(ACCENT))
    pal.setColor(QPalette.ColorRole.HighlightedText, QColor(PAPER))
    pal.setColor(QPalette.ColorRole.ToolTipBase, QColor(PAPER))
    pal.setColor(QPalette.ColorRole.ToolTipText, QColor(INK))
    pal.setColor(QPalette.ColorRole.PlaceholderText, QColor(MUTED))
    app.setPalette(pal)
    font = QFont(app.font())
    font.setPointSize(font_size or max(10, font.pointSize()))
    app.setFont(font)
    app.setStyleSheet(STYLESHEET)


def category_colour(taxonomy, category_id: str) -> QColor:
    try:
        return QColor(taxonomy.get(category_id).colour)
    except KeyError:
        return QColor("#888888")


def category_pattern(taxonomy, category_id: str) -> str:
    try:
        return taxonomy.get(category_id).pattern
    except KeyError:
        return "solid"


def span_fill(colour: QColor, status: SpanStatus, current: bool = False) -> QColor:
    """Background tint of a span: light for suggestions, stronger once accepted, none when rejected."""
    c = QColor(colour)
    alpha = {SpanStatus.SUGGESTED: 55, SpanStatus.ACCEPTED: 105, SpanStatus.REJECTED: 0}[SpanStatus(status)]
    if current and alpha:
        alpha += 40
    c.setAlpha(alpha)
    return c


def darker(colour: QColor, factor: int = 140) -> QColor:
    return QColor(colour).darker(factor)


_PEN_STYLES = {
    "solid": Qt.PenStyle.SolidLine, "dash": Qt.PenStyle.DashLine, "dot": Qt.PenStyle.DotLine,
    "dashdot": Qt.PenStyle.DashDotLine, "double": Qt.PenStyle.SolidLine, "wave": Qt.PenStyle.SolidLine,
}


def draw_pattern_line(painter: QPainter, x0: float, x1: float, y: float, colour: QColor, pattern: str,
                      width: float = 2.0) -> None:
    """Underline from x0 to x1 at y in a taxonomy pattern: solid, double, dash, dot, dashdot, wave."""
    pen = QPen(colour, width)
    pen.setStyle(_PEN_STYLES.get(pattern, Qt.PenStyle.SolidLine))
    pen.setCapStyle(Qt.PenCapStyle.FlatCap)
    painter.setPen(pen)
    painter.setBrush(Qt.BrushStyle.NoBrush)
    if pattern == "double":
        painter.drawLine(QPointF(x0, y - 1.5), QPointF(x1, y - 1.5))
        painter.drawLine(QPointF(x0, y + 2.0), QPointF(x1, y + 2.0))
    elif pattern == "wave":
        path = QPainterPath(QPointF(x0, y))
        step = 1.0
        x = x0
        while x < x1:
            x = min(x1, x + step)
            path.lineTo(QPointF(x, y + 1.8 * math.sin((x - x0) / 2.0)))
        painter.drawPath(path)
    else:
        painter.drawLine(QPointF(x0, y), QPointF(x1, y))


def swatch_icon(colour: QColor | str, pattern: str = "solid", size: int = 16) -> QIcon:
    """A small square icon: category colour with its line pattern under it."""
    pix = QPixmap(size, size)
    pix.fill(Qt.GlobalColor.transparent)
    p = QPainter(pix)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    c = QColor(colour)
    fill = QColor(c)
    fill.setAlpha(150)
    p.setPen(QPen(c.darker(130), 1))
    p.setBrush(fill)
    p.drawRoundedRect(1, 1, size - 2, size - 6, 2, 2)
    draw_pattern_line(p, 1, size - 1, size - 2.5, c.darker(130), pattern, 1.5)
    p.end()
    return QIcon(pix)


def dot_icon(colour: str, size: int = 10) -> QIcon:
    pix = QPixmap(size, size)
    pix.fill(Qt.GlobalColor.transparent)
    p = QPainter(pix)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QColor(colour))
    p.drawEllipse(1, 1, size - 2, size - 2)
    p.end()
    return QIcon(pix)


def gate_icon(kind: str, size: int = 14) -> QIcon:
    """The release gate of a conversation as a small badge: ``ready`` (green tick), ``blocked`` (red
    cross), ``override`` (amber exclamation mark) or ``excluded`` (grey dash)."""
    colour = {"ready": GOOD, "blocked": BAD, "override": WARN, "excluded": "#8c959f"}[kind]
    pix = QPixmap(size, size)
    pix.fill(Qt.GlobalColor.transparent)
    p = QPainter(pix)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QColor(colour))
    p.drawEllipse(1, 1, size - 2, size - 2)
    pen = QPen(QColor(PAPER), 1.8)
    pen.setCapStyle(Qt.PenCapStyle.RoundCap)
    p.setPen(pen)
    k = size / 14.0
    if kind == "ready":
        p.drawPolyline([QPointF(4 * k, 7.2 * k), QPointF(6.2 * k, 9.6 * k), QPointF(10.2 * k, 4.6 * k)])
    elif kind == "blocked":
        p.drawLine(QPointF(4.6 * k, 4.6 * k), QPointF(9.4 * k, 9.4 * k))
        p.drawLine(QPointF(9.4 * k, 4.6 * k), QPointF(4.6 * k, 9.4 * k))
    elif kind == "override":
        p.drawLine(QPointF(7 * k, 3.6 * k), QPointF(7 * k, 7.8 * k))
        p.drawPoint(QPointF(7 * k, 10.2 * k))
    else:
        p.drawLine(QPointF(4.2 * k, 7 * k), QPointF(9.8 * k, 7 * k))
    p.end()
    return QIcon(pix)


def fmt_time(seconds: float | None, *, decimals: int = 0) -> str:
    """0:05, 1:02:03 or with tenths (``decimals=1``)."""
    if seconds is None:
        return "–"
    seconds = max(0.0, float(seconds))
    h, rem = divmod(seconds, 3600)
    m, s = divmod(rem, 60)
    sec = f"{s:0{3 + decimals if decimals else 2}.{decimals}f}"
    return f"{int(h)}:{int(m):02d}:{sec}" if h >= 1 else f"{int(m)}:{sec}"
