"""Small widgets of the main window: category legend, conversation header, job progress."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPen
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from redactdesk.core.types import SpanStatus
from redactdesk.gui import style


class LegendBar(QFrame):
    """The number keys 1-9 with each category's colour and underline pattern, plus what styles mean."""

    def __init__(self, taxonomy, parent=None) -> None:
        super().__init__(parent)
        self.setObjectName("legend")
        self.taxonomy = taxonomy
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self._font = QFont(self.font())
        self._font.setPointSizeF(max(8.0, self._font.pointSizeF() * 0.9))
        self._key_font = QFont(self._font)
        self._key_font.setBold(True)
        self._rows = 1

    def entries(self) -> list[tuple[str, str, QColor, str]]:
        out = []
        for key in sorted(self.taxonomy.keys):
            cat = self.taxonomy.get(self.taxonomy.keys[key])
            out.append((str(key), cat.label, QColor(cat.colour), cat.pattern))
        return out

    def _layout(self, width: int) -> list[tuple[float, float, tuple]]:
        fm = QFontMetrics(self._font)
        kfm = QFontMetrics(self._key_font)
        x, y, row_h = 10.0, 6.0, fm.height() + 10
        placed = []
        items = [("cat", e) for e in self.entries()] + [("sep", None)] + [("style", s) for s in range(4)]
        for kind, e in items:
            if kind == "cat":
                w = kfm.horizontalAdvance(e[0]) + 8 + 30 + fm.horizontalAdvance(e[1]) + 16
            elif kind == "sep":
                w = 14
            else:
                w = fm.horizontalAdvance(self._style_text(e)) + 40
            if x + w > width - 6 and x > 10:
                x, y = 10.0, y + row_h
            placed.append((x, y, (kind, e)))
            x += w
        self._rows = int((y - 6) // row_h) + 1
        return placed

    @staticmethod
    def _style_text(i: int) -> str:
        return ("suggested", "accepted", "rejected", "estimated time")[i]

    def sizeHint(self) -> QSize:
        self._layout(max(300, self.width()))
        fm = QFontMetrics(self._font)
        return QSize(600, self._rows * (fm.height() + 10) + 8)

    def resizeEvent(self, event) -> None:
        rows = self._rows
        self._layout(self.width())
        if rows != self._rows:
            self.setFixedHeight(self.sizeHint().height())
        super().resizeEvent(event)

    def paintEvent(self, event) -> None:
        super().paintEvent(event)
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        fm = QFontMetrics(self._font)
        kfm = QFontMetrics(self._key_font)
        h = fm.height()
        for x, y, (kind, e) in self._layout(self.width()):
            base = y + fm.ascent() + 2
            if kind == "cat":
                key, label, colour, pattern = e
                kw = kfm.horizontalAdvance(key) + 8
                p.setPen(QPen(QColor(style.BORDER), 1))
                p.setBrush(QColor(style.CANVAS))
                p.drawRoundedRect(QRectF(x, y + 1, kw, h + 2), 3, 3)
                p.setFont(self._key_font)
                p.setPen(QColor(style.INK))
                p.drawText(QRectF(x, y + 1, kw, h + 2), Qt.AlignmentFlag.AlignCenter, key)
                sx = x + kw + 5
                fill = QColor(colour)
                fill.setAlpha(110)
                p.setPen(Qt.PenStyle.NoPen)
                p.setBrush(fill)
                p.drawRoundedRect(QRectF(sx, y + 2, 22, h - 2), 3, 3)
                style.draw_pattern_line(p, sx, sx + 22, y + h + 2, colour.darker(135), pattern, 2.0)
                p.setFont(self._font)
                p.setPen(QColor(style.INK))
                p.drawText(QPointF(sx + 27, base), label)
            elif kind == "sep":
                p.setPen(QPen(QColor(style.BORDER), 1))
                p.drawLine(QPointF(x + 6, y + 2), QPointF(x + 6, y + h + 2))
            else:
                colour = QColor("#6e7781")
                r = QRectF(x, y + 2, 26, h - 2)
                if e == 0:
                    f = QColor(colour)
                    f.setAlpha(50)
                    p.setBrush(f)
                    p.setPen(QPen(colour, 1, Qt.PenStyle.DashLine))
                elif e == 1:
                    f = QColor(colour)
                    f.setAlpha(120)
                    p.setBrush(f)
                    p.setPen(QPen(colour, 1))
                elif e == 2:
                    p.setBrush(Qt.BrushStyle.NoBrush)
                    p.setPen(QPen(QColor("#afb8c1"), 1, Qt.PenStyle.DotLine))
                if e < 3:
                    p.drawRoundedRect(r, 3, 3)
                    p.setFont(self._font)
                    p.setPen(QColor(style.MUTED))
                    p.drawText(QPointF(x + 32, base), self._style_text(e))
                else:
                    p.setPen(QPen(QColor(style.UNALIGNED), 1.5, Qt.PenStyle.DotLine))
                    p.drawLine(QPointF(x, y + 3), QPointF(x + 26, y + 3))
                    f = QFont(self._font)
                    f.setItalic(True)
                    p.setFont(f)
                    p.setPen(QColor(style.MUTED))
                    p.drawText(QPointF(x, base), "word")
                    p.setFont(self._font)
                    p.drawText(QPointF(x + 32, base), self._style_text(e))
        p.end()


class ConversationHeader(QWidget):
    """Title line above the waveform: conversation, length, status, counts, and the current span."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.title = QLabel("No conversation")
        self.title.setObjectName("convTitle")
        self.facts = QLabel("")
        self.facts.setObjectName("muted")
        self.facts.setWordWrap(True)
        self._shown = None
        self.current = QLabel("")
        self.current.setTextFormat(Qt.TextFormat.RichText)
        self.current.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.current.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
        self.current.setMinimumWidth(260)  # a narrow window shortens it (see _render_span) instead of growing
        self.current.setWordWrap(True)
        self.title.setMinimumWidth(60)
        left = QVBoxLayout()
        left.setSpacing(0)
        left.addWidget(self.title)
        left.addWidget(self.facts)
        lay = QHBoxLayout(self)
        lay.setContentsMargins(10, 6, 10, 4)
        lay.addLayout(left, 1)
        lay.addSpacing(20)
        lay.addWidget(self.current)

    def show_conversation(self, conv) -> None:
        if conv is None:
            self.title.setText("No conversation")
            self.facts.setText("Choose one in the corpus list, or File ▸ Import recordings")
            self.current.setText("")
            self._shown = None
            return
        counts = conv.counts()
        words = len(conv.words)
        unaligned = sum(1 for w in conv.words if not w.aligned)
        self.title.setText(conv.id)
        parts = [conv.language, style.fmt_time(conv.duration), conv.status.value.replace("_", " "),
                 f"{words} words"]
        if unaligned:
            parts.append(f"{unaligned} without times")
        parts.append(f"{counts['suggested']} open · {counts['accepted']} accepted · {counts['rejected']} rejected")
        self.facts.setText("  ·  ".join(parts))

    def show_span(self, conv, span, taxonomy) -> None:
        self._shown = (conv, span, taxonomy)
        self._render_span()

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if getattr(self, "_shown", None) is not None:
            self._render_span()

    def _render_span(self) -> None:
        """The current span in two lines; a narrow header (a 1024 px window) leaves out the sources
        (in the tooltip) and shortens the quote, so it stays two lines."""
        conv, span, taxonomy = self._shown
        if conv is None or span is None:
            self.current.setText("")
            self.current.setToolTip("")
            return
        try:
            label = taxonomy.get(span.category).label
        except KeyError:
            label = span.category
        compact = self.width() < 640
        colour = style.category_colour(taxonomy, span.category).name()
        t0, t1 = conv.span_times(span)
        text = conv.span_text(span)
        limit = 18 if compact else 30
        if len(text) > limit:
            text = text[:limit - 2] + "…"
        score = f" · {span.score:.2f}" if span.status == SpanStatus.SUGGESTED else ""
        sources = ", ".join(span.sources[:2])
        src = f" · {sources}" if sources and not compact else ""
        self.current.setToolTip(f"from {sources}" if sources else "")
        self.current.setText(
            f"<span style='color:{colour}; font-size:16px'>■</span> <b>{label}</b> "
            f"<span style='color:{style.MUTED}'>{span.status.value}{score}{src}</span><br>"
            f"<span style='color:{style.INK}'>“{text}”</span> <span style='color:{style.MUTED}'>"
            f"{style.fmt_time(t0, decimals=1)}–{style.fmt_time(t1, decimals=1)}</span>")


class JobIndicator(QWidget):
    """Status-bar progress of the running background job, with a cancel button."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.label = QLabel("")
        self.bar = QProgressBar()
        self.bar.setObjectName("jobProgress")
        self.bar.setFixedWidth(160)
        self.bar.setMaximumHeight(14)
        self.bar.setTextVisible(False)
        self.cancel = QToolButton()
        self.cancel.setObjectName("jobCancel")
        self.cancel.setText("Cancel")
        self.cancel.setAutoRaise(True)
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.label)
        lay.addWidget(self.bar)
        lay.addWidget(self.cancel)
        self.job = None
        self.cancel.clicked.connect(self._cancel)
        self.hide()

    def track(self, job) -> None:
        self.job = job
        self.label.setText(job.title)
        self.bar.setRange(0, 0)
        self.show()
        job.progress.connect(lambda f, m, j=job: self._progress(j, f, m))
        job.ended.connect(lambda j=job: self._ended(j))

    def _progress(self, job, fraction: float, message: str) -> None:
        if job is not self.job:
            return
        if fraction < 0:
            self.bar.setRange(0, 0)
        else:
            self.bar.setRange(0, 1000)
            self.bar.setValue(int(fraction * 1000))
        self.label.setText(f"{job.title}: {message}" if message else job.title)

    def _ended(self, job) -> None:
        if job is self.job:
            self.job = None
            self.hide()

    def _cancel(self) -> None:
        if self.job is not None:
            self.job.cancel()
            self.label.setText(f"{self.job.title}: cancelling…")
