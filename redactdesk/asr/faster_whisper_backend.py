"""The embedded, fully offline backend: faster-whisper (CTranslate2), int8 on CPU.

Word timestamps and the bundled Silero VAD are on. Models come from local folders only
(:mod:`redactdesk.asr.models`); ``HF_HUB_OFFLINE=1`` is set before faster_whisper is imported.
"""

from __future__ import annotations

import functools
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from math import ceil
from pathlib import Path
from typing import Any

import numpy as np

from redactdesk.asr.base import AsrError, BackendOutput, check_cancel
from redactdesk.asr.chunks import ChunkPlan, transcribe_chunked
from redactdesk.asr.compute import whisper_compute_type
from redactdesk.asr.models import ModelInfo, base_parts, cache_dir, resolve_model
from redactdesk.asr.resample import WORK_RATE, to_work_rate
from redactdesk.core.progress import CancelFn, FractionFn
from redactdesk.core.types import Word

NAME = "faster-whisper"
LANGUAGES = ("en", "es")

# A call-centre prompt nudges Whisper towards phone-call wording and digits written as digits.
# Measured on the demo calls: English base WER 0.21 -> 0.18 (3 calls) with it, tiny.en 0.21 -> 0.30;
# a Spanish prompt was copied into the transcript in place of speech (WER 0.47 -> 0.73), so there is
# none. prompt="auto" uses it for multilingual models transcribing English only.
CALL_PROMPTS = {
    "en": "Call centre call. Agent: Thank you for calling, how can I help? "
    "Customer: My card number is 4111 1111 1111 1111, expiry 06/27.",
}

# Whisper's end-of-audio hallucination: after the last word it placed, faster-whisper decodes the
# sliver of audio left (0.1-0.5 s) with the prompt and the text so far as context, and the decoder
# "hears" that context again — "... on the left, who had vanished behind the curtain on the left",
# "how can I help, how can I help, ..." — as words it cannot place in time (start = end). Measured
# (issue 23) on 63 short clips — the public jfk and stereo clips cut after every second word with 0.05
# or 0.3 s of tail, and 20 single turns of three English demo calls — with base and the call prompt:
# 96 zero-length words, WER 25.4 %; dropping such segments: 4 zero-length words left (real words
# squeezed to an instant, which the guard keeps), WER 8.1 %. Each of the 8 invented segments had
# no_speech_prob 0.59-0.81 and at least half of its words without duration; no real segment had
# no_speech_prob over 0.42 or more than one such word. The alternatives, measured on the same clips:
# hallucination_silence_threshold (0.5 or 2 s) changes nothing (it wants silence after the segment,
# and the audio ends); condition_on_previous_text=False cured the stereo left channel but invented 6
# words on the right one; padding the audio with 1-2 s of silence invented more (187 zero-length
# words at 2 s); log_prob_threshold -0.8 left 50; no prompt left 6 (WER 8.8 %) but costs demo-call WER
# (base, 12 English calls: 9.1 % with the prompt, 9.5 % without). The VAD end does not help: on the
# stereo clip speech runs to the last sample.
INVENTED_NO_SPEECH = 0.5
INVENTED_ZERO_SHARE = 0.5
ZERO_WORD_SECONDS = 0.01


def invented_segment(segment: Any) -> bool:
    """True for a segment Whisper thinks holds no speech whose words mostly have no duration."""
    words = [w for w in segment.words or () if w.word.strip()]
    if not words or float(segment.no_speech_prob) <= INVENTED_NO_SPEECH:
        return False
    zero = sum(1 for w in words if float(w.end) - float(w.start) < ZERO_WORD_SECONDS)
    return zero >= INVENTED_ZERO_SHARE * len(words)


_MODELS: dict[tuple[str, int], Any] = {}
_MODELS_LOCK = threading.Lock()


def _import_faster_whisper() -> Any:
    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    try:
        import faster_whisper
    except ImportError as exc:  # pragma: no cover - it is a core dependency
        raise AsrError("the faster-whisper package is not installed (pip install faster-whisper)") from exc
    return faster_whisper


