"""Active learning in the app: label a batch from the queue, see the model retrain and the queue move on."""

from __future__ import annotations

import dataclasses
import faulthandler
import threading

import pytest

from redactdesk.core.types import SpanStatus

USER_ROLE = 256  # Qt.ItemDataRole.UserRole


@pytest.fixture
def al_window(qtbot, tmp_path, settings, monkeypatch):
    monkeypatch.setenv("REDACTDESK_AL_AUTOSTART", "1")
    from redactdesk.gui.app import build_main_window
    from redactdesk.learn.training import TrainingSettings
    from redactdesk.learn.versions import set_project_learner
    from redactdesk.store import Project
    from redactdesk.synth import generate_corpus

    path = tmp_path / "al.rdproj"
    with Project.create(path, actor="tester") as project:
        set_project_learner(project, "crf")  # the CRF baseline, quick to train (the tagger: test_al_tagger)
        for conv in generate_corpus(range(100_300, 100_306)):
            conv.spans = [dataclasses.replace(s, status=SpanStatus.SUGGESTED) for s in conv.spans]
            project.add_conversation(conv)
    project = Project.open(path, actor="tester")
    win = build_main_window(project, role="annotator", settings=settings)
    qtbot.addWidget(win)
    win.show()
    queue, model = win.panel_widgets["al_queue"], win.panel_widgets["al_model"]
    ctl = queue.ctl
    ctl.training = TrainingSettings(max_iterations=25)
    queue.batch.setValue(6)
    yield win, queue, model, ctl
    win.close()
    project.close()


def _rows(queue):
    return [queue.tree.topLevelItem(i) for i in range(queue.tree.topLevelItemCount())]


def _label_queue(qtbot, win, queue):
    """Label every queued turn the way an annotator would: accept its suggestions, or say 'nothing here'."""
    from redactdesk.gui.commands import SetStatus

    ctx = win.ctx
    items = [row.data(0, USER_ROLE) for row in _rows(queue)]
    for item in items:
        row = next(r for r in _rows(queue) if r.data(0, USER_ROLE) == item)  # labelled rows leave the queue
        queue.tree.setCurrentItem(row)
        queue._open(row)  # what a double-click does
        assert ctx.conversation.id == item.conversation_id and ctx.current_word == item.start_word
        spans = [s for s in ctx.conversation.spans
                 if s.start_word < item.end_word and item.start_word < s.end_word and s.status == SpanStatus.SUGGESTED]
        if spans:
            for span in spans:
                assert ctx.push_command(SetStatus(ctx, span, SpanStatus.ACCEPTED)), ctx.last_status
        else:
            queue.none_btn.click()


def test_label_a_batch_then_queue_and_curve_update(qtbot, al_window):
    win, queue, model, ctl = al_window
    qtbot.waitUntil(lambda: queue.tree.topLevelItemCount() == 6 and not ctl.busy, timeout=60_000)
    assert model.curve_points() == [] and "No model yet" in model.version.text()
    first = [queue.tree.topLevelItem(i).data(0, USER_ROLE) for i in range(6)]
    assert all(q.margin is not None for q in first)  # the bundled source model scores the seed

    _label_queue(qtbot, win, queue)
    qtbot.waitUntil(lambda: len(model.curve_points()) == 1, timeout=60_000)
    qtbot.waitUntil(lambda: not ctl.busy and queue.tree.topLevelItemCount() == 6, timeout=60_000)
    n1 = model.curve_points()[0][0]
    assert n1 >= 6 and "Model v" in model.version.text()
    second = [queue.tree.topLevelItem(i).data(0, USER_ROLE) for i in range(6)]
    assert not {(q.conversation_id, q.turn_index) for q in second} & {(q.conversation_id, q.turn_index) for q in first}
    assert ctl.summary.latest is not None and "of" in queue.counts.text()

    _label_queue(qtbot, win, queue)
    qtbot.waitUntil(lambda: len(model.curve_points()) == 2, timeout=60_000)
    assert model.curve_points()[1][0] > n1
    qtbot.waitUntil(lambda: not ctl.busy, timeout=60_000)
    assert model.table.topLevelItemCount() > 0 and model.hint.text()

    # after each version a background job cross-validates: the curve, overall and per category
    qtbot.waitUntil(lambda: len(model.xval_points()) == 2 and not ctl.busy, timeout=60_000)
    assert [n for n, _ in model.xval_points()] == [n for n, _ in model.curve_points()]
    assert "Cross-validated after v" in model.xval.text() and "5-fold" in model.xval.text()
    assert model.versions.topLevelItem(0).text(5)  # the newest version's CV F1 in the versions list
    cats = [model.category.itemData(i) for i in range(model.category.count())]
    assert cats[0] == "all" and "PERSON" in cats
    model.category.setCurrentIndex(cats.index("PERSON"))
    assert model.xval_points() == ctl.summary.xval_curves["PERSON"]
    assert not model.rollback_btn.isEnabled() and "Only a reviewer" in model.rollback_btn.toolTip()


