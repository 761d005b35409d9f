"""What every generator shares: items, occurrences, the per-conversation context, the registry.

An *item* is one real-world value of a conversation (a first name, a card number, a date) with
all its *occurrences* (stretches of span tokens that say it, maybe in different forms: "Smith",
"S M I T H", "smith" inside an e-mail). A generator (one per substitution class of the taxonomy)
finds the occurrences in a span (``analyse``), draws a surrogate for an item (``generate``) and
says the surrogate in the form of one occurrence (``render``).
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from redactdesk.core.types import Conversation, Span
from redactdesk.substitute.errors import SubstitutionError
from redactdesk.substitute.gazetteer import Gazetteer
from redactdesk.substitute.mapping import PseudonymMap
from redactdesk.substitute.text import apply_case, case_of, norm, plain_letters, split_punct


@dataclass
class Piece:
    """What ``analyse`` reports: tokens ``[start, end)`` of a span say item ``key``."""

    start: int
    end: int
    form: str  # how it is said: name, short, spelled, digits, date, words, email, ...
    key: str
    klass: str
    category: str
    original: str  # display text of the original value
    value: Any = None
    info: dict[str, Any] = field(default_factory=dict)
    style: Any = None
    derived: bool = False


@dataclass
class Occurrence:
    span_index: int
    start: int
    end: int
    form: str
    style: Any = None
    original: str = ""
    said: list[str] = field(default_factory=list)  # the surrogate as said here (after rendering)
    revised_offset: int = 0  # where ``said`` starts among the span's revised tokens


@dataclass
class Item:
    key: str
    category: str
    klass: str
    original: str
    value: Any = None
    info: dict[str, Any] = field(default_factory=dict)
    occurrences: list[Occurrence] = field(default_factory=list)
    derived: bool = False
    surrogate: str | None = None
    locked: bool = False
    from_map: bool = False


class Generator:
    """Base class of a substitution class (name = the taxonomy's ``substitution`` value)."""

    name = "base"
    priority = 5  # lower runs first (names before the e-mails built from them)
    letters = False

    def analyse(self, ctx: Context, span_index: int, tokens: list[str], span: Span) -> list[Piece]:
        raise NotImplementedError

    def generate(self, ctx: Context, item: Item) -> str:
        raise NotImplementedError

    def render(self, ctx: Context, item: Item, occ: Occurrence, tokens: list[str]) -> list[str]:
        return phrase_tokens(item.surrogate or "", tokens)


REGISTRY: dict[str, Generator] = {}


def register(gen: Generator) -> Generator:
    REGISTRY[gen.name] = gen
    return gen


def generator(name: str) -> Generator:
    try:
        return REGISTRY[name]
    except KeyError:
        raise SubstitutionError(f"no surrogate generator for substitution class {name!r}") from None


def phrase_tokens(surrogate: str, original: Sequence[str]) -> list[str]:
    """Split a surrogate phrase into tokens with the original tokens' case and outer punctuation."""
    out = surrogate.split()
    if not out:
        return []
    cores = [split_punct(t)[1] for t in original] or [""]
    if len(original) == 1 and len(cores[0]) > 1 and cores[0][0] == "#" and cores[0][1].isalnum():
        # a hashtag stays one ("#japan" -> "#chile", "#SantaMonica" -> "#ColoradoSprings"): no word of
        # the surrogate may stand outside it
        c = case_of(cores[0][1:])
        words = [apply_case(w, c) if c in ("upper", "lower") else w[:1].upper() + w[1:] for w in out]
        lead, _, trail = split_punct(original[0])
        return [lead + "#" + "".join(words) + trail]
    for i, w in enumerate(out):
        c = case_of(cores[min(i, len(cores) - 1)])
        if c in ("upper", "lower"):
            out[i] = apply_case(w, c)
        elif c == "title" and case_of(w) in ("upper", "lower"):
            out[i] = apply_case(w, "title")
    if original:
        out[0] = split_punct(original[0])[0] + out[0]
        out[-1] = out[-1] + split_punct(original[-1])[2]
    return out


def hmac_seed(secret: str, *parts: str) -> int:
    msg = "\x1f".join(parts).encode("utf-8")
    return int.from_bytes(hmac.new(secret.encode("utf-8"), msg, hashlib.sha256).digest()[:16], "big")


class Context:
    """Per-conversation state of one substitution run (owned by :func:`substitute_conversation`)."""

    def __init__(self, conv: Conversation, language: str, gaz: Gazetteer, secret: str, pmap: PseudonymMap,
                 spans: list[Span]) -> None:
        if not secret:
            raise SubstitutionError("a project secret is needed to seed pseudonym choices")
        self.conv = conv
        self.language = language
        self.gaz = gaz
        self.secret = secret
        self.pmap = pmap
        self.spans = spans
        self.items: dict[str, Item] = {}
        self.used: dict[str, set[str]] = {}
        self.words = {norm(split_punct(w.text)[1]) for w in conv.words} - {""}
        self.salts: dict[str, str] = {}
        self.month_shift = 0
        self.offset_days = 0
        self.year_shift = 0
        self.ref_month = 6
        self._busy: set[str] = set()

    # -- spelling alphabet ---------------------------------------------------------------------
    @functools.cached_property
    def spelling_words(self) -> dict[str, str]:
        """The language's alphabet words, except one that *is* an item of this call: a caller from
        Toledo whose surname is spelled "T de Toledo" would hear the city again in the re-spelled
        surrogate (and the leak scan finds it). Such a letter takes a first name or city of the
        gazetteer that starts with it and is said nowhere in the call."""
        base = self.gaz.spelling_words
        originals = {norm(self.conv.span_text(s)) for s in self.spans}
        clash = {letter for letter, word in base.items() if norm(word) in originals}
        if not clash:
            return base
        out = dict(base)
        pool = [w for li in ("female_names", "male_names", "cities") if li in self.gaz.lists
                for w in self.gaz.entries(li) if len(w.split()) == 1]
        for letter in sorted(clash):
            fits = sorted({w for w in pool if plain_letters(w)[:1] == letter and norm(w) not in originals
                           and not self.in_conversation(w)})
            out[letter] = self.conv_rng(f"alphabet:{letter}").choice(fits) if fits else letter
        return out

    # -- randomness --------------------------------------------------------------------------
    def rng(self, item: Item, salt: str = "") -> random.Random:
        extra = self.salts.get(item.key, "")
        return random.Random(hmac_seed(self.secret, self.conv.id, item.category, item.key, salt + extra))

    def conv_rng(self, purpose: str) -> random.Random:
        return random.Random(hmac_seed(self.secret, self.conv.id, "conversation", purpose))

    # -- choosing among candidates -------------------------------------------------------------
    def in_conversation(self, candidate: str) -> bool:
        k = norm(candidate)
        return k in self.words or any(len(t) > 3 and t in self.words for t in k.split())

    def free(self, candidate: str, group: str, original: str = "") -> bool:
        k = norm(candidate)
        return bool(k) and k != norm(original) and k not in self.used.get(group, set()) and (
            not self.in_conversation(candidate))

    def pick(self, item: Item, candidates: Sequence[str], group: str, *, salt: str = "") -> str | None:
        """A candidate not said in the conversation and not yet used by another item of ``group``."""
        pool = list(dict.fromkeys(candidates))
        if not pool:
            return None
        rng = self.rng(item, salt)
        rng.shuffle(pool)
        for c in pool:
            if self.free(c, group, item.original):
                return c
        for c in pool:  # relax: allow a word said in the call, never the original or a used one
            if norm(c) != norm(item.original) and norm(c) not in self.used.get(group, set()):
                return c
        return None

    def claim(self, group: str, surrogate: str) -> None:
        self.used.setdefault(group, set()).add(norm(surrogate))

    # -- items -------------------------------------------------------------------------------
    def ensure_item(self, piece: Piece) -> Item:
        """The item for ``piece.key``, created (with no occurrences) when new."""
        it = self.items.get(piece.key)
        if it is None:
            it = Item(piece.key, piece.category, piece.klass, piece.original, piece.value, dict(piece.info),
                      derived=piece.derived)
            self.items[piece.key] = it
        return it

    def surrogate_of(self, key: str) -> str:
        """The item's surrogate: from the map when kept there, else generated now (once)."""
        item = self.items[key]
        if item.surrogate is not None:
            return item.surrogate
        if key in self._busy:
            raise SubstitutionError(f"circular surrogate dependency at {item.klass} item")
        self._busy.add(key)
        try:
            row = self.pmap.get(key)
            if row is not None and (row.locked or not item.derived):
                item.surrogate, item.locked, item.from_map = row.surrogate, row.locked, True
            else:
                item.surrogate = generator(item.klass).generate(self, item)
                item.locked = bool(row.locked) if row is not None else False
            self.claim(item.klass, item.surrogate)
        finally:
            self._busy.discard(key)
        return item.surrogate
