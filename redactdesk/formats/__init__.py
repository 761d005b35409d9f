"""Importers and exporters: audio through soundfile, transcripts in whisperx JSON, the project's own
conversation JSON, NIST CTM, Praat TextGrid, ELAN EAF (both with item tiers: ``span_tier``), WebVTT
and SRT; and the files of other tools, each in its own module: Label Studio (``labelstudio``),
Prodigy (``prodigy``), doccano (``doccano``), spaCy DocBin (``docbin``), NIST RTTM and STM (``rttm``,
``stm``), Audacity label tracks (``audacity``) and Presidio results (``presidio``).

Readers validate everything and raise ``ImportFailed`` listing every problem with its place, never a
value from the file. Input is bounded before it is read (``formats.limits``): regular files only,
size limits, JSON nesting depth, ranges of numbers; every parser runs in linear time.
"""

from redactdesk.formats.audio import AudioInfo, iter_blocks, probe_audio, read_audio, sha256_file
from redactdesk.formats.conversation_json import (
    conversation_to_dict,
    read_conversation_json,
    write_conversation_json,
)
from redactdesk.formats.ctm import read_ctm, write_ctm
from redactdesk.formats.dispatch import FORMATS, detect_format, read_transcript
from redactdesk.formats.eaf import read_eaf, write_eaf
from redactdesk.formats.errors import ImportFailed, ImportProblem
from redactdesk.formats.subtitles import read_srt, read_vtt, write_srt, write_vtt
from redactdesk.formats.textgrid import read_textgrid, write_textgrid
from redactdesk.formats.timing_fill import fill_missing_times
from redactdesk.formats.transcript import TranscriptImport, turns_from_words
from redactdesk.formats.whisperx import read_whisperx

__all__ = [
    "FORMATS",
    "AudioInfo",
    "ImportFailed",
    "ImportProblem",
    "TranscriptImport",
    "conversation_to_dict",
    "detect_format",
    "fill_missing_times",
    "iter_blocks",
    "probe_audio",
    "read_audio",
    "read_conversation_json",
    "read_ctm",
    "read_eaf",
    "read_srt",
    "read_textgrid",
    "read_transcript",
    "read_vtt",
    "read_whisperx",
    "sha256_file",
    "turns_from_words",
    "write_conversation_json",
    "write_ctm",
    "write_eaf",
    "write_srt",
    "write_textgrid",
    "write_vtt",
]
