"""Person names of the whole world: the name list, the everyday-word list and the name recogniser.

The lists (resources/detect/world_names.tsv, common_words.txt) are built by
scripts/build_detect_lists.py from every Faker locale, transliterated to ASCII keys
(:func:`redactdesk.lang.folding.fold_key`). A word of a name list that is also an everyday word
("will", "grant", "rosa") is marked; such a word needs a cue to count: a title ("Mr", "señora"),
a name cue ("my name is", "call"), a second name part beside it, or a capital in cased text.

:func:`find_names` reads one document's words (not the normalised text) and proposes PERSON hits:
"First Last", "Last, First", lists ("Eklund, Michael and Hodge"), names after titles, ALL CAPS,
lower case, initials ("J. R. Smith"), hyphenated and particle surnames ("van der Berg",
"de la Cruz", "O'Neill", "Al-Hassan"). Every lookup is a dict access per word.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Any

from redactdesk.detect.normalize import NUM
from redactdesk.detect.sources import DetectDoc, Hit
from redactdesk.lang.folding import fold_key
from redactdesk.lang.lexicon import Lexicon, word_list
from redactdesk.resources import read_yaml, resource

FEMALE, MALE, FIRST, LAST, COMMON = 1, 2, 4, 8, 16
_FLAG_BITS = {"F": FEMALE | FIRST, "M": MALE | FIRST, "U": FIRST, "L": LAST, "c": COMMON}
_EDGE = ".,;:!?¡¿\"“”‘’«»()[]{}…*#@<>|/\\+=~`^"
_SENT_END = frozenset(".!?")


# what follows a person named after a kin word: a verb of being, saying or living, a modal, "and", "who"
_AFTER_KIN_NAME = frozenset({"is", "was", "has", "had", "said", "says", "called", "rang", "phoned", "lives", "lived",
                             "works", "worked", "will", "would", "can", "could", "and", "who", "does", "did",
                             "usually", "always", "just", "also", "wants", "needs", "told", "asked", "deals",
                             "handles", "pays", "paid"})
# words after which "my brother ..." opens a clause of its own, the kin its subject ("and my brother drew")
_CLAUSE_OPENERS = frozenset({"and", "but", "so", "then", "because", "cause", "cos", "when", "while", "if", "that",
                             "since", "or", "though", "although", "yeah", "yes", "well", "oh", "um", "uh", "like"})
# before a one-word command verb of the name cues, these make it a noun ("my phone bill", "the call log")
_NOUN_DETERMINERS = frozenset({"my", "your", "his", "her", "our", "their", "the", "a", "an", "this", "that",
                               "mi", "tu", "su", "el", "la", "un", "una"})


def _after_job_and_at(doc: DetectDoc, k: int) -> bool:
    """occupations.job_and_at_before ("an accountant at Hernandez-Hoffman": a firm), imported when
    asked: occupations reads this module's lists."""
    from redactdesk.detect.occupations import job_and_at_before

    return job_and_at_before(doc, k)


@dataclass(frozen=True)
class NameList:
    """Folded name keys -> flag bits and weights (1-9)."""

    flags: dict[str, int]
    weight: dict[str, int]

    def get(self, key: str) -> int:
        return self.flags.get(key, 0)

    def is_first(self, key: str) -> bool:
        return bool(self.flags.get(key, 0) & FIRST)

    def is_last(self, key: str) -> bool:
        return bool(self.flags.get(key, 0) & LAST)

    def is_name(self, key: str) -> bool:
        return key in self.flags

    def is_common(self, key: str) -> bool:
        return bool(self.flags.get(key, 0) & COMMON)

    def is_plain_name(self, key: str) -> bool:
        """A name of the lists that is no everyday word too ("ilona", not "mark")."""
        return key in self.flags and not self.flags[key] & COMMON


def data_lines(name: str) -> list[list[str]]:
    path = resource("detect", name)
    out = []
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            if line.startswith("#") or not line.strip():
                continue
            out.append(line.rstrip("\n").split("\t"))
    return out


@functools.lru_cache(maxsize=1)
def load_world_names() -> NameList:
    flags: dict[str, int] = {}
    weight: dict[str, int] = {}
    for row in data_lines("world_names.tsv"):
        key, fl, w = row[0], row[1], row[2]
        bits = 0
        for c in fl:
            bits |= _FLAG_BITS.get(c, 0)
        flags[key] = bits
        weight[key] = int(w)
    return NameList(flags, weight)


