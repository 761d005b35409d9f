"""Write synthetic calls to disk: FLAC + conversation JSON per call, an index, and long calls.

File layout per call: ``<id>.flac`` (16 kHz, mono, or stereo with agent and customer on channels 0
and 1: :mod:`redactdesk.synth.stereo`) and ``<id>.json`` (the project's conversation JSON,
``"audio"`` relative to the JSON). Every file is written to a temporary name and renamed, so a crash
never leaves a half-written call behind.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import numpy as np
import soundfile as sf
from tqdm import tqdm

from redactdesk.core.types import Conversation, Span, Turn, Word
from redactdesk.formats.files import atomic_path, sha256_file
from redactdesk.synth.errors import SynthError
from redactdesk.synth.script import DEMO_SEED, GENERATOR_VERSION, generate_call
from redactdesk.synth.stereo import to_stereo
from redactdesk.synth.voice import RATE, Voicer, synthesize

FORMAT = "redactdesk-conversation"
INDEX_FORMAT = "redactdesk-synth-index"
DEMO_DURATION = (45.0, 120.0)  # seconds: every demo call must fit
DEFAULT_BITS = 10  # sample precision kept in the FLAC (low bits zeroed; FLAC stores them for free)
_SPEED_STEPS = (1.0, 1.15, 1.3, 0.85, 0.7)  # speed scales tried to bring a call into DEMO_DURATION


def conversation_to_json(conv: Conversation, audio_name: str | None) -> dict[str, Any]:
    """The project's conversation JSON (see BRIEF_COMMON / docs) for ``conv``."""
    out: dict[str, Any] = {"format": FORMAT, "version": 1, "id": conv.id, "language": conv.language}
    if audio_name:
        out["audio"] = audio_name
    out.update({
        "duration": conv.duration, "sample_rate": conv.sample_rate, "channels": conv.channels,
        "words": [w.to_dict() for w in conv.words],
        "turns": [t.to_dict() for t in conv.turns],
        "spans": [s.to_dict() for s in conv.spans],
        "meta": conv.meta,
    })
    return out


def read_call(json_path: str | Path) -> Conversation:
    """Load a call written by this module (a minimal reader for tests and benchmarks)."""
    p = Path(json_path)
    try:
        d = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise SynthError(f"{p}: cannot read conversation JSON ({exc})") from exc
    if d.get("format") != FORMAT:
        raise SynthError(f"{p}: not a redactdesk conversation (format {d.get('format')!r})")
    audio = d.get("audio")
    return Conversation(
        id=d["id"], language=d.get("language", "en"), duration=d.get("duration"),
        sample_rate=d.get("sample_rate"), channels=d.get("channels"),
        audio_path=str((p.parent / audio).resolve()) if audio else None,
        audio_sha256=(d.get("meta") or {}).get("audio_sha256"),
        words=[Word.from_dict(w) for w in d["words"]], turns=[Turn.from_dict(t) for t in d["turns"]],
        spans=[Span.from_dict(s) for s in d["spans"]], meta=d.get("meta") or {},
    )


def _quantize(audio: np.ndarray, bits: int) -> np.ndarray:
    if not 8 <= bits <= 16:
        raise SynthError(f"bits must be between 8 and 16, got {bits}")
    if bits == 16:
        return audio
    q = 1 << (16 - bits)
    return (np.clip(np.round(audio.astype(np.int32) / q) * q, -32768, 32767 - q + 1)).astype(np.int16)


def _write_json(conv: Conversation, audio_name: str | None, json_path: Path) -> None:
    with atomic_path(json_path) as tmp:
        tmp.write_text(json.dumps(conversation_to_json(conv, audio_name), ensure_ascii=False, indent=1) + "\n",
                       encoding="utf-8")


