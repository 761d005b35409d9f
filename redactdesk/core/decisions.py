"""What a new suggestion may not cover: the human decisions already taken on a conversation.

Nothing is suggested over an accepted span, and a span identical (words and category) to a rejected
one is not suggested again. Detection applies this to the conversation it read; the project file
applies it again when the suggestions are written, to the decisions stored by then (another program
may have decided while detection ran).
"""

from __future__ import annotations

from collections.abc import Iterable

from redactdesk.core.types import Span, SpanStatus


def respect_decisions(suggestions: Iterable[Span], existing: Iterable[Span]) -> list[Span]:
    """The ``suggestions`` that cover no accepted span of ``existing`` and repeat no rejected one."""
    existing = list(existing)
    accepted = [s for s in existing if s.status == SpanStatus.ACCEPTED]
    rejected = {(s.start_word, s.end_word, s.category) for s in existing if s.status == SpanStatus.REJECTED}
    return [s for s in suggestions
            if (s.start_word, s.end_word, s.category) not in rejected and not any(s.overlaps(a) for a in accepted)]
