"""ASR benchmark on the demo corpus: WER, word-boundary error, timing coverage and speed per model.

Usage: python benchmarks/bench_asr.py [--corpus resources/samples] [--models tiny.en base]
                                       [--refine both|on|off] [--limit N] [--threads N]

For every call with a reference JSON beside its audio, it transcribes with each model (tiny.en is
English-only, so Spanish calls are skipped for it) and prints per model and language:

* WER (jiwer) after normalising both sides the same way: lower case, no punctuation, number words
  to digits (text2num), every digit its own token, acronyms and letter+digit codes split into
  characters — so "four one one one" and "4111" agree; "double 4" / "triple 4" written out, "oh"
  between digits read as 0, ordinal endings dropped ("23rd" = "twenty third" = 2 3) and fillers
  (um, uh, er, eh, mm) removed, as Whisper's own evaluation normaliser does; written e-mail and web
  addresses and amounts said aloud ("example.com" = "example dot com", "a@b" = "a at b",
  "$12.50" = "12 dollars and 50 cents", "8,50 €" = "8 euros con 50 céntimos"; Spanish "30 y 7" = 37, "2000, 29" = 2029, "200 1" = 201, "un" = 1, "6to" = sexto);
* WER split into the words of the reference's personal-data items (spelled names, card numbers,
  e-mails — what redactdesk must find) and all other words (errors at a boundary count for the
  region of the reference word they touch);
* median and 90th-percentile absolute start and end boundary error (ms) over words matched by
  difflib on their normalised text;
* share of words with usable times after timing repair (must be 100 %);
* real-time factor (processing seconds / audio seconds; model loading excluded).

Targets for base on 2 cores: WER <= 10 %, median boundary error <= 80 ms, RTF <= 0.2.
"""

from __future__ import annotations

import argparse
import difflib
import functools
import json
import math
import os
import re
import sys
import time
from pathlib import Path

import jiwer
import numpy as np
import soundfile as sf
from text_to_num import alpha2digit