def test_strategy_selector_changes_the_queue_strategy(qtbot, al_window):
    win, queue, model, ctl = al_window
    qtbot.waitUntil(lambda: not ctl.busy and queue.tree.topLevelItemCount() == 6, timeout=60_000)
    chosen = queue.tree.topLevelItem(2).data(0, USER_ROLE)
    queue.tree.setCurrentItem(queue.tree.topLevelItem(2))
    ctl.queue_changed.emit()  # a job delivered: the rows are rebuilt, the selection stays
    assert queue.tree.currentItem().data(0, USER_ROLE) == chosen
    index = queue.strategy.findData("t-kmax")
    queue.strategy.setCurrentIndex(index)
    assert ctl.strategy == "t-kmax"
    assert win.ctx.project.setting("learn.strategy") == "t-kmax"


# ---------------------------------------------------------------------------- threads and closing
class _ThreadGuard:
    """Stands in for a project's database object and notes every use from a thread other than the GUI's."""

    def __init__(self, db, log):
        self._db = db
        self._log = log

    def _note(self, what):
        if threading.current_thread() is not threading.main_thread():
            self._log.append((threading.current_thread().name, what))

    def __getattr__(self, name):
        self._note(name)
        return getattr(self._db, name)

    def __getitem__(self, table):
        self._note(f"[{table}]")
        return self._db[table]


class _Cycle:
    """A reference cycle holding Qt objects, like a closed view; notes the thread that frees it."""

    freed: list[str] = []

    def __init__(self):
        from PySide6.QtGui import QFont, QPixmap
        from PySide6.QtWidgets import QLabel

        self.me = self
        self.font, self.pixmap, self.label = QFont("Sans", 9), QPixmap(8, 8), QLabel("x")

    def __del__(self):
        _Cycle.freed.append(threading.current_thread().name)


def test_jobs_free_qt_garbage_on_the_gui_thread(qtbot):
    """A job that allocates much must not run the cyclic GC itself (it would destroy Qt objects there)."""
    import gc

    from redactdesk.gui.jobs import JobRunner

    runner = JobRunner()
    _Cycle.freed = []
    cycles = [_Cycle() for _ in range(20)]
    gc.collect(0)  # creating Qt objects allocates much: start the job with a fresh young generation
    cycles.clear()  # garbage now, for the next collection of the middle generation

    def allocate(job):
        keep = [[i] for i in range(300_000)]  # thousands of times the GC threshold
        return len(keep)

    job = runner.run("allocate", allocate)
    assert runner.wait(30_000)  # the GUI thread allocates nothing meanwhile: the worker crosses the thresholds
    qtbot.waitUntil(lambda: not job.running, timeout=30_000)
    gc.collect()
    assert job.result == 300_000
    assert len(_Cycle.freed) == 20 and set(_Cycle.freed) == {threading.main_thread().name}
    assert gc.isenabled()


