"""Digit-string classes: cards, phones, IDs, account numbers, amounts, IP addresses.

Each keeps the original's spoken form unit by unit (see :mod:`redactdesk.substitute.digits`) and
adds the rules of its kind: card numbers keep their length and issuer digit and pass Luhn; US
phone numbers use the fictional 555-01xx range when the form allows it; Spanish IDs get a valid
check letter; IBANs a valid checksum; IP addresses a documentation range (RFC 5737).
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Callable

from stdnum import iban as std_iban
from stdnum import luhn
from stdnum.es import ccc as es_ccc
from stdnum.es import cif as es_cif
from stdnum.es import dni as es_dni
from stdnum.es import nie as es_nie
from stdnum.us import rtn as us_rtn
from stdnum.us import ssn as us_ssn

from redactdesk.core.types import Span
from redactdesk.lang.decades import Decade, read_decade, say_decade
from redactdesk.substitute import digits as D
from redactdesk.substitute.base import Context, Generator, Item, Occurrence, Piece, register
from redactdesk.substitute.text import norm, split_punct

Validator = Callable[[str], bool]


class DigitsGenerator(Generator):
    """Any digit string (account, ticket, postcode, CVV, age ...): same form, new digits."""

    name = "digits"
    priority = 2
    letters = True

    def analyse(self, ctx: Context, span_index: int, tokens: list[str], span: Span) -> list[Piece]:
        decade = read_decade(tokens) if span.category == "AGE" else None
        if decade is not None:  # "in his 30s", "in her early forties": another decade, said the same way
            return [Piece(0, len(tokens), "decade", f"{self.name}:decade:{decade.value}", self.name, span.category,
                          " ".join(tokens), decade.value, style=decade)]
        tpl = D.parse(tokens, ctx.language, letters=self.letters, typed_codes=self.letters)
        if not tpl.units:
            return [Piece(0, len(tokens), "words", f"{self.name}:text:{norm(' '.join(tokens))}", self.name,
                          span.category, " ".join(tokens), None, {"unparsed": True})]
        return [Piece(0, len(tokens), "digits", f"{self.name}:{tpl.value}", self.name, span.category, tpl.value,
                      tpl.value, style=tpl)]

    def unit_ok(self, unit: D.Unit, candidate: str) -> bool:
        return True

    def repair(self, value: str) -> str:
        return value

    has_repair = False

    def rules(self, ctx: Context, item: Item, value: str) -> tuple[Validator | None, list[dict[int, str]]]:
        """(validator, fixed-position options) for a new value; the default keeps nothing fixed."""
        if item.category == "POSTCODE" and ctx.language == "es" and len(value) == 5 and value.isdigit():
            return (lambda s: s.isdigit() and 1 <= int(s[:2]) <= 52), [{}]
        if item.category == "ROUTING" and len(value) == 9 and value.isdigit():
            return us_rtn.is_valid, [{}]
        return None, [{}]

    def generate(self, ctx: Context, item: Item) -> str:
        if any(isinstance(o.style, Decade) for o in item.occurrences):
            others = [str(v) for v in range(20, 90, 10) if v != item.value]
            return ctx.pick(item, others, "age:decade") or others[0]
        tpl = self._template(item)
        if tpl is None:
            return _tag(item)
        value = tpl.value
        validator, fixed = self.rules(ctx, item, value)
        rng = ctx.rng(item)
        for attempt in range(50):
            new = D.fill(tpl, rng, validator=validator, fixed_options=fixed if attempt == 0 else [{}], avoid=value,
                         unit_ok=self.unit_ok, repair=self.repair if self.has_repair else None)
            if new is None:
                break
            if ctx.free(new, self.name) or attempt == 49:
                return new
        new = D.fill(tpl, rng, avoid=value)
        if new is None:
            item.info["form_lost"] = True
            return value
        item.info["rule_broken"] = validator is not None
        return new

    def _template(self, item: Item) -> D.Template | None:
        for occ in item.occurrences:
            if isinstance(occ.style, D.Template):
                return occ.style
        return None

    def render(self, ctx: Context, item: Item, occ: Occurrence, tokens: list[str]) -> list[str]:
        if isinstance(occ.style, Decade) and item.surrogate and item.surrogate.isdigit():
            return say_decade(occ.style, int(item.surrogate), tokens)
        if isinstance(occ.style, D.Template) and item.surrogate is not None and not item.surrogate.startswith("["):
            return D.render(occ.style, item.surrogate.replace(" ", ""))
        return (item.surrogate or "").split()


def _tag(item: Item) -> str:
    return f"[{item.category}]"


class CardGenerator(DigitsGenerator):
    name = "card"
    letters = False

    def rules(self, ctx: Context, item: Item, value: str) -> tuple[Validator | None, list[dict[int, str]]]:
        return luhn.is_valid, [{0: value[0]}, {}]


# digit groups a generator writes on purpose, whatever the original: North America's fictional
# exchange (PhoneGenerator) — the engine's guard against kept digits does not count them as kept
# ("(604) 555-0187" -> "(604) 555-0143" was replaced by its tag, the 555 read as the original's)
DRAWN_ON_PURPOSE = {"PHONE": frozenset({"555"})}


class PhoneGenerator(DigitsGenerator):
    name = "phone"
    letters = False

    def rules(self, ctx: Context, item: Item, value: str) -> tuple[Validator | None, list[dict[int, str]]]:
        n = len(value)
        if ctx.language == "en" and n in (10, 11):
            o = n - 10  # a leading country code 1
            fictional = {o + 3: "5", o + 4: "5", o + 5: "5"}
            range01 = {**fictional, o + 6: "0", o + 7: "1"}
            lead = {0: value[0]} if o else {}
            area_ok: Validator = lambda s: s[o] in "23456789"  # noqa: E731
            return area_ok, [{**lead, **range01}, {**lead, **fictional}, lead]
        if n >= 7:
            return None, [{0: value[0]}, {}]
        return None, [{}]


class SsnGenerator(DigitsGenerator):
    name = "ssn"
    letters = False

    def rules(self, ctx: Context, item: Item, value: str) -> tuple[Validator | None, list[dict[int, str]]]:
        if len(value) == 9:
            return us_ssn.is_valid, [{}]
        return None, [{}]


class EsIdGenerator(DigitsGenerator):
    name = "es_id"
    letters = True

    def rules(self, ctx: Context, item: Item, value: str) -> tuple[Validator | None, list[dict[int, str]]]:
        v = value.upper()
        if len(v) == 9 and v[0] in "XYZ":
            return es_nie.is_valid, [{0: v[0]}]
        if len(v) == 9 and v[:8].isdigit():
            return (lambda s: s[:8].isdigit() and es_dni.is_valid(s)), [{}]
        if len(v) == 9 and v[0].isalpha():
            return es_cif.is_valid, [{0: v[0]}]
        return None, [{}]


class IbanGenerator(DigitsGenerator):
    name = "iban"
    letters = True
    has_repair = True

    def repair(self, value: str) -> str:
        """Set the national check digits (Spanish CCC) and the IBAN's own two check digits."""
        v = value.upper()
        if len(v) < 5 or not v[:2].isalpha():
            return v
        bban = v[4:]
        if v[:2] == "ES" and len(bban) == 20 and bban.isdigit():
            bban = bban[:8] + es_ccc.calc_check_digits(bban) + bban[10:]
        return v[:2] + std_iban.calc_check_digits(v[:2] + "00" + bban) + bban

    def rules(self, ctx: Context, item: Item, value: str) -> tuple[Validator | None, list[dict[int, str]]]:
        v = value.upper()
        if len(v) >= 15 and v[:2].isalpha():
            return std_iban.is_valid, [{0: v[0], 1: v[1]}]
        return None, [{}]


