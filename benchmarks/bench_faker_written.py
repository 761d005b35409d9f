"""Names, companies, addresses, phones and dates as Faker writes them for many locales, in written
sentences: found or not.

Run: ``.venv/bin/python benchmarks/bench_faker_written.py [--per 20] [--seed 33] [--misses 3]``

The values are Faker's (``name``, ``company``, ``address``, ``phone_number``, ``date_time`` in the
locales below; scripts other than Latin are transliterated with anyascii, as a form would hold them);
the sentences around them are ours ("Please forward this to <name> by Friday.", "Ship to:\\n<address>
\\nThanks", ...). A value counts as found when every letter and digit of it is covered by a suggested
span of any category. The table says which written forms of names, firms and addresses of the world
detection misses; it is no score on material someone else wrote (the sentences are ours), so read it
beside ``bench_detect_public.py``. A clock time alone ("09:50 PM") names no day and is left on purpose.
"""

from __future__ import annotations

import argparse
import sys
import unicodedata
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

NAME_LOCALES = ("en_US", "en_GB", "en_IN", "en_AU", "de_DE", "fr_FR", "es_ES", "es_MX", "it_IT", "nl_NL", "pt_BR",
                "pl_PL", "sv_SE", "tr_TR", "cs_CZ", "hu_HU", "ro_RO", "fi_FI", "da_DK", "no_NO", "id_ID", "vi_VN",
                "fil_PH", "ga_IE", "zu_ZA", "sw", "yo_NG", "ha_NG", "ig_NG")
COMPANY_LOCALES = ("en_US", "en_GB", "en_AU", "en_CA", "en_IN", "de_DE", "fr_FR", "es_ES", "it_IT", "nl_NL",
                   "pt_BR", "pl_PL", "sv_SE")
ADDRESS_LOCALES = ("en_US", "en_GB", "en_AU", "en_CA", "en_IN", "en_NZ", "en_IE", "de_DE", "fr_FR", "es_ES",
                   "it_IT", "nl_NL", "es_CO", "es_AR", "es_CL", "es_MX", "pt_BR", "pl_PL", "cs_CZ", "sk_SK", "hu_HU",
                   "fi_FI", "no_NO", "sv_SE", "da_DK")
PHONE_LOCALES = ("en_AU", "en_NZ", "en_IN", "en_PH", "en_GB", "en_IE", "de_DE", "de_AT", "de_CH", "fr_FR", "fr_CH",
                 "it_IT", "es_ES", "es_MX", "es_AR", "es_CO", "es_CL", "pt_BR", "pt_PT", "nl_NL", "nl_BE", "pl_PL",
                 "cs_CZ", "sv_SE", "da_DK", "no_NO", "fi_FI", "tr_TR", "ja_JP", "ko_KR", "zh_CN", "th_TH", "id_ID",
                 "vi_VN", "ru_RU", "uk_UA", "el_GR", "hu_HU", "ro_RO", "en_US", "en_CA", "he_IL", "hi_IN")
DATE_FORMATS = ("%Y-%m-%d", "%m/%d/%Y", "%d/%m/%Y", "%B %d, %Y", "%b %d %Y", "%d %B %Y", "%A, %B %d, %Y",
                "%Y-%m-%d %H:%M:%S", "%m/%d/%Y %I:%M %p", "%d-%b-%Y", "%d.%m.%Y", "%B %Y", "%b-%y", "%Y/%m/%d")
FRAMES = {
    "name": ("Please forward this to {} by Friday.", "{} called about the invoice.", "Signed: {}",
             "I spoke with {} yesterday and she agreed.", "cc: {}, finance team", "The account holder is {}."),
    "company": ("She works at {} in the city centre.", "Employer: {}", "{} sent the invoice.",
                "Please contact {} today."),
    "address": ("Please send it to {} as soon as possible.", "Address: {}", "I live at {}, near the station.",
                "Ship to:\n{}\nThanks"),
    "phone": ("You can reach me at {} after six.", "Phone: {}"),
    "date": ("The appointment is on {}.", "Date of birth: {}", "It happened {} at the office.",
             "Please confirm by {}"),
}


def _value(fake, kind: str, k: int) -> str:
    from anyascii import anyascii

    if kind == "date":
        value = fake.date_time_between("-60y", "+1y").strftime(DATE_FORMATS[k % len(DATE_FORMATS)])
    else:
        value = str(getattr(fake, {"name": "name", "company": "company", "address": "address",
                                   "phone": "phone_number"}[kind])())
    # only another script is transliterated: "Región", "N°" and "São" stay as a form holds them
    return anyascii(value) if any(ch.isalpha() and "LATIN" not in unicodedata.name(ch, "") for ch in value) else value


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--per", type=int, default=20, help="values per locale and kind (default 20)")
    ap.add_argument("--seed", type=int, default=33)
    ap.add_argument("--misses", type=int, default=3, help="missed values shown per kind (default 3)")
    args = ap.parse_args()

    from faker import Faker

    from redactdesk.detect.pipeline import detect_texts

    plan = {"name": NAME_LOCALES, "company": COMPANY_LOCALES, "address": ADDRESS_LOCALES, "phone": PHONE_LOCALES,
            "date": ("en_US",)}
    texts: list[str] = []
    meta: list[tuple[str, str, str]] = []  # kind, locale, value
    for kind, locales in plan.items():
        for loc in locales:
            fake = Faker(loc)
            fake.seed_instance(args.seed)
            for k in range(args.per * (4 if kind == "date" else 1)):
                try:
                    value = _value(fake, kind, k)
                except AttributeError:  # a locale without the provider
                    break
                frames = FRAMES[kind]
                texts.append(frames[k % len(frames)].format(value))
                meta.append((kind, loc, value))
    found: Counter[str] = Counter()
    total: Counter[str] = Counter()
    by_locale: dict[str, Counter[str]] = defaultdict(Counter)
    missed: dict[str, list[str]] = defaultdict(list)
    for (kind, loc, value), text, spans in zip(meta, texts, detect_texts(texts, "en"), strict=True):
        a = text.index(value)
        covered = {i for s in spans for i in range(s["start"], s["end"])}
        hit = all(i in covered for i in range(a, a + len(value)) if text[i].isalnum())
        total[kind] += 1
        found[kind] += hit
        if not hit:
            by_locale[kind][loc] += 1
            missed[kind].append(value.replace("\n", " | "))
    print("| kind | found | locales | most misses in |")
    print("|---|---|---|---|")
    for kind in plan:
        worst = ", ".join(f"{loc} {n}" for loc, n in by_locale[kind].most_common(3)) or "-"
        print(f"| {kind} | {found[kind]}/{total[kind]} | {len(plan[kind])} | {worst} |")
    for kind in plan:
        for value in missed[kind][:args.misses]:
            print(f"missed {kind}: {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
