"""Training material for the transcript tagger: public NER text turned into what ASR writes.

The tagger reads words the way :class:`redactdesk.detect.sources.DetectDoc` cleans them — lower
case, punctuation stripped from the edges, empty words dropped — so its training sentences are
built the same way from public NER sets (spoken form: numbers said as words) and from our own
generated calls. Person names are swapped, with a probability, for names drawn from every Faker
locale (transliterated to Latin letters), so the model learns that a name is a name wherever it
comes from, not the few thousand names the English sets happen to hold.

Labels: PERSON, LOCATION, ORGANIZATION (the taxonomy's CITY/COUNTRY/ADDRESS count as LOCATION).
"""

from __future__ import annotations

import random
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from redactdesk.detect.tagger import clean_token
from redactdesk.learn.public_data import GoldSpan, Sample, spoken_sample

TAGGER_LABELS = ("PERSON", "LOCATION", "ORGANIZATION")
LABEL_OF = {"PERSON": "PERSON", "LOCATION": "LOCATION", "CITY": "LOCATION", "COUNTRY": "LOCATION",
            "ADDRESS": "LOCATION", "ORGANIZATION": "ORGANIZATION"}


@dataclass
class TaggedSentence:
    words: list[str]
    tags: list[str]  # IOB2 over TAGGER_LABELS; "" where the label is unknown (not taught)


def to_tagged(sample: Sample, keep_case: bool = False) -> TaggedSentence | None:
    """Whitespace words of ``sample`` cleaned (lower case unless ``keep_case``), with IOB2 tags from
    its gold spans (None when empty)."""
    words: list[str] = []
    tags: list[str] = []
    gold = [(g.start, g.end, LABEL_OF[g.category]) for g in sample.spans if g.category in LABEL_OF]
    neutral = [(g.start, g.end) for g in sample.spans if g.category.startswith("~")]
    prev: tuple[int, int, str] | None = None
    for m in re.finditer(r"\S+", sample.text):
        w = clean_token(m.group(), keep_case)
        if not w:
            continue
        owner = next((g for g in gold if g[0] < m.end() and m.start() < g[1]), None)
        if owner is None:
            # neutral labels (a public artist's name) are neither taught as names nor as non-names
            tags.append("" if any(a < m.end() and m.start() < b for a, b in neutral) else "O")
        else:
            tags.append(("I-" if owner == prev else "B-") + owner[2])
        prev = owner
        words.append(w)
    return TaggedSentence(words, tags) if words else None


# ------------------------------------------------------------------------------------- name swaps
def _latin(text: str) -> str | None:
    try:
        from anyascii import anyascii

        out = anyascii(text)
    except ImportError:
        out = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    out = re.sub(r"[^A-Za-z' -]", "", out).strip()
    return out or None


class WorldNames:
    """First names and surnames of every Faker locale, in Latin letters, drawn at random."""

    def __init__(self, seed: int = 0, per_locale: int = 60) -> None:
        from faker import Faker
        from faker.config import AVAILABLE_LOCALES

        self.rng = random.Random(seed)
        firsts: set[str] = set()
        lasts: set[str] = set()
        for loc in sorted(AVAILABLE_LOCALES):
            try:
                fake = Faker(loc)
                fake.seed_instance(seed)
                for _ in range(per_locale):
                    f, last = _latin(fake.first_name()), _latin(fake.last_name())
                    if f and len(f) > 1:
                        firsts.add(f)
                    if last and len(last) > 1:
                        lasts.add(last)
            except Exception:  # noqa: BLE001 - a locale without a person provider
                continue
        self.firsts = sorted(firsts)
        self.lasts = sorted(lasts)

    def name(self, parts: int) -> str:
        if parts <= 1:
            return self.rng.choice(self.lasts if self.rng.random() < 0.5 else self.firsts)
        middle = [self.rng.choice(self.firsts)] if parts >= 3 and self.rng.random() < 0.5 else []
        return " ".join([self.rng.choice(self.firsts), *middle, self.rng.choice(self.lasts)])


def swap_names(sample: Sample, names: WorldNames) -> Sample:
    """``sample`` with every PERSON span replaced by a world name of a similar number of words."""
    text, spans, shift = sample.text, [], 0
    out = text
    for g in sorted(sample.spans, key=lambda g: g.start):
        a, b = g.start + shift, g.end + shift
        if g.category != "PERSON":
            spans.append(GoldSpan(a, b, g.category))
            continue
        n = len(out[a:b].split())
        new = names.name(min(n, 3))
        if out[a:b].islower():
            new = new.lower()
        out = out[:a] + new + out[b:]
        spans.append(GoldSpan(a, a + len(new), "PERSON"))
        shift += len(new) - (g.end - g.start)
    return Sample(id=sample.id + ":swap", text=out, spans=spans, source=sample.source)


# ----------------------------------------------------------------------------- mention replacement
SWAPPED_MENTIONS = ("LOCATION", "ORGANIZATION")


def mention_pool(samples: Iterable[Sample]) -> dict[str, list[str]]:
    """The place and organisation mentions of ``samples`` by label, each once, in first-seen order."""
    pool: dict[str, dict[str, None]] = {k: {} for k in SWAPPED_MENTIONS}
    for s in samples:
        for g in s.spans:
            label = LABEL_OF.get(g.category)
            text = s.text[g.start:g.end].strip()
            if label in pool and text:
                pool[label][text] = None
    return {k: list(v) for k, v in pool.items()}


