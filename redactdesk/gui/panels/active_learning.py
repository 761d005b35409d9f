"""Active learning in the app: a queue of what to label next and the model's learning curve.

Two panels share one :class:`ALController` per window (kept on the context):

- **Label next** (``al_queue``): the utterances the model most wants labelled, with the strategy's
  score and the margin to the next-best label (INCEpTION); the strategy selector; "No personal
  data here" marks a turn labelled; double-click (or Enter) opens the turn with its first open
  suggestion selected and gives the keyboard back to the review, so A/X/1-9 decide at once.
- **Model** (``al_model``): the learning curve (each version's own score, and the cross-validated
  F1 overall or per category, pyqtgraph), per-category F1 of the current version, the stopping hint,
  a Retrain button, and the list of stored versions (id, when, learner, labelled turns, scores,
  pruned or not) with "Roll back to this version" for reviewers (others see it disabled, with why).

Rollback goes through :func:`redactdesk.learn.versions.rollback` on the window's connection (the
CLI's function: reviewers only, audited); a background job then loads that version and brings the
learner's suggestions in open calls in line with it (:mod:`redactdesk.learn.suggestion_sync`), and
the status line says what changed. After each new version a background job cross-validates the
learner on the labelled turns (:mod:`redactdesk.learn.crossval`); the GUI thread stores the result
with the version.

Threads. The window's :class:`~redactdesk.learn.service.ActiveLearner` lives in background jobs
only: they share one connection of their own to the project file (opened by the first job, used
only for reading, closed with the window: a connection that closes checkpoints the log, and that
makes the window's own write transactions fail as "database is locked"), read what changed, trains when a batch of new labels exists (or when asked), scores the pool, and hands back
plain data -- counts, ready-to-show queue rows, the trained model's stored form and metrics. The
GUI thread shows them and stores the new model version (one quick insert), so the window's
connection stays the only writer. One job runs at a time; requests made meanwhile are merged into
the next one. Jobs never touch widgets or the window's connection. Closing the window cancels the
running job (the window waits for it a bounded time).
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass, field
from typing import Any

import pyqtgraph as pg
from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QPushButton,
    QSpinBox,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from redactdesk.core.types import Role
from redactdesk.gui.jobs import JobCancelled
from redactdesk.gui.panels import register_panel
from redactdesk.gui.roles import as_role
from redactdesk.learn.crossval import CrossValidation
from redactdesk.learn.errors import LearnError
from redactdesk.learn.selection import QUERY_STRATEGIES, get_strategy
from redactdesk.learn.service import (
    DEFAULT_STRATEGY,
    STRATEGY_SETTING,
    ActiveLearner,
    ModelSummary,
    ModelVersion,
    QueueItem,
    TrainResult,
    mark_turn_labelled,
    model_summary,
    save_version,
    store_crossval,
)
from redactdesk.learn.suggestion_sync import SuggestionChanges, refresh_learner_suggestions
from redactdesk.learn.training import TrainingSettings
from redactdesk.learn.versions import KEEP_SETTING
from redactdesk.learn.versions import rollback as rollback_version

STRATEGY_LABELS = {
    "random": "Random (passive)",
    "t-sum": "Uncertainty: H Sum",
    "t-kmax": "Uncertainty: H K-Max",
    "t-sum*s-sum": "Uncertainty x source model (H Sum)",
    "t-kmax*s-sum": "Uncertainty (K-Max) x source model",
    "kmeans+t-sum": "K-means + uncertainty (Eq. 1)",
    "diverse+t-sum": "Uncertainty (H Sum), no near-duplicates",
    "diverse+t-kmax": "Uncertainty (H K-Max), no near-duplicates",
    "d-kmax": "Disagreement of model, source and detection vote",
    "t-kmax*d-kmax": "Uncertainty (K-Max) x disagreement",
}
AUTOSTART_ENV = "REDACTDESK_AL_AUTOSTART"  # "0": the learner waits until asked (tests of other panels)
TITLE_UPDATE = "Active learning"
TITLE_TRAIN = "Training the active-learning model"


@dataclass
class Request:
    """What the next background job should do; requests made while a job runs are merged."""

    dirty: set[str] = field(default_factory=set)  # conversations whose labels may have changed
    full: bool = False  # re-read every conversation
    rescore: bool = False  # choose a new queue
    retrain: bool = False  # train now (otherwise only once a batch of new labels exists)
    reload_model: bool = False  # load the version in use (a rollback) and update its suggestions
    crossval: int | None = None  # cross-validate for this stored version (skipped when the job trains)

    def merge(self, other: Request) -> None:
        self.dirty |= other.dirty
        self.full = self.full or other.full
        self.rescore = self.rescore or other.rescore
        self.retrain = self.retrain or other.retrain
        self.reload_model = self.reload_model or other.reload_model
        if other.crossval is not None:
            self.crossval = max(other.crossval, self.crossval or 0)


@dataclass(frozen=True)
class JobConfig:
    """Everything a job needs, copied on the GUI thread when it starts (plain data, no Qt)."""

    path: str
    actor: str
    role: Any
    strategy: str
    batch: int
    training: TrainingSettings
    auto_retrain: bool
    trained_at: int
    model_id: int | None
    request: Request


@dataclass
class Outcome:
    """What a job hands back to the GUI thread."""

    counts: dict[str, int]
    labelled: frozenset[tuple[str, int]]
    items: list[QueueItem] | None  # a new queue, or None: keep the shown one (minus labelled turns)
    trained: TrainResult | None = None  # a newly trained model, for the GUI thread to store
    tried_at: int | None = None  # labelled utterances when training was attempted
    message: str = ""
    changes: SuggestionChanges | None = None  # the new model's suggestions added/withdrawn in open calls
    rolled_back: bool = False  # the job loaded the version in use after a rollback
    crossval: tuple[int, CrossValidation] | None = None  # (version id, its cross-validation), to store


class LearnerHolder:
    """The window's learner and the jobs' own project connection. Only the running job touches them
    (one job at a time); :meth:`close` (GUI thread) closes the connection now, or when that job ends."""

    def __init__(self) -> None:
        self.learner: ActiveLearner | None = None
        self.project: Any = None
        self._lock = threading.Lock()
        self._in_use = False
        self._closed = False

    def acquire(self, cfg: JobConfig) -> ActiveLearner:
        """The learner, bound to the jobs' connection (opened on first use)."""
        from redactdesk.store import Project

        with self._lock:
            if self._closed:
                raise JobCancelled("the window closed")
            self._in_use = True
        try:
            if self.project is None:
                self.project = Project.open(cfg.path, actor=cfg.actor, role=cfg.role)
            if self.learner is None:
                self.learner = ActiveLearner(self.project, strategy=cfg.strategy, batch=cfg.batch,
                                             training=cfg.training)
        except BaseException:
            self.release()
            raise
        learner = self.learner
        learner.project = self.project
        if learner.strategy.spec != cfg.strategy:
            learner.set_strategy(cfg.strategy, save=False)
        learner.batch = cfg.batch
        learner.training = cfg.training
        if cfg.model_id is not None and learner.model is not None:
            learner.model_id = cfg.model_id
        return learner

    def release(self) -> None:
        with self._lock:
            self._in_use = False
            if self._closed:
                self._close_project()

    def close(self) -> None:
        with self._lock:
            self._closed = True
            if not self._in_use:
                self._close_project()

    def _close_project(self) -> None:
        if self.learner is not None:
            self.learner.project = None
        if self.project is not None:
            self.project.close()
            self.project = None


