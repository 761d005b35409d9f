"""Event grammar (seed 000): learn where a sensitive *event* (e.g. a card transaction) happens in calls.

1. **Seed events**: every run of 3+ consecutive digits (after normalisation, so "four one one one"
   counts) with ``window`` tokens of context on each side -> :class:`Snippet`.
2. **Clustering** of the snippets by their context (TF-IDF of word 1-2-grams, k-means):
   :func:`cluster_snippets`; :func:`describe_clusters` lists each cluster's size and top n-grams so an
   analyst can pick the cluster(s) of the event of interest.
3. **Grammar**: :func:`learn_grammar` takes the chosen cluster ids; the nodes are the n-grams that
   discriminate those clusters from the rest (plus ``<num>``, the seed itself); an edge a -> b says b
   usually follows a with no other feature in between; its min/max time gap are the 20% / 80%
   quantiles of the observed gaps.
4. **Detection**: :func:`detect_events` finds source-to-sink paths in a new call that respect the order
   and the gaps (within a tolerance) and returns each event's time and word range, so the whole
   stretch can be masked. Grammars serialise to JSON (:meth:`EventGrammar.to_dict`, :func:`save_grammar`).
"""

from __future__ import annotations

import json
import math
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from redactdesk.core.types import Conversation, Span, SpanStatus
from redactdesk.detect.errors import GrammarError
from redactdesk.detect.normalize import NUM
from redactdesk.detect.sources import DetectDoc

NUM_TOKEN = "<num>"  # a run of min_digits+ digits: the seed event
SHORT_NUM = "<n>"  # a shorter number
FORMAT = "redactdesk-event-grammar"
SOURCE = "event_grammar"


@dataclass(frozen=True)
class EventToken:
    text: str
    w0: int
    w1: int
    start: float
    end: float


def event_tokens(doc: DetectDoc, min_digits: int = 3) -> list[EventToken]:
    """The call as tokens for the grammar: words lower-cased, digit runs collapsed to ``<num>``."""
    assert doc.norm is not None
    if doc.starts is None or doc.ends is None:
        raise GrammarError(f"conversation {doc.id!r} has no word times: the event grammar needs them")
    toks = doc.norm.tokens
    out: list[EventToken] = []
    i = 0
    while i < len(toks):
        t = toks[i]
        if t.kind == NUM and not t.ordinal:
            j = i
            digits = 0
            while j < len(toks) and toks[j].kind == NUM and not toks[j].ordinal and toks[j].seg == t.seg:
                digits += len(toks[j].text)
                j += 1
            w0, w1 = toks[i].w0, toks[j - 1].w1
            out.append(EventToken(NUM_TOKEN if digits >= min_digits else SHORT_NUM, w0, w1,
                                  doc.starts[w0], doc.ends[w1 - 1]))
            i = j
            continue
        out.append(EventToken(t.text, t.w0, t.w1, doc.starts[t.w0], doc.ends[t.w1 - 1]))
        i += 1
    return out


@dataclass
class Snippet:
    """A seed event with its context: tokens [a, b) of the call's event tokens, seed at ``seed``."""

    conv_id: str
    tokens: list[EventToken]
    seed: int  # index of the seed token inside ``tokens``

    def text(self) -> str:
        return " ".join(t.text for t in self.tokens)


def extract_snippets(
    convs: Sequence[Conversation | DetectDoc], *, window: int = 10, min_digits: int = 3, language: str | None = None
) -> list[Snippet]:
    """Every seed event (a run of ``min_digits``+ digits) with ``window`` tokens each side."""
    out: list[Snippet] = []
    for c in convs:
        doc = c if isinstance(c, DetectDoc) else DetectDoc.from_conversation(c, language)
        toks = event_tokens(doc, min_digits)
        for i, t in enumerate(toks):
            if t.text == NUM_TOKEN:
                a, b = max(0, i - window), min(len(toks), i + window + 1)
                out.append(Snippet(doc.id, toks[a:b], i - a))
    return out


@dataclass
class Clustering:
    snippets: list[Snippet]
    labels: list[int]
    k: int
    terms: list[str]
    matrix: Any  # sparse TF-IDF matrix, one row per snippet


