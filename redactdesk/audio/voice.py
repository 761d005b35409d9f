"""Spoken surrogates: the pseudonym synthesised with espeak-ng and fitted to the span's duration.

The surrogate text comes from the caller (the substitution stage's result) as ``surrogates``: span
key -> text, so the masked audio says what the revised transcript says. espeak-ng's speaking rate is
set so the phrase roughly fills the range, then the waveform is resampled to exactly the range's
length and scaled to the span's RMS level. Ranges with no surrogate for every span they cover get
the ``fallback`` masker (a beep by default): nothing original is ever left in place.
"""

from __future__ import annotations

import functools
import io
import shutil
import subprocess
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np
import soundfile as sf
from scipy.signal import resample

from redactdesk.audio.base import (
    FrameRange,
    SourceReader,
    check_params,
    number,
    range_rms,
)
from redactdesk.audio.errors import MaskError, MaskerUnavailable
from redactdesk.audio.maskers import clamp_level
from redactdesk.audio.registry import get_masker

ESPEAK = "espeak-ng"
DEFAULT_WPM = 175
_VOICES = {"en": "en-us", "es": "es"}


@functools.lru_cache(maxsize=1)
def espeak_path() -> str | None:
    return shutil.which(ESPEAK)


def synthesise(text: str, voice: str, wpm: int) -> tuple[np.ndarray, int]:
    """espeak-ng speech for ``text`` (sent on stdin, never on the command line) as float64 mono."""
    exe = espeak_path()
    if exe is None:
        raise MaskerUnavailable("spoken surrogates need espeak-ng (Debian/Ubuntu: apt install espeak-ng)")
    try:
        done = subprocess.run([exe, "-v", voice, "-s", str(int(wpm)), "--stdout"], input=text.encode("utf-8"),
                              capture_output=True, timeout=60, check=True)
        x, rate = sf.read(io.BytesIO(done.stdout), dtype="float64")
    except (subprocess.SubprocessError, OSError, sf.LibsndfileError, RuntimeError) as exc:
        raise MaskError(f"espeak-ng could not synthesise a surrogate with voice {voice!r}: {exc}") from exc
    return (x if x.ndim == 1 else x.mean(axis=1)), int(rate)


def trim(x: np.ndarray, rel: float = 0.02) -> np.ndarray:
    """Cut leading and trailing near-silence (below ``rel`` of the peak)."""
    if len(x) == 0:
        return x
    loud = np.flatnonzero(np.abs(x) >= rel * np.max(np.abs(x)))
    return x[loud[0]:loud[-1] + 1] if len(loud) else x[:0]


def fitted_speech(text: str, frames: int, rate: int, voice: str) -> np.ndarray:
    """Synthesised ``text`` lasting exactly ``frames`` samples at ``rate`` (unit peak)."""
    x, src_rate = synthesise(text, voice, DEFAULT_WPM)
    x = trim(x)
    if len(x):
        ratio = (len(x) / src_rate) / (frames / rate)
        wpm = int(np.clip(DEFAULT_WPM * ratio, 80, 450))
        if wpm != DEFAULT_WPM:
            x = trim(synthesise(text, voice, wpm)[0])
    if len(x) == 0:
        return np.zeros(frames)
    y = resample(x, frames) if frames > 1 else x[:frames]
    peak = np.max(np.abs(y))
    return y / peak if peak > 0 else y


class VoiceMasker:
    name = "voice"
    description = "the pseudonym spoken by espeak-ng, fitted to the span's duration"
    defaults: dict[str, Any] = {"surrogates": None, "language": "en", "voice": None, "fallback": "beep",
                                "min_dbfs": -45.0}

    def available(self) -> tuple[bool, str]:
        if espeak_path() is None:
            return False, "espeak-ng is not installed (apt install espeak-ng)"
        return True, "ready"

    def validate(self, params: Mapping[str, Any] | None) -> dict[str, Any]:
        p = check_params(self.name, params, self.defaults)
        ok, why = self.available()
        if not ok:
            raise MaskerUnavailable(f"masker 'voice': {why}")
        if p["surrogates"] is not None and not isinstance(p["surrogates"], Mapping):
            raise MaskError("masker 'voice': surrogates must map span ids to surrogate text")
        if p["fallback"] == self.name:
            raise MaskError("masker 'voice': the fallback must be another masker (e.g. beep)")
        p["min_dbfs"] = number(self.name, p, "min_dbfs", -120.0, 0.0)
        p["voice"] = p["voice"] or _VOICES.get(p["language"], "en-us")
        fallback = get_masker(p["fallback"])
        p["_fallback_params"] = fallback.validate(None)
        return p

    def prepare(self, source: SourceReader, ranges: Sequence[FrameRange], params: dict[str, Any]) -> list[Any]:
        fallback = get_masker(params["fallback"])
        texts = {str(k): str(v) for k, v in (params["surrogates"] or {}).items()}
        states: list[Any] = []
        fb_ranges = []
        for i, r in enumerate(ranges):
            keys = [str(k) for k in r.source.span_ids]
            if keys and all(k in texts and texts[k].strip() for k in keys):
                phrase = " ".join(texts[k] for k in keys)
                speech = fitted_speech(phrase, r.frames, source.rate, params["voice"])
                level = clamp_level(range_rms(source, r), params["min_dbfs"], 0.0)
                rms = np.sqrt(np.mean(speech ** 2)) if len(speech) else 0.0
                gain = level / rms if rms > 0 else np.zeros_like(level)
                states.append(("voice", speech, gain))
            else:
                states.append(None)
                fb_ranges.append((i, r))
        fb_states = fallback.prepare(source, [r for _, r in fb_ranges], params["_fallback_params"]) if fb_ranges else []
        for (i, _r), st in zip(fb_ranges, fb_states, strict=True):
            states[i] = ("fallback", fallback, st)
        return states

    def apply(self, segment: np.ndarray, rng: FrameRange, offset: int, state: Any, rate: int) -> np.ndarray:
        if state[0] == "fallback":
            return state[1].apply(segment, rng, offset, state[2], rate)
        speech, gain = state[1], state[2]
        return speech[offset:offset + len(segment), None] * gain[None, :]

    def describe(self, state: Any) -> dict[str, Any]:
        return {"spoken": state[0] == "voice"}



def surrogates_from(replacements: Iterable[Any]) -> dict[str, str]:
    """``surrogates`` for this masker from the substitution stage's replacements.

    Each replacement (object or dict) has ``span_id``, ``start_word``, ``end_word`` and ``surrogate``;
    keys follow :func:`~redactdesk.audio.ranges.span_key` (the id, or ``"start:end"`` when unstored).
    """
    out: dict[str, str] = {}
    for rep in replacements:
        get = rep.get if isinstance(rep, Mapping) else lambda k, rep=rep: getattr(rep, k, None)
        span_id = get("span_id")
        key = str(span_id) if span_id is not None else f"{get('start_word')}:{get('end_word')}"
        out[key] = str(get("surrogate") or "")
    return out
