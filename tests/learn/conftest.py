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
