"""Organisations by legal form, generic word and context (category ORGANIZATION).

"Acme Corp", "Müller GmbH", "Banco Santander S.A.", "X Ltd", "X & Sons", "University of X",
"X Bank", "X Hospital". The words live in resources/detect/structures.yaml (``org_legal``,
``org_after``, ``org_before``). In cased text the name part is a run of capitalised words (with
"of", "de", "&" inside); in lower-case speech it is one to three words that are no stop words,
and a generic word ("bank") alone after an everyday word ("food bank") is not enough.
"""

from __future__ import annotations

from redactdesk.detect.places import kind_said_as_where, load_places, town_and_state_code
from redactdesk.detect.sources import DetectDoc, Hit
from redactdesk.detect.worldnames import everyday_words, load_world_names, structures, word_set, word_view
from redactdesk.lang.lexicon import word_list

SOURCE = "gazetteer"


def _phrase_index(key: str) -> dict[str, list[tuple[str, ...]]]:
    idx: dict[str, list[tuple[str, ...]]] = {}
    for ph in structures().get(key, ()):
        idx.setdefault(ph[0], []).append(ph)
    for v in idx.values():
        v.sort(key=len, reverse=True)
    return idx


_CACHE: dict[str, dict[str, list[tuple[str, ...]]]] = {}


def _index(key: str) -> dict[str, list[tuple[str, ...]]]:
    if key not in _CACHE:
        _CACHE[key] = _phrase_index(key)
    return _CACHE[key]


def _phrase_at(keys: list[str], i: int, idx: dict[str, list[tuple[str, ...]]], end: int) -> int:
    for ph in idx.get(keys[i], ()):
        m = len(ph)
        if i + m <= end and tuple(keys[i : i + m]) == ph:
            return m
    return 0


def _starts_longer_place(keys: list[str], i: int, m: int, end: int) -> bool:
    """Does a place of the list longer than the generic word start at ``i`` ("united states",
    "united arab emirates")?"""
    hit = load_places().match(keys, i, end)
    return hit is not None and hit[0] > m


_AND = frozenset({"and", "&", "e", "y", "et", "und", "i", "en", "og", "och"})


def _partners(v, keys: list[str], i: int, end: int, names) -> int:
    """Words of a firm named after three partners at word ``i`` of cased text: "Surname, Surname and
    Surname", each capitalised and a listed surname (0: none). Everyday words may all be surnames
    ("Beck, Brown and Miles": the capitals after the comma and the "and" say so). Two names alone
    ("Smith and Jones") are as often two people, and stay theirs."""
    if i + 4 > end or not v.comma_after[i] or v.comma_after[i + 1] or keys[i + 2] not in _AND:
        return 0
    if any(v.stop_after[k] for k in (i, i + 1, i + 2)):
        return 0
    if v.comma_after[i + 3] and i + 4 < end and v.cap[i + 4] and names.is_first(keys[i + 4]):
        return 0  # "Eklund, Michael and Hodge, Anna": people, surname first
    parts = (i, i + 1, i + 3)
    ok = all(v.cap[k] and names.is_last(keys[k]) for k in parts)
    return 4 if ok else 0


# kinds of place whose body has a name too: "the City of Chicago sued", "moved to the state of texas"
_PLACE_GENERICS = frozenset({"city", "state", "ciudad", "estado"})


