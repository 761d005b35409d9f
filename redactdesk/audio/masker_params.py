"""What masking one conversation needs besides its ranges: the masker readied before any file is
touched, and its per-conversation parameters (the original words the distortion loop must stop the
recogniser hearing, the surrogate text the voice masker says)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from redactdesk.audio.errors import MaskError
from redactdesk.audio.ranges import span_key
from redactdesk.audio.registry import get_masker
from redactdesk.core.types import Conversation, SpanStatus

# conversation id -> {span key -> surrogate text}, or a function of the conversation giving the inner mapping
Surrogates = Mapping[str, Mapping[Any, str]] | Callable[[Conversation], Mapping[Any, str]]


def targets_for(conv: Conversation) -> dict[str, str]:
    """Span key -> original words of every accepted span (what the distortion loop must hide)."""
    return {str(span_key(s)): conv.span_text(s) for s in conv.spans_by_status(SpanStatus.ACCEPTED)}


def conversation_params(method: str, params: Mapping[str, Any] | None, conv: Conversation,
                        surrogates: Surrogates | None) -> dict[str, Any]:
    """Per-conversation masker parameters: targets for distortion, surrogate text for the voice."""
    p = dict(params or {})
    if method == "distort":
        p.setdefault("targets", targets_for(conv))
        p.setdefault("language", conv.language)
    if method == "voice":
        p.setdefault("language", conv.language)
        if surrogates is not None and "surrogates" not in p:
            p["surrogates"] = surrogates(conv) if callable(surrogates) else surrogates.get(conv.id, {})
    return p


def ready_masker(method: str, params: Mapping[str, Any] | None, out_dir: str | Path) -> tuple[Any, Path]:
    """The masker for ``method``, its parameters checked, and the output folder made — before any
    file is touched (a method that is not installed, or bad parameters, fail here)."""
    masker = get_masker(method)
    ok, why = masker.available()
    if not ok:
        raise MaskError(f"masking method {method!r} is not available here: {why}")
    masker.validate(params)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    return masker, out
