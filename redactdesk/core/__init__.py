"""Domain types only: no Qt, no file or database I/O."""

from redactdesk.core.types import (
    Category,
    Conversation,
    ConversationStatus,
    Decision,
    Role,
    Span,
    SpanStatus,
    Turn,
    Word,
)

__all__ = [
    "Category",
    "Conversation",
    "ConversationStatus",
    "Decision",
    "Role",
    "Span",
    "SpanStatus",
    "Turn",
    "Word",
]
