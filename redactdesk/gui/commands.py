"""Every change the user makes is one of these QUndoCommands.

A command calls the Project API in ``redo``/``undo``; the project writes the audit log in the same
transaction, so each step (and each undo: action ``undo_<action>``, each later redo:
``redo_<action>``) is recorded with the current role. The project commits per call, which is the
autosave. A command that fails marks itself obsolete (the undo stack drops it) and keeps the
message in ``error`` for :meth:`AppContext.push_command` to show.

Subclass :class:`ProjectCommand` (implement ``apply(action)`` and ``revert(action)``) for new
kinds of change, e.g. pseudonym edits in later panels.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtGui import QUndoCommand

from redactdesk.core.types import ConversationStatus, Decision, Span, SpanStatus
from redactdesk.store import utc_now

if TYPE_CHECKING:
    from redactdesk.gui.context import AppContext


class ProjectCommand(QUndoCommand):
    """Base class: one user action on the project, undoable, audited."""

    action = "change"

    def __init__(self, ctx: AppContext, text: str, conversation_id: str | None) -> None:
        super().__init__(text)
        self.ctx = ctx
        self.conversation_id = conversation_id
        self.error: str | None = None
        self._done_once = False
        self.select_after: int | None = None  # span to select after redo/undo

    # subclasses ---------------------------------------------------------------
    def apply(self, action: str) -> None:
        raise NotImplementedError

    def revert(self, action: str) -> None:
        raise NotImplementedError

    # QUndoCommand ----------------------------------------------------------------
    def redo(self) -> None:
        action = f"redo_{self.action}" if self._done_once else self.action
        try:
            self.apply(action)
        except Exception as exc:  # project errors are meant for the user
            self.error = str(exc) or type(exc).__name__
            self.setObsolete(True)
            self.ctx.reload(self.conversation_id)  # e.g. another program changed it: show what is stored
            return
        self._done_once = True
        self._refresh()

    def undo(self) -> None:
        try:
            self.revert(f"undo_{self.action}")
        except Exception as exc:
            self.error = str(exc) or type(exc).__name__
            self.ctx.reload(self.conversation_id)
            self.ctx.error("Could not undo", self.error)
            return
        self._refresh()

    def _refresh(self) -> None:
        self.ctx.reload(self.conversation_id)
        if self.select_after is not None:
            self.ctx.select(self.select_after)


class SetSetting(ProjectCommand):
    """Change one project setting the way ``redactdesk config`` does
    (:func:`redactdesk.pipeline.project_config.set_setting`): checked against the catalogue's rule and
    logged (action ``setting``; undo: ``undo_setting``). ``value`` is the setting's text form
    (:func:`~redactdesk.pipeline.project_config.as_text`); a value the rule refuses is not stored and
    the message says why."""

    action = "setting"

    def __init__(self, ctx: AppContext, key: str, value: str, text: str) -> None:
        from redactdesk.pipeline.project_config import as_text, lookup

        super().__init__(ctx, text, None)
        setting = lookup(key)
        self.key, self.new = key, value
        self.old = as_text(ctx.project.setting(key, setting.default))

    def apply(self, action: str) -> None:
        from redactdesk.pipeline.project_config import set_setting

        set_setting(self.ctx.project, self.key, self.new, action=action)

    def revert(self, action: str) -> None:
        from redactdesk.pipeline.project_config import set_setting

        set_setting(self.ctx.project, self.key, self.old, action=action)

    def _refresh(self) -> None:
        self.ctx.corpus_changed.emit()


class SetStatus(ProjectCommand):
    """Accept, reject or reopen a span."""

    _actions = {SpanStatus.ACCEPTED: "accept", SpanStatus.REJECTED: "reject", SpanStatus.SUGGESTED: "reopen"}
    _verbs = {SpanStatus.ACCEPTED: "Accept", SpanStatus.REJECTED: "Reject", SpanStatus.SUGGESTED: "Reopen"}

    def __init__(self, ctx: AppContext, span: Span, status: SpanStatus) -> None:
        status = SpanStatus(status)
        super().__init__(ctx, f"{self._verbs[status]} {span.category}", ctx.conversation_id_of(span))
        self.action = self._actions[status]
        self.span_id = span.id
        self.old = span.status
        self.new = status
        self.select_after = span.id

    def apply(self, action: str) -> None:
        self.ctx.project.update_span(self.span_id, action=action, status=self.new.value,
                                     expect={"status": self.old.value})

    def revert(self, action: str) -> None:
        self.ctx.project.update_span(self.span_id, action=action, status=self.old.value,
                                     expect={"status": self.new.value})


class SetCategory(ProjectCommand):
    """Give a span another category; ``accept`` also accepts it (number keys in review)."""

    action = "recategorise"

    def __init__(self, ctx: AppContext, span: Span, category: str, *, accept: bool = False) -> None:
        if category not in ctx.taxonomy:
            raise ValueError(f"unknown category {category!r}")
        super().__init__(ctx, f"Change {span.category} to {category}", ctx.conversation_id_of(span))
        self.span_id = span.id
        self.old = {"category": span.category, "status": span.status.value}
        self.new = {"category": category,
                    "status": SpanStatus.ACCEPTED.value if accept else span.status.value}
        self.select_after = span.id

    def apply(self, action: str) -> None:
        self.ctx.project.update_span(self.span_id, action=action, **self.new)

    def revert(self, action: str) -> None:
        self.ctx.project.update_span(self.span_id, action=action, **self.old)


class SetBounds(ProjectCommand):
    """Move a span's first/last word (extend or shrink by words)."""

    action = "resize"

    def __init__(self, ctx: AppContext, span: Span, start_word: int, end_word: int) -> None:
        super().__init__(ctx, f"Resize {span.category}", ctx.conversation_id_of(span))
        if end_word <= start_word:
            raise ValueError("a span must keep at least one word")
        self.span_id = span.id
        self.old = (span.start_word, span.end_word)
        self.new = (start_word, end_word)
        self.select_after = span.id

    def apply(self, action: str) -> None:
        self.ctx.project.update_span(self.span_id, action=action, start_word=self.new[0], end_word=self.new[1])

    def revert(self, action: str) -> None:
        self.ctx.project.update_span(self.span_id, action=action, start_word=self.old[0], end_word=self.old[1])