_THREAD_CAP: int | None = None  # set by a Dask worker: its recogniser uses the worker's own threads


def cap_threads(threads: int | None) -> None:
    """Models loaded from now on in this process use at most ``threads`` threads (None: no cap).

    CTranslate2 takes min(4, cores) threads per model by default, so N worker processes on N cores
    would ask for 4N; each worker caps its own."""
    global _THREAD_CAP
    _THREAD_CAP = None if threads is None else max(1, int(threads))


def default_threads() -> int:
    threads = max(1, min(4, os.cpu_count() or 1))
    return min(threads, _THREAD_CAP) if _THREAD_CAP else threads


# --------------------------------------------------------------------------- short encoder context
# Whisper's encoder reads 30 s (3,000 feature frames) per call; faster-whisper pads a 3-s clip with
# 27 s of silence and the encoder's cost, most of a short clip's, is spent on that padding.
# CTranslate2's encoder takes fewer frames (its cost falls in proportion), so a caller hearing short
# clips (the re-listen check) can say how much audio a call holds, and the encoder reads that much
# plus ``pad`` seconds. Outside ``short_context`` nothing changes.
_SHORT = threading.local()
FRAMES_PER_SECOND = 100
FULL_FRAMES = 3000


@contextmanager
def short_context(seconds: float, pad: float = 1.0) -> Iterator[None]:
    """Within this block, this thread's Whisper calls encode ``seconds + pad`` of audio, not 30 s."""
    frames = min(FULL_FRAMES, 2 * ceil((max(0.0, seconds) + max(0.0, pad)) * FRAMES_PER_SECOND / 2))
    before = getattr(_SHORT, "frames", None)
    _SHORT.frames = frames
    try:
        yield
    finally:
        _SHORT.frames = before


@functools.cache
def _model_class() -> Any:
    fw = _import_faster_whisper()

    class ShortContextWhisper(fw.WhisperModel):
        """faster-whisper's model, whose encoder honours :func:`short_context`."""

        def encode(self, features: np.ndarray) -> Any:
            frames = getattr(_SHORT, "frames", None)
            if frames is not None and features.shape[-1] > frames:
                features = features[..., :frames]
            return super().encode(features)

    return ShortContextWhisper


def load_whisper(path: Path, threads: int | None = None) -> Any:
    """A shared ``WhisperModel`` for a local model folder (loaded once per process)."""
    threads = threads or default_threads()
    key = (str(path), threads)
    with _MODELS_LOCK:
        model = _MODELS.get(key)
        if model is None:
            try:
                model = _model_class()(
                    str(path), device="cpu", compute_type=whisper_compute_type(), cpu_threads=threads,
                    local_files_only=True
                )
            except Exception as exc:  # CTranslate2 raises RuntimeError/ValueError on bad folders
                raise AsrError(f"could not load the Whisper model in {path}: {exc}") from exc
            _MODELS[key] = model
    return model