def run_request(job: Any, holder: LearnerHolder, cfg: JobConfig) -> Outcome:
    """One background job (worker thread): sync labels, train when due, score the pool."""
    req = cfg.request
    learner = holder.acquire(cfg)
    try:
        job.report(0.05, None, "reading labels")
        learner.sync(None if req.full else req.dirty, check=job.check)
        counts = learner.counts()
        out = Outcome(counts, learner.labelled_keys(), None)
        if req.reload_model:
            learner.load_active()
            out.rolled_back = True
        if req.retrain or (cfg.auto_retrain and counts["labelled"] - cfg.trained_at >= cfg.batch):
            out.tried_at = counts["labelled"]
            job.report(0.2, None, "training")
            try:
                train = learner.prepare_retrain(job.check, refresh=False)
            except LearnError as exc:
                out.message = str(exc)
            else:
                out.trained = train()
                learner.adopt(out.trained.model)  # the queue below already asks the new model
                job.report(0.6, None, "updating the model's suggestions in open calls")
                out.changes = refresh_learner_suggestions(learner.project, learner, check=job.check)
        if req.reload_model and out.trained is None:
            job.report(0.6, None, "updating the model's suggestions in open calls")
            out.changes = refresh_learner_suggestions(learner.project, learner, check=job.check)
        if req.rescore or req.reload_model or out.trained is not None:
            job.report(0.8, None, "choosing what to label next")
            out.items = learner.queue(refresh=False, check=job.check)
        if req.crossval is not None and out.trained is None:  # a newer version asks for its own
            job.report(0.85, None, "cross-validating the learning curve")
            try:
                out.crossval = (req.crossval, learner.prepare_crossval(job.check, refresh=False)())
            except LearnError as exc:
                out.message = str(exc)
        return out
    finally:
        holder.release()


