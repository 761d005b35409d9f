"""Spans panel: the review list of the current conversation, in step with transcript and waveform."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from redactdesk.core.types import SpanStatus
from redactdesk.gui import style
from redactdesk.gui.panels import register_panel

GLYPHS = {SpanStatus.SUGGESTED: "•", SpanStatus.ACCEPTED: "✓", SpanStatus.REJECTED: "✗"}
GLYPH_COLOURS = {SpanStatus.SUGGESTED: "#9a6700", SpanStatus.ACCEPTED: "#1a7f37", SpanStatus.REJECTED: "#cf222e"}

SHOW = [("Open suggestions", (SpanStatus.SUGGESTED,)),
        ("All spans", tuple(SpanStatus)),
        ("Accepted", (SpanStatus.ACCEPTED,)),
        ("Rejected", (SpanStatus.REJECTED,))]


class SpansPanel(QWidget):
    """One row per span; selecting a row selects the span everywhere. Review keys work here too."""


    def __init__(self, ctx) -> None:
        super().__init__()
        self.ctx = ctx
        self.show_combo = QComboBox()
        self.show_combo.setObjectName("spansShow")
        for label, statuses in SHOW:
            self.show_combo.addItem(label, statuses)
        self.show_combo.setCurrentIndex(1)
        self.show_combo.currentIndexChanged.connect(self.refresh)
        self.count = QLabel()
        self.count.setObjectName("muted")
        top = QHBoxLayout()
        top.addWidget(self.show_combo)
        top.addStretch(1)
        top.addWidget(self.count)
        self.tree = QTreeWidget()
        self.tree.setObjectName("spansTree")
        self.tree.setHeaderLabels(["", "Category", "Words", "Score", "Time"])
        self.tree.setRootIsDecorated(False)
        self.tree.setAlternatingRowColors(True)
        self.tree.setUniformRowHeights(True)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.tree.currentItemChanged.connect(self._picked)
        self.review_keys_target = self.tree  # review keys work in the list (not in the combo box)
        head = self.tree.header()
        head.setStretchLastSection(False)
        head.setMinimumSectionSize(16)
        for c in (0, 1, 3, 4):
            head.setSectionResizeMode(c, QHeaderView.ResizeMode.ResizeToContents)
        head.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addLayout(top)
        lay.addWidget(self.tree)
        self._syncing = False
        ctx.conversation_changed.connect(self.refresh)
        ctx.spans_changed.connect(self.refresh)
        ctx.selection_changed.connect(self._follow)
        self.refresh()

    def resizeEvent(self, event) -> None:
        """A narrow dock (a 1024 px window) folds the time away and shortens the category so the
        words stay readable."""
        super().resizeEvent(event)
        narrow = self.width() < 340
        head = self.tree.header()
        self.tree.setColumnHidden(4, narrow)
        mode = QHeaderView.ResizeMode.Interactive if narrow else QHeaderView.ResizeMode.ResizeToContents
        if head.sectionResizeMode(1) != mode:
            head.setSectionResizeMode(1, mode)
            if narrow:
                head.resizeSection(1, 104)

    def refresh(self, *_args) -> None:
        self._syncing = True
        self.tree.clear()
        conv = self.ctx.conversation
        statuses = self.show_combo.currentData() or tuple(SpanStatus)
        n = 0
        if conv is not None:
            for span in conv.spans:
                if span.status not in statuses:
                    continue
                t0, t1 = conv.span_times(span)
                item = QTreeWidgetItem([
                    GLYPHS[span.status], span.category, conv.span_text(span),
                    f"{span.score:.2f}" if span.status == SpanStatus.SUGGESTED else "",
                    style.fmt_time(t0, decimals=1)])
                item.setIcon(1, style.swatch_icon(style.category_colour(self.ctx.taxonomy, span.category),
                                                  style.category_pattern(self.ctx.taxonomy, span.category)))
                item.setData(0, Qt.ItemDataRole.UserRole, span.id)
                item.setToolTip(0, span.status.value)
                item.setToolTip(2, span.reason or ", ".join(span.sources))
                item.setForeground(0, QColor(GLYPH_COLOURS[span.status]))
                if span.status == SpanStatus.REJECTED:
                    for c in range(1, 5):
                        item.setForeground(c, QColor("#8c959f"))
                self.tree.addTopLevelItem(item)
                n += 1
            open_ = sum(1 for s in conv.spans if s.status == SpanStatus.SUGGESTED)
            self.count.setText(f"{n} shown · {open_} open")
        else:
            self.count.setText("")
        self._syncing = False
        self._follow(self.ctx.current_span_id, None)

    def _follow(self, span_id, _word) -> None:
        self._syncing = True
        try:
            for i in range(self.tree.topLevelItemCount()):
                item = self.tree.topLevelItem(i)
                if item.data(0, Qt.ItemDataRole.UserRole) == span_id:
                    self.tree.setCurrentItem(item)
                    self.tree.scrollToItem(item)
                    return
            self.tree.setCurrentItem(None)
        finally:
            self._syncing = False

    def _picked(self, item, _prev) -> None:
        if self._syncing or item is None:
            return
        self.ctx.select(item.data(0, Qt.ItemDataRole.UserRole))


register_panel("spans", "Spans", SpansPanel, area="right", order=10)
