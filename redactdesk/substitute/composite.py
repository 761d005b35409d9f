"""Composite values: e-mail addresses, usernames, web addresses, passwords and passport numbers.

Their parts are rebuilt from the conversation's other surrogates where they say the same thing:
"john dot smith at example dot com" becomes "peter dot jones at mail dot example" when John →
Peter and Smith → Jones; an initial follows its given name; the domain is one item shared with
web addresses; digits keep their form; other words come from a list of harmless words.
"""

from __future__ import annotations

import functools
import random
import re
from dataclasses import dataclass, field

from redactdesk.core.types import Span
from redactdesk.lang.digits import DIGIT_WORDS, NUMBER_WORDS
from redactdesk.substitute import digits as D
from redactdesk.substitute.base import Context, Generator, Item, Occurrence, Piece, phrase_tokens, register
from redactdesk.substitute.numbers import is_number_word
from redactdesk.substitute.spoken_email import respeak
from redactdesk.substitute.text import norm, plain_letters, similarity, split_punct

SEP_WORDS = {
    "en": {"dot": ".", "period": ".", "point": ".", "underscore": "_", "dash": "-", "hyphen": "-", "minus": "-"},
    "es": {"punto": ".", "guion": "-", "guión": "-", "barra": "/"},
}
SEP_PAIRS = {"es": {("guion", "bajo"): "_", ("guión", "bajo"): "_", ("barra", "baja"): "_"}, "en": {}}
AT_WORDS = {"en": ("at",), "es": ("arroba",)}
SLASH_WORDS = {"en": ("slash",), "es": ("barra",)}
KEEP_URL = {"www", "http", "https", "com", "org", "net", "es", "co", "uk"}


@dataclass
class Seg:
    kind: str  # word | letters | digits | sep
    text: str
    tpl: D.Template | None = None


@dataclass
class Spoken:
    """A spoken e-mail/username: segments of the local part and the domain labels."""

    local: list[Seg]
    domain: list[str] = field(default_factory=list)
    words: dict[str, str] = field(default_factory=dict)  # "." -> "dot", "@" -> "at" as said
    written: bool = False

    def address(self) -> str:
        local = "".join(s.text for s in self.local)
        return f"{local}@{'.'.join(self.domain)}" if self.domain else local


def _segments(tokens: list[str], language: str, words: dict[str, str]) -> list[Seg]:
    cores = [norm(split_punct(t)[1]) for t in tokens]
    segs: list[Seg] = []
    i = 0
    while i < len(cores):
        c = cores[i]
        pair = tuple(cores[i : i + 2])
        if pair in SEP_PAIRS[language]:
            sym = SEP_PAIRS[language][pair]
            words.setdefault(sym, " ".join(tokens[i : i + 2]).lower())
            segs.append(Seg("sep", sym))
            i += 2
            continue
        if c in SEP_WORDS[language]:
            sym = SEP_WORDS[language][c]
            words.setdefault(sym, c)
            segs.append(Seg("sep", sym))
            i += 1
            continue
        if is_number_word(c, language) or c.isdigit():
            j = i
            while j < len(cores) and (is_number_word(cores[j], language) or cores[j].isdigit()
                                      or cores[j] in NUMBER_WORDS.get(language, ())):
                j += 1  # "three thousand and thirty nine" is one number: "thousand" inside it too
            tpl = D.parse(tokens[i:j], language)
            if tpl.units:
                segs.append(Seg("digits", tpl.digits, tpl))
                i = j
                continue
        if len(c) == 1 and c.isalpha():
            if segs and segs[-1].kind == "letters":
                segs[-1].text += c
            else:
                segs.append(Seg("letters", c))
            i += 1
            continue
        if c:
            segs.append(Seg("word", plain_letters(c).lower() or c))
        i += 1
    return segs


