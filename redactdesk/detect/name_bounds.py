"""Where a found name begins and ends, after the vote: the steps that move a person's, place's or
organisation's bounds to the words that are the name.

Cut off: a form's label ("Details: | Gross and Sons"), a town after a person's comma ("Ana Ruiz, |
Madrid"), a cue word, what follows a possessive ("derek's | place"), a year said before an
organisation, a day, a title of a work or a verb said of the person after the name ("john |
tonight", "pope francis | said mass"). Taken in: an initial after a given name, a title before the
name ("Dr."), a name after a particle, a given name written as two syllables ("Park Ji Won"),
post-nominals ("PhD"), a clock time after a date, a possessive written as its own token.
:func:`fit_name_bounds` runs them in order; :mod:`redactdesk.detect.pipeline` calls it.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Sequence
from typing import Any

from redactdesk.core.types import Span
from redactdesk.detect.lists import DENY_SOURCE
from redactdesk.detect.normalize import LETTER, NUM
from redactdesk.detect.sources import DetectDoc
from redactdesk.detect.vote import NAME_CATEGORIES
from redactdesk.lang.digits import NUMBER_WORDS
from redactdesk.lang.lexicon import context_words, word_list


def fit_name_bounds(doc: DetectDoc, spans: list[Span]) -> list[Span]:
    """The document's voted spans with their bounds fitted to the names (the steps in order)."""
    spans = _without_cue_words(doc, _affiliation_after_of(doc, _two_bodies_joined(doc, _place_after_comma(
        doc, _cut_at_comma_before_clause(doc, _without_labels(doc, _without_frame_words(doc, spans)))))))
    spans = _without_leading_year(doc, _ended_at_possessive(doc, spans))
    spans = _with_title_before(doc, _with_initial_after(doc, _without_trailing_words(doc, _without_end_joiners(
        doc, _cut_at_inner_function_word(doc, spans)))))
    spans = _with_post_nominals(doc, _with_split_given_name(doc, _with_name_after_particle(doc, spans)))
    spans = _with_legal_form(doc, _titled_person_run_on(doc, spans))
    spans = _with_epithet(doc, _without_place_at(doc, spans))
    spans = _with_time_after(doc, spans)
    return _with_possessives(doc.words, spans)


def _titled_person_run_on(doc: DetectDoc, spans: list[Span]) -> list[Span]:
    """"Mr. and Mrs. Dubois live on 12 Rue Lepic": the tagger read "Mrs. Dubois live" as an
    organisation, and the vote let it hold the person the lists and spaCy found. Written, a personal
    title, listed names, then lower-case words a firm's name never ends in, is the person ("Mrs.
    Fields Cookies", "Dr Pepper", ending in a capital, stay what the vote made them)."""
    from redactdesk.detect.worldnames import load_world_names, strip_word
    from redactdesk.lang.folding import fold_key

    if not doc.cased() or not any(s.category == "ORGANIZATION" and s.end_word - s.start_word > 2 for s in spans):
        return spans
    titles = joinable_titles()
    names = load_world_names()
    for s in spans:
        if s.category != "ORGANIZATION" or s.end_word - s.start_word < 3 or DENY_SOURCE in s.sources or \
                fold_key(strip_word(doc.words[s.start_word]).rstrip(".")) not in titles:
            continue
        e = s.end_word
        while e > s.start_word + 2 and doc.words[e - 1].strip(".,;:!?").isalpha() and doc.words[e - 1].islower():
            e -= 1
        name = [fold_key(strip_word(w)) for w in doc.words[s.start_word + 1:e]]
        if e < s.end_word and all(w[:1].isupper() for w in doc.words[s.start_word + 1:e]) and all(
                names.is_name(k) for k in name):
            s.end_word, s.category = e, "PERSON"
    return spans


_INITIALS = frozenset("bcdfghjklmnpqrstvwxz")  # no vowel: "a", "i", "u", "y", "e", "o" are words too


def _with_initial_after(doc: DetectDoc, spans: list[Span]) -> list[Span]:
    """In speech a first name's initial after it belongs to the name ("engineer edward d",
    "kenny g is the man"): written, the taggers read "Edward D." whole; said, the lone letter was
    left out. Not where letters go on (a spelling), nor across a turn's end."""
    from redactdesk.detect.worldnames import load_world_names
    from redactdesk.lang.folding import fold_key

    if not spans or doc.cased():
        return spans
    names = load_world_names()
    starts = {s.start_word for s in spans}
    spelled = doc.spelling_words()
    n = len(doc.lower)
    for s in spans:
        e = s.end_word
        if s.category != "PERSON" or e >= n or e in doc.breaks or e in starts or e in spelled:
            continue
        if doc.lower[e] not in _INITIALS or (e + 1 < n and e + 1 not in doc.breaks and len(doc.lower[e + 1]) == 1):
            continue
        if names.is_first(fold_key(doc.lower[e - 1])):
            s.end_word = e + 1
    return spans


def _without_end_joiners(doc: DetectDoc, spans: list[Span]) -> list[Span]:
    """A name never ends in a lower-case preposition or joining word (the lexicon's
    ``name_lead_words``): "i'm a manager at the olive garden on fifth street" gave the organisation
    "olive garden on" once the address took the street from the tagger's wider stretch; nor a person
    in a citation's "et al.". A spelled name's last letter is a letter, whatever word it also is
    ("b l a s c o", "s e r r a n o": Spanish "o", "a", "e", "y" are joining words too)."""
    joiners = word_list(doc.lex, "name_lead_words") if doc.lex is not None else frozenset()
    spelled = {t.w0 for t in doc.norm.tokens if t.kind == LETTER} if doc.norm is not None and any(
        s.end_word - s.start_word > 1 for s in spans) else set()
    for s in spans:
        if s.category not in NAME_CATEGORIES or DENY_SOURCE in s.sources:
            continue
        while s.end_word - s.start_word > 1 and doc.words[s.end_word - 1].strip(".,;:!?\"") in joiners and not (
                s.end_word - 1 in spelled and s.end_word - 2 in spelled):
            s.end_word -= 1
        # a citation's "et al." is the authors who go unnamed: "Smith et al. (2019)" names Smith, an author
        # (a tagger's organisation "García-López et al" is the person)
        bare = [w.strip(".,;:()").lower() for w in doc.words[s.start_word:s.end_word + 1]]
        at = next((k for k in range(1, len(bare) - 1) if bare[k:k + 2] == ["et", "al"]), None)
        if at is not None and s.start_word + at < s.end_word:  # "(Okafor et al., 2020)", "Okafor et | al."
            s.end_word = s.start_word + at
            s.category = "PERSON"
        elif s.category == "ORGANIZATION" and _cited_authors(doc, s.start_word, s.end_word):
            s.category = "PERSON"  # "(e.g., Lee & Park, 2018; ...)": authors cited with their year
    return spans


