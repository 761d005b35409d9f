"""Person names and spelled letters.

A PERSON span is split into name components (given name, compound given name, surname) with
titles and particles ("Mr", "señora", "de", "del") kept. Each component is one item keyed by its
role and canonical form (case, accents and spelling variants removed; a short form points to its
full name: Fran → Francisco), so "John Smith", "Smith" and "S M I T H" share the surname's
surrogate. Given names keep gender (gazetteer membership, Faker frequencies, a title before the
name) and token count (compound names are replaced by compound names); short forms are said as
the surrogate's short form (Francisco/Fran → Pedro/Perico).
"""

from __future__ import annotations

from typing import Any

from redactdesk.core.types import Span
from redactdesk.lang.names import particle_surnames, plural_surname, plural_surname_stems
from redactdesk.substitute import spelling
from redactdesk.substitute.base import Context, Generator, Item, Occurrence, Piece, phrase_tokens, register
from redactdesk.substitute.text import norm, plain_letters, resembles, split_punct

TITLE_GENDER = {
    "mr": "m", "mister": "m", "sir": "m", "mrs": "f", "ms": "f", "miss": "f", "madam": "f",
    "senor": "m", "sr": "m", "don": "m", "senora": "f", "sra": "f", "senorita": "f", "srta": "f",
    "dona": "f", "doctora": "f",
}
# small words inside a surname, kept as said ("María de la Cruz", "Mohammed bin Salman"); none that is
# also a given name ("ben", "al", "abu" stay names: in a lower-case transcript kept, they would leak one)
PARTICLES = {"de", "del", "la", "las", "los", "y", "i", "van", "von", "der", "den", "da", "di", "le", "du",
             "bin", "ibn", "bint", "ter", "ten", "zu", "della", "dos", "das", "ould"}


def _title_gender(ctx: Context, span: Span, tokens: list[str]) -> str | None:
    cands = [split_punct(t)[1] for t in tokens]
    if span.start_word > 0:
        cands.insert(0, split_punct(ctx.conv.words[span.start_word - 1].text)[1])
    for c in cands:
        g = TITLE_GENDER.get(norm(c))
        if g:
            return g
    return None


def _spelled_piece(ctx: Context, tokens: list[str], span: Span) -> Piece | None:
    sp = spelling.parse(tokens, ctx.language, ctx.gaz.spelling_words)
    if sp is None or (sp.letter_positions and sp.letter_positions[0] > 0):
        return None  # "walsh w a l s h": the name said before its spelling is a name (:func:`_spelled_tail`)
    return Piece(0, len(tokens), "spelled", f"spelled:{sp.letters}", "spelled", span.category,
                 " ".join(sp.letters), sp.letters, style=sp)


def _spelled_tail(ctx: Context, tokens: list[str], span: Span) -> Piece | None:
    """The spelling that ends a name's span ("john smith | s m i t h"): three letters or more after
    at least one word, as a spelled piece at its place in the span (None when there is none)."""
    for k in range(1, len(tokens) - 2):
        if len(split_punct(tokens[k])[1].strip("-")) != 1 and not spelling.starts_spelling(tokens[k], ctx.language):
            continue  # the spelling starts at a letter ("smith | s m i t h", "murillo | eme u erre"), not
            # at the word it spells
        sp = spelling.parse(tokens[k:], ctx.language, ctx.gaz.spelling_words)
        if sp is not None and len(sp.letters) >= 3:
            return Piece(k, len(tokens), "spelled", f"spelled:{sp.letters}", "spelled", span.category,
                         " ".join(sp.letters), sp.letters, style=sp)
    return None


def _calendar_words(language: str) -> set[str]:
    from redactdesk.substitute.dates import MONTHS, WEEKDAYS

    return set(MONTHS.get(language, ())) | set(WEEKDAYS.get(language, ()))


def _not_calendar(ctx: Context, pool: list[str]) -> list[str]:
    calendar = _calendar_words(ctx.language)  # "April", "June": a name that reads as a month
    return [p for p in pool if norm(p) not in calendar] or pool


