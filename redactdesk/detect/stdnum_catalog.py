"""The python-stdnum formats that name a person, a business or a bank account, indexed for lookup.

Every stdnum module with ``is_valid`` is a format. Each gets a category (:func:`category_of`), the
compact lengths it accepts (probed: random strings of each length and of the shapes of its
documented examples, keeping the lengths where stdnum gets past its length and format checks) and
the prefixes its ``compact`` strips ("AT U13585627", "CHE-107.787.577 IVA"). The probes take a
second and a half on two cores, in every process that meets a number; their result for the pinned
python-stdnum is bundled (``resources/detect/stdnum_formats.json``, written by ``python -m
redactdesk.detect.stdnum_catalog --write``; a test holds it equal to a fresh probe), and a format's
module is imported when a candidate first tries it. Another stdnum version, or no readable table, and
the probes run as before. :func:`formats_for`
returns the few formats a candidate's compact length and character classes fit, so a candidate
tries only those; :func:`chance` estimates how often a random string of the candidate's shape
passes a format (a weak check digit passes ~10 % of the time, IBAN's mod 97 with its structure
almost never), which the identifier source uses to decide how much context a hit needs.

Book, product, security, device and payment-slip numbers identify no one: they are listed in
:data:`NOT_PERSONAL` and never proposed. Postcodes are left to :mod:`redactdesk.detect.postcodes`.
"""

from __future__ import annotations

import functools
import importlib
import json
import logging
import pkgutil
import random
import re
import zlib
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

log = logging.getLogger(__name__)

MAX_LEN = 64  # longest compact candidate (bech32 Bitcoin addresses); IBANs stop at 34
_PROBE_MAX = 40
_DIGITS = "0123456789"
_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_SEPARATORS = re.compile(r"[\s.\-/:,+()]")
_PROBE_SEED = "20240516"
TABLE_VERSION = 1  # of what the bundled table holds and how the probes draw: raise it when either changes

# stdnum modules that identify no one (or that another recognizer owns): never proposed
NOT_PERSONAL = frozenset(
    "luhn verhoeff damm iso7064.mod_11_10 iso7064.mod_11_2 iso7064.mod_37_2 iso7064.mod_37_36 iso7064.mod_97_10 "
    "isbn issn ismn isni isan isil isrc ean gs1_128 imei imsi meid casrn cfi cusip figi isin lei gb.sedol de.wkn "
    "bic iso9362 iso6346 iso11649 grid imo eu.nace eu.ecnumber eu.banknote eu.eic es.cae es.cups "
    "es.referenciacatastral it.aic nl.brin de.leitweg be.ogm_vcs ch.esr do.ncf mac "
    "at.postleitzahl es.postal_code nl.postcode se.postnummer "
    "be.iban es.iban me.iban no.iban eu.vat vatin".split()  # stdnum.iban and the country modules cover these
)

# categories where the module's own words do not say it (see category_of for the rule)
_EXPLICIT: dict[str, str] = {
    "iban": "IBAN",
    "us.ssn": "SSN",
    "es.dni": "ES_ID", "es.nie": "ES_ID", "es.nif": "ES_ID", "es.cif": "ES_ID",
    "nl.identiteitskaartnummer": "PASSPORT",
    "ar.cbu": "BANK_ACCOUNT", "cz.bankaccount": "BANK_ACCOUNT", "es.ccc": "BANK_ACCOUNT",
    "no.kontonr": "BANK_ACCOUNT", "nz.bankaccount": "BANK_ACCOUNT",
    "us.rtn": "ROUTING",
    "bitcoin": "GENERIC_ID",  # a wallet address: an account reference
    "is_.kennitala": "NATIONAL_ID", "mx.rfc": "NATIONAL_ID", "cn.uscc": "VAT_ID",
    # tax numbers of businesses and sole traders whose first line does not say so
    "al.nipt": "VAT_ID", "az.voen": "VAT_ID", "do.rnc": "VAT_ID", "ec.ruc": "VAT_ID", "eg.tn": "VAT_ID",
    "gn.nifp": "VAT_ID", "id.npwp": "VAT_ID", "ie.vat": "VAT_ID", "ma.ice": "VAT_ID", "me.pib": "VAT_ID",
    "mk.edb": "VAT_ID", "mz.nuit": "VAT_ID", "pe.ruc": "VAT_ID", "py.ruc": "VAT_ID", "rs.pib": "VAT_ID",
    "sm.coe": "VAT_ID", "tn.mf": "VAT_ID", "tr.vkn": "VAT_ID", "uy.rut": "VAT_ID", "ve.rif": "VAT_ID",
    "vn.mst": "VAT_ID", "za.tin": "VAT_ID", "dz.nif": "VAT_ID", "fr.nif": "NATIONAL_ID", "ad.nrt": "VAT_ID",
    "us.ein": "VAT_ID", "ca.bn": "VAT_ID", "li.peid": "VAT_ID", "gh.tin": "VAT_ID", "cr.cpj": "VAT_ID",
}
_BUSINESS_WORDS = re.compile(
    r"\b(vat|compan(?:y|ies)|business(?:es)?|enterprises?|entreprises?|organi[sz]ations?|corporate|corporation|"
    r"trade|entity|entities|economic|associations?|excise|creditor|contribuyentes|commerce|commercial|"
    r"establishment)\b",
    re.IGNORECASE,
)