def write_call(conv: Conversation, audio: np.ndarray | None, out_dir: str | Path, *,
               bits: int = DEFAULT_BITS) -> Path:
    """Write ``<id>.flac`` (if ``audio``) and ``<id>.json`` into ``out_dir``; return the JSON path."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    audio_name = None
    if audio is not None:
        if len(audio) != round(conv.duration * RATE):
            raise SynthError(f"{conv.id}: audio has {len(audio)} samples but duration says {conv.duration} s")
        audio_name = f"{conv.id}.flac"
        flac = out / audio_name
        with atomic_path(flac) as tmp:
            sf.write(tmp, _quantize(audio, bits), RATE, format="FLAC", subtype="PCM_16")
        conv.audio_path = str(flac.resolve())
        conv.audio_sha256 = sha256_file(flac)
        conv.meta = {**conv.meta, "audio_sha256": conv.audio_sha256, "audio_bits": bits}
    json_path = out / f"{conv.id}.json"
    _write_json(conv, audio_name, json_path)
    return json_path


def make_voicer(tts: str = "espeak", *, telephone: bool = False) -> Voicer:
    """The voicer for ``tts``: espeak-ng word by word, or the neural voices (English, Spanish) a turn at a time."""
    if tts != "neural":
        return Voicer(telephone=telephone)
    if telephone:
        raise SynthError("--telephone is an espeak-ng option; the neural voices keep the full band")
    from redactdesk.synth.neural import NeuralVoicer

    voicer = NeuralVoicer()  # loads the voices first: a missing package is the error to report
    voicer.fallback = Voicer()
    return voicer  # type: ignore[return-value]


def voice_call(seed: int, language: str, voicer: Voicer, *, duration: tuple[float, float] | None = DEMO_DURATION,
               variation: dict | None = None) -> tuple[Conversation, np.ndarray]:
    """Generate and voice one call; if ``duration`` is given, adjust the speaking speed to fit it."""
    conv = generate_call(seed, language, variation=variation)
    voiced, audio = synthesize(conv, voicer=voicer)
    if duration is None:
        return voiced, audio
    for scale in _SPEED_STEPS:
        if scale != 1.0:
            voiced, audio = synthesize(conv, voicer=voicer, speed_scale=scale)
        if duration[0] <= voiced.duration <= duration[1]:
            return voiced, audio
    raise SynthError(f"call {conv.id} lasts {voiced.duration:.1f} s, outside {duration} at every speed")


def concat_calls(parts: list[Conversation], conv_id: str, offsets: list[float]) -> Conversation:
    """Join voiced calls into one conversation; part k's times are shifted by ``offsets[k]`` seconds."""
    words: list[Word] = []
    turns: list[Turn] = []
    spans: list[Span] = []
    part_meta = []
    for k, (part, off) in enumerate(zip(parts, offsets, strict=True)):
        base = len(words)
        for w in part.words:
            words.append(Word(w.text, w.start + off, w.end + off, w.confidence, w.speaker, w.channel, w.aligned))
        for t in part.turns:
            if turns and turns[-1].speaker == t.speaker and turns[-1].end_word == base + t.start_word:
                turns[-1].end_word = base + t.end_word
            else:
                turns.append(Turn(t.speaker, base + t.start_word, base + t.end_word, t.channel))
        for s in part.spans:
            spans.append(Span(base + s.start_word, base + s.end_word, s.category, s.status, s.score, s.sources,
                              s.reason, f"{k}:{s.entity}" if s.entity else None))
        part_meta.append({"seed": part.meta.get("seed"), "scenario": part.meta.get("scenario"),
                          "voices": part.meta.get("voices"), "start_word": base, "end_word": len(words),
                          "start": off, "span_values": part.meta.get("span_values")})
    lang = parts[0].language
    meta = {"synthetic": True, "generator": "redactdesk.synth", "generator_version": GENERATOR_VERSION,
            "long_call": True, "parts": part_meta, "times": "exact: espeak-ng word by word",
            "span_values": [v for p in parts for v in p.meta.get("span_values", [])],
            "speakers": {"agent": {"role": "agent"}, "customer": {"role": "customer"}}}
    return Conversation(id=conv_id, language=lang, words=words, turns=turns, spans=spans, meta=meta,
                        sample_rate=RATE, channels=1)


def make_long_call(out_dir: str | Path, seed: int, language: str = "en", minutes: float = 60.0, *,
                   voicer: Voicer | None = None, bits: int = DEFAULT_BITS, progress: bool = True) -> Path:
    """One long call (e.g. an hour) made by joining dialogues of seeds ``seed, seed+1, ...``.

    The audio streams to disk part by part, so memory stays small. Returns the JSON path.
    """
    if minutes <= 0:
        raise SynthError(f"minutes must be positive, got {minutes}")
    voicer = voicer or Voicer()
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    conv_id = f"long_{language}_{seed}_{minutes:g}min"
    flac = out / f"{conv_id}.flac"
    rng = random.Random(f"redactdesk-synth-long:{language}:{seed}")
    parts: list[Conversation] = []
    offsets: list[float] = []
    pos = 0
    target = int(minutes * 60 * RATE)
    bar = tqdm(total=round(minutes * 60), unit="s", desc=f"long call {language}", disable=not progress)
    with atomic_path(flac) as tmp, sf.SoundFile(tmp, "w", RATE, 1, subtype="PCM_16", format="FLAC") as fh:
        k = 0
        while pos < target:
            if k:
                gap = np.zeros(int(rng.uniform(1.0, 2.5) * RATE), dtype=np.int16)
                fh.write(gap)
                pos += len(gap)
            part, audio = voice_call(seed + k, language, voicer, duration=None)
            parts.append(part)
            offsets.append(pos / RATE)
            fh.write(_quantize(audio, bits))
            pos += len(audio)
            bar.update(round(pos / RATE) - bar.n)
            k += 1
    bar.close()
    conv = concat_calls(parts, conv_id, offsets)
    conv.duration = pos / RATE
    conv.audio_sha256 = sha256_file(flac)
    conv.meta.update({"seed": seed, "audio_sha256": conv.audio_sha256, "audio_bits": bits})
    json_path = out / f"{conv_id}.json"
    _write_json(conv, flac.name, json_path)
    return json_path


