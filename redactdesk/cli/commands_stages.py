"""Commands for the stages of the data path: transcribe, detect, eval, substitute, mask, simulate, review, export."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:
    """Stage commands are added here as their stages land."""
