"""Active learning in the app: a queue of what to label next and the model's learning curve.

Two panels share one :class:`ALController` per window (kept on the context):

- **Label next** (``al_queue``): the utterances the model most wants labelled, with the strategy's
  score and the margin to the next-best label (INCEpTION); the strategy selector; "No personal
  data here" marks a turn labelled; double-click opens the turn.
- **Model** (``al_model``): the learning curve (cross-validated F1 per stored version, pyqtgraph),
  per-category F1 of the current version, the stopping hint, and a Retrain button.

Training never blocks the window: the project is read on the GUI thread
(``ActiveLearner.prepare_retrain``), the model is fitted in ``ctx.run_job``, and the new version
is stored back on the GUI thread. After every ``batch`` newly labelled utterances the model
retrains by itself (when "Retrain after each batch" is on).
"""

from __future__ import annotations

import os
from typing import Any

import pyqtgraph as pg
from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSpinBox,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from redactdesk.gui.panels import register_panel
from redactdesk.learn.errors import LearnError
from redactdesk.learn.selection import QUERY_STRATEGIES
from redactdesk.learn.service import ActiveLearner, QueueItem

STRATEGY_LABELS = {
    "random": "Random (passive)",
    "t-sum": "Uncertainty: H Sum",
    "t-kmax": "Uncertainty: H K-Max",
    "t-sum*s-sum": "Uncertainty x source model (H Sum)",
    "t-kmax*s-sum": "Uncertainty (K-Max) x source model",
    "kmeans+t-sum": "K-means + uncertainty (Eq. 1)",
    "diverse+t-sum": "Uncertainty (H Sum), no near-duplicates",
    "diverse+t-kmax": "Uncertainty (H K-Max), no near-duplicates",
}
PREVIEW_WORDS = 12


