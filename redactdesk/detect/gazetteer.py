"""The gazetteer source: names, places, organisations, addresses and spelling passages from lists.

Two layers:

- :class:`Gazetteer` (:func:`load_gazetteer`): the small en_US + es_ES Faker lists plus
  resources/detect/cities.txt, which the spaCy rendering, the pattern source and name propagation
  consult (``is_name``, ``place``, ``common``, ``ambiguous``). ``common`` also holds the everyday
  words of resources/detect/common_words.txt.
- :class:`GazetteerSource`: the recognisers of the whole world's names and places, run in this order
  over one shared "taken" mask so a word belongs to one item: spelling-alphabet passages
  (:mod:`.spelled`), street addresses (:mod:`.addresses`), organisations (:mod:`.organisations`),
  countries / cities / regions (:mod:`.places`), person names (:mod:`.worldnames`). Each part can be
  switched off with a parameter of the same name; each is also registered as its own source
  (``addresses``, ``organisations``, ``places``, ``worldnames``, ``spelling``) for evaluation.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from redactdesk.detect.sources import DetectDoc, Hit, check_params
from redactdesk.lang.folding import fold
from redactdesk.lang.lexicon import ambiguous_names, city_names

SOURCE = "gazetteer"

__all__ = ["Gazetteer", "GazetteerSource", "fold", "load_gazetteer", "match_gazetteer", "match_lists"]

_PLACE_CUES = frozenset("in from to at near live lives living moved visit visiting en de desde a vivo vive hacia".split())


@dataclass(frozen=True)
class Gazetteer:
    female: frozenset[str]
    male: frozenset[str]
    last: frozenset[str]
    cities: frozenset[str]  # may be several words
    countries: frozenset[str]
    regions: frozenset[str]  # US states, Spanish provinces
    ambiguous: frozenset[str]
    common: frozenset[str]
    max_place_words: int
    place_starts: frozenset[str] = frozenset()  # first words of multi-word places

    def is_first(self, word: str) -> bool:
        w = fold(word)
        return w in self.female or w in self.male

    def is_last(self, word: str) -> bool:
        return fold(word) in self.last

    def is_name(self, word: str) -> bool:
        return self.is_first(word) or self.is_last(word)

    def gender(self, word: str) -> str | None:
        w = fold(word)
        f, m = w in self.female, w in self.male
        return "female" if f and not m else "male" if m and not f else None

    def place(self, words: Sequence[str]) -> str | None:
        """"COUNTRY" or "CITY" when the words are a known place."""
        if len(words) > 1 and fold(words[0]) not in self.place_starts:
            return None
        key = fold(" ".join(words)) if len(words) > 1 else fold(words[0])
        if key in self.cities:
            return "CITY"
        if key in self.countries:
            return "COUNTRY"
        if key in self.regions:
            return "CITY"
        return None


@functools.lru_cache(maxsize=1)
def load_gazetteer() -> Gazetteer:
    """Build the gazetteer once from Faker's en_US and es_ES providers and the bundled city list."""
    from redactdesk.lang.names import address, lorem_words, person

    AddrEn, AddrEs, PersonEn, PersonEs = address("en_US"), address("es_ES"), person("en_US"), person("es_ES")

    def folded(items: Any) -> frozenset[str]:
        return frozenset(fold(x) for x in items)

    female = folded(list(PersonEn.first_names_female) + list(PersonEs.first_names_female))
    male = folded(list(PersonEn.first_names_male) + list(PersonEs.first_names_male))
    last = folded(list(PersonEn.last_names) + list(PersonEs.last_names))
    # Spanish compound first names ("José Antonio") are single entries: add their parts
    female |= {p for n in female for p in n.split() if len(p) > 2}
    male |= {p for n in male for p in n.split() if len(p) > 2}
    last |= {p for n in last for p in n.split() if len(p) > 2}
    countries = folded(list(AddrEn.countries) + list(AddrEs.countries)) | {
        "usa", "us", "united states", "america", "uk", "england", "spain", "españa", "mexico", "méxico",
    }
    regions = folded(list(AddrEn.states) + list(AddrEs.states))
    cities = folded(city_names())
    amb = folded(ambiguous_names())
    from redactdesk.detect.worldnames import everyday_words, load_world_names

    world = load_world_names()
    common = folded(lorem_words()) | frozenset(
        w for w in everyday_words() if not world.is_name(w) or world.is_common(w)
    )
    places = cities | countries | regions
    max_words = max(len(x.split()) for x in places)
    starts = frozenset(x.split()[0] for x in places if " " in x)
    return Gazetteer(female, male, last, cities, countries, regions, amb, common, max_words, starts)