def parse_email(tokens: list[str], language: str) -> Spoken | None:
    cores = [split_punct(t)[1] for t in tokens]
    for c in cores:
        if "@" in c and re.match(r"^[\w.+'\-]+@[\w\-]+(\.[\w\-]+)+$", c):  # "k.o'neill@..." too
            local, domain = c.lower().split("@", 1)
            return Spoken([Seg("word", p) if p.isalpha() else Seg("digits" if p.isdigit() else "sep", p)
                           for p in re.findall(r"[a-z]+|\d+|[._\-+]", local)], domain.split("."), written=True)
    tokens = respeak(tokens, language)  # "Richard. Garcia. Addexample .com." → "richard dot garcia at ..."
    low = [norm(t) for t in tokens]
    at = [i for i, c in enumerate(low) if c in AT_WORDS[language]]
    if not at:
        return None
    k = at[-1]
    words: dict[str, str] = {"@": low[k]}
    local = _segments(tokens[:k], language, words)
    dom_segs = _segments(tokens[k + 1 :], language, words)
    labels: list[str] = [""]
    for s in dom_segs:
        if s.kind == "sep" and s.text == ".":
            labels.append("")
        else:
            labels[-1] += s.text
    labels = [lb for lb in labels if lb]
    if not local or not labels:
        return None
    return Spoken(local, labels, words)


def _name_index(ctx: Context) -> dict[str, str]:
    """Plain lower-case letters of every person item's original → its key ("key#first" for the
    first word of a compound name, which callers use in e-mail addresses)."""
    out: dict[str, str] = {}
    firsts: dict[str, str] = {}
    for it in ctx.items.values():
        if it.klass == "person" and not it.key.startswith("spelled:"):
            out.setdefault(plain_letters(it.original).lower(), it.key)
            full = it.key.split(":", 2)[-1]
            out.setdefault(plain_letters(full).lower(), it.key)
            words = it.original.split()
            if len(words) > 1:
                firsts.setdefault(plain_letters(words[0]).lower(), it.key + "#first")
    for k, v in firsts.items():
        out.setdefault(k, v)
    return out


def _plain_surrogate(ctx: Context, key: str) -> str:
    if key.endswith("#first"):
        words = ctx.surrogate_of(key[: -len("#first")]).split()
        return plain_letters(words[0] if words else "").lower()
    return plain_letters(ctx.surrogate_of(key)).lower()


def _new_word(ctx: Context, item: Item, word: str, pos: int, index: dict[str, str]) -> str:
    """The surrogate of one alphabetic part of a local part or username."""
    if word in index:
        return _plain_surrogate(ctx, index[word])
    for cut in range(2, len(word) - 1):
        a, b = word[:cut], word[cut:]
        if a in index and b in index:
            return _plain_surrogate(ctx, index[a]) + _plain_surrogate(ctx, index[b])
        if len(a) == 1 and b in index:
            continue
    if len(word) == 1:
        # an initial: of a given name first where it opens the name ("j.smith"), of a surname where it
        # follows ("hannah.k": Kowalczyk's k becomes the new surname's initial)
        roles = (":given:", ":surname:") if pos == 0 else (":surname:", ":given:")
        for role in roles:
            for key in (k for w, k in index.items() if w.startswith(word) and role in k and "#" not in k):
                return _plain_surrogate(ctx, key)[:1]
        rng = ctx.rng(item, f"letter{pos}")
        return rng.choice("abcdefghijklmnoprstvwz".replace(word, ""))
    for cut in range(1, len(word) - 1):  # "jsmith": an initial glued to a known name
        a, b = word[:cut], word[cut:]
        if len(a) == 1 and b in index:
            return _new_word(ctx, item, a, pos, index) + _plain_surrogate(ctx, index[b])
    heard = [k for k in index if len(k) >= 4 and len(word) >= 4 and similarity(k, word) >= 0.8]
    if heard:  # the ASR spelled the name a little differently here ("tompson" for Thompson)
        best = max(heard, key=lambda k: similarity(k, word))
        return _plain_surrogate(ctx, index[best])
    gaz = ctx.gaz
    role = "given" if gaz.is_first_name(word) else ("surname" if gaz.contains("surnames", word) else None)
    if role:
        key = f"person:{role}:{gaz.canonical(word)}"
        ctx.ensure_item(Piece(0, 0, "name", key, "person", "PERSON", word.capitalize(), word,
                              {"role": role, "ntok": 1}))
        return _plain_surrogate(ctx, key)
    pool = [w for w in gaz.entries("username_words") if norm(w) != word]
    choice = ctx.pick(item, pool, "username_words", salt=f"w{pos}") or word
    ctx.claim("username_words", choice)
    return plain_letters(choice).lower()