@functools.lru_cache(maxsize=1)
def everyday_words() -> frozenset[str]:
    """Everyday English and Spanish words (resources/detect/common_words.txt), folded."""
    return frozenset(r[0] for r in data_lines("common_words.txt"))


@functools.lru_cache(maxsize=1)
def structures() -> dict[str, Any]:
    """resources/detect/structures.yaml: particles, titles, organisation and street words."""
    with resource("detect", "structures.yaml").open(encoding="utf-8") as fh:
        data = read_yaml(fh)
    out: dict[str, Any] = {}
    for k, v in data.items():
        phrases = []
        for item in v:
            words = item if isinstance(item, list) else str(item).split()
            key = tuple(fold_key(str(w)) or str(w) for w in words)
            if key:
                phrases.append(key)
        out[k] = phrases
    return out


@functools.lru_cache(maxsize=4)
def _context_words(lex: Any) -> frozenset[str]:
    """Every word of the lexicon's hotword phrases (card, email, street ...): never a surname."""
    return frozenset(w for phrases in lex.hotwords.values() for ph in phrases for w in ph)


@functools.lru_cache(maxsize=4)
def _cues_by_last(lex: Any) -> dict[str, tuple[tuple[tuple[str, ...], str], ...]]:
    """Name cues by their last word, strongest first: (phrase, "strong" / "verb" / "weak")."""
    out: dict[str, list[tuple[tuple[str, ...], str]]] = {}
    for key, label in (("name_cue_strong", "strong"), ("name_cue_verbs", "verb"), ("name_cue_weak", "weak")):
        for ph in lex.hot(key):
            out.setdefault(ph[-1], []).append((ph, label))
    return {k: tuple(v) for k, v in out.items()}


def word_set(key: str) -> frozenset[str]:
    """One-word entries of a structures.yaml list, folded."""
    return _word_set(key)


@functools.lru_cache(maxsize=1)
def name_joiners() -> frozenset[str]:
    """Words inside a name that a name goes on after: the particles ("van", "de", "bin") and the
    Vietnamese middle name "thi" ("Nguyen Van An", "Tran Thi Mai")."""
    return word_set("name_particles") | {"thi"}


@functools.lru_cache(maxsize=64)
def _word_set(key: str) -> frozenset[str]:
    return frozenset(p[0] for p in structures().get(key, ()) if len(p) == 1)


# --- the document view shared by the recognisers ---------------------------------------------------


@dataclass
class WordView:
    """Per-word facts of one document, computed once and cached on the document."""

    keys: list[str]  # folded keys without possessive 's
    cap: list[bool]  # starts with a capital (in a cased document)
    upper: list[bool]
    sent_start: list[bool]  # first word of a sentence or turn
    comma_after: list[bool]
    stop_after: list[bool]  # a sentence, clause or line of written text ends after the word
    cased: bool
    seg: list[int]  # turn index
    seg_end: list[int]  # the word after the word's turn
    cores: list[str]  # the words without edge punctuation
    line_after: list[bool]  # a line of written text ends after the word (inside its turn)
    sentence_after: list[bool]  # a sentence or clause ends after the word, by its punctuation alone


@functools.lru_cache(maxsize=4)
def person_verbs(lex: Lexicon) -> frozenset[str]:
    """What only a person does, said after a name: the lexicon's verbs of saying and gestures, without
    the ones an abstract noun takes too ("Grace notes", "Hope adds up")."""
    return (word_list(lex, "reporting_verbs") | word_list(lex, "human_subject_verbs")) - {"notes", "adds"}


# the titles of a monarch, said before a given name ("queen victoria", "king john")
_MONARCHS = frozenset({"king", "queen", "prince", "princess", "emperor", "empress", "tsar", "czar", "tsarina", "pope",
                       "sultan", "duke", "duchess"})
# an Irish surname written with its O' ("O'Sullivan", "O’Brien"): a name on its own, a word of no language
_O_SURNAME = re.compile(r"O['’][A-Z][a-z]{2,}")
_O_SURNAME_SAID = re.compile(r"o['’][a-z]{3,}")  # lower case, as ASR writes it ("o'donnell"; "o'clock" is no name)


