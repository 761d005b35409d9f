"""Optional backend: whisperx (transcribe, wav2vec2 alignment, pyannote diarization) from local models.

Install with ``pip install redactdesk[whisperx]``. Nothing is downloaded: the Whisper model is a local
CTranslate2 folder (``tiny.en``, ``base`` or a path, as for faster-whisper), the alignment model a
local wav2vec2 folder (option ``align_model`` or ``$REDACTDESK_WHISPERX_ALIGN_MODEL``) and, for
speaker diarization, a local pyannote pipeline (option ``diarize_model`` or
``$REDACTDESK_DIARIZE_MODEL``). :meth:`WhisperxBackend.available` names whatever is missing.
whisperx JSON files can always be imported, with or without this backend.
"""

from __future__ import annotations

import importlib
import math
import os
import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from redactdesk.asr.base import AsrError, BackendOutput, check_cancel
from redactdesk.asr.compute import whisper_compute_type
from redactdesk.asr.faster_whisper_backend import default_threads
from redactdesk.asr.models import base_parts, resolve_model
from redactdesk.asr.resample import to_work_rate
from redactdesk.core.progress import CancelFn, FractionFn
from redactdesk.core.types import Word

NAME = "whisperx"
ALIGN_ENV = "REDACTDESK_WHISPERX_ALIGN_MODEL"
DIARIZE_ENV = "REDACTDESK_DIARIZE_MODEL"


def words_from_whisperx_result(result: Mapping[str, Any]) -> list[Word]:
    """Words of a whisperx result (``{"segments": [{"words": [...]}]}`` or ``{"word_segments": [...]}``).

    Words whisperx could not align (digits, symbols) have no ``start``/``end``: they get NaN times and
    ``aligned=False`` for :func:`redactdesk.asr.timing.repair_timings` to fill.
    """
    raw: list[Mapping[str, Any]] = []
    for segment in result.get("segments") or ():
        seg_speaker = segment.get("speaker")
        for w in segment.get("words") or ():
            raw.append({"speaker": seg_speaker, **w})
    if not raw:
        raw = list(result.get("word_segments") or ())
    words = []
    for w in raw:
        text = str(w.get("word", w.get("text", ""))).strip()
        if not text:
            continue
        start, end = _time(w.get("start")), _time(w.get("end"))
        timed = math.isfinite(start) and math.isfinite(end)
        score = w.get("score", w.get("probability"))
        words.append(
            Word(
                text=text,
                start=start,
                end=end,
                confidence=None if score is None or not math.isfinite(float(score)) else float(score),
                speaker=w.get("speaker"),
                aligned=timed,
            )
        )
    return words


def _time(value: Any) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        return float("nan")