class MoneyGenerator(DigitsGenerator):
    """Amounts: each number keeps its word form ("one hundred and twenty four dollars")."""

    name = "money"
    letters = False

    def unit_ok(self, unit: D.Unit, candidate: str) -> bool:
        # "one" goes with a singular noun ("one dollar", "un euro"), other numbers with a plural one
        return (candidate == "1") == (unit.text == "1")


class IpGenerator(DigitsGenerator):
    """IPv4 addresses: octets keep their length; documentation ranges when the lengths allow. IPv6
    ones written as one token ("2001:db8::ff00:42:8329"): every group re-drawn in hexadecimal with its
    length, the "::" where it was (they became the tag "[IP_ADDRESS]")."""

    name = "ip"
    letters = False
    _DOC = ("192.0.2", "198.51.100", "203.0.113")

    def analyse(self, ctx: Context, span_index: int, tokens: list[str], span: Span) -> list[Piece]:
        if len(tokens) == 1 and _ipv6(split_punct(tokens[0])[1]):
            core = split_punct(tokens[0])[1].lower()
            return [Piece(0, 1, "ipv6", f"{self.name}:v6:{core}", self.name, span.category, core, core)]
        return super().analyse(ctx, span_index, tokens, span)

    def generate(self, ctx: Context, item: Item) -> str:
        if item.occurrences and item.occurrences[0].form == "ipv6":
            rng = ctx.rng(item)
            original = str(item.value)
            for _ in range(20):
                new = ":".join("".join(rng.choice("0123456789abcdef") for _ in group) if group else ""
                               for group in original.split(":"))
                if new != original and _ipv6(new) and not _shares_a_group(new, original):
                    return new
            return _tag(item)
        return super().generate(ctx, item)

    def render(self, ctx: Context, item: Item, occ: Occurrence, tokens: list[str]) -> list[str]:
        if occ.form == "ipv6" and item.surrogate is not None:
            lead, _, trail = split_punct(tokens[0])
            return [lead + item.surrogate + trail]
        return super().render(ctx, item, occ, tokens)

    def rules(self, ctx: Context, item: Item, value: str) -> tuple[Validator | None, list[dict[int, str]]]:
        tpl = self._template(item)
        lengths = _octet_lengths(tpl) if tpl is not None else None
        if not lengths or len(lengths) != 4:
            return None, [{}]

        def ok(s: str) -> bool:
            pos, octets = 0, []
            for n in lengths:
                octets.append(s[pos : pos + n])
                pos += n
            return all(int(o) <= 255 and (len(o) == 1 or o[0] != "0") for o in octets)

        options = []
        for prefix in self._DOC:
            parts = prefix.split(".")
            if [len(p) for p in parts] == lengths[:3]:
                options.append(dict(enumerate("".join(parts))))
        return ok, [*options, {}]


