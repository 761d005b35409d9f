"""Undoable commands for stage features: allow/deny list entries and transcript word changes.

Like :mod:`redactdesk.gui.commands`, each calls the Project API, which writes the audit log (list
entries are logged by a hash of their text, never the text itself).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from redactdesk.core.types import Turn, Word
from redactdesk.gui.commands import ProjectCommand

if TYPE_CHECKING:
    from redactdesk.gui.context import AppContext

LIST_NAMES = {"allow": "allow list", "deny": "deny list"}


class AddTerm(ProjectCommand):
    """Put a phrase on the project's allow ("never flag") or deny ("always flag") list.

    ``after(conversation_id)`` runs after redo and undo (the window re-detects the conversation).
    """

    def __init__(self, ctx: AppContext, kind: str, text: str, category: str, conversation_id: str | None,
                 after: Callable[[str | None], None] | None = None) -> None:
        if kind not in LIST_NAMES:
            raise ValueError(f"unknown list {kind!r}; use allow or deny")
        label = "Never flag" if kind == "allow" else f"Always flag as {category}"
        super().__init__(ctx, label, conversation_id)
        self.action = f"{kind}_list_add"
        self.kind, self.text, self.category = kind, text, category
        self.after = after

    def apply(self, action: str) -> None:
        self.ctx.project.add_term(self.kind, self.text, self.category)

    def revert(self, action: str) -> None:
        self.ctx.project.remove_term(self.kind, self.text, self.category)

    def _refresh(self) -> None:
        super()._refresh()
        if self.after is not None:
            self.after(self.conversation_id)


class ReplaceWords(ProjectCommand):
    """Give a conversation new words and turns with the same word count (spans keep their words).

    Used to rename a speaker (``action="rename_speaker"``) and to correct and re-time a turn
    (``action="edit_words"``). ``meta`` (optional) is merged into the conversation's meta on redo and
    ``old_meta`` on undo (e.g. the ``speakers`` roles keyed by the new name).
    """

    def __init__(self, ctx: AppContext, conversation_id: str, text: str, action: str,
                 old: tuple[list[Word], list[Turn]], new: tuple[list[Word], list[Turn]], *,
                 meta: dict[str, Any] | None = None, old_meta: dict[str, Any] | None = None) -> None:
        if len(old[0]) != len(new[0]):
            raise ValueError("the word count must stay the same (spans refer to word positions)")
        super().__init__(ctx, text, conversation_id)
        self.action = action
        self.old, self.new = old, new
        self.meta, self.old_meta = meta, old_meta

    def _write(self, words_turns: tuple[list[Word], list[Turn]], meta: dict[str, Any] | None, action: str) -> None:
        project = self.ctx.project
        with project.transaction():
            if project.word_count(self.conversation_id) != len(words_turns[0]):
                raise ValueError("the conversation's words changed meanwhile (re-transcribed?); "
                                 "this edit no longer fits")
            project.replace_words(self.conversation_id, list(words_turns[0]), list(words_turns[1]), action=action)
            if meta:
                project.update_conversation_meta(self.conversation_id, meta=meta)

    def apply(self, action: str) -> None:
        self._write(self.new, self.meta, action)

    def revert(self, action: str) -> None:
        self._write(self.old, self.old_meta, action)

    def _refresh(self) -> None:
        refresh_words(self.ctx, self.conversation_id)


def refresh_words(ctx: AppContext, conversation_id: str | None) -> None:
    """Re-read a conversation whose words changed; the views keep their scroll, zoom and selection."""
    conv = ctx.conversation
    if conv is None or conv.id != conversation_id:
        ctx.reload(conversation_id)
        return
    fresh = ctx.project.load_conversation(conversation_id)
    ctx.conversation = fresh
    transcript = getattr(ctx.window, "transcript", None)
    if transcript is not None:
        transcript.update_words(fresh)
    ctx.reload()  # spans_changed: waveform, header and panels follow
