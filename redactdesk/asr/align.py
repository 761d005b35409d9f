"""Forced alignment with pocketsphinx 5: re-time known words against the audio.

Used after a reviewer edits a turn's words, and optionally to refine every word boundary Whisper gave.
Each word becomes a small grammar of its pronounceable forms (``"4111"`` may be read "four one one
one" or "four thousand one hundred eleven"; ``"0"`` "zero" or "oh"); a JSGF grammar of the turn is
decoded with pocketsphinx's FSG search, and the recognised path is mapped back to the words.
Words missing from the CMU dictionary get a rough letter-to-sound pronunciation; their new times
are marked ``aligned=False``. Spanish words are all pronounced by Spanish letter-to-sound rules on
the English acoustic model (approximate). Pocketsphinx needs 16 kHz 16-bit audio; input is resampled.
"""

from __future__ import annotations

import dataclasses
import math
import re
import threading
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Protocol

import numpy as np
from num2words import num2words

from redactdesk.asr.base import AlignmentError, check_cancel
from redactdesk.asr.guard import ensure_durations
from redactdesk.asr.resample import WORK_RATE, to_work_rate
from redactdesk.asr.vad import Region, assign_regions
from redactdesk.core.progress import CancelFn, FractionFn
from redactdesk.core.types import Turn, Word

MAX_VARIANTS = 32
_DECODER_LOCK = threading.Lock()
_FILLER = re.compile(r"^(<.*>|\[.*\]|\+\+.*\+\+)$")


@dataclass
class AlignmentReport:
    """How far boundaries moved (ms) over words that had times before, and what could not be aligned."""

    words: int = 0
    moved: list[float] = field(default_factory=list, repr=False)
    oov: int = 0
    failed_turns: int = 0
    messages: list[str] = field(default_factory=list)

    @property
    def mean_ms(self) -> float:
        return float(np.mean(self.moved)) if self.moved else 0.0

    @property
    def median_ms(self) -> float:
        return float(np.median(self.moved)) if self.moved else 0.0

    @property
    def max_ms(self) -> float:
        return float(np.max(self.moved)) if self.moved else 0.0

    def merge(self, other: AlignmentReport) -> None:
        self.words += other.words
        self.moved.extend(other.moved)
        self.oov += other.oov
        self.failed_turns += other.failed_turns
        self.messages.extend(other.messages)

    def summary(self) -> dict[str, float | int]:
        return {
            "words": self.words,
            "mean_ms": round(self.mean_ms, 1),
            "median_ms": round(self.median_ms, 1),
            "max_ms": round(self.max_ms, 1),
            "oov": self.oov,
            "failed_turns": self.failed_turns,
        }


# --------------------------------------------------------------------------- pronunciations

_EN_RULES = [
    ("tch", "CH"), ("sch", "S K"), ("ch", "CH"), ("sh", "SH"), ("th", "TH"), ("ph", "F"), ("gh", "G"),
    ("ck", "K"), ("ng", "NG"), ("qu", "K W"), ("wh", "W"), ("ee", "IY"), ("ea", "IY"), ("oo", "UW"),
    ("ou", "AW"), ("ow", "OW"), ("ai", "EY"), ("ay", "EY"), ("oi", "OY"), ("oy", "OY"), ("au", "AO"),
    ("aw", "AO"), ("ie", "IY"), ("ey", "EY"), ("ei", "EY"), ("ue", "UW"), ("er", "ER"), ("ir", "ER"),
    ("ur", "ER"), ("ar", "AA R"), ("or", "AO R"), ("a", "AE"), ("b", "B"), ("c", "K"), ("d", "D"),
    ("e", "EH"), ("f", "F"), ("g", "G"), ("h", "HH"), ("i", "IH"), ("j", "JH"), ("k", "K"), ("l", "L"),
    ("m", "M"), ("n", "N"), ("o", "OW"), ("p", "P"), ("q", "K"), ("r", "R"), ("s", "S"), ("t", "T"),
    ("u", "AH"), ("v", "V"), ("w", "W"), ("x", "K S"), ("y", "IY"), ("z", "Z"),
]
_ES_RULES = [
    ("ch", "CH"), ("ll", "Y"), ("rr", "R"), ("qu", "K"), ("gue", "G EY"), ("gui", "G IY"), ("güe", "G W EY"),
    ("güi", "G W IY"), ("ce", "S EY"), ("ci", "S IY"), ("ge", "HH EY"), ("gi", "HH IY"), ("ñ", "N Y"),
    ("a", "AA"), ("e", "EY"), ("i", "IY"), ("o", "OW"), ("u", "UW"), ("ü", "W"), ("b", "B"), ("v", "B"),
    ("c", "K"), ("d", "D"), ("f", "F"), ("g", "G"), ("h", ""), ("j", "HH"), ("k", "K"), ("l", "L"),
    ("m", "M"), ("n", "N"), ("p", "P"), ("r", "R"), ("s", "S"), ("t", "T"), ("w", "W"), ("x", "K S"),
    ("y", "Y"), ("z", "S"),
]


