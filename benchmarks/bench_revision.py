"""Revision warnings on ASR-like output, before and after auto-fix (issue 18, item 4).

    python benchmarks/bench_revision.py                   # generated calls + the demo's ASR output if present
    python benchmarks/bench_revision.py --calls 40 --skip-demo
    python benchmarks/bench_revision.py --demo-project PATH/demo.rdproj

Part 1 generates text-only calls (``synth.script.generate_call``, en and es) and rewrites each
accepted item the way Whisper writes it: spelled letters with dashes or commas ("S -M -I -T -H",
"C, A, B"), "is in" for "as in", one letter misheard, digit words as digits ("0 9 0 3 0 1"),
e-mails as ".steele30 at example .com." or "Addexample", a date's year repeated after it, and a span
boundary that leaves the last digit of a run outside. Part 2 reads the demo calls as the embedded
ASR transcribed them, after the oracle review of ``redactdesk demo --headless`` (the newest run under
the demo folder's ``runs/``, opened from a temporary copy; skipped when there is none).

For each part it prints warnings per 100 items by kind before and after ``substitute.autofix``, the
leak scan over the revised text (letter sequences included; must be 0), and a sample of revised
sentences beside the categories of their items — never an original value.
"""

from __future__ import annotations

import argparse
import random
import shutil
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from redactdesk.core.types import Conversation, Span, SpanStatus, Turn, Word  # noqa: E402
from redactdesk.lang.digits import DIGIT_WORDS  # noqa: E402
from redactdesk.risk.leakscan import needles, scan_text  # noqa: E402
from redactdesk.substitute import substitute_conversation  # noqa: E402
from redactdesk.substitute.autofix import auto_fix  # noqa: E402
from redactdesk.substitute.gazetteer import load_gazetteer  # noqa: E402

SECRET = "bench-revision-secret"
DIGIT_CATEGORIES = {"DATE_OF_BIRTH", "CREDIT_CARD", "PHONE", "POSTCODE", "GENERIC_ID", "CVV", "CARD_EXPIRY"}
KINDS = ("spelling", "original_nearby", "placeholder", "form_changed", "agreement", "category", "same_as_original",
         "real_entity", "number_grammar", "date_relation", "kept_as_tag", "form_lost", "rule_broken", "overlap")


# --------------------------------------------------------------------------------------------- ASR-style noise
def _spelled(tokens: list[str], language: str, rng: random.Random) -> list[str] | None:
    letters = [t for t in tokens if len(t) == 1 and t.isalpha()]
    if len(letters) != len(tokens) or len(letters) < 3:
        return None
    letters = [c.upper() for c in letters]
    if rng.random() < 0.3:  # one letter misheard ("M D D I N A" for Medina)
        k = rng.randrange(1, len(letters))
        letters[k] = letters[k - 1]
    style = rng.choice(["dash", "comma", "as_in"])
    if style == "dash":
        return [letters[0]] + [f"-{c}" for c in letters[1:-1]] + [f"-{letters[-1]}."]
    if style == "comma":
        return [f"{c}," for c in letters[:-1]] + [f"{letters[-1]}."]
    words = load_gazetteer(language).spelling_words
    conn = ["is", "in"] if language == "en" else ["de"]
    out: list[str] = []
    for c in letters:
        out += [c, *conn, *words.get(c, c).split()]
    out[-1] += "."
    return out


def _digits(tokens: list[str], language: str) -> list[str]:
    """Digit words as digits when every token is one ("zero nine" → "0 9"); Whisper writes a run of
    single digits that way, but keeps "twenty twenty seven" in words."""
    table = {w: str(i) for i, w in enumerate(DIGIT_WORDS[language])}
    if not all(t.lower() in table for t in tokens):
        return list(tokens)
    return [table[t.lower()] for t in tokens]


def _email(tokens: list[str], language: str, rng: random.Random) -> list[str]:
    dot, at = ("dot", "at") if language == "en" else ("punto", "arroba")
    table = {w: str(i) for i, w in enumerate(DIGIT_WORDS[language])}
    text = " ".join(table.get(t.lower(), t) for t in tokens)
    if rng.random() < 0.5:
        text = text.replace(f" {dot} ", " .").replace(f" {at} ", " at " if language == "en" else " a roba ")
    else:
        text = text.replace(f" {dot} ", ". ").replace(f" {at} ", " Add" if language == "en" else " Puntoa roba ")
    return (text.strip() + ".").split()