def strip_word(raw: str) -> str:
    s = raw.strip().replace("’", "'")
    s = s.strip(_EDGE)
    low = s.lower()
    if low.endswith("'s") and len(s) > 3:
        s = s[:-2]
    elif s.endswith("'") and len(s) > 2:
        s = s[:-1]
    return s.strip(_EDGE + "'")


CLOSING_MARKS = "\"'”’)»]"  # what may close a word after its full stop or comma


_ABBREV_DOT = frozenset("mr mrs ms dr prof st sr sra srta jr no nº vs etc inc ltd co corp jr sen rep gen col capt lt "
                        "sgt rev fr mt ft ave av avda apt dept bros approx".split())


_CONTRACTION = re.compile(r"(\w+)['’](m|re|ve|ll|d|s|t)", re.IGNORECASE)


_NEGATED = re.compile(r"\w+n['’]t", re.IGNORECASE)
_PRONOUNS = frozenset("i you we they he she it that there who what where how here this".split())


def is_verb_contraction(word: str) -> bool:
    """Is ``word`` a verb's short form: a negation ("won't", "doesn't", "ain't") or a pronoun with its
    verb ("we'll", "they'd", "I'm")? Names with an apostrophe ("O'Neil", "D'Angelo", "Sa'd") are not."""
    if _NEGATED.fullmatch(word):
        return True
    m = _CONTRACTION.fullmatch(word)
    return bool(m) and m.group(2).lower() != "s" and m.group(1).lower() in _PRONOUNS


def word_view(doc: DetectDoc) -> WordView:
    cached = doc.cache.get("_word_view")
    if cached is not None:
        return cached
    words = doc.words
    n = len(words)
    cased = doc.cased()
    keys: list[str] = []
    cap: list[bool] = []
    upper: list[bool] = []
    comma: list[bool] = []
    stop_after: list[bool] = []
    cores: list[str] = []
    stop = doc.lex.stop_words if doc.lex else frozenset()
    for raw in words:
        core = strip_word(raw)
        cores.append(core)
        key = fold_key(core) if core else ""
        m = _CONTRACTION.fullmatch(core)
        if m and m.group(1).lower() in stop:
            key = m.group(1).lower()  # "I'm", "you're", "can't": a function word, not the surname "Im"
        keys.append(key)
        cap.append(cased and core[:1].isupper())
        upper.append(cased and core.isupper() and sum(c.isalpha() for c in core) > 1)
        r = raw.rstrip(CLOSING_MARKS)
        comma.append(r.endswith((",", ";")))
        ends = r[-1:] in _SENT_END or r.endswith(":")
        if ends and r.endswith(".") and (fold_key(core) in _ABBREV_DOT or (len(core) == 1 and core.isalpha())):
            ends = False
        stop_after.append(ends)
    lines = set(doc.lines)
    line_after = [i + 1 in lines for i in range(n)]
    # a line of written text ends a name, firm or place as a full stop does ("John Smith⏎Acme Corp",
    # "Hello Anna⏎Room 12 is free"); addresses, read by their parts, run on over lines (sentence_after)
    sentence_after = stop_after
    stop_after = [s or ln for s, ln in zip(sentence_after, line_after, strict=True)]
    breaks = set(doc.breaks)
    seg = []
    s = 0
    sent = []
    for i in range(n):
        if i in breaks and i > 0:
            s += 1
        seg.append(s)
        prev = words[i - 1] if i > 0 else ""
        sent.append(
            i == 0 or i in breaks or sentence_after[i - 1]
            or not any(c.isalnum() for c in prev) or prev.endswith(("\n", "•"))
        )
    seg_end = [n] * n
    for i in range(n - 2, -1, -1):
        seg_end[i] = seg_end[i + 1] if seg[i + 1] == seg[i] else i + 1
    view = WordView(keys, cap, upper, sent, comma, stop_after, cased, seg, seg_end, cores, line_after, sentence_after)
    doc.cache["_word_view"] = view
    return view


# --- the recogniser -----------------------------------------------------------------------------

SOURCE = "gazetteer"


@dataclass
class _Tok:
    kind: str  # "name", "cname" (everyday-word name), "proper" (capitalised unknown), "initial", "particle"
    first: bool = False
    last: bool = False


