"""The transcript tagger: its training data, its training script on a tiny corpus, and the source."""

from __future__ import annotations

import pytest

from redactdesk.learn.public_data import GoldSpan, Sample, read_conll_samples, spoken_sample
from redactdesk.learn.tagger_data import WorldNames, bio_entities, swap_names, to_tagged, training_sentences


def test_spoken_form_keeps_each_item_on_its_words():
    s = Sample("a", "Dr. Anna-Lena Berg (Oslo) paid $300 on 5 May 2021.",
               [GoldSpan(4, 18, "PERSON"), GoldSpan(20, 24, "LOCATION")])
    sp = spoken_sample(s)
    assert sp.text == "dr anna lena berg oslo paid three hundred on five may twenty twenty one"
    assert [sp.text[g.start:g.end] for g in sp.spans] == ["anna lena berg", "oslo"]
    t = to_tagged(sp)
    assert t.tags[:5] == ["O", "B-PERSON", "I-PERSON", "I-PERSON", "B-LOCATION"]
    assert bio_entities(t.tags) == [(1, 4, "PERSON"), (4, 5, "LOCATION")]


def test_name_swaps_draw_from_many_locales_and_keep_the_span():
    names = WorldNames(seed=3, per_locale=5)
    assert len(names.firsts) > 200 and all(n.isascii() for n in names.firsts)
    s = Sample("b", "yesterday john smith called", [GoldSpan(10, 20, "PERSON")])
    out = swap_names(s, names)
    (g,) = out.spans
    assert out.text[g.start:g.end] != "john smith" and out.text[g.start:g.end].islower()
    assert out.text.startswith("yesterday ") and out.text.endswith(" called")


def test_training_script_runs_on_a_tiny_corpus_and_writes_a_usable_model(tmp_path, tiny_public_data):
    pytest.importorskip("spacy")
    from redactdesk.learn.train_tagger import train

    report = train(tmp_path / "data", tmp_path / "model", calls=0, epochs=3, limit=40, swap=0.0)
    assert (tmp_path / "model" / "meta.json").exists()
    text = (tmp_path / "model" / "TRAINING.md").read_text()
    assert "WikiANN en train" in text and "ODC-BY" in text and "CC BY 4.0" in text
    assert report["sentences"] > 0 and 0.0 <= report["ents_f"] <= 1.0
    # the model reads the MiniLM wordpiece vectors but keeps none of their rows on disk
    import spacy

    from redactdesk.lang.word_vectors import uses_vectors

    nlp = spacy.load(tmp_path / "model")
    assert report["settings"]["vectors"] and uses_vectors(nlp) and nlp.vocab.vectors.shape[0] <= 1
    assert "wordpieces_en" in text


def test_the_cased_tagger_trains_on_sentences_as_written(tmp_path, tiny_public_data):
    pytest.importorskip("spacy")
    from redactdesk.learn.train_tagger import build_sentences, train

    sentences, lines = build_sentences(tmp_path / "data", calls=0, seed=0, limit=20, swap=0.0, cased=True)
    words = {w for s in sentences for w in s.words}
    assert {"Maria", "Lopez", "Paris"} & words and not {"maria", "paris"} & words
    spoken, _ = build_sentences(tmp_path / "data", calls=0, seed=0, limit=20, swap=0.0)
    assert not any(w[:1].isupper() for s in spoken for w in s.words)
    report = train(tmp_path / "data", tmp_path / "cased", calls=0, epochs=2, limit=40, swap=0.0, cased=True)
    text = (tmp_path / "cased" / "TRAINING.md").read_text()
    assert report["settings"]["cased"] and "cased writing" in text and "--cased" in text
    import json

    assert json.loads((tmp_path / "cased" / "meta.json").read_text())["name"].endswith("_cased")


def test_missing_public_data_says_where_it_should_be(tmp_path):
    from redactdesk.learn.train_tagger import build_sentences

    with pytest.raises(SystemExit, match="../shared/data"):
        build_sentences(tmp_path, calls=0, seed=0)


def test_conll_reader_reads_both_separators(tmp_path):
    p = tmp_path / "x.conll"
    p.write_text("Anna B-PER\nBerg I-PER\nsings O\n\nOslo\tB-LOC\n")
    a, b = read_conll_samples(p)
    assert a.text == "Anna Berg sings" and [(g.start, g.end, g.category) for g in a.spans] == [(0, 9, "PERSON")]
    assert b.text == "Oslo" and b.spans[0].category == "LOCATION"


def test_training_sentences_add_swapped_copies_of_name_sentences():
    s = [Sample("c", "we met anna berg", [GoldSpan(7, 16, "PERSON")]), Sample("d", "nothing here", [])]
    out = training_sentences(s, swap=1.0, seed=0, names=WorldNames(seed=0, per_locale=3))
    assert len(out) == 3


