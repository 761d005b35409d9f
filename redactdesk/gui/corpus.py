"""Corpus browser: every conversation with status, duration, span counts and release gate; filter and search.

The badge in the Status column is the conversation's release gate (:mod:`redactdesk.risk.gate`), with the
latest sign-off's exclusions and written overrides applied: green tick ready, red cross blocked
(N open, not detected, not reviewed, no words), amber "!" released by override, grey dash excluded;
its tooltip says which, and the filter "Not ready for release" lists the blocked ones. (A badge in
place of the status colour dot, not a column of its own: the dock must not get wider.)
"""

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
from redactdesk.risk.gate import REVIEWED_STATUSES, ConversationGate

COLUMNS = ("Conversation", "Status", "Length", "Open", "Acc.", "Rej.")
HEADERS = ("ID", "Status", "Dur.", "Open", "Acc.", "Rej.")
WIDTHS = (0, 96, 48, 48, 40, 38)  # 0: stretches
NARROW = ((380, (4, 5)), (330, (2,)))  # below this many pixels these columns fold away (Acc./Rej., then Dur.)
NARROW_STATUS = (330, 66)  # below this many pixels the Status column (gate badge + status) gets this narrow
SORT_ROLE = Qt.ItemDataRole.UserRole + 1
ID_ROLE = Qt.ItemDataRole.UserRole + 2
GATE_ROLE = Qt.ItemDataRole.UserRole + 3  # the ConversationGate of a row
GATE_TEXT_ROLE = Qt.ItemDataRole.UserRole + 4  # its short label: ready, 16 open, not reviewed, excluded, ...
_ROOT = QModelIndex()
STATUS_SHORT = {"new": "new", "transcribed": "transcribed", "detected": "detected", "in_review": "in review",
                "reviewed": "reviewed", "signed_off": "signed off"}

FILTERS = [
    ("All conversations", None),
    ("With open suggestions", "open"),
    ("Not ready for release", "not_ready"),
    ("Not transcribed", ConversationStatus.NEW.value),
    ("Transcribed", ConversationStatus.TRANSCRIBED.value),
    ("Detected", ConversationStatus.DETECTED.value),
    ("In review", ConversationStatus.IN_REVIEW.value),
    ("Reviewed", ConversationStatus.REVIEWED.value),
    ("Signed off", ConversationStatus.SIGNED_OFF.value),
]


def conversation_gate(row, excluded=(), overrides=None) -> ConversationGate:
    """The release gate of one corpus row (a ``ConversationSummary``), as ``release_readiness`` builds it."""
    overrides = overrides or {}
    return ConversationGate(id=row.id, words=int(row.n_words), suggested=int(row.suggested),
                            accepted=int(row.accepted), rejected=int(row.rejected),
                            detected=bool(getattr(row, "detected_at", None)),
                            reviewed=row.status in REVIEWED_STATUSES, excluded=row.id in set(excluded),
                            override=overrides.get(row.id))


def gate_kind(gate: ConversationGate) -> str:
    """ready, blocked, override or excluded (the badge)."""
    if gate.excluded:
        return "excluded"
    if gate.ready:
        return "ready"
    return "override" if gate.override is not None else "blocked"


def gate_text(gate: ConversationGate) -> tuple[str, str]:
    """(short label, colour) of a conversation's release gate."""
    if gate.excluded:
        return "excluded", style.MUTED
    if gate.ready:
        return "ready", style.GOOD
    if gate.override is not None:
        return "override", style.WARN
    if gate.words == 0:
        return "no words", style.BAD
    if not gate.detected:
        return "not detected", style.BAD
    if gate.suggested:
        return f"{gate.suggested} open", style.BAD
    return "not reviewed", style.BAD


def gate_tooltip(gate: ConversationGate) -> str:
    if gate.excluded:
        return "Release: excluded (left out of the release by the sign-off)"
    if gate.ready:
        return "Release: ready (transcribed, detected, every suggestion decided, reviewed)"
    why = ", ".join(gate.problems)
    if gate.override is not None:
        return f"Release: by a reviewer's written override although {why}\nReason: {gate.override}"
    return (f"Release: blocked ({why}). Review it (Ctrl+Shift+R marks it reviewed once nothing is open), "
            "or exclude it / record an override when signing off.")


def readiness_text(readiness) -> tuple[str, str]:
    """(one line, colour) for a :class:`~redactdesk.risk.gate.Readiness`: red while anything is blocked."""
    if not readiness.conversations:
        return "no conversations yet", style.MUTED
    if readiness.blocked or not readiness.included:
        return readiness.summary_line(), style.BAD
    return readiness.summary_line(), style.WARN if readiness.overridden else style.GOOD


