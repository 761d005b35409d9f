"""The speech-recognition backend protocol, its registry and the errors every backend raises.

A backend turns 16 kHz-or-other mono float32 audio into :class:`~redactdesk.core.types.Word` s.
Backends register a factory under a name; callers ask for ``get_backend(name, model=...)``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

import numpy as np

from redactdesk.core.types import Word

ProgressFn = Callable[[float], None]
CancelFn = Callable[[], bool]


class AsrError(Exception):
    """A speech-recognition problem with a message a user can act on."""


class AsrCancelled(AsrError):
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
        progress: ProgressFn | None = None,
        cancel: CancelFn | None = None,
    ) -> BackendOutput: ...


BackendFactory = Callable[..., AsrBackend]

_REGISTRY: dict[str, BackendFactory] = {}


def register_backend(name: str, factory: BackendFactory) -> None:
    """Register ``factory(model=..., **options) -> AsrBackend`` under ``name`` (replaces any earlier one)."""
    _REGISTRY[name] = factory


def backend_names() -> list[str]:
    """Names of registered backends, the embedded default first."""
    _load_builtin()
    return sorted(_REGISTRY, key=lambda n: (n != "faster-whisper", n))


def get_backend(name: str, **options: object) -> AsrBackend:
    """A configured backend instance; ``options`` go to its factory (e.g. ``model="base"``)."""
    _load_builtin()
    try:
        factory = _REGISTRY[name]
    except KeyError:
        known = ", ".join(backend_names())
        raise AsrError(f"unknown speech-recognition backend {name!r} (known: {known})") from None
    return factory(**options)


def check_cancel(cancel: CancelFn | None) -> None:
    """Raise :class:`AsrCancelled` if the caller asked to stop."""
    if cancel is not None and cancel():
        raise AsrCancelled()


def _load_builtin() -> None:
    # Importing the modules registers them; they import heavy libraries lazily.
    from redactdesk.asr import faster_whisper_backend, whisperx_backend  # noqa: F401
