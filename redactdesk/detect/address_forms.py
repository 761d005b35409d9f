"""Street addresses in the forms of Latin America and of streets named without a type word, for
:mod:`redactdesk.detect.addresses` (whose finder they are methods of):

- Colombia's grid, written and said: "Carrera 7 # 71-21", "Cra. 15 No. 93-60 Sur", "carrera siete
  número setenta y uno veintiuno";
- a road and the kilometre on it: "Ruta 5 Sur, km 42", "Rodovia BR-116, km 23";
- a street named with no type word, before a postcode and a town: "Pobřežní 3, 216 72 Telč";
- the number sign before a house number ("Avenida 7 N° 329") and a street named after a date
  ("Calle 5 de Mayo 32"), which the type-first shape uses;
- two streets that meet, after "the corner of" or "the intersection of": "the corner of elm and
  fifth", "the intersection of Maple Road and Route 9", "la esquina de la calle Alcalá con Goya".

Each returns where the street part ends (0 when its shape is not at the word); the finder's tail
then takes units, districts, towns, regions and postcodes.
"""

from __future__ import annotations

import re
from typing import Any

from redactdesk.lang.digits import DIGIT_WORDS, OTHER_DIGIT_WORDS
from redactdesk.lang.roads import ROAD_CODE, ROAD_NUMBER, road_type_at, road_type_words

# words before a road's code said alone ("take i ninety five"), where the letter "i" is no pronoun
_DRIVE_WORDS = frozenset({"take", "on", "off", "onto", "via", "the", "down", "up", "from", "toward", "towards"})
_DIGIT_BY_DIGIT = frozenset(DIGIT_WORDS["en"]) | frozenset(OTHER_DIGIT_WORDS["en"]) | frozenset(DIGIT_WORDS["es"])
GRID_NUMBER = re.compile(r"\d{1,3}[A-Za-z]?[ªº°]?")  # a grid street's number: "7", "40A", "5ª"
_GRID_PLATE = re.compile(r"#?\d{1,3}[A-Za-z]?-\d{1,3}[A-Za-z]?")  # the plate: "71-21", "#13-19", "20-15A"
_SPOKEN_GRID = frozenset({"calle", "carrera", "avenida", "diagonal", "transversal", "circular", "circunvalar"})
_SPOKEN_SIGNS = frozenset({"numero", "número", "num"})
_ROAD_CODE = re.compile(r"(?:[A-Z]{1,3}-?)?\d{1,4}(?:-[A-Z]{1,3})?")  # "5", "T-88", "BR-116", "577-CH", "N-340"
_KM = re.compile(r"\d{1,4}(?:[.,]\d{1,3})?")  # "42", "12,5"
# small words inside a street's name ("avenida de américa", "calle de la paz"), never its last
_NAME_PARTICLES = frozenset("de del la las los of the".split())
_GRID_SIGNS = frozenset({"#", "no", "no.", "n°", "nº", "n.º", "n.°", "núm", "núm.", "num", "num.", "número", "numero"})
_GRID_AFTER = frozenset({"bis", "sur", "este", "norte", "oeste"})
# a house number: "12", "221B", "797/43" (flat 797 of number 43, as Australians write it)
# Japan's block addresses written in Latin letters: chōme, block and house numbers ("3-14-7",
# "2-chome-3-1"; "8 Chome-2-1" as maps write it), a ward or city ("Shibuya-ku", "Chuo City"), the
# seven-digit postcode ("150-0002", "〒104-0061")
_JP_BLOCK = re.compile(r"\d{1,2}(?:-[Cc]h[oō]me)?-\d{1,4}(?:-\d{1,4})?")
_JP_CHOME = re.compile(r"[Cc]h[oō]me-\d{1,4}(?:-\d{1,4})?")
_JP_WARD = re.compile(r"[A-Z][a-zōū]+-(?:ku|shi|cho|chō|machi|gun|mura|ken)")
_JP_POSTCODE = re.compile(r"〒?\d{3}-\d{4}")
_JP_CITY = frozenset({"city", "ward"})

HOUSE = re.compile(r"\d{1,5}[A-Za-z]?(?:[-/]\d{1,5}[A-Za-z]?)?|[A-Za-z]?\d{1,5}")