class _Names:
    def __init__(self, doc: DetectDoc, taken: list[bool]) -> None:
        self.doc = doc
        self.v = word_view(doc)
        self.nl = load_world_names()
        self.common = everyday_words()
        self.lex = doc.lex
        self.stop = doc.lex.stop_words if doc.lex else frozenset()
        self.particles = word_set("name_particles")
        self.titles = word_set("titles")
        self.amb_titles = word_set("titles_ambiguous")
        self.taken = taken
        self.context = _context_words(doc.lex) if doc.lex else frozenset()
        self.n = len(doc.words)
        self.toks: list[_Tok | None] = [self._classify(i) for i in range(self.n)]
        self.hits: list[Hit] = []

    # per word ----------------------------------------------------------------------------------
    def everyday(self, key: str) -> bool:
        return key in self.stop or (key in self.common and not self.nl.is_name(key)) or self.nl.is_common(key)

    def _classify(self, i: int) -> _Tok | None:
        if self.taken[i]:
            return None
        v = self.v
        key = v.keys[i]
        raw = self.doc.words[i]
        if not key or not any(c.isalpha() for c in key):
            return None
        core = strip_word(raw)
        # initials: "J." or "J" (cased, capital) -- never the pronoun "I" or the article "A"
        if len(key) == 1 and key.isalpha():
            if v.cased and core.isupper() and core not in ("I", "A") and (raw.rstrip().endswith(".") or True):
                return _Tok("initial")
            return None
        if key in self.particles and not v.cap[i] and " " not in key:
            return _Tok("particle")
        parts = [p for p in key.replace("-", " ").split() if p]
        if not parts:
            return None
        if key in self.titles and v.cap[i] and raw.rstrip().endswith(".") and not self.nl.is_name(key):
            return None  # "Mrs.", "Dr.": the cue before a name, no part of a run of capitalised words
        if len(parts) > 1:
            # hyphenated: "Jean-Pierre", "Al-Hassan", "Smith-Jones"
            content = [p for p in parts if p not in self.particles]
            if content and all(self.nl.is_name(p) for p in content):
                first = self.nl.is_first(content[0])
                last = any(self.nl.is_last(p) for p in content)
                if all(not self.nl.is_common(p) for p in content):
                    return _Tok("name", first, last)
                return _Tok("cname", first, last)
            if v.cap[i] and content and all(p not in self.common for p in content):
                return _Tok("proper")
            return None
        if is_verb_contraction(core):
            return None  # "rick delgado won't", "mike doesn't": a verb's short form, no name part
        if self.lex is not None and key in self.lex.months and self._day_after(i):
            return None  # "June eleventh", "May 5", "April the 3rd": a date, whoever else is called June
        f = self.nl.get(key)
        if key in self.stop and not (v.cap[i] and not v.sent_start[i] and f and len(key) >= 4) and not (
                v.cased and v.cap[i] and v.sent_start[i] and f and self._acts_after(i)):  # "Will looked up"
            return None  # "Will Smith" keeps "Will"; "The", "No", "My" are never names
        if f:
            first, last = bool(f & FIRST), bool(f & LAST)
            if f & COMMON or len(key) <= 2:
                return _Tok("cname", first, last)
            return _Tok("name", first, last)
        if v.cap[i] and key.isalpha() and key not in self.common and not v.upper[i] or (
            v.cap[i] and v.upper[i] and key not in self.common and len(key) > 3
        ):
            return _Tok("proper")
        if not v.cased and key.isalpha() and core.replace("'", "").replace("-", "").isalpha() and len(key) >= 3 and (
                key not in self.common and key not in self.context):
            return _Tok("unknown")  # lower case: a word of no list, possibly a surname ("karol balinski")
        return None

    def _day_after(self, i: int) -> bool:
        """Does a day of the month (a number 1-31, said or written, "the" allowed before it) follow word ``i``?"""
        norm = self.doc.norm
        t = norm.token_of_word(i + 1)
        if t is not None and norm.tokens[t].text == "the":
            t += 1
        if t is None or t >= len(norm.tokens):
            return False
        tok = norm.tokens[t]
        return tok.kind == NUM and tok.text.isdigit() and 1 <= int(tok.text) <= 31

    def _double_barrelled(self, i: int) -> bool:
        """Is word ``i`` two capitalised surnames of the lists joined by a hyphen ("Curtis-Woods"), or
        two first names ("Ava-Grace", "Mary-Kate"), and no listed place ("Winston-Salem")?"""
        from redactdesk.detect.places import load_places

        word = strip_word(self.doc.words[i])
        parts = word.split("-")
        if len(parts) != 2 or not all(p[:1].isupper() and p[1:].islower() for p in parts):
            return False
        keys = [fold_key(p) for p in parts]
        return (all(self.nl.is_last(k) for k in keys) or all(self.nl.is_first(k) for k in keys)) and (
            load_places().get(fold_key(word)) is None)

    def strong_part(self, i: int) -> bool:
        """A word that is a name on its own evidence: a non-everyday name, or an everyday-word
        name with a capital in cased text (not at a sentence start)."""
        t = self.toks[i]
        if t is None:
            return False
        if t.kind == "name":
            return not (self.v.cased and not self.v.cap[i] and self.nl.weight.get(self.v.keys[i], 1) < 3)
        if t.kind == "cname":
            return self.v.cased and self.v.cap[i] and not self.v.sent_start[i] and not self.v.upper[i]
        return False

    def cue_before(self, i: int) -> str | None:
        """'title', 'strong', 'verb' or 'weak' when a cue ends right before word ``i``."""
        v = self.v
        lower = self.doc.lower
        j = i - 1
        if j < 0 or v.seg[j] != v.seg[i]:
            return None
        k = v.keys[j]
        if k in self.titles and (k not in self.amb_titles or v.cap[j] or v.cap[i]
                                 or self.doc.words[j].endswith(".")):
            return "title"
        if k in self.amb_titles and not v.cased:
            return "amb_title"
        lex = self.lex
        if lex is None:
            return None
        for ph, label in _cues_by_last(lex).get(lower[j], ()):
            m = len(ph)
            if i - m >= 0 and tuple(lower[i - m : i]) == ph and v.seg[i - m] == v.seg[i]:
                if v.stop_after[i - 1] and label != "strong":
                    continue
                if label == "verb" and m == 1 and i >= 2 and lower[i - 2] in _NOUN_DETERMINERS and (
                        lower[j] not in word_list(lex, "kin_words")):
                    continue  # "my phone bill", "a text message": the verb is a noun there, and names no one
                return "kin" if label == "verb" and self._kin_said(i) else label
        if self._kin_said(i) and not v.stop_after[i - 1]:
            return "kin"
        return None

    def _acts_after(self, k: int) -> bool:
        """Is the word after the name at ``k`` what only a person does, said of it: a verb of saying or
        a person's gesture ("Will looked up", "Hope whispered"), and the name a given name of the lists?
        A modal before a past tense is no English ("will looked"), an abstract noun says nothing
        ("Hope notes" is left: grace notes)."""
        if k + 1 >= self.n or self.v.seg[k + 1] != self.v.seg[k] or self.v.stop_after[k] or self.v.comma_after[k]:
            return False
        after = self.doc.lower[k + 1].strip(".,;:!?\"")
        return self.lex is not None and after in person_verbs(self.lex) and self.nl.is_first(self.v.keys[k])

    def _kin_as_object(self, i: int) -> bool:
        """Is the kin before word ``i`` ("my niece | emily") the object of a verb or preposition said
        before it ("pick up my niece emily from school", "with my son jake")? No verb of the kin's own can
        follow it there, so a given name after it is the kin's name."""
        k = i - 3  # the word before "my niece"
        return k >= 0 and self.v.seg[k] == self.v.seg[i] and not self.v.stop_after[k] and not self.v.comma_after[k] \
            and self.doc.lower[k] not in _CLAUSE_OPENERS

    def _kin_said(self, i: int) -> bool:
        """Is word ``i`` right after one's kin or someone close, said with a possessive ("my partner |
        dev", "her son | kit")? The word there is that person's name when it is a name at all."""
        lower = self.doc.lower
        return i >= 2 and lower[i - 2] in word_list(self.lex, "possessives") and lower[i - 1] in word_list(
            self.lex, "kin_words")

    # runs --------------------------------------------------------------------------------------
    def runs(self) -> list[tuple[int, int]]:
        out = []
        v = self.v
        i = 0
        while i < self.n:
            if self.toks[i] is None or self.toks[i].kind == "particle":
                i += 1
                continue
            j = i + 1
            while j < self.n and v.seg[j] == v.seg[i] and not v.comma_after[j - 1] and not v.stop_after[j - 1]:
                t = self.toks[j]
                if t is None or self.doc.words[j].lstrip()[:1] in "([{":
                    break  # "Agent (Priya):" — a bracket opens another name, or a name's gloss
                if t.kind == "particle":
                    # a particle joins only when a name part follows it
                    k = j
                    while k < self.n and self.toks[k] is not None and self.toks[k].kind == "particle" and k - j < 3:
                        k += 1
                    if k < self.n and self.toks[k] is not None and self.toks[k].kind in ("name", "cname", "proper") and (
                        not v.cased or v.cap[k]
                    ) and v.seg[k] == v.seg[i]:
                        j = k + 1
                        continue
                    break
                if v.cased and (v.cap[j] != v.cap[j - 1]) and self.toks[j - 1].kind != "particle":
                    break  # "Smith said" / "john Smith": a change of case ends a cased name
                j += 1
            out.append((i, j))
            i = j
        return out

    def accept(self, a: int, b: int) -> tuple[int, int, float, bool, str] | None:
        """(start, end, score, strong, reason) for a run, or None."""
        v = self.v
        toks = self.toks
        # trim particles and lower-case everyday words at the edges
        while a < b and toks[a].kind == "particle":
            a += 1
        while b > a and toks[b - 1].kind == "particle":
            b -= 1
        if a >= b:
            return None
        cue = self.cue_before(a)
        if a >= b:
            return None
        if not v.cased and b - a == 2 and v.keys[a] in _MONARCHS and self.nl.is_first(v.keys[a + 1]) and (
                toks[a + 1].kind == "cname"):
            # "in the reign of queen victoria", "king john": a monarch's given name, an everyday word too
            return a, b, 0.75, True, "given name after a monarch's title"
        if not v.cased and not cue:
            # lower case: everyday-word names at the edges are words ("age michael phelps", "madonna song")
            while b - a > 1 and toks[b - 1].kind == "cname":
                b -= 1
            while a < b and toks[a].kind == "unknown":
                a += 1  # a name starts with a known name ("famer bill mckechnie")
            while b - a > 1 and toks[a].kind == "cname" and toks[a + 1].kind != "unknown":
                a += 1
            while a < b and toks[a].kind == "particle":
                a += 1
            while b > a and toks[b - 1].kind == "particle":
                b -= 1
            if a >= b:
                return None
            cue = self.cue_before(a)
        kinds = [toks[k].kind for k in range(a, b)]
        content = [k for k in range(a, b) if toks[k].kind != "particle"]
        strong_parts = [k for k in content if self.strong_part(k)]
        propers = [k for k in content if toks[k].kind == "proper"]
        initials = [k for k in content if toks[k].kind == "initial"]
        firsts = [k for k in content if toks[k].first and toks[k].kind in ("name", "cname")]
        lasts = [k for k in content if toks[k].last and toks[k].kind in ("name", "cname")]
        n = len(content)
        if all(k == "initial" for k in kinds):
            return None
        if initials and toks[b - 1].kind == "initial":
            b2 = b
            while b2 > a and toks[b2 - 1].kind == "initial":
                b2 -= 1
            return self.accept(a, b2) if b2 > a else None
        cased = v.cased
        all_cap = all(v.cap[k] for k in content)
        # a cue: title / strong cue / command verb
        if cue == "title" and cased and (not content or not v.cap[content[0]]):
            return None  # cased writing: "The President said the talks ..." names no one "said"
        if cue == "title":
            return a, b, 0.85, True, "name after a title"
        if cue == "amb_title" and (strong_parts or any(toks[k].kind == "name" for k in content)):
            return a, b, 0.75, True, "name after a title"
        if cue in ("strong", "verb", "kin") and (strong_parts or (not cased and any(
                toks[k].kind == "cname" and v.keys[k] not in self.stop for k in content)) or (cased and all_cap)):
            if cue == "kin" and not strong_parts and n == 1 and not cased:
                # "my partner dev", "her son kit is seven": a name that is an everyday word too, said of
                # one's kin, the clause going on as after a subject ("my manager said no", "my brother
                # drew a map": a verb, no name)
                said_verb = v.keys[a] in word_list(self.lex, "name_like_verbs")  # "what my mom said"
                if not said_verb and (b >= len(v.keys) or b in self.doc.breaks or v.stop_after[b - 1]
                                      or v.comma_after[b - 1] or v.keys[b] in _AFTER_KIN_NAME
                                      or (self._kin_as_object(a) and self.nl.is_first(v.keys[a]))):
                    return a, b, 0.7, True, "name after one's kin"
                return None
            if cue == "verb" and not strong_parts and n == 1 and not cased:
                return a, b, 0.6, False, "name after a command"
            return a, b, 0.8, True, "name after a name cue"
        if n >= 2:
            # at least one name on its own evidence, the rest names, capitals or initials
            if cased and not all_cap:
                return None
            name_like = sum(1 for k in content if toks[k].kind in ("name", "cname"))
            if not strong_parts and (cased or not any(toks[k].kind == "unknown" for k in content)):
                if cased and all_cap and name_like >= 2 and firsts and not v.sent_start[a]:
                    return a, b, 0.6, False, "capitalised names"
                return None
            if cased:
                plain = [k for k in content if toks[k].kind in ("name", "proper", "initial")]
                if plain and (firsts or lasts) and (len(strong_parts) >= 2 or propers or initials or name_like >= 2):
                    return a, b, 0.8, True, "full name in the name list"
                return None
            # lower case: first name + surname from the list, or + words of no list ("karol balinski")
            if any(v.keys[k] in self.stop for k in content) or propers:
                return None
            unknown = [k for k in content if toks[k].kind == "unknown"]
            if not firsts or firsts[0] != content[0] or len(unknown) > 2:
                return None
            if unknown:
                lead = toks[content[0]]
                if any(toks[k].kind == "cname" for k in content[1:]):
                    return None  # "alexa add erosser": an everyday word inside is no name part
                if lead.kind == "name" or all(len(v.keys[k]) >= 4 for k in unknown):
                    return a, b, 0.7, lead.kind == "name" or len(content) - len(unknown) >= 2, \
                        "first name and a surname of no list"
                return None
            if len(strong_parts) >= 2 or (strong_parts and strong_parts[0] == content[0] and toks[content[-1]].last):
                return a, b, 0.75, True, "full name in the name list"
            return None
        k = content[0]
        t = toks[k]
        if t.kind == "unknown":
            return None
        if t.kind == "proper":
            if cue == "title" and cased:
                return a, b, 0.75, True, "capitalised name after a title"  # "Mrs. Oyelaran-Smith"
            if cue == "weak" and cased:
                return a, b, 0.6, False, "capitalised word after a name cue"
            return None
        if cased and n == 1 and self._double_barrelled(k) and not (
                self.lex is not None and self.doc.context_distance("org_cue_employer", k, left=3) == 0) and not (
                _after_job_and_at(self.doc, k)):
            return a, b, 0.7, True, "double-barrelled surname"  # "Curtis-Woods"; "works at Carter-Thompson": a firm
        if cased and n == 1 and v.sent_start[k] and not cue and t.kind in ("name", "cname") and self._acts_after(k):
            return a, b, 0.7, True, "a name opening a sentence before what a person does"  # "Will looked up"
        if not self.strong_part(k):
            if cue == "weak" and t.kind in ("name", "cname") and v.keys[k] not in self.stop and (cased and v.cap[k]):
                return a, b, 0.6, False, "name after a name cue"
            return None
        if n == 1 and (_O_SURNAME if cased else _O_SURNAME_SAID).fullmatch(v.cores[k]):
            # "O'Sullivan emigrated to Boston"; said, "which was o'donnell" (ASR writes the apostrophe)
            return a, b, 0.7, True, "a surname of the lists with its O'"
        if cased:
            if v.sent_start[k] and not cue:
                if t.kind == "name" and v.keys[k] not in self.common and self.nl.weight.get(v.keys[k], 1) >= 3:
                    return a, b, 0.5, False, "name in the name list (sentence start)"
                return None
            if n == 1 and self._addressed(k):
                return a, b, 0.7, True, "a first name addressed after a comma"
            return a, b, 0.6, cue == "weak", "name in the name list"
        if len(v.keys[k]) < 3:
            return None
        return a, b, 0.55 if cue else 0.5, False, "name in the name list"

    def _addressed(self, k: int) -> bool:
        """Is the capitalised word ``k`` a listed first name (no everyday word, no place) said to
        someone: after a comma, ending its sentence ("Thanks, Mei!", "Happy New Year, Mei!")?"""
        v = self.v
        t = self.toks[k]
        if not (t.kind == "name" and t.first and k > 0 and v.comma_after[k - 1] and v.seg[k - 1] == v.seg[k]):
            return False
        if not (v.sentence_after[k] or k + 1 == v.seg_end[k]):
            return False
        from redactdesk.detect.places import load_places

        return load_places().get(v.keys[k]) is None

    def run(self) -> list[Hit]:
        accepted: list[tuple[int, int, float, bool, str]] = []
        for a, b in self.runs():
            r = self.accept(a, b)
            if r:
                accepted.append(r)
        accepted = self._last_first(accepted)
        accepted = self._lists(accepted)
        for a, b, score, strong, reason in accepted:
            self.hits.append(Hit(a, b, "PERSON", score, SOURCE, reason, strong))
        return self.hits

    def _last_first(self, acc: list[tuple[int, int, float, bool, str]]) -> list[tuple[int, int, float, bool, str]]:
        """"Eklund, Michael": a capitalised surname, a comma, an accepted first name (cased text)."""
        v = self.v
        if not v.cased:
            return acc
        out = list(acc)
        for idx, (a, b, *_rest) in enumerate(list(out)):
            j = a - 1
            if j < 0 or not v.comma_after[j] or self.toks[j] is None or not v.cap[j]:
                continue
            if not self.toks[a] or not self.toks[a].first or b - a != 1:
                continue
            t = self.toks[j]
            if t.kind in ("name", "cname", "proper") and (t.last or t.kind == "proper") and v.seg[j] == v.seg[a]:
                before = [x for x, (p, q, *_r) in enumerate(out) if p <= j < q]
                if before and (out[before[0]][0], out[before[0]][1]) != (j, j + 1):
                    continue
                out[idx] = (j, b, 0.8, True, "surname, first name")
                if before:
                    out[before[0]] = (-1, -1, 0.0, False, "")
        return [r for r in out if r[0] >= 0]

    def _lists(self, acc: list[tuple[int, int, float, bool, str]]) -> list[tuple[int, int, float, bool, str]]:
        """Names in a list with a strong name ("Eklund, Michael and Hodge"): a capitalised name or
        surname joined by a comma, "and", "y" or "&" to a strong name is a name too."""
        v = self.v
        if not v.cased or not acc:
            return acc
        strong_spans = [(a, b) for a, b, _s, st, _r in acc if st]
        if not strong_spans:
            return acc
        covered = set()
        for a, b, *_ in acc:
            covered.update(range(a, b))
        out = list(acc)
        joiners = {"and", "y", "&", "e", "und", "et", "or", "o"}
        for _a, b in strong_spans:
            # to the right
            k = b
            while k < self.n:
                nxt = None
                if v.comma_after[k - 1] and k < self.n:
                    nxt = k
                elif k < self.n and self.doc.lower[k] in joiners and k + 1 < self.n:
                    nxt = k + 1
                if nxt is None or nxt in covered or self.toks[nxt] is None or not v.cap[nxt]:
                    break
                t = self.toks[nxt]
                if t.kind not in ("name", "cname", "proper") or (t.kind == "proper" and not (t.last or True)):
                    break
                e = nxt + 1
                while e < self.n and self.toks[e] is not None and v.cap[e] and not v.comma_after[e - 1] and (
                        e not in covered) and self.toks[e].kind in ("name", "cname", "proper"):
                    e += 1
                if t.kind == "proper" and e - nxt == 1 and not self.nl.is_name(v.keys[nxt]):
                    # a lone unknown capital in a list of names: only surnames-looking words
                    if v.keys[nxt] in self.common:
                        break
                out.append((nxt, e, 0.7, True, "name in a list of names"))
                covered.update(range(nxt, e))
                k = e
        return out


def find_names(doc: DetectDoc, taken: list[bool] | None = None) -> list[Hit]:
    """PERSON hits in one document (words in ``taken`` are left alone)."""
    if not doc.words:
        return []
    return _Names(doc, taken or [False] * len(doc.words)).run()
