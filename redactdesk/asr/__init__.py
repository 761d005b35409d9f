"""Speech to aligned words: offline ASR backends, timing repair, forced alignment, speakers.

Entry points: :func:`transcribe_file` / :func:`transcribe_to_json` (audio file → words and turns),
:func:`retime_words` / :func:`refine_file` (re-time words of a transcript against its audio file;
:func:`align_turn` / :func:`refine_alignment` do the same on arrays), :func:`prepare_words` (timing repair
+ numeric splitting + fused Spanish spellings split, as transcription applies them), :func:`rename_speaker`.
"""

from redactdesk.asr.align import AlignmentReport, align_turn, align_words, refine_alignment
from redactdesk.asr.backends import backend_names, get_backend, register_backend
from redactdesk.asr.base import (
    AlignmentError,
    AsrBackend,
    AsrCancelled,
    AsrError,
    BackendOutput,
)
from redactdesk.asr.models import ModelInfo, ensure_base_model, resolve_model
from redactdesk.asr.retime import refine_file, retime_words
from redactdesk.asr.speakers import build_turns, merge_channels, rename_speaker
from redactdesk.asr.timing import TimingReport, prepare_words, repair_timings, split_numeric_tokens
from redactdesk.asr.transcribe import TranscriptionResult, scan_audio, transcribe_file, transcribe_to_json

__all__ = [
    "AlignmentError",
    "AlignmentReport",
    "AsrBackend",
    "AsrCancelled",
    "AsrError",
    "BackendOutput",
    "ModelInfo",
    "TimingReport",
    "TranscriptionResult",
    "align_turn",
    "align_words",
    "backend_names",
    "build_turns",
    "ensure_base_model",
    "get_backend",
    "merge_channels",
    "prepare_words",
    "refine_alignment",
    "refine_file",
    "register_backend",
    "rename_speaker",
    "repair_timings",
    "resolve_model",
    "retime_words",
    "scan_audio",
    "split_numeric_tokens",
    "transcribe_file",
    "transcribe_to_json",
]
