"""Word classes: cities, countries, products, organisations, street addresses and groups (nationality,
religion, politics).

Surrogates come from the gazetteers with the same number of words where possible. In an
organisation name the generic words stay ("Lopez Credit Union" → "Kestrel Credit Union"); an
address changes as a unit: its numbers keep their spoken form, the street name is replaced, the
street type and words such as "apartment" / "piso" stay, Spanish floor words are swapped.
"""

from __future__ import annotations

import functools
import random
import re

from redactdesk.core.types import Span
from redactdesk.lang.names import region_codes
from redactdesk.substitute import digits as D
from redactdesk.substitute.base import Context, Generator, Item, Occurrence, Piece, phrase_tokens, register
from redactdesk.substitute.text import norm, split_punct


class PhraseGenerator(Generator):
    """A whole phrase from one gazetteer list, same word count preferred."""

    name = "city"
    list_name = "cities"
    priority = 2

    def analyse(self, ctx: Context, span_index: int, tokens: list[str], span: Span) -> list[Piece]:
        text = " ".join(split_punct(t)[1] for t in tokens).strip()
        return [Piece(0, len(tokens), "words", f"{self.name}:{norm(text)}", self.name, span.category, text, text)]

    def pool(self, ctx: Context, item: Item) -> list[str]:
        entries = ctx.gaz.entries(self.list_name)
        n = len(item.original.split())
        same = [e for e in entries if len(e.split()) == n]
        return same if len(same) >= 3 else entries

    def generate(self, ctx: Context, item: Item) -> str:
        return ctx.pick(item, fit_article(ctx, item, self.pool(ctx, item)), self.name) or item.original


class CityGenerator(PhraseGenerator):
    name, list_name = "city", "cities"

    def generate(self, ctx: Context, item: Item) -> str:
        """A town said with its state ("austin texas", "Portland, Oregon") becomes a town and another state
        of the same country, not one town's name ("kansas city"): the state told where, and reads so."""
        words = item.original.split()
        states = _regions_by_key()
        alone = norm(item.original)
        # a state said alone is another state of its country ("moved to texas": ohio); a town the
        # detector read ("in washington", "Georgia" the country) stays a town
        if alone in states and item.category == "LOCATION":
            regions = [r for r in states[alone] if norm(r) != alone]
            regions = [r for r in regions if len(r.split()) == len(words)] or regions
            return ctx.pick(item, regions, "city:region") or super().generate(ctx, item)
        k = next((k for k in (2, 1) if len(words) > k and norm(" ".join(words[-k:])) in states), 0)
        if not k:
            return super().generate(ctx, item)
        was = norm(" ".join(words[-k:]))
        regions = [r for r in states[was] if norm(r) != was]
        # "Illinois" -> "Ohio": a word for a word, each keeping its comma
        regions = [r for r in regions if len(r.split()) == k] or regions
        towns = [c for c in ctx.gaz.entries(self.list_name) if len(c.split()) == len(words) - k] or list(
            ctx.gaz.entries(self.list_name))
        town = ctx.pick(item, fit_article(ctx, item, towns), self.name) or towns[0]
        region = ctx.pick(item, regions, "city:region") or (regions[0] if regions else words[-1])
        return f"{town} {region}"

    def render(self, ctx: Context, item: Item, occ: Occurrence, tokens: list[str]) -> list[str]:
        words = (item.surrogate or "").split()
        if len(words) == len(tokens) > 1:  # "Springfield, Illinois." -> "Madison, Ohio."
            return [split_punct(o)[0] + phrase_tokens(w, [split_punct(o)[1]])[0] + split_punct(o)[2]
                    for o, w in zip(tokens, words, strict=True)]
        return super().render(ctx, item, occ, tokens)


class CountryGenerator(PhraseGenerator):
    name, list_name = "country", "countries"


class ProductGenerator(PhraseGenerator):
    name, list_name = "product", "products"