def _new_local(ctx: Context, item: Item, segs: list[Seg]) -> list[Seg]:
    index = _name_index(ctx)
    out: list[Seg] = []
    for pos, s in enumerate(segs):
        if s.kind in ("word", "letters"):
            out.append(Seg(s.kind, _new_word(ctx, item, s.text, pos, index)))
        elif s.kind == "digits":
            rng = ctx.rng(item, f"digits{pos}")
            tpl = s.tpl or D.Template([], ctx.language, [D.Unit(0, 1, "numeral", s.text)])
            new = D.fill(tpl, rng, avoid=s.text) or s.text
            out.append(Seg("digits", new, s.tpl))
        else:
            out.append(Seg(s.kind, s.text))
    return out


def _say_segments(segs: list[Seg], like: list[Seg], language: str, words: dict[str, str]) -> list[str]:
    out: list[str] = []
    for i, s in enumerate(segs):
        ref = like[i] if i < len(like) and like[i].kind == s.kind else None
        if s.kind == "letters" or (ref is not None and ref.kind == "letters"):
            out += list(s.text)
        elif s.kind == "digits":
            if ref is not None and ref.tpl is not None and len(ref.text) == len(s.text):
                out += D.render(ref.tpl, s.text)
            else:
                out += [DIGIT_WORDS[language][int(d)] for d in s.text]
        elif s.kind == "sep":
            default = {"en": {".": "dot", "_": "underscore", "-": "dash", "+": "plus"},
                       "es": {".": "punto", "_": "guion bajo", "-": "guion", "+": "más"}}[language]
            out += words.get(s.text, default.get(s.text, s.text)).split()
        else:
            out.append(s.text)
    return out


def _split_address(text: str) -> tuple[list[Seg], list[str]]:
    local, _, domain = text.partition("@")
    segs = [Seg("digits" if p.isdigit() else ("sep" if not p.isalnum() else "word"), p)
            for p in re.findall(r"[^\W\d_]+|\d+|[._\-+]", local)]
    return segs, [d for d in domain.split(".") if d]


class DomainGenerator(Generator):
    name = "domain"
    priority = 1

    def analyse(self, ctx: Context, span_index: int, tokens: list[str], span: Span) -> list[Piece]:
        text = ".".join(t.lower() for t in tokens)
        return [Piece(0, len(tokens), "words", f"domain:{text}", self.name, span.category, text, text)]

    def generate(self, ctx: Context, item: Item) -> str:
        return ctx.pick(item, ctx.gaz.entries("domains"), "domain") or "example.com"


def _domain_item(ctx: Context, domain: str, category: str) -> str:
    key = f"domain:{domain.lower()}"
    ctx.ensure_item(Piece(0, 0, "words", key, "domain", category, domain.lower(), domain.lower(), derived=False))
    return key


def _heard_without_domain(tokens: list[str], language: str) -> Spoken | None:
    """An e-mail the ASR heard without its domain ("Holly Thompson"): its words become the local
    part of a spoken surrogate address, so pseudonym mode says an address, never a placeholder."""
    words = {"@": AT_WORDS[language][0], ".": "dot" if language == "en" else "punto"}
    local = [s for s in _segments(respeak(tokens, language), language, words) if s.kind != "sep" or s.text != "."]
    if not any(s.kind in ("word", "letters", "digits") for s in local):
        return None
    return Spoken(local, ["example", "com"], words)


