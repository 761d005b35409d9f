"""Validation of candidate identifiers with python-stdnum and phonenumbers (no hand-written checksums)."""

from __future__ import annotations

import datetime as _dt
import functools
import ipaddress
import re

import phonenumbers
import phonenumbers.re_util
from stdnum import iban as _iban
from stdnum import isbn as _isbn
from stdnum import luhn
from stdnum.es import cif as _cif
from stdnum.es import dni as _dni
from stdnum.es import nie as _nie
from stdnum.us import rtn as _rtn
from stdnum.us import ssn as _ssn

from redactdesk.lang.lexicon import TLDS

# phonenumbers compiles its region patterns on every parse, through re's 512-entry cache; matching numbers of
# every region overflows it (a fifth of detection time on the written identifiers went to recompiling them).
# Its own switch keeps every compiled pattern (a few thousand, a few MB).
phonenumbers.re_util.enable_pattern_cache()

# an e-mail address: letters of any script in the name and the domain ("josé.garcía@telefónica.es":
# said aloud, ASR writes a brand with its accent; written, an internationalised domain), the top-level
# domain in ASCII letters (group 1). Detection finds addresses in running text with the same shape.
EMAIL_SHAPE = r"[^\W_][\w.%+'-]*@(?:[^\W_]|-)+(?:\.(?:[^\W_]|-)+)*\.([a-z]{2,})"
_EMAIL = re.compile(EMAIL_SHAPE)


def is_card(digits: str) -> bool:
    """A payment card number: 13-19 digits passing the Luhn check."""
    return digits.isdigit() and 13 <= len(digits) <= 19 and luhn.is_valid(digits)


def is_book_number(text: str) -> bool:
    """A valid ISBN as written: an ISBN-13 (978 / 979 prefix) or a hyphenated ISBN-10 ("0-306-40615-2")."""
    compact = re.sub(r"[\s-]", "", text)
    if not 10 <= len(compact) <= 13 or not _isbn.is_valid(compact):
        return False
    if len(compact) == 13:
        return compact[:3] in ("978", "979")
    # a written ISBN-10 is one token in four hyphenated groups; Whisper's spoken digits ("-9 -9 7 -2 ...")
    # also carry hyphens, but as signs before single digits
    return len(compact) == 10 and re.fullmatch(r"\d{1,5}-\d{1,7}-\d{1,7}-[\dXx]", text.strip()) is not None


def is_iban(text: str) -> bool:
    """An IBAN (country code, check digits, BBAN) per ISO 13616."""
    compact = re.sub(r"\s", "", text).upper()
    return 15 <= len(compact) <= 34 and _iban.is_valid(compact)


def phone_check(digits: str, region: str, *, plus: bool = False) -> tuple[bool, bool]:
    """(valid, possible) for a phone number read as digits, in ``region`` unless it had a plus. An
    international call prefix said or written instead of the plus ("0049 30 1234567", "011 44 20 ...")
    counts as the plus."""
    if not digits.isdigit() or not 6 <= len(digits) <= 15:
        return False, False
    try:
        num = phonenumbers.parse(("+" + digits) if plus else digits, None if plus else region)
    except phonenumbers.NumberParseException:
        num = None
    found = (phonenumbers.is_valid_number(num), phonenumbers.is_possible_number(num)) if num else (False, False)
    if not plus and not found[0]:
        for exit_code in _EXIT_CODES:
            if digits.startswith(exit_code) and len(digits) - len(exit_code) >= 8:
                valid, _possible = phone_check(digits[len(exit_code):], region, plus=True)
                if valid:
                    return True, True
    return found


_EXIT_CODES = ("00", "011")  # the international call prefixes of most of the world and of North America


@functools.lru_cache(maxsize=1)
def _trunk_regions_by_length() -> dict[int, tuple[str, ...]]:
    """Regions dialled with trunk prefix 0, by the digit count of their national numbers with it."""
    out: dict[int, list[str]] = {}
    for region in sorted(phonenumbers.SUPPORTED_REGIONS):
        meta = phonenumbers.PhoneMetadata.metadata_for_region(region)
        if meta is None or meta.national_prefix != "0" or meta.general_desc is None:
            continue
        for n in meta.general_desc.possible_length or ():
            out.setdefault(n + 1, []).append(region)
    return {k: tuple(v) for k, v in out.items()}


def national_phone_region(digits: str, *, possible: bool = False) -> str | None:
    """A region where ``digits``, led by the trunk prefix 0, is a valid national number
    ("07700900123" in GB) — with ``possible``, one of a possible length there; None when none."""
    if not digits.isdigit() or not digits.startswith("0"):
        return None
    check = phonenumbers.is_possible_number if possible else phonenumbers.is_valid_number
    for region in _trunk_regions_by_length().get(len(digits), ()):
        try:
            if check(phonenumbers.parse(digits, region)):
                return region
        except phonenumbers.NumberParseException:
            continue
    return None


def is_ssn(digits: str) -> bool:
    """A US social security number (area, group and serial rules of stdnum)."""
    return len(digits) == 9 and _ssn.is_valid(digits)


def is_routing(digits: str) -> bool:
    """A US ABA routing transit number (checksum)."""
    return len(digits) == 9 and _rtn.is_valid(digits)


def es_id_kind(text: str) -> str | None:
    """"DNI", "NIE" or "CIF" when ``text`` is a valid Spanish identifier, else None."""
    compact = re.sub(r"[\s-]", "", text).upper()
    if _dni.is_valid(compact):
        return "DNI"
    if _nie.is_valid(compact):
        return "NIE"
    if len(compact) == 9 and compact[0].isalpha() and _cif.is_valid(compact):
        return "CIF"
    return None


def is_ip(text: str) -> bool:
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True


def is_email(text: str, written: bool = False) -> bool:
    """An email address shape with a known top-level domain. ``written`` (one word with its "@"):
    any top-level domain of letters ("seun@mail.ng", "ana@firma.com.tr"); the short list is for
    addresses read aloud, where "at ... dot ..." also says other things."""
    m = _EMAIL.fullmatch(text.lower())
    if not m or ".." in text or "@." in text:
        return False
    return m.group(1) in TLDS or (written and m.group(1).isalpha() and m.group(1).isascii())


def is_date(year: int, month: int, day: int, first_year: int = 1900) -> bool:
    try:
        _dt.date(year, month, day)
    except ValueError:
        return False
    return first_year <= year <= 2100


def full_year(y: int) -> int:
    """Two-digit years as spoken ("eighty five" -> 1985, "twenty" -> 2020)."""
    if y >= 100:
        return y
    return 1900 + y if y > 30 else 2000 + y


def parse_expiry(digits_groups: list[str]) -> tuple[int, int] | None:
    """(month, year) of a card expiry read as digit groups: "04 26", "0426", "4 26", "12 2027"."""
    s = "".join(digits_groups)
    candidates: list[tuple[str, str]] = []
    if len(digits_groups) >= 2:
        candidates.append((digits_groups[0], "".join(digits_groups[1:])))
    if len(s) in (3, 4, 5, 6):
        candidates.append((s[:-2], s[-2:]) if len(s) in (3, 4) else (s[:-4], s[-4:]))
    for m, y in candidates:
        if not m or not y or len(m) > 2 or len(y) not in (2, 4):
            continue
        month, year = int(m), int(y)
        if 1 <= month <= 12 and (len(y) == 2 or 2000 <= year <= 2099):
            return month, 2000 + year if len(y) == 2 else year
    return None
