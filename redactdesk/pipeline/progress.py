"""The progress/cancel protocol (:mod:`redactdesk.core.progress`) and the CLI's tqdm bar for it."""

from __future__ import annotations

from collections.abc import Callable

from redactdesk.core.progress import CancelFn, Cancelled, FractionFn, ProgressFn, check_cancel, part, track

__all__ = ["CancelFn", "Cancelled", "FractionFn", "ProgressFn", "check_cancel", "part", "tqdm_progress", "track"]


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
