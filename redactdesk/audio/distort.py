"""Prosody-preserving distortion (seed 001): controlled randomisation plus a growing silence range.

Each sample x inside a range becomes ``u * factor * x`` with u uniform in [0, 1) (a random value
between 0 and ``factor`` times the sample), and samples with ``|x|`` below the *silence range*
(a fraction of the range's peak) are suppressed. Starting at ``start``, the silence range grows by
``step`` until the recogniser, listening to the range with ``context`` seconds either side, no longer
hears the span's words (``targets``: span key -> original text, given by the caller). Without
targets it grows until no word at all is heard there. At 1.0 every sample is suppressed, so the
loop always ends (in silence at worst: fail closed).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from redactdesk.audio.base import (
    FrameRange,
    SourceReader,
    check_params,
    number,
    register_masker,
)
from redactdesk.audio.engine import apply_block, touches
from redactdesk.audio.errors import MaskCancelled, MaskError
from redactdesk.audio.maskers import seeded_chunks
from redactdesk.audio.matching import match_item
from redactdesk.audio.recognise import heard_between, listen_windows, mono, whisper_recogniser


def _uniform(rng: np.random.Generator, n: int, cols: int) -> np.ndarray:
    return rng.random((n, cols))


def range_peak(source: SourceReader, rng: FrameRange, chunk: int = 1 << 18) -> np.ndarray:
    peak = np.zeros(len(rng.channels))
    for a in range(rng.start, rng.end, chunk):
        x = source.read(a, min(rng.end, a + chunk))[:, list(rng.channels)]
        if len(x):
            peak = np.maximum(peak, np.max(np.abs(x), axis=0))
    return peak


class DistortMasker:
    name = "distort"
    description = "randomised samples plus suppression grown until the recogniser fails (keeps prosody)"
    defaults: dict[str, Any] = {
        "factor": 1.5, "start": 0.0, "step": 0.1, "seed": 0, "context": 1.0, "tolerance": 0.25,
        "model": "tiny.en", "language": "en", "targets": None, "recogniser": None, "check": True,
    }

    def available(self) -> tuple[bool, str]:
        return True, "ready (needs the embedded recogniser for its check)"

    def validate(self, params: Mapping[str, Any] | None) -> dict[str, Any]:
        p = check_params(self.name, params, self.defaults)
        p["factor"] = number(self.name, p, "factor", 0.1, 4.0)
        p["start"] = number(self.name, p, "start", 0.0, 1.0)
        p["step"] = number(self.name, p, "step", 0.01, 1.0)
        p["context"] = number(self.name, p, "context", 0.0, 10.0)
        p["tolerance"] = number(self.name, p, "tolerance", 0.0, 2.0)
        if not isinstance(p["seed"], int) or isinstance(p["seed"], bool) or p["seed"] < 0:
            raise MaskError(f"masker 'distort': seed must be a whole number >= 0, got {p['seed']!r}")
        if p["targets"] is not None and not isinstance(p["targets"], Mapping):
            raise MaskError("masker 'distort': targets must map span ids to their original text")
        if p["recogniser"] is not None and not callable(p["recogniser"]):
            raise MaskError("masker 'distort': recogniser must be callable(audio, rate) -> words")
        return p

    def prepare(self, source: SourceReader, ranges: Sequence[FrameRange], params: dict[str, Any]) -> list[Any]:
        states: list[dict[str, Any]] = [
            {"peak": range_peak(source, r), "fraction": params["start"], "threshold": None,
             "seed": params["seed"], "factor": params["factor"], "iterations": 0, "heard": None}
            for r in ranges
        ]
        for st in states:
            st["threshold"] = st["peak"] * st["fraction"]
        if not params["check"]:
            return states
        by_index = {r.index: st for r, st in zip(ranges, states, strict=True)}
        recognise = params["recogniser"] or whisper_recogniser(params["model"], params["language"])
        targets = {str(k): v for k, v in (params["targets"] or {}).items()}
        fade = int(params.get("_fade_frames", 0))
        progress, cancel = params.get("_progress"), params.get("_cancel")
        for i, r in enumerate(ranges):
            if cancel is not None and cancel():
                raise MaskCancelled()
            self._grow(source, ranges, by_index, r, recognise, targets, params, fade)
            if progress is not None:
                progress((i + 1) / len(ranges))
        return states

    def _grow(self, source: SourceReader, ranges: Sequence[FrameRange], states: dict[int, dict[str, Any]],
              r: FrameRange, recognise: Any, targets: dict[str, str], params: dict[str, Any], fade: int) -> None:
        rate = source.rate
        context = params["context"]
        pieces = []  # (window start frame, original window, piece start s, piece end s)
        for a, b in listen_windows(r.start / rate, r.end / rate, context):
            w0 = max(0, int((a - context) * rate))
            w1 = min(source.frames, int(np.ceil((b + context) * rate)))
            pieces.append((w0, source.read(w0, w1), a, b))
        texts = [targets[str(k)] for k in r.source.span_ids if str(k) in targets]
        st = states[r.index]
        fraction = params["start"]
        while True:
            st["fraction"] = fraction
            st["threshold"] = st["peak"] * fraction if fraction < 1.0 else np.full_like(st["peak"], np.inf)
            st["iterations"] += 1
            leaked = False
            for w0, original, a, b in pieces:
                window = original.copy()
                near = [x for x in ranges if touches(x, w0, w0 + len(window), fade)]
                apply_block(window, w0, near, self, states, rate, fade)
                words = recognise(mono(window), rate)
                heard = heard_between(words, a - w0 / rate, b - w0 / rate, params["tolerance"])
                if texts:
                    leaked = any(match_item(t, heard, params["language"]) for t in texts)
                else:
                    leaked = bool(heard.strip())
                if leaked:
                    break
            st["heard"] = leaked
            if not leaked or fraction >= 1.0:
                return
            fraction = min(1.0, round(fraction + params["step"], 6))

    def apply(self, segment: np.ndarray, rng: FrameRange, offset: int, state: Any, rate: int) -> np.ndarray:
        u = seeded_chunks(state["seed"], rng.index, offset, len(segment), segment.shape[1], _uniform)
        out = segment * u * state["factor"]
        out[np.abs(segment) < state["threshold"][None, :]] = 0.0
        return out

    def describe(self, state: Any) -> dict[str, Any]:
        """What the report shows per range (no audio, no text)."""
        return {"silence_range": round(float(state["fraction"]), 4), "iterations": int(state["iterations"]),
                "still_recognised": state["heard"]}


register_masker(DistortMasker())
