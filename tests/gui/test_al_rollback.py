"""Model versions in the app (issue 17): a reviewer rolls the learner back to an earlier version and the
open calls get that version's suggestions again; annotators see the action disabled and are refused;
pruned versions show as such and cannot be chosen."""

from __future__ import annotations

import dataclasses

import pytest

from redactdesk.core.types import SpanStatus

UNTOUCHED = slice(3, 6)  # calls nobody labels: only the learner's suggestions change there


def _accept_all(proj, cid):
    for span in proj.spans(cid, SpanStatus.SUGGESTED):
        proj.update_span(span.id, action="accept", status=SpanStatus.ACCEPTED)


def _learner_spans(proj, ids):
    from redactdesk.learn.service import SOURCE_NAME

    return {(cid, s.start_word, s.end_word, s.category) for cid in ids for s in proj.spans(cid, SpanStatus.SUGGESTED)
            if s.sources == (SOURCE_NAME,)}


@pytest.fixture()
def versioned(tmp_path):
    """A project with three CRF versions (keep 2: v1 pruned) and v3's suggestions in the open calls."""
    from redactdesk.learn.service import ActiveLearner
    from redactdesk.learn.suggestion_sync import refresh_learner_suggestions
    from redactdesk.learn.training import TrainingSettings
    from redactdesk.learn.versions import KEEP_SETTING, set_project_learner
    from redactdesk.store import Project
    from redactdesk.synth import generate_corpus

    path = tmp_path / "v.rdproj"
    with Project.create(path, actor="tester") as proj:
        set_project_learner(proj, "crf")
        proj.set_setting(KEEP_SETTING, 2)
        for k, conv in enumerate(generate_corpus(range(100_300, 100_306))):
            # detection "missed" the names of the untouched calls: the learner's versions find some
            conv.spans = [dataclasses.replace(s, status=SpanStatus.SUGGESTED) for s in conv.spans
                          if k < UNTOUCHED.start or s.category != "PERSON"]
            proj.add_conversation(conv)
        ids = proj.conversation_ids()
        learner = ActiveLearner(proj, source=None, training=TrainingSettings(max_iterations=25))
        versions, shown = [], {}
        for k in range(3):
            _accept_all(proj, ids[k])
            versions.append(learner.retrain().id)
            refresh_learner_suggestions(proj, learner)
            shown[versions[-1]] = _learner_spans(proj, ids[UNTOUCHED])
    assert shown[versions[1]] != shown[versions[2]]  # the two versions suggest differently there
    return path, ids, versions, shown


def _open(qtbot, path, role, settings):
    from redactdesk.gui.app import build_main_window
    from redactdesk.store import Project

    project = Project.open(path, actor="tester")
    win = build_main_window(project, role=role, settings=settings)
    qtbot.addWidget(win)
    win.show()
    return win, project


def _select(panel, version_id):
    row = next(panel.versions.topLevelItem(i) for i in range(panel.versions.topLevelItemCount())
               if panel.versions.topLevelItem(i).data(0, 256).id == version_id)
    panel.versions.setCurrentItem(row)
    return row


def test_a_reviewer_rolls_back_and_the_earlier_suggestions_return(qtbot, versioned, settings):

    path, ids, (v1, v2, v3), shown = versioned
    win, project = _open(qtbot, path, "reviewer", settings)
    try:
        panel = win.panel_widgets["al_model"]
        rows = [panel.versions.topLevelItem(i) for i in range(panel.versions.topLevelItemCount())]
        assert [r.text(0) for r in rows] == [f"v{v3} (in use)", f"v{v2}", f"v{v1}"]  # newest first
        assert [r.text(6) for r in rows] == ["stored", "stored", "pruned"] and rows[0].text(2) == "crf"
        assert rows[0].text(3) and rows[0].text(4)  # labelled turns, score

        _select(panel, v1)
        assert not panel.rollback_btn.isEnabled() and "pruned" in panel.rollback_btn.toolTip()
        _select(panel, v3)
        assert not panel.rollback_btn.isEnabled() and "in use" in panel.rollback_btn.toolTip()

        _select(panel, v2)
        assert panel.rollback_btn.isEnabled()
        panel.rollback_btn.click()
        box = panel.confirm_box
        assert box is not None and box.isVisible() and f"v{v2}" in box.text()
        box.findChild(type(panel.rollback_btn), "confirmRollback").click()

        ctl = panel.ctl
        qtbot.waitUntil(lambda: ctl.last_changes is not None and not ctl.busy, timeout=60_000)
        assert _learner_spans(project, ids[UNTOUCHED]) == shown[v2]  # v2's suggestions are back
        assert ctl.last_changes.total and win.ctx.last_status.startswith(f"Rolled back to model v{v2}: ")
        assert panel.versions.topLevelItem(1).text(0) == f"v{v2} (in use)"
        entry = next(e for e in project.audit_log() if e.action == "rollback_model")
        assert entry.before["model_id"] == v3 and entry.after["model_id"] == v2 and entry.role == "reviewer"
    finally:
        win.close()
        project.close()


def test_an_annotator_sees_the_rollback_disabled_and_is_refused(qtbot, versioned, settings):
    path, ids, (v1, v2, v3), shown = versioned
    win, project = _open(qtbot, path, "annotator", settings)
    try:
        panel = win.panel_widgets["al_model"]
        _select(panel, v2)
        assert not panel.rollback_btn.isEnabled() and "Only a reviewer" in panel.rollback_btn.toolTip()
        panel.rollback_to(v2)  # even when asked directly, the CLI's rule refuses it
        assert "reviewer" in win.ctx.last_status and not panel.ctl.busy
        assert not any(e.action == "rollback_model" for e in project.audit_log())
        assert panel.ctl.summary.active == v3 and _learner_spans(project, ids[UNTOUCHED]) == shown[v3]

        win.ctx.set_role("reviewer")  # the role switch enables it
        assert panel.rollback_btn.isEnabled()
    finally:
        win.close()
        project.close()
