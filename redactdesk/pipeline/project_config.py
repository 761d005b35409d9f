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
    kind: str  # "float", "int", "choice", "text", "ids" (a JSON list of conversation ids; "" clears it)
    default: Any
    help: str
    choices: tuple[str, ...] = ()
    low: float | None = None
    high: float | None = None
    choices_from: Callable[[], list[str]] | None = None  # a registry to ask (e.g. the maskers installed)
    check: Callable[[str], str] | None = None  # "text": the canonical value, or SettingError (e.g. a strategy spec)

    def options(self) -> tuple[str, ...]:
        return tuple(self.choices_from()) if self.choices_from is not None else self.choices

    def parse(self, raw: str) -> Any:
        """The typed value of the text ``raw`` (as typed on a command line), or SettingError."""
        if self.kind == "choice":
            if raw not in self.options():
                raise SettingError(f"{self.key} must be one of {', '.join(self.options())}")
            return raw
        if self.kind == "text":
            return self.check(raw) if self.check is not None else raw
        if self.kind == "ids":
            return _ids(self.key, raw)
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


def _ids(key: str, raw: str) -> list[str] | None:
    if not raw.strip():
        return None
    try:
        value = json.loads(raw)
    except ValueError:
        value = None
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise SettingError(f"{key} must be a JSON list of conversation ids, or empty to clear it")
    return value


def _strategy(raw: str) -> str:
    from redactdesk.learn.selection import QUERY_STRATEGIES, StrategyError, get_strategy

    try:
        return get_strategy(raw).spec
    except (StrategyError, ValueError):
        raise SettingError(f"learn.strategy must be a selection strategy such as {', '.join(QUERY_STRATEGIES)}") \
            from None


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
    Setting("review.sample", "ids", None, "the conversations the residual risk is scored on (a drawn sample; "
            "empty: every conversation)"),
    Setting("learn.strategy", "text", "diverse+t-kmax", "how active learning picks the next turns to label",
            check=_strategy),
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


def as_text(value: Any) -> str:
    """A stored value as the text :func:`set_setting` takes (to set it back, e.g. on undo)."""
    if value is None:
        return ""
    return json.dumps(value) if isinstance(value, list) else str(value)


def lookup(key: str) -> Setting:
    if key not in SETTINGS:
        raise SettingError(f"not a setting; known settings: {', '.join(SETTINGS)}")
    return SETTINGS[key]


def set_setting(project: Any, key: str, raw: str, *, now: Callable[[], str] | None = None,
                action: str = SETTING_ACTION) -> tuple[Any, Any]:
    """Check ``raw`` against the setting's rule, store it and log the change in one transaction.

    Returns (old value, new value). Setting a value equal to the stored one changes nothing and logs
    nothing. ``action`` names the audit entry (the app's undo of a change logs ``undo_setting``).
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
        project.log(Decision(action=action, actor=project.actor, role=Role(project.role),
                             at=(now or utc_now)(), before={"key": key, "value": old if stored else None},
                             after={"key": key, "value": value, "signed": setting.signed}))
    return old, value