_CITED_YEAR = re.compile(r"\(?(1[5-9]|20)\d\d[a-z]?[),;]*")


def _cited_authors(doc: DetectDoc, a: int, b: int) -> bool:
    """Are words [a, b) authors cited in brackets with their year: surnames joined by "&" or "and",
    opening a bracket or after "e.g.," or a semicolon, a comma after the last and then the year ("(Lee &
    Park, 2018)", "(e.g., Lee and Park, 2018; ...)")? A firm of two surnames cited so is rare; a
    firm's name in running text ("Johnson & Johnson said") has no bracket and year."""
    if b >= len(doc.words) or not doc.words[b - 1].endswith(",") or not _CITED_YEAR.fullmatch(doc.words[b].strip()):
        return False
    first, before = doc.words[a], doc.words[a - 1].strip() if a else ""
    opens = first.startswith("(") or before.endswith((";", "(")) or before.lower() in ("e.g.,", "(e.g.,", "cf.", "(cf.")
    joined = any(w in ("&", "and") for w in doc.words[a:b])
    return opens and joined and all(w in ("&", "and") or w.strip(",(")[:1].isupper() for w in doc.words[a:b])


# "Catherine of Aragon", "Alfred the Great"; Japanese "no" ("Fujiwara no Michinaga", "Ashita no Joe")
_IN_NAMES = frozenset({"of", "the", "and", "e", "y", "i", "&", "no"})


def _cut_at_inner_function_word(doc: DetectDoc, spans: list[Span]) -> list[Span]:
    """In cased writing a person's name holds no lower-case function word but its particles ("de
    la", "van", "bin") and a few joining words ("Catherine of Aragon", "Alfred the Great"): the tagger
    for cased writing ran "hired Kyle as Education officer" into the person "Kyle as Education", and a
    name's surrogate replaced the job too. The person ends before such a word ("as", "is", "at"...:
    the language's stop words)."""
    from redactdesk.detect.worldnames import name_joiners

    if doc.lex is None or not doc.cased() or not any(
            s.category == "PERSON" and s.end_word - s.start_word > 2 for s in spans):
        return spans
    stop, keep = doc.lex.stop_words, name_joiners() | _IN_NAMES
    spelled = doc.spelling_words()  # "G as in George O as in Ocean": a name spelled out is one item
    for s in spans:
        if s.category != "PERSON" or DENY_SOURCE in s.sources or any(
                k in spelled for k in range(s.start_word, s.end_word)):
            continue
        for k in range(s.start_word + 1, s.end_word - 1):
            word = doc.words[k]
            if word.islower() and word.isalpha() and word in stop and word not in keep:
                s.end_word = k
                break
    return spans


def _without_trailing_words(doc: DetectDoc, spans: list[Span]) -> list[Span]:
    """In speech a person's last word that is a day or time of day ("tomorrow", "tonight"), a verb of
    saying or what a name is the title of ("movie", "concert"; the lexicon's ``name_tail_words``) is
    no part of the name, nor is an everyday verb before its object ("my husband gary handles the
    bills"): a tagger ran on over it ("set a meeting with john tonight", "play the latest vin diesel
    movie"). Known names stay whatever else they are ("may"); numbers stay ("nicholas i", handles'
    digits). An organisation's last word that is its stock (``org_tail_words``: "coca cola
    stock") is no part of it either, spoken or written, nor is a place's or an organisation's last
    word that is a day written in lower case ("jacksonville tmrw", "walmart tonight")."""
    from redactdesk.detect.worldnames import load_world_names
    from redactdesk.lang.folding import fold_key

    if doc.lex is None:
        return spans
    market = word_list(doc.lex, "org_tail_words")
    for s in spans:  # "how is coca cola stock doing": the stock is the company's, no part of its name
        while s.category == "ORGANIZATION" and s.end_word - s.start_word > 1 and \
                without_possessive(doc.lower[s.end_word - 1].strip(".,;:!?")) in market:
            s.end_word -= 1
    from redactdesk.detect.relative_dates import day_words

    days = day_words(doc.lex) | word_list(doc.lex, "night_words")
    for s in spans:  # "driving up from jacksonville tmrw": when is no part of where, said or written
        while s.category in NAME_CATEGORIES and s.category != "PERSON" and s.end_word - s.start_word > 1 and \
                doc.words[s.end_word - 1].islower() and \
                without_possessive(doc.lower[s.end_word - 1].strip(".,;:!?")) in days:
            s.end_word -= 1
    if doc.cased():
        return spans
    _without_counted_tail(doc, spans)
    if not any(s.category == "PERSON" and s.end_word - s.start_word > 1 for s in spans):
        return spans
    tail = word_list(doc.lex, "name_tail_words") | day_words(doc.lex)  # "call mike tmrw"
    verbs = word_list(doc.lex, "name_tail_verbs")
    objects = word_list(doc.lex, "object_pronouns")
    names = load_world_names()
    after_verbs: list[Span] = []
    for s in spans:
        if s.category != "PERSON":
            continue
        # a verb said of the person ends the name wherever it stands: "pope francis | said mass"; a
        # listed name after it is a person of its own ("maria said john")
        cut = next((k for k in range(s.start_word + 1, s.end_word) if doc.lower[k] in verbs), None)
        if cut is not None:
            if cut + 1 < s.end_word and names.is_name(fold_key(doc.lower[cut + 1])):
                after_verbs.append(dataclasses.replace(s, start_word=cut + 1))
            s.end_word = cut
        while s.end_word - s.start_word > 1:
            word = without_possessive(doc.lower[s.end_word - 1])
            if names.is_name(fold_key(word)) or not (word in tail or _verb_before_object(doc, s.end_word - 1)):
                break
            s.end_word -= 1
        # an object pronoun follows a verb, never a name: "my brother david lent me", "sarah jones gave him"
        if s.end_word - s.start_word > 1 and s.end_word < len(doc.lower) and s.end_word not in doc.breaks \
                and doc.lower[s.end_word] in objects and doc.words[s.end_word - 1].isalpha():
            s.end_word -= 1
    return sorted(spans + after_verbs, key=lambda s: (s.start_word, s.end_word)) if after_verbs else spans