def category_of(short: str, doc_first_line: str) -> str:
    """The taxonomy category of stdnum module ``short`` ("pl.pesel") from its name and first doc line."""
    if short in _EXPLICIT:
        return _EXPLICIT[short]
    if short.endswith(".iban"):
        return "IBAN"
    if short.endswith((".vat", ".tva", ".btw", ".uid", ".mwst", ".alv", ".iva", ".dph", ".ddv", ".pvm", ".pvn",
                       ".kmkr", ".anum", ".cvr", ".mva", ".vsk", ".oss")):
        return "VAT_ID"
    if _BUSINESS_WORDS.search(doc_first_line):
        return "VAT_ID"
    return "NATIONAL_ID"


@dataclass(frozen=True, eq=False)
class IdFormat:
    """One stdnum format: its module, category and the compact lengths it accepts."""

    name: str  # "pl.pesel"
    title: str  # "PESEL (Polish national identification number)"
    category: str
    module_name: str  # "stdnum.pl.pesel": imported when a candidate first tries the format
    digit_lengths: frozenset[int] = frozenset()  # all-digit compact lengths that get past the format checks
    alnum_lengths: frozenset[int] = frozenset()  # lengths of compacts holding letters
    layouts: frozenset[str] = frozenset()  # written layouts of its documented examples ("99.99.99-999.99")

    @property
    def module(self) -> ModuleType:
        return _import(self.module_name)

    @property
    def short_title(self) -> str:
        return re.sub(r"\s*\(.*", "", self.title).strip(" .") or self.name

    def is_valid(self, value: str) -> bool:
        try:
            return bool(self.module.is_valid(value))
        except Exception:  # noqa: BLE001 - a module may choke on odd input; that is "not valid"
            return False

    def formatted(self, value: str) -> str | None:
        """The module's documented written form of ``value`` (None when it has no ``format``)."""
        try:
            fmt = getattr(self.module, "format", None)
        except ImportError:
            return None
        if fmt is None:
            return None
        try:
            return str(fmt(value))
        except Exception:  # noqa: BLE001
            return None


def compact(text: str) -> str:
    """Upper case without spaces and the usual separators (what the length index is keyed on)."""
    return _SEPARATORS.sub("", text).upper()


def shape(text: str) -> str:
    """'D' for each digit and 'A' for each letter of a compact string."""
    return "".join("D" if c.isdigit() else "A" for c in text)


_THOUSANDS = re.compile(r"9{1,3}(?:[.,' ]999)+")


def layout(text: str) -> str:
    """'9' for each digit, 'A' for each letter, separators kept, spaces collapsed: the written layout."""
    out = re.sub(r"\s*([-/.])\s*", r"\1", re.sub(r"\s+", " ", text.strip()))
    out = re.sub(r"\d", "9", out)
    return re.sub(r"[^\W\d_]", "A", out)


