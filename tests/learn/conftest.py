"""Shared fixtures for the learn tests: small generated corpora and a trained model (built once)."""

from __future__ import annotations

import pytest

from redactdesk.learn.crf import CrfModel
from redactdesk.learn.features import FeatureConfig
from redactdesk.learn.utterances import utterances_from_conversation

SEEDS_TRAIN = range(100_000, 100_030)
SEEDS_TEST = range(100_030, 100_040)


def _utts(seeds):
    from redactdesk.synth import generate_corpus

    return [u for c in generate_corpus(seeds) for u in utterances_from_conversation(c, gold_spans=True)]


@pytest.fixture(scope="session")
def train_utts():
    return _utts(SEEDS_TRAIN)


@pytest.fixture(scope="session")
def test_utts():
    return _utts(SEEDS_TEST)


@pytest.fixture(scope="session")
def trained(train_utts):
    return CrfModel(FeatureConfig(), c1=0.1, c2=0.05, max_iterations=40).fit(train_utts)


@pytest.fixture()
def tiny_public_data(tmp_path):
    """A folder shaped like ../shared/data with a tiny NER corpus in the files the taggers' training
    scripts read (people living in places, IOB2): the scripts run on it in seconds."""
    import random

    rng = random.Random(1)
    people = ["Maria Lopez", "John Smith", "Aiko Tanaka", "Olu Adeyemi", "Piotr Nowak", "Sara Berg"]
    places = ["Paris", "Lagos", "Osaka", "Lima", "Oslo", "Quito"]
    lines = []
    for _ in range(60):
        p, c = rng.choice(people).split(), rng.choice(places)
        lines += [f"{p[0]}\tB-PER", f"{p[1]}\tI-PER", "lives\tO", "in\tO", f"{c}\tB-LOC", ".\tO", ""]
    root = tmp_path / "data"
    for rel in ("ner/wikiann_en/train.conll", *(f"ner/btc/{x}.conll" for x in "abefg")):
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("\n".join(lines) + "\n")
    return root
