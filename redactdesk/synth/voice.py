"""Voice a synthetic conversation with espeak-ng, word by word, so every word has exact times.

Each word is synthesised on its own (``espeak-ng -v VOICE -s SPEED --stdout``, text on stdin), its
leading and trailing silence trimmed, resampled to 16 kHz and placed after a seeded pause (short
inside a turn, longer between turns). A word's start/end are the sample positions where its trimmed
clip begins and ends, so the times are exact by construction. Repeated words are synthesised once
per :class:`Voicer`.
"""

from __future__ import annotations

import copy
import io
import random
import shutil
import subprocess
from dataclasses import dataclass, field

import numpy as np
import soundfile as sf
from scipy.signal import butter, resample_poly, sosfiltfilt

from redactdesk.core.types import Conversation, Word
from redactdesk.synth.errors import SynthError

RATE = 16_000
ESPEAK_RATE = 22_050
TAIL = 0.4  # seconds of silence after the last word
LEAD = (0.25, 0.6)  # silence before the first word
WORD_GAP = (0.03, 0.09)  # pause between words of one turn
TURN_GAP = (0.3, 0.7)  # pause between turns
TRIM_THRESHOLD = 0.01  # |sample| below this counts as silence when trimming a word
FADE = 0.003  # seconds of fade at each end of a word clip
TELEPHONE_BAND = (120.0, 3800.0)  # Hz: the pass band of a phone line
PEAK = 0.9  # highest sample value a word clip may reach

# (voice, gender) choices per language and role; agents and customers never share a voice.
VOICES = {
    "en": {
        "agent": {"female": ["en-us+f2", "en-us+f4", "en+f4"], "male": ["en-us+m3", "en+m1", "en-us+m7"]},
        "customer": {"female": ["en+f3", "en-gb-x-rp+f1", "en-us+f5"],
                     "male": ["en-us+m1", "en-gb-x-rp+m2", "en+m4"]},
    },
    "es": {
        "agent": {"female": ["es+f3", "es+f2"], "male": ["es+m3", "es+m1"]},
        "customer": {"female": ["es-419+f4", "es+f5"], "male": ["es-419+m2", "es+m4"]},
    },
}
SPEED = {"agent": (200, 210, 220), "customer": (190, 200, 210)}  # words per minute (few values: more cache hits)


def espeak_binary() -> str:
    """Path of espeak-ng, or a clear error saying how to install it."""
    path = shutil.which("espeak-ng")
    if path is None:
        raise SynthError("espeak-ng not found: install it with `sudo apt-get install espeak-ng`")
    return path


def _trim(x: np.ndarray, rate: int) -> np.ndarray:
    loud = np.flatnonzero(np.abs(x) > TRIM_THRESHOLD)
    if loud.size == 0:
        return x[: max(1, int(0.05 * rate))] * 0.0
    margin = int(0.005 * rate)
    return x[max(0, loud[0] - margin) : loud[-1] + margin + 1]


