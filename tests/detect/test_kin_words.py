"""What a person is to the speaker ("mom", "my boss") names no one; a name beside it still does."""

import pytest

from redactdesk.detect.pipeline import detect_docs
from redactdesk.detect.sources import DetectDoc


@pytest.mark.parametrize("text", ["send a message to mom 's phone", "call mom", "text my boss that i am late",
                                  "remind me of grandma's birthday"])
def test_kin_words_alone_are_no_person(text, persons):
    assert persons(text) == []


def test_a_name_beside_a_kin_word_stays_a_person(persons):
    assert any("bob" in p for p in persons("uncle bob is coming for dinner"))
    assert any("maria" in p for p in persons("call my sister maria tomorrow"))


def test_a_kin_person_from_a_source_is_dropped_whatever_the_batch(monkeypatch):
    """The vote's PERSON over "mom 's" (the contextual tagger proposed it in one batch and not in
    another) is dropped after the vote, so the batch does not decide."""
    from redactdesk.detect import pipeline
    from redactdesk.detect.sources import Hit

    class Fake:
        name = "fake"
        categories = frozenset({"PERSON"})
        trusted = frozenset({"PERSON"})
        defaults: dict = {}

        def validate(self, params):
            return {}

        def apply(self, docs, params):
            return [[Hit(4, 6, "PERSON", 0.9, "fake", "test")] for _ in docs]

    monkeypatch.setattr(pipeline, "resolve_sources", lambda sources: [(Fake(), {})])
    doc = DetectDoc.from_words("send a message to mom 's phone".split(), "en")
    assert detect_docs([doc]) == [[]]


def only_source(monkeypatch, category, start, end):
    """Detection with one source, which proposes words ``[start, end)`` as a strong ``category``."""
    from redactdesk.detect import pipeline
    from redactdesk.detect.sources import Hit

    class Fake:
        name = "fake"
        categories = frozenset({category})
        trusted = frozenset({category})
        defaults: dict = {}

        def validate(self, params):
            return {}

        def apply(self, docs, params):
            return [[Hit(start, end, category, 0.9, "fake", "test", True)] for _ in docs]

    monkeypatch.setattr(pipeline, "resolve_sources", lambda sources: [(Fake(), {})])


@pytest.mark.parametrize(("words", "start", "end", "category"), [
    ("my mother's name is mary elizabeth johnson", 0, 2, "ORGANIZATION"),  # the contextual tagger's firm
    ("call my brother now", 1, 3, "PERSON"),
    ("we went to my grandma 's", 3, 6, "LOCATION"),
])
def test_an_owner_and_a_kin_word_are_no_name_of_any_kind(monkeypatch, words, start, end, category):
    """"my mother's" is what someone is to the speaker, whatever kind of name a source calls it."""
    only_source(monkeypatch, category, start, end)
    assert detect_docs([DetectDoc.from_words(words.split(), "en")]) == [[]]
    # an owner before a name that is no kin word keeps it: "my Tesco" is a firm
    doc = DetectDoc.from_words("i shop at my tesco".split(), "en")
    only_source(monkeypatch, category, 3, 5)
    assert len(detect_docs([doc])[0]) == 1


@pytest.mark.parametrize(("words", "start", "end", "category", "name"), [
    ("call my brother jake", 1, 4, "ORGANIZATION", "jake"),  # the contextual tagger's firm over all three
    ("text my sister's husband tom about dinner", 1, 5, "PERSON", "tom"),
    ("i'm calling about my son tyler", 3, 6, "LOCATION", "tyler"),
])
def test_an_owner_and_kin_words_before_a_name_leave_the_person(monkeypatch, words, start, end, category, name):
    """"my brother jake": what he is to the speaker opens no name; his listed name is the person,
    whatever kind a source called the whole."""
    only_source(monkeypatch, category, start, end)
    doc = DetectDoc.from_words(words.split(), "en")
    (spans,) = detect_docs([doc])
    assert [(" ".join(doc.words[s.start_word:s.end_word]), s.category) for s in spans] == [(name, "PERSON")]
    # a firm after an owner and a kin word that is no listed name stays the firm's ("my brother's acme corp")
    doc = DetectDoc.from_words("my brother's zyxcorp".split(), "en")
    only_source(monkeypatch, "ORGANIZATION", 0, 3)
    assert [s.category for s in detect_docs([doc])[0]] == ["ORGANIZATION"]