def _without_place_at(doc: DetectDoc, spans: list[Span]) -> list[Span]:
    """In speech a name that opens with "at" in the middle of a sentence ("races at zandvoort", "he
    began his career at footscray") starts after it: "at" is where, not part of the name (the
    contextual tagger learnt "at" + a handle from tweets read aloud, where it stands for the "@").
    "at" stays where a handle is said — opening a turn, after a cue such as "rt" or "follow", after
    another handle —, anywhere in a text that reads as a post (a cue word or a handle anywhere in it,
    a link said: "t dot co"), before a word no list holds (a handle's made-up word: "me and at
    amberrnickkolee are watching") and before a short word ("at t", the firm)."""
    from redactdesk.detect.spoken_handles import handle_word

    if doc.cased() or doc.lex is None or "at" not in doc.lower:
        return spans
    lower = doc.lower
    cues = frozenset(doc.lex.raw.get("handle_cues") or ())
    starts = {0, *doc.breaks}
    handles = {s.end_word for s in spans if s.category == "USERNAME"}
    post = bool(handles) or any(w in cues for w in lower) or any(
        lower[k:k + 3] == ["t", "dot", "co"] for k in range(len(lower) - 2))
    for s in spans:
        k = s.start_word
        if s.category not in NAME_CATEGORIES or DENY_SOURCE in s.sources or lower[k] != "at" \
                or s.end_word - k < 2 or k in starts or lower[k - 1] in cues or k in handles \
                or lower[k - 1] == "at" or len(lower[k + 1]) < 2:
            continue
        word = without_possessive(lower[k + 1])
        if post or len(word) < 4 or handle_word(word, doc.lex):
            continue  # "happy birthday to you at justinbieber", "rt ... by at john", "at za one hundred"
        s.start_word = k + 1
    return spans


def _with_legal_form(doc: DetectDoc, spans: list[Span]) -> list[Span]:
    """An organisation runs on over its legal form right after it ("construcciones garcía s.a.",
    "talleres ruiz s l"; the lists' ``org_legal``, its dots dropped): the form is part of the name,
    and read apart the letters of "s.a." were a spelled item of their own. A form that is a stop word
    of the language on its own ("se": "telefónica se comprometió") is none, nor is one word written
    without dots before more of the clause ("southwest conference co player": a prefix said apart)."""
    if doc.lex is None or not any(s.category == "ORGANIZATION" for s in spans):
        return spans
    forms = _legal_forms()
    stop = doc.lex.stop_words
    keys = [w.lower().replace(".", "").strip(",;:!?()\"'") for w in doc.words]
    gone: set[int] = set()
    for s in spans:
        e = s.end_word
        if s.category != "ORGANIZATION" or DENY_SOURCE in s.sources:
            continue
        # the form starts after the span or inside its last two words ("garcía [s] a": a tagger took "s")
        end = next((j + len(f) for j in range(max(s.start_word + 1, e - 2), e + 1) for f in forms
                    if j + len(f) > e and tuple(keys[j:j + len(f)]) == f
                    and not any(k in doc.breaks for k in range(j + 1, j + len(f)))
                    and not (len(f) == 1 and (f[0] in stop or (
                        "." not in doc.words[j] and not _clause_goes_on(doc, j + 1))))), 0)
        if not end:
            continue
        for t in spans:  # the form's letters read as a spelling or a reference of their own
            if t is not s and e <= t.start_word and t.end_word <= end and t.category not in NAME_CATEGORIES:
                gone.add(id(t))
        if not any(id(t) not in gone and t is not s and t.start_word < end and e < t.end_word for t in spans):
            s.end_word = end
    return [t for t in spans if id(t) not in gone] if gone else spans


# what a verb's object or place opens: "gary handles | the bills", "rocky killed | the second verse"
_OBJECT_OPENERS = frozenset({"the", "a", "an", "my", "his", "her", "their", "our", "your", "its", "this", "that", "it",
                             "me", "him", "them", "us", "to", "at", "in", "on", "up", "out", "over", "off"})


def _verb_before_object(doc: DetectDoc, k: int) -> bool:
    """Is word ``k`` (of no name list) an everyday verb said in "-s" or "-ed" before its object ("my
    husband gary handles the bills")? Said after a name it is what the person does; a surname in
    "-s" or "-ed" that no list holds ("sam freed", "lesley molseed") has no object after it."""
    from redactdesk.detect.tagger import _stems
    from redactdesk.detect.worldnames import everyday_words

    word = doc.lower[k]
    if k + 1 >= len(doc.lower) or k + 1 in doc.breaks or doc.lower[k + 1] not in _OBJECT_OPENERS:
        return False
    if not word.isalpha() or len(word) < 5 or not (
            word.endswith("ed") or (word.endswith("s") and not word.endswith("ss"))):
        return False
    common = everyday_words()
    return any(stem in common for stem in _stems(word))


@functools.lru_cache(maxsize=1)
def _legal_forms() -> tuple[tuple[str, ...], ...]:
    """The lists' legal forms (``org_legal``), longest first."""
    from redactdesk.detect.worldnames import structures

    return tuple(sorted(structures().get("org_legal", ()), key=len, reverse=True))


def _clause_goes_on(doc: DetectDoc, k: int) -> bool:
    """Does a legal form of one word end where word ``k`` starts: the end of the text or turn, a
    punctuation mark, or a stop word next ("garcía sa desde", "acme co in leeds"; not "southwest
    conference co player", a word's prefix said apart)?"""
    if doc.cased() or k >= len(doc.words) or k in doc.breaks or doc.words[k - 1].rstrip()[-1:] in ",.;:!?":
        return True
    return doc.lex is not None and doc.lower[k] in doc.lex.stop_words


def _without_counted_tail(doc: DetectDoc, spans: list[Span]) -> None:
    """In speech a name's last words that count something ("i called comcast three times", "we
    stayed in leeds two weeks"; a number said in words, then a unit of the lexicon's ``time_after``
    inside the span or right after it) are how often or how long, no part of the name. Spans change
    in place."""
    units = {ph[0] for ph in doc.lex.hot("time_after") if len(ph) == 1}
    numbers = NUMBER_WORDS.get(doc.lex.language, frozenset())
    n = len(doc.lower)
    for s in spans:
        if s.category not in NAME_CATEGORIES or s.end_word - s.start_word < 2:
            continue
        end = s.end_word
        if doc.lower[end - 1] in units:
            end -= 1
        elif end >= n or end in doc.breaks or doc.lower[end] not in units:
            continue
        k = end
        while k > s.start_word + 1 and doc.lower[k - 1] in numbers:
            k -= 1
        if k < end:
            s.end_word = k


