"""Structured identifiers as test material, from the libraries that define them.

- every example that python-stdnum documents for a ``validate`` function (national IDs, VAT and
  tax numbers, company registers, bank codes of dozens of countries), checked valid;
- valid IBANs for every country python-stdnum knows, with and without spaces;
- example numbers of every region phonenumbers has metadata for, in its national, international
  and E.164 formats, plus North-American "(415) 555-0132" style;
- card numbers (Luhn-valid), IPv4/IPv6, MAC addresses, postcodes (UK, US, CA, DE, FR, NL, ES),
  e-mail addresses and dates in their common written forms;

each set in a sentence, once with a context word ("my IBAN is ...") and once without, in written
and spoken form ("four one one one ...", "j dot doe at example dot com"). Generated with fixed
seeds, so runs compare.
"""

from __future__ import annotations

import importlib
import ipaddress
import pkgutil
import random
import re
from collections.abc import Iterator

from redactdesk.lang.calendar import month_names
from redactdesk.lang.digits import DIGIT_WORDS
from redactdesk.learn.public_data import GoldSpan, Sample

_CARRIERS_BARE = ("I wrote {v} on the form.", "It says {v} here.", "{v}", "Please check {v} again.")


def _sample(kind: str, n: int, value: str, category: str, context: str | None, rng: random.Random) -> Sample:
    if context:
        prefix = f"My {context} is "
        text = prefix + value + "."
        start = len(prefix)
    else:
        carrier = rng.choice(_CARRIERS_BARE)
        start = carrier.index("{v}")
        text = carrier.replace("{v}", value)
    return Sample(id=f"{kind}:{n}:{'ctx' if context else 'bare'}", text=text,
                  spans=[GoldSpan(start, start + len(value), category)], source=kind)


def stdnum_examples() -> Iterator[tuple[str, str, str]]:
    """(module, example, short name) for every documented valid ``validate`` example of python-stdnum."""
    import stdnum

    seen = set()
    for info in pkgutil.walk_packages(stdnum.__path__, "stdnum."):
        try:
            mod = importlib.import_module(info.name)
        except Exception:  # noqa: BLE001 - some modules need optional packages
            continue
        validate = getattr(mod, "validate", None)
        if validate is None:
            continue
        doc = mod.__doc__ or ""
        first = doc.strip().splitlines()[0] if doc.strip() else info.name
        short = re.sub(r"\s*\(.*", "", first).strip(" .") or info.name
        for m in re.finditer(r">>> validate\('([^']+)'\)\n\s*'", doc):
            value = m.group(1)
            try:
                validate(value)
            except Exception:  # noqa: BLE001
                continue
            if (info.name, value) not in seen:
                seen.add((info.name, value))
                yield info.name, value, short


def _category_of_stdnum(module: str) -> str:
    tail = module.rsplit(".", 1)[-1]
    if tail in ("iban",) or module.endswith(".iban"):
        return "IBAN"
    if tail in ("vat", "uid", "btw", "tva", "mwst", "nipt", "ustid", "cif", "nif") or "vat" in tail:
        return "VAT_ID"
    if tail in ("postleitzahl", "postal_code", "zipcode", "cap", "psc"):
        return "POSTCODE"
    if tail in ("isbn", "issn", "ismn", "isan", "isil", "ean", "grid", "imei", "imsi", "meid", "casrn",
                "figi", "isin", "cusip", "lei", "sedol", "bic", "iso6346", "iso11649", "iso7064", "mac"):
        return "NOT_PERSONAL"
    return "NATIONAL_ID"


def stdnum_samples(rng: random.Random) -> list[Sample]:
    out = []
    for n, (module, value, short) in enumerate(stdnum_examples()):
        cat = _category_of_stdnum(module)
        if cat == "NOT_PERSONAL":  # book and product numbers identify no one
            continue
        out.append(_sample("stdnum", n, value, cat, short, rng))
        if len(re.sub(r"\W", "", value)) >= 8:  # short codes cannot be told from numbers without context
            out.append(_sample("stdnum", n, value, cat, None, rng))
    return out


