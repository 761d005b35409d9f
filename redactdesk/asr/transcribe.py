"""The one entry point the CLI and the app call: audio file in, words with times and turns out.

``transcribe_file`` streams the file in chunks (memory stays flat for 2-hour calls), resamples to
16 kHz, transcribes each channel of a stereo call separately, repairs timings, splits numeric tokens,
optionally refines word boundaries by forced alignment, and builds turns. Silence, music, clipping
and low sample rates come back as readable warnings/notes; unreadable files and missing models raise
:class:`~redactdesk.asr.base.AsrError`. ``transcribe_to_json`` writes the words file atomically.
"""

from __future__ import annotations

import json
import logging
import math
import os
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import soundfile as sf

from redactdesk.asr.backends import get_backend
from redactdesk.asr.base import AsrError, BackendOutput, check_cancel
from redactdesk.asr.chunks import ChunkPlan, transcribe_chunked
from redactdesk.asr.gapfill import fill_gaps
from redactdesk.asr.guard import GuardReport, ensure_durations
from redactdesk.asr.resample import WORK_RATE, to_work_rate
from redactdesk.asr.speakers import (
    DEFAULT_CHANNEL_SPEAKERS,
    DEFAULT_PAUSE,
    assign_mono_speakers,
    build_turns,
    merge_channels,
    merge_order,
)
from redactdesk.asr.timing import prepare_words
from redactdesk.asr.vad import Region, speech_regions
from redactdesk.core.progress import CancelFn, FractionFn, part
from redactdesk.core.types import Conversation, ConversationStatus, Turn, Word

log = logging.getLogger(__name__)

SILENCE_RMS = 10 ** (-60 / 20)  # below -60 dBFS RMS and ...
SILENCE_PEAK = 10 ** (-40 / 20)  # ... peaks under -40 dBFS: nothing to hear
CLIP_LEVEL = 0.999
CLIP_SHARE = 0.001  # more than 0.1 % of samples at full scale: clipped
SAME_CHANNELS = 0.995  # correlation above which two channels are one signal (mono saved as stereo)
_SCAN_BLOCK = 1 << 18


@dataclass
class AudioScan:
    """Facts and levels of an audio file, measured in one streaming pass."""

    path: Path
    sample_rate: int
    channels: int
    frames: int
    format: str
    peak: list[float]
    rms: list[float]
    clipped: list[float]  # share of samples at full scale, per channel
    correlation: float | None  # between channel 0 and 1 (stereo only)

    @property
    def duration(self) -> float:
        return self.frames / self.sample_rate

    def silent(self, channel: int | None = None) -> bool:
        chans = range(self.channels) if channel is None else [channel]
        return all(self.rms[c] < SILENCE_RMS and self.peak[c] < SILENCE_PEAK for c in chans)


