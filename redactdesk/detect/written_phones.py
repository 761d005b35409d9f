"""Telephone numbers as written: every form :class:`phonenumbers.PhoneNumberMatcher` finds (leniency
STRICT_GROUPING: valid, and its digit groups those of a phone — "13100-000", a Brazilian postcode, is a
valid North-American number by its digits only) for the lexicon's region or with an international
prefix for any region ("(415) 555-0132", "415.555.0132", "+44 20 7946 0958", "+14155550132"), plus
two shapes people only use for phones:

- a national number written exactly as some region formats its numbers, with the area code in
  brackets ("(02) 1234 5678" is Sydney's format) — valid in that region;
- the North-American 3-3-4 shape with brackets or matching separators ("(555) 123-4567",
  "555.123.4567", "+1-555-123-4567 x204") even where the number is not assigned (test data, new
  area codes): the shape is the evidence, the score is lower.

Spoken digit runs are the pattern source's business (:mod:`redactdesk.detect.patterns`).
"""

from __future__ import annotations

import functools
import re

import phonenumbers
from phonenumbers import Leniency, PhoneNumberFormat

from redactdesk.detect.char_spans import CharSpan
from redactdesk.detect.validators import national_phone_region

_BRACKETED = re.compile(r"(?<![\w+(])\(\d{1,5}(?:-\d{1,5})?\)[ .-]?\d[\d .-]{3,16}\d(?!\w)")
_NANP = re.compile(
    r"(?<![\w+.-])(?:(?:(?:\+?1|001)[ .-]?)?(?:\(\d{3}\)[ ]?\d{3}[-. ]\d{4}|(?P<s>[-.])?\d{3}(?P<t>[-.])\d{3}(?P=t)\d{4})"
    r"|(?:\+1|001) \d{3} \d{3} \d{4})"  # "+1 768 538 6348": spaces only after the country code
    r"(?:\s?(?:x|ext\.?|extension)\s?\d{1,6})?(?![\w-]|\.\d)",
    re.IGNORECASE,
)
# a national number with its trunk prefix, in digit groups: "07700 900123", "020 7946 0958", "01 23 45 67 89"
_TRUNK_GROUPS = re.compile(r"(?<![\w+.,/-])(?<!\d[ -])0\d{1,5}(?:[ -]\d{2,8}){1,4}(?![\w/-]|[.,]\d|[ -]\d)")
# international, with the trunk prefix in brackets or the area code in brackets: "+44(0)1632 960 012",
# "+41 (0)37 117 71 51", "+90(273)4646869", "+(371) 95896935"
_INTERNATIONAL = re.compile(
    r"(?<![\w+])\+\(?\d{1,3}\)?(?:[ .-]?\(0\))?[ .-]?(?:\(\d{1,5}\)[ .-]?)?\d[\d .-]{4,16}\d"
    r"(?:\s?(?:x|ext\.?)\s?\d{1,6})?(?![\w/-]|[.,]\d)", re.IGNORECASE)
# a national number with the trunk-prefixed area code in brackets or before a slash, whatever the
# separators after it: "(02)-4796-6697", "(0251)-027346", "05366/97251027", "030/12345678"
_AREA_CODE = re.compile(r"(?<![\w+(/.-])(?:\(0\d{1,4}\)[ .-]?\d[\d .-]{4,12}|0\d{2,4}/\d[\d ]{4,12})\d"
                        r"(?![\w/-]|[.,]\d)")  # after a slash no hyphen: "0251/2019-2020" is a file
# digits in groups as any country writes a phone number ("25/102-7346", "06-46/869 5896",
# "(06)98/259-7919", "9474.6864"): a phone only after a word that says so ("Phone:", "call me at")
_PHONE_SHAPE = re.compile(r"(?<![\w+/.-])(?:\+\d{1,3}[ .-]?)?\(?\d{1,5}\)?(?:[ ./-]?\(?\d{1,5}\)?){1,5}(?![\w/-]|[.,]\d)")
_EXIT_CODE = re.compile(r"(?<![\w+.,/-])(?:00|011)(?=[ .-]?[1-9])")  # said or dialled for "+" (Europe, North America)
_EXTENSION = re.compile(r"\s?(?:x|ext\.?)\s?\d{1,6}$", re.IGNORECASE)
_MIXED = re.compile(r"\s[-–]\s")
_QUICK = re.compile(r"\d[\d\s().+-]{5,}\d")


