"""The app's stage jobs (gui/stage_jobs.py): one connection per job, the project's executor, cancel, the demo."""

from __future__ import annotations

import threading
from pathlib import Path

from redactdesk.core.types import ConversationStatus, Role, Span, SpanStatus
from redactdesk.store import Project

CALLS = ["call_a", "call_b", "call_c", "call_d"]


def _open(qtbot, path, settings, role="annotator"):
    from redactdesk.gui.app import build_main_window

    project = Project.open(path, actor="tester")
    win = build_main_window(project, role=role, settings=settings)
    qtbot.addWidget(win)
    win.show()
    return win, project


def _close(qtbot, win, project):
    win.close()  # pytest-qt deletes the window after the test
    project.close()


def _run(qtbot, ctx, fn):
    out = {}
    job = ctx.run_job("test", fn, lambda result: out.setdefault("result", result),
                      lambda message: out.setdefault("error", message))
    qtbot.waitUntil(lambda: not job.running, timeout=20000)
    assert "error" not in out, out.get("error")
    return out["result"]


def test_a_job_project_sees_what_the_window_committed_and_writes_as_the_current_role(qtbot, window):
    from redactdesk.pipeline.project_config import set_setting

    ctx = window.ctx
    ctx.project.add_term("allow", "northwind", "")  # committed by the window's own connection
    ctx.set_role("reviewer")

    def work(job):
        with ctx.job_project() as p:
            set_setting(p, "mask.padding", "0.2")  # written by the job's connection
            return p.terms("allow"), p.actor, p.role, Path(str(p.path))

    terms, actor, role, path = _run(qtbot, ctx, work)
    assert ("northwind", "") in terms
    assert (actor, role, path) == ("tester", Role.REVIEWER, Path(str(ctx.project.path)))
    entry = [d for d in ctx.project.audit_log() if d.action == "setting"][0]  # the window reads the job's commit (newest first)
    assert entry.after["key"] == "mask.padding" and entry.actor == "tester" and entry.role == Role.REVIEWER


def test_cancelling_a_multi_call_detect_keeps_finished_calls_and_half_writes_none(
        qtbot, tmp_path, settings, synthetic_call, monkeypatch):
    import redactdesk.detect.pipeline as detect_pipeline
    from redactdesk.pipeline import detection

    path = tmp_path / "four.rdproj"
    with Project.create(path, actor="tester") as p:
        for cid in CALLS:
            p.add_conversation(synthetic_call(tmp_path, cid))
    detected, release = [], threading.Event()

    def gated_detector(convs, language="en", allow=(), deny=()):
        if detected:  # the second call waits until the user has pressed Cancel
            assert release.wait(20)
        detected.extend(c.id for c in convs)
        return {c.id: [Span(0, 1, "PERSON", SpanStatus.SUGGESTED, sources=("fresh",))] for c in convs}

    monkeypatch.setattr(detect_pipeline, "detect_conversations", gated_detector)
    monkeypatch.setattr(detection, "BATCH", 1)  # one call per step, so cancel lands between calls
    win, project = _open(qtbot, path, settings)
    try:
        win.corpus.selected_ids = lambda: list(CALLS)
        win.detect_selected()
        job = win.jobs_indicator.job
        assert job is not None and job.title == "Detecting"
        qtbot.waitUntil(lambda: len(detected) == 1, timeout=20000)
        win.jobs_indicator.cancel.click()  # the progress bar's Cancel
        release.set()
        qtbot.waitUntil(lambda: not job.running, timeout=20000)
        assert job.was_cancelled and "cancelled" in win.ctx.last_status
        fresh, untouched = [], []
        for cid in CALLS:
            sources = {s.sources for s in project.spans(cid) if s.status == SpanStatus.SUGGESTED}
            assert sources in ({("fresh",)}, {("test",)}), cid  # all of one run or the other: none half written
            (fresh if sources == {("fresh",)} else untouched).append(cid)
        assert fresh == detected and fresh[0] == CALLS[0]  # what finished before the cancel is kept
        assert untouched and untouched[-1] == CALLS[-1]  # and the rest was never started
    finally:
        _close(qtbot, win, project)


class _ReversedExecutor:
    """A stand-in cluster: runs every task here but finishes them last-first, as workers may."""

    workers = 2

    def __init__(self):
        self.runs = []

    def run(self, fn, tasks, *, label="working", warm=(), progress=None, cancel=None):
        self.runs.append((label, [t.key for t in tasks], list(warm)))
        for task in reversed(list(tasks)):
            result = fn(*task.arguments(), **task.kwargs)
            if progress is not None:
                progress(0.5, label)
            yield task, result


def test_demo_preparation_runs_on_the_executor_and_opens_the_first_ready_call(qtbot, tmp_path, settings, monkeypatch):
    from contextlib import contextmanager

    from redactdesk.asr.transcribe import TranscriptionResult
    from redactdesk.formats import read_conversation_json
    from redactdesk.pipeline import demo, executor, stage_tasks

    path = demo.ensure_demo_project(tmp_path / "demo.rdproj", prepare=False, limit=2, quiet=True)
    with Project.open(path) as p:
        reference = {Path(p.load_conversation(cid).audio_path).name: p.load_conversation(cid).meta["reference"]
                     for cid in p.conversation_ids()}
        first_listed = p.conversation_ids()

    def reference_words(audio_path, *, backend, model, language, threads=None, speakers=0):
        ref = read_conversation_json(reference[Path(audio_path).name])
        return TranscriptionResult(ref.words, ref.turns, language, backend, model, 0.1, 0.01)

    cluster = _ReversedExecutor()

    @contextmanager
    def the_cluster(config=None, **_):
        yield cluster

    monkeypatch.setattr(stage_tasks, "transcribe_task", reference_words)
    monkeypatch.setattr(executor, "open_executor", the_cluster)
    win, project = _open(qtbot, path, settings)
    try:
        opened = []
        win.ctx.conversation_changed.connect(lambda c: opened.append(c.id if c is not None else None))
        win.prepare_pending()
        qtbot.waitUntil(lambda: "Demo ready" in win.ctx.last_status, timeout=60000)
        assert [(label, sorted(keys)) for label, keys, _ in cluster.runs] == [("transcribing", sorted(first_listed))]
        rows = project.list_conversations()
        assert [r.status for r in rows] == [ConversationStatus.DETECTED.value] * 2 and all(r.suggested for r in rows)
        first_ready = cluster.runs[0][1][-1]  # the stand-in cluster finished the last task it was given first
        assert [c for c in opened if c is not None][0] == first_ready
        assert win.ctx.conversation.id == first_ready and len(win.transcript.conv.words) > 0
    finally:
        _close(qtbot, win, project)


def test_a_role_without_the_capability_starts_no_stage_job_and_is_told_why(qtbot, window, tmp_path):
    window.ctx.set_role("reviewer")
    window.detect_selected()
    assert window.ctx.last_status == "The reviewer role cannot do that (detect)"
    window.transcribe_selected()
    assert window.ctx.last_status == "The reviewer role cannot do that (transcribe)"
    window.import_recordings([tmp_path / "call.wav"])
    assert window.ctx.last_status == "The reviewer role cannot do that (import)"
    assert not window.ctx.jobs.jobs