def _surnames(gaz: Any) -> list[str]:
    pool = [s for s in gaz.entries("surnames") if s.isalpha()]
    plain = [s for s in pool if not gaz.is_first_name(s)]  # "Gonzalo" reads as a first name
    return plain if len(plain) >= 50 else pool


def _given_pool(ctx: Context, gender: str | None, ntok: int, kind: str) -> list[str]:
    """Given names of ``ntok`` words for ``gender``, not read as a month or weekday (made once per
    gazetteer): "short" forms, the gender's "list" (names sure of it preferred), its "plain" list, or
    "any" one-word name."""
    gaz = ctx.gaz

    def make() -> list[str]:
        lists = {"f": ["female_names"], "m": ["male_names"]}.get(gender or "", ["female_names", "male_names"])
        if kind == "short":
            table = gaz.short_forms
            pool = [table.display[k] for k, g in table.gender_of_full.items()
                    if (gender is None or g == gender) and len(table.display[k].split()) == ntok]
        elif kind == "any":
            pool = [n for li in ("female_names", "male_names") for n in gaz.entries(li) if " " not in n]
        else:
            pool = [n for li in lists for n in gaz.entries(li) if len(n.split()) == ntok]
            if kind == "list" and gender is not None:  # "Leslie" is on the male list but mostly given to women
                sure = [n for n in pool if gaz.gender(n) == gender]
                pool = sure if len(sure) >= 10 else pool
            if kind == "list" and gender is None:  # unisex or unknown: prefer names used for both
                both = [n for n in pool if gaz.gender(n) is None]
                pool = both if len(both) >= 10 else pool
        return _not_calendar(ctx, pool) if pool else pool

    return gaz.pool(("given", kind, gender, ntok, ctx.language), make)


_BYNAME_ARTICLES = {"en": ("the",), "es": ("el", "la")}
_JOINED_PEOPLE = frozenset({"&", "and", "y"})  # "Lee & Park": two people in one span


def _family_surname(ctx: Context, span: Span, cores: list[str]) -> str | None:
    """The surname of a family said in the plural after "the" ("with the Garcias", "the joneses"),
    or None. The word itself is no name of the lists ("the Jones" is one person's surname)."""
    if ctx.language != "en" or len(cores) != 1 or span.start_word < 1:
        return None
    word = cores[0]
    prev = split_punct(ctx.conv.words[span.start_word - 1].text)[1].lower()
    if prev != "the" or len(word) < 4 or not word.isalpha() or not word.lower().endswith("s") or (
            ctx.gaz.is_first_name(word) or ctx.gaz.contains("surnames", word)):
        return None
    stem = plural_surname_stems(word)[-1]
    return stem if len(stem) >= 3 and not stem.lower().endswith(("ss", "us", "is")) else None