class ALController(QObject):
    """One ActiveLearner per window, with background retraining and queue refreshes."""

    queue_changed = Signal()
    model_changed = Signal()
    busy_changed = Signal(bool)
    counts_changed = Signal()

    def __init__(self, ctx: Any, batch: int = 10) -> None:
        super().__init__(ctx)
        self.ctx = ctx
        self.learner = ActiveLearner(ctx.project, batch=batch)
        self.items: list[QueueItem] = []
        self.auto_retrain = True
        self.busy = False
        self._closed = False
        self._pending_queue = False
        self._pending_retrain = False
        self._pending_labels = False
        self.trained_at = self.learner.versions()[-1].n_labelled if self.learner.versions() else 0
        self.counts = self.learner.counts()
        self._dirty: set[str] = set()
        self._timer = QTimer(self, singleShot=True, interval=400)
        self._timer.timeout.connect(self.on_labels_changed)
        ctx.spans_changed.connect(self._spans_changed)
        ctx.closing.connect(self._close)

    def _spans_changed(self) -> None:
        if self.ctx.conversation is not None:
            self._dirty.add(self.ctx.conversation.id)
        self._timer.start()

    def _close(self) -> None:
        self._closed = True
        self._timer.stop()

    # ------------------------------------------------------------------ labels
    def on_labels_changed(self) -> None:
        """Re-read the current conversation's turns; retrain once a batch of new labels exists."""
        if self._closed:
            return
        if self.busy:  # the learner's caches belong to the running job until it ends
            self._pending_labels = True
            return
        dirty, self._dirty = self._dirty, set()
        for cid in sorted(dirty):
            try:
                self.learner.update_conversation(self.ctx.project.load_conversation(cid))
            except Exception:  # deleted meanwhile: a full re-read sorts it out
                self.learner.refresh()
        self.counts = self.learner.counts()
        self.counts_changed.emit()
        labelled_ids = {(u.conversation_id, u.turn_index) for u in self.learner.utterances() if u.labelled}
        if any((i.conversation_id, i.turn_index) in labelled_ids for i in self.items):
            self.items = [i for i in self.items if (i.conversation_id, i.turn_index) not in labelled_ids]
            self.queue_changed.emit()
        if self.auto_retrain and self.counts["labelled"] - self.trained_at >= self.learner.batch:
            self.retrain()

    def mark_labelled(self, item: QueueItem) -> None:
        self.learner.mark_labelled(item.conversation_id, item.turn_index)
        if self.busy:
            self._pending_labels = True
            return
        self.learner.refresh()
        self.on_labels_changed()

    # ------------------------------------------------------------------ background work
    def _set_busy(self, busy: bool) -> None:
        self.busy = busy
        self.busy_changed.emit(busy)

    def refresh_queue(self) -> None:
        """Rescore the pool in the background and show the next batch."""
        if self._closed:
            return
        if self.busy:
            self._pending_queue = True
            return
        self.learner.refresh()
        self._set_busy(True)
        learner = self.learner

        def work(job: Any) -> list[QueueItem]:
            return learner.queue(refresh=False)

        self.ctx.run_job("Choosing what to label next", work, self._queue_done, self._failed)

    def _queue_done(self, items: list[QueueItem]) -> None:
        self._set_busy(False)
        if self._closed:
            return
        self.items = list(items)
        self.queue_changed.emit()
        self._run_pending()

    def retrain(self) -> None:
        """Retrain on every labelled utterance in the background; then refresh the queue."""
        if self._closed:
            return
        if self.busy:
            self._pending_retrain = True
            return
        try:
            train = self.learner.prepare_retrain()
        except LearnError as exc:
            self.ctx.status(str(exc))
            return
        self._set_busy(True)
        self.trained_at = self.learner.counts()["labelled"]

        def work(job: Any) -> Any:
            job.report(0.1, None, "training")
            return train()

        self.ctx.run_job("Training the active-learning model", work, self._trained, self._failed)

    def _trained(self, result: Any) -> None:
        self._set_busy(False)
        if self._closed:
            return
        version = self.learner.commit(result)
        f1 = "n/a" if version.f1 is None else f"{version.f1:.3f}"
        self.ctx.status(f"Model v{version.id}: {version.n_labelled} labelled utterances, F1 {f1}")
        self.model_changed.emit()
        if self._pending_labels or self._pending_retrain:
            self._pending_queue = True
            self._run_pending()
        else:
            self.refresh_queue()

    def _failed(self, message: str) -> None:
        self._set_busy(False)
        if not self._closed:
            self.ctx.error("Active learning", message)
            self._run_pending()

    def _run_pending(self) -> None:
        if self._pending_labels:
            self._pending_labels = False
            self.learner.refresh()
            self.on_labels_changed()
            if self.busy:
                return
        if self._pending_retrain:
            self._pending_retrain = False
            self.retrain()
        elif self._pending_queue:
            self._pending_queue = False
            self.refresh_queue()


def controller_for(ctx: Any) -> ALController:
    ctl = getattr(ctx, "_al_controller", None)
    if ctl is None:
        ctl = ALController(ctx)
        ctx._al_controller = ctl
    return ctl