@dataclass
class Voicer:
    """Synthesises single words with espeak-ng and keeps each (voice, speed, word) clip for reuse."""

    rate: int = RATE
    telephone: bool = False  # band-limit each word to a phone line's band (smaller files; harder for ASR)
    cache: dict[tuple[str, int, str], np.ndarray] = field(default_factory=dict)
    calls: int = 0  # espeak-ng runs (cache misses)

    def __post_init__(self) -> None:
        self.binary = espeak_binary()
        self._sos = butter(4, TELEPHONE_BAND, btype="band", fs=self.rate, output="sos") if self.telephone else None

    def word(self, text: str, voice: str, speed: int) -> np.ndarray:
        """The trimmed clip (float32, ``rate`` Hz) of one spoken word."""
        key = (voice, speed, text)
        clip = self.cache.get(key)
        if clip is None:
            clip = self._synth(text, voice, speed)
            self.cache[key] = clip
        return clip

    def _synth(self, text: str, voice: str, speed: int) -> np.ndarray:
        self.calls += 1
        proc = subprocess.run([self.binary, "-v", voice, "-s", str(speed), "--stdout"],
                              input=text.encode("utf-8"), capture_output=True, check=False)
        if proc.returncode != 0 or not proc.stdout:
            err = proc.stderr.decode("utf-8", "replace").strip().splitlines()
            raise SynthError(f"espeak-ng failed for voice {voice!r}: {err[-1] if err else 'no audio'}")
        x, sr = sf.read(io.BytesIO(proc.stdout), dtype="float32")
        if x.ndim > 1:
            x = x.mean(axis=1)
        x = _trim(x, sr)
        if sr != self.rate:
            g = np.gcd(sr, self.rate)
            x = resample_poly(x, self.rate // g, sr // g).astype(np.float32)
        x = _trim(x, self.rate)
        if self._sos is not None and len(x) > 64:
            x = sosfiltfilt(self._sos, x, padlen=min(len(x) - 1, 3 * 64)).astype(np.float32)
        peak = float(np.max(np.abs(x))) if len(x) else 0.0
        if peak > PEAK:
            x *= PEAK / peak
        n = min(int(FADE * self.rate), len(x) // 2)
        if n:
            ramp = np.linspace(0.0, 1.0, n, dtype=np.float32)
            x[:n] *= ramp
            x[-n:] *= ramp[::-1]
        return x


def choose_voices(conv: Conversation, seed: int) -> dict[str, dict]:
    """Voice and speed per speaker, drawn from the seed and the speakers' genders in meta."""
    rng = random.Random(f"redactdesk-synth-voices:{conv.language}:{seed}")
    table = VOICES.get(conv.language)
    if table is None:
        raise SynthError(f"no espeak-ng voices configured for language {conv.language!r}")
    speakers = conv.meta.get("speakers", {})
    out = {}
    for role in ("agent", "customer"):
        gender = speakers.get(role, {}).get("gender") or rng.choice(("female", "male"))
        out[role] = {"voice": rng.choice(table[role][gender]), "speed": rng.choice(SPEED[role])}
    return out


def synthesize(conv: Conversation, *, voicer: Voicer | None = None, seed: int | None = None,
               voices: dict[str, dict] | None = None, speed_scale: float = 1.0) -> tuple[Conversation, np.ndarray]:
    """Voice ``conv``; return a copy with exact word times and the 16 kHz mono int16 samples.

    ``voices`` maps speaker -> {"voice", "speed"} (default: drawn by :func:`choose_voices`);
    ``speed_scale`` multiplies every speed (used to bring a call into a target length).
    """
    if not conv.words:
        raise SynthError(f"conversation {conv.id!r} has no words to voice")
    voicer = voicer or Voicer()
    seed = int(conv.meta.get("seed", 0) if seed is None else seed)
    if hasattr(voicer, "voice_conversation"):  # a whole-turn voicer (redactdesk.synth.neural)
        return voicer.voice_conversation(conv, seed, speed_scale)
    voices = voices or choose_voices(conv, seed)
    rng = random.Random(f"redactdesk-synth-pauses:{conv.language}:{seed}")
    rate = voicer.rate

    clips: list[np.ndarray] = []
    offsets: list[int] = []
    pos = int(rng.uniform(*LEAD) * rate)
    prev_speaker: str | None = None
    for i, w in enumerate(conv.words):
        spk = w.speaker or "agent"
        v = voices.get(spk) or voices["customer" if spk != "agent" else "agent"]
        clip = voicer.word(w.text, v["voice"], max(80, min(450, round(v["speed"] * speed_scale))))
        if i:
            gap = TURN_GAP if spk != prev_speaker else WORD_GAP
            pos += int(rng.uniform(*gap) * rate)
        offsets.append(pos)
        clips.append(clip)
        pos += len(clip)
        prev_speaker = spk
    total = pos + int(TAIL * rate)

    audio = np.zeros(total, dtype=np.int16)
    words: list[Word] = []
    for w, off, clip in zip(conv.words, offsets, clips, strict=True):
        audio[off : off + len(clip)] = np.clip(np.round(clip * 32767), -32768, 32767).astype(np.int16)
        words.append(Word(text=w.text, start=off / rate, end=(off + len(clip)) / rate,
                          confidence=w.confidence, speaker=w.speaker, channel=w.channel, aligned=True))

    out = copy.deepcopy(conv)
    out.words = words
    out.sample_rate = rate
    out.channels = 1
    out.duration = total / rate
    out.meta = {**conv.meta, "times": "exact: espeak-ng word by word",
                "voices": {k: {**v, "speed": round(v["speed"] * speed_scale)} for k, v in voices.items()},
                "tts": "espeak-ng"}
    return out, audio