os.environ.setdefault("HF_HUB_OFFLINE", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from redactdesk.asr.align import refine_alignment  # noqa: E402
from redactdesk.asr.faster_whisper_backend import default_threads, load_whisper  # noqa: E402
from redactdesk.asr.models import resolve_model  # noqa: E402
from redactdesk.asr.resample import WORK_RATE, to_work_rate  # noqa: E402
from redactdesk.asr.transcribe import transcribe_file  # noqa: E402

TARGETS = {"wer": 0.10, "boundary_ms": 80.0, "rtf": 0.2}


FILLERS = {"um", "umm", "uh", "uhm", "er", "erm", "ah", "eh", "mm", "mmm", "hmm", "mhm"}
REPEAT = {"en": {"double": 2, "triple": 3}, "es": {"doble": 2, "triple": 3}}
ORDINAL = re.compile(r"(\d+)(st|nd|rd|th|º|ª|o|a|[rdtvmn][oa]|er|vo)$")  # 23rd; Spanish 1º, 3er, 6to, 2do


CURRENCY = {"en": {"$": ("dollars", "and", "cents"), "€": ("euros", "and", "cents"), "£": ("pounds", "and", "pence")},
            "es": {"€": ("euros", "con", "céntimos"), "$": ("dólares", "con", "centavos")}}
SEPARATORS = {"en": (",", "."), "es": (".", ",")}  # (thousands, decimal)


@functools.cache
def _amount_pattern(language: str) -> re.Pattern[str]:
    thousands, decimal = (re.escape(c) for c in SEPARATORS.get(language, SEPARATORS["en"]))
    number = rf"(?P<units>\d{{1,3}}(?:{thousands}\d{{3}})+|\d+)(?:{decimal}(?P<cents>\d{{2}}))?(?!\d)"
    return re.compile(rf"(?P<pre>[$€£])\s?{number}|{number.replace('?P<', '?P<x')}\s?(?P<post>[$€£])")


def _spanish_compounds(text: str) -> str:
    """Whisper writes one Spanish number as two: "setecientos sesenta y cuatro" as "760 y 4",
    "dos mil veintinueve" as "2000, 29", "doscientos un" as "200 1"; joined back into the number."""
    total = lambda m: str(int(m.group(1)) + int(m.group(2)))  # noqa: E731
    text = re.sub(r"\b(\d*[3-9]0) y ([1-9])\b", total, text)
    text = re.sub(r"\b([1-9]\d*000),? ([1-9]\d{0,2})\b(?![.,]\d)", total, text)
    return re.sub(r"\b([1-9]00) ([1-9]\d?)\b(?![.,]\d)", total, text)


def spoken_forms(text: str, language: str) -> str:
    """Written e-mail/web addresses and currency amounts in the words people say for them."""
    if language == "es":
        text = _spanish_compounds(text)
    text = re.sub(r"(?<=\w)@(?=\w)", " at ", text)
    text = re.sub(r"\.(?=[A-Za-z]{2})", " dot " if language == "en" else " punto ", text)
    names = CURRENCY.get(language, CURRENCY["en"])

    def said(m: re.Match[str]) -> str:
        sign = m.group("pre") or m.group("post")
        units = re.sub(r"\D", "", m.group("units") or m.group("xunits"))
        cents = m.group("cents") or m.group("xcents")
        unit, joiner, small = names.get(sign, next(iter(names.values())))
        rest = text[m.end():].lstrip().lower()
        out = units if rest.startswith(unit) else f"{units} {unit}"
        if cents and int(cents):
            out += f" {joiner} {int(cents)}" + ("" if rest.startswith(small) else f" {small}")
        return out

    return _amount_pattern(language).sub(said, text)


def normalise(text: str, language: str) -> list[str]:
    """Tokens for WER: see the module docstring. Applied identically to reference and hypothesis."""
    tokens = []
    for raw in re.split(r"[\s\-–/]+", spoken_forms(text, language)):
        word = re.sub(r"[^\w'’]", "", raw).replace("’", "'")
        if not word or word.lower() in FILLERS:
            continue
        ordinal = ORDINAL.fullmatch(word)
        if ordinal:
            tokens.append(ordinal.group(1))
        elif re.fullmatch(r"[A-Z]{2,4}", word) or (re.search(r"\d", word) and re.search(r"[A-Za-z]", word)):
            tokens += re.findall(r"\d+|[A-Za-z]", word)  # "JY959638" -> J Y 959638
        else:
            tokens.append(word)
    joined = alpha2digit(" ".join(t.lower() for t in tokens), "es" if language == "es" else "en")
    out: list[str] = []
    for token in joined.split():
        ordinal = ORDINAL.fullmatch(token)
        token = ordinal.group(1) if ordinal else token
        for part in re.findall(r"\d+|[^\d]+", token):
            out += list(part) if part.isdigit() else [part]
    if language == "es":  # the article "un" and the digit: alpha2digit turns "uno un" into "1 1"
        out = ["1" if t == "un" else t for t in out]
    return _digit_words(out, language)


def _digit_words(tokens: list[str], language: str) -> list[str]:
    """"double 4" -> 4 4; "oh" next to a digit -> 0 (English readings of digit strings)."""
    out: list[str] = []
    repeat = REPEAT.get(language, {})
    i = 0
    while i < len(tokens):
        t = tokens[i]
        nxt = tokens[i + 1] if i + 1 < len(tokens) else ""
        if t in repeat and (nxt.isdigit() or (language == "en" and nxt in ("oh", "o"))):
            out += ["0" if nxt in ("oh", "o") else nxt] * repeat[t]
            i += 2
            continue
        if language == "en" and t in ("oh", "o") and ((out and out[-1].isdigit()) or nxt.isdigit()):
            t = "0"
        out.append(t)
        i += 1
    return out


def region_tokens(ref: list[dict], spans: list[dict], language: str) -> tuple[list[str], list[bool]]:
    """The normalised reference and, per token, whether it belongs to a personal-data item."""
    inside = [False] * len(ref)
    for sp in spans:
        for k in range(sp["start_word"], min(sp["end_word"], len(ref))):
            inside[k] = True
    tokens: list[str] = []
    flags: list[bool] = []
    k = 0
    while k < len(ref):
        j = k
        while j < len(ref) and inside[j] == inside[k]:
            j += 1
        part = normalise(" ".join(w["text"] for w in ref[k:j]), language)
        tokens += part
        flags += [inside[k]] * len(part)
        k = j
    return tokens, flags


def split_errors(ref_tokens: list[str], flags: list[bool], hyp_tokens: list[str]) -> dict[bool, list[int]]:
    """Errors and reference tokens, per region (True = inside items): {region: [errors, tokens]}."""
    out = {True: [0, sum(flags)], False: [0, len(flags) - sum(flags)]}
    if not ref_tokens:
        return out
    result = jiwer.process_words(" ".join(ref_tokens), " ".join(hyp_tokens) or "<empty>")
    for chunk in result.alignments[0]:
        if chunk.type == "equal":
            continue
        if chunk.type == "insert":
            region = flags[min(chunk.ref_start_idx, len(flags) - 1)]
            out[region][0] += chunk.hyp_end_idx - chunk.hyp_start_idx
            continue
        for k in range(chunk.ref_start_idx, chunk.ref_end_idx):
            out[flags[k]][0] += 1
    return out


def _key(text: str) -> str:
    return re.sub(r"[^\w']", "", text.lower().replace("’", "'"))


def boundary_errors(ref: list[dict], hyp: list) -> tuple[list[float], list[float]]:
    """Absolute start and end errors (ms) over words matched by their normalised text."""
    a = [_key(w["text"]) for w in ref]
    b = [_key(w.text) for w in hyp]
    starts, ends = [], []
    for block in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_matching_blocks():
        for k in range(block.size):
            r, h = ref[block.a + k], hyp[block.b + k]
            starts.append(abs(h.start - r["start"]) * 1000)
            ends.append(abs(h.end - r["end"]) * 1000)
    return starts, ends


def load_corpus(folder: Path, limit: int | None) -> list[dict]:
    index = folder / "index.json"
    if index.is_file():
        entries = json.loads(index.read_text())["calls"]
        calls = [{"id": e["id"], "language": e["language"], "audio": folder / e["audio"],
                  "json": folder / e["json"]} for e in entries]
    else:
        calls = []
        for js in sorted(folder.glob("*.json")):
            data = json.loads(js.read_text())
            if data.get("format") == "redactdesk-conversation" and data.get("audio"):
                calls.append({"id": data["id"], "language": data.get("language", "en"),
                              "audio": js.parent / data["audio"], "json": js})
    calls = [c for c in calls if Path(c["audio"]).is_file()]
    return calls[:limit] if limit else calls


def _row() -> dict:
    return {"calls": 0, "audio": 0.0, "seconds": 0.0, "cpu": 0.0, "refs": [], "hyps": [], "starts": [],
            "ends": [], "timed": 0, "words": 0, "regions": {True: [0, 0], False: [0, 0]}}


def _add(row: dict, ref: list[dict], spans: list[dict], words: list, lang: str, duration: float,
         seconds: float, cpu: float) -> None:
    row["calls"] += 1
    row["audio"] += duration
    row["seconds"] += seconds
    row["cpu"] += cpu
    ref_tokens, flags = region_tokens(ref, spans, lang)
    hyp_tokens = normalise(" ".join(w.text for w in words), lang)
    row["refs"].append(" ".join(ref_tokens))
    row["hyps"].append(" ".join(hyp_tokens))
    for region, (errors, n) in split_errors(ref_tokens, flags, hyp_tokens).items():
        row["regions"][region][0] += errors
        row["regions"][region][1] += n
    s, e = boundary_errors(ref, words)
    row["starts"] += s
    row["ends"] += e
    row["words"] += len(words)
    row["timed"] += sum(1 for w in words if math.isfinite(w.start) and math.isfinite(w.end) and w.end >= w.start >= 0)


def run(calls: list[dict], model: str, refine: bool, threads: int | None,
        prompt: str | None = "auto") -> dict[tuple[bool, str], dict]:
    """Transcribe each call once; with ``refine`` also time forced alignment on top of the same words."""
    info = resolve_model(model)
    load_whisper(info.path, threads)  # warm: model loading is not part of the RTF
    rows: dict[tuple[bool, str], dict] = {}
    for call in calls:
        lang = call["language"]
        if lang != "en" and not info.multilingual:
            continue
        data = json.loads(Path(call["json"]).read_text())
        ref, spans = data["words"], data.get("spans", [])
        t0, c0 = time.perf_counter(), time.process_time()
        res = transcribe_file(call["audio"], model=model, language=lang, refine=False,
                              backend_options={"threads": threads, "prompt": prompt})
        seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
        _add(rows.setdefault((False, lang), _row()), ref, spans, res.words, lang, res.duration, seconds, cpu)
        note = ""
        if refine:
            audio, rate = sf.read(call["audio"], dtype="float32", always_2d=True)
            audio = to_work_rate(audio.mean(axis=1), rate)
            t1, c1 = time.perf_counter(), time.process_time()
            words, report = refine_alignment(audio, WORK_RATE, res.words, res.turns, language=lang,
                                             speech=res.speech)
            s2, c2 = time.perf_counter() - t1, time.process_time() - c1
            _add(rows.setdefault((True, lang), _row()), ref, spans, words, lang, res.duration, seconds + s2, cpu + c2)
            note = f", align {s2:.1f} s ({report.failed_turns} turns failed)"
        print(f"  {model:8s} {call['id']}: {len(res.words)} words, asr {seconds:.1f} s "
              f"(rtf {seconds / max(res.duration, 1e-9):.3f}){note}", file=sys.stderr, flush=True)
    return rows


def fmt_row(model: str, refine: bool, lang: str, row: dict, threads: int) -> str:
    wer = jiwer.wer(row["refs"], row["hyps"])
    both = row["starts"] + row["ends"]
    med = float(np.median(both)) if both else float("nan")

    def pct(v: list[float], q: float) -> float:
        return float(np.percentile(v, q)) if v else float("nan")

    rtf = row["seconds"] / max(row["audio"], 1e-9)
    cpu_rtf = row["cpu"] / threads / max(row["audio"], 1e-9)
    timed = row["timed"] / max(row["words"], 1)
    items, other = (e / max(n, 1) for e, n in (row["regions"][True], row["regions"][False]))
    return (f"| {model:8s} | {'on' if refine else 'off':6s} | {lang:4s} | {row['calls']:5d} | {row['audio']:7.0f} | "
            f"{wer:6.1%} | {other:6.1%} | {items:6.1%} | {pct(row['starts'], 50):5.0f} / {pct(row['starts'], 90):5.0f} | "
            f"{pct(row['ends'], 50):5.0f} / {pct(row['ends'], 90):5.0f} | {med:7.0f} | {timed:6.1%} | "
            f"{rtf:5.3f} | {cpu_rtf:7.3f} | {row['seconds']:7.1f} |")


def main(argv: list[str] | None = None) -> int:
    default_corpus = Path(__file__).resolve().parents[1] / "resources" / "samples"
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=default_corpus)
    parser.add_argument("--models", nargs="+", default=["tiny.en", "base"])
    parser.add_argument("--refine", choices=["off", "on", "both"], default="both",
                        help="forced-alignment refinement rows (measured on top of the same ASR output)")
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--no-prompt", action="store_true", help="decode without the call-centre prompt")
    args = parser.parse_args(argv)
    calls = load_corpus(args.corpus, args.limit)
    if not calls:
        print(f"no calls with audio and reference JSON in {args.corpus}: "
              "build the demo corpus first (python -m redactdesk.synth --out resources/samples)")
        return 0
    refine = args.refine != "off"
    threads = args.threads or default_threads()
    lines = []
    totals: dict[tuple[str, bool], float] = {}
    for model in args.models:
        rows = run(calls, model, refine, args.threads, None if args.no_prompt else "auto")
        for (refined, lang), row in sorted(rows.items()):
            if args.refine == "on" and not refined:
                continue
            totals[(model, refined)] = totals.get((model, refined), 0.0) + row["seconds"]
            lines.append(fmt_row(model, refined, lang, row, threads))
    print(f"\nASR on {len(calls)} calls from {args.corpus} ({os.cpu_count()} CPUs, {threads} threads, "
          f"prompt {'off' if args.no_prompt else 'on'}; "
          f"load average {os.getloadavg()[0]:.1f} at the end: the machine is shared)\n")
    print("| model    | refine | lang | calls | audio s |   WER  | other  | items  | start ms med/p90 |"
          " end ms med/p90 | bnd med | timed  |  RTF  | cpu RTF |  proc s |")
    print("|" + "|".join("-" * n for n in (10, 8, 6, 7, 9, 8, 8, 8, 18, 16, 9, 8, 7, 9, 9)) + "|")
    for line in lines:
        print(line)
    print("WER other / items = WER over the reference words outside / inside personal-data items")
    print("RTF = wall seconds / audio seconds; cpu RTF = process CPU seconds / threads / audio seconds "
          "(what an unshared machine would approach)")
    print(f"\ntargets for base: WER <= {TARGETS['wer']:.0%}, median boundary <= {TARGETS['boundary_ms']:.0f} ms, "
          f"RTF <= {TARGETS['rtf']}")
    print("processing time for the whole corpus: "
          + ", ".join(f"{m} refine={'on' if r else 'off'}: {s:.0f} s" for (m, r), s in totals.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
