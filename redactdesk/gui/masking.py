"""Masked audio in the views: the ranges export will mask, shaded on the waveform, and A/B samples.

The ranges are :func:`redactdesk.audio.mask_ranges` of the conversation's ACCEPTED spans with the
project's mask settings (``mask.padding`` default 0.05 s, ``mask.min_confidence``,
``mask.channel_mode``), exactly what export uses; they follow every span change. A stereo range on
one channel shades that channel's lane only.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QObject, QRectF, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QPainter, QPen

from redactdesk.gui.waveform import LANE

if TYPE_CHECKING:
    from redactdesk.audio import MaskRange
    from redactdesk.core.types import Conversation
    from redactdesk.gui.audiosource import AudioSource
    from redactdesk.gui.context import AppContext
    from redactdesk.gui.waveform import WaveformView

FILL = QColor(87, 96, 106, 70)
HATCH = QColor(36, 41, 47, 120)


class MaskLayer(pg.GraphicsObject):
    """Masked ranges as grey, cross-hatched bands over the waveform (above the curve: "this goes")."""

    def __init__(self, *, edges: bool = True) -> None:
        super().__init__()
        self.ranges: list[MaskRange] = []
        self.channels = 1
        self.edges = edges
        self.setZValue(5)

    def set_ranges(self, ranges: list[MaskRange], channels: int = 1) -> None:
        self.prepareGeometryChange()
        self.ranges = sorted(ranges, key=lambda r: r.start)
        self.channels = max(1, int(channels))
        self.update()

    def lane_extent(self, channel: int | None) -> tuple[float, float]:
        """(bottom, top) in view units of a channel's lane, or of all lanes for None."""
        if channel is None or self.channels == 1:
            return -LANE * (self.channels - 1) - 1.1, 1.1
        k = min(int(channel), self.channels - 1)
        return -LANE * k - 1.1, -LANE * k + 1.1

    def boundingRect(self) -> QRectF:
        y0, y1 = self.lane_extent(None)
        end = max((r.end for r in self.ranges), default=1.0)
        return QRectF(0.0, y0, max(end, 1e-3), y1 - y0)

    def paint(self, p: QPainter, *args) -> None:
        vb = self.getViewBox()
        if not self.ranges or vb is None:
            return
        (x0, x1), _ = vb.viewRange()
        tr = p.transform()
        p.save()
        p.resetTransform()
        for r in self.ranges:
            if r.end < x0 or r.start > x1:
                continue
            y0, y1 = self.lane_extent(r.channel)
            rect = tr.mapRect(QRectF(r.start, y0, r.end - r.start, y1 - y0))
            if rect.width() < 2:
                rect.setWidth(2)
            p.fillRect(rect, FILL)
            p.fillRect(rect, QBrush(HATCH, Qt.BrushStyle.DiagCrossPattern))
            if self.edges:
                p.setPen(QPen(HATCH, 1))
                p.drawLine(rect.topLeft(), rect.bottomLeft())
                p.drawLine(rect.topRight(), rect.bottomRight())
        p.restore()


class MaskShading(QObject):
    """Keeps a :class:`MaskLayer` on the waveform and one on its overview in step with the spans.

    ``audio()``: the current conversation's open recording or None (its channels give the lanes).
    """

    changed = Signal()  # the ranges were recomputed

    def __init__(self, ctx: AppContext, waveform: WaveformView, audio: Callable[[], AudioSource | None]) -> None:
        super().__init__(waveform)
        self.ctx = ctx
        self.audio = audio
        self.ranges: list[MaskRange] = []
        self.error = ""
        self.layer = MaskLayer()
        self.ov_layer = MaskLayer(edges=False)
        waveform.plot.addItem(self.layer)
        waveform.overview.addItem(self.ov_layer)
        self.ctx.conversation_changed.connect(self.refresh)
        self.ctx.spans_changed.connect(self.refresh)
        self.refresh()

    def compute(self, conv: Conversation | None) -> list[MaskRange]:
        from redactdesk.audio import MaskError, mask_ranges
        from redactdesk.pipeline.audio_project import range_settings

        self.error = ""
        if conv is None or not conv.words:
            return []
        try:
            return mask_ranges(conv, **range_settings(self.ctx.project))
        except (MaskError, ValueError) as exc:  # bad settings or stale spans: say so, shade nothing
            self.error = str(exc)
            return []

    def refresh(self, *_args) -> None:
        conv = self.ctx.conversation
        self.ranges = self.compute(conv)
        source = self.audio()
        channels = source.channels if source is not None else ((conv.channels if conv else None) or 1)
        self.layer.set_ranges(self.ranges, channels)
        self.ov_layer.set_ranges(self.ranges, channels)
        if self.error:
            self.ctx.status(f"Masked ranges not shown: {self.error}", 8000)
        self.changed.emit()

    def set_visible(self, on: bool) -> None:
        self.layer.setVisible(on)
        self.ov_layer.setVisible(on)

    @property
    def seconds(self) -> float:
        return float(sum(r.end - r.start for r in self.ranges))


@dataclass
class ArraySource:
    """Samples in memory that the :class:`~redactdesk.gui.playback.Player` can play like a file.

    ``start`` is the time of sample 0 in the conversation, so the playhead moves over the right
    place of the waveform while a preview plays.
    """

    data: np.ndarray  # float32 (frames, channels)
    rate: int
    start: float = 0.0

    @property
    def channels(self) -> int:
        return int(self.data.shape[1])

    @property
    def frames(self) -> int:
        return int(self.data.shape[0])

    @property
    def duration(self) -> float:
        return self.start + self.frames / self.rate

    def read_seconds(self, t0: float, t1: float) -> np.ndarray:
        a = max(0, int(round((t0 - self.start) * self.rate)))
        b = max(a, int(round((t1 - self.start) * self.rate)))
        return self.data[a:b]