@dataclass
class TranscriptionResult:
    """Words (times in seconds from the start of the file) and turns of one recording, plus facts."""

    words: list[Word]
    turns: list[Turn]
    language: str | None
    backend: str
    model: str
    seconds: float  # wall-clock processing time
    rtf: float  # seconds / duration
    duration: float = 0.0
    sample_rate: int = 0
    channels: int = 0
    warnings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    timed: int = 0  # words that got estimated times from timing repair
    split_tokens: int = 0  # numeric tokens split into spoken units
    alignment: dict[str, Any] | None = None  # forced-alignment summary when refine=True
    speech: dict[int | None, list[tuple[float, float]]] = field(default_factory=dict)  # VAD regions per channel
    chunks: int = 0  # pieces the audio was recognised in (all channels)
    refilled: int = 0  # skipped stretches of speech recognised again by the second pass
    dropped: int = 0  # invented words dropped: zero-length repeats, words after the end of the audio
    flagged: int = 0  # words without a duration kept with estimated times, aligned=False, for review

    def to_conversation(self, conversation_id: str, audio_path: str | None = None) -> Conversation:
        """A :class:`Conversation` holding these words and turns (status TRANSCRIBED)."""
        return Conversation(
            id=conversation_id,
            audio_path=audio_path,
            sample_rate=self.sample_rate or None,
            channels=self.channels or None,
            duration=self.duration or None,
            language=self.language or "en",
            status=ConversationStatus.TRANSCRIBED,
            words=list(self.words),
            turns=list(self.turns),
            meta={"asr": self.summary()},
        )

    def summary(self) -> dict[str, Any]:
        """Counts and settings, safe to log (no word texts)."""
        return {
            "backend": self.backend,
            "model": self.model,
            "language": self.language,
            "words": len(self.words),
            "turns": len(self.turns),
            "seconds": round(self.seconds, 2),
            "rtf": round(self.rtf, 3),
            "timed": self.timed,
            "split_tokens": self.split_tokens,
            "chunks": self.chunks,
            "refilled": self.refilled,
            "dropped": self.dropped,
            "flagged": self.flagged,
            "warnings": list(self.warnings),
            "notes": list(self.notes),
            "alignment": self.alignment,
        }

    def words_json(self) -> dict[str, Any]:
        """The ``redactdesk transcribe --out`` contract: ``{"words": [{text, start, end, speaker, aligned}]}``."""
        return {
            "words": [
                {"text": w.text, "start": w.start, "end": w.end, "speaker": w.speaker, "aligned": w.aligned}
                for w in self.words
            ],
            "language": self.language,
            "backend": self.backend,
            "model": self.model,
        }


def scan_audio(path: str | os.PathLike[str]) -> AudioScan:
    """Open an audio file and measure its levels in one streaming pass (constant memory)."""
    p = Path(path)
    if not p.is_file():
        raise AsrError(f"audio file not found: {p}")
    try:
        with sf.SoundFile(p) as f:
            rate, chans, fmt = f.samplerate, f.channels, f.format
            peak = np.zeros(chans)
            sq = np.zeros(chans)
            clipped = np.zeros(chans)
            xy = xx = yy = 0.0
            n = 0
            for block in f.blocks(blocksize=_SCAN_BLOCK, dtype="float32", always_2d=True):
                a = np.abs(block)
                peak = np.maximum(peak, a.max(axis=0, initial=0.0))
                sq += np.square(block, dtype=np.float64).sum(axis=0)
                clipped += (a >= CLIP_LEVEL).sum(axis=0)
                if chans >= 2:
                    x, y = block[:, 0].astype(np.float64), block[:, 1].astype(np.float64)
                    xy += float(x @ y)
                    xx += float(x @ x)
                    yy += float(y @ y)
                n += len(block)
    except sf.LibsndfileError as exc:
        raise AsrError(
            f"cannot read {p.name}: unsupported or damaged audio file ({exc}); "
            "supported formats are WAV, FLAC, OGG and MP3"
        ) from exc
    except RuntimeError as exc:
        raise AsrError(f"cannot read {p.name}: {exc}") from exc
    if n == 0:
        raise AsrError(f"{p.name} holds no audio samples")
    corr = xy / math.sqrt(xx * yy) if chans >= 2 and xx > 0 and yy > 0 else None
    return AudioScan(
        path=p,
        sample_rate=rate,
        channels=chans,
        frames=n,
        format=fmt,
        peak=[float(v) for v in peak],
        rms=[float(math.sqrt(v / n)) for v in sq],
        clipped=[float(v / n) for v in clipped],
        correlation=corr,
    )