def letter_to_sound(word: str, language: str = "en") -> str:
    """A rough ARPAbet pronunciation from spelling (for names and other words not in the dictionary)."""
    if language == "es":
        text = "".join(
            c for c in unicodedata.normalize("NFD", word.lower()) if unicodedata.category(c) != "Mn" or c in "\u0303\u0308"
        )
        text = unicodedata.normalize("NFC", text)
        rules = _ES_RULES
    else:
        text = unicodedata.normalize("NFKD", word.lower()).encode("ascii", "ignore").decode()
        if len(text) > 3 and text.endswith("e") and text[-2] not in "aeiouy":
            text = text[:-1]  # silent final e
        rules = _EN_RULES
    text = re.sub(r"[^a-zñü]", "", text)
    phones: list[str] = []
    i = 0
    while i < len(text):
        for graph, phone in rules:
            if text.startswith(graph, i):
                for p in phone.split():
                    if not phones or phones[-1] != p or p in ("AA", "IY", "EY", "OW", "UW"):
                        phones.append(p)
                i += len(graph)
                break
        else:
            i += 1
    if language != "es" and text.endswith("y") and len(text) <= 2:
        phones[-1:] = ["AY"]
    return " ".join(phones) or "AH"


def _number_variants(digits: str, language: str) -> list[list[str]]:
    """Ways of saying a digit string: digit by digit (with 'oh' for zero in English) and as a number."""
    lang = "es" if language == "es" else "en"
    names = [num2words(int(d), lang=lang) for d in digits]
    variants: list[list[str]] = [names]
    if lang == "en" and "0" in digits:
        variants.append(["oh" if d == "0" else n for d, n in zip(digits, names, strict=True)])
    if len(digits) >= 4 and len(digits) % 2 == 0:  # in pairs: "4437" -> forty four thirty seven
        for zero in ("oh", "zero") if lang == "en" else ("cero",):
            pairs: list[str] = []
            for k in range(0, len(digits), 2):
                pair = digits[k : k + 2]
                if pair[0] == "0":
                    pairs += [zero, num2words(int(pair[1]), lang=lang)]
                else:
                    pairs += _words_of(num2words(int(pair), lang=lang))
            variants.append(pairs)
    if len(digits) <= 9 and not (digits.startswith("0") and len(digits) > 1):
        value = int(digits)
        forms = [num2words(value, lang=lang)]
        if lang == "en" and len(digits) == 4:
            forms.append(num2words(value, lang=lang, to="year"))
        if lang == "en" and len(digits) in (3, 4) and digits[-2] != "0":
            forms.append(f"{num2words(int(digits[:-2]))} {num2words(int(digits[-2:]))}")  # "twelve fifty"
        for form in forms:
            tokens = _words_of(form)
            variants.append(tokens)
            if "and" in tokens:
                variants.append([t for t in tokens if t != "and"])
    out: list[list[str]] = []
    for v in variants:
        if v and v not in out and v != [""]:
            out.append(v)
    return out


def _words_of(text: str) -> list[str]:
    return [t for t in re.split(r"[\s,\-]+", text.lower()) if t]