class StreetForms:
    """The shapes above, over the finder's word view (``keys``, ``cores``, ``v``), number marks
    (``num``, ``num_end``) and word lists, which :class:`redactdesk.detect.addresses._Addresses` sets."""

    doc: Any
    v: Any
    keys: list[str]
    cores: list[str]
    n: int
    num: list[bool]
    num_end: list[int]
    stop: frozenset[str]
    months: frozenset[str]
    common: frozenset[str]
    dirs: frozenset[str]
    grid: frozenset[str]
    street_months: frozenset[str]
    km_roads: frozenset[str]
    km_words: frozenset[str]
    street_lower: frozenset[str]
    street_places: frozenset[str]
    locality_labels: frozenset[str]
    ordinal: list[bool]
    before: frozenset[str]
    crossing_words: frozenset[str]
    crossing_joins: frozenset[str]

    def same(self, a: int, b: int) -> bool: ...
    def free(self, k: int) -> bool: ...
    def house(self, k: int) -> int: ...
    def postcode(self, k: int) -> int: ...
    def town(self, k: int, after_postcode: bool) -> int: ...
    def name_word(self, k: int, first: bool = False) -> bool: ...
    def _spoken_alnum_postcode(self, k: int) -> int: ...
    def _spoken_digits(self, k: int) -> int: ...
    def _capital_run(self, k: int) -> int: ...
    def street_type(self, k: int) -> bool: ...

    def spoken_grid_street(self, i: int) -> int:
        """A grid address said aloud (0 when none is at ``i``): the street type in full, its number,
        "número", and the plate in two numbers ("carrera siete número setenta y uno veintiuno", "calle
        veintiséis número trece guion diecinueve sur"). The plate's two numbers are the evidence: "la
        carrera siete número dos" is a race."""
        keys, n = self.keys, self.n
        if self.v.cased or keys[i] not in _SPOKEN_GRID or not self.free(i):
            return 0
        k = i + 1
        if k < n and keys[k] in _SPOKEN_GRID and self.same(i, k):
            k += 1  # "avenida calle veintiséis"
        if not (k < n and self.same(i, k) and self.free(k) and self.num[k] and 0 < self._spoken_digits(k) <= 3):
            return 0
        k = self.num_end[k]
        while k < n and k - i < 8 and self.same(i, k) and (keys[k] in _GRID_AFTER or (
                len(keys[k]) == 1 and keys[k].isalpha())):
            k += 1  # "cuarenta a bis"
        if not (k + 1 < n and keys[k] in _SPOKEN_SIGNS and self.same(i, k + 1) and self.num[k + 1]):
            return 0
        parts, e = 1, self.num_end[k + 1]
        dashes = {ph[0] for ph in self.doc.lex.dash} if self.doc.lex is not None else set()
        gap = e + 1 if e < n and keys[e] in dashes else e
        if gap < n and self.same(i, gap) and self.num[gap] and self._spoken_digits(gap) <= 3:
            parts, e = 2, self.num_end[gap]
        if parts < 2 or not (0 < self._spoken_digits(k + 1) <= 3):
            return 0
        if e < n and self.same(i, e) and keys[e] in _GRID_AFTER:
            e += 1  # "... sur"
        return e

    def grid_street(self, i: int) -> int:
        """End of a grid address as Colombia writes it (0 when none is at ``i``): a street type, the
        street's number with its letters ("40A Bis"), "#" or "No.", and the plate — the cross street
        and the metres from it — with a quarter after it: "Carrera 7 # 71-21", "Cra. 15 No. 93-60 Sur",
        "Calle 26 #13-19", "Av. Calle 26 N° 69-76", "Diagonal 40A Bis # 20-15". The sign and the
        hyphenated plate are the evidence: "Calle 26" alone is no such address."""
        if not self.v.cased or self.keys[i] not in self.grid or not self.free(i):
            return 0
        words, n = self.doc.words, self.n
        k = i + 1
        if k < n and self.keys[k] in self.grid and self.same(i, k):
            k += 1  # "Av. Calle 26"
        if k < n and self.same(i, k) and self.free(k) and GRID_NUMBER.fullmatch(words[k].strip().rstrip(",")):
            k += 1
        else:  # a named street of the grid: "Av. Elvira Moreno # 7-6 Este"
            first = k
            while k < n and k - first < 4 and self.same(i, k) and self.v.cap[k] and self.keys[k].isalpha() and (
                    not self.v.comma_after[k - 1]):
                k += 1
            if k == first:
                return 0
        while k < n and k - i < 6 and self.same(i, k) and not self.v.comma_after[k - 1] and (
                self.keys[k] in _GRID_AFTER or (len(self.keys[k]) == 1 and self.keys[k].isalpha() and self.v.upper[k])):
            k += 1  # "40A Bis", "7 Bis A", "26 Sur"
        if k >= n or not self.same(i, k) or not self.free(k) or self.v.comma_after[k - 1]:
            return 0
        raw = words[k].strip().lower()
        if raw in _GRID_SIGNS:
            k += 1
            if k >= n or not self.same(i, k) or not self.free(k):
                return 0
            raw = words[k].strip().lower()
        elif not raw.startswith("#"):
            return 0
        if not _GRID_PLATE.fullmatch(raw.rstrip(".,;:")):
            return 0
        k += 1
        if k < n and self.same(i, k) and self.keys[k] in _GRID_AFTER and not self.v.comma_after[k - 1] and self.v.cap[k]:
            k += 1  # "93-60 Sur"
        return k

    def name_number_postcode(self, i: int) -> int:
        """End of the house number of a street named with no type word, written (0 when none is at
        ``i``): its capitalised words, the number, a comma or the end of a line, then a postcode and a
        town — "Pobřežní 3, 216 72 Telč", "Nad Návsí 146, 626 37 Olešnice", "Gunnel Nymanin katu 167,
        92194 Inkoo", "Gadolininpolku 9⏎25481 Multia" (as a form or letter writes it, over lines). The
        postcode and town after the break are the evidence; the tail takes them."""
        if not self.v.cased or not self.v.cap[i] or not self.free(i) or self.keys[i] in self.stop or (
                self.keys[i] in self.months or self.keys[i] in self.street_months):
            return 0  # "On January 24, 2004, Regions merged": a date, then a year that reads as a postcode
        k = i
        while k < self.n and k - i < 4 and self.same(i, k) and self.free(k) and self.keys[k].replace("-", "").isalpha() and (
                self.v.cap[k] or (k > i and (self.keys[k] in self.street_lower or self.keys[i] in self.street_places))) and not (
                k > i and (self._apart(k - 1) or self.v.sentence_after[k - 1])):  # "Address: Pobřežní 3": a label
            k += 1
        if k == i or k >= self.n or self._apart(k - 1) or not any(ch.isdigit() for ch in self.cores[k]):
            return 0
        e = self.house(k) or (k + 1 if HOUSE.fullmatch(self.cores[k]) else 0)  # "6A"
        if not e or e >= self.n or not self.same(i, e):
            return 0
        if not self._apart(e - 1):
            # a flat or office after the number: "Los Aromos 533 Of. 720⏎Rancagua, Región del Libertador ..."
            u = self.unit(e)
            if not u or u >= self.n or not self._apart(u - 1) or not self.same(i, u):
                return 0
            return e if self._town_then_region(u) else 0
        if self._town_then_region(e):
            return e  # "Santa Rosa 931, Catemu, Región de Valparaíso": everyday words may name the street
        if all(self.keys[x] in self.common for x in range(i, k)):
            return 0  # "Game 7, 2016 World Series": everyday words and a year; a street's name is a name
        p = self.postcode(e)
        return e if p and p < self.n and self.same(e, p) and self._capital_run(p) > p else 0

    def number_name_town(self, i: int) -> int:
        """End of a street named with no type word after its house number (0 when none is at ``i``),
        where a postcode follows, or a town (and its region) and a postcode: "41 Kingsway, Manchester M19 2AB",
        "1180 Kingsway, Vancouver, BC V5V 3C8", "forty
        one kingsway manchester m nineteen two a b", "nine broadway new york new york one zero zero zero
        four" (the type is glued into the name, or there is none). The postcode is the evidence, and
        one no year can be: a British, Canadian or Dutch one, or, said aloud, five digits said one by
        one ("twenty eight june nineteen seventy eight" is a date; "3 kids, London" no address). Up to
        three name words, no month among them; the shortest name the evidence follows."""
        h = self.house(i)
        if not h or h >= self.n or not self.same(i, h):
            return 0
        for e in range(h + 1, min(h + 4, self.n + 1)):
            k = e - 1
            if not (self.same(i, k) and self.name_word(k, first=k == h) and self.keys[k] not in self.stop
                    and not self.num[k] and self.keys[k] not in self.months):
                return 0
            if e >= self.n or not self.same(i, e):
                return 0
            if self.v.cased and k > h and self._apart(k - 1):
                return 0  # "41 Kingsway, Manchester": the name ended at the comma
            if self._yearless_postcode(e):
                return e
            t = self.town(e, False) if self.keys[e] not in self.stop else 0  # "in" is a town somewhere
            if t > e and t < self.n and self.same(i, t) and self._yearless_postcode(t):
                return e
            # the town's region between it and the postcode, written: "1180 Kingsway, Vancouver, BC V5V 3C8"
            # (said, a region is too easily a month or a year: "ten th december in nineteen eighty nine")
            r = self.town(t, False) if self.v.cased and t > e and t < self.n and self.same(i, t) else 0
            if r > t and r < self.n and self.same(i, r) and self._yearless_postcode(r):
                return e
            # said, the region only as its code spelled, before a postcode of letters and digits:
            # "eleven eighty kingsway vancouver b c v five v three c eight" (no month or year is that)
            if not self.v.cased and t > e and self._spelled_region_code(t) and self.same(i, t + 2) and (
                    self._spoken_alnum_postcode(t + 2) > t + 2):
                return e
        return 0

    def _spelled_region_code(self, k: int) -> bool:
        """Are words ``k`` and ``k + 1`` a state's or province's code spelled letter by letter ("b c",
        "o n", "n y")?"""
        from redactdesk.detect.places import load_places

        if k + 1 >= self.n or not self.same(k, k + 1):
            return False
        a, b = self.keys[k], self.keys[k + 1]
        if not (len(a) == 1 == len(b) and a.isalpha() and b.isalpha()):
            return False
        place = load_places().get(a + b)
        return place is not None and place.category == "REGION_CODE"

    def _yearless_postcode(self, k: int) -> bool:
        """Is a postcode no year can be at ``k``: written, one with letters or of five digits or more;
        said, a British, Canadian or Dutch one, or five digits said one by one?"""
        if self.v.cased:
            p = self.postcode(k)
            text = "".join(self.cores[k:p]).replace("-", "")
            return p > k and (not text.isdigit() or len(text) >= 5)
        if self._spoken_alnum_postcode(k) > k:
            return True
        e = k  # five words for five digits: said one by one ("one zero zero zero four")
        while e < self.n and e - k < 5 and self.same(k, e) and self.num[e]:
            if self._spoken_digits(e) != self.num_end[e] - e:
                return False
            e = self.num_end[e]
        return e - k == 5 and not (e < self.n and self.same(k, e) and self.num[e])  # "one nine three eight one nine ..."

    def _town_then_region(self, k: int) -> bool:
        """A town at ``k``, a comma, then a region named with its label: "Chillán, Región de Ñuble",
        "Quilpué, Región de Valparaíso" (Chile writes its streets with no type word and its region
        so)."""
        r = self._capital_run(k)
        if not (r > k and r + 1 < self.n and self.same(k, r + 1) and self.v.comma_after[r - 1] and (
                self.v.cap[r] and self.keys[r] in self.locality_labels)):
            return False
        named = r + 1 if self.keys[r + 1] not in ("de", "del") else r + 2  # "Región Metropolitana", "Región de Ñuble"
        return named < self.n and self.same(k, named) and self.v.cap[named] and self.keys[named].isalpha()

    def _apart(self, k: int) -> bool:
        """A comma or the end of a line after word ``k``: where one line of an address ends."""
        return self.v.comma_after[k] or self.v.line_after[k]

    def road_and_km(self, i: int) -> int:
        """End of a road and the kilometre on it, written (0 when none is at ``i``): "Ruta 5 Sur, km 42",
        "Ruta T-88, km 24", "Rodovia BR-116, km 23", "Carretera N-340 km 12,5". The kilometre is the
        evidence: "Ruta 5" alone is a road, no one's address."""
        keys, n = self.keys, self.n
        if not self.v.cased or keys[i] not in self.km_roads or not self.v.cap[i] or not self.free(i):
            return 0
        k = i + 1
        while k < n and k - i <= 3 and self.same(i, k) and not self.v.comma_after[k - 1] and keys[k] in (
                "nacional", "provincial", "federal", "estatal", "national", "state"):
            k += 1  # "Ruta Nacional 3"
        if not (k < n and self.same(i, k) and self.free(k) and _ROAD_CODE.fullmatch(self.cores[k])):
            return 0
        k += 1
        if k < n and self.same(i, k) and keys[k] in self.dirs and self.v.cap[k] and not self.v.comma_after[k - 1]:
            k += 1  # "Ruta 5 Sur"
        if not (k + 1 < n and self.same(i, k + 1) and keys[k] in self.km_words and self.free(k + 1)
                and _KM.fullmatch(self.cores[k + 1])):
            return 0
        return k + 2

    def numbered_road(self, i: int) -> int:
        """End of a numbered road at ``i`` (0 when none): its type and its number ("Route 9", "Highway
        101", "state road 84", "route nine", "highway one oh one", "la carretera N-340"), or a road's
        code written alone ("I-95", "US-101") or said after a word of driving ("take i ninety five").
        A place, not an address: it says where someone lives or drives as a named street does."""
        keys, n, lang = self.keys, self.n, self.doc.language.split("_")[0]
        core = self.cores[i]
        if not (keys[i] in road_type_words(lang) or (keys[i] == "i" and not self.v.cased) or (
                "-" in core and core[:1].isupper())) or not self.free(i):
            return 0  # no road's type or code opens here: most words
        if self.v.cased and ROAD_CODE.fullmatch(core):
            return i + 1
        k = road_type_at(self.doc.lower, i, lang)
        if not k and keys[i] == "i" and not self.v.cased and i and keys[i - 1] in _DRIVE_WORDS:
            k = 1  # "take i ninety five", "on i five"
        if not k or i + k >= n or not all(self.same(i, m) and self.free(m) for m in range(i, i + k + 1)):
            return 0
        m = i + k
        if ROAD_NUMBER.fullmatch(self.cores[m].upper() if lang == "es" else self.cores[m]) and (
                any(c.isdigit() for c in self.cores[m])):
            return m + 1
        if not (self.num[m] and not self.v.cased and 0 < (digits := self._spoken_digits(m)) <= 4):
            return 0
        e = self.num_end[m]
        if digits == 1 and e < n and self.num[e] and self.same(m, e) and self.free(e) and (
                self._spoken_digits(e) == 2 and keys[m] in _DIGIT_BY_DIGIT):
            e = self.num_end[e]  # "highway one oh one", "route four seventeen": a digit, then two
        return e

    def japanese_block(self, i: int) -> int:
        """End of a Japanese address written in Latin letters from its block numbers at ``i`` (0 when
        none): the numbers, the district, the ward or city, the prefecture, the postcode and the
        country, over commas ("3-14-7 Shibuya, Shibuya-ku, Tokyo 150-0002, Japan", "8 Chome-2-1
        Ginza, Chuo City, Tokyo 104-0061"). A ward, a city word or a seven-digit postcode among the
        capitalised words after the numbers is the evidence: "3-1-0 after the first round" is a score."""
        if not self.v.cased or not self.free(i):
            return 0
        c = self.cores[i]
        if "-" in c and _JP_BLOCK.fullmatch(c):
            k = i + 1
        elif c.isdigit() and len(c) <= 2 and i + 1 < self.n and self.same(i, i + 1) and _JP_CHOME.fullmatch(
                self.cores[i + 1]):
            k = i + 2
        else:
            return 0
        end, evidence = k, False
        while k < self.n and k - i <= 10 and self.same(i, k) and self.free(k) and not self.v.stop_after[k - 1]:
            w = self.cores[k]
            if _JP_WARD.fullmatch(w) or _JP_POSTCODE.fullmatch(w) or (self.keys[k] in _JP_CITY and self.v.cap[k]):
                evidence = True
            elif not (self.v.cap[k] and w.replace("-", "").isalpha()):
                break
            k += 1
            if evidence:
                end = k
        return end if evidence else 0

    def _signed_house(self, k: int) -> int:
        """End of a house number written after a number sign at ``k`` ("N° 329", "Nº 12", "No. 5", "#
        14"), or 0."""
        if k + 1 >= self.n or not self.same(k, k + 1) or self.doc.words[k].strip().lower() not in _GRID_SIGNS:
            return 0
        return self.house(k + 1)

    def _date_name(self, k: int) -> int:
        """End of a date a street is named after ("5 de Mayo", "25 de Março") starting at ``k``, or 0."""
        if k + 2 < self.n and self.num[k] and self.cores[k].isdigit() and len(self.cores[k]) <= 2 and (
                self.keys[k + 1] == "de" and self.keys[k + 2] in self.street_months and self.same(k, k + 2)):
            return k + 3
        return 0

    def crossing(self, i: int) -> int:
        """End of two streets that meet, said after an intersection word and "of" (structures.yaml's
        ``intersection_words``): "the corner of elm and fifth", "the intersection of maple road and
        route nine", "la esquina de la calle alcalá con goya". Each street is a name with its type, a
        numbered road, an ordinal ("fifth", "42nd") or one name word; one of the two has a type, a
        number or an ordinal ("the corner of the room and the door", "the corner of happiness and
        sadness" are no streets). 0 when there are none at ``i``."""
        if not (i >= 2 and self.same(i - 2, i) and self.keys[i - 1] in ("of", "de", "del")
                and self.keys[i - 2] in self.crossing_words):
            return 0
        first = self._crossing_street(i)
        if not first or first[0] >= self.n or not self.same(i, first[0]) or (
                self.keys[first[0]] not in self.crossing_joins):
            return 0
        second = self._crossing_street(first[0] + 1)
        if not second or not (first[1] or second[1]):
            return 0
        return second[0]

    def _crossing_street(self, k: int) -> tuple[int, bool] | None:
        """One street of a crossing at ``k``: its end, and whether it is surely a street (a type, a
        number or an ordinal in it). An article before a type-first street is its ("la calle
        alcalá")."""
        if k + 1 < self.n and self.keys[k] in ("la", "el", "the") and self.keys[k + 1] in self.before:
            k += 1
        if k + 1 < self.n and self.keys[k] in self.stop and self.keys[k + 1] in self.before and self.free(k) and (
                self.free(k + 1) and self.same(k, k + 1)):
            return k + 2, True  # a small word and a street word: "gran vía"
        if not self.same(k - 1, k) or not self.free(k) or (self.keys[k] in self.stop and not self.ordinal[k]):
            return None
        e = k
        while e < self.n and e - k < 5 and self.same(k, e) and self.free(e) and (
                self.keys[e] not in self.crossing_joins) and (
                self.name_word(e, e == k) or self.num[e] or self.ordinal[e]) and not (
                e > k and self.keys[e] in self.stop and not (self.ordinal[e] or self.num[e])
                and self.keys[e] not in _NAME_PARTICLES):
            e += 1
            if self.v.sentence_after[e - 1] or self.v.comma_after[e - 1]:
                break
        while e > k and self.keys[e - 1] in _NAME_PARTICLES:
            e -= 1  # "avenida de américa", not "calle de"
        if e == k:
            return None
        typed = next((x for x in range(k, e) if self.street_type(x) or (x == k and self.keys[x] in self.before)), None)
        if typed is not None and typed > k:
            return typed + 1, True  # "maple road", "5th Ave"
        if typed == k:  # a type first: "route nine", "calle alcalá"
            return e, e > k + 1 or (e > k and any(self.num[x] for x in range(k + 1, e)))
        if self.ordinal[k] or self.num[k]:  # "fifth", "forty second", "42nd"
            end = k
            while end < e and (self.ordinal[end] or self.num[end]):
                end += 1
            return end, True
        return k + 1, False  # one name word: "elm", "main"