def _label_more(win, conv_id):
    """Accept every suggestion of one conversation, one command at a time (as a reviewer does)."""
    from redactdesk.gui.commands import SetStatus

    ctx = win.ctx
    ctx.open_conversation(conv_id)
    for span in [s for s in ctx.conversation.spans if s.status == SpanStatus.SUGGESTED]:
        assert ctx.push_command(SetStatus(ctx, span, SpanStatus.ACCEPTED)), ctx.last_status


def test_labelling_while_the_model_works_then_closing_mid_job(qtbot, al_window, monkeypatch):
    """The hang scenario: the window repaints and drops Qt garbage while the panel scores and trains,
    the annotator keeps labelling and asks for refreshes and retrains meanwhile, then the window closes
    during a job. A deadlock ends the run with every thread's stack (faulthandler) instead of hanging."""
    from PySide6.QtCore import QTimer

    from redactdesk.gui.panels import active_learning
    from redactdesk.store import Project

    faulthandler.dump_traceback_later(240, exit=True)
    try:
        win, queue, model, ctl = al_window
        ctx = win.ctx
        project = ctx.project
        off_thread: list[tuple[str, str]] = []
        monkeypatch.setattr(project, "db", _ThreadGuard(project.db, off_thread))
        running, peak, lock = [0], [0], threading.Lock()

        def counted(job, holder, cfg, _run=active_learning.run_request):  # jobs at work on the learner
            with lock:
                running[0] += 1
                peak[0] = max(peak[0], running[0])
            try:
                return _run(job, holder, cfg)
            finally:
                with lock:
                    running[0] -= 1

        monkeypatch.setattr(active_learning, "run_request", counted)

        def paint():  # what a busy window does: repaint everything, drop views with Qt objects in cycles
            win.transcript.update()
            model.plot.update()
            queue.tree.viewport().update()
            _Cycle()

        painter = QTimer(win, interval=10)
        painter.timeout.connect(paint)
        painter.start()
        qtbot.waitUntil(lambda: queue.tree.topLevelItemCount() == 6 and not ctl.busy, timeout=60_000)

        # a queue refresh reads the project in the job, not on the GUI thread
        reads = []
        monkeypatch.setattr(project, "load_conversation", lambda cid, _f=project.load_conversation: (
            reads.append(cid), _f(cid))[1])
        ctl.refresh_queue()
        qtbot.waitUntil(lambda: not ctl.busy and queue.tree.topLevelItemCount() == 6, timeout=60_000)
        assert reads == []

        # label the batch: training starts in the background; keep labelling and asking meanwhile
        _label_queue(qtbot, win, queue)
        qtbot.waitUntil(lambda: ctl.busy, timeout=10_000)
        for cid in project.conversation_ids()[-2:]:
            _label_more(win, cid)
            ctl.refresh_queue()
            ctl.retrain()
            win.repaint()
            qtbot.wait(50)
        qtbot.waitUntil(lambda: not ctl.busy and ctl._pending is None, timeout=120_000)
        assert peak[0] == 1, peak  # never two jobs on the one model
        assert off_thread == []  # jobs never used the window's connection
        assert len(model.curve_points()) >= 2 and ctl.counts["labelled"] >= ctl.trained_at
        assert queue.tree.topLevelItemCount() == 6

        # close the window while a job trains: it is cancelled, nothing starts afterwards
        ctl.retrain()
        qtbot.waitUntil(lambda: ctl.busy, timeout=10_000)
        job, started = ctl.job, ctl.jobs_run
        win.close()
        qtbot.waitUntil(lambda: not job.running, timeout=30_000)
        assert job.was_cancelled
        ctx.spans_changed.emit()
        ctl.refresh_queue()
        qtbot.wait(600)
        assert ctl.jobs_run == started and running == [0]
        painter.stop()
        versions = len(model.curve_points())
    finally:
        faulthandler.cancel_dump_traceback_later()
    with Project.open(project.path) as again:  # every finished version was stored
        assert len([m for m in again.models("active_learning")]) == versions
