"""Every exported format re-imports with the revised words and times; tags and placeholders line up."""

from __future__ import annotations

import json

import pytest

from redactdesk.core.types import Span, SpanStatus, Word
from redactdesk.formats import read_conversation_json, read_eaf, read_textgrid
from redactdesk.learn.corpus_io import read_conll, read_jsonl
from redactdesk.pipeline.export import export_release
from redactdesk.pipeline.export_formats import RevisionError, build_revised


@pytest.fixture
def release(project, out_root, kit):
    return export_release(project, out_root / "rel", **kit.kwargs())


def _revised_words(release, cid="call_1"):
    data = json.loads((release.path / "corpus" / f"{cid}.json").read_text())
    return [Word.from_dict(w) for w in data["words"]]


def _same(a, b, tol):
    assert [w.text for w in a] == [w.text for w in b]
    for x, y in zip(a, b, strict=True):
        assert x.start == pytest.approx(y.start, abs=tol) and x.end == pytest.approx(y.end, abs=tol)
        assert x.speaker == y.speaker


def test_json_reimports_with_revised_words_turns_and_items(release):
    conv = read_conversation_json(release.path / "corpus" / "call_1.json")
    words = _revised_words(release)
    _same(conv.words, words, 1e-9)
    assert [w.text for w in conv.words][6:8] == ["Bernadette", "Oakley"]
    assert [(s.start_word, s.end_word, s.category) for s in conv.spans] == \
        [(6, 8, "PERSON"), (11, 13, "PHONE"), (14, 15, "PERSON")]
    assert [t.speaker for t in conv.turns] == ["agent", "customer", "agent"]
    assert conv.audio_path.endswith("audio/call_1.wav")
    data = json.loads((release.path / "corpus" / "call_1.json").read_text())
    assert [a["surrogate"] for a in data["anonymised"]] == ["Bernadette Oakley", "0655 210987", "Bernadette"]
    assert data["speakers"] == [{"id": "agent", "role": "agent"}, {"id": "customer", "role": "customer"}]
    tokens = [t for u in data["utterances"] for t in u["tokens"]]
    assert [t["text"] for t in tokens] == [w.text for w in words]
    assert [t["item"] for t in tokens][6:8] == [0, 0]


def test_textgrid_reimports_with_matching_words_and_times(release):
    imported = read_textgrid(release.path / "textgrid" / "call_1.TextGrid")
    _same(imported.words, _revised_words(release), 1e-6)


def test_eaf_reimports_with_matching_words_and_times(release):
    imported = read_eaf(release.path / "eaf" / "call_1.eaf")
    _same(imported.words, _revised_words(release), 1e-3)  # ELAN keeps milliseconds


def test_conll_and_jsonl_tag_the_surrogates(release):
    conll = read_conll(release.path / "corpus.conll")
    assert len(conll) == 6  # three turns in each of two calls
    tokens = [t for u in conll[:3] for t in u.tokens]
    tags = [t for u in conll[:3] for t in u.tags]
    assert tokens == [w.text for w in _revised_words(release)]
    assert tags[6:8] == ["B-PERSON", "I-PERSON"] and tags[11:13] == ["B-PHONE", "I-PHONE"]
    assert tags[14] == "B-PERSON" and tags.count("O") == len(tags) - 5
    jsonl = read_jsonl(release.path / "corpus.jsonl")
    assert [u.tokens for u in jsonl] == [u.tokens for u in conll]
    assert [u.tags for u in jsonl] == [u.tags for u in conll]
    first = json.loads((release.path / "corpus.jsonl").read_text().splitlines()[1])
    assert first["speaker"] == "customer" and first["role"] == "customer" and len(first["times"]) == 9


def test_placeholders_are_consistent_within_a_call(release):
    lines = (release.path / "text" / "call_1.txt").read_text().splitlines()
    assert lines[2] == "customer: this is [PERSON_1] my number is [PHONE_1]"
    assert lines[3] == "agent: thanks [PERSON_1]"  # linked as one entity by the annotator


def test_build_revised_refuses_a_result_that_does_not_line_up():
    words = [Word(t, i, i + 0.5) for i, t in enumerate("call me at home".split())]
    from redactdesk.core.types import Conversation

    conv = Conversation(id="c", words=words, spans=[Span(1, 2, "PERSON", status=SpanStatus.ACCEPTED, id=7)])

    class R:
        span_id, category, surrogate = 7, "PERSON", "Ann Lee"

    with pytest.raises(RevisionError, match="line up"):
        build_revised(conv, words, [R()])  # two surrogate tokens expected, one word given
    with pytest.raises(RevisionError, match="no surrogate"):
        build_revised(conv, words, [])
    ok = build_revised(conv, [words[0], Word("Ann", 1, 1.25), Word("Lee", 1.25, 1.5), *words[2:]], [R()])
    assert [(i.start_word, i.end_word, i.placeholder) for i in ok.items] == [(1, 3, "[PERSON_1]")]


def test_placeholders_follow_surrogates_keys_and_entities():
    from redactdesk.core.types import Conversation

    words = [Word(t, i, i + 0.5) for i, t in enumerate("Ann and Bob and Ann and Robert and Bobby".split())]
    spans = [Span(i, i + 1, "PERSON", status=SpanStatus.ACCEPTED, id=i, entity="bob" if i in (2, 8) else None)
             for i in (0, 2, 4, 6, 8)]
    conv = Conversation(id="c", words=words, spans=spans)

    class R:
        def __init__(self, span_id, surrogate, keys=()):
            self.span_id, self.category, self.surrogate, self.keys = span_id, "PERSON", surrogate, keys

    reps = [R(0, "Eve"), R(2, "Dan"), R(4, "eve"), R(6, "Daniel", keys=("k-rob",)), R(8, "Danny")]
    revised = [Word(r.surrogate if i % 2 == 0 else w.text, w.start, w.end)
               for i, (w, r) in enumerate(zip(words, [x for r in reps for x in (r, r)], strict=False))]
    rev = build_revised(conv, revised, reps)
    # Ann/Ann share a surrogate; Bob/Bobby share the annotator's entity; Robert stands alone
    assert [it.placeholder for it in rev.items] == ["[PERSON_1]", "[PERSON_2]", "[PERSON_1]", "[PERSON_3]",
                                                    "[PERSON_2]"]
