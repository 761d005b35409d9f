"""Spans panel: the review list of the current conversation, in step with transcript and waveform."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from redactdesk.core.types import SpanStatus
from redactdesk.gui import style
from redactdesk.gui.panels import register_panel

SHOW = [("Open suggestions", (SpanStatus.SUGGESTED,)),
        ("All spans", tuple(SpanStatus)),
        ("Accepted", (SpanStatus.ACCEPTED,)),
        ("Rejected", (SpanStatus.REJECTED,))]


class SpansPanel(QWidget):
    """One row per span; selecting a row selects the span everywhere. Review keys work here too."""

    review_keys = True  # the main window adds the keyboard-review actions to this widget

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
        self.tree.setHeaderLabels(["Category", "Words", "Score", "Time", "Status"])
        self.tree.setRootIsDecorated(False)
        self.tree.setAlternatingRowColors(True)
        self.tree.setUniformRowHeights(True)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.tree.currentItemChanged.connect(self._picked)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addLayout(top)
        lay.addWidget(self.tree)
        self._syncing = False
        ctx.conversation_changed.connect(self.refresh)
        ctx.spans_changed.connect(self.refresh)
        ctx.selection_changed.connect(self._follow)
        self.refresh()

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
                    span.category, conv.span_text(span),
                    f"{span.score:.2f}" if span.status == SpanStatus.SUGGESTED else "",
                    style.fmt_time(t0, decimals=1), span.status.value])
                item.setIcon(0, style.swatch_icon(style.category_colour(self.ctx.taxonomy, span.category),
                                                  style.category_pattern(self.ctx.taxonomy, span.category)))
                item.setData(0, Qt.ItemDataRole.UserRole, span.id)
                item.setToolTip(1, span.reason or ", ".join(span.sources))
                if span.status == SpanStatus.REJECTED:
                    for c in range(5):
                        item.setForeground(c, Qt.GlobalColor.gray)
                self.tree.addTopLevelItem(item)
                n += 1
            open_ = sum(1 for s in conv.spans if s.status == SpanStatus.SUGGESTED)
            self.count.setText(f"{n} shown · {open_} open")
        else:
            self.count.setText("")
        for c in (0, 2, 3, 4):
            self.tree.resizeColumnToContents(c)
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