class OrganizationGenerator(PhraseGenerator):
    name, list_name = "organization", "organizations"

    def generate(self, ctx: Context, item: Item) -> str:
        words = item.original.split()
        # a legal form keeps its dots as written ("Ltd.", "S.A."): the key is the word without the last
        generic = [ctx.gaz.contains("org_words", w.rstrip(".,;:")) for w in words]
        if any(generic) and not all(generic):
            rng_item = item
            out = []
            for i, (w, g) in enumerate(zip(words, generic, strict=True)):
                if g:
                    out.append(w)
                    continue
                brands = ctx.gaz.entries("brands")
                brand = ctx.pick(rng_item, fit_article(ctx, item, brands) if i == 0 else brands, "organization:brand",
                                 salt=str(i))
                if brand:
                    ctx.claim("organization:brand", brand)
                out.append(brand or w)
            return " ".join(out)
        # only generic words ("and Savings Bank", what ASR left of a bank's name): an accepted item never
        # survives substitution, so it gets a whole organisation from the gazetteer like any other
        return super().generate(ctx, item)


_ORDINAL = re.compile(r"^(\d{1,2})(st|nd|rd|th|º|ª|°|o|a|ro|ra|do|da|er|to|ta|mo|ma|vo|va|no|na)$", re.I)
_ES_SUFFIX = {1: "ro", 2: "do", 3: "ro", 4: "to", 5: "to", 6: "to", 7: "mo", 8: "vo", 9: "no", 10: "mo"}


def ordinal_parts(token: str) -> tuple[int, str] | None:
    """(number, suffix) of a written ordinal ("6to", "3rd", "2º"), else None."""
    m = _ORDINAL.match(split_punct(token)[1])
    return (int(m.group(1)), m.group(2)) if m else None


def new_ordinal(token: str, rng: random.Random, language: str) -> str:
    """Another small ordinal written the same way ("6to" → "4to", "3rd" → "5th", "2º" → "7º")."""
    lead, core, trail = split_punct(token)
    parts = ordinal_parts(core)
    if parts is None:
        return token
    n, suffix = parts
    width = len(str(n))
    choices = [k for k in range(1 if width == 1 else 10, 10 if width == 1 else 21) if k != n]
    k = rng.choice(choices)
    if suffix.lower() in ("st", "nd", "rd", "th"):
        new_suffix = "th" if 10 <= k % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(k % 10, "th")
    elif language == "es" and suffix.lower() in ("ro", "do", "to", "mo", "vo", "no", "er"):
        new_suffix = "er" if suffix.lower() == "er" and k in (1, 3) else _ES_SUFFIX.get(k, "º")
        if suffix.lower() == "er" and k not in (1, 3):
            new_suffix = "º"
    elif suffix.lower() in ("ra", "da", "ta", "ma", "va", "na"):
        new_suffix = "ª"
    else:
        new_suffix = suffix
    if suffix.isupper():
        new_suffix = new_suffix.upper()
    return f"{lead}{k}{new_suffix}{trail}"


_COMPASS = frozenset({"N", "S", "E", "W", "NE", "NW", "SE", "SW"})


@functools.lru_cache(maxsize=1)
def _regions_by_key() -> dict[str, tuple[str, ...]]:
    """Each US state's, Canadian province's and Australian state's name in key form -> its
    country's names (``lang.names.region_names``)."""
    from redactdesk.lang.names import region_names

    return {norm(r): regions for regions in region_names() for r in regions}


def _region_pool(core: str) -> tuple[str, ...]:
    """The codes of the country whose region code ``core`` is, written in capitals ("BC", "NSW"); none else."""
    if not (2 <= len(core) <= 3 and core.isalpha() and core.isupper()):
        return ()
    return next((codes for codes in region_codes() if core in codes), ())


_NAME_PARTICLES = frozenset({"de", "del", "la", "las", "los", "le", "les", "des", "du", "di", "da", "do", "dos", "das",
                             "della", "delle", "degli", "el"})