def spoken_variants(text: str, language: str = "en") -> list[list[str]]:
    """Alternative token sequences (lower-case words) a speaker may have said for one written word."""
    cleaned = text.strip().lower().replace("’", "'")
    cleaned = re.sub(r"[$€£%]", " ", cleaned)
    if re.fullmatch(r"[\d.,]+", cleaned.strip(".,")) and any(c.isdigit() for c in cleaned):
        core = cleaned.strip(".,")
        if re.fullmatch(r"\d{1,3}(,\d{3})+", core):
            return _number_variants(core.replace(",", ""), language)
        if "." in core or "," in core:
            whole, _, frac = re.split(r"([.,])", core, maxsplit=1)
            point = "coma" if language == "es" else "point"
            heads = _number_variants(whole, language) if whole else [[]]
            tails = _number_variants(frac, language)
            return [h + [point] + t for h in heads[:3] for t in tails[:3]] + [h + t for h in heads[:2] for t in tails[:2]]
        return _number_variants(core, language)
    # spoken forms of e-mail and web addresses: "ann@example.com" -> ann at example dot com
    cleaned = cleaned.replace("@", " at ")
    cleaned = re.sub(r"(?<=\w)\.(?=[^\W\d_])", " dot ", cleaned)
    seqs: list[list[list[str]]] = []  # per piece, its variants
    for piece in re.split(r"[^\w']+", cleaned):
        piece = piece.strip("'_")
        if not piece:
            continue
        if piece.isdigit():
            seqs.append(_number_variants(piece, language))
        elif m := re.fullmatch(r"(\d+)(st|nd|rd|th|º|ª|o|a)", piece):
            ordinal = num2words(int(m.group(1)), lang="es" if language == "es" else "en", to="ordinal")
            seqs.append([_words_of(ordinal), *_number_variants(m.group(1), language)[:1]])
        elif re.search(r"\d", piece) and re.search(r"[^\W\d_]", piece):
            # codes such as "JY959638": letters spelled one by one, digit groups as numbers
            for part in re.findall(r"\d+|[^\W\d_]+", piece):
                if part.isdigit():
                    seqs.append(_number_variants(part, language)[:4])
                else:
                    seqs.append([list(part)] if len(part) <= 3 else [[part], list(part)])
        else:
            seqs.append([[piece]])
    variants: list[list[str]] = [[]]
    for alts in seqs:
        variants = [v + a for v in variants for a in alts][:MAX_VARIANTS]
    return [v for v in variants if v] or []


# --------------------------------------------------------------------------- decoder


@lru_cache(maxsize=1)
def _model_paths() -> tuple[str, str]:
    try:
        from pocketsphinx import get_model_path
    except ImportError as exc:
        raise AlignmentError("forced alignment needs the pocketsphinx package (pip install pocketsphinx)") from exc
    import os

    root = get_model_path()
    return os.path.join(root, "en-us", "en-us"), os.path.join(root, "en-us", "cmudict-en-us.dict")


_decoder_cache: dict[str, object] = {}
# pocketsphinx's default beams first (fast, and on call audio they succeed most often); a wider
# search only for turns the first pass could not finish. Very wide beams (1e-100 and below) were
# both slower and failed more turns on the demo calls, as the per-frame HMM limit then prunes blindly.
_BEAMS = {"normal": {}, "wide": {"beam": 1e-80, "pbeam": 1e-80, "wbeam": 1e-60}}


def _decoder(wide: bool = False) -> object:
    key = "wide" if wide else "normal"
    decoder = _decoder_cache.get(key)
    if decoder is None:
        from pocketsphinx import Decoder

        hmm, dic = _model_paths()
        decoder = Decoder(hmm=hmm, dict=dic, lm=None, loglevel="FATAL", **_BEAMS[key])
        _decoder_cache[key] = decoder
    return decoder


def _jsgf_token(token: str) -> str:
    # JSGF has no usable quoting in pocketsphinx; tokens are already reduced to letters and apostrophes
    return token


