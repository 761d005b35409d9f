"""Errors of the synthetic corpus generator."""


class SynthError(Exception):
    """A bad argument or missing tool, with a message that says what to do."""
