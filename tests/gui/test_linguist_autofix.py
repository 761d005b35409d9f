"""Linguist panel: a revision warning opens at its item, and Auto-fix resolves what a rule can (here
the digit a span boundary cut off a spoken birth date), as one undoable command."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSettings

from redactdesk.core.types import Conversation, Role, Span, SpanStatus, Turn, Word
from redactdesk.gui.context import AppContext
from redactdesk.gui.panels import (
    linguist,  # noqa: F401 - registers the pseudonyms panel
    panels_for_role,
)
from redactdesk.resources import load_taxonomy
from redactdesk.store import Project

TEXT = "okay I was born 0 8 1 5 6 0. where was it shipped"


@pytest.fixture
def ctx(qtbot, tmp_path):
    words = [Word(t, i * 0.4, i * 0.4 + 0.3, 0.9, "customer") for i, t in enumerate(TEXT.split())]
    conv = Conversation(id="call_1", words=words, turns=[Turn("customer", 0, len(words))], language="en",
                        spans=[Span(4, 9, "DATE_OF_BIRTH", SpanStatus.ACCEPTED)])  # "0 8 1 5 6", the "0." left out
    project = Project.create(tmp_path / "fix.rdproj", actor="lena", role=Role.LINGUIST)
    project.add_conversation(conv)
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    context = AppContext(project, load_taxonomy(), Role.LINGUIST, settings)
    context.open_conversation("call_1")
    yield context
    context.closing.emit()
    qtbot.wait(60)
    project.close()


def test_warning_opens_at_its_item_and_auto_fix_takes_the_digit_in(qtbot, ctx):
    spec = next(s for s in panels_for_role(ctx.role) if s.id == "pseudonyms")
    panel = spec.factory(ctx)
    qtbot.addWidget(panel)
    assert [w.kind for w in panel.result.warnings] == ["original_nearby"]
    assert panel.autofix_button.isEnabled()
    span_id = ctx.conversation.spans[0].id
    panel._jump_warning(panel.warnings.item(0))
    assert ctx.current_span_id == span_id
    assert panel.auto_fix()
    qtbot.waitUntil(lambda: panel.result is not None and not panel.result.warnings, timeout=3000)
    span = ctx.project.spans("call_1")[0]
    assert (span.start_word, span.end_word) == (4, 10)
    assert not panel.autofix_button.isEnabled()
    ctx.undo_stack.undo()
    span = ctx.project.spans("call_1")[0]
    assert (span.start_word, span.end_word) == (4, 9)