def _base_word(token: str) -> str:
    return re.sub(r"\(\d+\)$", "", token)


# --------------------------------------------------------------------------- alignment


def align_words(
    audio: np.ndarray,
    rate: int,
    words: Sequence[Word],
    *,
    offset: float = 0.0,
    language: str = "en",
) -> tuple[list[Word], AlignmentReport]:
    """Re-time ``words`` (known texts, in order) against ``audio`` (mono; sample 0 is at ``offset`` s).

    Returns copies with measured times (absolute, i.e. including ``offset``) and a report of how far
    boundaries moved. Raises :class:`AlignmentError` if the words cannot be placed in this audio.
    """
    report = AlignmentReport(words=len(words))
    if not words:
        return [], report
    audio16 = to_work_rate(np.asarray(audio, dtype=np.float32).reshape(-1), rate)
    if len(audio16) < WORK_RATE // 20:
        raise AlignmentError("the audio given for alignment is shorter than 50 ms")
    # Digital silence (exact zeros, common in synthesised or edited audio) derails pocketsphinx's
    # features; a fixed, inaudible noise floor (about -70 dBFS) keeps the search on the grammar.
    noise = np.random.default_rng(0).normal(0.0, 3e-4, len(audio16)).astype(np.float32)
    pcm = (np.clip(audio16 + noise, -1.0, 1.0) * 32767).astype("<i2").tobytes()
    lang = "es" if language == "es" else "en"

    with _DECODER_LOCK:
        decoder = _decoder()  # looks words up; both decoders share the dictionary file
        per_word: list[list[list[str]]] = []
        oov = [False] * len(words)
        for i, w in enumerate(words):
            variants = spoken_variants(w.text, lang)
            if not variants:
                variants = [["[NOISE]"]]
            for v in variants:
                for token in v:
                    if token.startswith("["):
                        continue
                    if lang == "es" or decoder.lookup_word(token) is None:
                        if decoder.lookup_word(token) is None:
                            decoder.add_word(token, letter_to_sound(token, lang), True)
                        if lang == "en":
                            oov[i] = True
            per_word.append(variants)
        grammar = " ".join(
            "( " + " | ".join(" ".join(_jsgf_token(t) for t in v) for v in variants) + " )"
            for variants in per_word
        )
        jsgf = f"#JSGF V1.0;\ngrammar align;\npublic <s> = {grammar} ;\n"
        spans = None
        for wide in (False, True):
            dec = _decoder(wide)
            for variants in per_word:  # each decoder needs the added words
                for v in variants:
                    for t in v:
                        if not t.startswith("[") and dec.lookup_word(t) is None:
                            dec.add_word(t, letter_to_sound(t, lang), True)
            try:
                dec.add_jsgf_string("align", jsgf)
                dec.activate_search("align")
                dec.start_utt()
                dec.process_raw(pcm, full_utt=True)
                dec.end_utt()
            except (RuntimeError, ValueError) as exc:
                raise AlignmentError(f"the aligner rejected these words: {exc}") from exc
            frate = int(dec.config["frate"])
            found = dec.seg()
            if found is None:
                continue
            segments = [
                (_base_word(s.word), s.start_frame / frate, (s.end_frame + 1) / frate)
                for s in found
                if not _FILLER.match(s.word)
            ]
            spans = _map_back(segments, per_word)  # None when the search stopped short of the end
            if spans is not None:
                break
    if spans is None:
        raise AlignmentError("the words could not be matched to this audio (wrong words or wrong audio range?)")
    out = []
    for i, (w, (start, end)) in enumerate(zip(words, spans, strict=True)):
        new = dataclasses.replace(w, start=round(start + offset, 3), end=round(end + offset, 3), aligned=not oov[i])
        if _finite(w.start) and _finite(w.end):
            report.moved += [abs(new.start - w.start) * 1000, abs(new.end - w.end) * 1000]
        out.append(new)
    report.oov = sum(oov)
    # a word with nothing to pronounce is a zero-length mark: give it a range (aligned=False) so that
    # no word ever has an empty mask range
    return ensure_durations(out, duration=offset + len(audio16) / WORK_RATE), report


