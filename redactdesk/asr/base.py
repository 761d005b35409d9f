"""The speech-recognition backend protocol and the errors every backend raises.

A backend turns 16 kHz-or-other mono float32 audio into :class:`~redactdesk.core.types.Word` s.
This module knows no implementation: the catalogue of backends by name is
:mod:`redactdesk.asr.backends` (``get_backend(name, model=...)``, ``register_backend``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

import numpy as np

from redactdesk.core.progress import CancelFn, Cancelled, FractionFn
from redactdesk.core.progress import check_cancel as _check_cancel
from redactdesk.core.types import Word


class AsrError(Exception):
    """A speech-recognition problem with a message a user can act on."""


class AsrCancelled(AsrError, Cancelled):
    """The user cancelled transcription; nothing was written."""

    def __init__(self, message: str = "transcription cancelled") -> None:
        super().__init__(message)


class AlignmentError(AsrError):
    """Forced alignment could not place the given words in the audio."""


@dataclass
class BackendOutput:
    """What one backend call returns: words (times relative to the audio given) and the language."""

    words: list[Word]
    language: str | None
    info: dict[str, object] = field(default_factory=dict)


@runtime_checkable
class AsrBackend(Protocol):
    """A speech recogniser. ``available()`` says whether it can run here, and if not, why."""

    name: str

    def available(self) -> tuple[bool, str]: ...

    def transcribe(
        self,
        audio: np.ndarray,
        rate: int,
        *,
        language: str | None = None,
        progress: FractionFn | None = None,
        cancel: CancelFn | None = None,
    ) -> BackendOutput: ...


BackendFactory = Callable[..., AsrBackend]

def check_cancel(cancel: CancelFn | None) -> None:
    """Raise :class:`AsrCancelled` if the caller asked to stop."""
    _check_cancel(cancel, AsrCancelled)