def make_corpus(out_dir: str | Path, count_en: int = 12, count_es: int = 4, seed: int = DEMO_SEED,
                progress: bool = True, *, long_minutes: float | None = None, bits: int = DEFAULT_BITS,
                telephone: bool = False, text_only: bool = False,
                duration: tuple[float, float] | None = DEMO_DURATION, tts: str = "espeak",
                stereo: bool = False) -> list[Path]:
    """Voice ``count_en`` English and ``count_es`` Spanish calls (seeds ``seed, seed+1, ...`` per language).

    Writes ``<id>.flac`` + ``<id>.json`` per call and ``index.json``; with ``long_minutes`` also one long
    English call. ``text_only`` writes JSON with estimated times and no audio (fast). Returns the
    JSON paths in index order. ``tts``: ``"espeak"`` (espeak-ng word by word) or ``"neural"``
    (:mod:`redactdesk.synth.neural`: Piper for English, Kokoro for Spanish; needs ``redactdesk[synth]``).
    ``stereo`` lays each call out on two channels, agent left and customer right (the demo corpus);
    the long call stays mono.
    """
    if count_en < 0 or count_es < 0 or count_en + count_es == 0 and not long_minutes:
        raise SynthError("nothing to make: give a positive --count-en, --count-es or --long-minutes")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    if tts not in ("espeak", "neural"):
        raise SynthError(f"unknown tts {tts!r}: use espeak or neural")
    voicer = None if text_only else make_voicer(tts, telephone=telephone)
    jobs = [("en", seed + i) for i in range(count_en)] + [("es", seed + i) for i in range(count_es)]
    paths: list[Path] = []
    entries: list[dict[str, Any]] = []
    for language, s in tqdm(jobs, desc="synthetic calls", unit="call", disable=not progress):
        if voicer is None:
            conv, audio = generate_call(s, language), None
        else:
            conv, audio = voice_call(s, language, voicer, duration=duration)
            if stereo:
                conv, audio = to_stereo(conv, audio, RATE)
        path = write_call(conv, audio, out, bits=bits)
        paths.append(path)
        entries.append(_index_entry(conv, path))
    if long_minutes:
        long_seed = max(seed + count_en, seed + count_es) + 10_000
        path = make_long_call(out, long_seed, "en", long_minutes, voicer=voicer or Voicer(telephone=telephone),
                              bits=bits, progress=progress)
        paths.append(path)
        entries.append(_index_entry(read_call(path), path))
    index = {
        "format": INDEX_FORMAT, "version": 1, "generator_version": GENERATOR_VERSION, "seed": seed,
        "count_en": count_en, "count_es": count_es, "long_minutes": long_minutes, "bits": bits,
        "telephone_band": telephone, "sample_rate": RATE, "stereo": stereo and not text_only,
        "tts": None if text_only else tts, "text_only": text_only,
        "total_duration": round(sum(e["duration"] or 0 for e in entries), 3),
        "total_bytes": sum(e["bytes"] for e in entries),
        "calls": entries,
    }
    with atomic_path(out / "index.json") as tmp:
        tmp.write_text(json.dumps(index, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return paths


def _index_entry(conv: Conversation, json_path: Path) -> dict[str, Any]:
    audio = json_path.with_suffix(".flac")
    has_audio = conv.sample_rate is not None and audio.exists()
    size = json_path.stat().st_size + (audio.stat().st_size if has_audio else 0)
    return {
        "id": conv.id, "language": conv.language, "json": json_path.name,
        "audio": audio.name if has_audio else None, "seed": conv.meta.get("seed"),
        "scenario": conv.meta.get("scenario"), "duration": conv.duration, "words": len(conv.words),
        "spans": len(conv.spans), "categories": sorted({s.category for s in conv.spans}), "bytes": size,
    }