class _ChannelReader:
    """Reads [a, b) samples of one channel (or the mix) at 16 kHz from an open file, on demand."""

    def __init__(self, f: sf.SoundFile, channel: int | None) -> None:
        self.f = f
        self.channel = channel
        self.ratio = f.samplerate / WORK_RATE
        self.total = int(f.frames / self.ratio)
        self.frames = self.total  # length at 16 kHz, for redactdesk.asr.align.AudioReader

    def __call__(self, a: int, b: int) -> np.ndarray:
        b = min(b, self.total)
        src_a = int(a * self.ratio)
        src_b = min(self.f.frames, int(math.ceil(b * self.ratio)) + 1)
        self.f.seek(src_a)
        block = self.f.read(src_b - src_a, dtype="float32", always_2d=True)
        mono = block[:, self.channel] if self.channel is not None else block.mean(axis=1, dtype=np.float32)
        out = to_work_rate(mono, self.f.samplerate)
        want = b - a
        if len(out) < want:
            out = np.pad(out, (0, want - len(out)))
        return np.ascontiguousarray(out[:want], dtype=np.float32)


def transcribe_file(
    audio_path: str | os.PathLike[str],
    *,
    backend: str = "faster-whisper",
    model: str | os.PathLike[str] = "tiny.en",
    language: str | None = "en",
    channel_speakers: Sequence[str] = DEFAULT_CHANNEL_SPEAKERS,
    pause: float = DEFAULT_PAUSE,
    refine: bool = True,
    progress: FractionFn | None = None,
    cancel: CancelFn | None = None,
    chunk_plan: ChunkPlan | None = None,
    backend_options: dict[str, Any] | None = None,
    second_pass: bool = True,
    diarize: bool = False,
    num_speakers: int | None = None,
) -> TranscriptionResult:
    """Transcribe one audio file (see the module docstring).

    ``language``: ``"en"``, ``"es"`` or ``None`` to detect. ``refine`` (default on) re-times every
    word by forced alignment with pocketsphinx, in pieces cut at silences: on the demo calls it took
    the median word-boundary error from ~120 ms to ~33 ms for about 15 % more time.
    ``progress(fraction)`` is called often (0..1, never decreasing); ``cancel()`` returning True
    stops the work with :class:`~redactdesk.asr.base.AsrCancelled`. ``pause``: silences longer
    than this (s) split a speaker's turn. ``channel_speakers`` names stereo channels 0, 1, ...
    ``backend_options`` go to the backend (faster-whisper: threads, beam_size, prompt, ...).
    ``second_pass`` (default on, backends that recognise pieces of audio) recognises again, on its
    own, any stretch of speech the first pass left without words (:mod:`redactdesk.asr.gapfill`).
    ``diarize``: on a mono recording whose backend gave no speaker labels, find the speakers with
    :mod:`redactdesk.asr.diarize` (``num_speakers`` if known, else chosen by the diarizer); a missing
    diarizer is said in the notes and the recording keeps one speaker. Stereo calls need none.
    """
    t0 = time.perf_counter()
    scan = scan_audio(audio_path)
    options = dict(backend_options or {})
    if chunk_plan is not None:
        options.setdefault("chunk_plan", chunk_plan)
    engine = get_backend(backend, model=model, **options)
    ok, reason = engine.available()
    if not ok:
        raise AsrError(reason)
    check_language = getattr(engine, "check_language", None)
    if check_language is not None:
        language = check_language(language)

    warnings: list[str] = []
    notes: list[str] = []
    if scan.sample_rate != WORK_RATE:
        band = " (telephone band)" if scan.sample_rate <= 8000 else ""
        notes.append(f"audio at {scan.sample_rate} Hz{band} was resampled to {WORK_RATE} Hz for recognition")
    for c, share in enumerate(scan.clipped):
        if share > CLIP_SHARE:
            where = f"channel {c}" if scan.channels > 1 else "the recording"
            warnings.append(f"{share:.1%} of the samples in {where} are clipped; recognition may be poorer")

    channels = _channels_to_transcribe(scan, notes)
    if scan.silent():
        warnings.append("the recording is silent: there is no speech to transcribe")
        channels = []

    report = _progress_scaler(progress, 0.9 if refine else 1.0)
    run_chunk = getattr(engine, "run_chunk", None)  # backends that recognise pieces get a second pass
    per_channel: list[list[Word]] = []
    speech: dict[int | None, list[Region]] = {}
    detected = language
    timed = split = chunks = refilled = 0
    guard = GuardReport()
    flagged: list[set[int]] = []  # per channel list: indices of words kept without a duration
    with sf.SoundFile(scan.path) as f:
        for k, channel in enumerate(channels):
            check_cancel(cancel)
            reader = _ChannelReader(f, channel)

            out = _run(engine, reader, detected, part(report, k, 1, total=max(1, len(channels))), cancel, chunk_plan)
            speech[channel] = speech_regions(reader, reader.total)
            chunks += int(out.info.get("chunks", 1))  # type: ignore[call-overload]
            guard.invented += int(out.info.get("invented_words", 0))  # type: ignore[call-overload]
            detected = detected or out.language
            raw = out.words
            if second_pass and run_chunk is not None:
                raw, gaps = fill_gaps(lambda audio, lang: run_chunk(audio, lang, None, cancel), reader,
                                      reader.total, WORK_RATE, raw, speech[channel], language=detected,
                                      cancel=cancel)
                refilled += len(gaps)
            words, rep = prepare_words(raw, language=detected, duration=reader.total / WORK_RATE)
            timed += rep.timed
            split += rep.split_tokens
            guard.repeats += rep.guard.repeats
            guard.beyond_end += rep.guard.beyond_end
            guard.widened += rep.guard.widened
            flagged.append(set(rep.guard.widened_words))
            per_channel.append(words)

    stereo = scan.channels > 1 and channels and all(c is not None for c in channels)
    if stereo:
        numbers = [int(c) for c in channels]
        words = merge_channels(per_channel, channel_speakers, channels=numbers)
        review = {i for i, (c, k) in enumerate(merge_order(per_channel, numbers)) if k in flagged[c]}
    else:
        words = per_channel[0] if per_channel else []
        if diarize and words and not any(w.speaker for w in words):
            words = _diarize(scan, words, num_speakers, notes, cancel)
        words = assign_mono_speakers(words)
        review = flagged[0] if flagged else set()
    if not stereo and speech:  # words of a mono result carry channel None
        speech = {None: next(iter(speech.values()))}
    turns = build_turns(words, pause=pause, speech=speech)

    alignment = None
    if refine and words:
        words, alignment = _refine(scan, words, turns, speech, detected or "en", progress, cancel)
        for i in review:  # measured now, but the recogniser could not place them: still for review
            words[i].aligned = False
        words = ensure_durations(words, duration=scan.duration)  # no empty range, whatever the aligner did
    more_warnings, more_notes = guard.messages()
    warnings += more_warnings
    notes += more_notes

    if channels and not words:
        warnings.append(
            "no speech was recognised: the recording may hold only music, tones or noise, "
            "or speech in another language"
        )
    if progress is not None:
        progress(1.0)
    seconds = time.perf_counter() - t0
    result = TranscriptionResult(
        words=words,
        turns=turns,
        language=detected,
        backend=backend,
        model=os.fspath(model),
        seconds=seconds,
        rtf=seconds / max(scan.duration, 1e-9),
        duration=scan.duration,
        sample_rate=scan.sample_rate,
        channels=scan.channels,
        warnings=warnings,
        notes=notes,
        timed=timed,
        split_tokens=split,
        alignment=alignment,
        speech=speech,
        chunks=chunks,
        refilled=refilled,
        dropped=guard.dropped,
        flagged=guard.widened,
    )
    log.info("transcribed %s: %s", scan.path.name, {k: v for k, v in result.summary().items() if k != "notes"})
    return result