class CreateSpan(ProjectCommand):
    """Mark words as personal data (a person's decision: accepted, source "manual")."""

    action = "create"

    def __init__(self, ctx: AppContext, conversation_id: str, start_word: int, end_word: int,
                 category: str, *, status: SpanStatus = SpanStatus.ACCEPTED) -> None:
        if category not in ctx.taxonomy:
            raise ValueError(f"unknown category {category!r}")
        super().__init__(ctx, f"Mark {category}", conversation_id)
        self.span = Span(start_word=start_word, end_word=end_word, category=category, status=status,
                         score=1.0, sources=("manual",), reason=f"marked by {ctx.role.value}")

    def apply(self, action: str) -> None:
        if self.span.id is None:
            self.ctx.project.add_span(self.conversation_id, self.span, action=action)
        else:  # redo after undo: the same span, under its old id
            self.ctx.project.restore_span(self.span, self.conversation_id, action=action)
        self.select_after = self.span.id

    def revert(self, action: str) -> None:
        self.ctx.project.delete_span(self.span.id, action=action)
        self.select_after = None


class DeleteSpan(ProjectCommand):
    """Remove a span altogether (e.g. one drawn by mistake)."""

    action = "delete"

    def __init__(self, ctx: AppContext, span: Span) -> None:
        super().__init__(ctx, f"Delete {span.category}", ctx.conversation_id_of(span))
        self.span_id = span.id
        self.saved: Span | None = None

    def apply(self, action: str) -> None:
        self.saved = self.ctx.project.delete_span(self.span_id, action=action)
        self.select_after = None

    def revert(self, action: str) -> None:
        assert self.saved is not None
        self.ctx.project.restore_span(self.saved, self.conversation_id, action=action)
        self.select_after = self.span_id


class MarkReviewed(ProjectCommand):
    """A person finished reviewing a conversation, also one with no suggestions at all.

    Redo goes through ``Project.mark_reviewed`` (refused while suggestions are open; audited as
    ``mark_reviewed``); undo puts the previous status back and writes ``undo_mark_reviewed``.
    """

    action = "mark_reviewed"

    def __init__(self, ctx: AppContext, conversation_id: str, old_status: str | ConversationStatus) -> None:
        super().__init__(ctx, f"Mark {conversation_id} reviewed", conversation_id)
        self.old = ConversationStatus(old_status)

    def apply(self, action: str) -> None:
        self.ctx.project.mark_reviewed(self.conversation_id)

    def revert(self, action: str) -> None:
        project = self.ctx.project
        with project.transaction():
            project.set_status(self.conversation_id, self.old)
            project.log(Decision(action=action, actor=project.actor, role=project.role, at=utc_now(),
                                 conversation_id=self.conversation_id, before={"status": "reviewed"},
                                 after={"status": self.old.value}))
