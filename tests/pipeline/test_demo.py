"""The demo: created in seconds, prepared (transcribe + detect) resumably, whole path on a copy."""

from __future__ import annotations

import os
import stat

import pytest

from redactdesk.core.types import ConversationStatus
from redactdesk.pipeline import demo
from redactdesk.store import Project


def test_demo_project_is_created_without_transcribing(tmp_path):
    path = demo.ensure_demo_project(tmp_path / "demo.rdproj", prepare=False, limit=3, quiet=True)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert not list(tmp_path.glob("*.building*"))
    with Project.open(path) as project:
        rows = project.list_conversations()
        assert [r.status for r in rows] == ["new"] * 3 and all(r.audio_path for r in rows)
        assert project.setting("demo") is True
        to_transcribe, to_detect = demo.pending_conversations(project)
        assert to_transcribe == to_detect == [r.id for r in rows]
        assert all(os.path.exists(project.load_conversation(r.id).meta["reference"]) for r in rows)


def test_preparation_is_resumable_and_skips_finished_calls(tmp_path, monkeypatch):
    """A stand-in recogniser: the second call fails mid-way; the first stays done, a re-run finishes."""
    from redactdesk.formats import read_conversation_json
    from redactdesk.pipeline import transcription

    calls = []

    def fake_transcribe(project, ids, **kw):
        cid = ids[0]
        calls.append(cid)
        if cid == "call_en_1001" and calls.count(cid) == 1:
            raise RuntimeError("recogniser crashed")
        ref = read_conversation_json(project.load_conversation(cid).meta["reference"])
        project.replace_words(cid, ref.words, ref.turns, action="transcribe", status=ConversationStatus.TRANSCRIBED)
        return [transcription.TranscribeOutcome(cid, len(ref.words), 1.0, 0.01, len(ref.words), [])]

    monkeypatch.setattr(transcription, "transcribe_project", fake_transcribe)
    path = demo.ensure_demo_project(tmp_path / "demo.rdproj", prepare=False, limit=2, quiet=True)
    with pytest.raises(RuntimeError):
        demo.ensure_demo_project(path, quiet=True)
    with Project.open(path) as project:
        assert [r.status for r in project.list_conversations()] == ["detected", "new"]
    demo.ensure_demo_project(path, quiet=True)
    assert calls == ["call_en_1000", "call_en_1001", "call_en_1001"]  # the finished call was not redone
    with Project.open(path) as project:
        rows = project.list_conversations()
        assert [r.status for r in rows] == ["detected", "detected"] and all(r.suggested for r in rows)


def test_headless_demo_runs_the_whole_path_on_a_copy(tmp_path, capsys):
    """Real embedded ASR (tiny.en) on one call, then review, substitute, mask, sign off, export."""
    path = demo.ensure_demo_project(tmp_path / "demo.rdproj", model="tiny.en", limit=1, quiet=True)
    summary = demo.run_headless(path, out_root=tmp_path / "releases", quiet=True)
    out = capsys.readouterr().out
    assert summary.release is not None and (summary.release / "manifest.json").is_file()
    assert "leak scan: 0 original value(s) in the text; re-listen: 0 item(s) still recognised" in out
    assert "residual risk after review: mean 0.00" in out and "sign-off: signed off by Demo Reviewer" in out
    assert summary.project != path and summary.project.is_file()  # the run worked on a copy ...
    with Project.open(path) as project:  # ... so the demo project is still unreviewed
        assert all(r.accepted == 0 and r.status == "detected" for r in project.list_conversations())
        assert project.latest_signoff() is None
    assert not any(p.suffix == ".rdproj" for p in summary.release.rglob("*"))  # no project file in a release


def test_a_demo_built_from_older_sample_calls_is_rebuilt(tmp_path, monkeypatch):
    path = demo.ensure_demo_project(tmp_path / "demo.rdproj", prepare=False, limit=1, quiet=True)
    with Project.open(path) as project:
        project.set_setting("marker", 1)
    demo.ensure_demo_project(path, prepare=False, limit=1, quiet=True)
    with Project.open(path) as project:
        assert project.setting("marker") == 1  # same samples: kept
    monkeypatch.setattr(demo, "samples_fingerprint", lambda: "changed")
    demo.ensure_demo_project(path, prepare=False, limit=1, quiet=True)
    with Project.open(path) as project:
        assert project.setting("marker") is None and project.setting("demo.samples") == "changed"


def test_a_demo_detected_by_an_older_detector_is_detected_again(tmp_path, monkeypatch):
    """The built demo project is kept between runs: after a detector update its suggestions (and the
    headless demo's precision and recall) must be the new detector's, not the old one's."""
    from redactdesk.formats import read_conversation_json
    from redactdesk.pipeline import detection

    path = demo.ensure_demo_project(tmp_path / "demo.rdproj", prepare=False, limit=1, quiet=True)
    with Project.open(path) as project:
        cid = project.conversation_ids()[0]
        ref = read_conversation_json(project.load_conversation(cid).meta["reference"])
        project.replace_words(cid, ref.words, ref.turns, action="transcribe", status=ConversationStatus.TRANSCRIBED)
    detected = []
    real = detection.detect_project
    monkeypatch.setattr(detection, "detect_project", lambda p, ids=None, **kw: detected.append(list(ids)) or real(p, ids, **kw))
    demo.ensure_demo_project(path, limit=1, quiet=True)  # detects the transcribed call once
    demo.ensure_demo_project(path, limit=1, quiet=True)  # same detector: nothing again
    assert detected == [[cid]]
    monkeypatch.setattr(demo, "detector_fingerprint", lambda: "a newer detector")
    demo.ensure_demo_project(path, prepare=False, limit=1, quiet=True)  # the app's way: it prepares in the background
    with Project.open(path) as project:
        assert demo.pending_conversations(project) == ([], [cid])  # detected again, not transcribed again
        assert project.setting("demo.detector") == "a newer detector"
    demo.ensure_demo_project(path, limit=1, quiet=True)
    assert detected == [[cid], [cid]]
    with Project.open(path) as project:
        assert project.list_conversations()[0].suggested > 0 and demo.pending_conversations(project) == ([], [])