class PersonGenerator(Generator):
    name = "person"
    priority = 0

    def analyse(self, ctx: Context, span_index: int, tokens: list[str], span: Span) -> list[Piece]:
        spelled = _spelled_piece(ctx, tokens, span)
        if spelled is not None:
            return [spelled]
        spelling_after = _spelled_tail(ctx, tokens, span)
        if spelling_after is not None:
            # "john smith s m i t h": the name, then its spelling — re-spelled from the surrogate
            # ("lonnie novak n o v a k"), never read as names ("parsons simpson i oneal")
            return self.analyse(ctx, span_index, tokens[:spelling_after.start], span) + [spelling_after]
        gaz = ctx.gaz
        cores = [split_punct(t)[1] for t in tokens]
        family = _family_surname(ctx, span, cores)
        if family is not None:  # "the Garcias": the surname's item, said in the plural
            piece = self._component(ctx, 0, 1, "surname", family, span, None)
            piece.style = {**(piece.style or {}), "plural": True}
            return [piece]
        gender_hint = _title_gender(ctx, span, tokens)
        lead = 0  # titles are kept only before the name: "Stephen King", "Ana Santa" keep no surname
        while lead < len(cores) - 1 and (not cores[lead] or gaz.contains("titles", cores[lead])):
            lead += 1
        tail = len(cores)  # and the letters after it: "Anthony Lawson DDS", "Bohumila Vesela Ph.D."
        while tail > lead + 1 and (not cores[tail - 1] or gaz.contains("post_nominals", cores[tail - 1])):
            tail -= 1
        # and a byname of the gazetteer's epithets after its article: "Friedrich the Great" -> "Stanley
        # the Great" ("the Ripper" names who it is, and is replaced; Spanish "la" after "de" is a
        # surname's particle: "María de la Cruz")
        if tail - lead >= 3 and norm(cores[tail - 2]) in _BYNAME_ARTICLES.get(ctx.language, ()) and (
                norm(cores[tail - 3]) not in ("de", "del")) and gaz.contains("epithets", cores[tail - 1]):
            tail -= 2
        names = [i for i, c in enumerate(cores)
                 if c and lead <= i < tail and not (i > 0 and c.islower() and norm(c) in PARTICLES)
                 and c not in _JOINED_PEOPLE and norm(c) not in _JOINED_PEOPLE]
        pieces: list[Piece] = []
        if not names:
            return pieces
        runs: list[list[int]] = [[names[0]]]
        for i in names[1:]:
            if i == runs[-1][-1] + 1:
                runs[-1].append(i)
            else:
                runs.append([i])
        multi = sum(len(r) for r in runs) > 1
        joined = any(c in _JOINED_PEOPLE or norm(c) in _JOINED_PEOPLE for c in cores)
        if len(runs) > 1 and all(len(r) == 1 for r in runs) and joined:
            # "Lee & Park", "Lee and Park": people named by their surnames, each another surname
            return [self._component(ctx, r[0], r[0] + 1, "surname", cores[r[0]], span, None) for r in runs]
        for r_i, run in enumerate(runs):
            roles: list[tuple[int, int, str]] = []
            j = 0
            if r_i == 0:
                for size in (3, 2):
                    if len(run) >= size and gaz.is_first_name(" ".join(cores[run[0] : run[0] + size])) and (
                            len(run) > size or ctx.language == "es" or size == len(run)):
                        roles.append((run[0], run[0] + size, "given"))
                        j = size
                        break
                if not roles:
                    first = cores[run[0]]
                    titled = gender_hint is not None and len(run) == 1 and not multi  # "Mr Jordan": a surname
                    given = gaz.is_first_name(first) or gaz.world_given(first)[0]  # "priya", "yuki"
                    if (given and not titled) or (multi and len(run) > 1):
                        roles.append((run[0], run[0] + 1, "given"))
                        j = 1
            rest = run[j:]
            for k, idx in enumerate(rest):
                role = "surname"
                if ctx.language == "en" and k < len(rest) - 1 and gaz.is_first_name(cores[idx]) and roles:
                    role = "given"  # a middle name
                roles.append((idx, idx + 1, role))
            for a, b, role in roles:
                text = " ".join(cores[a:b])
                piece = self._component(ctx, a, b, role, text, span, gender_hint)
                lead = " ".join(norm(c) for c in cores[max(0, a - 2):a] if norm(c) in PARTICLES)
                if role == "surname" and lead and a >= 1 and norm(cores[a - 1]) in PARTICLES:
                    piece.info["after"] = lead  # "maría de la | cruz": a surname said after its particles
                pieces.append(piece)
        return pieces

    def _component(self, ctx: Context, a: int, b: int, role: str, text: str, span: Span,
                   gender_hint: str | None) -> Piece:
        gaz = ctx.gaz
        canon = gaz.canonical(text)
        info: dict = {"role": role, "ntok": b - a, "gender_hint": gender_hint}
        form = "name"
        if role == "given" and canon in gaz.short_forms.short_to_full:
            fulls = gaz.short_forms.short_to_full[canon]
            info["full_candidates"] = [(norm(f), g) for f, g in fulls]
            if not (gaz.contains("female_names", text) or gaz.contains("male_names", text)):
                form = "short"
        return Piece(a, b, form, f"person:{role}:{canon}", self.name, span.category, text, text, info,
                     style={"short_form": canon})

    @staticmethod
    def gender(ctx: Context, item: Item) -> str | None:
        """Gender of a given-name item: a title said with it, the gazetteers, the short-form table."""
        if item.info.get("gender_hint"):
            return item.info["gender_hint"]
        full = item.key.split(":", 2)[-1]
        table = ctx.gaz.short_forms
        g = ctx.gaz.gender(item.original)
        if g is None and full != norm(item.original):
            g = ctx.gaz.gender(full) or table.gender_of_full.get(full)
        return g

    def generate(self, ctx: Context, item: Item) -> str:
        gaz = ctx.gaz
        role = item.info.get("role", "surname")
        spelled = any(o.form == "spelled" for o in item.occurrences)
        if role == "given":
            gender = self.gender(ctx, item)
            ntok = item.info.get("ntok", 1)
            has_short = any(o.form == "short" for o in item.occurrences)
            pool = _given_pool(ctx, gender, ntok, "short" if has_short else "list")
            if not [p for p in pool if norm(p) != norm(item.original)] and ntok > 1:
                pool = _given_pool(ctx, gender, ntok - 1, "plain")
            if not pool:
                pool = _given_pool(ctx, None, 1, "any")
        else:
            pool = gaz.pool(("surname", ctx.language), lambda: _not_calendar(ctx, _surnames(gaz)))
            after = particle_surnames().get(str(item.info.get("after", "")), ())
            if len([p for p in after if norm(p) != norm(item.original)]) >= 2:
                pool = list(after)  # "de la cruz" -> "de la torre", not "de la morales"
        pool = [p for p in pool if not resembles(p, item.original)] or pool  # "Danielle" gives "Daniel" away
        if spelled:
            n_letters = len(plain_letters(item.original))
            same = [p for p in pool if len(plain_letters(p)) == n_letters]
            pool = same if len(same) >= 5 else pool
        choice = ctx.pick(item, pool, f"person:{role}")
        return choice or item.original

    def render(self, ctx: Context, item: Item, occ: Occurrence, tokens: list[str]) -> list[str]:
        surrogate = item.surrogate or ""
        if isinstance(occ.style, dict) and occ.style.get("plural") and surrogate and " " not in surrogate:
            return phrase_tokens(plural_surname(surrogate), tokens)
        if occ.form == "short":
            table = ctx.gaz.short_forms
            said = (occ.style or {}).get("short_form", "")
            own = [norm(x) for x in table.full_to_short.get(item.key.split(":", 2)[-1], [])]
            idx = own.index(said) if said in own else 0
            shorts = table.full_to_short.get(norm(surrogate), [])
            if shorts:
                surrogate = shorts[min(idx, len(shorts) - 1)]
        return phrase_tokens(surrogate, tokens)


class SpelledGenerator(Generator):
    """Letters spelled out that match no other item: new letters, same count."""

    name = "spelled"
    priority = 6

    def analyse(self, ctx: Context, span_index: int, tokens: list[str], span: Span) -> list[Piece]:
        piece = _spelled_piece(ctx, tokens, span)
        if piece is not None:
            return [piece]
        return [Piece(0, len(tokens), "words", f"spelled:{norm(' '.join(tokens))}", self.name, span.category,
                      " ".join(tokens), None)]

    def generate(self, ctx: Context, item: Item) -> str:
        rng = ctx.rng(item)
        letters = str(item.value or plain_letters(item.original))
        alphabet = "ABCDEFGHIJKLMNOPRSTUVWYZ"
        for _ in range(50):
            new = "".join(rng.choice(alphabet) for _ in letters)
            if new != letters:
                return new
        return letters

    def render(self, ctx: Context, item: Item, occ: Occurrence, tokens: list[str]) -> list[str]:
        if occ.form == "spelled":
            return spelling.render(item.surrogate or "", ctx.language, occ.style, ctx.spelling_words)
        return phrase_tokens(item.surrogate or "", tokens)


register(PersonGenerator())
register(SpelledGenerator())
