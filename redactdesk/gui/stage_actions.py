"""The transcript's context menu and the stage features it reaches (allow/deny lists, re-detection).

Right-click a span: "Never flag this" (allow list) or "Always flag this" (deny list), both undoable,
each followed by re-detecting the conversation in the background. Right-click a turn (its speaker
label or its words): the speaker actions of :mod:`redactdesk.gui.speakers`. :func:`install` wires
everything here into a main window (called once from its constructor).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QPoint
from PySide6.QtWidgets import QMenu

from redactdesk.core.types import Span
from redactdesk.gui.masking import MaskShading
from redactdesk.gui.speakers import SpeakerActions
from redactdesk.gui.stage_commands import AddTerm

if TYPE_CHECKING:
    from redactdesk.gui.mainwindow import MainWindow


class StageActions(QObject):
    """Context-menu actions of one main window; ``menu`` is the last menu shown (tests use it)."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.win = window
        self.ctx = window.ctx
        self.menu: QMenu | None = None
        self.speakers = SpeakerActions(window)
        self.shading = MaskShading(window)
        window.transcript.context_requested.connect(self.show_menu)

    # ------------------------------------------------------------------ menu
    def build_menu(self, word: int | None, turn: int | None) -> QMenu:
        menu = QMenu(self.win)
        menu.setObjectName("transcriptMenu")
        spans = self.ctx.spans_at_word(word) if word is not None else []
        may_edit = self.ctx.can("edit_lists")
        why = "" if may_edit else f" (the {self.ctx.role.value} role cannot change the allow/deny lists)"
        for span in spans:
            if len(spans) > 1:
                menu.addSection(f"{span.category} “{self._short(span)}”")
            a = menu.addAction("Never flag this", lambda s=span: self.never_flag(s))
            a.setObjectName("act_never_flag")
            a.setStatusTip("Add these words to the project's allow list and detect the conversation again" + why)
            a.setEnabled(may_edit)
            a = menu.addAction(f"Always flag this as {span.category}", lambda s=span: self.always_flag(s))
            a.setObjectName("act_always_flag")
            a.setStatusTip("Add these words to the project's deny list and detect the conversation again" + why)
            a.setEnabled(may_edit)
        if turn is not None:
            if not menu.isEmpty():
                menu.addSeparator()
            self.speakers.add_actions(menu, turn)
        return menu

    def show_menu(self, word: int | None, turn: int | None, global_pos: QPoint) -> None:
        if self.ctx.conversation is None:
            return
        if word is not None:
            self.win.click_word(word)
        self.menu = self.build_menu(word, turn)
        if not self.menu.isEmpty():
            self.menu.popup(global_pos)

    def _short(self, span: Span) -> str:
        text = self.ctx.conversation.span_text(span)
        return text if len(text) <= 24 else text[:23] + "…"

    # ------------------------------------------------------------------ allow / deny
    def never_flag(self, span: Span) -> None:
        from redactdesk.detect.lists import allow_entry_for

        self._add_term("allow", allow_entry_for(self.ctx.conversation, span), "")

    def always_flag(self, span: Span) -> None:
        from redactdesk.detect.lists import deny_entry_for

        entry = deny_entry_for(self.ctx.conversation, span)
        self._add_term("deny", entry["text"], entry["category"])

    def _add_term(self, kind: str, text: str, category: str) -> None:
        if not self.win._may("edit_lists"):
            return
        name = "allow list" if kind == "allow" else "deny list"
        if not text:
            self.ctx.status(f"Nothing to put on the {name}: the span has no words")
            return
        if (text, category) in self.ctx.project.terms(kind):
            self.ctx.status(f"Already on the {name}")
            return
        cid = self.ctx.conversation.id
        if self.ctx.push_command(AddTerm(self.ctx, kind, text, category, cid, after=self.redetect)):
            self.ctx.status(f"Added to the {name}; detecting this conversation again…")

    def redetect(self, conversation_id: str | None) -> None:
        """Detect one conversation again in the background (the lists changed)."""
        if conversation_id is None:
            return
        from redactdesk.pipeline.detection import detect_project

        def work(job):
            p = self.win._worker_project()
            try:
                return detect_project(p, [conversation_id], progress=job.progress_fn,
                                      cancel=lambda: job.is_cancelled)
            finally:
                p.close()

        def done(counts: dict[str, int]) -> None:
            if getattr(self.win, "_closed", False):
                return
            if self.ctx.conversation is not None and self.ctx.conversation.id == conversation_id:
                self.ctx.reload()
            else:
                self.ctx.corpus_changed.emit()
            self.ctx.status(f"Detected again: {counts.get(conversation_id, 0)} suggestion(s)", 6000)

        self.ctx.run_job("Detecting", work, done)


def install(window: MainWindow) -> StageActions:
    """Wire the stage features into ``window`` (context menus, speaker edits, mask shading)."""
    return StageActions(window)