class AddressGenerator(Generator):
    """A street address as one unit: numbers re-drawn in form, street name replaced, the rest kept."""

    name = "address"
    priority = 2

    def analyse(self, ctx: Context, span_index: int, tokens: list[str], span: Span) -> list[Piece]:
        tpl = D.parse(tokens, ctx.language, letters=True)
        ordinals = {u.start for u in tpl.units if u.end - u.start == 1 and ordinal_parts(tokens[u.start]) is not None}
        # "Vancouver, BC V5V 3C8": a region's code is a word of the address, re-drawn from its country's
        # codes, not two random letters ("XS"); a compass point ("Pennsylvania Avenue NW") stays
        cores = [split_punct(t)[1] for t in tokens]
        words = {u.start for u in tpl.units if u.end - u.start == 1 and u.text.isalpha() and (
            _region_pool(cores[u.start]) or ctx.gaz.contains("address_words", cores[u.start]))}
        if ordinals or words:  # "6to", "3rd": an ordinal stays an ordinal (a floor), not a code to re-draw
            tpl = D.Template(list(tokens), ctx.language, [u for u in tpl.units if u.start not in ordinals | words])
        literal = [norm(split_punct(tokens[i])[1]) for i in tpl.literal_indices()]
        key = f"address:{tpl.value}|{' '.join(literal)}"
        text = " ".join(split_punct(t)[1] for t in tokens)
        return [Piece(0, len(tokens), "address", key, self.name, span.category, text, text, style=tpl)]

    def _kind(self, ctx: Context, core: str) -> str:
        gaz = ctx.gaz
        if not core:
            return "keep"
        if ordinal_parts(core) is not None:
            return "ordinal"
        if _region_pool(core):
            return "region"
        if gaz.contains("floors", core):
            return "floor"
        if core[:1].isupper() and core.lower() in _NAME_PARTICLES:
            return "name"  # "Del Mar", "La Jolla", "Los Angeles": a capitalised particle opens a town's name
        if gaz.contains("street_types", core) or gaz.contains("address_words", core):
            return "keep"  # a type, a unit word, a lower-case particle ("Rue de Rivoli", "Camino del Mar")
        return "name"

    @staticmethod
    def _state_apart(tokens: list[str], runs: list[list[int]]) -> list[list[int]]:
        """The runs with a state's or province's name at the end of one split off it: said without
        commas, "springfield illinois" is a town, then its state."""
        states = _regions_by_key()
        out: list[list[int]] = []
        for run in runs:
            k = next((k for k in (2, 1) if len(run) > k and norm(" ".join(
                split_punct(tokens[i])[1] for i in run[-k:])) in states), 0)
            out += [run[:-k], run[-k:]] if k else [run]
        return out

    @staticmethod
    def _place_pool(ctx: Context, tokens: list[str], run: list[int], r_i: int) -> list[str]:
        """Surrogates for a run of an address's words that is no street: the states or provinces of
        its country where it names one ("Georgia", "Ontario"), the countries where it names one
        ("France", "Deutschland"), the towns where it comes after the street and a comma, a postcode
        or a street type ("..., 75001 Paris", "main street springfield"); none (a street's name)
        before a street type or otherwise."""
        from redactdesk.lang.names import country_keys

        text = norm(" ".join(split_punct(tokens[i])[1] for i in run))
        n = len(run)

        def sized(entries: list[str]) -> list[str]:
            same = [e for e in entries if len(e.split()) == n]
            return same if len(same) >= 3 else entries

        regions = _regions_by_key().get(text)
        if regions:  # a state for a state ("Atlanta, Georgia": not the country)
            return [r for r in sized(list(regions)) if norm(r) != text]
        if text in country_keys():
            return [c for c in sized(ctx.gaz.entries("countries")) if norm(c) != text]
        before = split_punct(tokens[run[0] - 1]) if run[0] > 0 else ("", "", "")
        after = split_punct(tokens[run[-1] + 1])[1] if run[-1] + 1 < len(tokens) else ""
        if after and ctx.gaz.contains("street_types", after):
            return []  # "Rosewood Court, 12 Hill Road": a street's name before its type
        if r_i > 0 and ("," in before[2] or any(ch.isdigit() for ch in before[1])
                        or ctx.gaz.contains("street_types", before[1])):  # said: "... main street springfield"
            return [c for c in sized(ctx.gaz.entries("cities")) if norm(c) != text]
        return []

    def generate(self, ctx: Context, item: Item) -> str:
        occ = item.occurrences[0]
        tpl: D.Template = occ.style
        rng = ctx.rng(item)
        tokens = list(tpl.tokens)
        literal = tpl.literal_indices()
        runs: list[list[int]] = []
        for i in literal:
            kind = self._kind(ctx, split_punct(tokens[i])[1])
            if kind == "region" and split_punct(tokens[i])[1] in _COMPASS and i > 0 and ctx.gaz.contains(
                    "street_types", split_punct(tokens[i - 1])[1]):
                kind = "keep"  # "Peachtree Street NE": the quadrant after the type, not Nebraska
            if kind == "ordinal":
                tokens[i] = new_ordinal(tokens[i], rng, ctx.language)
            if kind == "region":
                was = split_punct(tokens[i])[1]
                pool = [c for c in _region_pool(was) if c != was]
                lead, _, trail = split_punct(tokens[i])
                tokens[i] = lead + (ctx.pick(item, pool, "address:region", salt=str(i)) or pool[0]) + trail
            if kind == "floor":
                floors = [f for f in ctx.gaz.entries("floors") if norm(f) != norm(split_punct(tokens[i])[1])]
                if floors:
                    tokens[i] = phrase_tokens(rng.choice(floors), [tokens[i]])[0]
            if kind == "name":
                # a comma ends a run: "Rue de Rivoli, 75001 Paris, France" is a street, a town and a country
                if runs and runs[-1][-1] == i - 1 and "," not in split_punct(tokens[i - 1])[2]:
                    runs[-1].append(i)
                else:
                    runs.append([i])
        runs = self._state_apart(tokens, runs)
        for r_i, run in enumerate(runs):
            n = len(run)
            place = self._place_pool(ctx, tokens, run, r_i)
            if place:  # a country for a country, a town for a town after the street
                tokens[run[0]:run[-1] + 1] = phrase_tokens(
                    ctx.pick(item, place, "address:place", salt=f"run{r_i}") or place[0], tokens[run[0]:run[-1] + 1])
                continue
            streets = [s for s in ctx.gaz.entries("streets") if len(s.split()) == n]
            if not streets and n > 1:  # the nearest shorter street name, never one surname said n times
                shorter = [s for s in ctx.gaz.entries("streets") if len(s.split()) < n]
                longest = max((len(s.split()) for s in shorter), default=0)
                streets = [s for s in shorter if len(s.split()) == longest]
            if not streets:
                pool = [s for s in ctx.gaz.entries("surnames") if s.isalpha()]
                first = ctx.pick(item, pool, "address:street", salt=f"run{r_i}") or "Mayor"
                words = [first] * n
            else:
                choice = ctx.pick(item, streets, "address:street", salt=f"run{r_i}") or streets[0]
                ctx.claim("address:street", choice)
                words = choice.split()
            new = phrase_tokens(" ".join(words), [tokens[i] for i in run])
            if len(new) < len(run):  # a shorter street name: the run's other words go, not its last comma
                new[-1] += split_punct(tokens[run[-1]])[2]
                new += [""] * (len(run) - len(new))
            for i, w in zip(run, new, strict=True):
                tokens[i] = w
        units = [D.Unit(u.start, u.end, u.kind, u.text, u.tokens, u.zero, u.layout) for u in tpl.units]
        new_tpl = D.Template(tokens, tpl.language, units)
        if units:
            door = [u for u in units if u.kind == "letter"]
            spans, starts, pos = [], [], 0
            for u in units:  # a house number of two digits or more never stays (the original's "96")
                if len(u.text) >= 2 and u.text.isdigit():
                    spans.append((pos, pos + len(u.text), u.text))
                if u.kind == "numeral" and u.text[:1].isdigit() and u.text[0] != "0":
                    starts.append(pos)  # a number that opened with no zero opens with none ("7 Hawthorn Close" → "0 …")
                pos += len(u.text)

            def valid(s: str) -> bool:
                return (not door or all(ch in "ABCDEF" for ch in s if ch.isalpha())) and all(
                    s[a:b] != was for a, b, was in spans) and all(s[k] != "0" for k in starts if k < len(s))
            value = D.fill(new_tpl, rng, avoid=tpl.value, validator=valid if door or spans or starts else None)
            if value is None:  # no number met every wish: any new one, never the original's (fail closed)
                value = D.fill(new_tpl, rng, avoid=tpl.value)
            if value is None:
                return f"[{item.category}]"
            said = D.render(new_tpl, value)
        else:
            said = tokens
        return " ".join(c for c in (split_punct(t)[1] for t in said) if c)

    def render(self, ctx: Context, item: Item, occ: Occurrence, tokens: list[str]) -> list[str]:
        words = (item.surrogate or "").split()
        if len(words) == len(tokens):
            return [split_punct(o)[0] + w + split_punct(o)[2] for o, w in zip(tokens, words, strict=True)]
        return phrase_tokens(item.surrogate or "", tokens)


