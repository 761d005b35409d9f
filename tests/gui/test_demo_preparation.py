"""The demo opens at once; its calls are transcribed and detected in the background, one by one."""

from __future__ import annotations

from redactdesk.core.types import ConversationStatus
from redactdesk.pipeline import demo, transcription
from redactdesk.store import Project


def _fake_transcribe(project, ids, *, on_commit=None, **kw):
    """Stand-in recogniser: the reference words (the real one is tested in tests/asr and tests/pipeline),
    committed and announced one call at a time like the real one."""
    from redactdesk.formats import read_conversation_json

    out = []
    for cid in ids:
        ref = read_conversation_json(project.load_conversation(cid).meta["reference"])
        project.replace_words(cid, ref.words, ref.turns, action="transcribe", status=ConversationStatus.TRANSCRIBED)
        out.append(transcription.TranscribeOutcome(cid, len(ref.words), 0.1, 0.01, len(ref.words), []))
        if on_commit is not None:
            on_commit(out[-1])
    return out


def test_window_prepares_pending_calls_and_opens_the_first(qtbot, tmp_path, settings, monkeypatch):
    from redactdesk.gui.app import build_main_window

    monkeypatch.setattr(transcription, "transcribe_project", _fake_transcribe)
    path = demo.ensure_demo_project(tmp_path / "demo.rdproj", prepare=False, limit=2, quiet=True)
    project = Project.open(path, actor="tester")
    win = build_main_window(project, role="annotator", settings=settings)
    qtbot.addWidget(win)
    win.show()
    assert [r.status for r in project.list_conversations()] == ["new", "new"]
    assert win.ctx.conversation is None or not win.ctx.conversation.words  # nothing to show yet
    win.prepare_pending()
    qtbot.waitUntil(lambda: "Demo ready" in win.ctx.last_status, timeout=120000)
    rows = project.list_conversations()
    assert [r.status for r in rows] == ["detected", "detected"] and all(r.suggested for r in rows)
    assert win.ctx.conversation is not None and win.ctx.conversation.id == rows[0].id  # opened when ready
    assert win.transcript.conv is not None and len(win.transcript.conv.words) == rows[0].n_words
    win.prepare_pending()  # nothing left: no job starts
    assert not [j for j in win.ctx.jobs.jobs if j.running]
    win.close()
    project.close()
