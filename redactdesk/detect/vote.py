"""Combine the sources' hits into spans by vote (seed 003).

Hits of related categories (a *family*: DATE / DATE_OF_BIRTH / MONTH / CARD_EXPIRY; CITY / COUNTRY)
that overlap form a cluster. The cluster stands when

* a source *trusted* for the hit's category proposed it (spaCy for PERSON and DATE, validated
  patterns for cards, IBANs, phones ...), or the hit is marked ``strong`` by its source, or
* at least half of the sources that could have proposed that family agree (two at least, unless
  only one could), or
* two sources read a name of any kind (person, organisation, place) over exactly the same two words
  or more: they disagree on the kind, not on the name ("a job at rio tinto": a firm to one, a place
  to another; neither family alone had a majority, and the name was lost). One word read two ways is
  as often a brand and a surname ("Prada"), or a piece of an e-mail address said aloud: the demo's
  suggestion precision fell from 0.92 to 0.91 with those.

A standing cluster becomes one span covering its hits, keeping every source that agreed, a score in
[0, 1] (noisy-OR of each source's best score) and a one-line reason. Spans of different families
that overlap are resolved by category priority (an email beats the name inside it), then score.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from redactdesk.core.types import Span, SpanStatus
from redactdesk.detect.sources import Hit, Source

FAMILIES: dict[str, str] = {
    "DATE": "DATE",
    "DATE_OF_BIRTH": "DATE",
    "MONTH": "DATE",
    "CARD_EXPIRY": "DATE",
    "CITY": "PLACE",
    "COUNTRY": "PLACE",
    "LOCATION": "PLACE",
}

# earlier wins when spans of different families overlap
PRIORITY: tuple[str, ...] = (
    "EMAIL", "IBAN", "CREDIT_CARD", "ES_ID", "SSN", "NATIONAL_ID", "VAT_ID", "IP_ADDRESS", "MAC_ADDRESS", "URL",
    "PHONE", "CARD_EXPIRY", "CVV",
    "ROUTING", "BANK_ACCOUNT", "PASSPORT", "PASSWORD", "USERNAME", "DATE_OF_BIRTH", "ADDRESS", "PERSON",
    "GENERIC_ID", "POSTCODE", "DATE", "ORGANIZATION", "NRP", "CITY", "COUNTRY", "LOCATION", "AGE", "MONEY", "MONTH",
    "PRODUCT", "OCCUPATION",
    "SPELLED_LETTERS",
)


# names, places and organisations: what a tagger may read into a piece of a code or a date
NAME_CATEGORIES = frozenset({"PERSON", "ORGANIZATION", "LOCATION", "CITY", "COUNTRY", "NRP"})

# numbers of the stdnum catalog: national and tax numbers of every country, some with loose formats
_CATALOG_NUMBERS = frozenset({"NATIONAL_ID", "VAT_ID"})

# the names of someone or something: two sources that read one of them over the same words agree that
# a name is there, whatever kind each calls it (a group, NRP, is no such name: "english")
_PROPER_NAMES = frozenset({"PERSON", "ORGANIZATION", "LOCATION", "CITY", "COUNTRY"})

# checksum- or structure-validated categories: nothing else wins an overlap against them
VALIDATED = frozenset({"EMAIL", "IBAN", "CREDIT_CARD", "ES_ID", "SSN", "NATIONAL_ID", "VAT_ID", "IP_ADDRESS",
                       "MAC_ADDRESS", "URL", "PHONE"})


@dataclass(frozen=True)
class VotePolicy:
    """Vote settings. ``trusted`` overrides a source's own ``trusted`` set when it names the source."""

    families: Mapping[str, str] = field(default_factory=lambda: dict(FAMILIES))
    priority: Sequence[str] = PRIORITY
    trusted: Mapping[str, frozenset[str]] = field(default_factory=dict)
    majority: float = 0.5  # a cluster stands when agreeing sources > majority * eligible sources
    keep_minority: bool = False  # keep non-standing clusters (score halved) instead of dropping them

    def family(self, category: str) -> str:
        return self.families.get(category, category)

    def rank(self, category: str) -> int:
        try:
            return list(self.priority).index(category)
        except ValueError:
            return len(self.priority) // 2  # project categories sit in the middle