def iban_samples(rng: random.Random) -> list[Sample]:
    from stdnum import iban

    out = []
    countries = sorted({line.split()[0] for line in _iban_registry() if line[:2].isalpha()})
    for n, cc in enumerate(countries):
        value = _make_iban(cc, rng)
        if value is None:
            continue
        spaced = " ".join(value[i:i + 4] for i in range(0, len(value), 4))
        for form in (value, spaced):
            iban.validate(form)
            out.append(_sample("iban", n, form, "IBAN", "IBAN" if rng.random() < 0.5 else None, rng))
    return out


def _iban_registry() -> list[str]:
    from pathlib import Path

    import stdnum

    path = Path(stdnum.__file__).with_name("iban.dat")
    return path.read_text(encoding="utf-8").splitlines()


def _make_iban(cc: str, rng: random.Random) -> str | None:
    """A valid IBAN of country ``cc`` from the BBAN structure in stdnum's iban.dat."""
    from stdnum import iban

    for line in _iban_registry():
        if not line.startswith(cc + " "):
            continue
        m = re.search(r"bban=\"([^\"]+)\"", line)
        if not m:
            return None
        bban = ""
        for count, kind in re.findall(r"(\d+)!?([nace])", m.group(1)):
            alphabet = {"n": "0123456789", "a": "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
                        "c": "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ", "e": " "}[kind]
            bban += "".join(rng.choice(alphabet) for _ in range(int(count)))
        check = iban.calc_check_digits(cc + "00" + bban)
        value = cc + check + bban
        try:
            iban.validate(value)
        except Exception:  # noqa: BLE001 - national check digits inside some BBANs
            return None
        return value
    return None


def phone_samples(rng: random.Random) -> list[Sample]:
    import phonenumbers
    from phonenumbers import PhoneNumberFormat, PhoneNumberType

    out = []
    regions = sorted(phonenumbers.SUPPORTED_REGIONS)
    for n, region in enumerate(regions):
        for kind in (PhoneNumberType.MOBILE, PhoneNumberType.FIXED_LINE):
            num = phonenumbers.example_number_for_type(region, kind)
            if num is None:
                continue
            fmt = rng.choice([PhoneNumberFormat.INTERNATIONAL, PhoneNumberFormat.NATIONAL, PhoneNumberFormat.E164])
            value = phonenumbers.format_number(num, fmt)
            out.append(_sample("phone", n, value, "PHONE", "phone number" if rng.random() < 0.5 else None, rng))
    for n in range(40):  # North-American forms people write
        a, b, c = rng.randint(201, 989), rng.randint(200, 999), rng.randint(0, 9999)
        value = rng.choice([f"({a}) {b}-{c:04d}", f"{a}-{b}-{c:04d}", f"{a}.{b}.{c:04d}", f"+1 {a} {b} {c:04d}",
                            f"1-{a}-{b}-{c:04d}"])
        out.append(_sample("phone-us", n, value, "PHONE", None if n % 2 else "number", rng))
    return out


def _luhn_complete(prefix: str, length: int, rng: random.Random) -> str:
    digits = prefix + "".join(str(rng.randint(0, 9)) for _ in range(length - len(prefix) - 1))
    total = 0
    for i, d in enumerate(reversed(digits)):
        x = int(d)
        if i % 2 == 0:
            x *= 2
            x -= 9 if x > 9 else 0
        total += x
    return digits + str((10 - total % 10) % 10)


def card_samples(rng: random.Random) -> list[Sample]:
    out = []
    for n, (prefix, length) in enumerate([("4", 16), ("51", 16), ("55", 16), ("34", 15), ("37", 15), ("6011", 16),
                                          ("35", 16), ("4", 13), ("2221", 16), ("36", 14)] * 3):
        num = _luhn_complete(prefix, length, rng)
        style = n % 3
        value = num if style == 0 else " ".join(num[i:i + 4] for i in range(0, len(num), 4)) if style == 1 \
            else "-".join(num[i:i + 4] for i in range(0, len(num), 4))
        out.append(_sample("card", n, value, "CREDIT_CARD", "card number" if n % 2 else None, rng))
    return out