def test_slurp_weight_sets_how_often_the_even_ids_are_seen(tmp_path, tiny_public_data):
    """``train_encoder prepare --slurp-weight N``: the SLURP utterances trained on (even ids) appear N
    times; the odd ids, kept for evaluation, never."""
    import json

    from redactdesk.learn.train_tagger import build_sentences

    slurp = tmp_path / "data" / "spoken" / "slurp_devel_charspans.jsonl"
    slurp.parent.mkdir(parents=True)
    slurp.write_text(json.dumps({"id": 10, "text": "call maria lopez", "spans": [
        {"start": 5, "end": 16, "label": "person"}]}) + "\n" + json.dumps(
        {"id": 11, "text": "wake me at nine", "spans": []}) + "\n")

    def count(weight):
        sents, lines = build_sentences(tmp_path / "data", calls=0, seed=0, limit=5, swap=0.0, slurp_weight=weight)
        return sum(s.words == ["call", "maria", "lopez"] for s in sents), sum(s.words[:2] == ["wake", "me"]
                                                                                for s in sents), lines
    n3, odd, lines = count(3)
    assert (n3, odd) == (3, 0) and any("seen 3x" in line for line in lines)
    assert count(1)[0] == 1


def test_mention_replacement_swaps_places_and_firms_for_others_of_their_label():
    from redactdesk.learn.tagger_data import mention_pool, swap_mentions

    a = Sample("a", "she flew to Lagos for Shell", [GoldSpan(12, 17, "LOCATION"), GoldSpan(22, 27, "ORGANIZATION")])
    b = Sample("b", "Tom moved to Quito and joined Acme Corp",
               [GoldSpan(0, 3, "PERSON"), GoldSpan(13, 18, "CITY"), GoldSpan(30, 39, "ORGANIZATION")])
    pool = mention_pool([a, b])
    assert pool == {"LOCATION": ["Lagos", "Quito"], "ORGANIZATION": ["Shell", "Acme Corp"]}
    import random

    rng = random.Random(1)
    seen = set()
    for _ in range(20):
        out = swap_mentions(b, pool, rng)
        got = {(out.text[g.start:g.end], g.category) for g in out.spans}
        assert ("Tom", "PERSON") in got  # persons are the name swap's business
        place = next(t for t, c in got if c == "CITY")
        firm = next(t for t, c in got if c == "ORGANIZATION")
        assert place in pool["LOCATION"] and firm in pool["ORGANIZATION"]
        assert out.text == f"Tom moved to {place} and joined {firm}"
        seen.add((place, firm))
    assert len(seen) > 1
    # lower case stays lower case (spoken form)
    low = Sample("c", "off to lagos", [GoldSpan(7, 12, "LOCATION")])
    out = swap_mentions(low, {"LOCATION": ["Quito"], "ORGANIZATION": []}, rng)
    assert out.text == "off to quito" and out.text[out.spans[0].start:out.spans[0].end] == "quito"


def test_training_sentences_add_mention_swapped_copies_only_where_asked():
    s = [Sample("a", "she flew to Lagos", [GoldSpan(12, 17, "LOCATION")]),
         Sample("b", "he drove to Quito", [GoldSpan(12, 17, "LOCATION")]),
         Sample("c", "nothing here", [])]
    assert len(training_sentences(s, swap=0.0)) == 3
    out = training_sentences(s, swap=0.0, mentions=1.0)
    assert len(out) == 5 and all(t.tags[-1] == "B-LOCATION" for t in out if len(t.words) == 4)


def test_disfluent_sentences_keep_names_whole_and_tags_aligned():
    import random

    from redactdesk.learn.tagger_data import FILLERS, TaggedSentence, disfluent

    t = TaggedSentence(["my", "name", "is", "anna", "maria", "berg", "from", "oslo", "thanks"],
                       ["O", "O", "O", "B-PERSON", "I-PERSON", "I-PERSON", "O", "B-LOCATION", "O"])
    fillers = {w for f in FILLERS for w in f}
    changed = 0
    for k in range(50):
        out = disfluent(t, random.Random(k), rate=0.3)
        assert len(out.words) == len(out.tags)
        assert bio_entities(out.tags) and [out.words[a:b] for a, b, _ in bio_entities(out.tags)] == [
            ["anna", "maria", "berg"], ["oslo"]]
        assert all(tag == "O" for w, tag in zip(out.words, out.tags, strict=True) if w in fillers - set(t.words))
        changed += out.words != t.words
    assert changed > 40
    # the spoken sentences get them at the share asked, the written ones never
    s = [Sample(str(i), "well i called anna berg about the bill today", [GoldSpan(14, 23, "PERSON")])
         for i in range(40)]
    plain = training_sentences(s, swap=0.0)
    noisy = training_sentences(s, swap=0.0, disfluency=1.0)
    assert sum(a.words != b.words for a, b in zip(plain, noisy, strict=True)) > 20
    written = training_sentences(s, swap=0.0, disfluency=1.0, spoken=False)
    assert all(len(w.words) == 9 for w in written)
