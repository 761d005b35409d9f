"""The spoken-form pool and test set that ``redactdesk simulate`` reads, from a public CoNLL file."""

import json

from redactdesk.learn.corpus_io import read_corpus
from redactdesk.learn.public_split import main

CONLL = """Maria\tB-PER
Lopez\tI-PER
visited\tO
Paris\tB-LOC
on\tO
12\tO
May\tO
.\tO

I\tO
work\tO
at\tO
Acme\tB-ORG
Bank\tI-ORG
!\tO

thanks\tO
John\tB-PER

see\tO
you\tO
in\tO
Madrid\tB-LOC
"""


def _run(tmp_path, out, seed=15):
    (tmp_path / "data" / "ner").mkdir(parents=True, exist_ok=True)
    (tmp_path / "data" / "ner" / "tiny.conll").write_text(CONLL, encoding="utf-8")
    return main(["--data", str(tmp_path / "data"), "--set", "ner/tiny.conll", "--pool", "3",
                 "--seed", str(seed), "--out", str(out)])


def test_the_split_is_spoken_form_reproducible_and_read_by_simulate(tmp_path):
    assert _run(tmp_path, tmp_path / "a") == 0
    pool = [json.loads(x) for x in (tmp_path / "a" / "pool.jsonl").read_text(encoding="utf-8").splitlines()]
    test = [json.loads(x) for x in (tmp_path / "a" / "test.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(pool) == 3 and len(test) == 1
    everything = pool + test
    first = next(x for x in everything if "lopez" in x["tokens"])
    # lower case, punctuation gone, numbers as words, tags kept on the words
    assert first["tokens"][:4] == ["maria", "lopez", "visited", "paris"] and "twelve" in first["tokens"]
    assert "." not in first["tokens"] and first["tags"][:2] == ["B-PERSON", "I-PERSON"]
    assert _run(tmp_path, tmp_path / "b") == 0  # the same seed gives the same split
    assert (tmp_path / "a" / "pool.jsonl").read_bytes() == (tmp_path / "b" / "pool.jsonl").read_bytes()
    assert len(read_corpus(tmp_path / "a" / "pool.jsonl")) == 3  # what simulate --train reads


def test_a_missing_set_is_a_clear_refusal(tmp_path, capsys):
    assert main(["--data", str(tmp_path), "--set", "ner/none.conll", "--out", str(tmp_path / "o")]) == 2
    assert "not found" in capsys.readouterr().err and not (tmp_path / "o").exists()