class ALController(QObject):
    """Runs the window's active learning in background jobs and keeps what the panels show."""

    queue_changed = Signal()
    model_changed = Signal()
    busy_changed = Signal(bool)
    counts_changed = Signal()
    suggestions_changed = Signal()  # a new version changed the suggestions in open calls (see last_changes)

    def __init__(self, ctx: Any, batch: int = 10, autostart: bool | None = None) -> None:
        super().__init__(ctx)
        self.ctx = ctx
        spec = ctx.project.setting(STRATEGY_SETTING) or DEFAULT_STRATEGY
        try:
            self.strategy = get_strategy(spec).spec
        except LearnError:
            self.strategy = DEFAULT_STRATEGY
        self.batch = batch
        self.training = TrainingSettings()
        self.auto_retrain = True
        self.crossval_after_update = True  # cross-validate in the background after each new version
        self.items: list[QueueItem] = []
        self.last_changes: SuggestionChanges | None = None
        self.counts: dict[str, int] | None = None  # None until a job has read the project
        self.summary: ModelSummary = model_summary(ctx.project)  # metrics rows only: small
        latest = self.summary.latest
        self.trained_at = latest.n_labelled if latest else 0
        self.started = os.environ.get(AUTOSTART_ENV, "1") != "0" if autostart is None else autostart
        self.busy = False
        self.job: Any = None
        self.jobs_run = 0
        self._pending: Request | None = None
        self._resync = False  # a job ended early: the next one re-reads everything
        self._closed = False
        self._holder = LearnerHolder()
        self._dirty: set[str] = set()
        self._timer = QTimer(self, singleShot=True, interval=400)
        self._timer.timeout.connect(self.on_labels_changed)
        ctx.spans_changed.connect(self._spans_changed)
        ctx.closing.connect(self.close)

    # ------------------------------------------------------------------ requests (GUI thread)
    def refresh_queue(self) -> None:
        """Re-read the project and choose the next batch, in the background."""
        self.started = True
        self._request(Request(full=True, rescore=True))

    def retrain(self) -> None:
        """Retrain on every labelled utterance in the background; then choose the next batch."""
        self.started = True
        self._request(Request(full=True, retrain=True, rescore=True))

    def on_labels_changed(self) -> None:
        """Labels changed in the edited conversations: re-read them; retrain once a batch is new."""
        dirty, self._dirty = self._dirty, set()
        if self.started:
            self._request(Request(dirty=dirty))

    def mark_labelled(self, item: QueueItem) -> None:
        """Mark a queued turn labelled as it is ("No personal data here")."""
        mark_turn_labelled(self.ctx.project, item.conversation_id, item.turn_index)
        self.items = [i for i in self.items if (i.conversation_id, i.turn_index) != (item.conversation_id,
                                                                                     item.turn_index)]
        self.queue_changed.emit()
        self._dirty.add(item.conversation_id)
        self.on_labels_changed()

    def rollback(self, model_id: int) -> None:
        """Use an earlier stored version again: the CLI's function (reviewers only, audited; a
        :class:`LearnError` says why not), then a background job loads it and updates its suggestions
        in open calls."""
        row = rollback_version(self.ctx.project, model_id)
        if self.counts is not None:  # the next update starts from it once a new batch is labelled
            self.trained_at = max(self.trained_at, self.counts["labelled"])
        self.summary = model_summary(self.ctx.project)
        self.model_changed.emit()
        self.ctx.status(f"Model v{int(row['id'])} is in use again; updating its suggestions in open calls ...",
                        10000)
        self._request(Request(reload_model=True, rescore=True))

    def set_strategy(self, spec: str) -> None:
        from redactdesk.pipeline.project_config import set_setting

        self.strategy = get_strategy(spec).spec
        set_setting(self.ctx.project, STRATEGY_SETTING, self.strategy)  # checked and in the audit log
        if self.started:
            self._request(Request(rescore=True))

    def set_batch(self, batch: int) -> None:
        self.batch = max(1, int(batch))
        if self.started:
            self._request(Request(rescore=True))

    def close(self) -> None:
        """The window closes: forget what is pending and cancel the running job."""
        self._closed = True
        self._timer.stop()
        self._pending = None
        if self.job is not None:
            self.job.cancel()
        self._holder.close()

    def _spans_changed(self) -> None:
        if self.ctx.conversation is not None:
            self._dirty.add(self.ctx.conversation.id)
        if not self._closed:
            self._timer.start()

    def _request(self, request: Request) -> None:
        if self._closed:
            return
        if self._pending is None:
            self._pending = request
        else:
            self._pending.merge(request)
        self._start_next()

    # ------------------------------------------------------------------ background jobs
    def _set_busy(self, busy: bool) -> None:
        self.busy = busy
        self.busy_changed.emit(busy)

    def _start_next(self) -> None:
        if self.busy or self._closed or self._pending is None:
            return
        request, self._pending = self._pending, None
        request.full = request.full or self._resync
        self._resync = False
        project = self.ctx.project
        latest = self.summary.latest
        cfg = JobConfig(path=str(project.path), actor=project.actor, role=self.ctx.role, strategy=self.strategy,
                        batch=self.batch, training=self.training, auto_retrain=self.auto_retrain,
                        trained_at=self.trained_at, model_id=latest.id if latest else None, request=request)
        holder = self._holder

        def work(job: Any) -> Outcome:  # worker thread: plain data only
            return run_request(job, holder, cfg)

        title = TITLE_TRAIN if request.retrain else TITLE_UPDATE
        self._set_busy(True)
        self.jobs_run += 1
        self.job = self.ctx.run_job(title, work, self._done, self._failed)
        self.job.cancelled.connect(self._cancelled)

    def _done(self, out: Outcome) -> None:
        self.job = None
        self._set_busy(False)
        if self._closed:
            return
        self.counts = out.counts
        self.counts_changed.emit()
        if out.tried_at is not None:
            self.trained_at = out.tried_at
        if out.message:
            self.ctx.status(f"Active learning: {out.message}")
        if out.trained is not None:
            self._store(out.trained)
        if out.changes is not None:
            self.last_changes = out.changes
            if out.changes.total:
                self.ctx.reload()  # the open call shows the added/withdrawn suggestions
            latest = self.summary.latest
            prefix = (f"Rolled back to model v{latest.id}" if out.rolled_back and out.trained is None and latest
                      else "Active learning")
            self.ctx.status(f"{prefix}: {out.changes.message()}", 10000)
            self.suggestions_changed.emit()
        if out.crossval is not None:
            self._store_crossval(*out.crossval)
        items = self.items if out.items is None else out.items
        self.items = [i for i in items if (i.conversation_id, i.turn_index) not in out.labelled]
        self.queue_changed.emit()
        if not self.items and out.items is None and out.counts["unlabelled"]:
            self._request(Request(rescore=True))  # the queue ran dry without a retrain
        self._start_next()

    def _store(self, result: TrainResult) -> None:
        """Keep a new model version in the project (the window's connection) and show it."""
        try:
            v = save_version(self.ctx.project, result)
            self.summary = model_summary(self.ctx.project)
        except Exception as exc:  # e.g. a locked file: the model still works, the next retrain stores one
            self.ctx.error("Active learning", f"could not store the new model: {exc}")
            return
        f1 = "n/a" if v.f1 is None else f"{v.f1:.3f}"
        self.ctx.status(f"Model v{v.id}: {v.n_labelled} labelled utterances, F1 {f1}")
        self.model_changed.emit()
        if self.crossval_after_update:  # queued: the job after this one (this one's outcome is still shown)
            request = Request(crossval=v.id)
            if self._pending is None:
                self._pending = request
            else:
                self._pending.merge(request)

    def _store_crossval(self, model_id: int, result: CrossValidation) -> None:
        """Keep a finished cross-validation with its version (the window's connection) and show it."""
        try:
            store_crossval(self.ctx.project, model_id, result)
            self.summary = model_summary(self.ctx.project)
        except Exception as exc:  # e.g. a locked file: the next version gets its own run
            self.ctx.error("Active learning", f"could not store the cross-validation: {exc}")
            return
        self.model_changed.emit()

    def _failed(self, message: str) -> None:
        self.job = None
        self._resync = True
        self._set_busy(False)
        if not self._closed:
            self.ctx.error("Active learning", message)
            self._start_next()

    def _cancelled(self) -> None:
        self.job = None
        self._resync = True
        self._set_busy(False)
        if not self._closed:
            self._start_next()


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
        self.strategy = QComboBox()
        self.strategy.setObjectName("alStrategy")
        specs = list(dict.fromkeys([self.ctl.strategy, *STRATEGY_LABELS, *QUERY_STRATEGIES]))
        for spec in specs:
            self.strategy.addItem(STRATEGY_LABELS.get(spec, spec), spec)
        self.strategy.setCurrentIndex(specs.index(self.ctl.strategy))
        self.strategy.setToolTip("How the next utterances are chosen (seed 004: uncertainty, transfer, diversity)")
        self.strategy.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.strategy.setMinimumContentsLength(12)  # long names elide: the dock stays narrow
        self.strategy.currentIndexChanged.connect(self._strategy_changed)
        self.batch = QSpinBox()
        self.batch.setRange(1, 500)
        self.batch.setValue(self.ctl.batch)
        self.batch.setPrefix("batch ")
        self.batch.valueChanged.connect(self._batch_changed)
        top = QHBoxLayout()
        top.addWidget(self.strategy, 1)
        top.addWidget(self.batch)
        self.counts = QLabel()
        self.counts.setObjectName("muted")
        self.counts.setWordWrap(True)
        self.tree = QTreeWidget()
        self.tree.setObjectName("alQueue")
        self.tree.setHeaderLabels(["Conversation", "Turn", "Score", "Margin", "Words"])
        self.tree.setRootIsDecorated(False)
        self.tree.setAlternatingRowColors(True)
        self.tree.setUniformRowHeights(True)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.tree.itemActivated.connect(self._open)  # double-click or Enter
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
        self._busy(self.ctl.busy)
        self.show_items()
        if self.ctl.started and self.ctl.jobs_run == 0:
            QTimer.singleShot(0, self.ctl.refresh_queue)

    def _strategy_changed(self) -> None:
        self.ctl.set_strategy(self.strategy.currentData())

    def _batch_changed(self, value: int) -> None:
        self.ctl.set_batch(value)

    def _busy(self, busy: bool) -> None:
        self.refresh_btn.setEnabled(not busy)
        self.refresh_btn.setText("Working ..." if busy else "Refresh queue")

    def _show_counts(self) -> None:
        c = self.ctl.counts
        if c is None:
            self.counts.setText("Reading the project ..." if self.ctl.started
                                else "Press Refresh queue to choose what to label next.")
        else:
            self.counts.setText(f"{c['labelled']:,} of {c['utterances']:,} utterances labelled")

    def show_items(self) -> None:
        """Show the controller's queue (its rows come ready from the background job); the selected
        turn stays selected."""
        current = self._item()
        keep = None if current is None else (current.conversation_id, current.turn_index)
        self.tree.clear()
        for item in self.ctl.items:
            margin = "" if item.margin is None else f"{item.margin:.2f}"
            row = QTreeWidgetItem([item.conversation_id, str(item.turn_index + 1), f"{item.score:.3f}", margin,
                                   item.preview])
            row.setToolTip(4, item.preview)
            row.setData(0, Qt.ItemDataRole.UserRole, item)
            row.setTextAlignment(2, Qt.AlignmentFlag.AlignRight)
            row.setTextAlignment(3, Qt.AlignmentFlag.AlignRight)
            self.tree.addTopLevelItem(row)
            if (item.conversation_id, item.turn_index) == keep:
                self.tree.setCurrentItem(row)
        for col in range(4):
            self.tree.resizeColumnToContents(col)

    def _item(self) -> QueueItem | None:
        row = self.tree.currentItem()
        return None if row is None else row.data(0, Qt.ItemDataRole.UserRole)

    def _open(self, row: QTreeWidgetItem, column: int = 0) -> None:
        """Open the turn: its first open suggestion selected (the cursor on the turn's first word), and
        the keyboard back on the review, so the next key decides instead of going to this list."""
        from redactdesk.core.types import SpanStatus

        item: QueueItem = row.data(0, Qt.ItemDataRole.UserRole)
        if self.ctx.conversation is None or self.ctx.conversation.id != item.conversation_id:
            self.ctx.open_conversation(item.conversation_id)
        conv = self.ctx.conversation
        spans = sorted((s for s in conv.spans if s.status == SpanStatus.SUGGESTED
                        and s.start_word < item.end_word and item.start_word < s.end_word),
                       key=lambda s: (s.start_word, s.end_word))
        self.ctx.select(spans[0].id if spans else None, item.start_word)
        self.ctx.focus_review()
        self.ctx.status(f"Turn {item.turn_index + 1} of {item.conversation_id}: "
                        + (f"{len(spans)} open suggestion(s) — A accepts, X rejects, 1–9 sets the category"
                           if spans else "no suggestion — mark missed words (drag, M) or “No personal data here”"),
                        8000)

    def _mark_selected(self) -> None:
        item = self._item()
        if item is not None:
            self.ctl.mark_labelled(item)


