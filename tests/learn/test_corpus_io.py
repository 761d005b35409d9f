"""CoNLL / JSONL reading and writing, with clear errors."""

from __future__ import annotations

import pytest

from redactdesk.learn.corpus_io import read_corpus, write_conll, write_jsonl
from redactdesk.learn.errors import DataFormatError
from redactdesk.learn.tags import repair_iob2, spans_to_tags, tags_to_spans
from redactdesk.learn.utterances import Utterance


def _utts():
    return [
        Utterance(tokens=["what", "is", "your", "name"], tags=["O"] * 4, conversation_id="c1", turn_index=0),
        Utterance(tokens=["John", "Smith"], tags=["B-PERSON", "I-PERSON"], conversation_id="c1", turn_index=1,
                  role="customer"),
        Utterance(tokens=["hi"], tags=["O"], conversation_id="c2", turn_index=0),
    ]


@pytest.mark.parametrize("name", ["x.conll", "x.jsonl"])
def test_round_trip_keeps_tags_and_documents(tmp_path, name):
    path = tmp_path / name
    (write_conll if name.endswith("conll") else write_jsonl)(_utts(), path)
    back = read_corpus(path)
    assert [u.tokens for u in back] == [u.tokens for u in _utts()]
    assert [u.tags for u in back] == [u.tags for u in _utts()]
    # the previous turn of the same call is context; a new call starts fresh
    assert back[1].context == ["what", "is", "your", "name"]
    assert back[0].context is None and back[2].context is None


def test_conll_accepts_extra_columns_and_iob1(tmp_path):
    path = tmp_path / "a.conll"
    path.write_text("John\tNNP\tI-PERSON\nsaid\tVBD\tO\n\n-DOCSTART-\tO\n\nhi\tUH\tO\n", encoding="utf-8")
    utts = read_corpus(path)
    assert utts[0].tags == ["B-PERSON", "O"] and utts[1].tokens == ["hi"]


@pytest.mark.parametrize(("text", "message"), [
    ("John B-PERSON\n", "expected 'token<TAB>tag'"),
    ("John\tPERSON\n", "bad tag"),
])
def test_conll_errors_name_the_line(tmp_path, text, message):
    path = tmp_path / "bad.conll"
    path.write_text("ok\tO\n\n" + text, encoding="utf-8")
    with pytest.raises(DataFormatError, match=message) as err:
        read_corpus(path)
    assert "bad.conll:3" in str(err.value)


def test_jsonl_errors(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"tokens": ["a"], "tags": ["O"]}\n{"tokens": ["a", "b"], "tags": ["O"]}\n', encoding="utf-8")
    with pytest.raises(DataFormatError, match="bad.jsonl:2"):
        read_corpus(path)
    path.write_text("{not json\n", encoding="utf-8")
    with pytest.raises(DataFormatError, match="not JSON"):
        read_corpus(path)
    with pytest.raises(DataFormatError, match="no such corpus"):
        read_corpus(tmp_path / "none.conll")


def test_tags_spans_round_trip():
    tags = spans_to_tags(6, [(1, 3, "PERSON"), (4, 5, "CITY"), (2, 4, "PHONE")])  # overlap: first wins
    assert tags == ["O", "B-PERSON", "I-PERSON", "O", "B-CITY", "O"]
    assert tags_to_spans(tags) == [(1, 3, "PERSON"), (4, 5, "CITY")]
    assert repair_iob2(["I-CITY", "I-CITY", "I-PHONE", "O", "I-CITY"]) == ["B-CITY", "I-CITY", "B-PHONE", "O", "B-CITY"]
