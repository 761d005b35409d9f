"""A recognizer match on written text, in characters, before it is mapped back to words."""

from __future__ import annotations

from typing import NamedTuple


class CharSpan(NamedTuple):
    """Characters ``[start, end)`` of a written text are ``category``. ``needs`` names the evidence the
    caller must still find nearby before proposing it ("context", "place"; "" when it stands alone)."""

    start: int
    end: int
    category: str
    score: float
    reason: str
    needs: str = ""