@pytest.mark.parametrize("text,name", [("she lives over in cardiff with her partner dev", "dev"),
                                       ("my wife dot is here with me", "dot"),
                                       ("my daughter kit is seven", "kit")])
def test_a_name_that_is_an_everyday_word_after_ones_kin_is_the_name(text, name):
    """"dev", "dot", "kit" are names and everyday words: after "her partner" the name list read a word
    and waited for a second source that never came."""
    from redactdesk.detect.pipeline import detect_texts

    assert (name, "PERSON") in [(text[s["start"]:s["end"]], s["category"]) for s in detect_texts([text], "en")[0]]


@pytest.mark.parametrize("text", ["what was the last thing my mom said", "my manager said no to that",
                                  "my wife says hello to you", "my son will be there at six",
                                  "my brother drew a map for us", "my husband sued the builder"])
def test_a_verb_after_ones_kin_is_no_name(text):
    from redactdesk.detect.pipeline import detect_texts

    assert not [s for s in detect_texts([text], "en")[0] if s["category"] == "PERSON"]


@pytest.mark.parametrize(("words", "start", "end", "category", "name"), [
    ("we went to see my sister kelly and her husband", 5, 7, "PERSON", "kelly"),  # the owner before the span
    ("i was talking to my aunt linda yesterday", 5, 7, "ORGANIZATION", "linda"),
])
def test_a_kin_word_after_an_owner_opens_no_name_when_the_span_starts_at_it(monkeypatch, words, start, end,
                                                                             category, name):
    """"my [sister kelly]": the contextual tagger's person began at the kin word; substitution
    would have replaced "sister" with a name. A kin word without an owner ("sister mary joseph", a
    nun's title) is left to the title rules."""
    only_source(monkeypatch, category, start, end)
    doc = DetectDoc.from_words(words.split(), "en")
    (spans,) = detect_docs([doc])
    assert [(" ".join(doc.words[s.start_word:s.end_word]), s.category) for s in spans] == [(name, "PERSON")]
    doc = DetectDoc.from_words("sister mary joseph taught us".split(), "en")
    only_source(monkeypatch, "PERSON", 0, 3)
    assert [(s.start_word, s.end_word) for s in detect_docs([doc])[0]] == [(0, 3)]


@pytest.mark.parametrize(("text", "name"), [("olly email my boss jennifer that i'm running late", "jennifer"),
                                            ("tell my husband mark that dinner is ready", "mark"),
                                            ("send my dad robert a message", "robert"),
                                            ("text my sister amy the address", "amy"),
                                            ("forward my brother sean the tickets", "sean")])
def test_a_name_after_ones_kin_before_what_one_is_told_stays_a_person(text, name, persons):
    """"my boss jennifer that ...": "that" was read as a verb's object, "jennifer" as what the boss did."""
    assert persons(text) == [name]


@pytest.mark.parametrize("text", ["my brother drew a map", "my son got a job", "my dad fixed the car"])
def test_a_verb_after_ones_kin_before_its_object_is_no_person(text, persons):
    assert persons(text) == []


@pytest.mark.parametrize(("text", "name"), [("set a reminder to pick up my niece emily from school", "emily"),
                                            ("pick up my son jake from school", "jake")])
def test_a_given_name_after_kin_that_is_an_object_is_a_person(text, name, persons):
    """"pick up my niece emily from school" gave no span: "emily", an everyday word too, needed the
    clause to go on as after a subject; after a verb's object no verb of the kin's own can follow."""
    assert persons(text) == [name]


def test_kin_opening_a_clause_keeps_its_verb(persons):
    assert persons("yesterday my sister rose early and then my brother drew a map") == []
