"""Training settings shared by the app, the simulation and the benchmark."""

from __future__ import annotations

from dataclasses import asdict, dataclass

from redactdesk.learn.crf import CrfModel
from redactdesk.learn.features import FeatureExtractor


@dataclass(frozen=True)
class TrainingSettings:
    """L-BFGS with elastic net. ``max_copies``: identical labelled utterances (same words, tags and
    role -- "yes", "thank you") beyond this many copies are dropped before training; they add time,
    not information."""

    c1: float = 0.1
    c2: float = 0.05
    max_iterations: int = 30
    max_copies: int | None = 3

    def new_model(self, extractor: FeatureExtractor) -> CrfModel:
        return CrfModel(extractor=extractor, c1=self.c1, c2=self.c2, max_iterations=self.max_iterations,
                        max_copies=self.max_copies)

    def to_dict(self) -> dict:
        return asdict(self)
