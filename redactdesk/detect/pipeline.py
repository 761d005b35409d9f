"""Detection entry points: conversations -> suggested spans; texts -> character spans (JSONL contract).

``detect_conversation`` returns only SUGGESTED spans, ordered by position, never overlapping. Human
decisions already in ``conv.spans`` stay untouched: nothing is suggested over an accepted span, and
a span identical (words and category) to a rejected one is not suggested again. The caller replaces
the conversation's old suggestions with the new ones.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import json
import os
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from redactdesk.core.decisions import respect_decisions
from redactdesk.core.taxonomy import Taxonomy
from redactdesk.core.types import Conversation, Span
from redactdesk.detect.apposed_ages import ages_after_names
from redactdesk.detect.asked_words import asked_words_are_no_names
from redactdesk.detect.coordinated_names import described_people, families, names_beside_people
from redactdesk.detect.currencies import currencies_are_no_names
from redactdesk.detect.eponyms import eponyms_are_no_names
from redactdesk.detect.errors import DetectError, JsonlContractError
from redactdesk.detect.gazetteer import load_gazetteer
from redactdesk.detect.historic_events import events_are_no_names
from redactdesk.detect.holiday_names import holidays_are_no_names
from redactdesk.detect.lists import DENY_SOURCE, DenyEntry, deny_hits, filter_allowed
from redactdesk.detect.name_bounds import (
    POSSESSIVE_WORDS,
    fit_name_bounds,
    joinable_titles,
    without_possessive,
)
from redactdesk.detect.name_hits import fit_name_hits
from redactdesk.detect.named_bodies import names_given_to_bodies
from redactdesk.detect.occupations import job_titles_are_no_names
from redactdesk.detect.places import (
    cued_places_are_places,
    landmarks_are_places,
    place_kinds_are_no_names,
    residents_are_places,
    roads_are_places,
)
from redactdesk.detect.platforms import genres_are_no_names, platforms_are_no_employers
from redactdesk.detect.registry import DEFAULT_SOURCES, get_source
from redactdesk.detect.said_occupations import occupations_of_people
from redactdesk.detect.scheme_names import schemes_are_no_names
from redactdesk.detect.sources import DetectDoc, Source
from redactdesk.detect.vote import DEFAULT_POLICY, NAME_CATEGORIES, VotePolicy, combine, propagate_names
from redactdesk.detect.worldnames import everyday_words
from redactdesk.formats.files import atomic_path
from redactdesk.lang.lexicon import check_language, context_words, default_allow, word_list

SourceSpec = str | Source | tuple[str | Source, Mapping[str, Any]]
DenySpec = str | DenyEntry | Mapping[str, str] | tuple[str, str]
_EDGE_PUNCT = ".,;:!?¡¿\"'“”‘’«»()[]{}…*<>—–"  # "<ana@example.org>": the brackets are no part of the address


def resolve_sources(sources: Iterable[SourceSpec] | None = None) -> list[tuple[Source, dict[str, Any]]]:
    """Sources by name or object, each with validated parameters (``(name, params)`` pairs allowed)."""
    out: list[tuple[Source, dict[str, Any]]] = []
    for spec in DEFAULT_SOURCES if sources is None else sources:
        params: Mapping[str, Any] | None = None
        if isinstance(spec, tuple):
            spec, params = spec
        src = get_source(spec) if isinstance(spec, str) else spec
        out.append((src, src.validate(params)))
    if not out:
        raise DetectError("no detection sources given")
    if not any(src.name == "tagger" for src, _ in out):  # spaCy's NER leaves a language to the tagger only
        for src, params in out:                           # when the tagger runs
            if src.name == "spacy" and "beside_tagger" in params:
                params["beside_tagger"] = True
    return out


def _taxonomy(taxonomy: Taxonomy | None) -> Taxonomy:
    if taxonomy is not None:
        return taxonomy
    from redactdesk.resources import load_taxonomy

    return load_taxonomy()


def detect_docs(
    docs: Sequence[DetectDoc],
    *,
    sources: Iterable[SourceSpec] | None = None,
    allow: Iterable[str] = (),
    deny: Iterable[DenySpec] = (),
    taxonomy: Taxonomy | None = None,
    policy: VotePolicy | None = None,
    default_allow_list: bool = True,
) -> list[list[Span]]:
    """Run every source over the documents (batched) and vote; one span list per document."""
    resolved = resolve_sources(sources)
    tax = _taxonomy(taxonomy)
    per_doc: list[list[Any]] = [[] for _ in docs]
    languages = {d.language for d in docs}
    with _collector_paused_while_loading(languages):
        # a source that can start its work in the background (the tagger's network) starts first, so it
        # runs while the rule sources read (400 sentences a set, best of 5 taken in turns: names spoken
        # 7.73 -> 6.87 s, names written 6.69 -> 6.43 s, SLURP 3.44 -> 3.23 s, identifiers spoken 8.40 -> 7.30 s)
        started: dict[int, Any] = {}
        try:
            for k, (src, params) in enumerate(resolved):
                if hasattr(src, "begin"):
                    started[k] = src.begin(docs, params)
            for k, (src, params) in enumerate(resolved):
                results = src.finish(started.pop(k)) if k in started else src.apply(docs, params)
                if len(results) != len(docs):
                    raise DetectError(f"source {src.name!r} returned {len(results)} results for {len(docs)} documents")
                for i, hits in enumerate(results):
                    per_doc[i].extend(hits)
        finally:
            for reading in started.values():
                reading.close()  # a source failed before this one finished: its thread is not left running
    _freeze_loaded_models(languages)
    allow_list = [*default_allow(), *allow] if default_allow_list else list(allow)
    deny = list(deny)
    out: list[list[Span]] = []
    for doc, hits in zip(docs, per_doc, strict=True):
        hits = fit_name_hits(doc, [h for h in hits if h.category in tax])
        forced = [h for h in deny_hits(doc, deny) if h.category in tax] if deny else []
        spans = _drop_misheard_discourse(doc, combine(hits, [s for s, _ in resolved], policy or DEFAULT_POLICY,
                                                      forced=forced))
        spans = job_titles_are_no_names(doc, _kin_are_no_people(doc, spans), joinable_titles())
        for guard in _NO_NAME_GUARDS:
            spans = guard(doc, spans)
        if "NRP" in tax:
            spans = _groups_are_no_people(doc, spans)
        if "PERSON" in tax:
            spans = families(doc, spans)
        if "PERSON" in tax and any(s.category == "PERSON" for s in spans):
            spans = names_beside_people(doc, spans)
            spans = propagate_names(doc.words, spans, _never_names(doc.lex), doc.lex.stop_words if doc.lex else ())
            if "AGE" in tax:
                spans = ages_after_names(doc, spans)
        kept = filter_allowed(doc, [s for s in spans if DENY_SOURCE not in s.sources], allow_list)
        spans = sorted(kept + [s for s in spans if DENY_SOURCE in s.sources], key=lambda s: (s.start_word, s.end_word))
        spans = fit_name_bounds(doc, spans)
        if "OCCUPATION" in tax:  # after the names' bounds: "Priya Raman, CFO" is a name, then a job
            spans = occupations_of_people(doc, spans)
            jobs = [s for s in spans if s.category == "OCCUPATION"]
            if jobs and allow_list:
                kept_jobs = filter_allowed(doc, jobs, allow_list)
                spans = [s for s in spans if s.category != "OCCUPATION"] + kept_jobs
                spans.sort(key=lambda s: (s.start_word, s.end_word))
        if "PERSON" in tax:
            spans = described_people(doc, spans)
        out.append(spans)
    return out


# after the vote, a town a tagger read as its club after a place cue is the town; and what reads as a name
# and names no one: an identifier scheme's name before its number, a platform said as such, a holiday, a
# kind of music, a currency, a word asked about, a verb said of someone
def _said_of_verbs_are_no_names(doc: DetectDoc, spans: list[Span]) -> list[Span]:
    """A verb that says something of a person (the lexicon's one-word ``name_cue_said_of``: "died",
    "nació") is no person itself: Spanish "Bernárdez nació en Lima" gave the listed name "Nacio"."""
    if doc.lex is None or not any(s.category == "PERSON" and s.end_word - s.start_word == 1 for s in spans):
        return spans
    verbs = {ph[0] for ph in doc.lex.hot("name_cue_said_of") if len(ph) == 1}
    return [s for s in spans if not (s.category == "PERSON" and s.end_word - s.start_word == 1
                                     and DENY_SOURCE not in s.sources and doc.lower[s.start_word] in verbs)]


_POLITE = frozenset({"please", "pls", "plz", "kindly"})
_DETERMINERS = frozenset({"my", "the", "a", "an", "your", "our", "his", "her", "their", "this", "that", "these",
                          "those", "mi", "mis", "el", "la", "los", "las", "un", "una", "tu", "su"})


def _requests_are_no_names(doc: DetectDoc, spans: list[Span]) -> list[Span]:
    """The verb of a request is no person: "please mark my calendar" gave the person "mark" (a tagger
    read the everyday word that is also a given name). One everyday word right after "please", with a
    determiner after it, is what is asked for ("please tell mark my address" still names Mark)."""

    if not any(s.category == "PERSON" and s.end_word - s.start_word == 1 for s in spans):
        return spans
    n = len(doc.lower)
    common = everyday_words()
    out = []
    for s in spans:
        w = s.start_word
        if s.category == "PERSON" and s.end_word - w == 1 and DENY_SOURCE not in s.sources and 0 < w < n - 1 and (
                w not in doc.breaks and w + 1 not in doc.breaks and doc.lower[w - 1] in _POLITE
                and doc.lower[w + 1] in _DETERMINERS and doc.lower[w] in common
                and not doc.words[w - 1].rstrip().endswith(",") and not doc.words[w].rstrip().endswith(",")
                and not (doc.cased() and doc.words[w][:1].isupper())):  # "please, Mark, the door"
            continue
        out.append(s)
    return out


def _wake_words_are_no_names(doc: DetectDoc, spans: list[Span]) -> list[Span]:
    """A voice assistant's wake word opening a command is no part of a name (the lexicon's
    ``wake_words``: "olly brighten the lights", "alexa dim the lights", "hey siri call mum"): a
    tagger ran it into the next word. What is left stands if it holds a word that is no everyday
    word ("alexa call | adeyemi"); "brighten" goes."""
    from redactdesk.detect.tagger import distinctive

    wake = word_list(doc.lex, "wake_words") if doc.lex is not None else frozenset()
    if not wake:
        return spans
    calls = word_list(doc.lex, "wake_calls")  # "hey siri", "ok alexa"
    out = []
    for s in spans:
        w = s.start_word
        opens = w == 0 or w in doc.breaks or doc.lower[w - 1] in calls
        named = s.end_word - w > 1 and doc.words[w][:1].isupper() and doc.words[w + 1][:1].isupper()  # "Alexa Johnson"
        if DENY_SOURCE not in s.sources and doc.lower[w] in wake and opens and s.category in NAME_CATEGORIES and not named:
            if s.end_word - w == 1 or not distinctive(doc.words[w + 1:s.end_word], doc.language):
                continue
            s.start_word = w + 1
        out.append(s)
    return out


_NO_NAME_GUARDS = (cued_places_are_places, residents_are_places, roads_are_places, place_kinds_are_no_names,
                   landmarks_are_places, names_given_to_bodies,
                   schemes_are_no_names, platforms_are_no_employers,
                   holidays_are_no_names, events_are_no_names, eponyms_are_no_names, genres_are_no_names,
                   currencies_are_no_names, asked_words_are_no_names,
                   _said_of_verbs_are_no_names, _wake_words_are_no_names, _requests_are_no_names)

_FROZEN_LANGUAGES: set[str] = set()


@contextlib.contextmanager
def _collector_paused_while_loading(languages: set[str]) -> Iterator[None]:
    """The garbage collector paused while a language's first detection loads its models and lists: each
    collection on the way walked every object loaded so far, and the lists load hundreds of thousands
    (the place list alone: 1.05 s with collection, 0.43 s without). Reference counting still frees what
    it can; the cycles left are collected when the models are frozen right after
    (:func:`_freeze_loaded_models`). Later detections run with the collector as the caller had it."""
    if not (languages - _FROZEN_LANGUAGES) or not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def _freeze_loaded_models(languages: set[str]) -> None:
    """Once a language's models and word lists are loaded (its first detection), move every object
    alive to the garbage collector's permanent generation (:func:`gc.freeze`): its full collections
    then stop walking millions of long-lived objects — spaCy's vocabularies, the name and place
    lists. A tenth of detection time on the public sets went to those walks (names spoken: 2.96 s
    with collection as usual, 2.72-2.76 s frozen or without collection). Cycles already garbage are
    collected first, so nothing is frozen that should have been freed."""
    new = languages - _FROZEN_LANGUAGES
    if new:
        _FROZEN_LANGUAGES.update(new)
        gc.collect()
        gc.freeze()




_DISCOURSE_BEFORE = frozenset({"yeah", "yes", "oh", "okay", "ok", "well", "um", "uh", "so", "and"})


def _drop_misheard_discourse(doc: DetectDoc, spans: list[Span]) -> list[Span]:
    """A one-word PERSON that is what ASR writes for an answer word ("Cher." for "Sure.") at the start
    of a turn (or after "yeah", "oh" ...) and followed by more of the turn is no name, nor the start of
    one ("Cher. G is in George" is "Sure. G as in George"; so is "Cher G is in George", the name a
    tagger grew over the spelling starting after it; before a spelling, a sentence's start counts as
    a turn's: "How do you spell that? Cher S as in Sam"); a turn of that one word stays a suggestion
    (a name given as an answer). The words: the lexicon's ``misheard_discourse``."""
    misheard = frozenset((doc.lex.raw.get("misheard_discourse") or ()) if doc.lex else ())
    if not misheard:
        return spans
    starts = {0, *doc.breaks}
    ends = {b - 1 for b in doc.breaks if b > 0} | {len(doc.words) - 1}
    spelled = doc.spelling_words()
    out = []
    for s in spans:
        w = s.start_word
        if s.category == "PERSON" and doc.lower[w] in misheard and w not in ends and (
                w in starts or doc.lower[w - 1] in _DISCOURSE_BEFORE
                or (w + 1 in spelled and doc.words[w - 1][-1:] in ".!?")):
            if s.end_word == w + 1:
                continue
            if doc.words[w].rstrip()[-1:] in ".,!?" or w + 1 in spelled:
                s.start_word = w + 1  # "Cher. G is in George", "Cher G is in George": the name starts after it
        out.append(s)
    return out


_KIN_NO_NAME = frozenset({"PERSON", "ORGANIZATION", "LOCATION"})


def _kin_are_no_people(doc: DetectDoc, spans: list[Span]) -> list[Span]:
    """A PERSON of kin words only ("call mom", "mom 's phone", "tell grandma") names no one: what
    someone is to the speaker is no identifier (SLURP labels it ``relation``). "Uncle Bob" keeps its
    name. Nor is it a firm or a place ("my mother's name is ...": the contextual tagger's
    organisation). The words: the lexicon's ``kin_words``."""
    kin = word_list(doc.lex, "kin_words") if doc.lex else frozenset()
    if not kin:
        return spans
    owners = word_list(doc.lex, "age_kin_owners") | word_list(doc.lex, "kin_owners")  # "my mother's"

    def kin_only(s: Span) -> bool:
        words = doc.lower[s.start_word:s.end_word]
        if len(words) > 1 and words[0] in owners:
            words = words[1:]
        return all(without_possessive(w) in kin for w in words if w not in POSSESSIVE_WORDS)

    out = [s for s in spans if (s.category not in _KIN_NO_NAME or not kin_only(s))
           and not _did_after_kin(doc, s, kin, owners)]
    for s in out:  # "call my brother jake": what he is to the speaker opens no name; his name is the item
        k = s.start_word  # (the owner inside the span, or just before it: "my [sister kelly]")
        if s.category not in _KIN_NO_NAME or DENY_SOURCE in s.sources:
            continue
        if doc.lower[k] in owners:
            k += 1
        elif k == 0 or k in doc.breaks or doc.lower[k - 1] not in owners:
            continue
        k0 = k
        while k < s.end_word - 1 and without_possessive(doc.lower[k]) in kin:
            k += 1
        if k > k0 and _listed_people(doc, k, s.end_word):
            s.start_word, s.category = k, "PERSON"
    return out


# ("that" opens what one is told as often as an object: "tell my husband mark that dinner is ready")
_OBJECT_OPENERS = frozenset({"a", "an", "the", "some", "my", "his", "her", "our", "their", "your", "it", "them", "me",
                             "us", "him", "this", "up", "out", "back"})


def _did_after_kin(doc: DetectDoc, s: Span, kin: frozenset[str], owners: frozenset[str]) -> bool:
    """Is a one-word person in speech right after "my brother", "her son" what that person did ("my
    brother drew a map", "my wife rose early", "what my mom said")? A verb that is also a name (the
    lexicon's ``name_like_verbs``), or a word an object follows ("drew a", "sued the"), is no name
    there ("my partner dev is here" keeps its person), unless the lists hold it as a given name
    ("email my boss jennifer that ...", "send my dad robert a message"; the lexicon's verbs stay verbs)."""
    w = s.start_word
    if s.category != "PERSON" or s.end_word - w != 1 or w < 2 or DENY_SOURCE in s.sources or doc.cased() or (
            doc.lower[w - 1] not in kin or doc.lower[w - 2] not in owners | POSSESSIVE_WORDS):
        return False
    word = doc.lower[w]
    if word in word_list(doc.lex, "name_like_verbs"):
        return True
    from redactdesk.detect.worldnames import load_world_names
    from redactdesk.lang.folding import fold_key

    # a given name of the lists is the person ("email my boss jennifer that ...", "send my dad robert a message")
    return w + 1 < len(doc.lower) and w + 1 not in doc.breaks and doc.lower[w + 1] in _OBJECT_OPENERS and not (
        load_world_names().is_first(fold_key(word)))


def _listed_people(doc: DetectDoc, w0: int, w1: int) -> bool:
    """Is every word of ``[w0, w1)`` a name of the world-name list ("jake", "ana maria lopez")?"""
    from redactdesk.detect.worldnames import load_world_names
    from redactdesk.lang.folding import fold_key

    names = load_world_names()
    return w0 < w1 and all(names.is_name(fold_key(w)) for w in doc.words[w0:w1])




def _groups_are_no_people(doc: DetectDoc, spans: list[Span]) -> list[Span]:
    """A PERSON that is exactly a nationality, religion or political group of the list and no known
    name is that group ("my wife is Catholic": the taggers read a name after "is"); "Christian",
    a first name too, stays a person, unless said of oneself or someone right after a pronoun and its
    verb ("I am German", "she's English": the lists' given name Germán and surname English). An
    organisation of one group word said of someone is the group ("we are Hindus")."""
    from redactdesk.detect.groups import group_reading, group_said_of_someone
    from redactdesk.detect.worldnames import load_world_names
    from redactdesk.lang.folding import fold_key

    names = None
    for s in spans:
        if s.category == "ORGANIZATION" and DENY_SOURCE not in s.sources and group_said_of_someone(
                doc, s.start_word, s.end_word):
            s.category = "NRP"  # "we are Hindus": a tagger's organisation of one group word said of someone
            continue
        if s.category != "PERSON" or group_reading(doc, s.start_word, s.end_word) != "group":
            continue
        names = names or load_world_names()
        if not any(names.is_name(fold_key(w)) for w in doc.words[s.start_word:s.end_word]) or (
                s.end_word - s.start_word == 1 and _said_of_oneself(doc, s.start_word)):
            s.category = "NRP"
    return spans


_SUBJECT_COPULAS = frozenset({"i'm", "im", "he's", "she's", "we're", "they're", "you're"})
_PRONOUNS_AND_COPULAS = {"am": frozenset({"i"}), "is": frozenset({"he", "she"}),
                         "are": frozenset({"we", "they", "you"})}


def _said_of_oneself(doc: DetectDoc, w: int) -> bool:
    """Is word ``w`` said right after a pronoun and its verb ("I am German", "she's English")? A group
    word there is what the person is; a name is given with "my name is" or "this is"."""
    prev = doc.lower[w - 1].replace("’", "'") if w >= 1 else ""
    if prev in _SUBJECT_COPULAS:
        return True
    return w >= 2 and doc.lower[w - 2] in _PRONOUNS_AND_COPULAS.get(prev, ())




@functools.lru_cache(maxsize=4)
def _never_names(lex: Any) -> frozenset[str]:
    """Words that never spread as a name (everyday and ambiguous words, context words) — built once:
    the union of these large sets per document cost more than all the recognizers together."""
    gaz = load_gazetteer()
    return gaz.common | gaz.ambiguous | (context_words(lex) if lex else frozenset())


def detect_conversations(
    convs: Sequence[Conversation],
    *,
    language: str | None = None,
    allow: Iterable[str] = (),
    deny: Iterable[DenySpec] = (),
    sources: Iterable[SourceSpec] | None = None,
    taxonomy: Taxonomy | None = None,
    policy: VotePolicy | None = None,
) -> dict[str, list[Span]]:
    """Suggested spans for many conversations at once (spaCy batches across them), keyed by id."""
    docs = [DetectDoc.from_conversation(c, language) for c in convs]
    allow, deny = list(allow), list(deny)
    results = detect_docs(docs, sources=sources, allow=allow, deny=deny, taxonomy=taxonomy, policy=policy)
    return {c.id: respect_decisions(spans, c.spans) for c, spans in zip(convs, results, strict=True)}


def detect_conversation(
    conv: Conversation,
    *,
    language: str | None = None,
    allow: Iterable[str] = (),
    deny: Iterable[DenySpec] = (),
    sources: Iterable[SourceSpec] | None = None,
    taxonomy: Taxonomy | None = None,
    policy: VotePolicy | None = None,
) -> list[Span]:
    """SUGGESTED spans for one conversation, ordered by position (see the module docstring)."""
    if not conv.words:
        return []
    return detect_conversations(
        [conv], language=language, allow=allow, deny=deny, sources=sources, taxonomy=taxonomy, policy=policy
    )[conv.id]


# --- plain texts and the JSONL contract -------------------------------------------------------------

_WS = re.compile(r"\S+")
_LINE_BREAK = re.compile(r"[\n\r\v\f\x85\u2028\u2029]")  # "\r\n", a lone "\r", Unicode line and paragraph ends
# a comma or semicolon with no space after it, between a letter and anything (a CSV row, "Smith,John"),
# ends a word; "2,500" and "1,2" stay one number
_FIELD_COMMA = re.compile(r"(?<=[^\W\d_])[,;](?=\S)|(?<=\S)[,;](?=[^\W\d_])")
# a dash written without spaces between two words: "His name—John Carter—was on the list"
_GLUED_DASH = re.compile(r"(?<=[^\W\d_])[—–](?=[^\W\d_])")


def word_offsets(text: str) -> list[tuple[int, int]]:
    """(start, end) of each pseudo-word: whitespace splits, and so does a comma written between the
    fields of a row ("1042,Oluwaseun Adeyemi,seun@mail.ng": the comma stays with the word before) and
    a dash written between two words without spaces ("name—John Carter—was": the dash stays with the
    word before; a name glued to the words around it was found in no source)."""
    out = []
    for m in _WS.finditer(text):
        a = m.start()
        cuts = sorted([c.end() for c in _FIELD_COMMA.finditer(text, m.start(), m.end())]
                      + [c.end() for c in _GLUED_DASH.finditer(text, m.start(), m.end())])
        for c in cuts:
            out.append((a, c))
            a = c
        out.append((a, m.end()))
    return out


def _char_bounds(text: str, offsets: list[tuple[int, int]], w0: int, w1: int) -> tuple[int, int]:
    """Character range of words [w0, w1), without punctuation glued to the outer edges."""
    s, _ = offsets[w0]
    _, e = offsets[w1 - 1]
    first_end = offsets[w0][1]
    last_start = offsets[w1 - 1][0]
    inner = e
    while inner > s + 1 and text[inner - 1] in ".,;:!?":
        inner -= 1  # "(Florida),": the clause's mark after the brackets
    while inner - s > 2 and _wrapped(text, s, inner):  # "(Dr. K)": brackets around the whole item are not its own
        s, e = s + 1, inner - 1
        inner = e
        first_end, last_start = max(first_end, s + 1), min(last_start, e - 1)
    while s < first_end - 1 and text[s] in _EDGE_PUNCT and not _closed_inside(text, s, e):
        s += 1
    while e > last_start + 1 and text[e - 1] in _EDGE_PUNCT and not _opened_inside(text, s, e) and not (
            text[e - 1] == "." and _abbreviation(text[last_start:e - 1])):
        e -= 1
    return s, e


# abbreviations that end items, whose dot is theirs ("John Smith Jr.", "Acme Inc.", "12 Main St.")
_ABBREVIATIONS = frozenset("jr sr esq inc ltd co corp bros mfg st ave rd blvd dr ln ct pl sq hwy pkwy apt "
                           "dept".split())


def _abbreviation(word: str) -> bool:
    """Is ``word`` (its final dot removed) an abbreviation: dotted ("Ph.D", "S.Pd", "B.A") or one of
    :data:`_ABBREVIATIONS`?"""
    word = word.lstrip("(\"'")
    return bool(re.fullmatch(r"(?:[A-Za-z]{1,4}\.)+[A-Za-z]{1,4}", word)) or word.lower() in _ABBREVIATIONS


_PAIRS = {"(": ")", "[": "]", "{": "}", '"': '"', "“": "”", "«": "»"}  # a nickname's quotes: '"Big Tony" Russo'


def _closed_inside(text: str, s: int, e: int) -> bool:
    """An opening bracket at ``s`` whose partner lies inside the span belongs to it: "(415) 555-0132"."""
    close = _PAIRS.get(text[s])
    return close is not None and close in text[s + 1:e]


_POSSESSORS = frozenset({"PERSON", "LOCATION", "CITY", "COUNTRY", "NRP"})
_POSSESSIVE_MARKS = ("'s", "’s")
# words that follow "is" or "has" and never what someone owns: "Jenny's the one", "Mike's been there"
_AFTER_IS_OR_HAS = frozenset({"the", "a", "an", "not", "been", "going", "gonna", "got", "gotten", "always", "never",
                              "just", "really", "very", "so", "too", "also", "still", "here", "there", "coming",
                              "doing", "getting", "having", "being", "gone", "done", "probably", "definitely"})


def _without_possessive_mark(doc: DetectDoc, text: str, offsets: list[tuple[int, int]], s: Span, a: int, b: int) -> int:
    """The character end of a person's or place's span in cased writing without its possessive mark
    when a possessed word follows ("Chicago's Palmer House", "Gerrard's shots", "Chicago 's
    ..."): the mark says whose, and is not the name (the written corpora leave it out of the name).
    The word span keeps it, for the surrogate. A shop named after its founder keeps it where no
    noun follows ("Dillard's was added"), and so does any organisation ("McDonald's"); so does speech,
    whose transcripts write the mark into the word ("jessica's birthday"). A person's "'s" before a
    function word is "is" or "has" ("Jenny's the one") and goes."""
    if s.category not in _POSSESSORS or not doc.cased() or s.end_word >= len(doc.words):
        return b
    following = doc.lower[s.end_word]
    last = s.end_word - 1
    if s.category == "PERSON" and following in _AFTER_IS_OR_HAS \
            and doc.words[last].endswith(_POSSESSIVE_MARKS) and text[a:b].endswith(_POSSESSIVE_MARKS) and b - 2 > a:
        return b - 2  # "Jenny's the one", "Mike's been there": "is" or "has" said after the name, no part of it
    if not following.isalpha() or (doc.lex is not None and following in doc.lex.stop_words):
        return b
    if doc.words[last] in _POSSESSIVE_MARKS and last > s.start_word:
        return min(b, offsets[last - 1][1])  # "Chicago 's": the mark written apart
    if doc.words[last].endswith(_POSSESSIVE_MARKS) and text[a:b].endswith(_POSSESSIVE_MARKS) and b - 2 > a:
        return b - 2  # not "Thalhimer's, JC Penney": a comma after the mark, no possessive
    return b


def _wrapped(text: str, s: int, e: int) -> bool:
    """Does the bracket opening at ``s`` close at ``e - 1``, around all that lies between?"""
    close = _PAIRS.get(text[s])
    if close is None or text[e - 1] != close:
        return False
    if close == text[s]:  # straight quotes: no third one between
        return close not in text[s + 1:e - 1]
    depth = 0
    for k in range(s, e - 1):
        depth += (text[k] == text[s]) - (text[k] == close)
        if depth == 0:
            return False  # "(415) 555-(0132)": the first bracket closes before the end
    return True


def _opened_inside(text: str, s: int, e: int) -> bool:
    opener = {v: k for k, v in _PAIRS.items()}.get(text[e - 1])
    return opener is not None and opener in text[s:e - 1]


def detect_texts(
    texts: Sequence[str],
    language: str = "en",
    *,
    allow: Iterable[str] = (),
    deny: Iterable[DenySpec] = (),
    sources: Iterable[SourceSpec] | None = None,
    taxonomy: Taxonomy | None = None,
) -> list[list[dict[str, Any]]]:
    """Spans with character offsets (end exclusive) for each text: the JSONL contract's ``spans``.

    Each text is split on whitespace into pseudo-words; spans map back to those words' characters,
    without the punctuation at their outer edges, the brackets around a whole item ("(Dr. K)") and,
    in cased writing, a person's or place's possessive mark before what it owns ("Lisbon's old town").
    Where a line ends is kept (``DetectDoc.lines``): an address written over lines has no commas.
    """
    lang = check_language(language)
    docs = []
    offsets_all = []
    for i, text in enumerate(texts):
        offsets = word_offsets(text)
        offsets_all.append(offsets)
        lines = [k for k in range(1, len(offsets)) if _LINE_BREAK.search(text, offsets[k - 1][1], offsets[k][0])]
        docs.append(DetectDoc.from_words([text[a:b] for a, b in offsets], lang, lines=lines, id=str(i)))
    results = detect_docs(docs, sources=sources, allow=list(allow), deny=list(deny), taxonomy=taxonomy)
    out: list[list[dict[str, Any]]] = []
    for doc, text, offsets, spans in zip(docs, texts, offsets_all, results, strict=True):
        items = []
        for s in spans:
            a, b = _char_bounds(text, offsets, s.start_word, s.end_word)
            b = _without_possessive_mark(doc, text, offsets, s, a, b)
            items.append({"start": a, "end": b, "category": s.category, "score": round(float(s.score), 3),
                          "source": "+".join(s.sources)})
        out.append(items)
    return out


def _read_jsonl(path: Path) -> list[tuple[Any, str]]:
    rows: list[tuple[Any, str]] = []
    try:
        fh = path.open(encoding="utf-8")
    except OSError as exc:
        raise JsonlContractError(f"cannot read {path}: {exc.strerror or exc}") from exc
    with fh:
        for lineno, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as exc:
                raise JsonlContractError(f"{path}:{lineno}: not JSON ({exc.msg})") from exc
            if not isinstance(obj, dict) or "id" not in obj or "text" not in obj:
                raise JsonlContractError(f'{path}:{lineno}: each line needs {{"id": ..., "text": ...}}')
            if not isinstance(obj["text"], str):
                raise JsonlContractError(f"{path}:{lineno}: 'text' must be a string")
            rows.append((obj["id"], obj["text"]))
    return rows


def detect_jsonl(
    in_path: str | os.PathLike[str],
    out_path: str | os.PathLike[str],
    lang: str = "en",
    *,
    allow: Iterable[str] = (),
    deny: Iterable[DenySpec] = (),
    sources: Iterable[SourceSpec] | None = None,
    batch: int = 256,
) -> int:
    """The ``redactdesk detect --jsonl IN --out OUT --lang L`` contract. Reads every line first (a bad
    line stops the run before anything is written), writes OUT atomically. Returns the line count."""
    lang = check_language(lang)
    rows = _read_jsonl(Path(in_path))
    out = Path(out_path)
    allow, deny = list(allow), list(deny)
    with atomic_path(out) as tmp, tmp.open("w", encoding="utf-8") as fh:
        for k in range(0, len(rows), max(1, batch)):
            chunk = rows[k : k + batch]
            spans = detect_texts([t for _, t in chunk], lang, allow=allow, deny=deny, sources=sources)
            for (rid, _), sp in zip(chunk, spans, strict=True):
                fh.write(json.dumps({"id": rid, "spans": sp}, ensure_ascii=False) + "\n")
    return len(rows)
