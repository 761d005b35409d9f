"""Public annotated text as detection material: readers, label mapping, and the spoken form.

The project's own generator and detector share their name lists, so numbers measured on generated
calls say little about the world. These readers turn public NER sets (WikiANN, Broad Twitter
Corpus, wikigold: ``token TAB tag`` or ``token SPACE tag``, IOB2) and SLURP's spoken commands
(character spans) into :class:`Sample` — a text with character spans in the project's taxonomy —
in two forms:

- **written**: the tokens detokenised the way people write ("Falls, South Dakota (USA)");
- **spoken**: what an ASR transcript of the same sentence looks like — lower case, punctuation
  dropped, digits said as words ("twenty twenty one"), apostrophes kept inside words.

Labels that are not personal data (SLURP's event names, media types, food, ...) are kept as
*neutral* or *negative* spans so a benchmark can check precision on them.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

# CoNLL entity types -> taxonomy categories (LOC covers cities, countries, regions, landmarks)
CONLL_LABELS = {"PER": "PERSON", "LOC": "LOCATION", "ORG": "ORGANIZATION", "GEO-LOC": "LOCATION",
                "PERSON": "PERSON", "LOCATION": "LOCATION", "ORGANIZATION": "ORGANIZATION"}
# SLURP labels that are personal data (its README): everything else is checked for false alarms
SLURP_LABELS = {"person": "PERSON", "email_address": "EMAIL", "place_name": "LOCATION",
                "business_name": "ORGANIZATION", "date": "DATE"}
# SLURP labels neither counted as hits nor as false alarms (public names of artists, "my info")
SLURP_NEUTRAL = frozenset({"artist_name", "audiobook_author", "personal_info", "radio_name"})
DIRECT = frozenset({"PERSON", "EMAIL", "PHONE", "CREDIT_CARD", "IBAN", "BANK_ACCOUNT", "SSN", "ES_ID",
                    "NATIONAL_ID", "PASSPORT", "IP_ADDRESS", "MAC_ADDRESS", "ADDRESS", "GENERIC_ID",
                    "USERNAME", "CVV", "CARD_EXPIRY", "VAT_ID", "DRIVER_LICENSE"})
# what a detector's categories mean when compared with coarse gold labels
LOCATION_LIKE = frozenset({"LOCATION", "CITY", "COUNTRY", "ADDRESS", "POSTCODE"})


@dataclass(frozen=True)
class GoldSpan:
    start: int
    end: int
    category: str  # taxonomy category, or "~label" for neutral, "!label" for a negative (not personal)

    @property
    def scored(self) -> bool:
        return not self.category.startswith(("~", "!"))

    @property
    def negative(self) -> bool:
        return self.category.startswith("!")


@dataclass
class Sample:
    """One text with gold character spans (end exclusive)."""

    id: str
    text: str
    spans: list[GoldSpan] = field(default_factory=list)
    source: str = ""

    def gold(self) -> list[GoldSpan]:
        return [s for s in self.spans if s.scored]


# ------------------------------------------------------------------------------------------- CoNLL
def read_conll_tokens(path: str | Path) -> Iterator[tuple[list[str], list[str]]]:
    """Sentences of (tokens, IOB2 tags) from ``token TAB tag`` or ``token SPACE tag`` lines."""
    tokens: list[str] = []
    tags: list[str] = []
    with open(path, encoding="utf-8", errors="replace") as fh:
        for line in fh:
            line = line.rstrip("\n")
            if not line.strip():
                if tokens:
                    yield tokens, tags
                tokens, tags = [], []
                continue
            if line.startswith("-DOCSTART-"):
                continue
            if "\t" in line:
                tok, _, tag = line.rpartition("\t")
            else:
                tok, _, tag = line.rpartition(" ")
            if not tok:
                continue
            tokens.append(tok)
            tags.append(tag.strip() or "O")
    if tokens:
        yield tokens, tags


def _entities(tags: Sequence[str]) -> list[tuple[int, int, str]]:
    """Token ranges [a, b) with their type from IOB2 (an I- after O starts an entity, as conlleval does)."""
    out: list[tuple[int, int, str]] = []
    start, kind = None, None
    for i, tag in enumerate([*tags, "O"]):
        prefix, _, t = tag.partition("-")
        if prefix == "B" or prefix == "O" or tag == "O" or (prefix == "I" and t != kind):
            if start is not None:
                out.append((start, i, kind or ""))
                start, kind = None, None
            if prefix in ("B", "I") and t:
                start, kind = i, t
    return out


_NO_SPACE_BEFORE = {",", ".", ";", ":", "!", "?", ")", "]", "}", "%", "'s", "n't", "'re", "'ll", "'ve", "'d", "'m"}
_NO_SPACE_AFTER = {"(", "[", "{", "$", "#", "@"}


def written_sample(tokens: Sequence[str], tags: Sequence[str], *, id: str = "", source: str = "",
                   labels: dict[str, str] = CONLL_LABELS) -> Sample:
    """Detokenise (no space before "," or ")", none after "(") and map entity types to categories;
    types not in ``labels`` (wikigold's MISC) become neutral spans."""
    starts, ends, parts = [], [], []
    pos = 0
    for i, tok in enumerate(tokens):
        if i and tok not in _NO_SPACE_BEFORE and tokens[i - 1] not in _NO_SPACE_AFTER:
            parts.append(" ")
            pos += 1
        starts.append(pos)
        parts.append(tok)
        pos += len(tok)
        ends.append(pos)
    text = "".join(parts)
    spans = []
    for a, b, kind in _entities(tags):
        cat = labels.get(kind.upper())
        spans.append(GoldSpan(starts[a], ends[b - 1], cat if cat else f"~{kind}"))
    return Sample(id=id, text=text, spans=spans, source=source)


def read_conll_samples(path: str | Path, *, source: str = "", limit: int | None = None) -> list[Sample]:
    out = []
    for n, (tokens, tags) in enumerate(read_conll_tokens(path)):
        if limit is not None and n >= limit:
            break
        out.append(written_sample(tokens, tags, id=f"{source}:{n}", source=source))
    return out


# ------------------------------------------------------------------------------------------- SLURP
def read_slurp(path: str | Path, *, limit: int | None = None) -> list[Sample]:
    """SLURP lines ``{id, text, spans: [{start, end, label}]}``; personal labels mapped, the rest
    kept as negatives (``!label``) or neutral (``~label``)."""
    out = []
    with open(path, encoding="utf-8") as fh:
        for n, line in enumerate(fh):
            if limit is not None and n >= limit:
                break
            if not line.strip():
                continue
            d = json.loads(line)
            spans = []
            for s in d.get("spans", []):
                label = str(s["label"])
                cat = SLURP_LABELS.get(label)
                if cat is None:
                    cat = ("~" if label in SLURP_NEUTRAL else "!") + label
                spans.append(GoldSpan(int(s["start"]), int(s["end"]), cat))
            out.append(Sample(id=f"slurp:{d.get('id', n)}", text=str(d["text"]), spans=spans, source="slurp"))
    return out


# ------------------------------------------------------------------------------------------ spoken
_WORD = re.compile(r"\S+")
_EDGE = re.compile(r"^[^\w@]+|[^\w@]+$", re.UNICODE)
_NUM = re.compile(r"\d+(?:[.,]\d+)*")


def _say_number(token: str, lang: str) -> str:
    from num2words import num2words

    digits = token.replace(",", "")
    try:
        if "." in digits:
            whole, _, frac = digits.partition(".")
            point = "point" if lang == "en" else "coma"
            return f"{num2words(int(whole), lang=lang)} {point} " + " ".join(num2words(int(d), lang=lang) for d in frac)
        n = int(digits)
        if len(digits) == 4 and 1100 <= n <= 2099 and lang == "en":
            return num2words(n, lang=lang, to="year")
        if len(digits) > 6:  # long digit strings are read digit by digit
            return " ".join(num2words(int(d), lang=lang) for d in digits)
        return num2words(n, lang=lang)
    except (ValueError, OverflowError, NotImplementedError):
        return token


def spoken_word(token: str, lang: str = "en") -> str:
    """One written token as ASR would write it: lower case, no edge punctuation, numbers as words."""
    t = _EDGE.sub("", token.lower())
    if not t:
        return ""
    at, dot = ("at", "dot") if lang == "en" else ("arroba", "punto")
    if "@" in t or re.match(r"(www\.|https?:)|\w\.(com|org|net|es|co|uk|de|io)$", t):
        t = re.sub(r"^https?://", "", t)
        t = t.replace("@", f" {at} ").replace(".", f" {dot} ")
    grouped = bool(re.search(r"\d[-./]\d", t))  # "555-0132", "12.04.2021": groups read digit by digit
    t = t.replace("-", " ").replace("/", " ")
    if grouped:
        t = re.sub(r"(?<=\d)\.(?=\d)", " ", t)
        t = re.sub(r"\d+", lambda m: " " + " ".join(_say_number(d, lang) for d in m.group()) + " "
                   if len(m.group()) > 2 or m.group().startswith("0") else " " + _say_number(m.group(), lang) + " ", t)
    t = _NUM.sub(lambda m: " " + _say_number(m.group(), lang) + " ", t)
    t = re.sub(r"[^\w@.' ]+", " ", t)
    t = re.sub(r"(?<!\w)[.']|[.'](?!\w)", " ", t)
    return " ".join(t.replace("-", " ").split())


def spoken_sample(sample: Sample, lang: str = "en") -> Sample:
    """The spoken form of ``sample`` with its spans carried over word by word."""
    parts: list[str] = []
    new_start: dict[int, int] = {}
    new_end: dict[int, int] = {}
    pos = 0
    for m in _WORD.finditer(sample.text):
        said = spoken_word(m.group(), lang)
        # characters of this written word map to the spoken word's range
        if said:
            if parts:
                parts.append(" ")
                pos += 1
            a = pos
            parts.append(said)
            pos += len(said)
            b = pos
        else:
            a = b = pos
        for k in range(m.start(), m.end() + 1):
            new_start.setdefault(k, a)
            new_end[k] = b
    text = "".join(parts)
    spans = []
    for s in sample.spans:
        keys = [k for k in range(s.start, s.end + 1) if k in new_start]
        if not keys:
            continue
        a = min(new_start[k] for k in keys if k < s.end) if any(k < s.end for k in keys) else new_start[keys[0]]
        b = max(new_end[k] for k in keys if k >= s.start and k < s.end) if any(s.start <= k < s.end for k in keys) \
            else a
        if b > a:
            spans.append(GoldSpan(a, b, s.category))
    return Sample(id=sample.id + ":spoken", text=text, spans=spans, source=sample.source + " (spoken)")


def spoken_samples(samples: Iterable[Sample], lang: str = "en") -> list[Sample]:
    out = []
    for s in samples:
        sp = spoken_sample(s, lang)
        if sp.text:
            out.append(sp)
    return out