DEFAULT_POLICY = VotePolicy()


def _clusters(hits: list[Hit]) -> list[list[Hit]]:
    """Connected groups of overlapping hits (hits sorted by start)."""
    hits = sorted(hits, key=lambda h: (h.start_word, -h.end_word))
    groups: list[list[Hit]] = []
    end = -1
    for h in hits:
        if groups and h.start_word < end:
            groups[-1].append(h)
            end = max(end, h.end_word)
        else:
            groups.append([h])
            end = h.end_word
    return groups


@dataclass
class _Candidate:
    start: int
    end: int
    category: str
    score: float
    sources: tuple[str, ...]
    reason: str
    rank: int
    strong: bool = False
    parts: tuple[tuple[int, int], ...] = ()  # ranges of the hits behind the candidate


def _trusted(policy: VotePolicy, sources: Mapping[str, Source], name: str) -> frozenset[str]:
    if name in policy.trusted:
        return policy.trusted[name]
    src = sources.get(name)
    return frozenset(getattr(src, "trusted", frozenset())) if src is not None else frozenset()


def combine(
    hits: Iterable[Hit],
    sources: Sequence[Source],
    policy: VotePolicy = DEFAULT_POLICY,
    *,
    forced: Iterable[Hit] = (),
) -> list[Span]:
    """Vote ``hits`` from ``sources`` into suggested spans ordered by position. ``forced`` hits (the
    deny list) stand without a vote and win every overlap."""
    by_name = {s.name: s for s in sources}
    fam_hits: dict[str, list[Hit]] = {}
    for h in hits:
        fam_hits.setdefault(policy.family(h.category), []).append(h)
    candidates: list[_Candidate] = []
    # which sources read some kind of name over exactly these words: two that disagree on the kind
    # still agree that a name is there ("for her job at rio tinto": a firm to one, a place to another)
    named: dict[tuple[int, int], set[str]] = {}
    for h in (h for fhits in fam_hits.values() for h in fhits
              if h.category in _PROPER_NAMES and h.end_word - h.start_word >= 2):
        named.setdefault((h.start_word, h.end_word), set()).add(h.source)
    for fam, fhits in fam_hits.items():
        fam_cats = {c for c, f in policy.families.items() if f == fam} | {fam} | {h.category for h in fhits}
        eligible = {s.name for s in sources if set(s.categories) & fam_cats}
        for group in _clusters(fhits):
            agree = sorted({h.source for h in group})
            trusted_hits = [h for h in group if h.strong or h.category in _trusted(policy, by_name, h.source)]
            n_eligible = max(len(eligible | set(agree)), 1)
            # half of the eligible sources, and two when there are two or more (one alone if it is the only one)
            stands = bool(trusted_hits) or len(agree) >= max(min(2, n_eligible), policy.majority * n_eligible) or (
                any(len(named.get((h.start_word, h.end_word), ())) >= 2 for h in group))
            if not stands and not policy.keep_minority:
                continue
            pool = trusted_hits or group
            best = max(pool, key=lambda h: (h.score, -policy.rank(h.category), h.end_word - h.start_word))
            category = best.category
            # the extent comes from the trusted (or strong) hits of the chosen category when there are
            # any — of every place category, so "houston texas" (a city, then its region) stays one
            # place — (an untrusted source only votes), else from all hits of that category
            members = [h for h in trusted_hits if h.category == category or fam == "PLACE"] or [
                h for h in group if h.category == category
            ] or [best]
            start = min(h.start_word for h in members)
            end = max(h.end_word for h in members)
            category = _specific_place(category, group, start, end) if fam == "PLACE" else category
            per_source: dict[str, float] = {}
            for h in group:
                per_source[h.source] = max(per_source.get(h.source, 0.0), h.score)
            miss = 1.0
            for s in per_source.values():
                miss *= 1.0 - s
            score = min(0.99, 1.0 - miss) if len(per_source) > 1 else best.score
            if not stands:
                score /= 2
            others = [s for s in agree if s != best.source]
            reason = best.reason + (f" (also {', '.join(others)})" if others else "")
            candidates.append(_Candidate(start, end, category, round(score, 3), tuple(agree), reason,
                                         policy.rank(category), any(h.strong for h in members),
                                         tuple((h.start_word, h.end_word) for h in group)))
    for h in forced:
        candidates.append(_Candidate(h.start_word, h.end_word, h.category, h.score, (h.source,), h.reason, -1, True))
    return resolve_overlaps(candidates)