def documented_layout(text: str) -> bool:
    """Whether a layout carries information: separators that are not plain thousands grouping."""
    lay = layout(text)
    return bool(re.search(r"[^9A]", lay)) and not _THOUSANDS.fullmatch(lay)


def _layouts(mod: ModuleType, examples: list[str]) -> frozenset[str]:
    out = set()
    fmt = getattr(mod, "format", None)
    for e in examples:
        forms = [e]
        if fmt is not None:
            try:
                forms.append(str(fmt(e)))
            except Exception:  # noqa: BLE001
                pass
        out |= {layout(f) for f in forms if documented_layout(f)}
    return frozenset(out)


def _examples(mod: ModuleType) -> list[str]:
    """Every quoted string in the module's doctest lines that the module accepts."""
    doc = mod.__doc__ or ""
    out = []
    for m in re.finditer(r">>> \w+\(\s*'([^']+)'", doc):
        value = m.group(1)
        try:
            if mod.is_valid(value):
                out.append(value)
        except Exception:  # noqa: BLE001
            continue
    return list(dict.fromkeys(out))


def _outcome(mod: ModuleType, value: str) -> str:
    from stdnum.exceptions import InvalidChecksum, InvalidComponent, InvalidFormat, InvalidLength

    try:
        mod.validate(value)
    except InvalidLength:
        return "length"
    except InvalidFormat:
        return "format"
    except (InvalidChecksum, InvalidComponent):
        return "content"
    except Exception:  # noqa: BLE001
        return "error"
    return "valid"


def _random_of(pattern: str, rng: random.Random) -> str:
    """A random string of ``pattern``: "D" a digit, "A" a letter, a lower-case letter that letter."""
    return "".join(rng.choice(_DIGITS) if c == "D" else rng.choice(_LETTERS) if c == "A" else c.upper()
                   for c in pattern)


_LETTER_DRAWS = 24  # a format whose letters come from a short list ("MA1953684") passes one draw in ~7


def _probe(mod: ModuleType, examples: list[str], rng: random.Random) -> tuple[set[int], set[int]]:
    """(all-digit lengths, letter-holding lengths) the module's compact form accepts."""
    digit: set[int] = set()
    alnum: set[int] = set()
    ok = ("valid", "content")
    for n in range(2, _PROBE_MAX + 1):
        for _ in range(8):
            o = _outcome(mod, _random_of("D" * n, rng))
            if o in ok:
                digit.add(n)
            if o in ok or o == "length":
                break  # a length error does not depend on the digits drawn
    patterns = {shape(str(mod.compact(e)).upper()) for e in examples if hasattr(mod, "compact")}
    for n in sorted(digit | {len(p) for p in patterns}):
        patterns |= {"A" + "D" * (n - 1), "D" * (n - 1) + "A", "AA" + "D" * (n - 2), "D" * (n - 2) + "AA",
                     "A" + "D" * (n - 2) + "A"}
    for p in sorted(patterns):  # in a fixed order: the draws share one generator (set order varies by run)
        if "A" in p and 2 <= len(p) <= MAX_LEN and any(_outcome(mod, _random_of(p, rng)) in ok for _ in range(_LETTER_DRAWS)):
            alnum.add(len(p))
    documented = {len(compact(e)) for e in examples}
    if len(digit) > 12:  # content checked before length: the probe says nothing, trust the examples
        digit &= documented
    if len(alnum) > 12:
        alnum &= documented
    for e in examples:  # the documented forms themselves, whatever the probes found
        c = compact(e)
        (digit if c.isdigit() else alnum).add(len(c))
    return digit, alnum


def _prefix_offsets(mod: ModuleType, short: str, examples: list[str]) -> set[int]:
    """Extra compact length a written prefix or suffix adds that the module's compact strips
    ("AT U13585627" -> 2, "CHE-107.787.577 IVA" -> 3 + 3)."""
    offsets = set()
    cc = short.split(".")[0].rstrip("_").upper()
    for e in examples:
        try:
            inner = str(mod.compact(e)).upper()
        except Exception:  # noqa: BLE001
            continue
        extra = len(compact(e)) - len(compact(inner))
        if extra > 0:
            offsets.add(extra)
        if len(cc) == 2:
            for pre in (cc, "EL" if cc == "GR" else cc):
                try:
                    if mod.is_valid(pre + inner):
                        offsets.add(len(pre))
                except Exception:  # noqa: BLE001
                    pass
    return offsets