class GroupGenerator(PhraseGenerator):
    """A nationality, ethnic group, religion or political group replaced by another of the same kind
    ("Nigerian" -> "Peruvian", "Catholic" -> "Buddhist"), one word where the original is one word;
    the list is :mod:`redactdesk.lang.groups`."""

    name = "group"

    def pool(self, ctx: Context, item: Item) -> list[str]:
        from redactdesk.lang.folding import fold_key
        from redactdesk.lang.groups import PARTY_WORDS, load_groups

        groups = load_groups(ctx.language) or load_groups("en")
        if groups is None:
            return []
        kind = groups.kind_of(item.original) or "nationality"
        entries = groups.of_kind(kind)
        words = item.original.lower().split()
        if any(w in PARTY_WORDS for w in words):  # a party for a party ("the Labour Party" -> "the Reform Party")
            entries = [e for e in entries if any(w in PARTY_WORDS for w in e.lower().split())] or entries
        base = groups.base_of(fold_key(words[0])) if len(words) == 1 else None
        if ctx.language.startswith("es") and words:  # "mi madre es judía" -> "católica", not "católico"
            entries = _same_gender(fold_key(base) if base else words[-1], entries)
        n = len(words)
        same = [e for e in entries if len(e.split()) == n]
        entries = same if len(same) >= 3 else entries
        if base:  # "Brazilians" -> "Peruvians", "colombianos" -> "chilenos", "Frenchwoman" -> "Peruvian woman"
            regular = [e for e in entries if len(e.split()) == 1 and not e.lower().endswith(("ic", "al", "ox"))]
            entries = [_group_form(e, words[0], ctx.language) for e in regular] or entries
        return entries

    def render(self, ctx: Context, item: Item, occ: Occurrence, tokens: list[str]) -> list[str]:
        out = super().render(ctx, item, occ, tokens)
        if len(tokens) == 1 and len(out) > 1:  # "Frenchwoman" -> "Peruvian woman", not "Peruvian Woman"
            out = [out[0], *(w.lower() for w in out[1:])]
        return out