def _specific_place(category: str, group: Sequence[Hit], start: int, end: int) -> str:
    """A place the vote calls a LOCATION (a tagger's word for any place) is the CITY or COUNTRY
    another source of the cluster read over exactly the same words: "the prime minister of cuba" is
    the country, as the list says, though the tagger's reading stood alone there. The category is
    what the revised text says in its place (another country, not a town: "prime minister of
    houston"). A COUNTRY the vote chose for a longer place than the country's own name ("the Jordan
    River": the list's country, the tagger's river) is that place."""
    whole = [h for h in group if (h.start_word, h.end_word) == (start, end)]
    # a word more before the country's own hit is an article a tagger took in ("the people's republic of china")
    if category == "COUNTRY" and not any(h.category == "COUNTRY" and h.end_word == end and h.start_word - start <= 1
                                         for h in group):
        # a country's name inside a longer place ("the Jordan River", "Chad Basin") is no country: the
        # revised text said "we camped by the Chile"
        return "CITY" if any(h.category == "CITY" for h in whole) else "LOCATION"
    if category != "LOCATION":
        return category
    same = [h for h in whole if h.category in ("COUNTRY", "CITY")]
    return max(same, key=lambda h: h.score).category if same else category


def _piece_of(c: _Candidate, d: _Candidate) -> bool:
    """Is ``c`` a piece of the strong item ``d`` that strictly holds it: a name inside an item of
    another kind, or a national or tax number inside an address?"""
    if c.rank < 0 or not d.strong or not (d.start <= c.start and c.end <= d.end and d.end - d.start > c.end - c.start):
        return False
    if c.category in NAME_CATEGORIES:
        return d.category != c.category
    return c.category in _CATALOG_NUMBERS and d.category == "ADDRESS"


def _overlapping(candidates: list[_Candidate]) -> Callable[[_Candidate], list[_Candidate]]:
    """The candidates that share a word with a given one, looked up through the words they cover:
    comparing every pair of a document's candidates took 7 s of a 30,000-word text with 6,000 of them."""
    cover: dict[int, list[int]] = {}
    for k, c in enumerate(candidates):
        for w in range(c.start, c.end):
            cover.setdefault(w, []).append(k)

    def near(c: _Candidate) -> list[_Candidate]:
        return [candidates[k] for k in sorted({k for w in range(c.start, c.end) for k in cover.get(w, ())})]

    return near


def _tiled_by_more_votes(c: _Candidate, candidates: list[_Candidate]) -> bool:
    """Do name candidates of other kinds, each inside ``c``, as strong and with more sources, cover
    every word of ``c``? (``candidates``: those sharing a word with ``c`` will do.)"""
    words: set[int] = set()
    for d in candidates:
        if (d is not c and d.category in NAME_CATEGORIES and d.category != c.category and c.start <= d.start
                and d.end <= c.end and d.strong >= c.strong and len(d.sources) > len(c.sources)):
            words.update(range(d.start, d.end))
    return len(words) == c.end - c.start