class CoordinatesGenerator(DigitsGenerator):
    """A place's coordinates: other digits in the same shape; the hemispheres ("N", "W") stay."""

    name = "coordinates"
    letters = False


def _ipv6(text: str) -> bool:
    """Is ``text`` an IPv6 address (hexadecimal groups with colons)?"""
    if ":" not in text:
        return False
    try:
        ipaddress.IPv6Address(text)
    except ValueError:
        return False
    return True


def _shares_a_group(new: str, original: str) -> bool:
    """Does ``new`` repeat a group of three or more characters of ``original`` ("2001")?"""
    groups = {g for g in original.split(":") if len(g) >= 3}
    return any(g in groups for g in new.split(":"))


def _octet_lengths(tpl: D.Template) -> list[int]:
    """Digits per octet: the units said apart ("one nine two dot ..."), or the dotted groups of one
    written token ("192.168.14.2": its layout "ddd.ddd.dd.d")."""
    if len(tpl.units) == 1 and tpl.units[0].layout.count(".") == 3:
        return [len(part) for part in tpl.units[0].layout.strip(".").split(".")]
    lengths: list[int] = []
    current = 0
    prev_end = None
    for u in tpl.units:
        if prev_end is not None and u.start != prev_end and current:
            lengths.append(current)
            current = 0
        current += len(u.text)
        prev_end = u.end
    if current:
        lengths.append(current)
    return lengths


class RoadGenerator(DigitsGenerator):
    """A numbered road (:mod:`redactdesk.lang.roads`), whatever its span's category: the type stays, the
    number changes in its own form ("Route 9" -> "Route 4", "highway one oh one" -> "highway four oh
    seven", "I-95" -> "I-38"). Read as a place or a firm, it became a town's or a company's name."""

    name = "road"
    letters = False

    def analyse(self, ctx: Context, span_index: int, tokens: list[str], span: Span) -> list[Piece]:
        tpl = D.parse(tokens, ctx.language)
        covered = {k for u in tpl.units for k in range(u.start, u.end)}
        for k, tok in enumerate(tokens):
            lead, core, _ = split_punct(tok)
            m = _ROAD_NUMBER_IN_CODE.fullmatch(core)
            if k not in covered and m:  # "I-95", "N-340", "101A": the letters are the road's kind, kept
                layout = m.group(1) + "d" * len(m.group(2)) + m.group(3)
                tpl.units.append(D.Unit(k, k + 1, "numeral", m.group(2), layout=layout))
        tpl.units.sort(key=lambda u: u.start)
        if not tpl.units:
            return super().analyse(ctx, span_index, tokens, span)
        return [Piece(0, len(tokens), "digits", f"{self.name}:{norm(' '.join(tokens))}", self.name, span.category,
                      tpl.value, tpl.value, style=tpl)]

    def unit_ok(self, unit: D.Unit, candidate: str) -> bool:
        return not candidate.startswith("0")  # no road is numbered "07"


_ROAD_NUMBER_IN_CODE = re.compile(r"([A-Za-z]{0,2}-?)(\d{1,4})([A-Za-z]?)")


for _g in (DigitsGenerator(), CardGenerator(), PhoneGenerator(), SsnGenerator(), EsIdGenerator(), IbanGenerator(),
           MoneyGenerator(), IpGenerator(), CoordinatesGenerator(), RoadGenerator()):
    register(_g)