def _finite(x: float | None) -> bool:
    return x is not None and math.isfinite(float(x))


def _map_back(
    segments: list[tuple[str, float, float]], per_word: list[list[list[str]]]
) -> list[tuple[float, float]] | None:
    """Split the recognised token path into the words' variants; (start, end) per word."""
    tokens = [s[0] for s in segments]
    n = len(per_word)
    memo: dict[tuple[int, int], list[tuple[int, int]] | None] = {}

    def solve(i: int, p: int) -> list[tuple[int, int]] | None:
        if i == n:
            return [] if p == len(tokens) else None
        key = (i, p)
        if key in memo:
            return memo[key]
        result = None
        for v in sorted(per_word[i], key=len, reverse=True):
            v = [t for t in v if not t.startswith("[")] or v
            if v == ["[NOISE]"]:
                rest = solve(i + 1, p)
                if rest is not None:
                    result = [(p, p)] + rest
                    break
                continue
            if tokens[p : p + len(v)] == v:
                rest = solve(i + 1, p + len(v))
                if rest is not None:
                    result = [(p, p + len(v))] + rest
                    break
        memo[key] = result
        return result

    path = solve(0, 0)
    if path is None:
        return None
    spans = []
    for a, b in path:
        if b > a:
            spans.append((segments[a][1], segments[b - 1][2]))
        else:  # a word with nothing pronounceable: a zero-length mark at the current point
            t = segments[a][1] if a < len(segments) else (segments[-1][2] if segments else 0.0)
            spans.append((t, t))
    return spans


class AudioReader(Protocol):
    """Audio read on demand: ``reader(a, b)`` gives samples ``[a, b)`` at the aligner's ``rate``."""

    frames: int

    def __call__(self, a: int, b: int) -> np.ndarray: ...


def align_turn(
    audio: np.ndarray | AudioReader,
    rate: int,
    words: Sequence[Word],
    start_word: int,
    end_word: int,
    *,
    language: str = "en",
    pad: float = 0.3,
) -> tuple[list[Word], AlignmentReport]:
    """Re-time words ``[start_word, end_word)`` of a conversation given its whole (mono) audio.

    ``audio`` is an array or an :class:`AudioReader` (so long recordings need not be in memory).
    The audio slice runs from just before the first word to just after the last one, but never into
    the neighbouring words. Returns the full word list with the turn's words replaced.
    """
    if not 0 <= start_word < end_word <= len(words):
        raise AlignmentError(f"word range [{start_word}, {end_word}) is outside the conversation's words")
    turn = list(words[start_word:end_word])
    times = [t for w in turn for t in (w.start, w.end) if _finite(t)]
    duration = (audio.frames if not isinstance(audio, np.ndarray) else len(audio)) / rate
    if not times:
        raise AlignmentError("the turn has no times at all: repair timings before aligning")
    lo, hi = max(0.0, min(times) - pad), min(duration, max(times) + pad)
    if start_word > 0 and _finite(words[start_word - 1].end) and words[start_word - 1].channel == turn[0].channel:
        lo = max(lo, min(float(words[start_word - 1].end), min(times)))
    if end_word < len(words) and _finite(words[end_word].start) and words[end_word].channel == turn[-1].channel:
        hi = min(hi, max(float(words[end_word].start), max(times)))
    a, b = int(lo * rate), int(math.ceil(hi * rate))
    segment = audio[a:b] if isinstance(audio, np.ndarray) else audio(a, b)
    new, report = align_words(segment, rate, turn, offset=a / rate, language=language)
    out = list(words)
    out[start_word:end_word] = new
    return out, report


@dataclass(frozen=True)
class _Piece:
    words: tuple[int, ...]  # indices into the word list: one channel's words, in order
    channel: int | None
    window: tuple[float, float] | None  # audio to align against (s); None: around the words (one turn)