def match_gazetteer(doc: DetectDoc, gaz: Gazetteer | None = None) -> list[Hit]:
    """Name and place hits in one document (lower-case words; accents ignored)."""
    gaz = gaz or load_gazetteer()
    lower = doc.lower
    n = len(lower)
    breaks = set(doc.breaks)
    stop = doc.lex.stop_words if doc.lex else frozenset()
    hits: list[Hit] = []
    used = [False] * n
    # places first (multi-word names such as "new york", "san sebastián")
    for i in range(n):
        if used[i]:
            continue
        ks = range(min(gaz.max_place_words, n - i), 0, -1) if fold(lower[i]) in gaz.place_starts else (1,)
        for k in ks:
            if any(b in breaks for b in range(i + 1, i + k)):
                continue
            cat = gaz.place(lower[i : i + k])
            if not cat:
                continue
            word = lower[i]
            cue = i > 0 and lower[i - 1] in _PLACE_CUES
            if k == 1 and (fold(word) in gaz.ambiguous or gaz.is_name(word) or word in stop) and not cue:
                break
            if k == 1 and len(word) <= 2:
                break
            score = 0.7 if (k > 1 or cue) else 0.55
            hits.append(Hit(i, i + k, cat, score, SOURCE, f"{'country' if cat == 'COUNTRY' else 'place'} name in gazetteer"))
            for j in range(i, i + k):
                used[j] = True
            break
    # names: runs of consecutive name words; an everyday-word name counts after a name cue ("thanks rose")
    lex = doc.lex
    cue_last = {ph[-1] for k in ("name_cue_strong", "name_cue_weak") for ph in lex.hot(k)} if lex else set()
    cue_next = {ph[0] for ph in lex.hot("name_cue_right")} if lex else set()
    i = 0
    while i < n:
        if used[i] or not lower[i].isalpha() or not gaz.is_name(lower[i]) or lower[i] in stop:
            i += 1
            continue
        j = i
        while j < n and not used[j] and lower[j].isalpha() and gaz.is_name(lower[j]) and lower[j] not in stop and (
            j == i or j not in breaks
        ):
            j += 1
        run = lower[i:j]
        clear = [w for w in run if fold(w) not in gaz.ambiguous]
        if not clear and i > 0 and lower[i - 1] in cue_last and (i not in breaks or lower[i - 1] in ("is", "es")):
            clear = run[:1]
        if not clear and j < n and lower[j] in cue_next and j not in breaks:
            clear = run[-1:]
        cased = [doc.words[k][:1].isupper() for k in range(i, j)]
        full = (
            len(run) >= 2
            and gaz.is_first(run[0])
            and all(gaz.is_last(w) and fold(w) not in gaz.ambiguous for w in run[1:])
        )
        if clear or (any(cased) and not all(doc.words[k].isupper() for k in range(i, j))):
            if clear and len(clear) < len(run) and not full:
                # drop ambiguous words at the edges unless cased ("will smith" keeps both only if cased)
                a, b = i, j
                while a < b and fold(lower[a]) in gaz.ambiguous and not doc.words[a][:1].isupper():
                    a += 1
                while b > a and fold(lower[b - 1]) in gaz.ambiguous and not doc.words[b - 1][:1].isupper():
                    b -= 1
                if b - a >= 1 and (b - a) >= len(clear):
                    i0, j0 = a, b
                else:
                    i0, j0 = i, j
            else:
                i0, j0 = i, j
            first = lower[i0]
            gender = gaz.gender(first) if gaz.is_first(first) else None
            kind = "full name" if j0 - i0 > 1 else ("first name" if gaz.is_first(first) else "surname")
            score = 0.75 if j0 - i0 > 1 else 0.6
            reason = f"{kind} in gazetteer" + (f" ({gender})" if gender else "")
            # first name + surname, neither an everyday word: strong enough to stand alone
            strong = (
                j0 - i0 >= 2
                and gaz.is_first(lower[i0])
                and all(gaz.is_last(w) for w in lower[i0 + 1 : j0])
                and all(fold(w) not in gaz.ambiguous for w in lower[i0 + 1 : j0])
            )
            hits.append(Hit(i0, j0, "PERSON", score, SOURCE, reason, strong))
        i = j
    return hits


def _parts() -> dict[str, Callable[[DetectDoc, list[bool]], list[Hit]]]:
    from redactdesk.detect.addresses import find_addresses
    from redactdesk.detect.groups import find_groups
    from redactdesk.detect.organisations import find_organisations
    from redactdesk.detect.places import find_places
    from redactdesk.detect.spelled import find_spelling_passages
    from redactdesk.detect.worldnames import find_names

    return {"spelling": find_spelling_passages, "addresses": find_addresses, "organisations": find_organisations,
            "places": find_places, "names": find_names, "groups": find_groups}


# groups last: "Christian Bale" is a person, "American Express" an organisation
PARTS = ("spelling", "addresses", "organisations", "places", "names", "groups")


def match_lists(doc: DetectDoc, parts: Sequence[str] = PARTS) -> list[Hit]:
    """Hits of the list-based recognisers ``parts`` (in :data:`PARTS` order) in one document."""
    fns = _parts()
    spelled = doc.spelling_words()  # alphabet words are letters: no name, place or organisation ("kilo lima 5 6")
    taken = [i in spelled for i in range(len(doc.words))]
    hits: list[Hit] = []
    for name in PARTS:
        if name in parts:
            hits.extend(fns[name](doc, taken))
    return hits


class GazetteerSource:
    """Names, places, organisations, addresses and spelling passages from the bundled lists."""

    name = SOURCE
    categories = frozenset({"PERSON", "CITY", "COUNTRY", "LOCATION", "ADDRESS", "ORGANIZATION", "SPELLED_LETTERS",
                            "NRP"})
    trusted: frozenset[str] = frozenset()
    defaults: dict[str, Any] = {part: True for part in PARTS}

    def validate(self, params: Mapping[str, Any] | None) -> dict[str, Any]:
        return check_params(self.name, params, self.defaults)

    def apply(self, docs: Sequence[DetectDoc], params: Mapping[str, Any]) -> list[list[Hit]]:
        parts = [p for p in PARTS if params.get(p, True)]
        return [match_lists(d, parts) for d in docs]


class PartSource(GazetteerSource):
    """One recogniser of the gazetteer source on its own (for evaluation and custom source sets)."""

    def __init__(self, name: str, part: str, categories: frozenset[str]) -> None:
        self.name = name
        self.part = part
        self.categories = categories
        self.defaults = {}

    def apply(self, docs: Sequence[DetectDoc], params: Mapping[str, Any]) -> list[list[Hit]]:
        return [match_lists(d, (self.part,)) for d in docs]
