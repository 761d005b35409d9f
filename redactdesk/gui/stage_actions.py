"""The transcript's context menu and the stage features it reaches (allow/deny lists, re-detection).

Right-click a span: "Never flag this" (allow list) or "Always flag this" (deny list), both undoable,
each followed by re-detecting the conversation in the background. Right-click a turn (its speaker
label or its words): the speaker actions of :mod:`redactdesk.gui.speakers`. The classes take the
context and the views they use; :func:`install` wires them into a main window (called once from its
constructor).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QPoint
from PySide6.QtWidgets import QMenu, QWidget

from redactdesk.core.types import Span
from redactdesk.gui.masking import MaskShading
from redactdesk.gui.speakers import SpeakerActions
from redactdesk.gui.stage_commands import AddTerm

if TYPE_CHECKING:
    from redactdesk.gui.audiosource import AudioSource
    from redactdesk.gui.context import AppContext
    from redactdesk.gui.mainwindow import MainWindow
    from redactdesk.gui.stage_jobs import StageJobs
    from redactdesk.gui.transcript import TranscriptView
    from redactdesk.gui.waveform import WaveformView


class StageActions(QObject):
    """The transcript's context-menu actions; ``menu`` is the last menu shown (tests use it).

    ``parent``: the widget menus and dialogs open over; ``click_word(index)``: what a click on a word
    does (a right-click selects it first); ``audio()``: the current conversation's open recording.
    """

    def __init__(self, ctx: AppContext, *, parent: QWidget, transcript: TranscriptView, waveform: WaveformView,
                 stage_jobs: StageJobs, click_word: Callable[[int], None],
                 audio: Callable[[], AudioSource | None]) -> None:
        super().__init__(parent)
        self.parent_widget = parent
        self.ctx = ctx
        self.stage_jobs = stage_jobs
        self.click_word = click_word
        self.menu: QMenu | None = None
        self.speakers = SpeakerActions(ctx, parent, audio)
        self.shading = MaskShading(ctx, waveform, audio)
        transcript.context_requested.connect(self.show_menu)

    # ------------------------------------------------------------------ menu
    def build_menu(self, word: int | None, turn: int | None) -> QMenu:
        menu = QMenu(self.parent_widget)
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
            self.click_word(word)
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
        if not self.ctx.may("edit_lists"):
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

        def done(counts: dict[str, int]) -> None:
            if self.ctx.closed:
                return
            if self.ctx.conversation is not None and self.ctx.conversation.id == conversation_id:
                self.ctx.reload()
            else:
                self.ctx.corpus_changed.emit()
            self.ctx.status(f"Detected again: {counts.get(conversation_id, 0)} suggestion(s)", 6000)

        self.stage_jobs.detect([conversation_id], done)


def install(window: MainWindow) -> StageActions:
    """Wire the stage features into ``window`` (context menus, speaker edits, mask shading)."""
    return StageActions(window.ctx, parent=window, transcript=window.transcript, waveform=window.waveform,
                        stage_jobs=window.stage_jobs, click_word=window.click_word, audio=lambda: window.source)