ALL_CATEGORIES = "All categories"
NOT_REVIEWER_TIP = "Only a reviewer can roll the model back (switch the role to Reviewer); it is audited"


def _when(created: str) -> str:
    """'2026-11-25 10:14' from a stored UTC time."""
    return created[:16].replace("T", " ")


def _own_score(v: ModelVersion) -> str:
    """A version's own F1 and how it was measured."""
    if v.f1 is None:
        return "not enough labels to score"
    if v.metrics.get("eval") == "test-then-train":
        return f"F1 {v.f1:.3f} on its new turns before it learned them"
    return f"F1 {v.f1:.3f} (3-fold cross-validation)"


class ModelPanel(QWidget):
    """Learning curves, per-category F1, stopping hint, Retrain, and the versions with rollback."""

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
        self.plot.setLabel("left", "F1")
        self.plot.setYRange(0.0, 1.0)
        self.plot.showGrid(x=True, y=True, alpha=0.3)
        self.plot.setMinimumHeight(140)
        self.plot.addLegend(offset=(-4, -4), labelTextSize="7pt")
        self.curve = self.plot.plot([], [], pen=pg.mkPen("#999999", width=1, style=Qt.PenStyle.DashLine),
                                    symbol="o", symbolSize=4, symbolBrush="#999999", name="each update")
        self.xval_curve = self.plot.plot([], [], pen=pg.mkPen("#0072B2", width=2), symbol="o", symbolSize=6,
                                         symbolBrush="#0072B2", name="cross-validated")
        self.category = QComboBox()
        self.category.setObjectName("alCurveCategory")
        self.category.setToolTip("The cross-validated learning curve of all categories or of one")
        self.category.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.category.setMinimumContentsLength(12)
        self.category.currentIndexChanged.connect(self._show_xval)
        self.xval = QLabel()
        self.xval.setObjectName("alCrossval")
        self.xval.setWordWrap(True)
        self.table = QTreeWidget()
        self.table.setObjectName("alCategories")
        self.table.setHeaderLabels(["Category", "F1", "Support", "CV F1"])
        self.table.setRootIsDecorated(False)
        self.table.setUniformRowHeights(True)
        self.table.header().setStretchLastSection(False)  # Support stays beside F1
        self.table.headerItem().setToolTip(3, "Cross-validated F1 over the labelled turns (after the last update)")
        self.hint = QLabel()
        self.hint.setObjectName("alHint")
        self.hint.setWordWrap(True)
        self.retrain_btn = QPushButton("Retrain now")
        self.retrain_btn.clicked.connect(self.ctl.retrain)
        self.versions = QTreeWidget()
        self.versions.setObjectName("alVersions")
        self.versions.setHeaderLabels(["Version", "When (UTC)", "Learner", "Turns", "F1", "CV F1", "Model"])
        self.versions.setRootIsDecorated(False)
        self.versions.setUniformRowHeights(True)
        self.versions.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        for col, tip in ((3, "Labelled turns the version learned from"),
                         (4, "The version's own score (the tagger: on its new turns, before learning them)"),
                         (5, "Cross-validated F1 over the labelled turns after this update"),
                         (6, f"Pruned versions keep only their scores (project setting {KEEP_SETTING})")):
            self.versions.headerItem().setToolTip(col, tip)
        self.versions.currentItemChanged.connect(lambda *_: self._update_rollback())
        self.rollback_btn = QPushButton("Roll back to this version")
        self.rollback_btn.setObjectName("alRollback")
        self.rollback_btn.clicked.connect(self._ask_rollback)
        self.confirm_box: QMessageBox | None = None
        curve_row = QHBoxLayout()
        curve_row.addWidget(QLabel("Curve:"))
        curve_row.addWidget(self.category, 1)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addWidget(self.version)
        lay.addWidget(self.plot, 2)
        lay.addLayout(curve_row)
        lay.addWidget(self.xval)
        lay.addWidget(self.table, 1)
        lay.addWidget(self.hint)
        lay.addWidget(self.retrain_btn)
        lay.addWidget(QLabel("Versions"))
        lay.addWidget(self.versions, 1)
        lay.addWidget(self.rollback_btn)
        self.ctl.model_changed.connect(self.refresh)
        self.ctl.busy_changed.connect(self._busy)
        self._busy(self.ctl.busy)
        self.refresh()

    def _busy(self, busy: bool) -> None:
        self.retrain_btn.setEnabled(not busy)
        self._update_rollback()

    def on_role_changed(self, role: str) -> None:
        self._update_rollback()

    def curve_points(self) -> list[tuple[int, float]]:
        return self._points(self.curve)

    def xval_points(self) -> list[tuple[int, float]]:
        return self._points(self.xval_curve)

    @staticmethod
    def _points(curve: Any) -> list[tuple[int, float]]:
        xs, ys = curve.getData()
        if xs is None:
            return []
        return [(int(x), float(y)) for x, y in zip(xs, ys, strict=True)]

    def refresh(self) -> None:
        """Show the controller's model summary (no project reads here)."""
        summary = self.ctl.summary
        points = summary.curve
        self.curve.setData([p[0] for p in points], [p[1] for p in points])
        self._fill_categories(summary)
        self._show_xval()
        self._fill_versions(summary)
        self.table.clear()
        v = summary.latest
        if v is None:
            self.version.setText("No model yet: label a batch of utterances (Label next) to train the first one.")
            self.hint.setText("")
            return
        self.version.setText(f"Model v{v.id}: trained on {v.n_labelled:,} labelled utterances; {_own_score(v)}.")
        per = (v.metrics.get("cv") or {}).get("per_category", {})
        xval = (v.metrics.get("xval") or {}).get("per_category", {})
        for cat, m in sorted(per.items(), key=lambda kv: kv[1]["f1"]):
            cv = "" if cat not in xval else f"{xval[cat]['f1']:.3f}"
            row = QTreeWidgetItem([cat, f"{m['f1']:.3f}", str(int(m.get("support", 0))), cv])
            for col in (1, 2, 3):
                row.setTextAlignment(col, Qt.AlignmentFlag.AlignRight)
            self.table.addTopLevelItem(row)
        for col in range(4):
            self.table.resizeColumnToContents(col)
        self.hint.setText(summary.hint().message)

    # ------------------------------------------------------------------ cross-validated curve
    def _fill_categories(self, summary: ModelSummary) -> None:
        keep = self.category.currentData()
        cats = sorted(c for c in summary.xval_curves if c != "all")
        self.category.blockSignals(True)
        self.category.clear()
        self.category.addItem(ALL_CATEGORIES, "all")
        for cat in cats:
            self.category.addItem(cat, cat)
        index = self.category.findData(keep) if keep else 0
        self.category.setCurrentIndex(max(0, index))
        self.category.blockSignals(False)

    def _show_xval(self) -> None:
        summary = self.ctl.summary
        points = summary.xval_curves.get(self.category.currentData() or "all", [])
        self.xval_curve.setData([p[0] for p in points], [p[1] for p in points])
        last = next((v for v in reversed(summary.versions) if v.metrics.get("xval")), None)
        if last is None:
            self.xval.setText("Cross-validated curve: computed in the background after each update."
                              if summary.versions else "")
            return
        xv = last.metrics["xval"]
        if xv.get("f1") is None:
            self.xval.setText(f"Cross-validation after v{last.id}: {xv.get('reason', 'no score')}.")
        else:
            self.xval.setText(f"Cross-validated after v{last.id}: F1 {xv['f1']:.3f} ({xv['folds']}-fold over "
                              f"{xv['n_used']:,} of {xv['n_labelled']:,} labelled turns, each scored by a model "
                              "that never learned it).")

    # ------------------------------------------------------------------ versions and rollback
    def _fill_versions(self, summary: ModelSummary) -> None:
        keep = self.selected_version()
        self.versions.clear()
        for v in reversed(summary.versions):
            xv = (v.metrics.get("xval") or {}).get("f1")
            name = f"v{v.id}" + (" (in use)" if v.id == summary.active else "")
            row = QTreeWidgetItem([name, _when(v.created), v.metrics.get("learner") or summary.learner,
                                   f"{v.n_labelled:,}", "" if v.f1 is None else f"{v.f1:.3f}",
                                   "" if xv is None else f"{xv:.3f}", "stored" if v.stored else "pruned"])
            row.setData(0, Qt.ItemDataRole.UserRole, v)
            for col in (3, 4, 5):
                row.setTextAlignment(col, Qt.AlignmentFlag.AlignRight)
            if v.id == summary.active:
                font = row.font(0)
                font.setBold(True)
                row.setFont(0, font)
            self.versions.addTopLevelItem(row)
            if keep is not None and keep.id == v.id:
                self.versions.setCurrentItem(row)
        for col in range(7):
            self.versions.resizeColumnToContents(col)
        self._update_rollback()

    def selected_version(self) -> ModelVersion | None:
        row = self.versions.currentItem()
        return None if row is None else row.data(0, Qt.ItemDataRole.UserRole)

    def rollback_refusal(self) -> str:
        """Why "Roll back to this version" is not available now ("" when it is)."""
        if as_role(self.ctx.role) != Role.REVIEWER:
            return NOT_REVIEWER_TIP
        v = self.selected_version()
        if v is None:
            return "Select the version to use again"
        if v.id == self.ctl.summary.active:
            return f"v{v.id} is the version in use"
        if not v.stored:
            return f"v{v.id} was pruned: only its scores are kept (project setting {KEEP_SETTING})"
        if self.ctl.busy:
            return "Wait until the learner's background work has finished"
        return ""

    def _update_rollback(self) -> None:
        why = self.rollback_refusal()
        self.rollback_btn.setEnabled(not why)
        v = self.selected_version()
        self.rollback_btn.setToolTip(why or f"Use v{v.id} again: its suggestions replace the current model's in "
                                            "open calls; later versions are kept (audited)")

    def _ask_rollback(self) -> None:
        v = self.selected_version()
        if v is None or self.rollback_refusal():
            return
        active = self.ctl.summary.active
        box = QMessageBox(QMessageBox.Icon.Question, "Roll back the model",
                          f"Use model v{v.id} ({v.n_labelled:,} labelled turns) again instead of v{active}?",
                          QMessageBox.StandardButton.NoButton, self)
        box.setObjectName("rollbackConfirm")
        box.setInformativeText("Its suggestions replace the current model's in open calls; decisions are not "
                               "touched, later versions are kept, and the next update starts from it.")
        yes = box.addButton("Roll back", QMessageBox.ButtonRole.AcceptRole)
        yes.setObjectName("confirmRollback")
        no = box.addButton("Cancel", QMessageBox.ButtonRole.RejectRole)
        box.setDefaultButton(no)
        box.setEscapeButton(no)

        def answered(_result: int) -> None:
            self.confirm_box = None
            if box.clickedButton() is yes:
                self.rollback_to(v.id)

        box.finished.connect(answered)
        self.confirm_box = box
        box.open()

    def rollback_to(self, model_id: int) -> None:
        """Roll back now (after the confirmation); a refusal is shown, not raised."""
        try:
            self.ctl.rollback(model_id)
        except LearnError as exc:
            self.ctx.error("Roll back", str(exc))


register_panel("al_queue", "Label next", QueuePanel, roles=("annotator", "linguist"), area="right", order=20)
register_panel("al_model", "Model", ModelPanel, roles=("annotator", "linguist", "reviewer"), area="right", order=25)
