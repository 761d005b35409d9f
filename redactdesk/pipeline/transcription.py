"""Transcribe a project's conversations with a registered ASR backend, one transaction each."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from redactdesk.core.types import ConversationStatus
from redactdesk.pipeline.progress import CancelFn, ProgressFn, check_cancel
from redactdesk.store import Project

# Whisper base for every language: on the demo calls it is more accurate than tiny.en (English WER
# 17% vs 24%, benchmarks/bench_asr.py) and no slower in wall time on 2 cores.
DEFAULT_MODELS = {"en": "base", "es": "base"}


def default_model(language: str | None) -> str:
    return DEFAULT_MODELS.get(language or "", "base")


@dataclass
class TranscribeOutcome:
    conversation_id: str
    words: int
    seconds: float
    rtf: float
    timed: int
    warnings: list[str]


def transcribe_project(project: Project, conversation_ids: Sequence[str] | None = None, *,
                       backend: str = "faster-whisper", model: str | None = None, language: str | None = None,
                       progress: ProgressFn | None = None, cancel: CancelFn | None = None) -> list[TranscribeOutcome]:
    """Replace the words of each conversation with a fresh transcription of its audio.

    ``language`` None takes each conversation's own language ("detect" lets the model choose);
    ``model`` None takes :data:`DEFAULT_MODELS` for that language.
    A conversation is written only when its transcription finished; cancel stops between and
    inside conversations and leaves the ones not finished untouched.
    """
    from redactdesk.asr.transcribe import transcribe_file

    ids = list(conversation_ids) if conversation_ids is not None else project.conversation_ids()
    out: list[TranscribeOutcome] = []
    for n, cid in enumerate(ids):
        check_cancel(cancel)
        conv = project.load_conversation(cid)
        if not conv.audio_path:
            raise ValueError(f"conversation {cid!r} has no audio to transcribe")
        lang = language or conv.language
        lang_arg = None if lang == "detect" else lang

        def step(fraction: float, _n: int = n, _cid: str = cid) -> None:
            if progress is not None:
                progress((_n + min(max(fraction, 0.0), 1.0)) / len(ids), f"transcribing {_cid}")

        res = transcribe_file(conv.audio_path, backend=backend, model=model or default_model(lang_arg),
                              language=lang_arg,
                              progress=step, cancel=cancel)
        check_cancel(cancel)
        with project.transaction():
            project.replace_words(cid, res.words, res.turns, action="transcribe",
                                  status=ConversationStatus.TRANSCRIBED)
            project.update_conversation_meta(cid, language=res.language or conv.language,
                                             meta={"asr": {"backend": res.backend, "model": str(res.model),
                                                           "rtf": round(res.rtf, 4), "timed": res.timed}})
        out.append(TranscribeOutcome(cid, len(res.words), res.seconds, res.rtf, res.timed, list(res.warnings)))
    if progress is not None:
        progress(1.0, "transcription done")
    return out
