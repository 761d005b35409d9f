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
)
from redactdesk.audio.engine import apply_block, to_float, to_int, touches
from redactdesk.audio.errors import MaskCancelled, MaskError
from redactdesk.audio.maskers import seeded_chunks
from redactdesk.audio.matching import match_item
from redactdesk.audio.recognise import (
    Piece,
    group_pieces,
    heard_between,
    listen_windows,
    solo_channels,
    whisper_recogniser,
)
from redactdesk.core.progress import check_cancel


def _uniform(rng: np.random.Generator, n: int, cols: int) -> np.ndarray:
    return rng.random((n, cols))


def _set_fraction(state: dict[str, Any], fraction: float) -> None:
    """Silence range as a fraction of the range's peak; 1.0 suppresses every sample."""
    state["fraction"] = fraction
    state["threshold"] = state["peak"] * fraction if fraction < 1.0 else np.full_like(state["peak"], np.inf)


def range_peak(source: SourceReader, rng: FrameRange, chunk: int = 1 << 18) -> np.ndarray:
    peak = np.zeros(len(rng.channels))
    for a in range(rng.start, rng.end, chunk):
        x = source.read(a, min(rng.end, a + chunk))[:, list(rng.channels)]
        if len(x):
            peak = np.maximum(peak, np.max(np.abs(x), axis=0))
    return peak


class DistortMasker:
    name = "distort"
    slow_prepare = True  # the recogniser loop runs in prepare()
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
            _set_fraction(st, params["start"])
        if not params["check"]:
            return states
        self._grow(source, ranges, {r.index: st for r, st in zip(ranges, states, strict=True)}, params)
        return states

    def _grow(self, source: SourceReader, ranges: Sequence[FrameRange], states: dict[int, dict[str, Any]],
              params: dict[str, Any]) -> None:
        """Grow each range's silence range until the recogniser no longer hears its words.

        All ranges move in rounds; in each round every recogniser window (nearby ranges share one)
        that still holds an unresolved range is heard once, with every range at its current setting.
        When all have settled, everything is heard once more at its final setting (what the re-listen
        check will hear); ranges heard again grow on.
        """
        rate, context = source.rate, params["context"]
        recognise = params["recogniser"] or whisper_recogniser(params["model"], params["language"])
        targets = {str(k): v for k, v in (params["targets"] or {}).items()}
        fade = int(params.get("_fade_frames", 0))
        progress, cancel = params.get("_progress"), params.get("_cancel")
        by_index = {r.index: r for r in ranges}
        texts = {r.index: [targets[str(k)] for k in r.source.span_ids if str(k) in targets] for r in ranges}
        pieces = [Piece(r.index, a, b) for r in ranges for a, b in listen_windows(r.start / rate, r.end / rate, context)]
        groups = group_pieces(pieces, context)
        bits = source.bits if getattr(source, "kind", "") == "int" else 0

        def hear(which: set[int]) -> dict[int, bool]:
            """Which of ``which`` the recogniser still gets, every range at its current setting."""
            leaked = dict.fromkeys(which, False)
            for group in groups:
                check_cancel(cancel, MaskCancelled)
                todo = [p for p in group if p.range_index in which and not leaked[p.range_index]]
                if not todo:
                    continue
                w0 = max(0, int((group[0].start - context) * rate))
                w1 = min(source.frames, int(np.ceil((max(p.end for p in group) + context) * rate)))
                window = source.read(w0, w1)
                apply_block(window, w0, [x for x in ranges if touches(x, w0, w1, fade)], self, states, rate, fade)
                if bits:  # hear exactly the samples the file will hold
                    window = to_float(to_int(window, bits))
                for words in (recognise(x, rate) for x in solo_channels(window)):
                    for p in todo:
                        heard = heard_between(words, p.start - w0 / rate, p.end - w0 / rate, params["tolerance"])
                        wanted = texts[p.range_index]
                        if wanted:
                            hit = any(match_item(t, heard, params["language"]) for t in wanted)
                        else:
                            hit = bool(heard.strip())
                        leaked[p.range_index] = leaked[p.range_index] or hit
            return leaked

        pending = set(by_index)
        while True:
            if not pending:
                # settled: hear everything once more at its final setting, since a neighbour that grew
                # later changed the context a range was judged in (the re-listen check hears that)
                open_ = {i for i in by_index if states[i]["fraction"] < 1.0}
                if not open_:
                    break
                pending = {i for i, hit in hear(open_).items() if hit}
                if not pending:
                    break
                for i in pending:
                    states[i]["heard"] = True
                    _set_fraction(states[i], min(1.0, round(states[i]["fraction"] + params["step"], 6)))
                continue
            leaked = hear(pending)
            for i in sorted(pending):
                st = states[i]
                st["iterations"] += 1
                st["heard"] = leaked[i]
                if not leaked[i] or st["fraction"] >= 1.0:
                    pending.discard(i)
                    continue
                _set_fraction(st, min(1.0, round(st["fraction"] + params["step"], 6)))
            if progress is not None:
                progress(1.0 - len(pending) / max(1, len(by_index)))

    def apply(self, segment: np.ndarray, rng: FrameRange, offset: int, state: Any, rate: int) -> np.ndarray:
        u = seeded_chunks(state["seed"], rng.index, offset, len(segment), segment.shape[1], _uniform)
        out = segment * u * state["factor"]
        out[np.abs(segment) < state["threshold"][None, :]] = 0.0
        return out

    def describe(self, state: Any) -> dict[str, Any]:
        """What the report shows per range (no audio, no text)."""
        return {"silence_range": round(float(state["fraction"]), 4), "iterations": int(state["iterations"]),
                "still_recognised": state["heard"]}