def _ended_at_possessive(doc: DetectDoc, spans: list[Span]) -> list[Span]:
    """A person ends at its possessive: "derek's | place", "lászló's | lover and beautiful waitress
    ilona" (a tagger ran on over what the person has). Names of the lists in the rest are persons of
    their own ("ilona")."""
    from redactdesk.detect.tagger import distinctive
    from redactdesk.detect.worldnames import load_world_names
    from redactdesk.lang.folding import fold_key

    names = load_world_names()
    out: list[Span] = []
    for s in spans:
        out.append(s)
        if s.category != "PERSON":
            continue
        for k in range(s.start_word, s.end_word - 1):
            word = doc.words[k].strip(".,;:!?\"")
            if word in _POSSESSIVE or (len(word) > 2 and word.endswith(("'s", "’s"))):
                end, s.end_word = s.end_word, k + 1
                j = s.end_word
                while j < end:  # the names of the lists in the rest, each run a person
                    if not names.is_plain_name(fold_key(doc.words[j])):
                        j += 1
                        continue
                    e = j + 1  # then names, or words no list knows ("stefano dionisi")
                    while e < end and distinctive(doc.words[e:e + 1], doc.language):
                        e += 1
                    out.append(dataclasses.replace(s, start_word=j, end_word=e))
                    j = e
                break
    return out


def _without_leading_year(doc: DetectDoc, spans: list[Span]) -> list[Span]:
    """A year said in words is no part of the organisation or place after it: "the two thousand and
    seven ncaa football season", "two thousand and two commonwealth games" (a tagger ran the year
    into the name; written, "the 2007 NCAA season" keeps its digits apart). A number of two words or
    more whose value is a year (1000-2099); "seven eleven" is none."""
    norm = doc.norm
    if norm is None:
        return spans
    for s in spans:
        k = s.start_word + (1 if doc.lower[s.start_word] == "the" else 0)
        if s.category not in ("ORGANIZATION", "LOCATION") or k >= s.end_word or not doc.lower[k].isalpha():
            continue
        digits, end = "", k
        t = norm.token_of_word(k)
        while t is not None and t < len(norm.tokens) and norm.tokens[t].kind == NUM and norm.tokens[t].w0 == end \
                and norm.tokens[t].text.isdigit() and len(digits) < 4:
            digits += norm.tokens[t].text  # "nineteen ninety nine": 19, 99
            end = norm.tokens[t].w1
            t += 1
        if len(digits) == 4 and 1000 <= int(digits) <= 2099 and end - k >= 2 and end < s.end_word:
            s.start_word = end
    return spans


def _with_name_after_particle(doc: DetectDoc, spans: list[Span]) -> list[Span]:
    """A person ending in a particle or a Vietnamese middle name goes on to the word after it: no name
    ends there. The taggers stopped before given names that are function words ("Nguyen Van An",
    "Le Van Do"). Written, the next word has a capital; said, it is a listed name or no everyday word."""
    from redactdesk.detect.worldnames import (
        everyday_words,
        load_world_names,
        name_joiners,
        strip_word,
    )
    from redactdesk.lang.folding import fold_key

    if not any(s.category == "PERSON" for s in spans):
        return spans
    ends = name_joiners()
    words, n = doc.words, len(doc.words)
    cased = doc.cased()
    names, everyday = load_world_names(), everyday_words()
    covered = {w for s in spans for w in s.word_range()}
    for s in spans:
        while s.category == "PERSON" and s.end_word < n and s.end_word not in doc.breaks:
            last, nxt = words[s.end_word - 1], words[s.end_word]
            core = strip_word(nxt)
            if fold_key(strip_word(last)) not in ends or last[-1:] in ",.;:!?" or s.end_word in covered:
                break
            if not core.isalpha() or (cased and not core[:1].isupper()) or (
                    not cased and not names.is_name(fold_key(core)) and fold_key(core) in everyday):
                break
            covered.add(s.end_word)
            s.end_word += 1
    return spans


_SYLLABLE_MAX = 5  # "Ji", "Won", "Shu", "Fen": a syllable of a given name written apart


def _with_split_given_name(doc: DetectDoc, spans: list[Span]) -> list[Span]:
    """A given name of two syllables written apart ("Park Ji Won", "Wang Shu Fen", "Kim Min Jun") is
    part of the person beside it: the lists hold it joined ("jiwon", "shufen"), the taggers read
    "Ji" and "Won" as other words or another kind of name. Two persons side by side with nothing
    between them are first made one ("Park" "Ji"). A syllable pair joins the person when, joined,
    it is a listed first name and no everyday word, and neither is a function word ("is a": "isa");
    written, each syllable has a capital."""
    from redactdesk.detect.worldnames import everyday_words, load_world_names, strip_word
    from redactdesk.lang.folding import fold_key

    if not any(s.category == "PERSON" for s in spans):
        return spans
    words, n = doc.words, len(doc.words)
    cased = doc.cased()
    names, everyday = load_world_names(), everyday_words()
    stop = doc.lex.stop_words if doc.lex else frozenset()

    def syllable(k: int) -> str | None:
        core = strip_word(words[k])
        if not core.isalpha() or len(core) > _SYLLABLE_MAX or (cased and not core[:1].isupper()) \
                or core.lower() in stop:
            return None  # "is a", "as her": function words join to "isa", "asher"
        return fold_key(core)

    def given(a: str | None, b: str | None) -> bool:
        return a is not None and b is not None and names.is_first(a + b) and a + b not in everyday

    def open_after(k: int) -> bool:  # may the person go on past word k?
        return k + 1 < n and k + 1 not in doc.breaks and words[k][-1:] not in ",.;:!?)"

    spans = sorted(spans, key=lambda s: (s.start_word, s.end_word))
    merged: list[Span] = []
    for s in spans:
        prev = merged[-1] if merged else None
        if prev is not None and prev.category == s.category == "PERSON" and prev.end_word == s.start_word \
                and open_after(prev.end_word - 1) and (
                    given(syllable(prev.end_word - 1), syllable(s.start_word))
                    or s.end_word == s.start_word + 1 < n and given(syllable(s.start_word), syllable(s.end_word))):
            prev.end_word = s.end_word  # "Park" "Ji" (Won): one person
            continue
        merged.append(s)
    covered = {w for s in merged for w in s.word_range()}
    for s in merged:
        if s.category != "PERSON":
            continue
        e = s.end_word
        if not open_after(e - 1) or e in covered:
            continue
        if given(syllable(e - 1), syllable(e)):
            s.end_word = e + 1
        elif open_after(e) and e + 1 not in covered and given(syllable(e), syllable(e + 1)):
            s.end_word = e + 2
        covered.update(range(e, s.end_word))
    return merged


