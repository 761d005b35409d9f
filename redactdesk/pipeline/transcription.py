"""Transcribe a project's conversations with a registered ASR backend, one transaction each."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from redactdesk.core.types import ConversationStatus
from redactdesk.pipeline import run_journal
from redactdesk.pipeline.executor import Executor, Task, is_in_process
from redactdesk.pipeline.progress import CancelFn, ProgressFn, check_cancel, part
from redactdesk.pipeline.project_config import SETTINGS
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


ModelChoice = str | Mapping[str, str] | None
CommitFn = Callable[["TranscribeOutcome"], None]


def transcribe_project(project: Project, conversation_ids: Sequence[str] | None = None, *,
                       backend: str = "faster-whisper", model: ModelChoice = None, language: str | None = None,
                       progress: ProgressFn | None = None, cancel: CancelFn | None = None,
                       executor: Executor | None = None, resume: bool = False,
                       speakers: int | None = None, on_commit: CommitFn | None = None) -> list[TranscribeOutcome]:
    """Replace the words of each conversation with a fresh transcription of its audio.

    ``language`` None takes each conversation's own language ("detect" lets the model choose);
    ``model`` None takes :data:`DEFAULT_MODELS` for that language; a mapping gives the model per
    language (the app's "English model" and "other languages" preferences), the default for a
    language it does not name. ``on_commit(outcome)`` runs after each conversation's transaction,
    in the order they finish (the app shows each call as soon as it is ready).
    A conversation is written only when its transcription finished, in one transaction, by this
    process (the ``executor``'s workers only return results); cancel stops between and inside
    conversations and leaves the ones not finished untouched. ``resume``: record the run so that
    a rerun after an interruption skips the conversations it already transcribed. ``speakers``: how
    many speakers the diarizer finds in a mono recording (None: the project setting ``asr.speakers``,
    default 2; 0: no diarizer); stereo recordings take one speaker per channel.
    """
    ids = list(conversation_ids) if conversation_ids is not None else project.conversation_ids()
    if speakers is None:  # the setting's rule and default live in one place
        speakers = int(project.setting("asr.speakers", SETTINGS["asr.speakers"].default))
    run = None
    if resume:
        params = {"backend": backend, "model": model, "language": language, "speakers": speakers}
        run = run_journal.begin(project, "transcribe", ids, params, finished=lambda cid, rec: _run_of(project, cid)
                                == rec["run"])
        ids = run.pending
    run_id = run.run_id if run is not None else None
    if is_in_process(executor):
        out = _transcribe_here(project, ids, backend, model, language, progress, cancel, run_id, speakers, on_commit)
    else:
        out = _transcribe_on(executor, project, ids, backend, model, language, progress, cancel, run_id, speakers,
                             on_commit)
    if run is not None:
        run_journal.finish(project, run)
    if progress is not None:
        progress(1.0, "transcription done")
    return out


def _run_of(project: Project, cid: str) -> str | None:
    asr = (project.load_conversation(cid).meta or {}).get("asr")
    return asr.get("run") if isinstance(asr, dict) else None


def _model_for(model: ModelChoice, lang: str) -> str:
    """The model for a conversation in ``lang`` (the project's code, "detect" included)."""
    chosen = model.get(lang) if isinstance(model, Mapping) else model
    return str(chosen or default_model(None if lang == "detect" else lang))


def _settings_for(project: Project, cid: str, model: ModelChoice, language: str | None) -> tuple[Any, str | None, str]:
    conv = project.load_conversation(cid)
    if not conv.audio_path:
        raise ValueError(f"conversation {cid!r} has no audio to transcribe")
    lang = language or conv.language
    lang_arg = None if lang == "detect" else lang
    return conv, lang_arg, _model_for(model, lang)


def _commit(project: Project, cid: str, conv: Any, res: Any, run_id: str | None) -> TranscribeOutcome:
    """One conversation's transcription, its language and ASR facts: one transaction."""
    asr = {"backend": res.backend, "model": str(res.model), "rtf": round(res.rtf, 4), "timed": res.timed}
    if run_id:
        asr["run"] = run_id
    with project.transaction():
        project.replace_words(cid, res.words, res.turns, action="transcribe",
                              status=ConversationStatus.TRANSCRIBED)
        project.update_conversation_meta(cid, language=res.language or conv.language, meta={"asr": asr})
    return TranscribeOutcome(cid, len(res.words), res.seconds, res.rtf, res.timed, list(res.warnings))


def _transcribe_here(project: Project, ids: list[str], backend: str, model: ModelChoice, language: str | None,
                     progress: ProgressFn | None, cancel: CancelFn | None,
                     run_id: str | None, speakers: int, on_commit: CommitFn | None) -> list[TranscribeOutcome]:
    from redactdesk.asr.transcribe import transcribe_file

    out: list[TranscribeOutcome] = []
    for n, cid in enumerate(ids):
        check_cancel(cancel)
        conv, lang_arg, model_name = _settings_for(project, cid, model, language)
        step = part(progress, n, 1, total=len(ids), message=f"transcribing {cid}")
        res = transcribe_file(conv.audio_path, backend=backend, model=model_name, language=lang_arg,
                              progress=step, cancel=cancel, diarize=speakers > 0, num_speakers=speakers or None)
        check_cancel(cancel)
        out.append(_commit(project, cid, conv, res, run_id))
        if on_commit is not None:
            on_commit(out[-1])
    return out


def _transcribe_on(executor: Executor, project: Project, ids: list[str], backend: str, model: ModelChoice,
                   language: str | None, progress: ProgressFn | None, cancel: CancelFn | None,
                   run_id: str | None, speakers: int, on_commit: CommitFn | None) -> list[TranscribeOutcome]:
    """Transcription on the executor's workers: the longest recordings first (the run ends sooner),
    audio read by path on the worker, each result committed here as it arrives."""
    from redactdesk.pipeline.audio_project import audio_file
    from redactdesk.pipeline.stage_tasks import transcribe_task

    tasks, convs, models = [], {}, set()
    for cid in ids:
        conv, lang_arg, model_name = _settings_for(project, cid, model, language)
        path = audio_file(project, conv)
        convs[cid] = conv
        models.add(model_name)
        tasks.append(Task(key=cid, args=(str(path),), weight=float(conv.duration or 1.0),
                          kwargs={"backend": backend, "model": model_name, "language": lang_arg, "threads": 1,
                                  "speakers": speakers}))
        convs[cid] = dataclasses.replace(conv, words=[], turns=[], spans=[])
    tasks.sort(key=lambda t: -t.weight)
    warm = [("asr", m) for m in sorted(models)] if backend == "faster-whisper" else []
    out = {}
    for task, res in executor.run(transcribe_task, tasks, label="transcribing", warm=warm, progress=progress,
                                  cancel=cancel):
        out[task.key] = _commit(project, task.key, convs[task.key], res, run_id)
        if on_commit is not None:
            on_commit(out[task.key])
    return [out[cid] for cid in ids if cid in out]