@dataclass(frozen=True)
class ClusterInfo:
    id: int
    size: int
    top_ngrams: tuple[str, ...]
    example: str


def cluster_snippets(snippets: Sequence[Snippet], k: int = 5, *, seed: int = 0) -> Clustering:
    """Cluster snippets by context: TF-IDF of word 1-2-grams, k-means (scikit-learn)."""
    from sklearn.cluster import KMeans
    from sklearn.feature_extraction.text import TfidfVectorizer

    if len(snippets) < 2:
        raise GrammarError(f"need at least 2 snippets to cluster, got {len(snippets)}")
    k = max(1, min(k, len(snippets)))
    vec = TfidfVectorizer(ngram_range=(1, 2), token_pattern=r"\S+", lowercase=False, sublinear_tf=True)
    matrix = vec.fit_transform([s.text() for s in snippets])
    km = KMeans(n_clusters=k, n_init=10, random_state=seed)
    labels = km.fit_predict(matrix)
    return Clustering(list(snippets), [int(x) for x in labels], k, list(vec.get_feature_names_out()), matrix)


def _discriminating(cl: Clustering, chosen: set[int], top: int) -> list[tuple[str, float]]:
    mask = np.array([lab in chosen for lab in cl.labels])
    if not mask.any():
        raise GrammarError(f"no snippets in clusters {sorted(chosen)}")
    m = cl.matrix
    inside = np.asarray(m[mask].mean(axis=0)).ravel()
    outside = np.asarray(m[~mask].mean(axis=0)).ravel() if (~mask).any() else np.zeros_like(inside)
    support = np.asarray((m[mask] > 0).mean(axis=0)).ravel()
    score = (inside - outside) * support
    order = np.argsort(-score)
    return [(cl.terms[i], float(score[i])) for i in order[:top] if score[i] > 0]


def describe_clusters(cl: Clustering, top: int = 8) -> list[ClusterInfo]:
    """Each cluster's size, its most discriminating n-grams and one example snippet (for the analyst)."""
    out = []
    for c in range(cl.k):
        members = [s for s, lab in zip(cl.snippets, cl.labels, strict=True) if lab == c]
        if not members:
            continue
        grams = tuple(g for g, _ in _discriminating(cl, {c}, top))
        out.append(ClusterInfo(c, len(members), grams, members[0].text()))
    return out


@dataclass(frozen=True)
class Edge:
    src: str
    dst: str
    min_gap: float
    max_gap: float
    support: int


@dataclass
class EventGrammar:
    """A directed graph of ordered n-gram features with time-gap limits on its edges."""

    nodes: list[str]
    edges: list[Edge]
    name: str = "event"
    category: str = "CREDIT_CARD"
    language: str = "en"
    min_digits: int = 3
    meta: dict[str, Any] = field(default_factory=dict)

    def sources(self) -> list[str]:
        has_in = {e.dst for e in self.edges}
        return [n for n in self.nodes if n not in has_in and self._connected(n)]

    def sinks(self) -> list[str]:
        has_out = {e.src for e in self.edges}
        return [n for n in self.nodes if n not in has_out and self._connected(n)]

    def _connected(self, n: str) -> bool:
        return any(e.src == n or e.dst == n for e in self.edges) or len(self.nodes) == 1

    def out_edges(self, n: str) -> list[Edge]:
        return [e for e in self.edges if e.src == n]

    def longest_path(self) -> float:
        """Longest source-to-sink duration using the max gaps (the detection segment length)."""
        memo: dict[str, float] = {}

        def walk(n: str) -> float:
            if n not in memo:
                memo[n] = max((e.max_gap + walk(e.dst) for e in self.out_edges(n)), default=0.0)
            return memo[n]

        return max((walk(s) for s in self.sources()), default=0.0)

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT, "version": 1, "name": self.name, "category": self.category,
            "language": self.language, "min_digits": self.min_digits, "nodes": list(self.nodes),
            "edges": [{"from": e.src, "to": e.dst, "min_gap": round(e.min_gap, 4), "max_gap": round(e.max_gap, 4),
                       "support": e.support} for e in self.edges],
            "longest_path": round(self.longest_path(), 4), "meta": self.meta,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> EventGrammar:
        if not isinstance(d, dict) or d.get("format") != FORMAT:
            raise GrammarError(f"not an event grammar (expected format {FORMAT!r})")
        if d.get("version") != 1:
            raise GrammarError(f"unsupported event grammar version {d.get('version')!r}")
        try:
            nodes = [str(n) for n in d["nodes"]]
            edges = [Edge(str(e["from"]), str(e["to"]), float(e["min_gap"]), float(e["max_gap"]),
                          int(e.get("support", 0))) for e in d["edges"]]
        except (KeyError, TypeError, ValueError) as exc:
            raise GrammarError(f"event grammar is missing or has a bad field: {exc}") from exc
        unknown = {x for e in edges for x in (e.src, e.dst)} - set(nodes)
        if unknown:
            raise GrammarError(f"event grammar edges name unknown nodes: {sorted(unknown)}")
        return cls(nodes, edges, str(d.get("name", "event")), str(d.get("category", "CREDIT_CARD")),
                   str(d.get("language", "en")), int(d.get("min_digits", 3)), dict(d.get("meta") or {}))