_CLOCK = re.compile(r"(?:[01]?\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d+)?)?(?:[ap]m|[ap]\.m\.)?", re.IGNORECASE)
_MERIDIEM = re.compile(r"(?:[ap]m|[ap]\.m\.?)", re.IGNORECASE)


def _with_time_after(doc: DetectDoc, spans: list[Span]) -> list[Span]:
    """A clock time written right after a date is part of it: "07/23/1984 05:01 AM",
    "2019-12-31 23:59:59" (a timestamp says the day and the minute together)."""
    words, n = doc.words, len(doc.words)
    starts = {s.start_word for s in spans}
    for s in spans:
        if s.category not in ("DATE", "DATE_OF_BIRTH") or s.end_word >= n or s.end_word in starts:
            continue
        if words[s.end_word - 1][-1:] in ",;:!?" or s.end_word in doc.breaks:
            continue
        e = s.end_word
        if not _CLOCK.fullmatch(words[e].rstrip(".,;:!?)")):
            continue
        e += 1
        if e < n and e not in starts and e not in doc.breaks and words[e - 1][-1:] not in ",;" and \
                _MERIDIEM.fullmatch(words[e].rstrip(".,;:!?)")):
            e += 1
        s.end_word = e
    return spans


# letters after a name written as degrees are ("Ph.D.", "B.A.", "S.Pd.", "S.IP"), and the ones written
# without dots (the structures list ``post_nominals``: "DDS", "MBA", "Jr")
_DOTTED_DEGREE = re.compile(r"(?:[A-Z][A-Za-z]{0,3}\.){1,4}[A-Za-z]{0,3}")


@functools.lru_cache(maxsize=1)
def _no_post_nominals() -> frozenset[str]:
    """Words after a name that are no letters of it: street types and legal forms ("Lawson St.")."""
    from redactdesk.detect.worldnames import word_set

    return word_set("street_after") | word_set("street_after_cased") | word_set("org_legal") | {"st", "dr"}


_BYNAME_ARTICLES = frozenset({"the", "el", "la"})


def _with_epithet(doc: DetectDoc, spans: list[Span]) -> list[Span]:
    """A byname after "the" belongs to the person ("friedrich the great was lessing's patron",
    "Catherine the Great", "marianus iv the great"): left out, the name pointed at anyone of it and
    the revised text kept "the great" after a surrogate. The words: structures.yaml's ``epithets``;
    written, the byname is capitalised. Not across a turn's or sentence's end, nor into another item;
    and only where the clause goes on with a small word or a number, or ends, after the byname: "the
    great guy", "the wise choice" are no bynames."""
    from redactdesk.detect.worldnames import word_set
    from redactdesk.lang.digits import NUMBER_WORDS
    from redactdesk.lang.folding import fold_key

    if not any(s.category == "PERSON" for s in spans) or doc.lex is None:
        return spans
    epithets = word_set("epithets")
    ends_clause = doc.lex.stop_words | NUMBER_WORDS.get(doc.language, frozenset())
    words, n, cased = doc.words, len(doc.words), doc.cased()
    taken = {k for s in spans for k in range(s.start_word, s.end_word)}
    # the byname read alone as a name of its own ("Ivan the Terrible": "Terrible" an organisation)
    alone = {s.start_word: s for s in spans if s.end_word == s.start_word + 1 and s.category in NAME_CATEGORIES}
    absorbed: list[Span] = []
    for s in spans:
        e = s.end_word
        if s.category != "PERSON" or e + 1 >= n or e in doc.breaks or e + 1 in doc.breaks or e in taken or (
                e + 1 in taken and e + 1 not in alone) or words[e - 1][-1:] in ",.;:!?)":
            continue
        byname = words[e + 1].rstrip(",.;:!?")
        after = e + 2 >= n or e + 2 in doc.breaks or byname != words[e + 1] or (
            doc.lower[e + 2] in ends_clause and doc.lower[e + 2] != "one") or doc.lower[e + 2][:1].isdigit()
        if words[e].lower() in _BYNAME_ARTICLES and fold_key(byname) in epithets and after and (
                not cased or byname[:1].isupper()):
            s.end_word = e + 2
            if e + 1 in alone:
                absorbed.append(alone[e + 1])
    return [s for s in spans if not any(s is a for a in absorbed)]


def _with_post_nominals(doc: DetectDoc, spans: list[Span]) -> list[Span]:
    """In cased writing the letters after a person's name are part of the item: a generational
    suffix or a degree ("Anthony Lawson DDS", "Bohumila Vesela Ph.D.", "Makara Hidayanto, S.Pd."):
    with the name they narrow who it is, and left out they were a half-found item. A street type or
    a legal form is none ("Lawson St.", "Smith Inc.")."""
    from redactdesk.detect.worldnames import word_set
    from redactdesk.lang.folding import fold_key

    if not any(s.category == "PERSON" for s in spans) or not doc.cased():
        return spans
    listed = word_set("post_nominals")
    never = _no_post_nominals()
    words, n = doc.words, len(doc.words)
    starts = {s.start_word for s in spans if s.category != "SPELLED_LETTERS"}  # "B.A." read as letters
    for s in spans:
        while s.category == "PERSON" and s.end_word < n and s.end_word not in doc.breaks \
                and s.end_word not in starts and s.end_word - s.start_word < 8:
            last, nxt = words[s.end_word - 1], words[s.end_word].rstrip(",;:!?)")
            core = nxt.rstrip(".") if nxt.count(".") <= 1 else nxt
            key = fold_key(core.replace(".", "").replace("-", ""))
            if not key or key in never or last[-1:] in ".;:!?)" and not _DOTTED_DEGREE.fullmatch(last.rstrip(",")):
                break
            dotted = bool(_DOTTED_DEGREE.fullmatch(nxt)) and any(c.isupper() for c in nxt[1:] + "x") and "." in nxt
            if not (key in listed and (nxt[:1].isupper()) or dotted):
                break
            if last.endswith(",") and not dotted:
                break  # "Smith, MBA" is written so too, but "Smith, Jr" reads as a list as often
            s.end_word += 1
    people = [s for s in spans if s.category == "PERSON"]
    return [s for s in spans if s.category == "PERSON" or not any(
        p.start_word <= s.start_word and s.end_word <= p.end_word for p in people)]