def find_organisations(doc: DetectDoc, taken: list[bool]) -> list[Hit]:
    v = word_view(doc)
    keys = v.keys
    n = len(keys)
    stop = doc.lex.stop_words if doc.lex else frozenset()
    common = everyday_words()
    names = load_world_names()
    legal, after, before = _index("org_legal"), _index("org_after"), _index("org_before")
    connectors = {p[0] for p in structures().get("org_connectors", ())}
    dash_forms = word_set("org_legal_after_dash")
    units = word_set("org_units")
    bodies = word_list(doc.lex, "generic_bodies") if doc.lex is not None else frozenset()
    determiners = word_list(doc.lex, "generic_body_determiners") if doc.lex is not None else frozenset()
    # "&" has no key of its own (the keys keep letters and digits): read it as the connector it is
    keys = [k if k or doc.words[i].strip() != "&" else "&" for i, k in enumerate(keys)]
    hits: list[Hit] = []

    def seg_end(i: int) -> int:
        return v.seg_end[i]

    def proper(k: int, spoken_ok: bool) -> bool:
        """A word that can be part of an organisation's own name."""
        if k < 0 or k >= n or taken[k] or not keys[k]:
            return False
        if v.cased:
            return v.cap[k] or any(c.isdigit() for c in keys[k])
        return spoken_ok and keys[k] not in stop and keys[k].replace(" ", "").isalnum()

    titles = word_set("titles")

    def person_before(j: int) -> bool:
        """Do the capitalised words before connector ``j`` name a person ("Dr. Hiroshi Tanaka of
        Kyoto University": the person is of the university, not part of its name)?"""
        r = j
        while r - 1 >= 0 and v.cap[r - 1] and v.seg[r - 1] == v.seg[j] and not v.comma_after[r - 1]:
            r -= 1
        return r < j and (keys[r] in titles or names.is_first(keys[r]) and not names.is_common(keys[r]))

    def left_name(w: int, comma: bool = True) -> int:
        """Start of the capitalised (or spoken) name that ends right before word ``w``; a comma
        between the name and ``w`` only where ``comma`` (a legal form: "Babson-United, Inc.")."""
        k = w
        while k - 1 >= 0 and w - k < 5 and v.seg[k - 1] == v.seg[w]:
            j = k - 1
            if v.stop_after[j] or (v.comma_after[j] and j != w - 1):
                break
            if v.comma_after[j] and j == w - 1 and (not v.cased or not comma):
                break
            if proper(j, True):
                k = j
                continue
            if keys[j] in connectors and k < w and j - 1 >= 0 and proper(j - 1, True) and v.cased \
                    and not person_before(j):
                k = j
                continue
            break
        while k < w and (keys[k] in connectors or keys[k] in stop or (v.sent_start[k] and keys[k] in common)):
            k += 1
        return k

    def distinct(k: int) -> bool:
        """A word that tells one organisation from another (no stop or everyday word)."""
        key = keys[k]
        if key in stop:
            return False
        if names.is_name(key):
            return not names.is_common(key)
        return key not in common

    def right_name(s: int, end: int) -> int:
        k = s
        while k < end and k - s < 5:
            if proper(k, True):
                k += 1
                if v.stop_after[k - 1] or v.comma_after[k - 1]:
                    break
                continue
            if keys[k] in connectors and v.cased and k + 1 < end and proper(k + 1, True) and k > s - 1:
                k += 1
                continue
            break
        while k > s and keys[k - 1] in connectors:
            k -= 1
        return k

    i = 0
    while i < n:
        if taken[i] or not keys[i]:
            i += 1
            continue
        end = seg_end(i)
        m = _partners(v, keys, i, end, names) if v.cased else 0
        if m:  # "Guerrero, Walker and Rowe", "Scarponi, Salvo e Tomasetti e figli"
            e = i + m
            e += _phrase_at(keys, e, legal, end) if e < end else 0
            hits.append(Hit(i, e, "ORGANIZATION", 0.8, SOURCE, "partners' surnames", True))
            for k in range(i, e):
                taken[k] = True
            i = e
            continue
        # a Brazilian form after a dash, in capitals: "Pereira Nunes - ME"
        if v.cased and i >= 2 and keys[i] in dash_forms and v.upper[i] and doc.words[i - 1].strip() in ("-", "–") \
                and v.seg[i - 1] == v.seg[i]:
            a = left_name(i - 1)
            if a < i - 1 and all(v.cap[k] or keys[k] in connectors for k in range(a, i - 1)):
                hits.append(Hit(a, i + 1, "ORGANIZATION", 0.85, SOURCE, "name and legal form", True))
                for k in range(a, i + 1):
                    taken[k] = True
                i += 1
                continue
        # legal form after a name: "Acme Corp", "Banco Santander S.A."
        m = _phrase_at(keys, i, legal, end)
        if m == 1 and v.cased and town_and_state_code(doc, i):
            m = 0  # "Boulder, CO": the town's state, no firm
        if m and i > 0:
            a = left_name(i)
            if a < i and (v.cased and all(v.cap[k] or keys[k] in connectors or not keys[k].isalpha()
                                          for k in range(a, i))
                          or not v.cased and not all(keys[k] in common for k in range(a, i))):
                # "Banco Santander S.A.": take a generic word before the name too
                if a > 0 and _phrase_at(keys, a - 1, before, end) == 1 and (not v.cased or v.cap[a - 1]):
                    a -= 1
                # "my business sanchez landscaping llc": the kind of body said before the name is no word of it
                while not v.cased and a + 1 < i and a > 0 and keys[a] in bodies and keys[a - 1] in determiners:
                    a += 1
                short = m == 1 and len(keys[i]) <= 2 and not v.cased
                if not short:
                    while i + m < end and (more := _phrase_at(keys, i + m, legal, end)):
                        m += more  # "Pou y asociados S.Com.", "Lemke Sp. z o.o. Sp.k.": forms in a row
                    hits.append(Hit(a, i + m, "ORGANIZATION", 0.85, SOURCE, "name and legal form", True))
                    for k in range(a, i + m):
                        taken[k] = True
                    i += m
                    continue
        # generic word after a name: "Smith Bank", "Cosham Railway Station" (cased: capitalised)
        m = _phrase_at(keys, i, after, end)
        if m and _starts_longer_place(keys, i, m, end):
            m = 0  # "miami florida united states": the country, not "Florida United"
        if m and i > 0 and (not v.cased or v.cap[i]):
            a = left_name(i, comma=False)  # "Miami, Florida, United States": no "Florida United"
            if a < i:
                own = [k for k in range(a, i) if keys[k] not in connectors]
                distinctive = [k for k in own if distinct(k)]
                if v.cased and distinctive or (v.cased and len(own) >= 2 and not v.sent_start[a]) or (
                    not v.cased and distinctive and len(distinctive) == len(own)
                ):
                    e = i + m
                    # "... Bank of America", "... University of Texas"
                    if e + 1 < end and keys[e] in ("of", "de", "del") and proper(e + 1, v.cased):
                        e = right_name(e + 1, end)
                    strong = v.cased or len(distinctive) >= 1 and all(not names.is_common(keys[k]) for k in own)
                    hits.append(Hit(a, e, "ORGANIZATION", 0.75 if strong else 0.55, SOURCE,
                                    f"name before '{' '.join(keys[i:i + m])}'", strong))
                    for k in range(a, e):
                        taken[k] = True
                    i = e
                    continue
        # generic word before a name: "University of Leicester", "Banco Santander", "Hotel Ritz"
        m = _phrase_at(keys, i, before, end)
        # "Atlantic City, New Jersey"; a form's "City: Springfield" is a field and its value
        if m and (not v.cased or v.cap[i]) and not v.comma_after[i + m - 1] and not v.stop_after[i + m - 1]:
            s = i + m
            if s < end and keys[s] in ("of", "de", "del", "for", "di", "du", "des", "de la"):
                s += 1
                if s < end and keys[s] in ("la", "the", "los", "las"):
                    s += 1
            e = right_name(s, end)
            if not v.cased and s > i + m and (place := load_places().match(keys, s, end)) is not None and (
                    s + place[0] < e):
                e = s + place[0]  # said: "the bank of england | raised rates", a place of the list ends the name
            # a legal form a few small words on closes the name: "Industrias Pou y asociados S.Com."
            j = e
            while j < end and j - e < 3 and not _phrase_at(keys, j, legal, end) and (
                    keys[j] in connectors or v.cased and keys[j].isalpha() and not v.cap[j] and keys[j] not in stop):
                j += 1
            if j < end and (lm := _phrase_at(keys, j, legal, end)) and v.cased:
                while j + lm < end and (more := _phrase_at(keys, j + lm, legal, end)):
                    lm += more  # "y asociados S.Com.": forms in a row
                e = j + lm
            if keys[i] in units and e < end and keys[e] in ("de", "del", "of", "at", "en"):
                # a unit named by what it does, then whose it is: "departamento de facturación de
                # iberdrola" — the firm is the name ("facturación" was read as one)
                f = e + 1 + (e + 1 < end and keys[e + 1] in ("la", "the", "el", "los", "las"))
                g = right_name(f, end)
                if g > f and any(distinct(k) for k in range(f, g)):
                    hits.append(Hit(f, g, "ORGANIZATION", 0.75, SOURCE, f"firm of a '{keys[i]}'", True))
                    for k in range(i, g):
                        taken[k] = True
                    i = g
                    continue
            own = [k for k in range(s, e) if keys[k] not in connectors]
            distinctive = [k for k in own if distinct(k) or (v.cased and keys[k] not in stop)]
            if own and distinctive and (v.cased or s > i + m or len(distinctive) == len(own)):
                if not v.cased and s == i + m and keys[i] not in ("banco", "universidad", "hotel", "hospital",
                                                                  "caja", "grupo", "university", "bank"):
                    i += 1
                    continue
                # said aloud right after its generic word, a name that is no first name stands as a name
                # after "of" does ("banco santander"); a first name may be anyone's ("bank john")
                strong = v.cased or s > i + m or all(not names.is_first(keys[k]) for k in own)
                # "County Cork", "County of Durham": a county named is a place (its council is "Cork County Council")
                kind = "LOCATION" if keys[i:i + m] == ["county"] else "ORGANIZATION"
                if kind == "ORGANIZATION" and s > i + m and m == 1 and keys[i] in _PLACE_GENERICS \
                        and kind_said_as_where(keys, i):
                    # "a seat in the city of oranienbau", "moved to the state of texas": the place is
                    # its name ("the city of Chicago sued" stays the body)
                    hits.append(Hit(s, e, "LOCATION", 0.75, SOURCE, f"place after '{keys[i]} of'", True))
                    for k in range(i, e):
                        taken[k] = True
                    i = e
                    continue
                hits.append(Hit(i, e, kind, 0.75 if strong else 0.55, SOURCE,
                                f"name after '{' '.join(keys[i:i + m])}'", strong))
                for k in range(i, e):
                    taken[k] = True
                i = e
                continue
        i += 1
    return hits