@functools.cache
def _import(name: str) -> ModuleType:
    return importlib.import_module(name)


def _modules() -> Iterable[tuple[str, ModuleType]]:
    import stdnum

    for info in pkgutil.walk_packages(stdnum.__path__, "stdnum."):
        short = info.name[len("stdnum."):]
        if short in NOT_PERSONAL:
            continue
        try:
            mod = importlib.import_module(info.name)
        except Exception:  # noqa: BLE001 - modules that need optional packages
            continue
        if hasattr(mod, "is_valid") and hasattr(mod, "validate"):
            yield short, mod
    from redactdesk.detect import gb_nino  # the UK National Insurance number: stdnum has none

    yield "gb.nino", gb_nino


@dataclass
class Catalog:
    formats: list[IdFormat]
    digit_index: dict[int, tuple[IdFormat, ...]]
    alnum_index: dict[int, tuple[IdFormat, ...]]
    min_len: int
    max_len: int


def probe_formats() -> list[dict]:
    """Every personal / business stdnum format as the probes find it (a second and a half): name,
    module, title, compact lengths with digits only and with letters, documented layouts."""
    rows: list[dict] = []
    for short, mod in _modules():
        first = (mod.__doc__ or short).strip().splitlines()[0]
        examples = _examples(mod)
        # each format its own draws: what one finds does not hang on the formats probed before it
        digit, alnum = _probe(mod, examples, random.Random(zlib.crc32(f"{_PROBE_SEED}:{short}".encode())))
        offsets = _prefix_offsets(mod, short, examples)
        alnum |= {n + off for off in offsets for n in digit | alnum}
        alnum = {n for n in alnum if n <= MAX_LEN}
        if short == "bitcoin":  # base58 / bech32 addresses: 26-62 characters, never all digits
            digit, alnum = set(), set(range(26, 63))
        elif short == "iban":  # ISO 13616: two letters, two check digits, 11-30 more
            digit, alnum = set(), set(range(15, 35))
        rows.append({"name": short, "module": mod.__name__, "title": first, "digit": sorted(digit),
                     "alnum": sorted(alnum), "layouts": sorted(_layouts(mod, examples))})
    return rows


def _stdnum_version() -> str:
    import stdnum

    return str(getattr(stdnum, "__version__", "?"))


def table_path() -> Path:
    from redactdesk.resources import resource

    return resource("detect", "stdnum_formats.json")


def table_of(rows: list[dict]) -> dict:
    """What the bundled table holds: the rows and what they were probed with."""
    return {"stdnum": _stdnum_version(), "table_version": TABLE_VERSION, "formats": rows}


def bundled_formats(path: Path | None = None) -> list[dict] | None:
    """The bundled probe results, or None where they are missing, unreadable or of another stdnum."""
    path = table_path() if path is None else path
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("stdnum") != _stdnum_version() or data.get("table_version") != TABLE_VERSION:
            log.info("the bundled stdnum format table is for another python-stdnum; probing the formats")
            return None
        rows = data["formats"]
        for r in rows:  # every field, of its type: a damaged table is no table
            if not (isinstance(r["name"], str) and isinstance(r["module"], str) and isinstance(r["title"], str)
                    and all(isinstance(n, int) for n in r["digit"] + r["alnum"])
                    and all(isinstance(x, str) for x in r["layouts"])):
                raise TypeError("a row of another shape")
        return rows
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        log.info("no usable stdnum format table (%s); probing the formats", type(exc).__name__)
        return None