def _pieces(
    words: Sequence[Word], turns: Sequence[Turn], speech: Mapping[int | None, Sequence[Region]] | None
) -> list[_Piece]:
    """A channel's words, cut wherever the voice-activity region of that channel changes between
    them (or, in a mono call, where the speaker changes).

    Each cut lies in a silence, so every piece's audio window holds exactly its own words' speech;
    short pieces keep forced alignment fast and robust (whole 90-s turns were slow and often failed).
    The words of one channel are taken together even where the other channel's words fall between
    them: on a stereo call where both speak at once the turns alternate word by word, and a piece of
    one word aligned against a whole region of speech lands anywhere in it. Channels without regions
    are aligned turn by turn.
    """
    pieces: list[_Piece] = []
    channels: dict[int | None, list[int]] = {}
    for turn in turns:
        regions = list(speech.get(turn.channel, ())) if speech else []
        if not regions:
            pieces.append(_Piece(tuple(turn.word_range()), turn.channel, None))
            continue
        channels.setdefault(turn.channel, []).extend(turn.word_range())
    for channel, idx in channels.items():
        regions = list(speech.get(channel, ())) if speech else []
        idx.sort()
        at = assign_regions(regions, [(words[i].start + words[i].end) / 2 for i in idx])
        first = 0
        for k in range(1, len(idx) + 1):
            if k < len(idx) and at[k] == at[k - 1] and words[idx[k]].speaker == words[idx[k - 1]].speaker:
                continue
            r = at[k - 1]
            lo = (regions[r - 1][1] + regions[r][0]) / 2 if r > 0 else max(0.0, regions[r][0] - 0.3)
            hi = (regions[r][1] + regions[r + 1][0]) / 2 if r + 1 < len(regions) else regions[r][1] + 0.3
            piece = idx[first:k]
            lo = min(lo, min(words[i].start for i in piece))  # never cut off the words themselves
            hi = max(hi, max(words[i].end for i in piece))
            pieces.append(_Piece(tuple(piece), channel, (lo, hi)))
            first = k
    return sorted(pieces, key=lambda p: p.words[0])


def refine_alignment(
    audio: np.ndarray | AudioReader,
    rate: int,
    words: Sequence[Word],
    turns: Sequence[Turn],
    *,
    language: str = "en",
    channel_audio: Mapping[int, np.ndarray | AudioReader] | None = None,
    speech: Mapping[int | None, Sequence[Region]] | None = None,
    progress: FractionFn | None = None,
    cancel: CancelFn | None = None,
) -> tuple[list[Word], AlignmentReport]:
    """Re-time every turn; stretches that cannot be aligned keep their times (counted in the report).

    ``channel_audio`` maps a channel number to that channel's audio for stereo calls (turns on
    channel c are aligned against ``channel_audio[c]``); otherwise ``audio`` is used. ``speech``
    (voice-activity regions per channel, see :mod:`redactdesk.asr.vad`) lets long turns be aligned
    in pieces cut at silences; ``report.failed_turns`` then counts failed pieces.
    """
    out = list(words)
    report = AlignmentReport()
    pieces = _pieces(words, turns, speech)
    for k, piece in enumerate(pieces):
        check_cancel(cancel)
        source = audio
        if channel_audio is not None and piece.channel in channel_audio:
            source = channel_audio[piece.channel]
        first, last = piece.words[0], piece.words[-1] + 1
        try:
            if piece.window is None:
                out, part = align_turn(source, rate, out, first, last, language=language)
            else:
                frames = source.frames if not isinstance(source, np.ndarray) else len(source)
                a = max(0, int(piece.window[0] * rate))
                b = min(frames, int(math.ceil(piece.window[1] * rate)))
                segment = source[a:b] if isinstance(source, np.ndarray) else source(a, b)
                new, part = align_words(segment, rate, [out[i] for i in piece.words], offset=a / rate,
                                        language=language)
                for i, w in zip(piece.words, new, strict=True):
                    out[i] = w
            report.merge(part)
        except AlignmentError as exc:
            report.failed_turns += 1
            report.words += len(piece.words)
            report.messages.append(f"words {first}-{last - 1}: {exc}")
        if progress is not None:
            progress((k + 1) / max(1, len(pieces)))
    return out, report
