"""Batch stages on a Dask cluster: a killed worker loses nothing and duplicates nothing, cancel keeps
what finished, a rerun resumes, and the CLI reaches an existing scheduler.

One 2-process local cluster serves the module (each start loads the detector in two processes).
"""

from __future__ import annotations

import os
import re
import signal
import time
from pathlib import Path

import pytest

from redactdesk.core.types import ConversationStatus
from redactdesk.pipeline.detection import detect_project
from redactdesk.pipeline.executor import ExecutorConfig, open_executor
from redactdesk.pipeline.progress import Cancelled
from redactdesk.store import Project

N_CALLS = 16


@pytest.fixture(scope="module")
def calls():
    from redactdesk.synth import generate_corpus

    return [type(c)(id=c.id, words=c.words, turns=c.turns, language=c.language)
            for c in generate_corpus(range(100000, 100000 + N_CALLS), "en")]


@pytest.fixture(scope="module")
def cluster():
    with open_executor(ExecutorConfig(workers=2)) as executor:
        executor.start()
        yield executor


def _project(path: Path, calls) -> Project:
    project = Project.create(path)
    for conv in calls:
        project.add_conversation(conv)
    return project


def _detect_entries(project: Project) -> dict[str, int]:
    out: dict[str, int] = {}
    for d in project.audit_log():
        if d.action == "detect":
            out[d.conversation_id] = out.get(d.conversation_id, 0) + 1
    return out


def _spans(project: Project, cid: str) -> list[tuple[int, int, str]]:
    return sorted((s.start_word, s.end_word, s.category) for s in project.spans(cid))


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_a_worker_killed_mid_run_loses_and_duplicates_nothing(tmp_path, calls, cluster):
    from redactdesk.detect.pipeline import detect_conversations

    project = _project(tmp_path / "p.rdproj", calls)
    pids = cluster.worker_pids()
    assert len(pids) == 2
    killed: list[int] = []

    def progress(fraction: float, message: str) -> None:
        if killed or fraction <= 0:
            return
        busy = [addr for addr, keys in cluster.client.processing().items() if keys]
        assert busy, "the other tasks should still be running when the first result arrives"
        pid = pids[busy[0]]
        os.kill(pid, signal.SIGKILL)
        killed.append(pid)

    counts = detect_project(project, executor=cluster, progress=progress, resume=True)

    assert killed and not _alive(killed[0])
    assert sorted(counts) == sorted(c.id for c in calls)
    assert _detect_entries(project) == {c.id: 1 for c in calls}  # each committed exactly once
    expected = detect_conversations(calls, language="en")
    for conv in calls:
        spans = _spans(project, conv.id)
        assert len(spans) == len(set(spans)) == counts[conv.id]
        assert spans == sorted((s.start_word, s.end_word, s.category) for s in expected[conv.id])
        assert project.detected_at(conv.id)
        assert project.load_conversation(conv.id).status == ConversationStatus.DETECTED
    assert project.setting("runs.detect") is None  # the run finished: nothing left to resume
    deadline = time.monotonic() + 60
    while len(cluster.client.scheduler_info()["workers"]) < 2 and time.monotonic() < deadline:
        time.sleep(0.2)  # the nanny replaces the killed worker
    assert killed[0] not in cluster.worker_pids().values()


def test_cancel_keeps_what_finished_and_a_rerun_does_the_rest(tmp_path, calls, cluster):
    project = _project(tmp_path / "p.rdproj", calls)
    done: list[float] = []

    def progress(fraction: float, message: str) -> None:
        if fraction > 0:
            done.append(fraction)

    with pytest.raises(Cancelled):
        detect_project(project, executor=cluster, progress=progress, cancel=lambda: bool(done), resume=True)
    first = _detect_entries(project)
    assert 0 < len(first) < N_CALLS
    assert project.setting("runs.detect") is not None  # the unfinished run is remembered

    counts = detect_project(project, executor=cluster, resume=True)

    assert sorted(counts) == sorted(set(c.id for c in calls) - set(first))  # only what was left
    assert _detect_entries(project) == {c.id: 1 for c in calls}
    assert project.setting("runs.detect") is None


def test_cli_detect_on_an_existing_scheduler(tmp_path, calls, cluster, capsys):
    from redactdesk.cli.main import main

    path = tmp_path / "p.rdproj"
    _project(path, calls[:4]).close()
    address = cluster.client.scheduler.address

    assert main(["detect", str(path), "--scheduler", address]) == 0

    with Project.open(path) as project:
        assert _detect_entries(project) == {c.id: 1 for c in calls[:4]}
    assert "Dask scheduler" in capsys.readouterr().err


