"""The catalogue of speech-recognition backends: the built-ins by name, and any registered at run time.

The protocol lives in :mod:`redactdesk.asr.base`; implementations know nothing of this catalogue
(the Presidio shape: no import circle between the registry and what it lists). The built-ins are
named here by module and class and imported the first time one is asked for, so their heavy
libraries load only then; :func:`register_backend` adds others (plug-ins, test doubles).
"""

from __future__ import annotations

import importlib

from redactdesk.asr.base import AsrBackend, AsrError, BackendFactory

DEFAULT = "faster-whisper"
BUILTIN: dict[str, tuple[str, str]] = {  # name -> (module, factory)
    "faster-whisper": ("redactdesk.asr.faster_whisper_backend", "FasterWhisperBackend"),
    "whisperx": ("redactdesk.asr.whisperx_backend", "WhisperxBackend"),
}
_REGISTRY: dict[str, BackendFactory] = {}


def register_backend(name: str, factory: BackendFactory) -> None:
    """Register ``factory(model=..., **options) -> AsrBackend`` under ``name`` (replaces any earlier one,
    a built-in too)."""
    _REGISTRY[name] = factory


def backend_names() -> list[str]:
    """Names of the known backends, the embedded default first."""
    return sorted(set(BUILTIN) | set(_REGISTRY), key=lambda n: (n != DEFAULT, n))


def get_backend(name: str, **options: object) -> AsrBackend:
    """A configured backend instance; ``options`` go to its factory (e.g. ``model="base"``)."""
    factory = _REGISTRY.get(name)
    if factory is None and name in BUILTIN:
        module, attr = BUILTIN[name]
        factory = _REGISTRY[name] = getattr(importlib.import_module(module), attr)
    if factory is None:
        raise AsrError(f"unknown speech-recognition backend {name!r} (known: {', '.join(backend_names())})")
    return factory(**options)
