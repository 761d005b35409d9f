"""Find in transcripts (Ctrl+Shift+F): every place a word or phrase occurs, across the project's calls.

A concordance as linguists know it (keyword in context): one row per place, with the conversation,
turn, speaker and time, the words before, the match, the words after. Enter or a double-click opens
the call at those words (framed in the transcript and the waveform, as export refusals are) and gives
the keyboard back to the review; the window stays open for the next row. The search runs in the
project file (:func:`redactdesk.store.search.find_words` over an index of the folded words kept
between searches), never by loading the calls into the views.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QFont, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QStyledItemDelegate,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
)

from redactdesk.gui import style
from redactdesk.store.search import TranscriptIndex, find_words

LIMIT = 500
_HIT = Qt.ItemDataRole.UserRole + 1


class _LeftElided(QStyledItemDelegate):
    """The words before a match are cut on the left, so those next to it stay readable (a concordance)."""

    def initStyleOption(self, option, index) -> None:  # noqa: N802 - Qt's name
        super().initStyleOption(option, index)
        option.textElideMode = Qt.TextElideMode.ElideLeft


class _QueryEdit(QLineEdit):
    """The query line: ↓ goes to the results, Enter searches at once (the dialog decides the rest)."""

    def __init__(self, dialog: TranscriptSearch) -> None:
        super().__init__()
        self.dialog = dialog

    def keyPressEvent(self, event) -> None:
        if event.key() == Qt.Key.Key_Down and self.dialog.results.topLevelItemCount():
            self.dialog.focus_results()
            return
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.dialog.search_now(focus_results=True)
            return
        super().keyPressEvent(event)


class TranscriptSearch(QDialog):
    """The find window of one main window (non-modal, kept between uses)."""

    def __init__(self, window) -> None:
        super().__init__(window)
        self.window_ = window
        self.setObjectName("transcriptSearch")
        self.setWindowTitle("Find in transcripts")
        self.setModal(False)
        self.query = _QueryEdit(self)
        self.query.setObjectName("searchQuery")
        self.query.setPlaceholderText("Words to find in every call (case, accents and punctuation ignored)")
        self.query.setClearButtonEnabled(True)
        self.summary = QLabel("")
        self.summary.setObjectName("muted")
        self.results = QTreeWidget()
        self.results.setObjectName("searchResults")
        self.results.setColumnCount(6)
        self.results.setHeaderLabels(["Conversation", "Turn", "Time", "Before", "Found", "After"])
        self.results.setRootIsDecorated(False)
        self.results.setUniformRowHeights(True)
        self.results.setAlternatingRowColors(True)
        self.results.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.results.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        header = self.results.header()
        header.setStretchLastSection(True)
        for col in (0, 1, 2, 4):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(3, QHeaderView.ResizeMode.Interactive)
        self.results.setColumnWidth(3, 220)
        self.results.setItemDelegateForColumn(3, _LeftElided(self.results))
        self.results.itemActivated.connect(lambda item, _col: self.open_item(item))  # Enter, double-click
        hint = QLabel("Enter or double-click: open the call at the words · ↓ from the query: the results · Esc: close")
        hint.setObjectName("muted")
        hint.setWordWrap(True)
        top = QHBoxLayout()
        top.addWidget(QLabel("Find"))
        top.addWidget(self.query, 1)
        lay = QVBoxLayout(self)
        lay.addLayout(top)
        lay.addWidget(self.summary)
        lay.addWidget(self.results, 1)
        lay.addWidget(hint)
        self.index = TranscriptIndex()  # kept between searches; calls changed since are read again
        self._timer = QTimer(self, singleShot=True, interval=250)
        self._timer.timeout.connect(self.search_now)
        self.query.textChanged.connect(lambda _t: self._timer.start())
        self.resize(860, 440)

    # ------------------------------------------------------------------ searching
    def open_search(self, text: str | None = None) -> None:
        """Show the window with the query focused (``text`` pre-filled when given)."""
        if text:
            self.query.setText(text)
        self.show()
        self.raise_()
        self._focus_query(select=True)
        text = self.query.text()  # once the window is up (window managers activate late); keep what was typed
        QTimer.singleShot(0, lambda: self._focus_query(select=self.query.text() == text))

    def _focus_query(self, *, select: bool) -> None:
        self.activateWindow()
        self.query.setFocus(Qt.FocusReason.ShortcutFocusReason)
        if select:
            self.query.selectAll()

    def search_now(self, *, focus_results: bool = False) -> None:
        self._timer.stop()
        text = self.query.text()
        self.results.clear()
        if not text.strip():
            self.summary.setText("")
            return
        try:
            hits, more = find_words(self.window_.project, text, limit=LIMIT, index=self.index)
        except Exception as exc:  # a busy or closed project: say so, keep the window usable
            self.summary.setText(f"Search failed: {type(exc).__name__}")
            return
        bold = QFont(self.results.font())
        bold.setBold(True)
        for hit in hits:
            time = style.fmt_time(hit.start, decimals=1)
            turn = "" if hit.turn is None else f"{hit.turn}" + (f" · {hit.speaker}" if hit.speaker else "")
            item = QTreeWidgetItem([hit.conversation_id, turn, time, hit.before, hit.text, hit.after])
            item.setData(0, _HIT, (hit.conversation_id, hit.start_word, hit.end_word))
            item.setTextAlignment(3, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            item.setFont(4, bold)
            self.results.addTopLevelItem(item)
        calls = len({h.conversation_id for h in hits})
        if not hits:
            self.summary.setText("Not found in any transcript")
        else:
            self.summary.setText(f"{len(hits)}{'+' if more else ''} place(s) in {calls} conversation(s)"
                                 + (f" — the first {LIMIT} are listed; type more words to narrow" if more else ""))
        if hits:
            self.results.setCurrentItem(self.results.topLevelItem(0))
            if focus_results:
                self.focus_results()

    def focus_results(self) -> None:
        if self.results.currentItem() is None and self.results.topLevelItemCount():
            self.results.setCurrentItem(self.results.topLevelItem(0))
        self.results.setFocus(Qt.FocusReason.OtherFocusReason)

    # ------------------------------------------------------------------ opening
    def open_item(self, item: QTreeWidgetItem | None) -> None:
        """Open the call at the words of ``item`` and give the keyboard to the review."""
        if item is None:
            return
        cid, start, end = item.data(0, _HIT)
        win = self.window_
        ctx = win.ctx
        ctx.reveal(cid, start, end)  # opens the call (stopping playback), frames the words
        win.activateWindow()
        win.raise_()
        QTimer.singleShot(0, win.focus_review)
        ctx.status(f"{cid}: words {start + 1}–{end} (Ctrl+Shift+F: back to the results)", 6000)


def install(window) -> TranscriptSearch:
    """The find window and its action (Edit ▸ Find in transcripts…, Ctrl+Shift+F) on ``window``."""
    dialog = TranscriptSearch(window)
    act = window._action("Find in &transcripts…", dialog.open_search, [QKeySequence("Ctrl+Shift+F")],
                         name="act_find_text", tip="Find words in every call's transcript (a concordance)")
    for action in window.menuBar().actions():
        if action.menu() is not None and action.text().replace("&", "") == "Edit":
            action.menu().addAction(act)
    window.act_find_text = act
    window.search_window = dialog
    return dialog
