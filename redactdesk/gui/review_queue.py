"""Order of suggestions in keyboard review (no Qt).

Suggestions are visited in transcript order; skipped ones move to the back of the queue and come
back after the rest. Navigation starts from the current span, which may be any span (or none).
"""

from __future__ import annotations

from redactdesk.core.types import Span, SpanStatus


class ReviewQueue:
    """Next/previous open suggestion for one conversation, remembering which were skipped."""

    def __init__(self) -> None:
        self._skipped: list[int] = []

    @property
    def skipped(self) -> list[int]:
        return list(self._skipped)

    def skip(self, span_id: int) -> None:
        if span_id in self._skipped:
            self._skipped.remove(span_id)
        self._skipped.append(span_id)

    def forget(self, span_id: int) -> None:
        if span_id in self._skipped:
            self._skipped.remove(span_id)

    def order(self, spans: list[Span]) -> list[Span]:
        """Open suggestions: not skipped in transcript order, then skipped in skip order."""
        open_ = {s.id: s for s in spans if s.status == SpanStatus.SUGGESTED and s.id is not None}
        self._skipped = [i for i in self._skipped if i in open_]
        skipped = set(self._skipped)
        main = sorted((s for s in open_.values() if s.id not in skipped),
                      key=lambda s: (s.start_word, s.end_word, s.id))
        return main + [open_[i] for i in self._skipped]

    def next(self, spans: list[Span], current: Span | None, word: int | None = None) -> Span | None:
        """The suggestion after ``current`` (wrapping to earlier open ones last); with no current span,
        the first one at or after the word cursor ``word`` (a queue row or a click put it there)."""
        order = self.order(spans)
        if not order:
            return None
        ids = [s.id for s in order]
        if current is not None and current.id in ids:
            i = ids.index(current.id)
            return order[i + 1] if i + 1 < len(order) else (order[0] if order[0].id != current.id else None)
        if current is None and word is not None:
            skipped = set(self._skipped)
            main = [s for s in order if s.id not in skipped]
            after = [s for s in main if s.end_word > word]
            return (after + [s for s in order if s not in after])[0]
        if current is None:
            return order[0]
        skipped = set(self._skipped)
        main = [s for s in order if s.id not in skipped]
        after = [s for s in main if (s.start_word, s.end_word, s.id) > (current.start_word, current.end_word,
                                                                       current.id or -1)]
        rest = [s for s in order if s.id in skipped] + [s for s in main if s not in after]
        return (after + rest)[0]

    def previous(self, spans: list[Span], current: Span | None) -> Span | None:
        """The suggestion before ``current`` in the same order (wrapping to the end)."""
        order = self.order(spans)
        if not order:
            return None
        ids = [s.id for s in order]
        if current is not None and current.id in ids:
            i = ids.index(current.id)
            if i > 0:
                return order[i - 1]
            return order[-1] if order[-1].id != current.id else None
        if current is None:
            return order[-1]
        skipped = set(self._skipped)
        main = [s for s in order if s.id not in skipped]
        before = [s for s in main if (s.start_word, s.end_word, s.id) < (current.start_word, current.end_word,
                                                                        current.id or -1)]
        if before:
            return before[-1]
        return order[-1]

    def remaining(self, spans: list[Span]) -> int:
        return len(self.order(spans))