class EmailGenerator(Generator):
    name = "email"
    priority = 7

    def analyse(self, ctx: Context, span_index: int, tokens: list[str], span: Span) -> list[Piece]:
        sp = parse_email(tokens, ctx.language) or _heard_without_domain(tokens, ctx.language)
        if sp is None:
            return [Piece(0, len(tokens), "words", f"email:text:{norm(' '.join(tokens))}", self.name, span.category,
                          " ".join(tokens), None, derived=True)]
        _domain_item(ctx, ".".join(sp.domain), span.category)
        return [Piece(0, len(tokens), "email", f"email:{sp.address()}", self.name, span.category, sp.address(), sp,
                      style=sp, derived=True)]

    def generate(self, ctx: Context, item: Item) -> str:
        sp = item.value
        if not isinstance(sp, Spoken):
            return f"[{item.category}]"
        local = _new_local(ctx, item, sp.local)
        domain = ctx.surrogate_of(_domain_item(ctx, ".".join(sp.domain), item.category))
        return "".join(s.text for s in local) + "@" + domain

    def render(self, ctx: Context, item: Item, occ: Occurrence, tokens: list[str]) -> list[str]:
        sp = occ.style
        surrogate = item.surrogate or ""
        if not isinstance(sp, Spoken) or "@" not in surrogate:
            return phrase_tokens(surrogate, tokens)
        if sp.written:
            return [split_punct(tokens[0])[0] + surrogate + split_punct(tokens[-1])[2]]
        segs, domain = _split_address(surrogate)
        lang = ctx.language
        dot = sp.words.get(".", "dot" if lang == "en" else "punto")
        out = _say_segments(segs, sp.local, lang, sp.words)
        out.append(sp.words.get("@", AT_WORDS[lang][0]))
        for i, label in enumerate(domain):
            if i:
                out += dot.split()
            out.append(label)
        if tokens:
            out[0] = split_punct(tokens[0])[0] + out[0]
            out[-1] = out[-1] + split_punct(tokens[-1])[2]
        return out


_HANDLE_MARK = re.compile(r"^(?:@|/?u/)(?=\w)")


class UsernameGenerator(Generator):
    """Usernames said aloud ("j smith eighty four"): parts rebuilt, said the same way. A handle's
    leading "at" (its "@" said, "rt at homedepot") stays: it is how the handle is said, not a part."""

    name = "username"
    priority = 7

    def analyse(self, ctx: Context, span_index: int, tokens: list[str], span: Span) -> list[Piece]:
        words: dict[str, str] = {}
        lead = 1 if len(tokens) > 1 and norm(split_punct(tokens[0])[1]) in AT_WORDS[ctx.language] else 0
        segs = _segments(tokens[lead:], ctx.language, words)
        text = " ".join(split_punct(t)[1] for t in tokens)
        said_at = split_punct(tokens[0])[1].lower() if lead else ""
        # a written handle keeps its mark: "@jess_m" -> "@sunny", "u/throwaway_2231" -> "u/sunny"
        mark = _HANDLE_MARK.match(tokens[0].strip()) if len(tokens) == 1 else None
        return [Piece(0, len(tokens), "spoken", f"{self.name}:{norm(text)}", self.name, span.category, text,
                      (segs, words, said_at, mark.group(0) if mark else ""), derived=True)]

    def generate(self, ctx: Context, item: Item) -> str:
        segs, words, said_at, mark = item.value
        new = _new_local(ctx, item, segs)
        said = _say_segments(new, segs, ctx.language, words)
        if mark:
            return mark + "".join(said)
        return " ".join(([said_at] if said_at else []) + said)

    def render(self, ctx: Context, item: Item, occ: Occurrence, tokens: list[str]) -> list[str]:
        return phrase_tokens(item.surrogate or "", tokens)


# words of a web address's path that name a site's page for everyone, kept as said ("slash careers",
# "slash in slash ..."); every other word of the path is replaced
_PATH_WORDS = frozenset("""in u p c r user users profile profiles people about contact contacts careers jobs job
    home help support en es fr de products product shop store blog news watch channel video videos photos
    page pages account accounts login signup register search events event menu order orders book booking
    faq terms privacy index html php pdf www""".split())


_WRITTEN_URL = re.compile(r"(?P<scheme>https?://)?(?P<www>www\.)?(?P<host>[a-z0-9][a-z0-9-]*(?:\.[a-z0-9-]+)*\.[a-z]{2,})"
                          r"(?P<path>/\S*)?", re.IGNORECASE)


