"""An age said as a decade of life: "in his 30s", "in her early forties", "I'm in my mid-20s", said
"in his thirty s" (a recogniser's "30s"). Detection reads the decade after "in" and a possessive as an
age (:mod:`redactdesk.detect.age_decades`); substitution says another decade in the same form
(:class:`redactdesk.substitute.numeric.DigitsGenerator`): "30s" became "27L", "early forties" "[AGE]".
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

DECADE_WORDS = {"twenties": 20, "thirties": 30, "forties": 40, "fifties": 50, "sixties": 60, "seventies": 70,
                "eighties": 80, "nineties": 90}
TENS_WORDS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80,
              "ninety": 90}
MODIFIERS = frozenset({"early", "mid", "late"})
_WRITTEN = re.compile(r"(?:(early|mid|late)[-–])?([2-9]0)(['’]?s)", re.IGNORECASE)
_EDGE = ".,;:!?\"'()“”"


@dataclass(frozen=True)
class Decade:
    """A decade of life as said: its value (30), the form ("digits" "30s", "word" "thirties", "spoken"
    "thirty s") and where its tokens are (the modifier, if any, kept as said)."""

    value: int
    form: str
    start: int  # the token holding the decade (after a modifier of its own)
    suffix: str = "s"  # "s" or "'s" (written)
    lead: str = ""  # a modifier glued to it: "mid-" of "mid-30s"


def read_decade(tokens: Sequence[str]) -> Decade | None:
    """The decade that ``tokens`` say, a modifier ("early", "mid", "late") allowed before it, or None."""
    cores = [t.strip(_EDGE) for t in tokens]
    k = 1 if cores and cores[0].lower() in MODIFIERS else 0
    rest = cores[k:]
    if len(rest) == 1:
        m = _WRITTEN.fullmatch(rest[0])
        if m:
            lead = rest[0][:m.start(2)]
            return Decade(int(m.group(2)), "digits", k, m.group(3), lead)
        if rest[0].lower() in DECADE_WORDS:
            return Decade(DECADE_WORDS[rest[0].lower()], "word", k)
    if len(rest) == 2 and rest[0].lower() in TENS_WORDS and rest[1].lower() == "s":
        return Decade(TENS_WORDS[rest[0].lower()], "spoken", k)
    return None


def say_decade(decade: Decade, value: int, tokens: Sequence[str]) -> list[str]:
    """``tokens`` with the decade said as ``value`` in the same form (case and edge marks kept)."""
    out = list(tokens)
    raw = out[decade.start]
    core = raw.strip(_EDGE)
    head, tail = raw[:raw.find(core)], raw[raw.find(core) + len(core):]
    if decade.form == "digits":
        said = f"{decade.lead}{value}{decade.suffix}"
    elif decade.form == "word":
        said = next(w for w, v in DECADE_WORDS.items() if v == value)
    else:
        said = next(w for w, v in TENS_WORDS.items() if v == value)
    if core[:1].isupper():
        said = said[:1].upper() + said[1:]
    out[decade.start] = head + said + tail
    return out