_UNACCENTED = {"á": "a", "é": "e", "í": "i", "ó": "o", "ú": "u"}


def _group_form(entry: str, said: str, language: str) -> str:
    """``entry`` (a listed group word) in the form ``said`` has: plural, or a person of it."""
    for suffix in ("woman", "women", "man", "men"):
        if said.endswith(suffix):
            return f"{entry} {suffix}"
    if language.startswith("es"):
        if entry[-1:] in "aeiouáéíóú":
            return entry + "s"
        if entry.endswith("z"):
            return entry[:-1] + "ces"  # "andaluz" -> "andaluces"
        plain = entry[:-2] + _UNACCENTED.get(entry[-2], entry[-2]) + entry[-1]
        return plain + "es"  # "musulmán" -> "musulmanes", "francés" -> "franceses"
    if entry.lower().endswith(("ese", "ish", "ch", "ss", "s", "sh", "ze")):
        return entry  # "the Japanese", "the French", "the Druze"
    return entry + "s"


def _spanish_gender(word: str) -> str:
    """"f" (colombiana, judía), "m" (colombiano, musulmán, español, andaluz) or "" (costarricense, belga,
    israelita, marroquí, hindú, budista)."""
    w = word.lower()
    if w.endswith("a"):
        return "" if w.endswith(("ista", "ita", "belga")) else "f"
    if w.endswith("o") or (w[-1:].isalpha() and w[-1] not in "aeiouáéíóú"):
        return "m"
    return ""


