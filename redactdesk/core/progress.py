"""Progress and cancel: the one protocol every long step uses (the CLI draws it as a tqdm bar, the app
as a progress bar). No I/O here; :mod:`redactdesk.pipeline.progress` adds the tqdm bar.

A long step takes ``progress`` and ``cancel``, both optional:

* ``progress(fraction, message)`` (:data:`ProgressFn`), ``fraction`` in [0, 1]; inner loops with no
  message of their own (a recogniser, a masker) take ``progress(fraction)`` (:data:`FractionFn`);
* ``cancel()`` (:data:`CancelFn`) returns True once the user asked to stop; the step then raises a
  :class:`Cancelled` — each stage raises its own subclass (``AsrCancelled``, ``MaskCancelled``, ...),
  so ``except Cancelled`` catches them all — and leaves nothing half-done.

:func:`part` is the one adapter from a part's own 0..1 to its share of the whole bar.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

T = TypeVar("T")

ProgressFn = Callable[[float, str], None]
FractionFn = Callable[[float], None]
CancelFn = Callable[[], bool]


class Cancelled(Exception):
    """Raised inside a long step when the user pressed cancel; the step leaves nothing half-done."""

    def __init__(self, message: str = "cancelled by the user") -> None:
        super().__init__(message)


def check_cancel(cancel: CancelFn | None, error: type[Cancelled] = Cancelled) -> None:
    """Raise ``error()`` (a :class:`Cancelled`, with its own message) if the caller asked to stop."""
    if cancel is not None and cancel():
        raise error()


def track(items: Iterable[T], total: int, progress: ProgressFn | None, cancel: CancelFn | None,
          label: Callable[[T], str] = str) -> Iterator[T]:
    """Yield items, reporting progress before each and checking cancel between them."""
    for i, item in enumerate(items):
        check_cancel(cancel)
        if progress is not None:
            progress(i / max(total, 1), label(item))
        yield item
    if progress is not None:
        progress(1.0, "done")


def part(progress: Callable[..., None] | None, start: float = 0.0, width: float = 1.0, *, total: float = 1.0,
         message: str | None = None) -> Callable[..., None] | None:
    """``progress`` for one part of a longer step: the part's fraction ``f`` (clamped to [0, 1]) is
    reported as ``(start + width * f) / total``. The returned function takes ``(fraction)`` or
    ``(fraction, message)`` and passes on ``message`` when one is given here, else the one it got, else
    none — so it adapts a FractionFn or a ProgressFn to either. None when ``progress`` is None.

    Part ``n`` of ``count`` equal parts: ``part(progress, n, 1, total=count)`` (its end, ``(n + 1) /
    count``, is then exactly where part ``n + 1`` starts, so the bar never steps back).
    """
    if progress is None:
        return None

    def report(fraction: float, *said: str) -> None:
        value = (start + width * min(max(float(fraction), 0.0), 1.0)) / total
        if message is not None:
            progress(value, message)
        else:
            progress(value, *said[:1])

    return report
