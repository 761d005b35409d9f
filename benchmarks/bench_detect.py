"""Detection benchmark: accuracy on fresh generated calls, throughput, event grammar vs keyword baseline.

Run: ``.venv/bin/python benchmarks/bench_detect.py [--quick] [--json OUT]``

* Accuracy: calls from ``redactdesk.synth.script.generate_call`` with seeds >= 150000 (the demo uses
  1000.., development looked at 100000..100099), their spoken-form variations drawn per seed, plus
  ASR-like renderings: lower case, digits written as digits the way Whisper does ("4 -1 -1"), a hard
  variation (pairs, "oh", "double", "M as in Mary", fillers) and Spanish. Systems: full vote
  (patterns + gazetteer + spaCy), spaCy only, and seed 000's keyword baseline.
* Throughput on this machine (2 cores shared with other jobs: wall and CPU time both printed).
* Event grammar (seed 000) vs the keyword regex: call-level detection and coverage of the card stretch.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from redactdesk.core.types import Conversation, Turn  # noqa: E402
from redactdesk.detect.baseline import keyword_matches  # noqa: E402
from redactdesk.detect.evaluate import category_comparison, comparison_table, evaluate  # noqa: E402
from redactdesk.detect.event_grammar import (  # noqa: E402
    cluster_snippets,
    describe_clusters,
    detect_events,
    extract_snippets,
    learn_grammar,
)
from redactdesk.detect.pipeline import detect_conversations  # noqa: E402
from redactdesk.detect.sources import DetectDoc  # noqa: E402
from redactdesk.synth.script import generate_call  # noqa: E402

SYSTEMS = {"full vote": None, "spaCy only": ["spacy"], "keyword baseline": ["keyword_baseline"]}
PAY = {"CREDIT_CARD", "CARD_EXPIRY", "CVV"}
_DIGIT = {w: str(i) for i, w in enumerate("zero one two three four five six seven eight nine".split())}
_DIGIT.update({"oh": "0"})


def bare(c: Conversation) -> Conversation:
    return dataclasses.replace(c, spans=[])


def lower(c: Conversation) -> Conversation:
    return dataclasses.replace(c, words=[dataclasses.replace(w, text=w.text.lower()) for w in c.words])


_TENS = set("twenty thirty forty fifty sixty seventy eighty ninety hundred thousand".split())


def whisper_digits(c: Conversation, seed: int) -> Conversation:
    """Digits read one by one written as digits, some with Whisper's stray minus ("4 -1 -1"); digits
    that are part of a bigger number ("sixty five", "five hundred") stay words."""
    rng = random.Random(seed)
    words = []
    for k, w in enumerate(c.words):
        d = _DIGIT.get(w.text.lower())
        prev = c.words[k - 1].text.lower() if k else ""
        nxt = c.words[k + 1].text.lower() if k + 1 < len(c.words) else ""
        if d is not None and prev not in _TENS | {"and"} and nxt not in _TENS:
            text = d if rng.random() < 0.6 else f"-{d}"
            words.append(dataclasses.replace(w, text=text))
        else:
            words.append(w)
    return dataclasses.replace(c, words=words)


def unseen_names(c: Conversation, seed: int) -> Conversation:
    """Names swapped for German, Italian and French ones that the gazetteer does not hold, so PERSON
    recall is not helped by the generator and the gazetteer sharing Faker's name lists."""
    from faker import Faker

    from redactdesk.detect.gazetteer import load_gazetteer

    gaz = load_gazetteer()
    rng = random.Random(seed)
    fakes = [Faker(loc) for loc in ("de_DE", "it_IT", "fr_FR")]
    for i, f in enumerate(fakes):
        f.seed_instance(seed * 10 + i)
    swap: dict[str, str] = {}
    words = list(c.words)
    for s in c.spans:
        if s.category != "PERSON" or any(len(w.text) == 1 for w in words[s.start_word : s.end_word]):
            continue  # spelled names keep their letters
        for k in range(s.start_word, s.end_word):
            old = words[k].text
            if old not in swap:
                for _ in range(50):
                    f = rng.choice(fakes)
                    new = f.first_name() if k == s.start_word else f.last_name()
                    if new.isalpha() and not gaz.is_name(new) and not gaz.place([new]):
                        break
                swap[old] = new
            words[k] = dataclasses.replace(words[k], text=swap[old])
    # the same name said elsewhere (e.g. inside the email) keeps its spoken form
    return dataclasses.replace(c, words=words)


