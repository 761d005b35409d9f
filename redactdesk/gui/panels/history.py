"""History panel: the last 50 entries of the project's audit log (who did what, as which role)."""

from __future__ import annotations

from datetime import datetime

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QHBoxLayout,
    QLabel,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from redactdesk.gui.panels import register_panel

LIMIT = 50

_PRETTY = {
    "accept": "Accepted", "reject": "Rejected", "reopen": "Reopened", "recategorise": "Changed category",
    "resize": "Resized", "create": "Marked", "delete": "Deleted", "import": "Imported",
    "detect": "Detected", "transcribe": "Transcribed", "signoff": "Signed off",
}


def describe(action: str) -> str:
    """A readable name for an audit action such as ``undo_accept``."""
    for prefix, word in (("undo_", "Undo: "), ("redo_", "Redo: ")):
        if action.startswith(prefix):
            return word + describe(action[len(prefix):]).lower()
    return _PRETTY.get(action, action.replace("_", " ").capitalize())


def _clock(at: str) -> str:
    try:
        return datetime.fromisoformat(at).astimezone().strftime("%H:%M:%S")
    except ValueError:
        return at


class HistoryPanel(QWidget):
    """Newest first; double-click an entry to jump to its conversation and span."""

    def __init__(self, ctx) -> None:
        super().__init__()
        self.ctx = ctx
        self.only_current = QCheckBox("This conversation only")
        self.only_current.toggled.connect(self.refresh)
        self.count = QLabel()
        self.count.setObjectName("muted")
        top = QHBoxLayout()
        top.addWidget(self.only_current)
        top.addStretch(1)
        top.addWidget(self.count)
        self.tree = QTreeWidget()
        self.tree.setObjectName("historyTree")
        self.tree.setHeaderLabels(["Time", "Action", "Detail", "Who"])
        self.tree.setRootIsDecorated(False)
        self.tree.setAlternatingRowColors(True)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.tree.setUniformRowHeights(True)
        self.tree.itemActivated.connect(self._jump)
        self.tree.itemDoubleClicked.connect(self._jump)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addLayout(top)
        lay.addWidget(self.tree)
        self._closed = False
        self._timer = QTimer(self, singleShot=True, interval=50)
        self._timer.timeout.connect(self.refresh)
        ctx.spans_changed.connect(self._timer.start)
        ctx.corpus_changed.connect(self._timer.start)
        ctx.conversation_changed.connect(self._timer.start)
        ctx.closing.connect(self._close)
        self.refresh()

    def _close(self) -> None:
        if self._closed:  # the context may announce closing more than once
            return
        self._closed = True
        self._timer.stop()
        for sig in (self.ctx.spans_changed, self.ctx.corpus_changed, self.ctx.conversation_changed):
            sig.disconnect(self._timer.start)

    def entries(self):
        conv = self.ctx.conversation.id if (self.only_current.isChecked() and self.ctx.conversation) else None
        return self.ctx.project.audit_log(conversation_id=conv, limit=LIMIT)

    def refresh(self) -> None:
        self.tree.clear()
        entries = self.entries()
        for d in entries:
            span = d.after or d.before or {}
            detail = []
            if d.conversation_id:
                detail.append(d.conversation_id)
            if isinstance(span, dict) and span.get("category"):
                cat = span["category"]
                if d.before and d.after and d.before.get("category") != d.after.get("category"):
                    cat = f"{d.before.get('category')} → {d.after.get('category')}"
                detail.append(cat)
            item = QTreeWidgetItem([_clock(d.at), describe(d.action), " · ".join(detail),
                                    f"{d.actor} ({d.role.value})"])
            item.setData(0, Qt.ItemDataRole.UserRole, (d.conversation_id, d.span_id))
            item.setToolTip(1, d.action)
            self.tree.addTopLevelItem(item)
        for col in range(3):
            self.tree.resizeColumnToContents(col)
        self.count.setText(f"last {len(entries)}")

    def _jump(self, item: QTreeWidgetItem) -> None:
        conv_id, span_id = item.data(0, Qt.ItemDataRole.UserRole)
        if not conv_id or not self.ctx.project.has_conversation(conv_id):
            return
        if self.ctx.conversation is None or self.ctx.conversation.id != conv_id:
            self.ctx.open_conversation(conv_id)
        if span_id is not None:
            self.ctx.select(span_id)


register_panel("history", "History", HistoryPanel, area="right", order=90)
