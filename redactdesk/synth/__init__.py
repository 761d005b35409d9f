"""Synthetic call-centre conversations with ground truth: text dialogues, espeak-ng voicing, demo corpus.

Text only (fast, no audio): :func:`generate_call`, :func:`generate_corpus`. Audio and files:
``redactdesk.synth.voice.synthesize`` and ``redactdesk.synth.corpus.make_corpus``.
"""

from redactdesk.synth.errors import SynthError
from redactdesk.synth.script import (
    DEMO_SEED,
    EVALUATION_SEED_MIN,
    REQUIRED_CATEGORIES,
    generate_call,
    generate_corpus,
)

__all__ = [
    "DEMO_SEED",
    "EVALUATION_SEED_MIN",
    "REQUIRED_CATEGORIES",
    "SynthError",
    "generate_call",
    "generate_corpus",
]
