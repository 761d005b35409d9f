"""Pseudonyms panel: an edit propagates to every linked occurrence and undoes; lock, regenerate, link."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSettings

from redactdesk.core.types import Conversation, Role, Span, SpanStatus, Turn, Word
from redactdesk.gui.context import AppContext
from redactdesk.gui.panels import linguist as linguist_module
from redactdesk.gui.panels import panels_for_role
from redactdesk.resources import load_taxonomy
from redactdesk.store import Project
from redactdesk.substitute.text import plain_letters

LINES = [("agent", "thank you for calling this is Emma"), ("customer", "hi it's Daniel Brooks"),
         ("agent", "can you spell Brooks"), ("customer", "B R O O K S"),
         ("customer", "email is daniel dot brooks at example dot com"), ("agent", "thanks Dan")]
SPANS = [(0, 6, 7, "PERSON"), (1, 2, 4, "PERSON"), (2, 3, 4, "PERSON"), (3, 0, 6, "SPELLED_LETTERS"),
         (4, 2, 9, "EMAIL"), (5, 1, 2, "PERSON")]


def _conversation() -> Conversation:
    words: list[Word] = []
    turns: list[Turn] = []
    starts = []
    t = 0.0
    for speaker, text in LINES:
        starts.append(len(words))
        for tok in text.split():
            words.append(Word(tok, round(t, 2), round(t + 0.3, 2), 0.9, speaker))
            t += 0.4
        turns.append(Turn(speaker, starts[-1], len(words)))
    spans = [Span(starts[line] + a, starts[line] + b, cat, SpanStatus.ACCEPTED) for line, a, b, cat in SPANS]
    return Conversation(id="call_1", words=words, turns=turns, spans=spans, language="en")


@pytest.fixture
def ctx(qtbot, tmp_path):
    project = Project.create(tmp_path / "ling.rdproj", actor="lena", role=Role.LINGUIST)
    project.add_conversation(_conversation())
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    context = AppContext(project, load_taxonomy(), Role.LINGUIST, settings)
    context.open_conversation("call_1")
    yield context
    context.closing.emit()  # as the window does: panels stop their timers before the project closes
    qtbot.wait(60)
    project.close()


def _panel(qtbot, ctx):
    spec = next(s for s in panels_for_role(ctx.role) if s.id == "pseudonyms")
    panel = spec.factory(ctx)
    qtbot.addWidget(panel)
    return panel


def _said(panel, span_index: int) -> str:
    return panel.result.replacements[span_index].surrogate


def test_registered_for_linguists_and_reviewers_only():
    assert linguist_module.LinguistPanel is not None
    assert "pseudonyms" in [s.id for s in panels_for_role("linguist")]
    assert "pseudonyms" in [s.id for s in panels_for_role("reviewer")]
    assert "pseudonyms" not in [s.id for s in panels_for_role("annotator")]


def test_edit_propagates_to_every_occurrence_and_undoes(qtbot, ctx):
    panel = _panel(qtbot, ctx)
    assert panel.result is not None and not panel.result.warnings
    before = [_said(panel, i) for i in range(6)]
    old_surname = before[2]
    assert before[1].split()[1] == old_surname and before[3] == " ".join(plain_letters(old_surname))
    assert "Brooks" not in panel.revised_view.toPlainText() and "Brooks" in panel.original_view.toPlainText()

    panel.select_key("person:surname:brooks")
    panel.edit.setText("Okafor")
    panel.apply_button.click()
    qtbot.waitUntil(lambda: _said(panel, 2) == "Okafor")
    assert _said(panel, 1).split()[1] == "Okafor"  # the full name
    assert _said(panel, 3) == "O K A F O R"  # the spelling
    assert "okafor" in _said(panel, 4).split()  # the e-mail
    assert "Okafor" in panel.revised_view.toPlainText()
    row = next(r for r in ctx.project.pseudonyms("call_1") if r["key"] == "person:surname:brooks")
    assert row["surrogate"] == "Okafor"
    assert ctx.project.audit_log(limit=1)[0].action == "pseudonym_edit"

    ctx.undo_stack.undo()
    qtbot.waitUntil(lambda: _said(panel, 2) == old_surname)
    assert [_said(panel, i) for i in range(6)] == before
    assert ctx.project.audit_log(limit=1)[0].action == "undo_pseudonym_edit"
    ctx.undo_stack.redo()
    qtbot.waitUntil(lambda: _said(panel, 2) == "Okafor")


def test_lock_regenerate_and_short_form(qtbot, ctx):
    panel = _panel(qtbot, ctx)
    given = _said(panel, 1).split()[0]
    short = _said(panel, 5)
    assert short != "Dan" and short != given  # "Dan" is said as the surrogate's short form
    panel.select_key("person:given:daniel")
    assert panel.regenerate()
    qtbot.waitUntil(lambda: _said(panel, 1).split()[0] != given)
    panel.select_key("person:given:daniel")
    assert panel.toggle_lock()
    assert next(r for r in ctx.project.pseudonyms("call_1") if r["key"] == "person:given:daniel")["locked"]
    panel.select_key("person:given:daniel")
    assert not panel.regenerate()  # locked entries stay
    ctx.undo_stack.undo()
    ctx.undo_stack.undo()
    qtbot.waitUntil(lambda: _said(panel, 1).split()[0] == given)


def test_link_two_spans_as_one_entity_and_undo(qtbot, ctx):
    panel = _panel(qtbot, ctx)
    emma = panel.result.replacements[0].surrogate
    assert _said(panel, 5) != emma
    for i in range(panel.tree.topLevelItemCount()):
        item = panel.tree.topLevelItem(i)
        if item.data(0, linguist_module.KEY_ROLE) in ("person:given:emma", "person:given:daniel"):
            item.child(0).setSelected(True) if item.data(0, linguist_module.KEY_ROLE) == "person:given:emma" else \
                item.child(item.childCount() - 1).setSelected(True)
    assert panel.link_selected()
    spans = ctx.project.spans("call_1")
    assert spans[0].entity is not None and spans[0].entity == spans[-1].entity
    ctx.undo_stack.undo()
    assert all(s.entity is None for s in ctx.project.spans("call_1"))


def test_reviewer_sees_the_map_read_only(qtbot, ctx):
    ctx.set_role(Role.REVIEWER)
    panel = _panel(qtbot, ctx)
    assert "read only" in panel.summary.text()
    panel.select_key("person:surname:brooks")
    assert not panel.apply_button.isEnabled() and panel.edit.isReadOnly()
    assert not panel.apply_edit("Okafor")
    assert ctx.project.pseudonyms("call_1") == []  # a reviewer's view writes nothing


def test_gazetteer_entry_added_in_the_app_is_used_and_undone(qtbot, ctx):
    from redactdesk.substitute import load_gazetteer

    panel = _panel(qtbot, ctx)
    assert panel.edit_gazetteer(True, "brands", "Zyxwood")
    edits = ctx.project.gazetteer_entries("en")
    assert {"category": "brands", "entry": "Zyxwood", "action": "add"} in edits
    assert load_gazetteer("en", edits).contains("brands", "Zyxwood")
    assert ctx.project.audit_log(limit=1)[0].action == "gazetteer_add"
    assert "Zyxwood" not in str(ctx.project.audit_log(limit=1)[0].after)
    ctx.undo_stack.undo()
    assert not load_gazetteer("en", ctx.project.gazetteer_entries("en")).contains("brands", "Zyxwood")
