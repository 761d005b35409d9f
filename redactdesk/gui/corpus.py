"""Corpus browser: every conversation with status, duration and span counts; filter and search."""

from __future__ import annotations

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QSortFilterProxyModel, Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from redactdesk.core.types import ConversationStatus
from redactdesk.gui import style

COLUMNS = ("Conversation", "Status", "Length", "Open", "Acc.", "Rej.")
HEADERS = ("ID", "Status", "Dur.", "Open", "Acc.", "Rej.")
SORT_ROLE = Qt.ItemDataRole.UserRole + 1
ID_ROLE = Qt.ItemDataRole.UserRole + 2
_ROOT = QModelIndex()
STATUS_SHORT = {"new": "new", "transcribed": "transcribed", "detected": "detected", "in_review": "in review",
                "reviewed": "reviewed", "signed_off": "signed off"}

FILTERS = [
    ("All conversations", None),
    ("With open suggestions", "open"),
    ("Not transcribed", ConversationStatus.NEW.value),
    ("Transcribed", ConversationStatus.TRANSCRIBED.value),
    ("Detected", ConversationStatus.DETECTED.value),
    ("In review", ConversationStatus.IN_REVIEW.value),
    ("Reviewed", ConversationStatus.REVIEWED.value),
    ("Signed off", ConversationStatus.SIGNED_OFF.value),
]


class CorpusModel(QAbstractTableModel):
    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.rows: list = []  # ConversationSummary
        self._icons = {k: style.dot_icon(v) for k, v in style.STATUS_COLOURS.items()}

    def set_rows(self, rows: list) -> None:
        self.beginResetModel()
        self.rows = list(rows)
        self.endResetModel()

    def rowCount(self, parent=_ROOT) -> int:
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent=_ROOT) -> int:
        return len(COLUMNS)

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return HEADERS[section]
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.ToolTipRole:
            return ("Conversation id", "Where it stands", "Duration", "Open suggestions",
                    "Accepted spans", "Rejected spans")[section]
        return None

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        r = self.rows[index.row()]
        col = index.column()
        if role == ID_ROLE:
            return r.id
        if role == Qt.ItemDataRole.DisplayRole:
            return (r.id, STATUS_SHORT.get(r.status, r.status), style.fmt_time(r.duration), str(r.suggested),
                    str(r.accepted), str(r.rejected))[col]
        if role == SORT_ROLE:
            return (r.id, r.status, r.duration or 0.0, r.suggested, r.accepted, r.rejected)[col]
        if role == Qt.ItemDataRole.DecorationRole and col == 1:
            return self._icons.get(r.status)
        if role == Qt.ItemDataRole.TextAlignmentRole and col >= 2:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ForegroundRole and col == 3 and r.suggested:
            return QColor("#9a6700")
        if role == Qt.ItemDataRole.ToolTipRole:
            return (f"{r.id} · {r.language} · {r.n_words} words · {r.suggested} open, {r.accepted} accepted, "
                    f"{r.rejected} rejected\n{r.audio_path or 'no audio'}")
        return None

    def row_of(self, conversation_id: str) -> int:
        for i, r in enumerate(self.rows):
            if r.id == conversation_id:
                return i
        return -1


class CorpusFilter(QSortFilterProxyModel):
    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.status: str | None = None
        self.text = ""
        self.setSortRole(SORT_ROLE)

    def set_status(self, status: str | None) -> None:
        self._refilter(lambda: setattr(self, "status", status))

    def set_text(self, text: str) -> None:
        self._refilter(lambda: setattr(self, "text", text.strip().lower()))

    def _refilter(self, change) -> None:
        if hasattr(self, "beginFilterChange"):  # Qt >= 6.10
            self.beginFilterChange()
            change()
            self.endFilterChange(QSortFilterProxyModel.Direction.Rows)
        else:
            change()
            self.invalidateFilter()

    def filterAcceptsRow(self, row: int, parent) -> bool:
        r = self.sourceModel().rows[row]
        if self.status == "open" and not r.suggested:
            return False
        if self.status not in (None, "open") and r.status != self.status:
            return False
        if self.text and self.text not in f"{r.id} {r.language} {r.status} {r.audio_path or ''}".lower():
            return False
        return True


class CorpusBrowser(QWidget):
    """The list of conversations; activating one emits ``conversation_chosen(id)``."""

    conversation_chosen = Signal(str)

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.model = CorpusModel(self)
        self.proxy = CorpusFilter(self)
        self.proxy.setSourceModel(self.model)
        self.search = QLineEdit()
        self.search.setObjectName("corpusSearch")
        self.search.setPlaceholderText("Search conversations…")
        self.search.setClearButtonEnabled(True)
        self.search.textChanged.connect(self.proxy.set_text)
        self.filter = QComboBox()
        self.filter.setObjectName("corpusFilter")
        for label, value in FILTERS:
            self.filter.addItem(label, value)
        self.filter.currentIndexChanged.connect(lambda i: self.proxy.set_status(self.filter.itemData(i)))
        self.table = QTableView()
        self.table.setObjectName("corpusTable")
        self.table.setModel(self.proxy)
        self.table.setSortingEnabled(True)
        self.table.sortByColumn(0, Qt.SortOrder.AscendingOrder)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.table.setAlternatingRowColors(True)
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setDefaultSectionSize(24)
        self.table.setShowGrid(False)
        self.table.setWordWrap(False)
        self.table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        head = self.table.horizontalHeader()
        head.setMinimumSectionSize(30)
        head.setStretchLastSection(False)
        head.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for c, width in enumerate((0, 96, 48, 48, 40, 38)):
            if c:
                head.setSectionResizeMode(c, QHeaderView.ResizeMode.Fixed)
                head.resizeSection(c, width)
        self.table.activated.connect(self._activated)
        self.table.clicked.connect(self._activated)
        self.summary = QLabel()
        self.summary.setObjectName("muted")
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.setSpacing(4)
        lay.addWidget(self.search)
        row = QHBoxLayout()
        row.addWidget(self.filter, 1)
        lay.addLayout(row)
        lay.addWidget(self.table, 1)
        lay.addWidget(self.summary)

    def set_rows(self, rows: list, current: str | None = None) -> None:
        self.model.set_rows(rows)
        total = sum((r.duration or 0.0) for r in rows)
        open_ = sum(r.suggested for r in rows)
        self.summary.setText(f"{len(rows)} conversations · {style.fmt_time(total)} · {open_} open suggestions")
        if current:
            self.mark_current(current)

    def mark_current(self, conversation_id: str) -> None:
        row = self.model.row_of(conversation_id)
        if row < 0:
            return
        index = self.proxy.mapFromSource(self.model.index(row, 0))
        if index.isValid():
            sel = self.table.selectionModel()
            sel.blockSignals(True)
            self.table.selectRow(index.row())
            sel.blockSignals(False)
            self.table.scrollTo(index)

    def selected_ids(self) -> list[str]:
        rows = {i.row() for i in self.table.selectionModel().selectedRows()}
        return [self.proxy.index(r, 0).data(ID_ROLE) for r in sorted(rows)]

    def _activated(self, index) -> None:
        if index.isValid():
            self.conversation_chosen.emit(index.data(ID_ROLE))
