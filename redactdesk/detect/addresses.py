"""Street addresses as one item, in the orders of many countries (category ADDRESS).

A street part is found first, in one of these shapes (words from resources/detect/structures.yaml):

- number, name, type: "123 Main St", "10 Downing Street", "12 rue de la Paix" (number, type, name);
- type, name, number: "Calle Mayor 12", "Via Roma 10", "Avda. de la Constitución, 5";
- name with a glued type, number: "Hauptstraße 5", "Keizersgracht 123", "Drottninggatan 7";
- name, type, number: "Berliner Straße 5";
- post boxes and military post: "PO Box 123", "Apartado de Correos 45", "PSC 0413, Box 8144",
  "Unit 4523 Box 123", "USNS Kirby" (then APO/FPO/DPO);
- a named street without a number in cased text ("Victoria Street") or after "on"/"at" in speech;
- Colombia's grid, a road and its kilometre, a street named with no type word before a postcode
  and town (:mod:`redactdesk.detect.address_forms`).

The tail then takes, over commas and in any order: units ("Apt. 864", "Suite 501", "Flat 2",
"piso 3º", "puerta 2", "3º B"), the town (place list, or capitalised words before a region or
postcode), the region ("IL", "Ontario"), the postcode (US, UK, Canadian, Dutch, Polish, Portuguese
... shapes, or five spoken digits) and the country. Spoken numbers come from the normaliser
("twelve baker street apartment four london"). No country's parser is needed.
"""

from __future__ import annotations

import functools
import re

from redactdesk.detect.address_forms import GRID_NUMBER, HOUSE, StreetForms
from redactdesk.detect.normalize import ALNUM, LETTER, NUM, said_dashes
from redactdesk.detect.places import load_places
from redactdesk.detect.sources import DetectDoc, Hit
from redactdesk.detect.worldnames import everyday_words, load_world_names, structures, word_set, word_view

SOURCE = "gazetteer"

_POSTCODE_ONE = re.compile(
    r"(?:[A-Z]{1,2}-)?\d{5}(?:-\d{4})?|\d{4,6}|\d{8}|\d{2}-\d{3}|\d{4}-\d{3}|\d{5}-\d{3}|\d{3}-\d{4}"
    r"|[A-Z]{1,2}\d[A-Z\d]?\d[A-Z]{2}|[A-Z]\d[A-Z]\d[A-Z]\d|\d{4}[A-Z]{2}|[A-Z]{1,2}-\d{4,5}"
)
_POSTCODE_FIRST = re.compile(r"[A-Z]{1,2}\d[A-Z\d]?|[A-Z]\d[A-Z]|\d{4}|\d{3}|[A-Z]\d{2}")  # UK/CA/NL/SE/IE halves
_POSTCODE_SECOND = re.compile(r"\d[A-Z]{2}|\d[A-Z]\d|[A-Z]{2}|\d{2}|[A-Z\d]{4}")
_LOWER_UK_CA_FIRST = re.compile(r"[a-z]{1,2}\d[a-z\d]?|[a-z]\d[a-z]")  # British and Canadian halves typed in
_LOWER_UK_CA_SECOND = re.compile(r"\d[a-z]{2}|\d[a-z]\d")               # lower case: a digit in each
_SPOKEN_POSTCODE = re.compile(r"[A-Z]{1,2}\d[A-Z\d]?\d[A-Z]{2}|[A-Z]\d[A-Z]\d[A-Z]\d|\d{4}[A-Z]{2}")  # UK, CA, NL
_ZIP = re.compile(r"\d{5}(?:-\d{4})?")
_POSTAL_DISTRICT = re.compile(r"\d{1,2}[A-Z]?")
_TOWN_PIN = re.compile(r"[A-Z][\w.-]*-\d{6}")  # a town and its PIN in one word, after a street
_PIN = re.compile(r"[1-9]\d{5}")  # an Indian postal index number
_GLUED_PIN = re.compile(r"[A-Z][\w.-]*-[1-9]\d{5}")  # "Sonipat-835060", "Kalyan-Dombivli-636303"
_HOUSE_NO = frozenset({"hno", "houseno", "flatno"})  # "H.No. 994"
_INITIALS = re.compile(r"(?:[A-Z]\.){1,3}")  # "J.M.", "J.J.": a name's initials, no sentence's end
_UNIT_ID = re.compile(r"#?\d{1,5}[A-Za-z]?|[A-Za-z]\d{0,4}|\d+(?:º|ª|o|a|st|nd|rd|th)|[IVX]{1,4}")
_SEPARATOR_WORDS = (",", "|", "/", "-", "–")  # written apart between an address's parts ("45 - Centro - Curitiba")
_PLAIN_STREET = frozenset("street st avenue ave road rd lane ln drive boulevard blvd terrace crescent parkway "
                          "highway strasse calle rue avenida carrer".split())


# types after a house number and before the name (French, Belgian, Québécois, Swiss addresses)
# (and streets of Spanish, Italian or Portuguese names written the American way: "1200 Camino del Mar",
# "500 Avenida de la Playa", "300 Paseo de Peralta"; the number was left out of the item)
_ROMANCE_NUMBER_FIRST = "calle avenida camino paseo calzada carretera rua viale corso"
_NUMBER_THEN_TYPE = frozenset(("rue avenue boulevard bd bld blvd place chemin impasse allee quai cours route rte square "
                               "montee rang cote promenade croissant passage sentier voie " + _ROMANCE_NUMBER_FIRST).split())
_NUMBER_THEN_TYPE_SPOKEN = frozenset(("rue avenue boulevard chemin impasse allee quai montee " + _ROMANCE_NUMBER_FIRST)
                                     .split())
# types before the name that speech can use unambiguously ("calle mayor doce", "via roma dieci")
_SPOKEN_BEFORE = frozenset("calle avenida avda paseo carretera camino ronda travesia glorieta rambla plaza rua rue "
                           "viale piazza corso carrer passeig ulica strada".split())


# "of" in the Romance languages' street names ("pasaje de baudelio fernández", "cuesta del río"): a
# street word of ``street_before`` followed by one is a street in speech too, even where the word is
# also an everyday Spanish word the shared everyday list holds ("pasaje", "cuesta", "acceso")
_ROMANCE_OF = frozenset("de del da do das dos di della delle dei degli".split())
# words that lead a time or amount, never a street name's ("via de gaulle airport at two")
_BEFORE_A_TIME = frozenset("at in on to by for from until till around about after before".split())


@functools.lru_cache(maxsize=4)
def _phrases_by_first(key: str) -> dict[str, tuple[tuple[str, ...], ...]]:
    """The phrases of ``structures.yaml``'s list ``key`` by their first word, longest first."""
    idx: dict[str, list[tuple[str, ...]]] = {}
    for ph in structures().get(key, ()):
        idx.setdefault(ph[0], []).append(ph)
    return {k: tuple(sorted(v, key=len, reverse=True)) for k, v in idx.items()}


# words that open no street's name, capitalised as a sentence's or an answer's first word ("A. On Maple
# Avenue", "At Oak Street"): with the lexicon's ``name_lead_words`` (at, in, on ...); not "The" ("The
# Strand"), nor a modal that is a month or a name ("May Place")
_NO_STREET_OPENERS = frozenset({"a", "an", "i", "my", "our", "your", "his", "her", "their", "its", "we", "you", "he",
                                "she", "they", "it"})


@functools.lru_cache(maxsize=1)
def _street_before() -> frozenset[str]:
    """Every street word said before the name, those that need more of the address after them included."""
    return word_set("street_before") | word_set("street_before_needs_tail")