def asr_noise(conv: Conversation, rng: random.Random) -> Conversation:
    """The call as Whisper might have written it (see the module docstring); spans follow."""
    spans = sorted((s for s in conv.spans if s.status == SpanStatus.ACCEPTED), key=lambda s: s.start_word)
    by_start = {s.start_word: s for s in spans}
    words: list[Word] = []
    new_spans: list[Span] = []
    new_index = [0] * (len(conv.words) + 1)
    i = 0
    while i < len(conv.words):
        s = by_start.get(i)
        if s is None:
            new_index[i] = len(words)
            words.append(conv.words[i])
            i += 1
            continue
        tokens = [w.text for w in conv.words[s.start_word:s.end_word]]
        extra: list[str] = []
        cut = 0
        if s.category in ("PERSON", "SPELLED_LETTERS") and (sp := _spelled(tokens, conv.language, rng)):
            tokens = sp
        elif s.category == "EMAIL":
            tokens = _email(tokens, conv.language, rng)
        elif s.category in DIGIT_CATEGORIES:
            tokens = _digits(tokens, conv.language)
            if len(tokens) >= 5 and all(t.isdigit() for t in tokens[-3:]) and rng.random() < 0.25:
                cut = 1  # the span boundary leaves the last digit outside
            year = next((t for t in tokens if len(t) == 4 and t[:2] in ("19", "20")), None)
            if s.category == "DATE_OF_BIRTH" and year and rng.random() < 0.5:
                extra = [f"{year[2:]}."]  # the ASR repeats the year's end
        first = conv.words[s.start_word]
        start = len(words)
        for k, t in enumerate(tokens + extra):
            words.append(Word(t, first.start + 0.01 * k, first.start + 0.01 * k + 0.01, 0.9, first.speaker))
        for j in range(s.start_word, s.end_word):
            new_index[j] = start
        new_spans.append(Span(start, start + len(tokens) - cut, s.category, SpanStatus.ACCEPTED, s.score, s.sources,
                              "", s.entity, s.id if s.id is not None else len(new_spans) + 1))
        i = s.end_word
    new_index[len(conv.words)] = len(words)
    turns = [Turn(t.speaker, new_index[t.start_word], new_index[min(t.end_word, len(conv.words))], t.channel)
             for t in conv.turns]
    return Conversation(id=conv.id, language=conv.language, words=words, turns=turns, spans=new_spans)


# --------------------------------------------------------------------------------------------- measuring
def measure(convs: list[Conversation], secret: str, label: str, samples: int) -> None:
    before: Counter[str] = Counter()
    after: Counter[str] = Counter()
    items = leaks = 0
    t0 = time.perf_counter()
    shown: list[str] = []
    for conv in convs:
        res = substitute_conversation(conv, secret=secret)
        before.update(w.kind for w in res.warnings)
        fixed_conv, fixed, _plan = auto_fix(conv, secret=secret)
        after.update(w.kind for w in fixed.warnings)
        items += len(fixed.replacements)
        leaks += len(scan_text(fixed.revised_text(), "revised", needles([conv])))
        for rep in fixed.replacements:
            if len(shown) < samples and rep.category in ("PERSON", "EMAIL", "DATE_OF_BIRTH", "ADDRESS") and (
                    label.startswith("generated")):
                words = fixed.revised_words
                sentence = " ".join(w.text for w in words[max(0, rep.revised_start - 4):rep.revised_end + 3])
                shown.append(f"  {rep.category:14s} {sentence}")
    took = time.perf_counter() - t0
    per = 100.0 / max(items, 1)
    print(f"\n## {label}: {len(convs)} calls, {items} items, {took:.1f} s (substitute + auto-fix)")
    print(f"{'warning kind':18s} {'before /100':>12s} {'after /100':>11s}")
    for kind in [k for k in KINDS if before[k] or after[k]] + sorted((set(before) | set(after)) - set(KINDS)):
        print(f"{kind:18s} {before[kind] * per:12.2f} {after[kind] * per:11.2f}")
    print(f"{'all':18s} {sum(before.values()) * per:12.2f} {sum(after.values()) * per:11.2f}")
    print(f"leak scan of the revised text (letter sequences included): {leaks}")
    if shown:
        print("sample of revised sentences (item category, then the revised words around it):")
        print("\n".join(shown))


def demo_conversations(path: Path | None) -> list[Conversation] | None:
    from redactdesk.pipeline.demo import default_demo_dir
    from redactdesk.store import Project

    if path is None:
        runs = sorted((default_demo_dir() / "runs").glob("run-*/demo.rdproj"))
        if not runs:
            return None
        path = runs[-1]
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "demo.rdproj"
        shutil.copy2(path, copy)
        with Project.open(copy) as project:
            return [c for c in project.iter_conversations()
                    if any(s.status == SpanStatus.ACCEPTED for s in c.spans)]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--calls", type=int, default=24, help="generated calls per language")
    ap.add_argument("--seed", type=int, default=5000)
    ap.add_argument("--samples", type=int, default=8)
    ap.add_argument("--skip-demo", action="store_true")
    ap.add_argument("--demo-project", type=Path, default=None)
    args = ap.parse_args()
    from redactdesk.synth.script import generate_call

    rng = random.Random(args.seed)
    convs = [asr_noise(generate_call(args.seed + k, lang), rng) for lang in ("en", "es") for k in range(args.calls)]
    measure(convs, SECRET, "generated calls with ASR-style noise", args.samples)
    if not args.skip_demo:
        demo = demo_conversations(args.demo_project)
        if demo is None:
            print("\n## demo ASR output: none found (run `redactdesk demo --headless` first)")
        else:
            measure(demo, SECRET, "demo calls as transcribed by the embedded ASR, oracle review", 0)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