class QueuePanel(QWidget):
    """The next utterances to label, best first."""

    def __init__(self, ctx: Any) -> None:
        super().__init__()
        self.ctx = ctx
        self.ctl = controller_for(ctx)
        learner = self.ctl.learner
        self.strategy = QComboBox()
        self.strategy.setObjectName("alStrategy")
        specs = list(dict.fromkeys([learner.strategy.spec, *STRATEGY_LABELS, *QUERY_STRATEGIES]))
        for spec in specs:
            self.strategy.addItem(STRATEGY_LABELS.get(spec, spec), spec)
        self.strategy.setCurrentIndex(specs.index(learner.strategy.spec))
        self.strategy.setToolTip("How the next utterances are chosen (seed 004: uncertainty, transfer, diversity)")
        self.strategy.currentIndexChanged.connect(self._strategy_changed)
        self.batch = QSpinBox()
        self.batch.setRange(1, 500)
        self.batch.setValue(learner.batch)
        self.batch.setPrefix("batch ")
        self.batch.valueChanged.connect(self._batch_changed)
        top = QHBoxLayout()
        top.addWidget(self.strategy, 1)
        top.addWidget(self.batch)
        self.counts = QLabel()
        self.counts.setObjectName("muted")
        self.tree = QTreeWidget()
        self.tree.setObjectName("alQueue")
        self.tree.setHeaderLabels(["Conversation", "Turn", "Score", "Margin", "Words"])
        self.tree.setRootIsDecorated(False)
        self.tree.setAlternatingRowColors(True)
        self.tree.setUniformRowHeights(True)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.tree.itemActivated.connect(self._open)
        self.tree.itemDoubleClicked.connect(self._open)
        for col, tip in ((2, "The strategy's score: higher means the model wants this labelled more"),
                         (3, "Gap between the best and second-best label of the least certain word (0 = a coin toss)")):
            self.tree.headerItem().setToolTip(col, tip)
        self.refresh_btn = QPushButton("Refresh queue")
        self.refresh_btn.clicked.connect(self.ctl.refresh_queue)
        self.none_btn = QPushButton("No personal data here")
        self.none_btn.setToolTip("Mark the selected turn labelled as it is (everything in it decided)")
        self.none_btn.clicked.connect(self._mark_selected)
        self.auto = QCheckBox("Retrain after each batch")
        self.auto.setChecked(self.ctl.auto_retrain)
        self.auto.toggled.connect(lambda on: setattr(self.ctl, "auto_retrain", on))
        buttons = QHBoxLayout()
        buttons.addWidget(self.refresh_btn)
        buttons.addWidget(self.none_btn)
        buttons.addStretch(1)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addLayout(top)
        lay.addWidget(self.counts)
        lay.addWidget(self.tree, 1)
        lay.addLayout(buttons)
        lay.addWidget(self.auto)
        self.ctl.queue_changed.connect(self.show_items)
        self.ctl.counts_changed.connect(self._show_counts)
        self.ctl.busy_changed.connect(self._busy)
        self._show_counts()
        if os.environ.get("REDACTDESK_AL_AUTOSTART", "1") != "0":  # tests of other panels switch it off
            QTimer.singleShot(0, self.ctl.refresh_queue)

    def _strategy_changed(self) -> None:
        self.ctl.learner.set_strategy(self.strategy.currentData())
        self.ctl.refresh_queue()

    def _batch_changed(self, value: int) -> None:
        self.ctl.learner.batch = int(value)
        self.ctl.refresh_queue()

    def _busy(self, busy: bool) -> None:
        self.refresh_btn.setEnabled(not busy)
        self.refresh_btn.setText("Working ..." if busy else "Refresh queue")

    def _show_counts(self) -> None:
        c = self.ctl.counts
        self.counts.setText(f"{c['labelled']:,} of {c['utterances']:,} utterances labelled")

    def show_items(self) -> None:
        self.tree.clear()
        words: dict[str, list[str]] = {}
        for item in self.ctl.items:
            texts = words.get(item.conversation_id)
            if texts is None:
                try:
                    conv = self.ctx.project.load_conversation(item.conversation_id)
                except Exception:
                    continue
                texts = words[item.conversation_id] = [w.text for w in conv.words]
            preview = " ".join(texts[item.start_word:min(item.end_word, item.start_word + PREVIEW_WORDS)])
            if item.end_word - item.start_word > PREVIEW_WORDS:
                preview += " ..."
            margin = "" if item.margin is None else f"{item.margin:.2f}"
            row = QTreeWidgetItem([item.conversation_id, str(item.turn_index + 1), f"{item.score:.3f}", margin,
                                   preview])
            row.setData(0, Qt.ItemDataRole.UserRole, item)
            row.setTextAlignment(2, Qt.AlignmentFlag.AlignRight)
            row.setTextAlignment(3, Qt.AlignmentFlag.AlignRight)
            self.tree.addTopLevelItem(row)
        for col in range(4):
            self.tree.resizeColumnToContents(col)

    def _item(self) -> QueueItem | None:
        row = self.tree.currentItem()
        return None if row is None else row.data(0, Qt.ItemDataRole.UserRole)

    def _open(self, row: QTreeWidgetItem, column: int = 0) -> None:
        item: QueueItem = row.data(0, Qt.ItemDataRole.UserRole)
        self.ctx.open_conversation(item.conversation_id)
        self.ctx.select(word=item.start_word)

    def _mark_selected(self) -> None:
        item = self._item()
        if item is not None:
            self.ctl.mark_labelled(item)


