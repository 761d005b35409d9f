"""Reviewer panel: mark a missed item (undoable), sign off, export a draft with progress and open it."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf
from PySide6.QtCore import QSettings, Qt

from redactdesk.core.types import Conversation, Role, Span, SpanStatus, Word
from redactdesk.gui import export_dialog
from redactdesk.gui.context import AppContext
from redactdesk.gui.panels import panels_for_role
from redactdesk.gui.panels import review as review_module
from redactdesk.resources import load_taxonomy
from redactdesk.risk.signoff import signoff_state
from redactdesk.store import Project

TEXT = "hello who is calling this is Marjorie Quillfeather my number is 0612 449377 thanks".split()


def _project(tmp_path: Path) -> Project:
    project = Project.create(tmp_path / "review.rdproj", actor="rita", role=Role.REVIEWER)
    rate = 16000
    for n in (1, 2, 3):
        cid = f"call_{n}"
        t = np.arange(int(6.0 * rate)) / rate
        sf.write(str(tmp_path / f"{cid}.wav"), (0.3 * np.sin(2 * np.pi * 200 * t)).astype("float32"), rate)
        words = [Word(w, 0.1 + 0.4 * i, 0.45 + 0.4 * i, 0.9, "agent" if i < 4 or i > 12 else "customer")
                 for i, w in enumerate(TEXT)]
        conv = Conversation(id=cid, audio_path=str(tmp_path / f"{cid}.wav"), sample_rate=rate, channels=1,
                            duration=6.0, words=words)
        conv.turns = conv.turns_from_speakers()
        conv.spans = [Span(6, 8, "PERSON", status=SpanStatus.ACCEPTED),
                      Span(11, 13, "PHONE", status=SpanStatus.ACCEPTED)]
        project.add_conversation(conv)
        # detected and reviewed, as a finished conversation is (the release gate and the risk need both)
        project.replace_suggestions(cid, [], source="detect")
        project.mark_reviewed(cid)
    return project


class _FakeDesktop:
    def __init__(self, opened: list) -> None:
        self.opened = opened

    def openUrl(self, url) -> bool:  # noqa: N802 - Qt's name
        self.opened.append(url.toLocalFile())
        return True


@pytest.fixture
def review_ctx(qtbot, tmp_path):
    project = _project(tmp_path)
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    ctx = AppContext(project, load_taxonomy(), Role.REVIEWER, settings)
    yield ctx
    ctx.jobs.cancel_all()
    ctx.jobs.wait(30000)
    project.close()


def test_panel_is_registered_for_reviewers_only():
    assert review_module.make_review_panel is not None
    assert "review" in [s.id for s in panels_for_role("reviewer")]
    assert "review" not in [s.id for s in panels_for_role("annotator")]


def test_reviewer_marks_a_missed_item_signs_off_and_exports_a_draft(qtbot, review_ctx, tmp_path, monkeypatch):
    ctx = review_ctx
    project = ctx.project
    spec = next(s for s in panels_for_role("reviewer") if s.id == "review")
    panel = spec.factory(ctx)
    qtbot.addWidget(panel)
    assert "Not signed off" in panel.state.text()

    # a review sample of two, stratified; the list shows it
    panel.sample_size.setValue(2)
    qtbot.mouseClick(panel.findChild(type(panel.sign_button), "drawSample"), Qt.MouseButton.LeftButton)
    assert len(project.setting("review.sample")) == 2 and panel.sample_list.count() == 2

    # mark the word "calling" as a missed partial name of a participant
    marks = []
    ctx.missed_marks.connect(lambda cid, m: marks.append((cid, m)))
    ctx.open_conversation("call_1")
    ctx.select(None, 3)
    dialog = panel.mark_missed()
    dialog.set_category("PERSON")
    dialog.partial.setChecked(True)
    assert dialog.words.text() == "“calling”" and dialog.tag.text() == "MISSED_PERSON_PARTIAL_SPEAKER"
    dialog.accept()
    rows = project.missed_items("call_1")
    assert [(r["start_word"], r["end_word"], r["category"], r["partial"], r["speaker"]) for r in rows] == \
        [(3, 4, "PERSON", True, True)]
    assert panel.missed_list.count() == 1
    assert panel.missed_list.item(0).text().startswith("MISSED_PERSON_PARTIAL_SPEAKER")
    assert marks[-1] == ("call_1", [(3, 4, "MISSED_PERSON_PARTIAL_SPEAKER")])  # drawn on the transcript
    expected = ctx.taxonomy.miss_score("PERSON", partial=True, speaker=True)
    sample = project.setting("review.sample")
    if "call_1" in sample:
        assert panel.summary.scores["call_1"] == expected
    ctx.undo_stack.undo()
    assert project.missed_items("call_1") == [] and panel.missed_list.count() == 0
    assert marks[-1] == ("call_1", [])
    ctx.undo_stack.redo()
    assert len(project.missed_items("call_1")) == 1 and panel.missed_list.count() == 1
    assert [d.action for d in project.audit_log(limit=3)] == ["mark_missed", "unmark_missed", "mark_missed"]

    # score every conversation: call_1 now carries the mark
    panel.clear_sample()
    assert panel.summary.scores == {"call_1": expected, "call_2": 0, "call_3": 0}
    assert "Criterion mu+sigma" in panel.risk_label.text() and "PASS" in panel.risk_label.text()

    # sign off through the dialog
    sign = panel.open_sign_off()
    sign.name.setText("Rita Reviewer")
    sign.comment.setPlainText("sample checked")
    sign.accept()
    assert signoff_state(project).valid
    assert "signed off by Rita Reviewer" in panel.state.text()

    # a later change makes it stale, shown in the panel
    span = project.spans("call_2")[0]
    project.update_span(span.id, action="recategorise", category="ORGANIZATION")
    ctx.reload()
    assert "STALE" in panel.state.text()

    # export a draft with progress; the summary shows and the folder opens
    export = panel.open_export()
    assert export.draft.isChecked() and not export.draft.isEnabled()  # stale: only a draft
    export.folder.setText(str(tmp_path / "releases"))
    export.name.setText("r1")
    export.method.setCurrentText("silence")
    export.relisten.setChecked(False)
    export.prosody.setChecked(False)
    qtbot.mouseClick(export.export_button, Qt.MouseButton.LeftButton)
    assert export.job is not None and export.cancel_button.isEnabled() and not export.export_button.isEnabled()
    qtbot.waitUntil(lambda: export.result is not None or export.error is not None, timeout=120000)
    assert export.error is None, export.error
    folder = tmp_path / "releases" / "r1-DRAFT"
    assert export.result.path == folder and folder.is_dir()
    assert json.loads((folder / "manifest.json").read_text())["draft"] is True
    assert "(DRAFT)" in export.summary.toPlainText() and export.progress.value() == 1000
    opened = []
    monkeypatch.setattr(export_dialog, "QDesktopServices", _FakeDesktop(opened))
    qtbot.mouseClick(export.open_button, Qt.MouseButton.LeftButton)
    assert opened == [str(folder)]
    assert project.audit_log(limit=1)[0].action == "export"


def test_sign_off_is_for_reviewers_only(qtbot, review_ctx):
    ctx = review_ctx
    panel = review_module.ReviewPanel(ctx)
    qtbot.addWidget(panel)
    ctx.set_role(Role.LINGUIST)
    assert not panel.sign_button.isEnabled()
    assert panel.open_sign_off() is None
    assert not signoff_state(ctx.project).signed


def test_cancelled_export_leaves_no_folder(qtbot, review_ctx, tmp_path):
    panel = review_module.ReviewPanel(review_ctx)
    qtbot.addWidget(panel)
    export = panel.open_export()
    export.folder.setText(str(tmp_path / "out"))
    export.name.setText("r2")
    export.relisten.setChecked(False)
    export.prosody.setChecked(False)
    qtbot.mouseClick(export.export_button, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(export.cancel_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: export.job is None, timeout=60000)
    assert export.error == "cancelled" and export.result is None
    assert "nothing was written" in export.step.text()
    assert not (tmp_path / "out").exists() or list((tmp_path / "out").iterdir()) == []
    assert export.export_button.isEnabled() and not export.open_button.isEnabled()


def test_transcript_draws_missed_marks_of_its_own_conversation_only(qtbot, review_ctx):
    from redactdesk.gui.transcript import TranscriptView

    view = TranscriptView(review_ctx.taxonomy)
    qtbot.addWidget(view)
    view.resize(700, 300)
    view.set_conversation(review_ctx.project.load_conversation("call_1"))
    view.set_missed("call_2", [(3, 4, "MISSED_PERSON")])
    assert "MISSED_PERSON" not in view.tooltip_html(3)
    view.set_missed("call_1", [(3, 4, "MISSED_PERSON")])
    assert "MISSED_PERSON" in view.tooltip_html(3) and "MISSED_PERSON" not in view.tooltip_html(5)
    before = view.viewport().grab().toImage()
    view.set_missed("call_1", [])
    assert view.viewport().grab().toImage() != before  # the red mark was painted, and is gone now