# the lexicon's cue lists whose words announce an item: of "name" every word ("spelled", "surname"),
# of the others the words that are no everyday word ("DOB", "SSN", "e-mail"; "Max Born", "George
# Best" keep their surnames)
_CUE_KEYS = ("dob", "ssn", "phone", "email", "passport", "iban", "card", "cvv", "expiry", "postcode", "generic_id")


def _without_labels(doc: DetectDoc, spans: list[Span]) -> list[Span]:
    """A form's field label is no part of the name after it: "Details: Gross and Sons", "Contact: Ana
    Ruiz" (a tagger reading written text ran the capitalised label into the name, and substitution
    would have replaced the label). A label is one word of the lexicon's ``form_labels`` with a colon,
    among the span's first three ("Next of Kin: Mary Jones"); a title's first part stays ("Terminator: The Sarah Connor Chronicles"). A label
    alone is no item: a form read line by line gave "Patient:", "DOB:" to the taggers as names."""
    labels = word_list(doc.lex, "form_labels") if doc.lex is not None else frozenset()
    out = []
    for s in spans:
        # the label's own words before it too: "Next of Kin: Mary Jones"
        k = next((k for k in range(s.start_word, min(s.start_word + 3, s.end_word))
                  if doc.words[k].rstrip().endswith(":") and doc.lower[k] in labels), None)
        if s.category in NAME_CATEGORIES and k is not None:
            if k + 1 >= s.end_word:
                continue
            s.start_word = k + 1
        out.append(s)
    return out


def _without_frame_words(doc: DetectDoc, spans: list[Span]) -> list[Span]:
    """A word that frames the item right after it is no name of its own: "to IBAN DE89 3704 ...",
    "Passport X1234567", "PIN 4421" (capitalised or in capitals, the taggers and the name list read
    "IBAN" and "Pin" as names). One word, a hotword of the lexicon, and the next span starts at the
    next word and is no name."""
    if doc.lex is None or len(spans) < 2:
        return spans
    frames = context_words(doc.lex)
    ordered = sorted(spans, key=lambda s: s.start_word)
    drop = set()
    for s, nxt in zip(ordered, ordered[1:], strict=False):
        if s.category in NAME_CATEGORIES and s.end_word - s.start_word == 1 and nxt.start_word == s.end_word and (
                nxt.category not in NAME_CATEGORIES) and doc.lower[s.start_word] in frames and (
                DENY_SOURCE not in s.sources):
            drop.add(id(s))
    return [s for s in spans if id(s) not in drop]


def _place_after_comma(doc: DetectDoc, spans: list[Span]) -> list[Span]:
    """A person followed by a comma and a listed place is that person, then the place: "Ana Ruiz,
    Madrid" (a tagger that learnt "Kowalski, Anna" ran the town into the name). The person opens with
    a given name, and after the comma comes a place of the lists that is no given name: "Kowalski,
    Anna" stays one person, "Mihăileni, Sibiu" (a village and its county) one item. The mirror, a
    place after its cue then a comma and a name ("from Oxford, Mary Shelley"), is the place, then the
    person."""
    from redactdesk.detect.places import load_places
    from redactdesk.detect.worldnames import load_world_names, strip_word, word_set
    from redactdesk.lang.folding import fold_key

    if not any(s.category in NAME_CATEGORIES and s.end_word - s.start_word > 1 for s in spans):
        return spans
    places, names, cues = load_places(), load_world_names(), word_set("place_only_cues")
    states = word_set("us_state_abbreviations")
    out: list[Span] = []
    def place_before(s: Span, comma: int):
        """The place list's entry when the words before the comma are one listed place, else None."""
        head = [fold_key(strip_word(w)) for w in doc.words[s.start_word:comma + 1]]
        m = places.match(head, 0)
        return m[1] if m is not None and m[0] == len(head) else None

    for s in spans:
        comma = next((k for k in range(s.start_word, s.end_word - 1) if doc.words[k].rstrip().endswith(",")), None)
        if s.category in NAME_CATEGORIES and comma is not None and comma + 2 == s.end_word and \
                DENY_SOURCE not in s.sources and _state_written_short(doc.words[comma + 1], states):
            town = place_before(s, comma)
            if town is not None:  # "Austin, Tex.", "Jackson, Miss.": a town and its state
                out.append(dataclasses.replace(s, category="CITY" if town.category == "CITY" else "LOCATION",
                                               reason="a listed town and its state written short"))
                continue
        if s.category == "PERSON" and comma is not None and comma + 1 < s.end_word:
            keys = [fold_key(strip_word(w)) for w in doc.words[comma + 1:s.end_word]]
            m = places.match(keys, 0)
            first = fold_key(strip_word(doc.words[s.start_word]))
            if m is not None and m[0] == len(keys) and not names.is_first(keys[0]) and names.is_first(first):
                out.append(dataclasses.replace(s, end_word=comma + 1))
                kind = m[1].category if m[1].category in ("CITY", "COUNTRY") else "LOCATION"
                out.append(dataclasses.replace(s, start_word=comma + 1, category=kind,
                                               reason="a listed place after the person's comma"))
                continue
            # the mirror: a place after its cue, a comma, then the person ("After graduating from
            # Oxford, Mary Shelley moved ...", "Born in Leeds, John Smith ..."): a name list written
            # surname first ("Washington, George") has no place cue before it
            place = place_before(s, comma)
            if place is not None and s.start_word > 0 and (
                    fold_key(strip_word(doc.words[s.start_word - 1])) in cues) and names.is_first(keys[0]):
                kind = place.category if place.category in ("CITY", "COUNTRY") else "LOCATION"
                out.append(dataclasses.replace(s, end_word=comma + 1, category=kind,
                                               reason="a listed place after its cue, before the person's comma"))
                out.append(dataclasses.replace(s, start_word=comma + 1))
                continue
        out.append(s)
    return out