@functools.lru_cache(maxsize=1)
def _regions_by_digits() -> dict[int, tuple[str, ...]]:
    """Regions by the digit count of their national numbers as written (national prefix included)."""
    out: dict[int, set[str]] = {}
    for region in phonenumbers.SUPPORTED_REGIONS:
        meta = phonenumbers.PhoneMetadata.metadata_for_region(region)
        if meta is None or meta.general_desc is None:
            continue
        prefix = len(meta.national_prefix or "")
        for n in meta.general_desc.possible_length or ():
            for k in {n, n + prefix}:
                out.setdefault(k, set()).add(region)
    return {k: tuple(sorted(v)) for k, v in out.items()}


def _regions_formatting(candidate: str) -> str | None:
    """A region whose national format writes this (valid) number exactly as ``candidate``."""
    want = re.sub(r"\s+", " ", candidate.strip())
    digits = sum(c.isdigit() for c in want)
    for region in _regions_by_digits().get(digits, ()):
        try:
            num = phonenumbers.parse(want, region)
        except phonenumbers.NumberParseException:
            continue
        if phonenumbers.is_valid_number(num) and phonenumbers.format_number(num, PhoneNumberFormat.NATIONAL) == want:
            return region
    return None


def _possible_international(candidate: str) -> bool:
    """Is ``candidate`` ("+44(0)1632 960 012") a possible number of the country its prefix names?"""
    digits = _EXTENSION.sub("", candidate).replace("(0)", "")
    try:
        return phonenumbers.is_possible_number(phonenumbers.parse(digits, None))
    except phonenumbers.NumberParseException:
        return False


def _inside_a_code(text: str, start: int, end: int) -> bool:
    """Is ``text[start:end]`` glued to letters or digits by a hyphen or slash ("CLM-2023-004512"), or
    the decimals of a number ("Pi is 3.14159265358")?"""
    before = text[max(0, start - 2):start]
    after = text[end:end + 2]
    return (len(before) == 2 and before[1] in "-/" and before[0].isalnum()) or (
        len(before) == 2 and before[1] == "." and before[0].isdigit()) or (
        len(after) == 2 and after[0] in "-/" and after[1].isalnum()) or (before[-1:].isalnum()) or after[:1].isalnum()


def grouped_as_phone(raw: str, region: str) -> bool:
    """Are the digits of ``raw``, written with separators ("13100-000", "415-555-0132"), grouped as
    phone numbers are somewhere (libphonenumber's strict grouping, for ``region`` or, with a "+", the
    number's own)? Digits written without separators, and digits said in words, are not judged: True.
    A Brazilian postcode "13100-000" is a valid North-American number by its digits, never by its groups."""
    if not re.search(r"\d[ ./-]+\d", raw) or re.search(r"[^\W\d_]", raw):
        return True
    digits = re.sub(r"\D", "", raw)
    return any(re.sub(r"\D", "", m.raw_string) == digits
               for m in phonenumbers.PhoneNumberMatcher(raw, region, leniency=Leniency.STRICT_GROUPING))


