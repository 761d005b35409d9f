"""The tagger learner in the app (issue 17): labelling 20 turns changes the open suggestions of the
other calls visibly, and the queue never holds a whole call."""

from __future__ import annotations

import dataclasses

from redactdesk.core.types import SpanStatus

USER_ROLE = 256  # Qt.ItemDataRole.UserRole


def _rows(queue):
    return [queue.tree.topLevelItem(i) for i in range(queue.tree.topLevelItemCount())]


def test_labelling_20_turns_changes_the_open_suggestions_of_other_calls(qtbot, tmp_path, settings, monkeypatch):
    monkeypatch.setenv("REDACTDESK_AL_AUTOSTART", "1")
    from redactdesk.gui.app import build_main_window
    from redactdesk.gui.commands import SetStatus
    from redactdesk.learn.segments import MAX_WORDS
    from redactdesk.learn.service import TAGGER_SOURCE_NAME
    from redactdesk.store import Project
    from redactdesk.synth import generate_corpus

    path = tmp_path / "al.rdproj"
    with Project.create(path, actor="tester") as project:
        for k, conv in enumerate(generate_corpus(range(100_300, 100_306))):
            # detection "missed" the names of the last three calls: the learner should find them there
            conv.spans = [dataclasses.replace(s, status=SpanStatus.SUGGESTED) for s in conv.spans
                          if k < 3 or s.category != "PERSON"]
            project.add_conversation(conv)
    project = Project.open(path, actor="tester")
    win = build_main_window(project, role="annotator", settings=settings)
    qtbot.addWidget(win)
    win.show()
    try:
        queue = win.panel_widgets["al_queue"]
        ctl, ctx = queue.ctl, win.ctx
        queue.batch.setValue(20)
        qtbot.waitUntil(lambda: queue.tree.topLevelItemCount() == 20 and not ctl.busy, timeout=120_000)
        items = [row.data(0, USER_ROLE) for row in _rows(queue)]
        assert all(q.end_word - q.start_word <= MAX_WORDS for q in items)
        before = {cid: {(s.start_word, s.end_word, s.category) for s in project.spans(cid, SpanStatus.SUGGESTED)}
                  for cid in project.conversation_ids()}

        for item in items:  # label the 20 turns as an annotator would
            row = next(r for r in _rows(queue) if r.data(0, USER_ROLE) == item)
            queue.tree.setCurrentItem(row)
            queue._open(row)
            spans = [s for s in ctx.conversation.spans if s.status == SpanStatus.SUGGESTED
                     and s.start_word < item.end_word and item.start_word < s.end_word]
            if spans:
                for span in spans:
                    assert ctx.push_command(SetStatus(ctx, span, SpanStatus.ACCEPTED)), ctx.last_status
            else:
                queue.none_btn.click()

        qtbot.waitUntil(lambda: ctl.last_changes is not None and not ctl.busy, timeout=120_000)
        changes = ctl.last_changes
        assert changes.added and "the model now also flags" in ctx.last_status
        assert ctl.summary.latest is not None and ctl.summary.latest.metrics["learner"] == "tagger"
        after = {cid: {(s.start_word, s.end_word, s.category) for s in project.spans(cid, SpanStatus.SUGGESTED)}
                 for cid in project.conversation_ids()}
        added = [(cid, a, b) for cid in after for a, b, _ in after[cid] - before[cid]]
        assert added and {cid for cid, _, _ in added} & {"call_en_100303", "call_en_100304", "call_en_100305"}
        for cid, a, b in added:  # the new suggestions lie outside the 20 turns just labelled
            assert not any(q.conversation_id == cid and a < q.end_word and q.start_word < b for q in items)
        assert all(s.sources == (TAGGER_SOURCE_NAME,) and s.status == SpanStatus.SUGGESTED
                   for cid, a, b in added for s in project.spans(cid) if (s.start_word, s.end_word) == (a, b))
    finally:
        win.close()
        project.close()