class UrlGenerator(Generator):
    """Web addresses: the host becomes the conversation's surrogate domain; in the path, a site's
    own page words stay (:data:`_PATH_WORDS`), digits and every other word are replaced."""

    name = "url"
    priority = 7

    def analyse(self, ctx: Context, span_index: int, tokens: list[str], span: Span) -> list[Piece]:
        text = " ".join(split_punct(t)[1] for t in tokens)
        return [Piece(0, len(tokens), "spoken", f"url:{norm(text)}", self.name, span.category, text, list(tokens),
                      derived=True)]

    def generate(self, ctx: Context, item: Item) -> str:
        lang = ctx.language
        tokens: list[str] = [split_punct(t)[1] for t in item.value]
        if len(tokens) == 1 and (m := _WRITTEN_URL.fullmatch(tokens[0])):
            return self._written(ctx, item, m)
        low = [norm(t) for t in tokens]
        cut = next((i for i, c in enumerate(low) if c in SLASH_WORDS[lang]), len(low))
        host = [t for t in low[:cut]]
        labels = [h for h in host if h not in SEP_WORDS[lang] and h not in ("www", "http", "https", "colon")]
        if len(labels) == 1 and "." in labels[0]:
            labels = labels[0].split(".")
        domain_labels = [lb for lb in labels if lb]
        if not domain_labels:
            return item.original
        key = _domain_item(ctx, ".".join(domain_labels), item.category)
        new_domain = ctx.surrogate_of(key).split(".")
        dot = next((h for h in host if SEP_WORDS[lang].get(h) == "."), "dot" if lang == "en" else "punto")
        said: list[str] = [h for h in host if h in ("www", "http", "https")]
        if said:
            said.append(dot)
        for i, lb in enumerate(new_domain):
            if i:
                said.append(dot)
            said.append(lb)
        index = _name_index(ctx)
        for pos, t in enumerate(tokens[cut:]):
            w = norm(t)
            if w in index:
                said.append(_plain_surrogate(ctx, index[w]))
            elif w.isdigit():
                said.append("".join(ctx.rng(item, f"d{pos}").choice("0123456789") for _ in w))
            elif w.isalpha() and w not in SLASH_WORDS[lang] and w not in SEP_WORDS[lang] and w not in _PATH_WORDS:
                # fail closed: a path word no site uses for everyone is someone's ("slash in slash priya
                # dash raman" kept the name): a name's surrogate, or another word
                said.append(_new_word(ctx, item, w, pos, index))
            else:
                said.append(t)
        return " ".join(said)


    @staticmethod
    def _written(ctx: Context, item: Item, m: re.Match[str]) -> str:
        """A web address written as one word ("https://www.facebook.com/maria.lopez.77") stays
        written: the scheme and "www." as they were, the surrogate domain, and the path's parts
        replaced as a said path's are ("https://www.northwind.example/raven.cobalt.41")."""
        key = _domain_item(ctx, m.group("host"), item.category)
        out = [m.group("scheme") or "", m.group("www") or "", ctx.surrogate_of(key)]
        index = _name_index(ctx)
        for pos, part in enumerate(re.split(r"([/._\-?=&#]+|\d+)", m.group("path") or "")):
            if part.isdigit():  # digits apart from letters too: "maria88" is a name and two digits
                out.append("".join(ctx.rng(item, f"w{pos}").choice("0123456789") for _ in part))
            elif part.isalpha() and part.lower() not in _PATH_WORDS:
                out.append(_new_word(ctx, item, part.lower(), pos, index))
            else:
                out.append(part)  # separators and a site's own page words ("/careers")
        return "".join(out)