def corpus(seeds: range, lang: str, variation: dict | None = None) -> list[Conversation]:
    return [generate_call(s, lang, variation=variation) for s in seeds]


def accuracy(n_en: int, n_es: int) -> dict:
    sets = {
        "en as generated": corpus(range(150000, 150000 + n_en), "en"),
    }
    sets["en lower case (ASR)"] = [lower(c) for c in sets["en as generated"]]
    sets["en digits as Whisper writes them"] = [lower(whisper_digits(c, i)) for i, c in enumerate(sets["en as generated"])]
    hard = {"digits": "pairs", "zero": "oh", "doubles": True, "spelling": "as_in", "fillers": True}
    sets["en hard variation, lower"] = [lower(c) for c in corpus(range(160000, 160000 + n_en), "en", hard)]
    sets["en unseen names, lower"] = [lower(unseen_names(c, i)) for i, c in enumerate(sets["en as generated"])]
    sets["es lower case"] = [lower(c) for c in corpus(range(170000, 170000 + n_es), "es")]
    results: dict = {}
    for name, convs in sets.items():
        reports = {}
        for sys_name, sources in SYSTEMS.items():
            pred = detect_conversations([bare(c) for c in convs], sources=sources)
            reports[sys_name] = evaluate(convs, pred)
        print()
        print(comparison_table(reports, f"== {name}: {len(convs)} calls, {sum(len(c.words) for c in convs)} words"))
        if name in ("en lower case (ASR)", "es lower case", "en unseen names, lower"):
            print()
            print(reports["full vote"].table(f"-- full vote, per category ({name})"))
            print()
            print(category_comparison(reports))
        results[name] = {k: r.to_dict() for k, r in reports.items()}
    return results


def throughput(n: int) -> dict:
    convs = [bare(lower(c)) for c in corpus(range(180000, 180000 + n), "en")]
    words = sum(len(c.words) for c in convs)
    detect_conversations(convs[:2])  # load models once
    out = {}
    print(f"\n== throughput: {n} calls, {words} words, load average {os.getloadavg()[0]:.1f} on "
          f"{os.cpu_count()} cores")
    for name, sources in (("patterns + normaliser", ["patterns"]), ("full vote with spaCy NER", None)):
        w0, c0 = time.perf_counter(), time.process_time()
        detect_conversations(convs, sources=sources)
        wall, cpu = time.perf_counter() - w0, time.process_time() - c0
        out[name] = {"words_per_s_wall": words / wall, "words_per_s_cpu": words / cpu}
        print(f"{name:<28} {words / wall:>9.0f} words/s wall   {words / cpu:>9.0f} words/s CPU")
    return out


def without_pay(c: Conversation) -> Conversation:
    """The same call with the card turns (and the question before each) cut out."""
    drop: set[int] = set()
    for ti, t in enumerate(c.turns):
        if any(s.category in PAY and t.start_word <= s.start_word < t.end_word for s in c.spans):
            drop |= {ti, ti - 1}
    words, turns, spans = [], [], []
    for ti, t in enumerate(c.turns):
        if ti in drop:
            continue
        off = len(words) - t.start_word
        words += c.words[t.start_word : t.end_word]
        turns.append(Turn(t.speaker, t.start_word + off, t.end_word + off))
        spans += [dataclasses.replace(s, start_word=s.start_word + off, end_word=s.end_word + off)
                  for s in c.spans if t.start_word <= s.start_word < t.end_word]
    return Conversation(id=c.id + "_nopay", language=c.language, words=words, turns=turns, spans=spans)