class ModelPanel(QWidget):
    """Learning curve, per-category F1, stopping hint and the Retrain button."""

    def __init__(self, ctx: Any) -> None:
        super().__init__()
        self.ctx = ctx
        self.ctl = controller_for(ctx)
        self.version = QLabel()
        self.version.setWordWrap(True)
        self.plot = pg.PlotWidget()
        self.plot.setObjectName("alCurve")
        self.plot.setBackground(None)
        self.plot.setLabel("bottom", "labelled utterances")
        self.plot.setLabel("left", "F1 (cross-validated)")
        self.plot.setYRange(0.0, 1.0)
        self.plot.showGrid(x=True, y=True, alpha=0.3)
        self.plot.setMinimumHeight(140)
        self.curve = self.plot.plot([], [], pen=pg.mkPen("#0072B2", width=2), symbol="o", symbolSize=6,
                                    symbolBrush="#0072B2")
        self.table = QTreeWidget()
        self.table.setObjectName("alCategories")
        self.table.setHeaderLabels(["Category", "F1", "Support"])
        self.table.setRootIsDecorated(False)
        self.table.setUniformRowHeights(True)
        self.hint = QLabel()
        self.hint.setObjectName("alHint")
        self.hint.setWordWrap(True)
        self.retrain_btn = QPushButton("Retrain now")
        self.retrain_btn.clicked.connect(self.ctl.retrain)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addWidget(self.version)
        lay.addWidget(self.plot, 2)
        lay.addWidget(self.table, 1)
        lay.addWidget(self.hint)
        lay.addWidget(self.retrain_btn)
        self.ctl.model_changed.connect(self.refresh)
        self.ctl.busy_changed.connect(lambda busy: self.retrain_btn.setEnabled(not busy))
        self.refresh()

    def curve_points(self) -> list[tuple[int, float]]:
        xs, ys = self.curve.getData()
        if xs is None:
            return []
        return [(int(x), float(y)) for x, y in zip(xs, ys, strict=True)]

    def refresh(self) -> None:
        learner = self.ctl.learner
        points = learner.learning_curve()
        self.curve.setData([p[0] for p in points], [p[1] for p in points])
        versions = learner.versions()
        self.table.clear()
        if not versions:
            self.version.setText("No model yet: label a batch of utterances (Label next) to train the first one.")
            self.hint.setText("")
            return
        v = versions[-1]
        f1 = "not enough labels to cross-validate" if v.f1 is None else f"F1 {v.f1:.3f} (3-fold cross-validation)"
        self.version.setText(f"Model v{v.id}: trained on {v.n_labelled:,} labelled utterances; {f1}.")
        per = (v.metrics.get("cv") or {}).get("per_category", {})
        for cat, m in sorted(per.items(), key=lambda kv: kv[1]["f1"]):
            row = QTreeWidgetItem([cat, f"{m['f1']:.3f}", str(int(m.get("support", 0)))])
            row.setTextAlignment(1, Qt.AlignmentFlag.AlignRight)
            row.setTextAlignment(2, Qt.AlignmentFlag.AlignRight)
            self.table.addTopLevelItem(row)
        for col in range(3):
            self.table.resizeColumnToContents(col)
        self.hint.setText(learner.stopping_hint().message)


register_panel("al_queue", "Label next", QueuePanel, roles=("annotator", "linguist"), area="right", order=20)
register_panel("al_model", "Model", ModelPanel, roles=("annotator", "linguist"), area="right", order=25)