class AlnumGenerator(Generator):
    """Passwords and passport numbers: letters and digits re-drawn in form, words replaced."""

    name = "alnum"
    priority = 7

    def analyse(self, ctx: Context, span_index: int, tokens: list[str], span: Span) -> list[Piece]:
        tpl = D.parse(tokens, ctx.language, letters=True, typed_codes=True)
        if len(tokens) == 1 and _HEX_GROUPS.fullmatch(split_punct(tokens[0])[1]):
            tpl = D.Template(list(tokens), ctx.language, [])  # hexadecimal: re-drawn as such in generate
        elif span.category == "MAC_ADDRESS":  # read aloud: "a" and "e" are its letters, no words
            for k in tpl.literal_indices():
                core = split_punct(tokens[k])[1]
                if len(core) == 1 and core.lower() in "abcdef":
                    tpl.units.append(D.Unit(k, k + 1, "letter", core.upper(), tokens=(core,)))
            tpl.units.sort(key=lambda u: u.start)
        text = " ".join(split_punct(t)[1] for t in tokens)
        return [Piece(0, len(tokens), "spoken", f"alnum:{norm(text)}", self.name, span.category, text, tpl,
                      derived=True)]

    def generate(self, ctx: Context, item: Item) -> str:
        tpl: D.Template = item.value
        rng = ctx.rng(item)
        tokens = list(tpl.tokens)
        seps = set(SEP_WORDS[ctx.language]) | set(AT_WORDS[ctx.language])
        hexa = item.category == "MAC_ADDRESS"
        if hexa:  # a MAC address read aloud: its joiners stay words, its letters stay hexadecimal ones
            seps |= _SAID_MAC_JOINERS
        for pos, i in enumerate(tpl.literal_indices()):
            core = norm(split_punct(tokens[i])[1])
            if _HEX_GROUPS.fullmatch(split_punct(tokens[i])[1]):
                # a MAC address written "00:1A:2B:3C:4D:5E": hexadecimal re-drawn in place (it was a word)
                tokens[i] = _new_hex(tokens[i], rng)
                continue
            if core and core not in seps:
                pool = [w for w in ctx.gaz.entries("username_words") if norm(w) != core]
                tokens[i] = phrase_tokens(ctx.pick(item, pool, "username_words", salt=f"w{pos}") or core,
                                          [tokens[i]])[0]
        new_tpl = D.Template(tokens, tpl.language, tpl.units)
        value = D.fill(new_tpl, rng, avoid=tpl.value, unit_ok=_hex_letter if hexa else None) if tpl.units else None
        said = [split_punct(t)[1] for t in (D.render(new_tpl, value) if value else tokens)]
        if item.category == "VAT_ID":
            said = _with_country_prefix(said, [split_punct(t)[1] for t in tpl.tokens])
        return " ".join(said)


@functools.lru_cache(maxsize=1)
def _territories() -> frozenset[str]:
    """Babel's territory codes ("DE", "GB" ...), read once."""
    from babel import Locale

    return frozenset(Locale("en").territories)


def _with_country_prefix(said: list[str], original: list[str]) -> list[str]:
    """A VAT number's country ("DE136695976": Germany) stays its country, as an IBAN's does: re-drawn,
    "DE" became "TE", no country at all. EU VAT writes Greece "EL"."""
    if not said or not original or said[0] == original[0]:
        return said
    prefix = original[0][:2]
    if len(said[0]) > 2 and prefix.isalpha() and prefix.isupper() and said[0][:2].isalpha() and (
            prefix in _territories() or prefix == "EL"):
        return [prefix + said[0][2:], *said[1:]]
    return said


_SAID_MAC_JOINERS = frozenset({"colon", "dash", "hyphen"})


def _hex_letter(unit: D.Unit, candidate: str) -> bool:
    """A letter of a MAC address read aloud is one of a to f."""
    return unit.kind != "letter" or candidate.lower() in "abcdef"


_HEX_GROUPS = re.compile(r"[0-9A-Fa-f]{2,4}(?:[:.-][0-9A-Fa-f]{2,4}){2,7}")  # MAC: 00:1A:.. 001a.2b3c.4d5e


def _new_hex(token: str, rng: random.Random) -> str:
    """``token`` with every hexadecimal digit re-drawn (letters keep their case), separators kept,
    never the original."""
    core = split_punct(token)[1]
    pool = "0123456789abcdef" if any(c.islower() for c in core) else "0123456789ABCDEF"
    while True:
        out = "".join(rng.choice(pool) if c in "0123456789abcdefABCDEF" else c for c in core)
        if out != core:
            lead, _, trail = split_punct(token)
            return lead + out + trail


for _g in (DomainGenerator(), EmailGenerator(), UsernameGenerator(), UrlGenerator(), AlnumGenerator()):
    register(_g)