def pay_range(c: Conversation) -> range | None:
    ss = [s for s in c.spans if s.category in PAY]
    return range(min(s.start_word for s in ss), max(s.end_word for s in ss)) if ss else None


def event_comparison(n_train: int, n_test: int) -> dict:
    train = []
    for s in range(200000, 200000 + n_train):
        train += [lower(generate_call(s, "en")), lower(without_pay(generate_call(s + 50000, "en")))]
    test = []
    for s in range(300000, 300000 + n_test):
        test += [lower(generate_call(s, "en")), lower(without_pay(generate_call(s + 50000, "en")))]
    snips = extract_snippets(train)
    cl = cluster_snippets(snips, k=5, seed=0)
    by_id = {c.id: c for c in train}
    share: dict[int, list[int]] = {}
    for sn, lab in zip(cl.snippets, cl.labels, strict=True):
        seed_word = sn.tokens[sn.seed].w0
        in_pay = any(s.category in PAY and s.start_word <= seed_word < s.end_word for s in by_id[sn.conv_id].spans)
        share.setdefault(lab, [0, 0])
        share[lab][0] += in_pay
        share[lab][1] += 1
    print(f"\n== event grammar (seed 000): {len(snips)} seed snippets from {len(train)} training calls, k=5")
    for info in describe_clusters(cl, top=6):
        print(f"  cluster {info.id}: {info.size:>4} snippets, {share[info.id][0] / share[info.id][1]:>4.0%} card seeds"
              f"  {', '.join(info.top_ngrams)}")
    # the analyst's choice, simulated: the clusters where most seeds are card details
    chosen = [k for k, (a, b) in share.items() if a / b >= 0.5]
    g = learn_grammar(cl, chosen, name="card transaction")
    print(f"  chosen clusters {chosen}; nodes {g.nodes}; sources {g.sources()}; sinks {g.sinks()}; "
          f"longest path {g.longest_path():.1f} s")

    def score(found) -> dict:
        tp = fp = fn = tn = 0
        covered = total = outside = marked = 0
        for c in test:
            ranges = found(c)
            gold = pay_range(c)
            hit = bool(ranges)
            if gold is None:
                fp += hit
                tn += not hit
                continue
            tp += hit
            fn += not hit
            marked_words = {w for a, b in ranges for w in range(a, b)}
            covered += len(set(gold) & marked_words)
            total += len(gold)
            outside += len(marked_words - set(gold))
            marked += len(marked_words)
        p = tp / (tp + fp) if tp + fp else 0.0
        r = tp / (tp + fn) if tp + fn else 0.0
        return {"precision": p, "recall": r, "coverage": covered / max(1, total),
                "outside": outside / max(1, marked)}

    rows = {
        "learnt event grammar": score(lambda c: [(m.start_word, m.end_word) for m in detect_events(g, c)]),
        "keyword baseline": score(lambda c: [(kw, e) for kw, _, e in keyword_matches(DetectDoc.from_conversation(c))]),
    }
    print(f"  {'method':<22}{'call P':>8}{'call R':>8}{'stretch covered':>17}{'marked outside':>16}")
    for name, r in rows.items():
        print(f"  {name:<22}{r['precision']:>8.3f}{r['recall']:>8.3f}{r['coverage']:>17.3f}{r['outside']:>16.3f}")
    print(f"  ({len(test)} test calls, half without a card transaction)")
    return {"grammar": g.to_dict(), "rows": rows, "chosen": chosen}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small sets (a smoke run)")
    ap.add_argument("--json", help="write all numbers to this JSON file")
    args = ap.parse_args()
    n_en, n_es, n_tp, n_tr, n_te = (20, 10, 30, 20, 10) if args.quick else (150, 80, 200, 60, 40)
    results = {"accuracy": accuracy(n_en, n_es), "throughput": throughput(n_tp),
               "event_grammar": event_comparison(n_tr, n_te)}
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1, default=float), encoding="utf-8")


if __name__ == "__main__":
    main()