def network_samples(rng: random.Random) -> list[Sample]:
    out = []
    for n in range(30):
        v4 = str(ipaddress.IPv4Address(rng.randint(0x01000000, 0xDFFFFFFF)))
        v6 = ipaddress.IPv6Address(rng.getrandbits(128))
        v6s = v6.compressed if n % 2 else v6.exploded
        mac = [f"{rng.randint(0, 255):02X}" for _ in range(6)]
        macs = ":".join(mac) if n % 3 == 0 else "-".join(mac) if n % 3 == 1 else \
            ".".join("".join(mac[i:i + 2]).lower() for i in (0, 2, 4))
        out.append(_sample("ipv4", n, v4, "IP_ADDRESS", "IP address" if n % 2 else None, rng))
        out.append(_sample("ipv6", n, v6s, "IP_ADDRESS", "IP address" if n % 2 else None, rng))
        out.append(_sample("mac", n, macs, "MAC_ADDRESS", "MAC address" if n % 2 else None, rng))
    return out


def postcode_samples(rng: random.Random) -> list[Sample]:
    letters = "ABCDEFGHJKLMNPRSTUWYZ"
    out = []
    for n in range(20):
        uk = rng.choice(["M1 1AA", "B33 8TH", "CR2 6XH", "DN55 1PT", "W1A 0AX", "EC1A 1BB", "SW1A 2AA"]) if n < 7 else \
            f"{rng.choice(letters)}{rng.choice(letters)}{rng.randint(1, 20)} {rng.randint(1, 9)}{rng.choice(letters)}{rng.choice(letters)}"
        ca = f"{rng.choice(letters)}{rng.randint(0, 9)}{rng.choice(letters)} {rng.randint(0, 9)}{rng.choice(letters)}{rng.randint(0, 9)}"
        us = f"{rng.randint(10000, 99999)}" + (f"-{rng.randint(0, 9999):04d}" if n % 2 else "")
        nl = f"{rng.randint(1000, 9999)} {rng.choice(letters)}{rng.choice(letters)}"
        for k, (value, where) in enumerate([(uk, "London"), (ca, "Ottawa ON"), (us, "Springfield, IL"),
                                            (nl, "Amsterdam"), (f"{rng.randint(10000, 99999)}", "Berlin"),
                                            (f"{rng.randint(10000, 95999)}", "Paris")]):
            if where in ("Berlin", "Paris"):
                text = f"Send it to {value} {where}, please."
                start = len("Send it to ")
            else:
                text = f"Send it to {where} {value}, please."
                start = len(f"Send it to {where} ")
            out.append(Sample(id=f"postcode:{n}:{k}", text=text, spans=[GoldSpan(start, start + len(value), "POSTCODE")],
                              source="postcode"))
    return out


def date_samples(rng: random.Random) -> list[Sample]:
    out = []
    for n in range(40):
        y, m, d = rng.randint(1940, 2030), rng.randint(1, 12), rng.randint(1, 28)
        mon = month_names("en")[m - 1]
        value = [f"{d}-{mon[:3].upper()}-{y}", f"{mon[:3]}-{y % 100:02d}", f"{d:02d}/{m:02d}/{y}", f"{y}-{m:02d}-{d:02d}",
                 f"{mon} {d}, {y}", f"{d} {mon} {y}", f"{d:02d}.{m:02d}.{y}", f"{m}/{d}/{y % 100:02d}"][n % 8]
        ctx = "date of birth" if n % 2 else None
        out.append(_sample("date", n, value, "DATE_OF_BIRTH" if ctx else "DATE", ctx, rng))
    return out


