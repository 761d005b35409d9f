"""Identifier values as Faker writes them for ten locales, found or not, with and without a word naming them.

Run: ``.venv/bin/python benchmarks/bench_faker_formats.py [--per 3] [--seed 7]``

The values are Faker's (license plates, national numbers, passports, phones, postcodes, IBANs,
BBANs, routing numbers, SWIFT codes, dates of birth of en_GB, en_US, de_DE, fr_FR, es_ES, it_IT,
nl_NL, en_IN, en_AU, en_CA); the two frames around them are ours: "My <what> is <value>." (the
word naming it) and "Please note <value> on the form." (bare). A value counts as found when every
one of its non-space characters is covered by a suggested span of any category. SWIFT/BIC codes
identify a bank, not a person: detection leaves them on purpose. The table says which formats a
user's data may hold that detection does not know; it is no score on material someone else wrote
(the frames are ours), so read it beside ``bench_detect_public.py``.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

LOCALES = ("en_GB", "en_US", "de_DE", "fr_FR", "es_ES", "it_IT", "nl_NL", "en_IN", "en_AU", "en_CA")
PROVIDERS = {  # Faker provider -> the words a caller uses for it
    "license_plate": "license plate", "ssn": "social security number", "passport_number": "passport number",
    "date_of_birth": "date of birth", "phone_number": "phone number", "postcode": "postcode", "iban": "iban",
    "bban": "account number", "aba": "routing number", "swift": "swift code",
}
FRAMES = (("named", "My {what} is {value}."), ("bare", "Please note {value} on the form."))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--per", type=int, default=3, help="values per locale and provider (default 3)")
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()

    from faker import Faker

    from redactdesk.detect.pipeline import detect_texts

    texts: list[str] = []
    meta: list[tuple[str, str, str, str]] = []  # provider, frame, locale, value
    for loc in LOCALES:
        fake = Faker(loc)
        fake.seed_instance(args.seed)
        for provider, what in PROVIDERS.items():
            for _ in range(args.per):
                try:
                    value = str(getattr(fake, provider)())
                except AttributeError:  # a locale without the provider
                    continue
                for frame, template in FRAMES:
                    texts.append(template.format(what=what, value=value))
                    meta.append((provider, frame, loc, value))
    found: Counter[tuple[str, str]] = Counter()
    total: Counter[tuple[str, str]] = Counter()
    missed: dict[tuple[str, str], list[str]] = defaultdict(list)
    for (provider, frame, loc, value), text, spans in zip(meta, texts, detect_texts(texts, "en"), strict=True):
        start = text.index(value)
        covered = {i for s in spans for i in range(s["start"], s["end"])}
        ok = all(i in covered for i in range(start, start + len(value)) if not text[i].isspace())
        total[(provider, frame)] += 1
        found[(provider, frame)] += ok
        if not ok:
            missed[(provider, frame)].append(loc)
    print("| provider | named: found | bare: found | locales missed (named) |")
    print("|---|---|---|---|")
    for provider in PROVIDERS:
        cells = [f"{found[(provider, f)]}/{total[(provider, f)]}" for f, _ in FRAMES]
        where = ", ".join(sorted(set(missed[(provider, "named")]))) or "-"
        print(f"| {provider} | {cells[0]} | {cells[1]} | {where} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