def _cut_at_comma_before_clause(doc: DetectDoc, spans: list[Span]) -> list[Span]:
    """A person that runs over a comma into a function word ("My name's Dave, I'm 34", "this is Maria,
    we spoke") ends at the comma: a new clause opens there, and substitution would have replaced
    "I'm". "Kowalski, Anna" stays whole (a listed name or a word in capitals after the comma is no
    function word); organisations and places are left as they are ("Comprehensive Environmental
    Response, Compensation, and Liability Act" is one name). Any name that runs over a comma into a
    job title ("Wei Zhang, Senior Analyst": the contextual tagger's organisation) ends at the comma
    too, and is the person where a listed given name opens it and listed names are all it holds; an
    organisation or place that opens with a job title and a comma starts after them."""
    from redactdesk.detect.occupations import job_title_at
    from redactdesk.detect.worldnames import load_world_names, strip_word
    from redactdesk.lang.folding import fold_key

    if doc.lex is None or not any(s.category in NAME_CATEGORIES and s.end_word - s.start_word > 1 for s in spans):
        return spans
    stop, names = doc.lex.stop_words, load_world_names()
    for s in spans:
        if s.category not in NAME_CATEGORIES or DENY_SOURCE in s.sources:
            continue
        for k in range(s.start_word, s.end_word - 1):
            if not doc.words[k].rstrip().endswith(","):
                continue
            after = strip_word(doc.words[k + 1])
            base = after.lower().split("'")[0].split("\u2019")[0]
            if s.category == "PERSON" and base in stop and not names.is_name(fold_key(base)) and (
                    not after.isupper() or base == "i"):
                s.end_word = k + 1
                break
            if job_title_at(doc.lower, k + 1, s.end_word, doc.language):
                keys = [fold_key(strip_word(w)) for w in doc.words[s.start_word:k + 1]]
                if len(keys) > 1 and names.is_first(keys[0]) and all(names.is_name(w) for w in keys):
                    s.category = "PERSON"
                s.end_word = k + 1
                break
            if s.category != "PERSON" and job_title_at(doc.lower, s.start_word, k + 1, doc.language):
                s.start_word = k + 1  # "Consultant Cardiologist, St Thomas' Hospital": the job, then where
    return spans


def _state_written_short(word: str, states: frozenset[str]) -> bool:
    """"Tex.", "Calif.": a US state as newspapers write it after a town (capital, point)."""
    w = word.strip().rstrip(",;:")
    return w.endswith(".") and w[:1].isupper() and w[:-1].lower() in states


_AND = frozenset({"and", "&", "y", "e"})


def _two_bodies_joined(doc: DetectDoc, spans: list[Span]) -> list[Span]:
    """Two organisations a tagger read as one across "and the": "the Wellcome Trust and the Gates
    Foundation". Each side ends in a word of organisation names ("Trust", "Foundation", "University",
    "Bank"), so a band ("Sly and the Family Stone") or a firm of partners ("Marks and Spencer", no
    "the") stays one."""
    from redactdesk.detect.worldnames import strip_word, word_set
    from redactdesk.lang.folding import fold_key

    if not any(s.category == "ORGANIZATION" and s.end_word - s.start_word > 4 for s in spans):
        return spans
    ends = word_set("org_after") | word_set("org_legal")
    articles = frozenset({"the", "la", "el", "los", "las"})
    out: list[Span] = []
    for s in spans:
        k = next((k for k in range(s.start_word + 1, s.end_word - 2) if doc.lower[k] in _AND
                  and doc.lower[k + 1] in articles), None)
        if s.category == "ORGANIZATION" and k is not None and DENY_SOURCE not in s.sources and \
                fold_key(strip_word(doc.words[k - 1])) in ends and \
                fold_key(strip_word(doc.words[s.end_word - 1])) in ends:
            out.append(dataclasses.replace(s, end_word=k))
            out.append(dataclasses.replace(s, start_word=k + 2, reason="the second of two bodies joined by 'and the'"))
            continue
        out.append(s)
    return out


_OF = frozenset({"of", "from"})


_ACADEMIC_TITLES = frozenset({"dr", "prof", "professor", "doctor", "dra", "doctora"})


def _affiliation_after_of(doc: DetectDoc, spans: list[Span]) -> list[Span]:
    """A full name, then "of"/"from" and a place or body, is the person, then where they are from or
    work: "Dr. John Smith of Leeds", "Emily Carter of Stanford" (the tagger for cased writing ran
    the affiliation into the name, so a person's name replaced the town). The words before "of" end
    in a listed surname with a listed given name before it and hold no title of nobility or office,
    so "Catherine of Aragon", "Queen Anne of Romania" stay one name. The rest is a place where the
    place list holds it whole, an organisation where a word of organisation names opens or closes it
    ("Stanford University", "Bank of Ireland"); else the name stays whole, as the gentry write theirs
    ("Thomas Lewis of Harpton")."""
    from redactdesk.detect.places import load_places
    from redactdesk.detect.worldnames import load_world_names, strip_word, word_set
    from redactdesk.lang.folding import fold_key

    if not any(s.category == "PERSON" and s.end_word - s.start_word > 2 for s in spans):
        return spans
    places, names = load_places(), load_world_names()
    noble = word_set("noble_titles")
    titles = word_set("titles") | noble
    org_before, org_after = word_set("org_before"), word_set("org_after") | word_set("org_legal")
    stop = doc.lex.stop_words if doc.lex is not None else frozenset()
    out: list[Span] = []
    for s in spans:
        k = next((k for k in range(s.start_word + 2, s.end_word - 1) if doc.words[k] in _OF), None)
        if s.category != "PERSON" or DENY_SOURCE in s.sources or k is None:
            out.append(s)
            continue
        before = [fold_key(strip_word(w)) for w in doc.words[s.start_word:k]]
        rest = k + 1 + (doc.lower[k + 1] == "the" and k + 2 < s.end_word)
        # a surname after a given name; no title's office ("The Duke of Wellington", "Lord Mayor of
        # London": "the" is some list's given name, "duke" a surname)
        if not (names.is_last(before[-1]) and before[-1] not in titles and not any(w in noble for w in before)
                and any(names.is_first(w) and w not in stop for w in before[:-1])):
            out.append(s)
            continue
        keys = [fold_key(strip_word(w)) for w in doc.words[rest:s.end_word]]
        m = places.match(keys, 0)
        if m is not None and m[0] == len(keys):
            kind = m[1].category if m[1].category in ("CITY", "COUNTRY") else "LOCATION"
        elif keys[0] in org_before or keys[-1] in org_after:
            kind = "ORGANIZATION"
        elif before[0] in _ACADEMIC_TITLES and doc.cased() and all(
                w[:1].isupper() for w in doc.words[rest:s.end_word]):
            kind = "ORGANIZATION"  # "Dr. Emily Chen of Johns Hopkins": a doctor is of a hospital, not a manor
        else:
            out.append(s)
            continue
        out.append(dataclasses.replace(s, end_word=k))
        out.append(dataclasses.replace(s, start_word=rest, category=kind,
                                       reason=f"where the person is from, after '{doc.words[k]}'"))
    return out


