"""The project settings a user may change (``redactdesk config PROJECT [KEY [VALUE]]``), each with its
type, range, default and meaning, and one audited way to change them.

Why a catalogue: a setting typed wrong (``mask.padding = "lots"``) would only fail at export, after
the sign-off; here it is refused when it is set. Why audited: masking and substitution settings
change what the release holds, so they are part of the sign-off hash (``risk.signoff``) and every
change is an audit-log entry (who, when, old and new value) — a change after the sign-off makes it
stale, and the log says why.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from redactdesk.core.types import Decision, Role
from redactdesk.learn.versions import DEFAULT_KEEP, KEEP_SETTING

SETTING_ACTION = "setting"


class SettingError(ValueError):
    """A key that is not a setting, or a value outside its range (the message names the rule, not the value)."""


@dataclass(frozen=True)
class Setting:
    key: str
    kind: str  # "float", "int", "choice", "text"
    default: Any
    help: str
    choices: tuple[str, ...] = ()
    low: float | None = None
    high: float | None = None
    choices_from: Callable[[], list[str]] | None = None  # a registry to ask (e.g. the maskers installed)

    def options(self) -> tuple[str, ...]:
        return tuple(self.choices_from()) if self.choices_from is not None else self.choices

    def parse(self, raw: str) -> Any:
        """The typed value of the text ``raw`` (as typed on a command line), or SettingError."""
        if self.kind == "choice":
            if raw not in self.options():
                raise SettingError(f"{self.key} must be one of {', '.join(self.options())}")
            return raw
        if self.kind == "text":
            return raw
        try:
            value: float | int = int(raw) if self.kind == "int" else float(raw)
        except ValueError:
            raise SettingError(f"{self.key} must be a {'whole ' if self.kind == 'int' else ''}number") from None
        if not math.isfinite(value) or (self.low is not None and value < self.low) or \
                (self.high is not None and value > self.high):
            raise SettingError(f"{self.key} must be a number from {self.low:g} to {self.high:g}")
        return value

    @property
    def signed(self) -> bool:
        from redactdesk.risk.signoff import SIGNED_SETTINGS_KEYS, SIGNED_SETTINGS_PREFIXES

        return self.key.startswith(SIGNED_SETTINGS_PREFIXES) or self.key in SIGNED_SETTINGS_KEYS


def _maskers() -> list[str]:
    from redactdesk.audio import masker_names

    return list(masker_names())


SETTINGS: dict[str, Setting] = {s.key: s for s in (
    Setting("language", "choice", "en", "default language of new recordings", ("en", "es", "detect")),
    Setting("mask.method", "choice", "beep", "how the audio of an item is masked",
            ("silence", "beep", "noise", "distort", "voice"), choices_from=lambda: _maskers()),
    Setting("mask.padding", "float", 0.05, "seconds masked before and after each item", low=0.0, high=2.0),
    Setting("mask.min_confidence", "float", 0.5, "below this ASR confidence a word next to an item is "
            "masked too", low=0.0, high=1.0),
    Setting("mask.channel_mode", "choice", "speaker", "stereo calls: mask only the speaker's channel, or both",
            ("speaker", "both")),
    Setting("substitute.mode", "choice", "pseudonym", "what replaces an item in the revised transcript",
            ("pseudonym", "placeholder", "tag", "redact", "generalise")),
    Setting("substitute.k", "int", 3, "k of k-anonymity for substitute.mode generalise", low=2, high=1000),
    Setting("asr.speakers", "int", 2, "speakers a mono recording is split into by the diarizer (0: no "
            "diarizer, one speaker); stereo calls take one speaker per channel", low=0, high=8),
    Setting("review.threshold", "float", 5.0, "residual-risk threshold (mu+sigma must stay below it)",
            low=0.0, high=100.0),
    Setting(KEEP_SETTING, "int", DEFAULT_KEEP, "active-learning model versions that keep their model (older "
            "ones keep only their scores and cannot be rolled back to; the version in use is always kept)",
            low=1, high=1000),
)}


def describe(project: Any) -> list[dict[str, Any]]:
    """Every known setting with its current value and whether it is still the default."""
    stored = project.settings()
    return [{"key": s.key, "value": stored.get(s.key, s.default), "default": s.default,
             "is_default": s.key not in stored, "signed": s.signed, "help": s.help,
             **({"choices": list(s.options())} if s.choices else {}),
             **({"range": [s.low, s.high]} if s.low is not None else {})} for s in SETTINGS.values()]


def lookup(key: str) -> Setting:
    if key not in SETTINGS:
        raise SettingError(f"not a setting; known settings: {', '.join(SETTINGS)}")
    return SETTINGS[key]


def set_setting(project: Any, key: str, raw: str, *, now: Callable[[], str] | None = None) -> tuple[Any, Any]:
    """Check ``raw`` against the setting's rule, store it and log the change in one transaction.

    Returns (old value, new value). Setting a value equal to the stored one changes nothing and logs
    nothing.
    """
    from redactdesk.store import utc_now

    setting = lookup(key)
    value = setting.parse(raw)
    with project.transaction():
        old = project.setting(key, setting.default)
        stored = key in project.settings()
        if stored and json.dumps(old) == json.dumps(value):
            return old, value
        project.set_setting(key, value)
        project.log(Decision(action=SETTING_ACTION, actor=project.actor, role=Role(project.role),
                             at=(now or utc_now)(), before={"key": key, "value": old if stored else None},
                             after={"key": key, "value": value, "signed": setting.signed}))
    return old, value