def _diarize(scan: AudioScan, words: list[Word], num_speakers: int | None, notes: list[str],
             cancel: CancelFn | None) -> list[Word]:
    """Speaker labels for a mono recording's words (:mod:`redactdesk.asr.diarize`), or the words
    unchanged with a note saying why there are none."""
    from redactdesk.asr.diarize import diarize_words, diarizer_available

    ok, reason = diarizer_available()
    if not ok:
        notes.append(reason)
        return words
    with sf.SoundFile(scan.path) as f:
        labelled, rep = diarize_words(_ChannelReader(f, None), words, num_speakers=num_speakers, cancel=cancel)
    notes.append(rep.note())
    return labelled


def _channels_to_transcribe(scan: AudioScan, notes: list[str]) -> list[int | None]:
    """``[None]`` for mono (or a mix), else the channel numbers worth transcribing on their own."""
    if scan.channels == 1:
        return [None]
    if scan.correlation is not None and scan.correlation > SAME_CHANNELS:
        notes.append("both channels carry the same signal: transcribed as mono")
        return [None]
    live = [c for c in range(scan.channels) if not scan.silent(c)]
    silent = [c for c in range(scan.channels) if c not in live]
    if silent and live:
        notes.append(f"channel(s) {', '.join(map(str, silent))} are silent and were skipped")
    return live or [None]


