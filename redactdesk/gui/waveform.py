"""Waveform view (pyqtgraph): peak-pyramid drawing, spans as coloured regions, playhead, overview.

The main plot redraws only the visible window from the recording's :class:`PeakPyramid`, so a
one-hour call draws at once and zooming/panning costs the same at every zoom level. Spans are
painted by one item (suggested: dashed outline and light tint; accepted: solid; rejected: grey
hatch, or hidden). Stereo recordings get one lane per channel. An optional spectrogram row shows
the visible window when it is short enough.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPointF, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetrics, QPainter, QPen
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from redactdesk.core.types import SpanStatus
from redactdesk.gui import style
from redactdesk.gui.audiosource import AudioSource
from redactdesk.gui.peaks import PeakPyramid

LANE = 2.2  # vertical distance between channel lanes (each lane spans -1..1)
SPECTRO_MAX_SECONDS = 90.0

pg.setConfigOptions(antialias=False, background=style.PAPER, foreground=style.MUTED)


class TimeAxis(pg.AxisItem):
    """Bottom axis labelled m:ss(.s)."""

    def tickStrings(self, values, scale, spacing):
        decimals = 0 if spacing >= 1 else (1 if spacing >= 0.1 else 2)
        return [style.fmt_time(v, decimals=decimals) for v in values]


class SpanLayer(pg.GraphicsObject):
    """All spans of a conversation drawn in one pass, in pixel space for crisp outlines and labels."""

    def __init__(self, taxonomy, *, labels: bool = True) -> None:
        super().__init__()
        self.taxonomy = taxonomy
        self.labels = labels
        self.items: list[tuple[float, float, str, SpanStatus, int | None]] = []
        self.starts = np.zeros(0)
        self.max_len = 0.0
        self.current: int | None = None
        self.show_rejected = True
        self.y0, self.y1 = -1.1, 1.1
        self._font = QFont()
        self._font.setPointSizeF(7.5)
        self._font.setBold(True)
        self._metrics = QFontMetrics(self._font)
        self.setZValue(-5)

    def set_spans(self, items: list[tuple[float, float, str, SpanStatus, int | None]]) -> None:
        self.prepareGeometryChange()
        self.items = sorted(items, key=lambda it: it[0])
        self.starts = np.array([it[0] for it in self.items], dtype=float)
        self.max_len = max((it[1] - it[0] for it in self.items), default=0.0)
        self.update()

    def set_extent(self, y0: float, y1: float) -> None:
        self.prepareGeometryChange()
        self.y0, self.y1 = y0, y1
        self.update()

    def boundingRect(self) -> QRectF:
        end = max((it[1] for it in self.items), default=1.0)
        return QRectF(0.0, self.y0, max(end, 1e-3), self.y1 - self.y0)

    def paint(self, p: QPainter, *args) -> None:
        if not self.items:
            return
        vb = self.getViewBox()
        if vb is None:
            return
        (x0, x1), _ = vb.viewRange()
        lo = int(np.searchsorted(self.starts, x0 - self.max_len, side="left"))
        hi = int(np.searchsorted(self.starts, x1, side="right"))
        tr = p.transform()
        p.save()
        p.resetTransform()
        p.setFont(self._font)
        for t0, t1, cat, status, sid in self.items[lo:hi]:
            if t1 < x0:
                continue
            if status == SpanStatus.REJECTED and not self.show_rejected:
                continue
            r = tr.mapRect(QRectF(t0, self.y0, t1 - t0, self.y1 - self.y0))
            if r.width() < 2:
                r.setWidth(2)
            colour = style.category_colour(self.taxonomy, cat)
            current = sid is not None and sid == self.current
            if status == SpanStatus.REJECTED:
                p.setBrush(QBrush(QColor("#d0d7de"), Qt.BrushStyle.BDiagPattern))
                p.setPen(QPen(QColor("#afb8c1"), 1, Qt.PenStyle.DotLine))
            else:
                p.setBrush(style.span_fill(colour, status, current))
                pen = QPen(style.darker(colour, 115), 1.5 if status == SpanStatus.ACCEPTED else 1.2,
                           Qt.PenStyle.SolidLine if status == SpanStatus.ACCEPTED else Qt.PenStyle.DashLine)
                p.setPen(pen)
            p.drawRect(r)
            if current:
                p.setBrush(Qt.BrushStyle.NoBrush)
                p.setPen(QPen(QColor(style.INK), 2))
                p.drawRect(r.adjusted(-1, -1, 1, 1))
            if self.labels and r.width() > self._metrics.horizontalAdvance(cat) + 6 \
                    and status != SpanStatus.REJECTED:
                p.setPen(style.darker(colour, 190))
                p.drawText(QRectF(r.left() + 3, r.top() + 2, r.width() - 4, 14),
                           Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop, cat)
        p.restore()


class WaveformView(QWidget):
    """Overview strip + main waveform (+ optional spectrogram) of one recording."""

    time_clicked = Signal(float)
    range_changed = Signal(float, float)

    def __init__(self, taxonomy, parent=None) -> None:
        super().__init__(parent)
        self.setObjectName("waveform")
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.taxonomy = taxonomy
        self.source: AudioSource | None = None
        self.pyramid: PeakPyramid | None = None
        self.duration = 1.0
        self.gain = 1.0
        self._span_times: list[tuple[float, float]] = []
        self.focus_range: tuple[float, float] | None = None  # the current selection: zoom keys zoom around it

        # overview
        self.overview = pg.PlotWidget()
        self.overview.setObjectName("overview")
        self.overview.setFixedHeight(44)
        self.overview.hideAxis("left")
        self.overview.hideAxis("bottom")
        self.overview.setMenuEnabled(False)
        self.overview.setMouseEnabled(x=False, y=False)
        self.overview.hideButtons()
        self.overview.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.overview.getPlotItem().setContentsMargins(0, 2, 0, 2)
        self.ov_curves: list[pg.PlotCurveItem] = []
        self.ov_spans = SpanLayer(taxonomy, labels=False)
        self.overview.addItem(self.ov_spans)
        self.window_region = pg.LinearRegionItem(
            values=(0, 1), brush=pg.mkBrush(47, 111, 235, 40), pen=pg.mkPen(style.ACCENT, width=1.5))
        self.window_region.setZValue(10)
        self.window_region.sigRegionChanged.connect(self._region_moved)
        self.overview.addItem(self.window_region)
        self.ov_playhead = pg.InfiniteLine(angle=90, pen=pg.mkPen(style.PLAYHEAD, width=1))
        self.ov_playhead.hide()
        self.overview.addItem(self.ov_playhead)

        # main plot
        self.plot = pg.PlotWidget(axisItems={"bottom": TimeAxis("bottom")})
        self.plot.setObjectName("waveformPlot")
        self.plot.setMenuEnabled(False)
        self.plot.hideButtons()
        self.plot.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.plot.setMouseEnabled(x=True, y=False)
        self.plot.getPlotItem().setContentsMargins(0, 4, 6, 0)
        self.vb: pg.ViewBox = self.plot.getViewBox()
        self.vb.disableAutoRange()
        self.vb.sigXRangeChanged.connect(self._x_range_changed)
        self.curves: list[pg.PlotCurveItem] = []
        self.spans = SpanLayer(taxonomy)
        self.plot.addItem(self.spans)
        self.cursor_line = pg.InfiniteLine(angle=90, pen=pg.mkPen(style.ACCENT, width=1, style=Qt.PenStyle.DashLine))
        self.cursor_line.hide()
        self.plot.addItem(self.cursor_line)
        self.playhead = pg.InfiniteLine(angle=90, pen=pg.mkPen(style.PLAYHEAD, width=2))
        self.playhead.hide()
        self.playhead.setZValue(20)
        self.plot.addItem(self.playhead)
        # words a list pointed at (export refusal, re-detection finding): amber band, not movable
        self.found = pg.LinearRegionItem(values=(0, 1), movable=False, brush=pg.mkBrush(191, 135, 0, 60),
                                         pen=pg.mkPen(style.FOUND, width=2))
        self.found.setZValue(15)
        self.found.hide()
        self.plot.addItem(self.found, ignoreBounds=True)
        self.message = pg.TextItem("", color=style.MUTED, anchor=(0.5, 0.5))
        self.plot.addItem(self.message, ignoreBounds=True)
        self.plot.scene().sigMouseClicked.connect(self._clicked)

        # spectrogram
        self.spectro = pg.PlotWidget(axisItems={"bottom": TimeAxis("bottom")})
        self.spectro.setObjectName("spectrogram")
        self.spectro.setMenuEnabled(False)
        self.spectro.hideButtons()
        self.spectro.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.spectro.setMouseEnabled(x=True, y=False)
        self.spectro.setXLink(self.plot)
        self.spectro.setLabel("left", "kHz")
        self.spectro_image = pg.ImageItem()
        self.spectro_image.setColorMap(pg.colormap.get("viridis"))
        self.spectro.addItem(self.spectro_image)
        self.spectro_note = pg.TextItem("", color=style.MUTED, anchor=(0.5, 0.5))
        self.spectro.addItem(self.spectro_note, ignoreBounds=True)
        self.spectro.hide()
        self.spectro_max_hz: float | None = None  # None: up to half the sample rate
        self.spectro_range_db = 70.0  # dynamic range: quieter than the loudest bin minus this is black
        self._spectro_timer = QTimer(self, singleShot=True, interval=120)
        self._spectro_timer.timeout.connect(self._update_spectrogram)

        self.info = QLabel("")
        self.info.setObjectName("muted")
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(2)
        lay.addWidget(self.overview)
        lay.addWidget(self.plot, 3)
        lay.addWidget(self.spectro, 2)
        self._set_lanes(1)

    # ------------------------------------------------------------------ data
    def clear(self, duration: float = 1.0, message: str = "") -> None:
        self.source = None
        self.pyramid = None
        self.duration = max(duration, 0.1)
        for c in self.curves + self.ov_curves:
            c.setData([], [])
        self._set_lanes(1)
        self._limits()
        self.show_all()
        self.set_message(message)

    def set_message(self, text: str) -> None:
        self.message.setText(text)
        (x0, x1), (y0, y1) = self.vb.viewRange()
        self.message.setPos((x0 + x1) / 2, (y0 + y1) / 2)

    def set_audio(self, source: AudioSource, pyramid: PeakPyramid) -> None:
        self.source = source
        self.pyramid = pyramid
        self.duration = max(pyramid.duration, 0.1)
        top = len(pyramid.mins) - 1
        peak = float(max(np.abs(pyramid.mins[top]).max(), np.abs(pyramid.maxs[top]).max(), 1e-4))
        self.gain = min(1.0 / peak * 0.95, 20.0)
        self._set_lanes(pyramid.channels)
        self._limits()
        self.set_message("")
        self._draw_overview()
        self.show_all()
        self.redraw()  # the same file again keeps the same range: no range signal would draw the new lanes

    def _set_lanes(self, channels: int) -> None:
        for c in self.curves + self.ov_curves:
            c.getViewBox() and c.getViewBox().removeItem(c)
        pen = pg.mkPen(style.WAVE, width=1)
        self.curves = []
        self.ov_curves = []
        for _ in range(channels):
            c = pg.PlotCurveItem(pen=pen, connect="pairs", skipFiniteCheck=True)
            c.setZValue(1)
            self.plot.addItem(c)
            self.curves.append(c)
            oc = pg.PlotCurveItem(pen=pg.mkPen("#8c959f", width=1), connect="pairs", skipFiniteCheck=True)
            self.overview.addItem(oc)
            self.ov_curves.append(oc)
        y0, y1 = -LANE * (channels - 1) - 1.1, 1.1
        self.vb.setYRange(y0, y1, padding=0)
        self.overview.getViewBox().setYRange(y0, y1, padding=0)
        self.spans.set_extent(y0, y1)
        self.ov_spans.set_extent(y0, y1)
        left = self.plot.getAxis("left")
        if channels > 1:
            self.plot.showAxis("left")
            names = ["L", "R"] + [str(i + 1) for i in range(2, channels)]
            left.setTicks([[(-LANE * i, names[i]) for i in range(channels)], []])
            left.setWidth(18)
        else:
            self.plot.hideAxis("left")

    def _limits(self) -> None:
        self.vb.setLimits(xMin=0.0, xMax=self.duration, minXRange=0.02, maxXRange=self.duration)
        self.overview.getViewBox().setXRange(0, self.duration, padding=0)
        self.overview.getViewBox().setLimits(xMin=0, xMax=self.duration)
        self.window_region.setBounds((0, self.duration))

    def set_spans(self, items: list[tuple[float, float, str, SpanStatus, int | None]]) -> None:
        """Spans as (start s, end s, category, status, id)."""
        self.spans.set_spans(items)
        self.ov_spans.set_spans(items)

    def set_show_rejected(self, show: bool) -> None:
        self.spans.show_rejected = show
        self.ov_spans.show_rejected = show
        self.spans.update()
        self.ov_spans.update()

    def set_current_span(self, span_id: int | None) -> None:
        self.spans.current = span_id
        self.spans.update()

    def set_found(self, t0: float | None, t1: float | None = None) -> None:
        """Show [t0, t1] seconds as found (an amber band) and bring it into view; None hides it."""
        if t0 is None:
            self.found.hide()
            return
        t1 = t0 if t1 is None else t1
        self.found.setRegion((t0, max(t1, t0 + 0.01)))
        self.found.show()
        self.ensure_visible(t0, t1, margin=max(1.0, 0.5 * (t1 - t0)))

    def found_range(self) -> tuple[float, float] | None:
        if not self.found.isVisible():
            return None
        a, b = self.found.getRegion()
        return float(a), float(b)

    def set_cursor(self, t: float | None) -> None:
        if t is None:
            self.cursor_line.hide()
        else:
            self.cursor_line.setValue(t)
            self.cursor_line.show()

    def set_playhead(self, t: float | None, follow: bool = True) -> None:
        if t is None:
            self.playhead.hide()
            self.ov_playhead.hide()
            return
        self.playhead.setValue(t)
        self.ov_playhead.setValue(t)
        self.playhead.show()
        self.ov_playhead.show()
        if follow:
            x0, x1 = self.x_range()
            if not x0 <= t <= x1:
                w = x1 - x0
                self.set_range(t - 0.1 * w, t + 0.9 * w)

    # ------------------------------------------------------------------ view range
    def x_range(self) -> tuple[float, float]:
        (x0, x1), _ = self.vb.viewRange()
        return float(x0), float(x1)

    def set_range(self, t0: float, t1: float) -> None:
        w = max(0.02, t1 - t0)
        if w >= self.duration:
            t0, t1 = 0.0, self.duration
        else:
            t0 = min(max(0.0, t0), self.duration - w)
            t1 = t0 + w
        self.vb.setXRange(t0, t1, padding=0)

    def show_all(self) -> None:
        self.set_range(0.0, self.duration)

    def set_focus_range(self, t0: float | None, t1: float | None = None) -> None:
        """The current selection in seconds (a span, a word); zooming without a centre keeps it in view."""
        self.focus_range = None if t0 is None else (float(t0), float(t0 if t1 is None else t1))

    def zoom(self, factor: float, centre: float | None = None) -> None:
        """Zoom in (factor < 1) or out (factor > 1) around ``centre``; without one, around the current
        selection (it keeps its place on screen, or is centred when it was out of view), else the middle."""
        x0, x1 = self.x_range()
        if centre is None and self.focus_range is not None:
            centre = (self.focus_range[0] + self.focus_range[1]) / 2
            if not x0 <= centre <= x1:
                w = (x1 - x0) * factor
                self.set_range(centre - w / 2, centre + w / 2)
                return
        c = (x0 + x1) / 2 if centre is None else centre
        w = (x1 - x0) * factor
        frac = (c - x0) / (x1 - x0) if x1 > x0 else 0.5
        t0 = c - frac * w
        if self.focus_range is not None and self.focus_range[1] - self.focus_range[0] <= 0.9 * w:
            a, b = self.focus_range  # the whole selection stays in view while it fits
            margin = min(0.05 * w, (w - (b - a)) / 2)
            t0 = min(max(t0, b + margin - w), a - margin)
        self.set_range(t0, t0 + w)

    def frame(self, t0: float, t1: float) -> None:
        """Show [t0, t1] with as much context on each side as it is long (at least 1 s)."""
        pad = max(1.0, t1 - t0)
        self.set_range(t0 - pad, t1 + pad)

    def pan(self, fraction: float) -> None:
        x0, x1 = self.x_range()
        d = (x1 - x0) * fraction
        self.set_range(x0 + d, x1 + d)

    def ensure_visible(self, t0: float, t1: float, margin: float = 1.0) -> None:
        """Bring [t0, t1] into view, keeping the zoom when it fits."""
        x0, x1 = self.x_range()
        w = x1 - x0
        need = (t1 - t0) + 2 * margin
        if w < need:
            self.set_range(t0 - margin, t1 + margin)
        elif t0 < x0 or t1 > x1:
            c = (t0 + t1) / 2
            self.set_range(c - w / 2, c + w / 2)

    # ------------------------------------------------------------------ drawing
    def pixels(self) -> int:
        return max(50, int(self.vb.width() or self.plot.width()))

    def redraw(self) -> None:
        """Redraw the visible window from the pyramid (or raw samples when zoomed far in)."""
        if self.pyramid is None:
            return
        x0, x1 = self.x_range()
        win = self.pyramid.window(x0, x1, self.pixels(), self.source.read if self.source else None)
        connect = "pairs" if win.kind == "peaks" else "all"
        for k, c in enumerate(self.curves):
            if k < win.y.shape[0]:
                c.setData(win.x, win.y[k] * self.gain - LANE * k, connect=connect, skipFiniteCheck=True)

    def _draw_overview(self) -> None:
        if self.pyramid is None:
            return
        win = self.pyramid.window(0.0, self.pyramid.duration, 1200)
        for k, c in enumerate(self.ov_curves):
            c.setData(win.x, win.y[k] * self.gain - LANE * k, connect="pairs", skipFiniteCheck=True)

    def _x_range_changed(self, _vb=None, rng=None) -> None:
        x0, x1 = self.x_range()
        self.redraw()
        self.window_region.blockSignals(True)
        self.window_region.setRegion((x0, x1))
        self.window_region.blockSignals(False)
        if self.message.textItem.toPlainText():
            self.set_message(self.message.textItem.toPlainText())
        if self.spectro.isVisible():
            self._spectro_timer.start()
        self.range_changed.emit(x0, x1)

    def _region_moved(self) -> None:
        a, b = self.window_region.getRegion()
        self.vb.setXRange(a, b, padding=0)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        QTimer.singleShot(0, self.redraw)

    # ------------------------------------------------------------------ spectrogram
    def set_spectrogram_visible(self, visible: bool) -> None:
        self.spectro.setVisible(visible)
        if visible:
            self._update_spectrogram()

    def set_spectrogram_range(self, max_hz: float | None, range_db: float) -> None:
        """Show frequencies up to ``max_hz`` (capped at half the sample rate) over ``range_db`` dB."""
        self.spectro_max_hz = max_hz
        self.spectro_range_db = float(range_db)
        self._update_spectrogram()

    def _update_spectrogram(self) -> None:
        if not self.spectro.isVisible():
            return
        x0, x1 = self.x_range()
        if self.source is None:
            self.spectro_image.clear()
            self.spectro_note.setText("no audio")
            self.spectro_note.setPos((x0 + x1) / 2, 4)
            return
        if x1 - x0 > SPECTRO_MAX_SECONDS:
            self.spectro_image.clear()
            self.spectro_note.setText(f"zoom in below {int(SPECTRO_MAX_SECONDS)} s to see the spectrogram")
            self.spectro_note.setPos((x0 + x1) / 2, self.source.rate / 4000)
            return
        self.spectro_note.setText("")
        data = self.source.read_seconds(x0, x1).mean(axis=1)
        rate = self.source.rate
        img = spectrogram(data, rate, columns=min(1200, self.pixels()))
        if img is None:
            return
        top = min(rate / 2, self.spectro_max_hz or rate / 2)
        img = img[:, : max(2, int(round(img.shape[1] * top / (rate / 2))))]
        self.spectro_image.setImage(img, autoLevels=False, levels=(img.max() - self.spectro_range_db, img.max()))
        self.spectro_image.setRect(QRectF(x0, 0, x1 - x0, top / 1000))
        self.spectro.getViewBox().setYRange(0, top / 1000, padding=0)

    # ------------------------------------------------------------------ input
    def _clicked(self, ev) -> None:
        if ev.button() != Qt.MouseButton.LeftButton:
            return
        pos = ev.scenePos()
        if not self.vb.sceneBoundingRect().contains(pos):
            return
        self.setFocus()
        t = float(self.vb.mapSceneToView(QPointF(pos)).x())
        self.time_clicked.emit(min(max(0.0, t), self.duration))

    def keyPressEvent(self, event) -> None:
        key = event.key()
        mods = event.modifiers()
        if mods & Qt.KeyboardModifier.ShiftModifier:
            return super().keyPressEvent(event)
        if key in (Qt.Key.Key_Plus, Qt.Key.Key_Equal):
            self.zoom(0.5)
        elif key in (Qt.Key.Key_Minus, Qt.Key.Key_Underscore):
            self.zoom(2.0)
        elif key == Qt.Key.Key_Left:
            self.pan(-0.25)
        elif key == Qt.Key.Key_Right:
            self.pan(0.25)
        elif key == Qt.Key.Key_Home:
            self.set_range(0, self.x_range()[1] - self.x_range()[0])
        elif key == Qt.Key.Key_End:
            w = self.x_range()[1] - self.x_range()[0]
            self.set_range(self.duration - w, self.duration)
        elif key == Qt.Key.Key_0:
            self.show_all()
        else:
            return super().keyPressEvent(event)
        event.accept()


def spectrogram(samples: np.ndarray, rate: int, columns: int = 800, n_fft: int = 512) -> np.ndarray | None:
    """Log-power spectrogram (columns x n_fft/2+1 bins, dB) of a mono signal."""
    if len(samples) < n_fft:
        return None
    hop = max(n_fft // 4, (len(samples) - n_fft) // max(1, columns))
    n = 1 + (len(samples) - n_fft) // hop
    idx = np.arange(n_fft)[None, :] + hop * np.arange(n)[:, None]
    frames = samples[idx] * np.hanning(n_fft).astype(np.float32)
    power = np.abs(np.fft.rfft(frames, axis=1)) ** 2
    return (10.0 * np.log10(power + 1e-10)).astype(np.float32)