@functools.lru_cache(maxsize=1)
def catalog() -> Catalog:
    """Every personal / business stdnum format, indexed by compact length (the bundled table, else probed)."""
    rows = bundled_formats()
    if rows is None:
        rows = probe_formats()
    formats = [IdFormat(r["name"], r["title"], category_of(r["name"], r["title"]), r["module"],
                        frozenset(r["digit"]), frozenset(r["alnum"]), frozenset(r["layouts"]))
               for r in rows if r["name"] not in NOT_PERSONAL]
    digit_index: dict[int, list[IdFormat]] = {}
    alnum_index: dict[int, list[IdFormat]] = {}
    for f in formats:
        for n in f.digit_lengths:
            digit_index.setdefault(n, []).append(f)
        for n in f.alnum_lengths:
            alnum_index.setdefault(n, []).append(f)
    lengths = [n for f in formats for n in f.digit_lengths | f.alnum_lengths]
    return Catalog(
        formats,
        {k: tuple(v) for k, v in digit_index.items()},
        {k: tuple(v) for k, v in alnum_index.items()},
        min(lengths),
        max(lengths),
    )


def formats_for(compact_value: str) -> tuple[IdFormat, ...]:
    """The formats whose accepted lengths and character classes fit a compact candidate."""
    cat = catalog()
    index = cat.digit_index if compact_value.isdigit() else cat.alnum_index
    return index.get(len(compact_value), ())


def valid_formats(raw: str, compact_value: str | None = None) -> list[IdFormat]:
    """The formats that accept ``raw`` (as written, separators and all)."""
    c = compact(raw) if compact_value is None else compact_value
    return [f for f in formats_for(c) if f.is_valid(raw)]


_CHANCE: OrderedDict[tuple[str, str], float] = OrderedDict()
_CHANCE_SIZE = 4096
_CLEARLY_WEAK = 0.25  # above every threshold the identifier source uses


def _pass_rate(fmt: IdFormat, pattern: str, trials: int) -> float:
    """Share of ``trials`` random strings of ``pattern`` that ``fmt`` accepts; drawing stops (and 1.0
    comes back) once the share is sure to exceed :data:`_CLEARLY_WEAK`."""
    key = (fmt.name, pattern)
    if key in _CHANCE:
        _CHANCE.move_to_end(key)
        return _CHANCE[key]
    rng = random.Random(zlib.crc32(f"{fmt.name}:{pattern}".encode()))
    stop = int(_CLEARLY_WEAK * trials) + 1
    hits = 0
    rate = None
    for _ in range(trials):
        hits += fmt.is_valid(_random_of(pattern, rng))
        if hits >= stop:
            rate = 1.0
            break
    _CHANCE[key] = rate if rate is not None else hits / trials
    if len(_CHANCE) > _CHANCE_SIZE:
        _CHANCE.popitem(last=False)
    return _CHANCE[key]


def chance(fmt: IdFormat, compact_value: str, trials: int = 400) -> float:
    """How often a random string of ``compact_value``'s shape passes ``fmt``: ~0.1 for one check digit,
    ~0 for IBAN; 1.0 for no check at all (anything above 25 % reads as 1.0). Two shapes are drawn and
    the larger rate is kept: digits and letters both random, and random digits under the candidate's
    own letters, so a fixed letter prefix ("P" + 8 free digits) is not mistaken for a check."""
    full = _pass_rate(fmt, shape(compact_value), trials)
    if compact_value.isdigit() or full >= 1.0:
        return full
    own_letters = "".join("D" if c.isdigit() else c.lower() for c in compact_value)
    return max(full, _pass_rate(fmt, own_letters, trials // 2))


def main(argv: list[str] | None = None) -> int:
    import argparse

    ap = argparse.ArgumentParser(description="Probe the python-stdnum formats and write the bundled table.")
    ap.add_argument("--write", action="store_true", help="write resources/detect/stdnum_formats.json")
    args = ap.parse_args(argv)
    table = table_of(probe_formats())
    rows = ",\n".join(json.dumps(r, ensure_ascii=False, sort_keys=True) for r in table["formats"])
    text = (f'{{"stdnum": {json.dumps(table["stdnum"])}, "table_version": {table["table_version"]},\n'
            f'"formats": [\n{rows}\n]}}\n')
    if args.write:
        table_path().write_text(text, encoding="utf-8")
        print(f"wrote {len(table['formats'])} formats of python-stdnum {table['stdnum']} to {table_path()}")
    else:
        print(f"{len(table['formats'])} formats of python-stdnum {table['stdnum']} (--write to bundle them)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