def _run(
    engine: Any,
    reader: _ChannelReader,
    language: str | None,
    progress: FractionFn,
    cancel: CancelFn | None,
    plan: ChunkPlan | None,
) -> BackendOutput:
    run_chunk = getattr(engine, "run_chunk", None)
    if run_chunk is not None:  # stream the file chunk by chunk
        return transcribe_chunked(
            run_chunk,
            reader,
            reader.total,
            WORK_RATE,
            language=language,
            plan=plan or getattr(engine, "chunk_plan", None) or ChunkPlan(),
            progress=progress,
            cancel=cancel,
        )
    return engine.transcribe(reader(0, reader.total), WORK_RATE, language=language, progress=progress, cancel=cancel)


def _refine(
    scan: AudioScan,
    words: list[Word],
    turns: list[Turn],
    speech: dict[int | None, list[Region]],
    language: str,
    progress: FractionFn | None,
    cancel: CancelFn | None,
) -> tuple[list[Word], dict[str, Any]]:
    from redactdesk.asr.align import refine_alignment

    with sf.SoundFile(scan.path) as f:
        # Turn by turn from the file: a 2-hour call is never held in memory at once.
        channels = sorted({t.channel for t in turns if t.channel is not None})
        by_channel = {c: _ChannelReader(f, c) for c in channels} or None
        mono = by_channel[channels[0]] if by_channel else _ChannelReader(f, None)
        new, report = refine_alignment(
            mono, WORK_RATE, words, turns, language=language, channel_audio=by_channel, speech=speech,
            progress=part(progress, 0.9, 0.1), cancel=cancel,
        )
    return new, report.summary()


def _progress_scaler(progress: FractionFn | None, scale: float) -> FractionFn:
    last = [-1.0]

    def report(frac: float) -> None:
        value = min(1.0, max(0.0, frac)) * scale
        if progress is not None and value >= last[0]:
            last[0] = value
            progress(value)

    return report


def write_json_atomic(data: Any, out: str | os.PathLike[str]) -> Path:
    """Write JSON to ``out`` via a temporary file in the same folder and an atomic rename."""
    target = Path(out)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(data, fh, ensure_ascii=False, indent=1)
            fh.write("\n")
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return target


def transcribe_to_json(
    audio: str | os.PathLike[str],
    out: str | os.PathLike[str],
    *,
    model: str | os.PathLike[str] = "tiny.en",
    backend: str = "faster-whisper",
    language: str | None = "en",
    refine: bool = True,
    progress: FractionFn | None = None,
    cancel: CancelFn | None = None,
    speakers: int = 2,
) -> TranscriptionResult:
    """``redactdesk transcribe --audio FILE --out WORDS.json``: transcribe and write the words file.

    ``speakers`` > 0: a mono recording is diarized into that many speakers (0: one speaker).
    Nothing is written if transcription fails or is cancelled.
    """
    result = transcribe_file(
        audio, backend=backend, model=model, language=language, refine=refine, progress=progress, cancel=cancel,
        diarize=speakers > 0, num_speakers=speakers or None,
    )
    write_json_atomic(result.words_json(), out)
    return result