@functools.lru_cache(maxsize=65536)
def _glued(key: str) -> bool:
    """The word ends with a glued street type ("hauptstrasse", "keizersgracht")."""
    return any(key.endswith(g) and len(key) >= len(g) + 3 for g in word_set("street_glued"))


class _Addresses(StreetForms):
    def __init__(self, doc: DetectDoc, taken: list[bool]) -> None:
        self.doc = doc
        self.v = word_view(doc)
        self.keys = self.v.keys
        self.n = len(self.keys)
        self.taken = taken
        self.stop = doc.lex.stop_words if doc.lex else frozenset()
        self.months = doc.lex.months if doc.lex else frozenset()
        self.openers_not = _NO_STREET_OPENERS | (frozenset(doc.lex.raw.get("name_lead_words") or ()) if doc.lex else
                                                 frozenset())
        self.common = everyday_words()
        self.places = load_places()
        self.names = load_world_names()
        self.after = word_set("street_after")
        self.after_cased = word_set("street_after_cased")
        self.needs_tail = word_set("street_before_needs_tail")
        self.before = _street_before()
        self.units = word_set("unit_words")
        self.time_units = word_set("house_number_not_before")
        self.crossing_words = word_set("intersection_words")
        self.crossing_joins = word_set("intersection_joins")
        self.dirs = word_set("directions")
        self.military = word_set("military_post")
        self.ships = word_set("military_ships")
        self.grid = word_set("street_grid")
        self.street_months = word_set("street_name_months")
        self.locality_labels = word_set("locality_labels")
        self.postcode_labels = word_set("postcode_labels")
        self.region_abbreviations = word_set("region_abbreviations")
        self.us_states_short = word_set("us_state_abbreviations")
        self.km_roads = word_set("km_roads")
        self.km_words = word_set("km_words")
        self.street_lower = word_set("street_lower_words")
        self.street_places = word_set("street_place_prepositions")
        self.buildings = word_set("building_words")
        self.buildings_before = self.buildings | word_set("building_words_before_street")
        self.building_joiners = word_set("building_joiners")
        # any dash said, "minus" too, is no word of a street's name
        self.said_dashes = said_dashes(doc.lex, minus=True) if doc.lex else frozenset()
        self.after_lower = word_set("street_after_lower")
        self.po = _phrases_by_first("po_box")
        self.cores = self.v.cores
        self.num = [False] * self.n  # word belongs to a number token (spoken or written)
        self.num_end = list(range(1, self.n + 1))  # end word of that number token
        self.ordinal = [False] * self.n
        norm = doc.norm
        if norm is not None:
            for t in norm.tokens:
                if t.kind in (NUM, ALNUM) or (t.kind == LETTER and False):
                    for w in range(t.w0, t.w1):
                        if w < self.n:
                            if t.ordinal:
                                self.ordinal[w] = True
                            else:
                                self.num[w] = True
                                self.num_end[w] = max(self.num_end[w], t.w1)
        for w, c in enumerate(self.cores):
            if c.startswith("#") and c[1:].isdigit():
                self.num[w] = True
            if c and c[0].isdigit() and c[-1:] in ("º", "ª"):
                self.ordinal[w] = True
        self.hits: list[Hit] = []
        # the nearest word at or after each word that is a street type, glued or apart (n: none)
        self.next_type = [self.n] * (self.n + 1)
        for k in range(self.n - 1, -1, -1):
            typed = self.street_type(k) or self.glued_type(self.keys[k])
            self.next_type[k] = k if typed else self.next_type[k + 1]

    # helpers -----------------------------------------------------------------------------------
    def same(self, a: int, b: int) -> bool:
        return 0 <= a < self.n and 0 <= b < self.n and self.v.seg[a] == self.v.seg[b]

    def free(self, k: int) -> bool:
        return 0 <= k < self.n and not self.taken[k]

    def house(self, k: int) -> int:
        """End of a house number starting at ``k`` (0 when none): "12", "221B", "797/43" (flat 797 of
        number 43, as Australians write it), or a spoken number. A number of a time unit is none ("back
        in the ring two months later", "at the plaza three days ago")."""
        e = self._house(k)
        if e and e < self.n and self.same(k, e) and self.keys[e] in self.time_units:
            return 0
        return e

    def _house(self, k: int) -> int:
        if not self.free(k):
            return 0
        c = self.cores[k]
        if not self.num[k]:
            if c.lower() in ("s/n", "s/nº", "s/no", "sn"):  # "sin número", "sem número": a street with no number
                return k + 1
            if self._said_no_number(k):
                return k + 2
            return k + 1 if "/" in c and HOUSE.fullmatch(c) else 0
        if any(ch.isdigit() for ch in c):
            if not HOUSE.fullmatch(c):
                return 0
            e = k + 1
            if len(c) == 1 and c.isdigit():  # digits said one by one, as ASR writes them: "1 2 3 Main Street"
                while e < self.n and e - k < 5 and self.same(k, e) and len(self.cores[e]) == 1 and (
                        self.cores[e].isdigit()) and not self.v.comma_after[e - 1] and not self.v.stop_after[e - 1]:
                    e += 1
            return e
        # spoken: a number token of at most five digits ("one twenty three", "nine thousand five
        # hundred and twenty six")
        e = self.num_end[k]
        digits = self._spoken_digits(k)
        if 0 < digits <= 2:  # said in pairs or digit by digit: "ninety four sixteen", "six one three five"
            while e < self.n and self.num[e] and self.same(k, e) and 0 < (d := self._spoken_digits(e)) <= 2 and (
                    digits + d <= 5):
                digits += d
                e = self.num_end[e]
        return e if e - k <= 4 or 0 < digits <= 5 else 0

    def house_then_postcode(self, k: int) -> int:
        """End of the house number at ``k`` after a street's name, where speech runs it into the
        postcode: :meth:`house` takes as many digits as a house may have, so "felixbaan nine fourteen
        sixty two hs warfhuizen" (9, 1462 HS) and "travessa silva nine seven five zero two four five
        five aveiro" (9, 7502-455) left a piece of postcode that reads as none, and the town went
        unflagged. The house ends at the last number boundary where the rest of the run reads as one
        postcode to its last number."""
        e = self.house(k)
        if not e or self.v.cased or not self.num[k]:
            return e
        run_end = e
        while run_end < self.n and self.num[run_end] and self.same(k, run_end):
            run_end = self.num_end[run_end]
        if run_end == e and (e >= self.n or self.postcode(e)):
            return e
        bounds, w = [], k
        while w < e:
            w = self.num_end[w] if self.num[w] else w + 1
            if w < e:
                bounds.append(w)
        for h in reversed(bounds):
            p = self.postcode(h)
            if p >= run_end:
                return h
        return e

    def _said_no_number(self, k: int) -> bool:
        """"s n" read aloud from "s/n" ("rua brito s n five seven one ..."), before a number (the postcode)."""
        return (not self.v.cased and self.keys[k] == "s" and k + 2 < self.n and self.keys[k + 1] == "n"
                and self.same(k, k + 2) and bool(self.num[k + 2]))

    def _number_text(self, k: int) -> str:
        """The digits of the spoken or written number token at word ``k`` ("" when none is there)."""
        norm = self.doc.norm
        t = norm.token_of_word(k) if norm is not None and self.num[k] else None
        return norm.tokens[t].text if t is not None and norm.tokens[t].text.isdigit() else ""

    def _spoken_digits(self, k: int) -> int:
        """How many digits the number token at ``k`` writes (0: none there)."""
        return len(self._number_text(k))

    def name_word(self, k: int, first: bool = False) -> bool:
        if not self.free(k) or not self.keys[k] or self.doc.words[k].rstrip().endswith(":"):
            return False  # "Address: Flat 22": a form's label, no street's name
        key = self.keys[k]
        if self.v.cased:
            if first and key in self.openers_not:
                return False  # "A. On Maple Avenue": a capitalised preposition or pronoun opens no street's name
            return self.v.cap[k] or self.ordinal[k] or (not first and key in ("de", "del", "la", "las", "los", "of",
                                                                                "the", "di", "du", "des", "do", "da",
                                                                                "dos", "das", "von", "der", "van",
                                                                                "y", "e"))
        # a number word of a spoken ordinal is a name's ("two hundred west fifty seventh street")
        return (key not in self.stop or self.ordinal[k] or key in ("de", "del", "la", "las", "los", "the", "of")) and (
            key.replace("-", "").isalpha() or self.ordinal[k])

    def glued_type(self, key: str) -> bool:
        """"hauptstrasse", "kirchweg"; no everyday word that merely ends like one ("expiring 09/27",
        "offering 5", "gathering 12")."""
        return _glued(key) and key not in self.common

    # street parts ------------------------------------------------------------------------------
    def po_box(self, i: int) -> int:
        keys = self.keys
        for ph in self.po.get(keys[i], ()):
            m = len(ph)
            if i + m < self.n and tuple(keys[i : i + m]) == ph and self.same(i, i + m):
                if ph in (("box",), ("unit",)) and not (self.v.cap[i] or ph == ("unit",)):
                    continue
                e = self.house(i + m)
                if not e:
                    continue
                if ph == ("unit",):
                    # military "Unit 4523 Box 123" only
                    if not (e < self.n and keys[e] == "box" and self.house(e + 1)):
                        continue
                    e = self.house(e + 1)
                if ph == ("box",) and not (i > 0 and self.keys[i - 1] in self.military):
                    continue
                return e
        if keys[i] in self.ships:
            # a ship, then FPO: "USNS Kirby, FPO AA 12345"
            e = i + 1
            while e < self.n and e - i <= 3 and self.keys[e] not in self.military and not self.v.comma_after[e - 1]:
                e += 1
            if e < self.n and e > i + 1 and any(self.keys[k] in self.military for k in range(e, min(self.n, e + 2))):
                return e
        return 0

    def _unit_number_before(self, i: int) -> bool:
        """Is the number before ``i`` a flat's, led by a unit word ("Flat 14 10 ...", "apt four hundred
        and eighty three seven hundred and ninety ...")?"""
        return self._unit_word_before(i) is not None

    def _unit_word_before(self, i: int) -> int | None:
        """The unit word whose number ends just before ``i``, said in any number of words ("apt five
        hundred and fifty | ninety two ryan formation"), or None."""
        if i < 2:
            return None
        start = i - 1
        if i >= 3 and re.fullmatch(r"[A-Za-z]", self.cores[start] or "-") and self.num[start - 1]:
            start -= 1  # the flat's letter: "apartment five b | two twenty west end avenue"
        norm = self.doc.norm
        t = norm.token_of_word(start) if norm is not None and self.num[start] else None
        if t is not None:
            start = norm.tokens[t].w0
        u = start - 1
        if u >= 0 and self.keys[u] in ("no", "number", "nº", "num", "#") and u > 0 and self.keys[u - 1] in self.units:
            u -= 1  # "apartment number five"
        ok = u >= 0 and self.keys[u] in self.units and self.same(u, i) and not self.taken[u] and self.unit(u) == i
        while not ok and u > 0 and start - u < 4 and self.num[u]:  # a number said in pieces: "apartment two | oh four"
            u -= 1
            ok = self.keys[u] in self.units and self.same(u, i) and not self.taken[u] and self.unit(u) == i
        return u if ok else None

    def _flat_and_building_before(self, i: int) -> int:
        """Where an address starts whose street starts at ``i``: at the flat before a named building
        before the street ("apartment twelve at the sunrise towers on oak street", "unit five maple
        house forty two king street", "Flat 4, Rosewood Court, 12 Hill Road"); ``i`` where no flat's
        number comes before a building. The building alone ("the tower on oak street") is no part."""
        k = i
        if k >= 1 and self.keys[k - 1] in self.building_joiners and self.free(k - 1) and self.same(k - 1, i):
            k -= 1
        e = k  # the building's words end here
        if k < i and k >= 2 and self.same(k - 1, k):  # a flat, "at", the street: "apartment 4B at 310 West 72nd St"
            u = self._unit_word_before(k)
            if u is not None:
                return u
        if e < 2 or not self.free(e - 1) or self.keys[e - 1] not in self.buildings_before or not self.same(e - 1, i):
            return i
        b = e - 1
        while b > 0 and e - b < 4 and self.same(b - 1, e - 1) and self.name_word(b - 1, True) and not (
                self.num[b - 1] or self.keys[b - 1] in self.units or self.keys[b - 1] in self.building_joiners
                or self.keys[b - 1] == "the"):
            b -= 1
        if b == e - 1:
            return i
        s = b
        if s >= 1 and self.keys[s - 1] == "the" and self.free(s - 1):
            s -= 1
        if s >= 1 and self.keys[s - 1] in self.building_joiners and self.free(s - 1):
            s -= 1
        u = self._unit_word_before(s) if s >= 2 and self.same(s - 1, s) else None
        return u if u is not None else i

    def number_first(self, i: int) -> int:
        e = self.house(i)
        if not e or e >= self.n or not self.same(i, e):
            return 0
        if i > 0 and self.num[i - 1] and self.same(i - 1, i) and not self.v.comma_after[i - 1] and not (
                self._unit_number_before(i)):
            return 0  # inside a longer number (a phone number, an amount), not a flat's ("Flat 14 10 ...")
        if i > 0 and self.keys[i - 1] in self.months and self.same(i - 1, i):
            return 0  # "on april twenty six nineteen ninety the court ruled": a date's day and year
        j = e
        keys = self.keys
        # a comma after the number: before a type ("12, Calle Mayor") or, written, before a name and
        # its type ("12, High Street", "69, Bandi Chowk": British and Indian style)
        if self.v.comma_after[j - 1] and not (j < self.n and keys[j] in self.before) and not (
                self.v.cased and j < self.n and self.v.cap[j]):
            return 0
        # "12 rue de la Paix", "5 Avenue des Champs", "8932 chemin Poirier": the number-then-type order of
        # French addresses (in speech only the types no everyday phrase starts with: "two place settings")
        if keys[j] in (_NUMBER_THEN_TYPE if self.v.cased else _NUMBER_THEN_TYPE_SPOKEN):
            k = j + 1
            while k < self.n and k - j <= 6 and self.same(j, k) and self.name_word(k, False) and (
                    keys[k] not in self.units or k == j + 1):
                k += 1
                if self._apart(k - 1) or self.v.sentence_after[k - 1]:
                    break
            while k > j + 1 and keys[k - 1] in ("de", "del", "la", "las", "los", "of", "the", "des", "du"):
                k -= 1
            if k > j + 1 and (not self.v.cased or any(self.v.cap[x] for x in range(j + 1, k))):
                return k
        # "123 Main St", "1600 Pennsylvania Avenue NW", "221B Baker Street"
        k = j
        lower_piece = False  # a lower-case word in a cased street name (ASR's split of an unknown name)
        while k < self.n and k - j < 5 and self.same(j, k):
            key = keys[k]
            if lower_piece and k > j and not (key in _PLAIN_STREET and self._unit_or_postcode_after(k + 1)):
                if self.street_type(k):
                    return 0
            elif k > j and (self.street_type(k) or self.spoken_tail_type(k, i)):
                end = k + 1
                # a type word that is the name's last word, the type after it: "Oak Ridge Drive",
                # "Park Lane Road", "Mill Creek Court"
                # (on its line: "268 Smith Place⏎RD 7" is New Zealand's rural delivery after the street)
                while end < self.n and end - j < 6 and self.same(k, end) and not self._apart(end - 1) \
                        and not self.v.sentence_after[end - 1] and self.street_type(end):
                    end += 1
                if end < self.n and keys[end] in self.dirs and self.same(k, end) and (
                        not self.v.cased or self.v.upper[end] or self.v.cap[end]) and not self._apart(end - 1):
                    end += 1
                return end
            if k > j and self._misheard_name_piece(k, i):
                k += 1
                continue
            if self.v.cased and not self.v.cap[k] and self.free(k) and key.isalpha() and key not in self.stop and (
                    not self.v.comma_after[k]) and self.doc.words[k].strip().startswith("-") and len(key) > 2:
                lower_piece = True  # "42 -figure or road apartment 9C": Whisper's pieces of "Figueroa"
                k += 1
                continue
            if not self.name_word(k, k == j) or (k > j and self._apart(k - 1)):
                break
            if self.glued_type(key) and k == j:
                return k + 1
            k += 1
        return 0

    def _misheard_name_piece(self, k: int, start: int) -> bool:
        """A function word inside a street name that ASR split into everyday words ("42 figure or road
        apartment 9C" for "Figueroa Road", "chief or drive"): counts when it stands straight before a
        common street type and a unit or postcode follows the type."""
        e = k + 1
        if not (e < self.n and self.same(k, e) and self.free(k) and self.keys[k] in self.stop
                and self.keys[e] in _PLAIN_STREET and self.keys[k] not in ("the", "a", "an", "my", "your", "on",
                                                                           "in", "at", "to", "of")):
            return False
        return self._unit_or_postcode_after(e + 1)

    def _unit_or_postcode_after(self, t: int) -> bool:
        if t >= self.n or not self.same(t - 1, t):
            return False
        return bool(self.unit(t) or self.postcode(t))

    def type_first(self, i: int) -> int:
        keys = self.keys
        if keys[i] not in self.before:
            return 0
        # in speech a street word that is also an everyday word ("via", "place", "square") needs a
        # postcode after the house number ("via capecchi two hundred and seventy thirty four thousand
        # and fifteen muggia"): "square root of forty two", "place two of ..." are none; "pasaje de ...",
        # "cuesta del ..." are streets
        needs_postcode = not self.v.cased and keys[i] not in _SPOKEN_BEFORE and not self._foreign_type(
            keys[i]) and not (i + 1 < self.n and self.same(i, i + 1) and keys[i + 1] in _ROMANCE_OF)
        lower_type = self.v.cased and not self.v.cap[i]  # "ul. Marszałkowska 1", "c/ Mayor 5"
        k = i + 1
        if self.v.cased and (d := self._date_name(k)):
            k = d  # "Calle 5 de Mayo 32"
            if k < self.n and self.v.comma_after[k - 1]:
                e = self.house(k) if self.same(i, k) else 0
                return e if e else -k
        if self.v.cased and k + 1 < self.n and self.num[k] and GRID_NUMBER.fullmatch(self.cores[k]) and (
                signed := self._signed_house(k + 1)) and self.same(i, k):
            return signed  # a numbered street, then the sign and the house: "Avenida 7 N° 329"
        while k < self.n and k - i <= 6 and self.same(i, k) and not self.num[k] and not self._said_no_number(k) and (
                self.name_word(k, False) or (not self.v.cased and self.free(k) and self.keys[k].isalpha()
                                             and self.keys[k] not in self.units
                                             and self.keys[k] not in _BEFORE_A_TIME)):
            k += 1
            if self.v.sentence_after[k - 1] and not (self.v.cased and _INITIALS.fullmatch(self.doc.words[k - 1].strip())):
                return 0  # a sentence ends; initials do not end one: "Av. J.M. de Rosas N° 113"
            if self.v.comma_after[k - 1]:
                break
        if k == i + 1 or (self.v.cased and not any(self.v.cap[x] or self.num[x] for x in range(i + 1, k))):
            return 0
        if not any(len(self.keys[x]) >= 2 and self.keys[x] not in self.said_dashes for x in range(i + 1, k)):
            return 0  # "R S eighty nine oh one", "C L M dash two zero ...": a reference said in letters, no "Rua S"
        e = self.house_then_postcode(k) if k < self.n and self.same(i, k) else 0
        if not e and self.v.cased and k < self.n and self.same(i, k):
            e = self._signed_house(k)  # "Diag. Alvear N° 547", "Av. Posadas N° 2693"
        if needs_postcode:
            return e if e and e < self.n and self.same(i, e) and self._postcode_or_unit_after(e) else 0
        if e:
            return e
        if lower_type:
            return 0
        if self.v.cased and keys[i] in ("calle", "avenida", "avda", "rue", "via", "viale", "piazza", "rua",
                                        "carrer", "paseo", "plaza", "corso", "boulevard") and self.v.cap[i + 1]:
            return -k  # a named street without a number
        return 0

    def _postcode_or_unit_after(self, e: int) -> bool:
        """After a house number in speech: a postcode, a flat or door ("puerta one", "apt five"), or
        a town and then a postcode ("pasaje aurora twenty two sevilla forty one thousand and three")."""
        if self.postcode(e) or self.unit(e):
            return True
        t = self.town(e, False)
        return bool(t) and t < self.n and self.same(e, t) and bool(self.postcode(t))

    def _foreign_type(self, key: str) -> bool:
        """A street word said before the name that is no English word ("alameda", "praça", "incrocio"):
        speech may use it like the written form (a house number must still follow the name)."""
        return len(key) > 2 and key not in self.common and key not in self.stop

    def unit_then_street(self, i: int) -> int:
        """A flat or suite, then a named street with no house number, in cased writing: "Flat 39w,
        Mann Stream" (British addresses number the flat, not the building)."""
        if not self.v.cased or self.keys[i] not in self.units or self.keys[i] in ("no", "n", "nº", "num", "box"):
            return 0
        u = self.unit(i)
        if not u or u <= i + 1 or u >= self.n or not self.same(i, u):
            return 0
        k = u
        while k < self.n and k - u < 4 and self.same(u, k) and self.name_word(k, k == u) and not self.num[k]:
            if k > u and self.street_type(k):
                return k + 1
            if self.v.comma_after[k]:
                break
            k += 1
        return 0

    def name_type_number(self, i: int) -> int:
        """"Hauptstraße 5", "Berliner Straße 5", "Keizersgracht 123"; "5th Ave", "42nd Street" (an
        ordinal stands for a capital)."""
        if self.next_type[i] >= i + 4:
            return 0  # no street type in reach: most sentences hold none
        if not self.name_word(i, True) or (self.v.cased and not (self.v.cap[i] or self.ordinal[i])):
            return 0
        keys = self.keys
        k = i
        while k < self.n and k - i < 4 and self.same(i, k):
            key = keys[k]
            # a type word after a comma is none of the name before it ("Salt Lake City, UT 84101":
            # Utah, not Hungarian "út")
            if k > i and self._apart(k - 1):
                return 0  # "Attn: Klaus Wagner⏎Friedrichstraße 112": a name on the line above is none of the street's
            is_type = (k > i and self.street_type(k)) or self.glued_type(key)
            if is_type and self.free(k):
                e = self.house_then_postcode(k + 1) if k + 1 < self.n and self.same(k, k + 1) and not (
                    self.v.comma_after[k] and key in self.after) else 0
                if e:
                    return e
                if key in _PLAIN_STREET and k > i and (self.v.cased and self.v.cap[k] and all(
                        self.v.cap[x] or self.ordinal[x] for x in range(i, k)) or not self.v.cased and self.cue_before(i)):
                    if all(keys[x] in self.stop for x in range(i, k)):
                        return 0
                    end = k + 1  # a named street without a number, with its quarter: "Queen Street West"
                    if end < self.n and keys[end] in self.dirs and self.same(k, end) and (
                            not self.v.cased or self.v.upper[end] or self.v.cap[end]) and not self._apart(k):
                        end += 1
                    return -end
                return 0
            if not self.name_word(k, k == i):
                return 0
            k += 1
        return 0

    def street_type(self, k: int) -> bool:
        """A street type after the name: the common ones ("Street", "rd", "Lane") in any text, the
        long tail ("Parkways", "Knolls", "Vista") only written with a capital."""
        key = self.keys[k]
        if key in self.after:
            return not self.v.cased or self.v.cap[k] or key in _PLAIN_STREET or key in self.after_lower
        return self.v.cased and (self.v.cap[k] and key in self.after_cased or key in self.after_lower)

    def spoken_tail_type(self, k: int, start: int) -> bool:
        """In speech, a street type of the long tail ("Shores", "Manor", "Branch": everyday words said
        aloud) after a house number and name counts when a unit, town, region or postcode follows it
        ("thirty eight javier shores apt two five one andrewborough ..."); "two big mountains" alone
        is no address."""
        if self.v.cased or not self.free(k) or self.keys[k] not in self.after_cased:
            return False
        e = k + 1
        if not (e < self.n and self.same(k, e)):
            return False
        t = self.tail(e, start)  # "5 green lights on the way": a lone "on" is no Ontario
        return any(self.keys[x] and self.keys[x] not in self.stop for x in range(e, t))

    def cue_before(self, i: int) -> bool:
        return i > 0 and self.same(i - 1, i) and self.keys[i - 1] in ("on", "at", "in", "en", "address", "calle",
                                                                     "live", "lives", "street", "off", "near")

    # tail --------------------------------------------------------------------------------------
    def postcode(self, k: int) -> int:
        if not self.free(k):
            return 0
        c = self.cores[k]
        if c and _POSTCODE_ONE.fullmatch(c) and (any(ch.isdigit() for ch in c)):
            if c.isdigit() and len(c) == 4 and k + 1 < self.n and self.same(k, k + 1) and re.fullmatch(
                    r"[A-Z]{2}", self.cores[k + 1]) and self.v.cased:
                return k + 2  # Dutch "1015 CJ"
            return k + 1
        if c and k + 1 < self.n and _POSTCODE_FIRST.fullmatch(c) and _POSTCODE_SECOND.fullmatch(self.cores[k + 1]) \
                and self.same(k, k + 1) and any(ch.isdigit() for ch in c + self.cores[k + 1]) and self.v.cased \
                and not self.v.comma_after[k]:
            return k + 2
        if not self.v.cased and c and k + 1 < self.n and self.same(k, k + 1) and not self.v.comma_after[k] and (
                _LOWER_UK_CA_FIRST.fullmatch(c) and _LOWER_UK_CA_SECOND.fullmatch(self.cores[k + 1])):
            return k + 2  # typed in lower case, as chats are: "ox7 5nh", "h2x 1k4" (digits in both halves)
        # in speech a postcode of letters and numbers first: "six thousand one hundred and ten is" is
        # Dutch "6110 IS", not the number alone
        alnum = 0 if self.v.cased else self._spoken_alnum_postcode(k)
        if alnum:
            return alnum
        # spoken digits: a number of four to six digits ("forty seven thousand two hundred and fifty"),
        # or up to eight said digit by digit (Portuguese "4703-484", Brazilian "01310-100"); three after
        # a region code (Australian "0957" said "nine hundred and fifty seven")
        if self.num[k] and not any(ch.isdigit() for ch in c):
            e, digits, one_by_one = k, 0, True
            norm = self.doc.norm
            while e < self.n and self.num[e] and not any(ch.isdigit() for ch in self.cores[e]) and self.same(k, e):
                t = norm.token_of_word(e) if norm else None
                if t is None:
                    break
                tok = norm.tokens[t]
                said_by_digit = tok.w1 - tok.w0 == len(tok.text)  # "zero three" is one token "03", a digit a word
                if digits >= 5 and not (one_by_one and said_by_digit and digits + len(tok.text) <= 8):
                    break
                digits += len(tok.text)
                one_by_one = one_by_one and tok.w1 - tok.w0 == len(tok.text)
                e = max(e + 1, tok.w1)
            after_region = k > 0 and self.same(k - 1, k) and self._region_word(k - 1)
            if 4 <= digits <= 6 or (digits in (7, 8) and one_by_one) or (digits == 3 and after_region):
                return e
        return 0

    def _spoken_alnum_postcode(self, k: int) -> int:
        """End of a British, Canadian or Dutch postcode said as letters and numbers ("s six u zero qy",
        "x three y eight j nine", "six thousand one hundred and ten is"), 0 when none starts at ``k``."""
        text, e, best = "", k, 0
        while e < self.n and e - k < 9 and self.free(e) and self.same(k, e):
            digits = self._number_text(e)
            if digits:
                text += digits
                e = self.num_end[e]
            elif len(self.keys[e]) <= 2 and self.keys[e].isalpha() and self.keys[e].isascii():
                text += self.keys[e].upper()
                e += 1
            else:
                break
            if _SPOKEN_POSTCODE.fullmatch(text):
                best = e
        return best

    def unit(self, k: int) -> int:
        if not self.free(k):
            return 0
        key = self.keys[k]
        c = self.cores[k]
        if key in self.units or (key == "of" and self.v.cased and self.doc.words[k].strip() == "Of."):
            if self.doc.words[k].endswith(":") and key not in ("apt", "apartment", "flat", "suite", "unit"):
                return 0  # "Office: 1 Main St": a label before the address, whose number is the house's
            e = k + 1  # "Of. 1315": an office in Spanish, written short with its capital and point
            if e < self.n and self.keys[e] in ("no", "number", "nº", "num", "#"):
                e += 1
            if e < self.n and self.same(k, e) and self.free(e) and (
                    self.num[e] or self.ordinal[e] or _UNIT_ID.fullmatch(self.cores[e] or "-")) and (
                    self.num[e] or self.ordinal[e] or len(self.cores[e]) <= 3) and self.cores[e][:1] != "(":
                if self.num[e] and not any(ch.isdigit() for ch in self.cores[e]):
                    # said digit by digit or in pairs, as a flat's number is: "apartment two oh four"
                    digits, f = self._spoken_digits(e), e
                    e = self.num_end[e]
                    while 0 < digits <= 2 and e < self.n and self.num[e] and self.same(k, e) and self.free(e) and (
                            not any(ch.isdigit() for ch in self.cores[e])) and 0 < (d := self._spoken_digits(e)) <= 2 \
                            and digits + d <= 4 and e - f < 4:
                        digits += d
                        e = self.num_end[e]
                else:
                    e = self.num_end[e] if self.num[e] else e + 1
                if e < self.n and self.same(k, e) and self.free(e) and re.fullmatch(r"[A-Za-z]", self.cores[e]) and (
                        not self.v.comma_after[e - 1]):
                    e += 1
                return e
            if key in ("bajo", "entresuelo", "ático", "atico", "izquierda", "izda", "izq", "derecha", "dcha",
                       "exterior", "interior", "centro"):
                return k + 1
            return 0
        if c.startswith("#") and self.num[k]:
            return k + 1
        if self.ordinal[k]:
            e = k + 1
            if e < self.n and self.same(k, e) and self.free(e) and (
                    re.fullmatch(r"[A-Za-z]", self.cores[e]) or self.keys[e] in self.units):
                e += 1
            return e
        return 0

    def town(self, k: int, after_postcode: bool) -> int:
        """A town, region or country at ``k`` (place list, or capitalised words in cased text; in
        speech, :meth:`_spoken_town`)."""
        if not self.free(k) or not self.keys[k]:
            return 0
        if not self.v.cased:
            e = self._spoken_town(k, after_postcode)
            if e:
                return e
        m = self.places.match(self.keys, k, self.v.seg_end[k])
        if m is not None and not after_postcode and self.v.cased and self.v.cap[k]:
            run = self._capital_run(k)
            if run > k + m[0] and run < self.n and (self.postcode(run) or self._region_code(run)):
                return run  # "North Amanda, FM 91391": the list knows "North", the town is two words
        if m is not None and after_postcode and self.v.cased and self.v.cap[k]:
            run = self._capital_run(k)
            if run > k + m[0]:  # "San Rocco (CN)", "Osterode am Harz": more of the town than the list knows
                return run
        if m is not None:
            length, place = m
            if place.category == "REGION_CODE":
                if self.v.cased and not self.v.upper[k]:
                    return 0
                if not self.v.cased and self.keys[k] in self.stop and not self.postcode(k + length):
                    return 0  # said, "on", "me", "in" are Ontario, Maine, Indiana only before a postcode
                return k + length
            if (not self.v.cased or all(self.v.cap[x] for x in range(k, k + length)
                                        if self.keys[x] not in self._IN_TOWN_NAMES)):
                if not place.common or after_postcode or self.v.cased:
                    return k + length
        after_lone_comma = k > 0 and not self.keys[k - 1] and self.doc.words[k - 1].strip() in _SEPARATOR_WORDS
        if self.v.cased and self.v.cap[k] and self.keys[k].replace("-", "").isalpha() and (
                not self.v.sent_start[k] or after_lone_comma):
            e = k
            while e < self.n and e - k < 3 and self.same(k, e) and self.v.cap[e] and self.keys[e].replace(
                    "-", "").isalpha():
                e += 1
                if self.v.comma_after[e - 1]:
                    break
            if after_postcode:
                return self._capital_run(k)
            # a capitalised unknown town needs a region code or postcode after it (a region code is two
            # to four capitals: "MT", "TAS", "VIC" — the last also a Catalan town — known as a place or
            # itself followed by a postcode: "FM 91391", "TLAX 09546")
            if e < self.n and (self.postcode(e) or self._region_code(e)):
                return e
            # a district or neighbourhood the lists do not know, then the town they know: "Botafogo, Rio
            # de Janeiro", "Cercado de Lima, Lima 15001"
            run = self._capital_run(k)
            if run < self.n and self.v.comma_after[run - 1] and self.same(k, run) and self.v.cap[run] and (
                    self.places.match(self.keys, run, self.v.seg_end[run]) is not None
                    or self.keys[run] in self.locality_labels):
                return run  # ... or the region labelled after it: "Timaukel, Región de Magallanes"
        if self.cores[k][:1] == "(" and self.v.cased:
            e = k
            while e < self.n and e - k < 3 and not self.doc.words[e].rstrip(",.").endswith(")"):
                e += 1
            return e + 1 if e < self.n else 0
        return 0

    def _spoken_town(self, k: int, after_postcode: bool) -> int:
        """End of a town the lists do not know, in speech: up to four words (and particles), each a name or a word no
        everyday list holds ("andrewborough", "port shannon", "san fruttuoso", "pereira sur mer"; a town's
        first word may be an everyday "port", "lake", "north" of ``town_prefixes``), followed by a region
        code or a postcode, or itself after the postcode. "last year" after an address is no town."""
        names = self.names
        if not after_postcode:  # a postcode typed after it ("chipping norton ox7 5nh"): the words between are the town
            for e2 in range(k + 1, min(self.n, k + 4)):
                if not (self.free(e2 - 1) and self.same(k, e2) and self.keys[e2 - 1].isalpha()
                        and self.keys[e2 - 1] not in self.stop) or self.v.comma_after[e2 - 1] and e2 - 1 > k:
                    break
                if any(ch.isdigit() for ch in self.cores[e2]) and self.postcode(e2):
                    return e2
        prefixes = word_set("town_prefixes")
        e, last, after_particle, particles = k, 0, False, 0
        while e < self.n and e - k - particles < 4 and self.free(e) and self.same(k, e):
            key = self.keys[e]
            if not key or not key.replace("-", "").isalpha() or len(key) < 2 or self.num[e]:
                break
            if e > k and self.postcode(e):
                break  # the postcode after the town ("lake christianchester se seven m three zn")
            particle = e > k and key in self._TOWN_PARTICLES and e + 1 < self.n and self.same(e, e + 1) and (
                self.keys[e + 1].isalpha() and self.keys[e + 1] not in self.stop)  # "de" of "reguengos de monsaraz"
            if e == k and after_postcode and key in self._TOWN_ARTICLES and e + 1 < self.n and self.same(e, e + 1) \
                    and self._proper_town_word(e + 1):
                particle = True  # a town's article after the postcode: "... seventy six thousand dos santos les bains"
            place = self.places.get(key)
            if place is not None and place.category == "REGION_CODE" and e > k and not particle:
                break  # the region after the town
            proper = not particle and key not in self.stop and (
                key not in self.common or names.is_name(key) or place is not None or after_particle)
            after_particle = particle  # the word after "sur", "de" is the town's, everyday or not ("sur mer")
            particles += particle  # four words besides them: "vila nova de santo andré"
            if proper:
                last = e + 1
            elif not ((e == k and key in prefixes) or particle):
                break
            e += 1
            if self.v.sentence_after[e - 1]:
                break
        if not last:
            return 0
        if after_postcode:  # an Italian province code may close it: "arpino fr", "popoli pe"
            if last < self.n and self.same(k, last) and self.free(last) and len(self.keys[last]) == 2 and (
                    self.keys[last].isalpha() and self.keys[last] not in self.stop and (
                        last + 1 >= self.n or not self.same(last, last + 1) or self.v.sentence_after[last]
                        or self.keys[last + 1] in self.stop)):  # "muggia ts thanks"
                return last + 1
            return last
        if last < self.n and self.same(k, last) and self.free(last) and (
                self.postcode(last) or self._spoken_region(last)):
            return last
        return 0

    def _spoken_region(self, e: int) -> bool:
        """A state or province code in speech ("nsw", "qc", "wa"), or, after a town that followed the
        postcode, any two-letter word (an Italian province: "arpino fr", "popoli pe")."""
        if not self._region_word(e):
            return False
        return self.keys[e] not in self.stop or (e + 1 < self.n and self.same(e, e + 1) and bool(self.postcode(e + 1)))

    def _region_word(self, e: int) -> bool:
        if self.v.cased or not self.keys[e]:
            return False
        place = self.places.get(self.keys[e])
        return place is not None and (place.category == "REGION_CODE" or len(self.keys[e]) <= 3)

    def _region_code(self, e: int) -> bool:
        c = self.cores[e]
        if not (self.v.upper[e] and 2 <= len(c) <= 4 and c.isalpha()):
            return False
        return self.places.get(self.keys[e]) is not None or (e + 1 < self.n and bool(self.postcode(e + 1)))

    _TOWN_ARTICLES = frozenset({"la", "le", "les", "los", "las", "el", "il", "lo", "dos", "das", "den", "de"})
    _IN_TOWN_NAMES = frozenset({"de", "la", "of", "the", "del", "am", "an", "los", "las", "el", "y", "do", "da", "dos",
                                "das", "di", "upon", "on", "sur"})  # small words of a listed town written in capitals
    _LOCALITY_ARTICLES = _TOWN_ARTICLES | {"o", "a", "os", "as", "del", "do", "da"}  # "Bairro Os Anjos", "Región del Maule"

    def _proper_town_word(self, e: int) -> bool:
        """A word that is a town's on its own: a name, a place or a word no everyday list holds."""
        key = self.keys[e]
        return bool(key) and key.isalpha() and key not in self.stop and (
            key not in self.common or self.names.is_name(key) or self.places.get(key) is not None)

    _TOWN_PARTICLES = frozenset({"am", "an", "der", "im", "in", "di", "del", "della", "de", "la", "le", "les", "sur",
                                 "nad", "pod", "u", "pri", "při", "na",  # "Kynšperk nad Ohří", "Újezd u Brna"
                                 "da", "do", "dos", "das", "du", "des", "y", "e", "vorm", "vor", "bei", "ob",
                                 "sous", "en", "aan", "den", "op", "upon", "on", "by"})

    def _capital_run(self, k: int, most: int = 5) -> int:
        """End of a town's capitalised words after a postcode, with the small words between them
        ("Osterode am Harz", "Stratford upon Avon", "San Quirico In Val Polcevera"): ``most`` words at most."""
        e, last = k, k
        while e < self.n and e - k < most and self.same(k, e) and self.keys[e]:
            word_ok = self.v.cap[e] and self.keys[e].replace("-", "").isalpha() and self.keys[e] not in self.stop
            # up to three small words before a capital: "Osterode am Harz", "San Nicolás de los Garza",
            # "Región de Magallanes y de la Antártica Chilena"
            particle = e > k and (self.keys[e] in self._TOWN_PARTICLES or (
                self.keys[e] in self._TOWN_ARTICLES and self.keys[e - 1] in self._TOWN_PARTICLES)) and (
                self._capital_after_small_words(e))
            if not (word_ok or particle):
                break
            e += 1
            if word_ok:
                last = e
            if self.v.comma_after[e - 1] or self.v.sentence_after[e - 1] or self.v.line_after[e - 1]:
                break
        return last

    def _capital_after_small_words(self, e: int) -> bool:
        """Is a capitalised word next after word ``e`` and at most two more small words, on its line and
        with no comma between?"""
        j = e
        while not self._apart(j) and j + 1 < self.n and self.same(e, j + 1) and j - e < 3:
            j += 1
            if self.v.cap[j]:
                return True
            if self.keys[j] not in self._TOWN_ARTICLES and self.keys[j] not in self._TOWN_PARTICLES:
                return False
        return False

    def tail(self, b: int, start: int) -> int:
        end = b
        items = 0
        # the street's "house number" may be the postcode: "rue Stéphane Charrier, 30882 Germain-sur-Poirier"
        last_postcode = b > start and len(self.cores[b - 1]) >= 4 and bool(_POSTCODE_ONE.fullmatch(self.cores[b - 1]))
        while end < self.n and items < 8 and self.same(start, end):
            if not self.keys[end] and self.doc.words[end].strip() in _SEPARATOR_WORDS:
                end += 1  # a comma written apart: "Edif. 174 , Depto. 218"
                continue
            prev = end - 1
            while prev > b and not self.keys[prev]:
                prev -= 1
            if self.v.sentence_after[prev] and not self.doc.words[prev].endswith("."):
                break
            if self.v.sentence_after[prev] and self.v.line_after[prev] and any(ch.isdigit() for ch in self.cores[prev]):
                break  # "… Auckland 1010.⏎Best regards": a number and a point end the line and the address
            if self.v.sentence_after[prev] and self.doc.words[prev].endswith(".") and not self.v.cap[end] and not (
                    self.keys[prev] in self.us_states_short and _ZIP.fullmatch(self.cores[end])):
                break  # (a ZIP code after a state's point goes on: "Springfield, Ill. 62704")
            if self.v.cased and self.cores[end] == "RD" and end + 1 < self.n and self.cores[end + 1].isdigit() and (
                    self.same(end, end + 1)):
                end += 2  # New Zealand's rural delivery: "48 Stevenson Quay, RD 10, Whangaawa 9611"
                items += 1
                continue
            if self.v.cased and end == b and b > start and self.free(end) and self.v.cap[end] and (
                    self.keys[end] in self.buildings) and not self._apart(prev):
                end += 1  # "Flat 12, Sea View Apartments, Bandra West": the building the street named
                continue
            if self.v.cased and end == b and self.free(end) and self.keys[end] in self.dirs and self.v.cap[end] and (
                    b > start and self.num[b - 1]):
                end += 1  # "Blvd. Díaz Ordaz 130 Pte.": the quarter after the house number
                continue
            if self.v.cased and self.free(end) and self.keys[end] in self.postcode_labels and end + 1 < self.n and (
                    self.same(end, end + 1)) and (e := self.postcode(end + 1)):
                end = e  # "C.P. 68000", "CEP 22270-010"
                items += 1
                last_postcode = True
                continue
            if self.v.cased and self.free(end) and self.v.cap[end] and self.keys[end] in self.locality_labels and (
                    end + 1 < self.n and self.same(end, end + 1)) and (
                    self.v.cap[end + 1] or self.keys[end + 1] in self._LOCALITY_ARTICLES):
                first = end + 1
                while first + 1 < self.n and first - end <= 2 and self.keys[first] in self._LOCALITY_ARTICLES and (
                        self.v.cap[first + 1] or self.keys[first + 1] in self._LOCALITY_ARTICLES) and (
                        self.same(first, first + 1)):
                    first += 1  # "Barrio La Candelaria", "Región de Los Ríos"
                end = max(self._capital_run(first, most=8), end + 1)  # "Col. Centro", "Bairro Botafogo"
                items += 1
                last_postcode = False
                continue
            if self.v.cased and end == b and self.v.comma_after[prev] and self.free(end) and (
                    HOUSE.fullmatch(self.cores[end])) and end + 1 < self.n and self.same(end, end + 1) and (
                    e := self.postcode(end + 1)):
                end = e  # "Avenida da Expo 98, 860 1815-055 Lisboa": the street's name held a number, then the house's
                items += 1
                last_postcode = True
                continue
            if self.v.cased and self.free(end) and _TOWN_PIN.fullmatch(self.cores[end]):
                end += 1  # "Delhi-596123": an Indian town and its PIN in one word
                items += 1
                last_postcode = True
                continue
            for fn in (self.unit, self.postcode) if self.v.cased else (self.postcode, self.unit):
                e = fn(end)
                if e:
                    last_postcode = fn == self.postcode
                    end = e
                    items += 1
                    break
            else:
                e = self.town(end, last_postcode)
                if e:
                    if self.v.cased and self.same(end, e) and self.free(e) and not self.v.comma_after[e - 1] and (
                            _POSTAL_DISTRICT.fullmatch(self.cores[e])) and (
                            e + 1 >= self.n or not self.same(e, e + 1) or self.v.comma_after[e]
                            or self.v.sentence_after[e]):
                        e += 1  # "Dublin 4", "Dublin 6W": the town's postal district, the end of its part
                    end = e
                    items += 1
                    last_postcode = False
                    continue
                # a region code after a town or postcode: "Roma RM", "Vancouver BC"; said: "melissaton wa"
                if items and self.free(end) and self._spoken_region(end):
                    end += 1
                    items += 1
                    last_postcode = False
                    continue
                # said letter by letter before its postcode: "vancouver b c v five v three c eight"
                if items and not self.v.cased and self.free(end) and self.free(end + 1) and (
                        self._spelled_region_code(end)) and self.same(end, end + 2) and (
                        self._spoken_alnum_postcode(end + 2) > end + 2):
                    end += 2
                    items += 1
                    last_postcode = False
                    continue
                if self.v.cased and items and self.free(end) and self.v.cap[end] and (
                        self.keys[end] in self.region_abbreviations or (
                            self.keys[end] in self.us_states_short
                            and self.doc.words[end].rstrip(",;:").endswith("."))) and self.v.comma_after[prev]:
                    end += 1  # "Guadalajara, Jal.", "Austin, Tex.": a state written short after the town
                    items += 1
                    continue
                c = self.cores[end].replace(".", "")  # "N.L.", "D.C.": a region's letters with dots
                if self.v.cased and self.v.upper[end] and 2 <= len(c) <= 4 and c.isalpha() and self.free(end) and (
                        items and self.keys[end] not in self.military):
                    end += 1
                    items += 1
                    continue
                if self.v.cased and items and self.free(end) and self.v.comma_after[prev] and re.fullmatch(
                        r"\d{7}", c) and (end + 1 >= self.n or not self.same(end, end + 1) or not self.num[end + 1]):
                    end += 1  # a Chilean postcode of seven digits after the town: "Ñuñoa, Región Metropolitana, 7019470"
                    items += 1
                    continue
                # "Box 8144" after PSC, "APO AE 09123"
                if self.keys[end] in self.military or (self.keys[end] == "box" and self.house(end + 1)):
                    e = end + 1
                    if self.keys[end] == "box":
                        e = self.house(end + 1)
                    elif e < self.n and re.fullmatch(r"a[aep]", self.keys[e]):
                        e += 1
                    end = e
                    items += 1
                    continue
                break
        while end > b and not self.keys[end - 1] and self.doc.words[end - 1].strip() in _SEPARATOR_WORDS:
            end -= 1  # "Fazenda Boa Vista, 120 - Lisboa": a dash with nothing of the address after it is none of it
        return end

    # ------------------------------------------------------------------------------------------
    def localities_and_pin(self, i: int) -> int:
        """End of an Indian address with no street type, written: a house number, a comma or the end of
        its line, localities and a town in capitals, and the town's six-digit PIN ("98, Datta Nagar,
        Kalyan-Dombivli-636303", "H.No. 994, Shankar, Jaunpur 622348", "H.No. 468⏎Karnik⏎Vadodara
        455944"); 0 when none. The PIN is the evidence: without it a number and capitalised words are
        no address."""
        if not self.v.cased or not self.free(i) or not HOUSE.fullmatch(self.cores[i]) or not self._apart(i):
            return 0
        k = i + 1
        while k < self.n and k - i <= 10 and self.same(i, k) and self.free(k):
            c = self.cores[k]
            if _GLUED_PIN.fullmatch(c) or (_PIN.fullmatch(c) and k > i + 1 and self.v.cap[k - 1]):
                return k + 1
            if not (self.v.cap[k] and self.keys[k].replace("-", "").isalpha()):
                return 0
            k += 1
        return 0

    def _labelled_house(self, i: int) -> tuple[int, int] | None:
        """(start, end) of a house or flat number said after its label at word ``i`` ("house number
        is 2 2", "flat number seven"), or None; "is" or "es" may follow the label (a colon has no key)."""
        for ph in _phrases_by_first("house_number_labels").get(self.keys[i], ()):
            k = i + len(ph)
            if k > self.n or tuple(self.keys[i:k]) != ph or not self.same(i, k - 1):
                continue
            if k < self.n and self.keys[k] in ("is", "es", "was", "era") and self.same(i, k):
                k += 1
                if k < self.n and self.keys[k] == "el" and self.same(i, k):
                    k += 1  # "el número de portal es el siete"
            e = self.house(k) if k < self.n and self.same(i, k) else 0
            if e:
                return k, e
        return None

    def run(self) -> list[Hit]:
        i = 0
        while i < self.n:
            if self.taken[i] or not self.keys[i]:
                i += 1
                continue
            if c := self.crossing(i):
                self.hits.append(Hit(i, c, "ADDRESS", 0.85, SOURCE,
                                     "two streets that meet, after 'corner of', 'intersection of' or the like", True))
                for k in range(i, c):
                    self.taken[k] = True
                i = c
                continue
            kind = "po"
            e = self.po_box(i)
            if not e:
                kind = "street"
                e = (self.grid_street(i) or self.spoken_grid_street(i) or self.road_and_km(i) or self.number_first(i)
                     or self.type_first(i) or self.name_type_number(i) or self.unit_then_street(i)
                     or self.name_number_postcode(i) or self.number_name_town(i) or self.japanese_block(i))
                if not e and (e := self.localities_and_pin(i)):
                    start = i - 1 if i and self.keys[i - 1] in _HOUSE_NO and self.free(i - 1) else i  # "H.No. 994"
                    self.hits.append(Hit(start, e, "ADDRESS", 0.9, SOURCE, "house number, localities, town and PIN", True))
                    for k in range(start, e):
                        self.taken[k] = True
                    i = e
                    continue
            if not e and (h := self._labelled_house(i)):
                k, e = h  # "my house number is 22": the number, its label no item
                self.hits.append(Hit(k, e, "ADDRESS", 0.8, SOURCE, "house or flat number after its label", True))
                for w in range(k, e):
                    self.taken[w] = True
                i = e
                continue
            if not e and (r := self.numbered_road(i)):
                start, cat, reason = i, "LOCATION", "a numbered road"
                if i >= 2 and self.same(i - 1, i) and self.free(i - 1) and self.house(i - 1) == i and (
                        self.keys[i - 2] == "at" or self.tail(r, i - 1) > r):
                    start, cat, reason = i - 1, "ADDRESS", "a house on a numbered road"  # "I live at 12 Route 9"
                    r = self.tail(r, start)
                self.hits.append(Hit(start, r, cat, 0.8 if cat == "LOCATION" else 0.9, SOURCE, reason, True))
                for k in range(start, r):
                    self.taken[k] = True
                i = r
                continue
            if not e:
                i += 1
                continue
            named_only = e < 0
            e = abs(e)
            end = self.tail(e, i)
            if end == e and self.keys[i] in self.needs_tail:
                i += 1  # "Campo Grande, 2010", "Lago Maggiore 2019": a town or sight and a year
                continue
            # a unit before the street: "Flat 2, 10 Downing Street", "Apt 5 / 12 Main St"; a unit word
            # before the number the street took for a house number: "Studio 88J, Leonard Coves"
            if not named_only and (u := self._unit_word_before(i)) is not None:
                i = u
            elif not named_only and i >= 1 and self.same(i - 1, i) and self.keys[i - 1] in self.units and (
                    self.unit(i - 1) > i) and not self.taken[i - 1]:
                i -= 1
            building = self._flat_and_building_before(i)
            if building < i:
                i, named_only = building, False  # a flat's number and its building make it an address
            if named_only and end == e:
                reason = "street name and street type"
                score, strong = 0.7, self.v.cased or self.cue_before(i)
                cat = "ADDRESS"
            else:
                reason = "post box" if kind == "po" else "street address"
                if end > e:
                    reason += " with unit, town or postcode"
                score, strong, cat = 0.9, True, "ADDRESS"
            self.hits.append(Hit(i, end, cat, score, SOURCE, reason, strong))
            for k in range(i, end):
                self.taken[k] = True
            i = end
        return self.hits


def find_addresses(doc: DetectDoc, taken: list[bool]) -> list[Hit]:
    """ADDRESS hits (one per whole address); marks the words it takes in ``taken``."""
    if not doc.words:
        return []
    return _Addresses(doc, taken).run()