class FasterWhisperBackend:
    """Whisper through faster-whisper; ``model`` is ``"tiny.en"``, ``"base"`` or a model folder."""

    name = NAME

    def __init__(
        self,
        model: str | os.PathLike[str] = "tiny.en",
        *,
        threads: int | None = None,
        beam_size: int = 5,
        vad_filter: bool = True,
        condition_on_previous_text: bool = True,
        prompt: str | None = "auto",
        chunk_plan: ChunkPlan | None = None,
        cache: Path | None = None,
    ) -> None:
        self.model = os.fspath(model)
        self.threads = threads
        self.beam_size = beam_size
        self.vad_filter = vad_filter
        # Off, tiny.en skipped whole 30-s windows of the demo calls (WER 0.87 vs 0.42 on two calls).
        self.condition_on_previous_text = condition_on_previous_text
        self.prompt = prompt
        self.chunk_plan = chunk_plan or ChunkPlan()
        self.cache = cache
        self._info: ModelInfo | None = None

    def available(self) -> tuple[bool, str]:
        try:
            _import_faster_whisper()
            if self.model == "base" and self._info is None:
                if not ((self.cache or cache_dir()) / "whisper-base" / "model.bin").is_file():
                    base_parts()  # parts present: it will be assembled on first use
                return True, "ready (multilingual base)"
            info = self.model_info()
        except AsrError as exc:
            return False, str(exc)
        return True, f"ready ({info.name})"

    def model_info(self) -> ModelInfo:
        if self._info is None:
            self._info = resolve_model(self.model, cache=self.cache)
        return self._info

    def check_language(self, language: str | None) -> str | None:
        """The language to pass to Whisper; English-only models force ``en`` and refuse others."""
        info = self.model_info()
        if language is not None and language not in LANGUAGES:
            raise AsrError(f"language {language!r} is not supported; use one of {', '.join(LANGUAGES)} or detect")
        if not info.multilingual:
            if language not in (None, "en"):
                raise AsrError(
                    f"model {info.name} understands English only; use --model base for language {language!r}"
                )
            return "en"
        return language

    def initial_prompt(self, language: str | None) -> str | None:
        """The decoding prompt: ``prompt="auto"`` gives the call-centre prompt of the language."""
        if self.prompt == "auto":
            if not language or not self.model_info().multilingual:
                return None  # no bias while detecting; tiny.en did worse with it (WER 0.21 -> 0.30)
            return CALL_PROMPTS.get(language)
        return self.prompt or None

    def transcribe(
        self,
        audio: np.ndarray,
        rate: int,
        *,
        language: str | None = None,
        progress: FractionFn | None = None,
        cancel: CancelFn | None = None,
    ) -> BackendOutput:
        """Words of mono ``audio`` (any rate; resampled to 16 kHz), chunked when it is long."""
        language = self.check_language(language)
        audio = to_work_rate(np.asarray(audio, dtype=np.float32), rate)
        return transcribe_chunked(
            self.run_chunk,
            lambda a, b: audio[a:b],
            len(audio),
            WORK_RATE,
            language=language,
            plan=self.chunk_plan,
            progress=progress,
            cancel=cancel,
        )

    def run_chunk(
        self,
        audio: np.ndarray,
        language: str | None,
        progress: FractionFn | None = None,
        cancel: CancelFn | None = None,
    ) -> BackendOutput:
        """One chunk of 16 kHz mono audio through Whisper; checks ``cancel`` between segments."""
        language = self.check_language(language)
        model = load_whisper(self.model_info().path, self.threads)
        duration = max(len(audio) / WORK_RATE, 1e-6)
        if len(audio) < WORK_RATE // 10:  # under 0.1 s: nothing to hear
            return BackendOutput(words=[], language=language)
        try:
            segments, info = model.transcribe(
                audio.astype(np.float32, copy=False),
                language=language,
                beam_size=self.beam_size,
                word_timestamps=True,
                vad_filter=self.vad_filter,
                condition_on_previous_text=self.condition_on_previous_text,
                initial_prompt=self.initial_prompt(language),
            )
            words: list[Word] = []
            invented = 0
            for segment in segments:  # a lazy generator: decoding happens while iterating
                check_cancel(cancel)
                if invented_segment(segment):
                    invented += sum(1 for w in segment.words or () if w.word.strip())
                    continue
                for w in segment.words or ():
                    text = w.word.strip()
                    if text:
                        words.append(
                            Word(
                                text=text,
                                start=round(float(w.start), 3),
                                end=round(float(max(w.end, w.start)), 3),
                                confidence=round(float(w.probability), 4),
                                aligned=True,
                            )
                        )
                if progress is not None:
                    progress(min(1.0, segment.end / duration))
        except AsrError:
            raise
        except Exception as exc:
            raise AsrError(f"speech recognition failed: {exc}") from exc
        return BackendOutput(
            words=words,
            language=info.language,
            info={"language_probability": float(info.language_probability), "invented_words": invented},
        )
