"""Errors of the learning stage; every message is meant for the user."""


class LearnError(Exception):
    """Base class for active-learning errors."""


class DataFormatError(LearnError):
    """A corpus file (CoNLL / JSONL) or an utterance is malformed."""


class ModelError(LearnError):
    """A model file is missing, damaged, or does not fit the data."""


class StrategyError(LearnError):
    """An unknown seed or query strategy, or bad parameters for one."""
