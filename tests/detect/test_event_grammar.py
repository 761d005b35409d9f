"""Event grammar on a small built corpus: snippets, clusters, learnt graph, detection, JSON."""

import json

import pytest

from redactdesk.core.types import Conversation, Turn, Word
from redactdesk.detect.errors import GrammarError
from redactdesk.detect.event_grammar import (
    NUM_TOKEN,
    EventGrammar,
    cluster_snippets,
    describe_clusters,
    detect_events,
    event_spans,
    extract_snippets,
    learn_grammar,
    load_grammar,
    save_grammar,
)

DIGITS = "zero one two three four five six seven eight nine".split()


def spoken(num: str) -> list[str]:
    return [DIGITS[int(d)] for d in num]


def call(i: int, card: bool) -> Conversation:
    turns = [["hello", "thanks", "for", "calling", "how", "can", "i", "help"],
             ["my", "account", "number", "is", *spoken(f"{7000 + i}")]]
    if card:
        turns += [["okay", "the", "card", "number", "please"], spoken(f"4{i:03d}1111"),
                  ["and", "the", "expiry", "date"], spoken("0426")]
    turns += [["your", "ticket", "number", "is", *spoken(f"{55500 + i}")], ["thanks", "bye"]]
    words, out_turns, t = [], [], 0.0
    for k, tw in enumerate(turns):
        start = len(words)
        for w in tw:
            words.append(Word(w, t, t + 0.3, speaker=f"S{k % 2}"))
            t += 0.4
        out_turns.append(Turn(f"S{k % 2}", start, len(words)))
        t += 0.6
    return Conversation(id=f"c{i}_{card}", words=words, turns=out_turns)


@pytest.fixture(scope="module")
def corpus():
    return [call(i, i % 2 == 0) for i in range(24)]


def card_cluster(cl):
    infos = describe_clusters(cl)
    return [c.id for c in infos if any("card" in g or "expiry" in g for g in c.top_ngrams[:3])]


def test_snippets_and_clusters(corpus):
    snips = extract_snippets(corpus, window=6)
    assert len(snips) == 12 * 4 + 12 * 2  # card calls have 4 seed events, the others 2
    assert all(s.tokens[s.seed].text == NUM_TOKEN for s in snips)
    cl = cluster_snippets(snips, k=3, seed=1)
    infos = describe_clusters(cl)
    assert sum(i.size for i in infos) == len(snips)
    assert card_cluster(cl)


def test_learn_detect_and_serialise(corpus, tmp_path):
    cl = cluster_snippets(extract_snippets(corpus, window=6), k=3, seed=1)
    g = learn_grammar(cl, card_cluster(cl), n_features=6, name="card")
    assert NUM_TOKEN in g.nodes and g.edges
    assert all(e.min_gap <= e.max_gap for e in g.edges)
    assert g.sources() and g.sinks() and g.longest_path() > 0
    with_card, without = call(100, True), call(101, False)
    m = detect_events(g, with_card)
    assert m, "the card stretch is found"
    card_words = [i for i, w in enumerate(with_card.words) if w.text == "card"]
    assert m[0].start_word <= card_words[0] < m[0].end_word
    assert m[0].start <= with_card.words[card_words[0]].start
    assert detect_events(g, without) == []
    assert event_spans(g, with_card)[0].category == "CREDIT_CARD"
    path = tmp_path / "g.json"
    save_grammar(g, path)
    again = load_grammar(path)
    assert again.to_dict() == g.to_dict()


def test_bad_grammar_input(tmp_path, corpus):
    with pytest.raises(GrammarError, match="not an event grammar"):
        EventGrammar.from_dict({"nodes": []})
    with pytest.raises(GrammarError, match="unknown nodes"):
        EventGrammar.from_dict({"format": "redactdesk-event-grammar", "version": 1, "nodes": ["a"],
                                "edges": [{"from": "a", "to": "b", "min_gap": 0, "max_gap": 1}]})
    bad = tmp_path / "bad.json"
    bad.write_text("{", encoding="utf-8")
    with pytest.raises(GrammarError, match="cannot read"):
        load_grammar(bad)
    cl = cluster_snippets(extract_snippets(corpus, window=6), k=3, seed=1)
    with pytest.raises(GrammarError, match="no such cluster"):
        learn_grammar(cl, [7])
    with pytest.raises(GrammarError, match="at least 2 snippets"):
        cluster_snippets([], k=2)
    json.dumps(learn_grammar(cl, [0]).to_dict())
