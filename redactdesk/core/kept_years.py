"""Which categories' surrogates may keep the original's year: shared by substitution (which must
not keep any other number of an item) and the leak scan (which must not call the kept year a leak).

An event date moves by whole weeks (substitute/dates.py), so "5 March 2019" may become "26 March
2019": its year alone names no day. A birth date or a card expiry always moves its year.
"""

from __future__ import annotations

import re

YEAR_KEPT = frozenset({"DATE"})
YEAR = re.compile(r"(1\d|20)\d\d")  # detection reads a day and month's name with years from 1000 on


def kept_year(category: str, token: str) -> bool:
    """Is ``token`` a year that a surrogate of ``category`` may keep?"""
    return category in YEAR_KEPT and YEAR.fullmatch(token) is not None
