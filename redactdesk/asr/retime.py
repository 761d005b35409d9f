"""Re-time words of an existing transcript against its audio file (after edits, or to refine all).

These read only the audio they need, resampled to 16 kHz, so the app can call them on a
background thread for one edited turn without loading the whole recording.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

import soundfile as sf

from redactdesk.asr.align import AlignmentReport, align_turn, refine_alignment
from redactdesk.asr.base import AsrError
from redactdesk.asr.resample import WORK_RATE
from redactdesk.asr.transcribe import _ChannelReader, scan_audio
from redactdesk.asr.vad import speech_regions
from redactdesk.core.progress import CancelFn, FractionFn
from redactdesk.core.types import Turn, Word


def retime_words(
    audio_path: str | os.PathLike[str],
    words: Sequence[Word],
    start_word: int,
    end_word: int,
    *,
    language: str = "en",
) -> tuple[list[Word], AlignmentReport]:
    """Forced-align words ``[start_word, end_word)`` (e.g. an edited turn) in the audio file.

    The words' channel picks the audio channel (None: the mix of all channels). Returns the whole
    word list with those words re-timed, and how far their boundaries moved. Raises
    :class:`~redactdesk.asr.base.AlignmentError` when the words cannot be placed in that audio.
    """
    if not 0 <= start_word < end_word <= len(words):
        raise AsrError(f"word range [{start_word}, {end_word}) is outside the {len(words)} words")
    channel = words[start_word].channel
    scan = scan_audio(audio_path)
    if channel is not None and not 0 <= channel < scan.channels:
        raise AsrError(f"the words are on channel {channel}, but {scan.path.name} has {scan.channels} channel(s)")
    with sf.SoundFile(scan.path) as f:
        return align_turn(_ChannelReader(f, channel), WORK_RATE, words, start_word, end_word, language=language)


def refine_file(
    audio_path: str | os.PathLike[str],
    words: Sequence[Word],
    turns: Sequence[Turn],
    *,
    language: str = "en",
    progress: FractionFn | None = None,
    cancel: CancelFn | None = None,
) -> tuple[list[Word], AlignmentReport]:
    """Refine the boundaries of every word of a transcript by forced alignment, piece by piece."""
    scan = scan_audio(audio_path)
    with sf.SoundFile(scan.path) as f:
        channels = sorted({t.channel for t in turns if t.channel is not None})
        readers = {c: _ChannelReader(f, c) for c in channels if 0 <= c < scan.channels}
        mix = _ChannelReader(f, None)
        speech = {c: speech_regions(r, r.total) for c, r in readers.items()}
        if any(t.channel is None for t in turns):
            speech[None] = speech_regions(mix, mix.total)
        return refine_alignment(
            mix, WORK_RATE, words, turns, language=language, channel_audio=readers or None, speech=speech,
            progress=progress, cancel=cancel,
        )