def email_samples(rng: random.Random) -> list[Sample]:
    from faker import Faker

    out = []
    fake = Faker(["en_US", "de_DE", "fr_FR", "es_ES", "it_IT", "nl_NL", "pl_PL", "pt_BR"])
    fake.seed_instance(rng.randint(0, 10**6))
    for n in range(40):
        value = fake.email() if n % 3 else fake.free_email()
        out.append(_sample("email", n, value, "EMAIL", "email" if n % 2 else None, rng))
    return out


ADDRESS_LOCALES = ("en_US", "en_GB", "en_CA", "en_AU", "de_DE", "fr_FR", "es_ES", "it_IT", "nl_NL", "pt_PT")
_ADDRESS_CARRIERS = ("Please send it to {v}.", "My address is {v}", "I moved to {v} last year.", "Ship to: {v}",
                     "The invoice goes to {v}, thanks.", "{v}")


def address_samples(seed: int = 101, per_locale: int = 30) -> list[Sample]:
    """Postal addresses of ten countries as Faker builds them from each country's rules (street types,
    units, towns, regions, postcodes), on one line or over line breaks: one ADDRESS item each."""
    from faker import Faker

    rng = random.Random(seed)
    out: list[Sample] = []
    for loc in ADDRESS_LOCALES:
        fake = Faker(loc)
        fake.seed_instance(seed)
        for n in range(per_locale):
            value = fake.address()
            value = value.replace("\n", ", ") if n % 2 else value
            carrier = rng.choice(_ADDRESS_CARRIERS)
            start = carrier.index("{v}")
            out.append(Sample(id=f"address:{loc}:{n}", text=carrier.replace("{v}", value),
                              spans=[GoldSpan(start, start + len(value), "ADDRESS")], source=f"address {loc}"))
    return out


def identifier_samples(seed: int = 7) -> list[Sample]:
    """Every family above, written form."""
    rng = random.Random(seed)
    out: list[Sample] = []
    for make in (stdnum_samples, iban_samples, phone_samples, card_samples, network_samples, postcode_samples,
                 date_samples, email_samples):
        out += make(rng)
    return out


# ------------------------------------------------------------------------------------------ spoken
_SYMBOL_WORDS = {"@": "at", ".": "dot", "-": "dash", "/": "slash", "+": "plus", ":": "colon", "_": "underscore"}


def say_identifier(value: str, category: str) -> str:
    """How a person reads an identifier aloud: digits one by one, letters as letters, symbols named
    (separators in numbers are dropped, as people pause instead)."""
    words: list[str] = []
    email_like = category in ("EMAIL", "URL")
    token = ""

    def flush() -> None:
        nonlocal token
        if token:
            words.append(token.lower() if email_like else " ".join(token.lower()))
            token = ""

    for ch in value:
        if ch.isdigit():
            flush()
            words.append(DIGIT_WORDS["en"][int(ch)])
        elif ch.isalpha():
            token += ch
        else:
            flush()
            if email_like and ch in _SYMBOL_WORDS:
                words.append(_SYMBOL_WORDS[ch])
            elif category in ("IP_ADDRESS",) and ch in ".:":
                words.append(_SYMBOL_WORDS[ch])
    flush()
    return " ".join(words)


def spoken_identifier_samples(samples: list[Sample]) -> list[Sample]:
    """The spoken form: carrier words lower-cased, the identifier read aloud."""
    out = []
    for s in samples:
        if s.source in ("ipv6", "mac"):  # nobody reads these aloud
            continue
        g = s.spans[0]
        before = re.sub(r"[^\w' ]", "", s.text[:g.start].lower()).strip()
        after = re.sub(r"[^\w' ]", "", s.text[g.end:].lower()).strip()
        said = say_identifier(s.text[g.start:g.end], g.category)
        if not said:
            continue
        text = " ".join(x for x in (before, said, after) if x)
        start = len(before) + (1 if before else 0)
        out.append(Sample(id=s.id + ":spoken", text=text, spans=[GoldSpan(start, start + len(said), g.category)],
                          source=s.source + " (spoken)"))
    return out