def _one_identifier_inside(spans: list[Span], c: _Candidate) -> Span | None:
    """The one kept span inside the generic reference ``c`` when it is an identifier of another kind
    and nothing else was kept there (an address's pieces stay its own; a name inside is no part of it)."""
    if c.category not in ("GENERIC_ID", "BANK_ACCOUNT"):
        return None
    inside = [s for s in spans if c.start <= s.start_word and s.end_word <= c.end]
    if len(inside) != 1 or inside[0].category in NAME_CATEGORIES or inside[0].category in ("ADDRESS", "SPELLED_LETTERS"):
        return None
    return inside[0]


def _grow_over(spans: list[Span], c: _Candidate, pieces: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """A strong name ``c`` that lost words to a name overlapping one of its ends leaves its ``pieces``
    (the words no kept span holds) to that name: the winner grows over the piece at ``c``'s end beyond
    it. Dropped, the piece went unflagged beside the name: the contextual tagger's organisation "kaiser
    permanente" lost "kaiser" to the name list's and the spaCy tagger's person, and "permanente" was
    left in the text. A piece no kept name touches stays dropped, as before. Returns the pieces grown over."""
    grown = []
    for p, q in pieces:
        for s in spans:
            if s.category not in NAME_CATEGORIES or not (s.start_word < c.end and c.start < s.end_word):
                continue
            if s.end_word == p and q == c.end:
                s.end_word = q
            elif s.start_word == q and p == c.start:
                s.start_word = p
            else:
                continue
            grown.append((p, q))
            break
    return grown


def resolve_overlaps(candidates: list[_Candidate]) -> list[Span]:
    """Keep the best candidate where they overlap (strong evidence first, then category priority, then
    score); a loser keeps its largest stretch not covered by a better span."""
    # a name strictly inside a strong item of another kind is a piece of it, not a name: "RY" of the
    # postcode "6846 RY", "Jan 5th" of "Jan 5th, 1990", "alpha bravo" of a reference; a person or place
    # of an organisation ("Johns Hopkins University", "Nicholson's Limited"), a person of a place
    # ("Saint Kitts and Nevis", "George Washington Bridge"), a place of a person ("Jack London").
    # Public dev sets: quasi recall written 85.4 -> 87.5 %, spoken 77.7 -> 79.1 %, written precision
    # 87.5 -> 87.2 % (asking two sources for the container kept a fifth of that). A person inside one
    # tagger's wide organisation is masked with it ("County Sheriff Don Eslinger"): covered, if in the
    # wrong kind
    # The same holds for the digits and letters of an address that some country's number format
    # happens to accept: "9420 APO AA 90324" of "PSC 7428, Box 9420, APO AA 90324" is a valid CNPJ.
    near = _overlapping(candidates)
    inside = {id(c) for c in candidates if any(_piece_of(c, d) for d in near(c))}

    # words that other kinds of name tile, each with more sources agreeing, are those names: "Cardiff,
    # Wales" is a city and a region to the place list and the contextual tagger, and an organisation
    # to the cased tagger alone ("Bank of America", only partly a place, stays the organisation)
    outvoted = {id(c) for c in candidates if c.category in NAME_CATEGORIES and c.rank >= 0
                and _tiled_by_more_votes(c, near(c))}
    candidates = [c for c in candidates if id(c) not in outvoted]

    def key(c: _Candidate) -> tuple:
        tier = -1 if c.rank < 0 else (0 if c.category in VALIDATED else 1) + (2 if id(c) in inside else 0)
        return (tier, not c.strong, c.rank, -c.score, -(c.end - c.start), c.start)

    order = sorted(candidates, key=key)
    taken = bytearray(max((c.end for c in candidates), default=0))  # words a kept span holds
    spans: list[Span] = []

    def free_pieces(a: int, b: int) -> list[tuple[int, int]]:
        """The runs of words of [a, b) no kept span holds, in order."""
        pieces = []
        k = a
        while k < b:
            if taken[k]:
                k += 1
                continue
            j = k
            while j < b and not taken[j]:
                j += 1
            pieces.append((k, j))
            k = j
        return pieces

    for c in order:
        pieces = free_pieces(c.start, c.end)
        if not pieces:
            continue
        if pieces != [(c.start, c.end)]:
            # a name keeps its longest leftover piece that some source proposed words inside on their
            # own; an identifier, a date or an address keeps every piece left of it (fail closed: "Rua
            # X, 120 - Centro, Campinas - SP, 13100-000" with the postcode read as a phone lost the
            # street, the district and the town; "my username is skywalker ninety nine" with the
            # tagger's person "skywalker" lost the digits. Public dev sets at 400: direct recall
            # identifiers spoken 97.0 -> 97.3 %, written 96.8 -> 96.9 %, addresses spoken 98.0 -> 98.3 %,
            # every precision unchanged)
            every_piece = c.category not in NAME_CATEGORIES and c.category != "SPELLED_LETTERS" and c.rank >= 0
            if not every_piece:
                proposed = [(a, b) for a, b in pieces if any(a <= x and y <= b for x, y in c.parts)]
                if not proposed:
                    if c.strong and c.category in NAME_CATEGORIES:
                        for p, q in _grow_over(spans, c, pieces):
                            taken[p:q] = b"\x01" * (q - p)
                    continue
                pieces = [max(proposed, key=lambda pq: pq[1] - pq[0])]
            elif (inner := _one_identifier_inside(spans, c)) is not None:
                # a reference read around a validated number ("e x 63 49 1 95 e": a NIE whose letters
                # the number's validator left out) is that number's item, whole: one span, not three
                taken[c.start:c.end] = b"\x01" * (c.end - c.start)
                inner.start_word, inner.end_word = min(inner.start_word, c.start), max(inner.end_word, c.end)
                continue
        else:
            pieces = [(c.start, c.end)]
        for p, q in pieces:
            taken[p:q] = b"\x01" * (q - p)
            spans.append(Span(p, q, c.category, SpanStatus.SUGGESTED, c.score, c.sources, c.reason))
    spans.sort(key=lambda s: (s.start_word, s.end_word))
    return spans


def propagate_names(words: Sequence[str], spans: list[Span], common: Iterable[str] = (),
                    stop: Iterable[str] = ()) -> list[Span]:
    """Once a word is a name in a call, its other uncovered occurrences are that name too ("thanks
    Claude" after "my name is Claude Bocca"). Everyday and stop words never spread."""
    common, stop = frozenset(common), frozenset(stop)
    lower = [w.lower().strip(".,;:!?\"'").removesuffix("'s").removesuffix("’s") for w in words]
    names: dict[str, tuple[int, int]] = {}
    for s in spans:
        if s.category != "PERSON":
            continue
        for i in range(s.start_word, s.end_word):
            w = lower[i]
            if len(w) > 2 and w.isalpha() and w not in common and w not in stop:
                names.setdefault(w, (s.start_word, s.end_word))
    if not names:
        return spans
    covered = [False] * len(words)
    for s in spans:
        for i in range(s.start_word, s.end_word):
            covered[i] = True
    added: list[Span] = []
    i = 0
    while i < len(words):
        if covered[i] or lower[i] not in names:
            i += 1
            continue
        j = i
        while j < len(words) and not covered[j] and lower[j] in names:
            j += 1
        a, b = names[lower[i]]
        added.append(Span(i, j, "PERSON", SpanStatus.SUGGESTED, 0.7, ("same_name",),
                          f"same word as the name at words {a}-{b - 1}"))
        i = j
    return sorted(spans + added, key=lambda s: (s.start_word, s.end_word))