def save_grammar(grammar: EventGrammar, path: str | Path) -> None:
    Path(path).write_text(json.dumps(grammar.to_dict(), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def load_grammar(path: str | Path) -> EventGrammar:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise GrammarError(f"cannot read event grammar {path}: {exc}") from exc
    return EventGrammar.from_dict(data)


def _occurrences(tokens: Sequence[EventToken], feature: str) -> list[tuple[int, int]]:
    """Token ranges [i, j) where the n-gram ``feature`` occurs."""
    words = feature.split(" ")
    n = len(words)
    return [(i, i + n) for i in range(len(tokens) - n + 1)
            if all(tokens[i + k].text == words[k] for k in range(n))]


def learn_grammar(
    cl: Clustering,
    clusters: Sequence[int],
    *,
    n_features: int = 8,
    min_support: float = 0.2,
    name: str = "event",
    category: str = "CREDIT_CARD",
    language: str = "en",
    min_digits: int = 3,
) -> EventGrammar:
    """Build the grammar from the analyst's chosen cluster ids (see :func:`describe_clusters`)."""
    chosen = {int(c) for c in clusters}
    bad = chosen - set(range(cl.k))
    if bad:
        raise GrammarError(f"no such cluster(s) {sorted(bad)}; clusters are 0..{cl.k - 1}")
    from redactdesk.lang.lexicon import load_lexicon

    stop = load_lexicon(language).stop_words
    feats = [g for g, _ in _discriminating(cl, chosen, n_features * 6)]
    # distinct nodes: skip n-grams of function words only, and n-grams sharing a word with a better
    # one ("code on", "on the", "the back" are one phrase; keep its best piece)
    picked: list[str] = []
    used_words: set[str] = set()
    for g in feats:
        words = set(g.split(" ")) - {NUM_TOKEN, SHORT_NUM}
        if not words or all(w in stop or not any(c.isalnum() for c in w) for w in words):
            continue
        if words & used_words:
            continue
        picked.append(g)
        used_words |= words
        if len(picked) >= n_features:
            break
    if NUM_TOKEN not in picked:
        picked.append(NUM_TOKEN)
    members = [s for s, lab in zip(cl.snippets, cl.labels, strict=True) if lab in chosen]
    # first occurrence time of each feature in each member snippet
    follows: Counter[tuple[str, str]] = Counter()
    gaps: dict[tuple[str, str], list[float]] = defaultdict(list)
    present: Counter[str] = Counter()
    rel_pos: dict[str, list[float]] = defaultdict(list)
    for s in members:
        found: list[tuple[float, str]] = []
        for f in picked:
            if f == NUM_TOKEN:
                found.append((s.tokens[s.seed].start, f))
                continue
            occ = _occurrences(s.tokens, f)
            if occ:
                found.append((s.tokens[occ[0][0]].start, f))
        found.sort()
        for t, f in found:
            present[f] += 1
            rel_pos[f].append(t - s.tokens[s.seed].start)
        for (ta, a), (tb, b) in zip(found, found[1:], strict=False):
            follows[(a, b)] += 1
            gaps[(a, b)].append(tb - ta)
    nodes = [f for f in picked if present[f] >= max(1, math.ceil(min_support * len(members)))]
    if NUM_TOKEN not in nodes:
        nodes.append(NUM_TOKEN)
    order = sorted(nodes, key=lambda f: float(np.mean(rel_pos[f])) if rel_pos[f] else 0.0)
    rank = {f: i for i, f in enumerate(order)}
    edges: list[Edge] = []
    min_count = max(1, math.ceil(min_support * len(members) / 2))
    for (a, b), cnt in follows.items():
        if a not in rank or b not in rank or rank[a] >= rank[b] or cnt < min_count:
            continue
        if follows.get((b, a), 0) > cnt:
            continue
        g = np.array(gaps[(a, b)], dtype=float)
        edges.append(Edge(a, b, float(np.quantile(g, 0.2)), float(np.quantile(g, 0.8)), int(cnt)))
    used = {x for e in edges for x in (e.src, e.dst)}
    nodes = [n for n in order if n in used] or [NUM_TOKEN]
    edges.sort(key=lambda e: (rank[e.src], rank[e.dst]))
    return EventGrammar(nodes, edges, name, category, language, min_digits,
                        {"clusters": sorted(chosen), "snippets": len(members)})


@dataclass(frozen=True)
class EventMatch:
    start: float
    end: float
    start_word: int
    end_word: int
    path: tuple[str, ...]


def detect_events(
    grammar: EventGrammar,
    conv: Conversation | DetectDoc,
    *,
    tolerance: float = 1.0,
    slack: float = 0.5,
    min_nodes: int = 2,
    trailing: int = 3,
) -> list[EventMatch]:
    """Time ranges where a source-to-sink path of the grammar occurs, in order and within the gaps.

    A gap d between consecutive features must satisfy ``min_gap*(1-slack) - tolerance <= d <=
    max_gap*(1+slack) + tolerance`` (the 20%/80% quantiles alone would reject 40% of true events).
    Overlapping matches are merged; a number starting within ``trailing`` tokens after a match's end
    (the code read after "security code") is taken into the stretch.
    """
    doc = conv if isinstance(conv, DetectDoc) else DetectDoc.from_conversation(conv, grammar.language)
    toks = event_tokens(doc, grammar.min_digits)
    occ: dict[str, list[tuple[int, int]]] = {n: _occurrences(toks, n) for n in grammar.nodes}
    sinks = set(grammar.sinks())
    matches: list[tuple[int, int, tuple[str, ...]]] = []  # token range and path

    def extend(node: str, i: int, j: int, first: int, path: tuple[str, ...]) -> None:
        if node in sinks and len(path) >= min(min_nodes, len(grammar.nodes)):
            matches.append((first, j, path))
            return
        t_a = toks[i].start
        for e in grammar.out_edges(node):
            lo = e.min_gap * (1 - slack) - tolerance
            hi = e.max_gap * (1 + slack) + tolerance
            for a, b in occ.get(e.dst, ()):
                d = toks[a].start - t_a
                if a > i and lo <= d <= hi:
                    extend(e.dst, a, b, first, (*path, e.dst))
                    break  # the nearest fitting occurrence is enough

    for src in grammar.sources():
        for a, b in occ.get(src, ()):
            extend(src, a, b, a, (src,))
    grown = []
    for a, b, path in matches:
        k = b
        while k < len(toks) and k < b + trailing:
            if toks[k].text in (NUM_TOKEN, SHORT_NUM):
                b = k + 1
            k += 1
        grown.append((a, b, path))
    matches = sorted(grown)
    merged: list[list[Any]] = []
    for a, b, path in matches:
        if merged and a < merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], b)
            continue
        merged.append([a, b, path])
    out = []
    for a, b, path in merged:
        w0, w1 = toks[a].w0, toks[b - 1].w1
        out.append(EventMatch(toks[a].start, toks[b - 1].end, w0, w1, tuple(path)))
    return out


def event_spans(grammar: EventGrammar, conv: Conversation, **kw: Any) -> list[Span]:
    """Detected events as suggested spans of the grammar's category (to mask the whole stretch)."""
    return [
        Span(m.start_word, m.end_word, grammar.category, SpanStatus.SUGGESTED, 0.7, (SOURCE,),
             f"event '{grammar.name}': {' -> '.join(m.path)}")
        for m in detect_events(grammar, conv, **kw)
    ]
