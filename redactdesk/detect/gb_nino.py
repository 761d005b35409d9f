"""NINO (UK National Insurance number).

Two prefix letters, six digits and a suffix letter, written whole or in pairs ("QQ 12 34 56 C").
python-stdnum has no module for it, and it is the identifier a British caller is asked for most;
this module gives the detector's catalog (:mod:`redactdesk.detect.stdnum_catalog`) the interface
of a stdnum module. The number has no check digit, so only its shape is validated; prefixes HMRC
never issues ("BG", "GB", "NK", "KN", "TN", "NT", "ZZ", and "D", "F", "I", "Q", "U", "V" first)
are accepted too, and so is any suffix letter (HMRC's are A-D): its own examples ("QQ 12 34 56 C")
and test data ("ZZ 41 15 78 T") use them, and what they stand for is still somebody's number.

>>> validate('QQ 12 34 56 C')
'QQ123456C'
>>> validate('AB123456C')
'AB123456C'
>>> format('ab123456c')
'AB 12 34 56 C'
"""

from __future__ import annotations

import re

from stdnum.exceptions import InvalidFormat, InvalidLength
from stdnum.util import clean

_SHAPE = re.compile(r"[A-Z]{2}\d{6}[A-Z]")


def compact(number: str) -> str:
    """The number without spaces, dots or hyphens, upper case."""
    return clean(number, " -.").strip().upper()


def validate(number: str) -> str:
    """The compact number, or a stdnum error when its length or shape is wrong."""
    number = compact(number)
    if len(number) != 9:
        raise InvalidLength()
    if not _SHAPE.fullmatch(number):
        raise InvalidFormat()
    return number


def is_valid(number: str) -> bool:
    try:
        return bool(validate(number))
    except (InvalidFormat, InvalidLength):
        return False


def format(number: str) -> str:  # noqa: A001 - the stdnum interface's name
    """The number as HMRC prints it: "AB 12 34 56 C"."""
    number = compact(number)
    return " ".join((number[:2], number[2:4], number[4:6], number[6:8], number[8:]))
