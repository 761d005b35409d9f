"""The catalogue of maskers: the built-ins by name, and any registered at run time.

The protocol lives in :mod:`redactdesk.audio.base`; the maskers know nothing of this catalogue
except the voice masker, which asks it for its fallback by name (the Presidio shape: the catalogue
names its built-ins by module and class and imports one the first time it is asked for, so no
import circle joins it to what it lists). :func:`register_masker` adds others (plug-ins, tests).
"""

from __future__ import annotations

import importlib

from redactdesk.audio.base import Masker
from redactdesk.audio.errors import MaskError

BUILTIN: dict[str, tuple[str, str]] = {  # name -> (module, class); this order is the one users see
    "silence": ("redactdesk.audio.maskers", "SilenceMasker"),
    "beep": ("redactdesk.audio.maskers", "BeepMasker"),
    "noise": ("redactdesk.audio.maskers", "NoiseMasker"),
    "distort": ("redactdesk.audio.distort", "DistortMasker"),
    "voice": ("redactdesk.audio.voice", "VoiceMasker"),
}
_REGISTRY: dict[str, Masker] = {}


def register_masker(masker: Masker) -> None:
    """Register (or replace) a masker under its ``name`` (a built-in too)."""
    _REGISTRY[masker.name] = masker


def masker_names() -> list[str]:
    """Known masker names in a stable order (the built-ins first, in :data:`BUILTIN` order)."""
    order = list(BUILTIN)
    return sorted(set(BUILTIN) | set(_REGISTRY), key=lambda n: (order.index(n) if n in order else len(order), n))


def get_masker(name: str) -> Masker:
    """The masker called ``name`` (one instance per process); MaskError naming the known ones if none."""
    masker = _REGISTRY.get(name)
    if masker is None and name in BUILTIN:
        module, attr = BUILTIN[name]
        masker = _REGISTRY[name] = getattr(importlib.import_module(module), attr)()
    if masker is None:
        raise MaskError(f"unknown masking method {name!r}; use one of {', '.join(masker_names())}")
    return masker
