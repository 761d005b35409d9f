"""AppContext: what every view and panel of the window shares.

A panel gets one ``AppContext`` (``ctx``) and should use only this API:

Attributes
    ``ctx.project``        the open :class:`redactdesk.store.Project` (its ``role`` is kept in step
                           with ``ctx.role`` so the audit log records who did what).
    ``ctx.conversation``   the current :class:`~redactdesk.core.types.Conversation` or None; its
                           ``spans`` are reloaded after every command.
    ``ctx.undo_stack``     the window's ``QUndoStack`` (Ctrl+Z / Ctrl+Shift+Z).
    ``ctx.taxonomy``       the :class:`~redactdesk.core.taxonomy.Taxonomy` in use.
    ``ctx.role``           the current :class:`~redactdesk.core.types.Role`.
    ``ctx.settings``       the user's ``QSettings`` (preferences, not project data).
    ``ctx.player``         the :class:`~redactdesk.gui.playback.Player` (may be unavailable).
    ``ctx.current_span_id`` / ``ctx.current_word``  the selection.
    ``ctx.selected_words`` words ``(start, end)`` (end exclusive) selected in the transcript by a
                           drag, Shift+click or Shift+arrows while no span is selected; None otherwise.

Signals
    ``conversation_changed(object)``          a Conversation (or None) became current.
    ``spans_changed()``                        spans of the current conversation changed.
    ``selection_changed(object, object)``      (span_id | None, word_index | None).
    ``corpus_changed()``                       conversations added/removed or their status/counts changed.
    ``role_changed(str)``                      the role's value.
    ``closing()``                              the window closes; the project is about to be closed.
    ``words_revealed(str, object, object)``    (conversation id, start_word | None, end_word | None):
                                               :meth:`reveal` brought words into view; the window
                                               highlights them in the transcript and the waveform.

Methods
    ``open_conversation(id)``, ``select(span_id=None, word=None)``, ``reveal(conversation_id,
    start_word=None, end_word=None, span_id=None)`` (go to a place: open, select, highlight),
    ``span(id)``, ``current_span()``,
    ``reload()`` (re-read spans after an outside change), ``push_command(cmd)`` (a QUndoCommand,
    usually a :class:`redactdesk.gui.commands.ProjectCommand`), ``run_job(title, fn, on_done,
    on_error=None)`` (see :mod:`redactdesk.gui.jobs`), ``job_project()`` (``with ctx.job_project() as
    p:`` inside a job: the job's own connection to the project, same file, actor and role; the one
    way a worker thread reaches the project), ``status(text, msecs=5000)``,
    ``error(title, text)``, ``can(capability)`` (see :mod:`redactdesk.gui.roles`),
    ``may(capability)`` (``can``, and a status message when not), ``closed`` (True once ``closing``
    was emitted), ``set_role(role)``,
    ``focus_review()`` (give the keyboard back to the review — transcript — after a panel action:
    a queue row opened, a dialog closed; the window also does this after panel buttons and list
    activations), ``set_selected_words(start, end)`` / ``set_selected_words(None)``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, QSettings, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack
from PySide6.QtWidgets import QMessageBox, QWidget

from redactdesk.core.taxonomy import Taxonomy
from redactdesk.core.types import Conversation, Role, Span
from redactdesk.gui import roles
from redactdesk.gui.jobs import Job, JobRunner

if TYPE_CHECKING:
    from redactdesk.gui.playback import Player
    from redactdesk.store import Project


class AppContext(QObject):
    """Shared state and services of one main window (see the module docstring)."""

    conversation_changed = Signal(object)
    spans_changed = Signal()
    selection_changed = Signal(object, object)
    corpus_changed = Signal()
    role_changed = Signal(str)
    closing = Signal()  # the window is closing: stop timers, do not touch the project any more
    missed_marks = Signal(str, object)  # conversation id, [(start_word, end_word, tag)] of reviewers' MISSED_ marks
    words_revealed = Signal(str, object, object)  # conversation id, start_word | None, end_word | None

    def __init__(self, project: Project, taxonomy: Taxonomy, role: Role | str, settings: QSettings,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.project = project
        self.taxonomy = taxonomy
        self.settings = settings
        self._role = roles.as_role(role)
        project.role = self._role
        self.undo_stack = QUndoStack(self)
        self.undo_stack.setUndoLimit(500)
        self.jobs = JobRunner(self)
        self.conversation: Conversation | None = None
        self.current_span_id: int | None = None
        self.current_word: int | None = None
        self.player: Player | None = None
        self.window: QWidget | None = None
        self.selected_words: tuple[int, int] | None = None
        self._status: Callable[[str, int], None] = lambda text, msecs: None
        self._focus_review: Callable[[], None] = lambda: None
        self.last_status = ""
        self.closed = False  # the window closed: jobs that end now show nothing
        self.closing.connect(self._mark_closed)

    def _mark_closed(self) -> None:
        self.closed = True

    # ------------------------------------------------------------------ role
    @property
    def role(self) -> Role:
        return self._role

    def set_role(self, role: Role | str) -> None:
        new = roles.as_role(role)
        if new == self._role:
            return
        self._role = new
        self.project.role = new
        self.settings.setValue("role", new.value)
        self.role_changed.emit(new.value)

    def can(self, capability: str) -> bool:
        return roles.can(self._role, capability)

    def may(self, capability: str) -> bool:
        """``can``, and when the role cannot, say so in the status bar (for actions the user started)."""
        if self.can(capability):
            return True
        self.status(f"The {self._role.value} role cannot do that ({capability.replace('_', ' ')})")
        return False

    # ------------------------------------------------------------------ conversation & selection
    def open_conversation(self, conversation_id: str | None) -> None:
        if conversation_id is None:
            self.conversation = None
        else:
            self.conversation = self.project.load_conversation(conversation_id)
        self.current_span_id = None
        self.current_word = None
        self.selected_words = None
        self.conversation_changed.emit(self.conversation)
        self.selection_changed.emit(None, None)

    def reload(self, conversation_id: str | None = None) -> None:
        """Re-read the spans of the current conversation (or switch to ``conversation_id``)."""
        if conversation_id is not None and (self.conversation is None or self.conversation.id != conversation_id):
            self.open_conversation(conversation_id)
        elif self.conversation is not None:
            self.conversation.spans = self.project.spans(self.conversation.id)
            if self.current_span_id is not None and self.span(self.current_span_id) is None:
                self.current_span_id = None
                self.selection_changed.emit(None, self.current_word)
            self.spans_changed.emit()
        self.corpus_changed.emit()

    def select(self, span_id: int | None = None, word: int | None = None) -> None:
        """Make a span and/or word current (word defaults to the span's first word)."""
        span = self.span(span_id) if span_id is not None else None
        if span_id is not None and span is None:
            span_id = None
        if word is None and span is not None:
            word = span.start_word
        if (span_id, word) == (self.current_span_id, self.current_word):
            return
        self.current_span_id = span_id
        self.current_word = word
        self.selection_changed.emit(span_id, word)

    def set_selected_words(self, start: int | None, end: int | None = None) -> None:
        """Words ``[start, end)`` of the current conversation are selected (None clears)."""
        n = len(self.conversation.words) if self.conversation is not None else 0
        if start is None or not n:
            self.selected_words = None
            return
        a = min(max(0, int(start)), n - 1)
        b = min(max(a + 1, int(end if end is not None else a + 1)), n)
        self.selected_words = (a, b)

    def reveal(self, conversation_id: str, start_word: int | None = None, end_word: int | None = None,
               span_id: int | None = None) -> None:
        """Go to a place a list pointed at (export refusals, findings): open the conversation (when it
        is not the current one), select ``span_id`` or the span covering exactly ``[start_word,
        end_word)`` (else the first word), and emit ``words_revealed`` so the window highlights the
        words in the transcript and the waveform."""
        if self.conversation is None or self.conversation.id != conversation_id:
            if self.player is not None:
                self.player.stop()
            self.open_conversation(conversation_id)
        conv = self.conversation
        if conv is None:
            return
        n = len(conv.words)
        if span_id is not None and self.span(span_id) is not None:
            span = self.span(span_id)
            start_word, end_word = span.start_word, span.end_word
        elif start_word is not None and n:
            start_word = min(max(0, int(start_word)), n - 1)
            end_word = min(max(start_word + 1, int(end_word if end_word is not None else start_word + 1)), n)
            same = next((s for s in conv.spans if (s.start_word, s.end_word) == (start_word, end_word)), None)
            span_id = same.id if same is not None else None
        else:
            start_word = end_word = None
        if span_id is not None or start_word is not None:
            self.current_span_id, self.current_word = None, None  # always announce: the views scroll there
            self.select(span_id, start_word)
        self.words_revealed.emit(conversation_id, start_word, end_word)

    def span(self, span_id: int | None) -> Span | None:
        if span_id is None or self.conversation is None:
            return None
        for s in self.conversation.spans:
            if s.id == span_id:
                return s
        return None

    def conversation_id_of(self, span: Span) -> str:
        """The conversation a stored span belongs to (usually the current one)."""
        if self.conversation is not None and any(s.id == span.id for s in self.conversation.spans):
            return self.conversation.id
        return self.project.span(span.id)[0]

    def current_span(self) -> Span | None:
        return self.span(self.current_span_id)

    def spans_at_word(self, index: int) -> list[Span]:
        if self.conversation is None:
            return []
        return [s for s in self.conversation.spans if s.start_word <= index < s.end_word]

    # ------------------------------------------------------------------ services
    def push_command(self, cmd: QUndoCommand) -> bool:
        """Run a command through the undo stack; False (and a message) when it could not be applied."""
        self.undo_stack.push(cmd)
        error = getattr(cmd, "error", None)
        if error:
            self.error("Could not apply the change", error)
            return False
        return True

    def run_job(self, title: str, fn: Callable[[Job], Any], on_done: Callable[[Any], None] | None = None,
                on_error: Callable[[str], None] | None = None) -> Job:
        if on_error is None:
            def on_error(message: str) -> None:
                self.error(title, message)
        job = self.jobs.run(title, fn, on_done, on_error)
        job.cancelled.connect(lambda: self.status(f"{title}: cancelled"))
        return job

    @contextmanager
    def job_project(self) -> Iterator[Project]:
        """A connection of the job's own to the open project (same path, actor and role), closed when
        the ``with`` block ends. SQLite connections belong to one thread: a background job never uses
        ``ctx.project``; it opens this one in its worker thread and commits there (the window's
        connection sees each commit on its next read)."""
        from redactdesk.store import Project

        project = Project.open(self.project.path, actor=self.project.actor, role=self._role)
        try:
            yield project
        finally:
            project.close()

    def set_status_sink(self, sink: Callable[[str, int], None]) -> None:
        self._status = sink

    def set_focus_sink(self, sink: Callable[[], None]) -> None:
        self._focus_review = sink

    def focus_review(self) -> None:
        """Give the keyboard back to the review (the transcript), e.g. after a panel opened a place."""
        self._focus_review()

    def status(self, text: str, msecs: int = 5000) -> None:
        self.last_status = text
        self._status(text, msecs)

    def error(self, title: str, text: str) -> None:
        """Tell the user something went wrong without blocking (a window-modal message box)."""
        self.status(f"{title}: {text}", 10000)
        if self.window is not None and self.window.isVisible():
            box = QMessageBox(QMessageBox.Icon.Warning, title, text, QMessageBox.StandardButton.Ok, self.window)
            box.setObjectName("errorBox")
            box.open()