class WhisperxBackend:
    """whisperx with local models only; see the module docstring for the settings it reads."""

    name = NAME

    def __init__(
        self,
        model: str | os.PathLike[str] = "base",
        *,
        align_model: str | os.PathLike[str] | None = None,
        diarize_model: str | os.PathLike[str] | None = None,
        vad_method: str = "pyannote",
        batch_size: int = 8,
        threads: int | None = None,
    ) -> None:
        self.model = os.fspath(model)
        self.align_model = align_model or os.environ.get(ALIGN_ENV) or None
        self.diarize_model = diarize_model or os.environ.get(DIARIZE_ENV) or None
        self.vad_method = vad_method
        self.batch_size = batch_size
        self.threads = threads or default_threads()

    def missing(self) -> list[str]:
        """Everything that stops whisperx from running here, as readable sentences (empty: ready)."""
        problems: list[str] = []
        for module, hint in (("torch", "torch"), ("torchaudio", "torchaudio (a CPU build matching torch)")):
            try:
                importlib.import_module(module)
            except Exception as exc:  # ImportError, or OSError from a mismatched native build
                problems.append(f"{hint} does not load: {type(exc).__name__}: {str(exc)[:160]}")
        if not problems:
            try:
                importlib.import_module("whisperx")
            except ImportError:
                problems.append("whisperx is not installed (pip install 'redactdesk[whisperx]')")
            except Exception as exc:
                problems.append(f"whisperx does not load: {type(exc).__name__}: {str(exc)[:160]}")
        if shutil.which("ffmpeg") is None:
            problems.append("ffmpeg is not on PATH (whisperx needs it)")
        if not self.align_model:
            problems.append(f"no local alignment model: set {ALIGN_ENV} to a wav2vec2 model folder")
        elif not Path(self.align_model).expanduser().is_dir():
            problems.append(f"alignment model folder {self.align_model} does not exist")
        try:
            base_parts() if self.model == "base" else resolve_model(self.model)
        except AsrError as exc:
            problems.append(str(exc))
        return problems

    def available(self) -> tuple[bool, str]:
        problems = self.missing()
        if problems:
            return False, "whisperx cannot run: " + "; ".join(problems)
        note = "with diarization" if self.diarize_model else "no diarization (set " + DIARIZE_ENV + ")"
        return True, f"ready ({self.model}, {note})"

    def transcribe(
        self,
        audio: np.ndarray,
        rate: int,
        *,
        language: str | None = None,
        progress: FractionFn | None = None,
        cancel: CancelFn | None = None,
    ) -> BackendOutput:
        ok, reason = self.available()
        if not ok:
            raise AsrError(reason)
        import whisperx

        audio = to_work_rate(np.asarray(audio, dtype=np.float32), rate)
        info = resolve_model(self.model)
        if not info.multilingual:
            language = "en"
        try:
            pipeline = _call(
                whisperx.load_model,
                str(info.path),
                "cpu",
                compute_type=whisper_compute_type(),
                language=language,
                threads=self.threads,
                vad_method=self.vad_method,
                local_files_only=True,
            )
            result = pipeline.transcribe(audio, batch_size=self.batch_size, language=language)
            language = result.get("language") or language
            _step(progress, cancel, 0.5)
            align_model, metadata = whisperx.load_align_model(
                language_code=language, device="cpu", model_name=str(Path(self.align_model).expanduser())
            )
            result = whisperx.align(result["segments"], align_model, metadata, audio, "cpu")
            _step(progress, cancel, 0.8)
            if self.diarize_model:
                result = self._diarize(whisperx, audio, result)
        except AsrError:
            raise
        except Exception as exc:
            raise AsrError(f"whisperx failed: {type(exc).__name__}: {exc}") from exc
        _step(progress, cancel, 1.0)
        return BackendOutput(
            words=words_from_whisperx_result(result),
            language=language,
            info={"diarized": bool(self.diarize_model)},
        )

    def _diarize(self, whisperx: Any, audio: np.ndarray, result: dict[str, Any]) -> dict[str, Any]:
        try:
            diarize = importlib.import_module("whisperx.diarize")
        except ImportError as exc:
            raise AsrError(f"speaker diarization needs pyannote.audio: {exc}") from exc
        pipeline_cls = getattr(diarize, "DiarizationPipeline", None) or whisperx.DiarizationPipeline
        assign = getattr(diarize, "assign_word_speakers", None) or whisperx.assign_word_speakers
        pipeline = pipeline_cls(model_name=str(Path(self.diarize_model).expanduser()), device="cpu")
        return assign(pipeline(audio), result)


def _call(fn: Any, *args: Any, **kwargs: Any) -> Any:
    """Call ``fn``, dropping keyword arguments an older whisperx does not know."""
    while True:
        try:
            return fn(*args, **kwargs)
        except TypeError as exc:
            bad = next((k for k in kwargs if f"'{k}'" in str(exc)), None)
            if bad is None:
                raise
            kwargs.pop(bad)


def _step(progress: FractionFn | None, cancel: CancelFn | None, frac: float) -> None:
    check_cancel(cancel)
    if progress is not None:
        progress(frac)
