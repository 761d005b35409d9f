"""Word vectors from the bundled MiniLM wordpiece table: every word gets one, names sit with names,
and a spaCy pipeline trained with them reads them filled in on demand (none kept on disk)."""

from __future__ import annotations

import numpy as np
import pytest

from redactdesk.lang import word_vectors as wv


@pytest.fixture(scope="module")
def table():
    t = wv.word_vectors("en")
    assert t is not None, "resources/models/wordpieces_en is bundled"
    return t


def _cos(a: np.ndarray, b: np.ndarray) -> float:
    return float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b)))


def test_every_word_has_a_vector_even_one_no_vocabulary_holds(table):
    v = table.vectors(["szczepanski", "oyelaran-okafor", "zbigniewowa", "the", ""])
    assert v.shape == (5, table.dim)
    assert all(np.linalg.norm(row) > 0 for row in v[:4])  # rare names read as their wordpieces
    assert not v[4].any()  # nothing to read: zeros


def test_names_places_and_firms_are_nearer_their_kind_than_everyday_words(table):
    names, places, firms, everyday = (table.vectors(xs) for xs in (
        ["john", "maria", "smith"], ["london", "paris", "madrid"], ["google", "microsoft", "amazon"],
        ["table", "yesterday", "quickly"]))
    for group in (names, places, firms):
        within = np.mean([_cos(group[i], group[j]) for i in range(3) for j in range(3) if i != j])
        across = np.mean([_cos(g, e) for g in group for e in everyday])
        assert within > across + 0.1


def _pipeline(width: int):
    spacy = pytest.importorskip("spacy")
    nlp = spacy.blank("en")
    wv.reset_vectors(nlp, width)
    return nlp


def test_fill_vectors_adds_each_missing_word_once_with_the_tables_vector(table):
    nlp = _pipeline(table.dim)
    wv.fill_vectors(nlp, ["kowalski", "lives", "kowalski"], "en")
    assert nlp.vocab.has_vector("kowalski") and nlp.vocab.has_vector("lives")
    assert np.allclose(nlp.vocab.get_vector("kowalski"), table.vectors(["kowalski"])[0], atol=1e-5)
    rows = nlp.vocab.vectors.n_keys
    wv.fill_vectors(nlp, ["kowalski"], "en")
    assert nlp.vocab.vectors.n_keys == rows


def test_a_long_job_never_grows_the_table_past_its_cap(table, monkeypatch):
    monkeypatch.setattr(wv, "MAX_TABLE_ROWS", 50)
    nlp = _pipeline(table.dim)
    for k in range(10):
        wv.fill_vectors(nlp, [f"word{k}x{i}" for i in range(20)], "en")
        assert nlp.vocab.vectors.n_keys <= 50
    assert nlp.vocab.has_vector("word9x19")  # the latest words are there after a reset


def test_a_pipeline_wanting_vectors_of_another_width_is_refused(table):
    nlp = _pipeline(table.dim + 1)
    with pytest.raises(ValueError, match="width"):
        wv.fill_vectors(nlp, ["anna"], "en")


def test_a_pipeline_without_vectors_is_left_alone():
    spacy = pytest.importorskip("spacy")
    nlp = spacy.blank("en")
    wv.fill_vectors(nlp, ["anna"], "en")
    assert nlp.vocab.vectors.shape[1] == 0


def test_the_bundled_tagger_reads_vectors_and_keeps_none_on_disk():
    pytest.importorskip("spacy")
    from redactdesk.detect.tagger import model_dir

    spacy = pytest.importorskip("spacy")
    nlp = spacy.load(model_dir("en"))
    assert wv.uses_vectors(nlp)
    assert nlp.vocab.vectors.shape[0] <= 1  # recomputed on demand from the wordpiece table


def test_after_the_table_starts_again_every_word_of_the_batch_has_its_vector(table, monkeypatch):
    """A batch holding words the full table already had: the reset dropped their rows, and they were
    not added back (only the batch's new words were), so the tagger read zeros for them."""
    monkeypatch.setattr(wv, "MAX_TABLE_ROWS", 30)
    nlp = _pipeline(table.dim)
    wv.fill_vectors(nlp, ["kowalski"] + [f"first{i}" for i in range(20)], "en")
    wv.fill_vectors(nlp, ["kowalski"] + [f"second{i}" for i in range(20)], "en")  # 41 rows > 30: a reset
    assert nlp.vocab.vectors.n_keys <= 30
    assert nlp.vocab.has_vector("kowalski") and nlp.vocab.has_vector("second19")
    assert np.allclose(nlp.vocab.get_vector("kowalski"), table.vectors(["kowalski"])[0], atol=1e-5)
    assert not nlp.vocab.has_vector("first3")  # the old batch's words went with the reset


def test_a_table_replaced_behind_its_back_is_asked_again(table):
    nlp = _pipeline(table.dim)
    wv.fill_vectors(nlp, ["kowalski"], "en")
    wv.reset_vectors(nlp, table.dim)  # e.g. a learner version read back
    wv.fill_vectors(nlp, ["kowalski"], "en")
    assert nlp.vocab.has_vector("kowalski")