class CorpusModel(QAbstractTableModel):
    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.rows: list = []  # ConversationSummary
        self.gates: list[ConversationGate] = []
        self._gate_icons = {k: style.gate_icon(k) for k in ("ready", "blocked", "override", "excluded")}

    def set_rows(self, rows: list, excluded=(), overrides=None) -> None:
        self.beginResetModel()
        self.rows = list(rows)
        excluded = set(excluded)
        self.gates = [conversation_gate(r, excluded, overrides) for r in self.rows]
        self.endResetModel()

    def rowCount(self, parent=_ROOT) -> int:
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent=_ROOT) -> int:
        return len(COLUMNS)

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return HEADERS[section]
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.ToolTipRole:
            return ("Conversation id",
                    "Where it stands; the badge is its release gate: ✓ ready, ✕ blocked, ! override, – excluded",
                    "Duration", "Open suggestions", "Accepted spans", "Rejected spans")[section]
        return None

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        r = self.rows[index.row()]
        gate = self.gates[index.row()]
        col = index.column()
        if role == ID_ROLE:
            return r.id
        if role == GATE_ROLE:
            return gate
        if role == GATE_TEXT_ROLE:
            return gate_text(gate)[0]
        if role == Qt.ItemDataRole.DisplayRole:
            return (r.id, STATUS_SHORT.get(r.status, r.status), style.fmt_time(r.duration), str(r.suggested),
                    str(r.accepted), str(r.rejected))[col]
        if role == SORT_ROLE:
            return (r.id, r.status, r.duration or 0.0, r.suggested, r.accepted, r.rejected)[col]
        if role == Qt.ItemDataRole.DecorationRole and col == 1:
            return self._gate_icons[gate_kind(gate)]
        if role == Qt.ItemDataRole.TextAlignmentRole and col >= 2:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ForegroundRole and col == 3 and r.suggested:
            return QColor("#9a6700")
        if role == Qt.ItemDataRole.ToolTipRole:
            return (f"{r.id} · {r.language} · {r.n_words} words · {r.suggested} open, {r.accepted} accepted, "
                    f"{r.rejected} rejected\n{r.audio_path or 'no audio'}\n{gate_tooltip(gate)}")
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
        if self.status == "not_ready":
            gate = self.sourceModel().gates[row]
            return not (gate.ready or gate.excluded) and self._text_ok(r)
        if self.status not in (None, "open") and r.status != self.status:
            return False
        return self._text_ok(r)

    def _text_ok(self, r) -> bool:
        return not self.text or self.text in f"{r.id} {r.language} {r.status} {r.audio_path or ''}".lower()


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
        for c, width in enumerate(WIDTHS):
            if c:
                head.setSectionResizeMode(c, QHeaderView.ResizeMode.Fixed)
                head.resizeSection(c, width)
        self.table.activated.connect(self._activated)
        self.table.clicked.connect(self._activated)
        self.summary = QLabel()
        self.summary.setObjectName("muted")
        self.summary.setWordWrap(True)  # a long summary wraps instead of widening the dock
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.setSpacing(4)
        lay.addWidget(self.search)
        row = QHBoxLayout()
        row.addWidget(self.filter, 1)
        lay.addLayout(row)
        lay.addWidget(self.table, 1)
        lay.addWidget(self.summary)

    def resizeEvent(self, event) -> None:
        """A narrow dock (a 1024 px window) folds the least needed columns away so the IDs stay readable."""
        super().resizeEvent(event)
        width = self.width()
        hidden = {c for limit, cols in NARROW if width < limit for c in cols}
        for c in range(1, len(WIDTHS)):
            self.table.setColumnHidden(c, c in hidden)
        status = NARROW_STATUS[1] if width < NARROW_STATUS[0] else WIDTHS[1]
        if self.table.horizontalHeader().sectionSize(1) != status:
            self.table.horizontalHeader().resizeSection(1, status)

    def set_rows(self, rows: list, current: str | None = None, *, excluded=(), overrides=None) -> None:
        """Show ``rows``; ``excluded``/``overrides`` are the latest sign-off's (for the Release column)."""
        self.model.set_rows(rows, excluded, overrides)
        total = sum((r.duration or 0.0) for r in rows)
        open_ = sum(r.suggested for r in rows)
        ready = sum(g.ready and not g.excluded for g in self.model.gates)
        included = sum(not g.excluded for g in self.model.gates)
        self.summary.setText(f"{len(rows)} conversations · {style.fmt_time(total)} · {open_} open suggestions · "
                             f"{ready} of {included} ready for release")
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