def _without_cue_words(doc: DetectDoc, spans: list[Span]) -> list[Span]:
    """A person's first or last word that is a cue for an item is no part of the name: a tagger ran
    on over it ("Kowalski, Anna (DOB 02/11/1985)", "my name is spelt D A V I S"), and substitution
    would have replaced the cue with the name. A word that is somebody's name too stays."""
    from redactdesk.detect.worldnames import load_world_names
    from redactdesk.lang.folding import fold_key

    if doc.lex is None or not any(s.category == "PERSON" and s.end_word - s.start_word > 1 for s in spans):
        return spans
    cues = _cue_words(doc.lex)
    names = load_world_names()

    def cue(i: int, s: Span) -> bool:
        word = doc.lower[i].strip("()[]{}.,;:!?\"'")
        return word in cues and (not names.is_name(fold_key(word)) or _capitals_label(i, s))

    def _capitals_label(i: int, s: Span) -> bool:
        # a cue in capitals beside a name that is not: "Nguyen Thi Mai, IBAN GB82 ..." ("Iban" is a
        # given name too, so the name list alone kept the label)
        written = doc.words[i].strip("()[]{}.,;:!?\"'")
        return len(written) > 1 and written.isupper() and not all(
            doc.words[k].strip("()[]{}.,;:!?\"'").isupper() for k in range(s.start_word, s.end_word) if k != i)

    for s in spans:
        if s.category != "PERSON":
            continue
        while s.end_word - s.start_word > 1 and cue(s.end_word - 1, s):
            s.end_word -= 1
        while s.end_word - s.start_word > 1 and cue(s.start_word, s):
            s.start_word += 1
    return spans


@functools.lru_cache(maxsize=4)
def _cue_words(lex: Any) -> frozenset[str]:
    from redactdesk.detect.worldnames import everyday_words

    stop, everyday = lex.stop_words, everyday_words()
    named = {w for ph in lex.hot("name") for w in ph}
    rare = {w for key in _CUE_KEYS for ph in lex.hot(key) for w in ph if w not in everyday}
    return frozenset(w for w in named | rare if len(w) > 2 and w not in stop)


# titles that are somebody's name too: never joined, so substitution replaces them with the name
_NAME_LIKE_TITLES = frozenset({"hon", "justice", "pani"})
# titles that are everyday words too, joined only written with a capital in cased text ("Miss Sandra
# Harrison", "Doctor Ahmed Khan"; "I miss Sandra"); substitution keeps them as it keeps "Mr"
_CASED_TITLES = frozenset({"miss", "doctor"})


def _with_title_before(doc: DetectDoc, spans: list[Span]) -> list[Span]:
    """A title right before a name is part of the item ("Prof. Kim Lee", "mrs smith", "Sir Robert
    Robinson"): it says the person's gender or office, and whether a tagger took it in varied from
    sentence to sentence ("Dr. Anna Berg" whole, "Prof." left out). Only the unambiguous titles of
    the list, which substitution keeps as they are (its ``titles`` lists hold them all); a title that
    is also a word or a name ("doctor", "king", "don", "justice") is left to the taggers, and
    substitution replaces it with the name, never keeping a word that may be the name itself. A
    person of titles only is none."""
    from redactdesk.lang.folding import fold_key

    if not any(s.category == "PERSON" for s in spans):
        return spans

    titles = joinable_titles()
    # a person of titles only ("Lobbyist, Mrs." cut at the comma) names no one: the title joins the
    # name after it ("Mrs. Amy Gonzalez") instead of standing as an item of its own; so does a title
    # a tagger read as a firm or place ("Contact Mx. Gaines": the organisation "Mx.")
    spans = [s for s in spans if s.category not in NAME_CATEGORIES or DENY_SOURCE in s.sources or not all(
        fold_key(w.strip(".,;:")) in titles for w in doc.words[s.start_word:s.end_word])]
    cased = doc.cased()
    covered = {w for s in spans for w in s.word_range()}
    for s in spans:
        if s.category != "PERSON":
            continue
        w = s.start_word
        while w > 0 and w not in doc.breaks and w - 1 not in covered and s.start_word - w < 3:
            word = doc.words[w - 1]
            key = fold_key(word.rstrip("."))
            if word[-1:] in ",;:!?" or key not in titles and not (cased and word[:1].isupper() and key in _CASED_TITLES):
                break
            if doc.words[w].lstrip()[:1] in _OPENING:
                break  # "my professor (Dr. Huang)": a bracket opens the name, the word before is no title of it
            w -= 1
        s.start_word = w
    return spans


_OPENING = frozenset("([{\"'“‘«")


@functools.lru_cache(maxsize=1)
def joinable_titles() -> frozenset[str]:
    """The titles joined to the name after them (folded): the list's unambiguous ones, no name among them."""
    from redactdesk.detect.worldnames import word_set

    return word_set("titles") - word_set("titles_ambiguous") - _NAME_LIKE_TITLES


def honorifics() -> frozenset[str]:
    """The titles said before a person's name (folded): the joinable ones and those joined only written
    with a capital ("doctor", "miss")."""
    return joinable_titles() | _CASED_TITLES


def without_possessive(word: str) -> str:
    """A word without its edge punctuation and its "'s" ("mom's" -> "mom")."""
    word = word.strip(".,;:!?\"")
    for p in ("'s", "’s"):
        if word.endswith(p):
            return word[: -len(p)]
    return word


_POSSESSIVE = frozenset({"'s", "’s", "'", "’"})
POSSESSIVE_WORDS = _POSSESSIVE | {"s"}  # "mom 's": the document's words read "mom s"
_NAMED = frozenset({"PERSON", "ORGANIZATION", "LOCATION", "CITY", "COUNTRY", "NRP", "DATE"})


def _with_possessives(words: Sequence[str], spans: list[Span]) -> list[Span]:
    """A name's (or a day's) possessive written as its own token ("mark 's", "tomorrow 's": as
    tokenised text and some ASR give it) belongs to the item: leaving it out would leave it partly
    covered."""
    starts = {s.start_word for s in spans}
    for s in spans:
        if s.category in _NAMED and s.end_word < len(words) and s.end_word not in starts \
                and words[s.end_word].strip(".,;:!?") in _POSSESSIVE:
            s.end_word += 1
    return spans
