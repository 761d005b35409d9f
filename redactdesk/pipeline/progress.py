"""Progress and cancel hooks shared by long steps (CLI shows tqdm, GUI shows a progress bar)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

T = TypeVar("T")

# progress(done_fraction in [0, 1], message) ; cancel() -> True to stop
ProgressFn = Callable[[float, str], None]
CancelFn = Callable[[], bool]


class Cancelled(Exception):
    """Raised inside a long step when the user pressed cancel; the step leaves nothing half-done."""


def check_cancel(cancel: CancelFn | None) -> None:
    if cancel is not None and cancel():
        raise Cancelled("cancelled by the user")


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


def tqdm_progress(desc: str, total: int = 1000, disable: bool = False) -> tuple[ProgressFn, Callable[[], None]]:
    """A ProgressFn that drives a tqdm bar, and a function that closes the bar (none under
    ``redactdesk -q``, which sets REDACTDESK_QUIET=1)."""
    import os

    from tqdm import tqdm

    bar = tqdm(total=total, desc=desc, unit="", bar_format="{desc}: {percentage:3.0f}%|{bar}| {postfix}",
               disable=disable or os.environ.get("REDACTDESK_QUIET") == "1")

    def update(fraction: float, message: str) -> None:
        target = int(round(min(max(fraction, 0.0), 1.0) * total))
        if target > bar.n:
            bar.update(target - bar.n)
        bar.set_postfix_str(message[:40], refresh=False)

    return update, bar.close