def test_ctrl_c_exits_130_keeps_what_finished_and_the_rerun_does_the_rest(tmp_path, calls, cluster):
    import dataclasses
    import subprocess
    import sys

    from redactdesk.cli.main import main

    many = [dataclasses.replace(c, id=f"{c.id}_{k}") for k in range(32) for c in calls]  # long enough to stop
    path = tmp_path / "p.rdproj"
    _project(path, many).close()
    err_path = tmp_path / "stderr.txt"
    with open(err_path, "w") as err:
        # A terminal starts a command with Ctrl+C's default action. A child inherits an *ignored*
        # SIGINT instead (a suite started in the background has one, and Python then raises no
        # KeyboardInterrupt): in two full runs started that way this test saw exit 0 after the signal,
        # while it passed alone. The child restores the default, as a terminal would give it.
        argv = ["redactdesk", "detect", str(path), "--scheduler", cluster.client.scheduler.address]
        boot = ("import runpy, signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
                f"sys.argv = {argv!r}; runpy.run_module('redactdesk', run_name='__main__')")
        proc = subprocess.Popen([sys.executable, "-c", boot], stdout=subprocess.DEVNULL, stderr=err,
                                start_new_session=True,  # progress shown even if an earlier test ran `-q`
                                env={k: v for k, v in os.environ.items() if k != "REDACTDESK_QUIET"})
        deadline = time.monotonic() + 120
        started = re.compile(r"detecting [1-9]\d*/")  # a task finished (tqdm may skip showing "1/")
        while not started.search(err_path.read_text()) and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.02)
        assert proc.poll() is None, "the run ended before it could be interrupted"
        os.killpg(proc.pid, signal.SIGINT)
        assert proc.wait(timeout=60) == 130
    stderr = err_path.read_text()
    assert "interrupted" in stderr and "Traceback" not in stderr
    with Project.open(path) as project:
        first = _detect_entries(project)
        assert 0 < len(first) < len(many) and set(first.values()) == {1}
        assert project.setting("runs.detect") is not None

    assert main(["detect", str(path), "--scheduler", cluster.client.scheduler.address]) == 0

    with Project.open(path) as project:
        assert _detect_entries(project) == {c.id: 1 for c in many}
        assert project.setting("runs.detect") is None


def test_mask_on_a_cluster_writes_the_same_files_as_in_process(tmp_path, cluster):
    import hashlib

    import numpy as np
    import soundfile as sf

    from redactdesk.core.types import Conversation, Span, SpanStatus, Word
    from redactdesk.pipeline.masking import mask_project_with

    project = Project.create(tmp_path / "p.rdproj")
    rng = np.random.default_rng(0)
    for n in range(5):
        audio = tmp_path / f"call_{n}.wav"
        sf.write(str(audio), (0.2 * rng.standard_normal(16000 * 3)).astype("float32"), 16000, subtype="PCM_16")
        words = [Word(t, 0.5 * i, 0.5 * i + 0.4) for i, t in enumerate("my name is Ann Lee".split())]
        project.add_conversation(Conversation(id=f"call_{n}", audio_path=str(audio), duration=3.0, words=words,
                                              spans=[Span(3, 5, "PERSON", status=SpanStatus.ACCEPTED)]))
    project.add_conversation(Conversation(id="text_only", words=[Word("hi", 0.0, 0.3)]))

    here = mask_project_with(project, tmp_path / "here", "beep")
    there = mask_project_with(project, tmp_path / "there", "beep", executor=cluster)

    def digest(path):
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()

    assert [r.conversation_id for r in there] == [r.conversation_id for r in here] == \
        [f"call_{n}" for n in range(5)] + ["text_only"]
    assert there[-1].skipped and not there[-1].output
    assert [digest(r.output) for r in there[:-1]] == [digest(r.output) for r in here[:-1]]
    assert all(Path(r.output).parent == tmp_path / "there" for r in there[:-1])


def test_transcription_on_a_cluster_gives_the_same_words_and_commits_each_call_once(tmp_path, cluster):
    """Whisper runs in the workers (each loads the model once), the project is written only here, one
    transaction per call: the words equal an in-process run's, and each call has one transcribe entry."""
    import shutil

    from redactdesk.core.types import Conversation
    from redactdesk.pipeline.transcription import transcribe_project

    clip = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "speech" / "jfk.flac"
    if not clip.exists():
        pytest.skip(f"public speech clip not found: {clip} (the public sets live in ../shared/data)")
    here_p, there_p = Project.create(tmp_path / "here.rdproj"), Project.create(tmp_path / "there.rdproj")
    for project in (here_p, there_p):
        for n in range(3):
            audio = tmp_path / f"{project.path.stem}_{n}.flac"
            shutil.copy(clip, audio)
            project.add_conversation(Conversation(id=f"call_{n}", audio_path=str(audio), language="en"))
    transcribe_project(here_p, model="tiny.en", speakers=0)
    there = transcribe_project(there_p, model="tiny.en", speakers=0, executor=cluster)
    assert sorted(o.conversation_id for o in there) == [f"call_{n}" for n in range(3)]

    def words(project, cid):
        return [(w.text, round(w.start, 2), round(w.end, 2)) for w in project.load_conversation(cid).words]

    for n in range(3):
        assert words(there_p, f"call_{n}") and words(there_p, f"call_{n}") == words(here_p, f"call_{n}")
    entries = [d.conversation_id for d in there_p.audit_log() if d.action == "transcribe"]
    assert sorted(entries) == [f"call_{n}" for n in range(3)]
    here_p.close()
    there_p.close()
