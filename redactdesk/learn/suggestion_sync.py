"""What annotators see after an update: the learner's suggestions in open calls, and what changed.

After each model version, the learner's own suggestions (source ``tagger-al`` or ``crf``) in the
calls still under review are brought up to date: spans the new model no longer finds are
withdrawn, spans it now finds are added -- only where nothing else is (no other source's
suggestion, no decision) and never in a turn a person has already settled, so no decision is
touched and no labelled turn is reopened. Reviewed and signed-off calls are left alone (the
release gate's detection check is unaffected: these are suggestions more, never a detection run).
Each change is an ordinary audited span change.

The result counts the changes by category, for the status line ("the model now also flags
3 PERSON; withdrew 1 CITY") -- counts and categories only, never the words.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from redactdesk.core.types import ConversationStatus, Span, SpanStatus
from redactdesk.learn.utterances import utterances_from_conversation

CLOSED_STATUSES = (ConversationStatus.REVIEWED, ConversationStatus.SIGNED_OFF)
ACTION_ADD = "learner_suggest"
ACTION_WITHDRAW = "learner_withdraw"


@dataclass
class SuggestionChanges:
    """Counts per category of the learner's suggestions added and withdrawn, and where."""

    added: Counter = field(default_factory=Counter)
    withdrawn: Counter = field(default_factory=Counter)
    conversations: set[str] = field(default_factory=set)

    @property
    def total(self) -> int:
        return sum(self.added.values()) + sum(self.withdrawn.values())

    def message(self) -> str:
        def part(c: Counter) -> str:
            return ", ".join(f"{n} {cat}" for cat, n in sorted(c.items(), key=lambda kv: (-kv[1], kv[0])))

        if not self.total:
            return "the model's suggestions in open calls did not change"
        bits = []
        if self.added:
            bits.append(f"the model now also flags {part(self.added)}")
        if self.withdrawn:
            bits.append(f"withdrew {part(self.withdrawn)}")
        return "; ".join(bits) + f" (in {len(self.conversations)} open call(s))"

    def to_dict(self) -> dict[str, Any]:
        return {"added": dict(self.added), "withdrawn": dict(self.withdrawn),
                "conversations": len(self.conversations)}


def _overlaps(a: Span, b: Span) -> bool:
    return a.start_word < b.end_word and b.start_word < a.end_word


def refresh_learner_suggestions(project: Any, learner: Any, conversation_ids: Iterable[str] | None = None,
                                check: Callable[[], None] | None = None,
                                marked: dict[str, list[int]] | None = None) -> SuggestionChanges:
    """Bring the learner's suggestions in open calls in line with ``learner``'s current model."""
    from redactdesk.learn.service import SOURCE_NAME, TAGGER_SOURCE_NAME, marked_turns

    out = SuggestionChanges()
    if learner.model is None:
        return out
    own = {SOURCE_NAME, TAGGER_SOURCE_NAME}
    marked = marked_turns(project) if marked is None else marked
    ids = list(conversation_ids) if conversation_ids is not None else project.conversation_ids()
    for cid in ids:
        if check is not None:
            check()
        conv = project.load_conversation(cid)
        if conv.status in CLOSED_STATUSES or not conv.words:
            continue
        mine = [s for s in conv.spans if s.status == SpanStatus.SUGGESTED and s.sources and set(s.sources) <= own]
        mine_ids = {s.id for s in mine}
        others = [s for s in conv.spans if s.id not in mine_ids]
        settled = [(u.start_word, u.start_word + len(u)) for u in utterances_from_conversation(conv, marked.get(cid, ()))
                   if u.labelled]
        fresh = [s for s in learner.suggest(conv)
                 if not any(_overlaps(s, o) for o in others)
                 and not any(a < s.end_word and s.start_word < b for a, b in settled)]
        key = {(s.start_word, s.end_word, s.category) for s in fresh}
        have = {(s.start_word, s.end_word, s.category) for s in mine}
        gone = [s for s in mine if (s.start_word, s.end_word, s.category) not in key]
        new = [s for s in fresh if (s.start_word, s.end_word, s.category) not in have]
        if not gone and not new:
            continue
        with project.transaction():
            for s in gone:
                project.delete_span(s.id, action=ACTION_WITHDRAW)
                out.withdrawn[s.category] += 1
            for s in new:
                project.add_span(cid, s, action=ACTION_ADD)
                out.added[s.category] += 1
        out.conversations.add(cid)
    return out