def _same_gender(original: str, entries: list[str]) -> list[str]:
    """The entries a Spanish word of ``original``'s gender may stand for (the whole list where none is)."""
    gender = _spanish_gender(original)
    if not gender:
        return entries
    other = "m" if gender == "f" else "f"
    return [e for e in entries if _spanish_gender(e.split()[-1]) != other] or entries


class OccupationGenerator(PhraseGenerator):
    """A job title replaced by another of the language's (:mod:`redactdesk.lang.occupations`): the same
    number of words where the list has them, an English one that fits the article before it ("a nurse" ->
    "a plumber", "an accountant" -> "an optician"), a Spanish one said of a woman where the original is
    ("enfermera" -> "abogada")."""

    name = "occupation"

    def pool(self, ctx: Context, item: Item) -> list[str]:
        from redactdesk.lang.occupations import feminine_title, inverted_job_titles, is_feminine, job_titles

        words = item.original.split()
        core = split_punct(item.original)[1]
        if len(words) == 1 and core.isupper() and 2 <= len(core) <= 5:  # "our CFO" -> "our CTO"
            offices = [w for w in _OFFICE_ACRONYMS if w != core.lower()]
            article = _article_before(ctx, item)  # letters said by name: "a CFO", "an SVP"
            if article:
                offices = [w for w in offices if (w[0] in "aefhilmnorsx") == (article == "an")]
            if offices:
                return offices
        titles = list(job_titles(ctx.language) or job_titles("en"))
        if _written_head_first(ctx, item):  # "Engineer, biomedical": another title written so
            titles = list(inverted_job_titles(ctx.language)) or titles
        if ctx.language.startswith("es") and words and is_feminine(split_punct(words[0])[1]):
            titles = [feminine_title(t) for t in titles]
        titles = fit_article(ctx, item, titles)
        same = [t for t in titles if len(t.split()) == len(words)]
        return same if len(same) >= 3 else titles


_OFFICE_ACRONYMS = ("ceo", "cfo", "cto", "coo", "cio", "cmo", "ciso", "vp", "svp", "evp")


def _occurrence_bounds(ctx: Context, item: Item) -> list[tuple[int, int]]:
    """Where each occurrence of the item lies among the conversation's words: (first, end)."""
    return [(ctx.spans[o.span_index].start_word + o.start, ctx.spans[o.span_index].start_word + o.end)
            for o in item.occurrences if 0 <= o.span_index < len(ctx.spans)]


def _written_head_first(ctx: Context, item: Item) -> bool:
    """Is the title written head first, a comma after its head ("Engineer, biomedical")?"""
    return any(any(w.text.rstrip().endswith(",") for w in ctx.conv.words[a:b][:-1])
               for a, b in _occurrence_bounds(ctx, item))


def fit_article(ctx: Context, item: Item, pool: list[str]) -> list[str]:
    """The pool's entries that read right after the English article said before the item ("an Italian"
    -> "an Ecuadorian", not "an Vietnamese"); the whole pool where no article is said or none fits. A
    "u", "eu" or "one" reads either way ("a user", "an umpire") and is left out for both."""
    article = _article_before(ctx, item)
    if not article:
        return pool
    if article == "an":
        fit = [e for e in pool if e[:1].lower() in "aeio" and not e.lower().startswith(("one", "eu"))]
    else:
        fit = [e for e in pool if e[:1].lower() not in "aeiou" and not e.lower().startswith(("hon", "hour", "heir"))]
    return fit or pool


def _article_before(ctx: Context, item: Item) -> str:
    """ "a" or "an" when an English article comes right before an occurrence of the item, else ""."""
    if not ctx.language.startswith("en"):
        return ""
    for a, _ in _occurrence_bounds(ctx, item):
        if 0 < a <= len(ctx.conv.words):
            prev = split_punct(ctx.conv.words[a - 1].text)[1].lower()
            if prev in ("a", "an"):
                return prev
    return ""


for _g in (CityGenerator(), CountryGenerator(), ProductGenerator(), OrganizationGenerator(), AddressGenerator(),
           GroupGenerator(), OccupationGenerator()):
    register(_g)