def swap_mentions(sample: Sample, pool: dict[str, list[str]], rng: random.Random) -> Sample:
    """``sample`` with every place and organisation replaced by another mention of its label from
    ``pool`` (mention replacement: the label is then read from the context, not the few names the
    training sets hold); lower case kept when the original was lower case."""
    out, spans, shift = sample.text, [], 0
    for g in sorted(sample.spans, key=lambda g: g.start):
        a, b = g.start + shift, g.end + shift
        label = LABEL_OF.get(g.category)
        if label not in SWAPPED_MENTIONS or not pool.get(label):
            spans.append(GoldSpan(a, b, g.category))
            continue
        new = rng.choice(pool[label])
        if out[a:b].islower():
            new = new.lower()
        out = out[:a] + new + out[b:]
        spans.append(GoldSpan(a, a + len(new), g.category))
        shift += len(new) - (b - a)
    return Sample(id=sample.id + ":mentions", text=out, spans=spans, source=sample.source)


# ----------------------------------------------------------------------------------- disfluencies
FILLERS = (("uh",), ("um",), ("you", "know"), ("like",), ("i", "mean"), ("so",), ("er",))


def disfluent(sentence: TaggedSentence, rng: random.Random, rate: float = 0.08) -> TaggedSentence:
    """``sentence`` as people say it: fillers ("uh", "you know") between words and a word said twice,
    each at about ``rate`` a gap, never inside a name (tagged O)."""
    words: list[str] = []
    tags: list[str] = []
    n = len(sentence.words)
    for i, (w, t) in enumerate(zip(sentence.words, sentence.tags, strict=True)):
        inside = t.startswith("I-")
        if i and not inside and rng.random() < rate:
            filler = rng.choice(FILLERS)
            words += filler
            tags += ["O"] * len(filler)
        words.append(w)
        tags.append(t)
        nxt = sentence.tags[i + 1] if i + 1 < n else "O"
        if t == "O" and not nxt.startswith("I-") and rng.random() < rate / 2:
            words.append(w)
            tags.append("O")
    return TaggedSentence(words, tags)


def training_sentences(samples: Iterable[Sample], *, swap: float = 0.5, seed: int = 0,
                       names: WorldNames | None = None, spoken: bool = True,
                       keep_case: bool = False, mentions: float = 0.0,
                       pool: dict[str, list[str]] | None = None,
                       disfluency: float = 0.0) -> list[TaggedSentence]:
    """Each sample in spoken form (as written when not ``spoken``; its case kept when ``keep_case``),
    its name-swapped copy with probability ``swap`` and, with probability ``mentions``, a copy whose
    places and organisations are other mentions from ``pool`` (default: the samples' own), tagged. In
    spoken form a share ``disfluency`` of the sentences is said with fillers and repeats."""
    samples = list(samples)
    rng = random.Random(seed)
    names = names or (WorldNames(seed) if swap else None)
    if mentions and pool is None:
        pool = mention_pool(samples)
    out: list[TaggedSentence] = []
    for s in samples:
        variants = [s]
        if names is not None and any(g.category == "PERSON" for g in s.spans) and rng.random() < swap:
            variants.append(swap_names(s, names))
        if (mentions and any(LABEL_OF.get(g.category) in SWAPPED_MENTIONS for g in s.spans)
                and rng.random() < mentions):
            variants.append(swap_mentions(s, pool or {}, rng))
        for v in variants:
            t = to_tagged(spoken_sample(v) if spoken else v, keep_case)
            if t is not None and spoken and disfluency and rng.random() < disfluency:
                t = disfluent(t, rng)
            if t is not None:
                out.append(t)
    return out


def generated_call_sentences(n_calls: int, seed: int = 200000, language: str = "en") -> list[Sample]:
    """Turns of freshly generated calls as samples (their PERSON/CITY/ORGANIZATION/... spans)."""
    from redactdesk.synth.script import generate_call

    out: list[Sample] = []
    for k in range(n_calls):
        conv = generate_call(seed + k, language)
        for t_i, turn in enumerate(conv.turns):
            pos, offsets, words = 0, {}, []
            for i in range(turn.start_word, turn.end_word):
                offsets[i] = (pos, pos + len(conv.words[i].text))
                words.append(conv.words[i].text)
                pos += len(conv.words[i].text) + 1
            spans = [GoldSpan(offsets[s.start_word][0], offsets[s.end_word - 1][1], s.category)
                     for s in conv.spans if turn.start_word <= s.start_word and s.end_word <= turn.end_word]
            out.append(Sample(id=f"gen{seed + k}:{t_i}", text=" ".join(words), spans=spans, source="generated"))
    return out


def bio_entities(tags: Sequence[str]) -> list[tuple[int, int, str]]:
    """[start, end) word ranges with their label from IOB2 tags."""
    out: list[tuple[int, int, str]] = []
    start, kind = None, None
    for i, tag in enumerate([*tags, "O"]):
        if tag.startswith("I-") and kind == tag[2:]:
            continue
        if start is not None:
            out.append((start, i, kind or ""))
            start, kind = None, None
        if tag[:2] in ("B-", "I-"):
            start, kind = i, tag[2:]
    return out


def slurp_half(samples: Sequence[Sample], half: int) -> list[Sample]:
    """SLURP utterances whose numeric id has parity ``half`` (0: trained on, 1: kept for evaluation)."""
    out = []
    for s in samples:
        tail = s.id.rsplit(":", 1)[-1]
        if tail.isdigit() and int(tail) % 2 == half:
            out.append(s)
    return out