def find_phones(text: str, region: str) -> list[CharSpan]:
    """Phone numbers in written ``text`` (``region``: the lexicon's default, e.g. "US")."""
    if not _QUICK.search(text):
        return []
    out: list[CharSpan] = []
    for m in phonenumbers.PhoneNumberMatcher(text, region, leniency=Leniency.STRICT_GROUPING):
        if _MIXED.search(m.raw_string) and "." in m.raw_string:
            continue  # "3.10 - 50.06 - 5.04": decimals in a list, not a number
        if _inside_a_code(text, m.start, m.end):
            continue  # "CLM-2023-004512": the digits of a reference, not a phone in it
        num = m.number
        where = phonenumbers.region_code_for_number(num) or region
        intl = m.raw_string.lstrip().startswith("+")
        out.append(CharSpan(m.start, m.end, "PHONE", 0.9,
                            f"valid {where} phone number" + (" in international form" if intl else "")))
    taken = [(c.start, c.end) for c in out]

    def free(s: int, e: int) -> bool:
        return not any(s < b and a < e for a, b in taken)

    # an international call prefix written instead of the plus: "0049 30 1234567", "011 44 20 7946 0958"
    exits = {m.end() - 1: m.start() for m in _EXIT_CODE.finditer(text)}
    if exits:
        plussed = list(text)
        for plus_at, start in exits.items():
            plussed[start:plus_at + 1] = " " * (plus_at - start) + "+"
        for m in phonenumbers.PhoneNumberMatcher("".join(plussed), region, leniency=Leniency.STRICT_GROUPING):
            start = exits.get(m.start)
            if start is not None and free(start, m.end) and not _inside_a_code(text, start, m.end):
                where = phonenumbers.region_code_for_number(m.number) or region
                out.append(CharSpan(start, m.end, "PHONE", 0.9, f"valid {where} phone number after a call prefix"))
                taken.append((start, m.end))

    for m in _NANP.finditer(text):
        if m.group("s"):
            continue  # "-555-123-4567": part of something longer
        if free(m.start(), m.end()):
            out.append(CharSpan(m.start(), m.end(), "PHONE", 0.7, "North-American 3-3-4 phone number shape"))
            taken.append((m.start(), m.end()))
    # written exactly as some region formats its numbers: the area code in brackets ("(02) 1234
    # 5678"), or the trunk prefix 0 and the groups of that region ("07700 900123" in Britain)
    for rx in (_BRACKETED, _TRUNK_GROUPS):
        for m in rx.finditer(text):
            if free(m.start(), m.end()):
                where = _regions_formatting(m.group(0))
                if where:
                    out.append(CharSpan(m.start(), m.end(), "PHONE", 0.8, f"written in the national format of {where}"))
                    taken.append((m.start(), m.end()))
    # the shapes only phones have, whether or not the number is assigned: a country code with the
    # trunk prefix or the area code in brackets; a trunk-prefixed area code in brackets or before a slash
    for m in _INTERNATIONAL.finditer(text):
        if free(m.start(), m.end()) and not _inside_a_code(text, m.start(), m.end()) \
                and _possible_international(m.group(0)):
            out.append(CharSpan(m.start(), m.end(), "PHONE", 0.75, "phone number with a country code"))
            taken.append((m.start(), m.end()))
    for m in _AREA_CODE.finditer(text):
        if free(m.start(), m.end()) and not _inside_a_code(text, m.start(), m.end()):
            where = national_phone_region(re.sub(r"\D", "", m.group(0)), possible=True)
            if where:
                out.append(CharSpan(m.start(), m.end(), "PHONE", 0.7, f"phone number with its area code, as {where} writes it"))
                taken.append((m.start(), m.end()))
    return sorted(out)


def find_cued_phone_shapes(text: str) -> list[CharSpan]:
    """Digits in two or more groups, 7 to 15 of them (the lengths of national and international
    numbers), as countries group them ("25/102-7346" in Hungary, "9474.6864" in Singapore, whether
    or not the range is assigned): phones when a phone word comes before them, which
    :mod:`redactdesk.detect.identifiers` checks, after the written dates have taken theirs."""
    out = []
    for m in _PHONE_SHAPE.finditer(text):
        raw = m.group(0)
        digits = re.sub(r"\D", "", raw)
        groups = re.findall(r"\d+", raw)
        if len(groups) < 2 or not 7 <= len(digits) <= 15:
            continue
        if raw.startswith("+") and not _possible_international(raw):
            continue
        out.append(CharSpan(m.start(), m.end(), "PHONE", 0.7, "digits in phone groups after a phone word"))
    return out
