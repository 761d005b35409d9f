"""Nationalities, ethnic groups, religions and political groups as one item each (category NRP).

Special categories of personal data (ethnic origin, religious beliefs, political opinions): "I'm
Nigerian", "she is a practising Catholic", "as a Labour voter". The words come from the shared
list (:mod:`redactdesk.lang.groups`). Many of them are also something else — a language ("do you
speak French"), a cuisine ("Chinese food"), a brand ("American Express", which the organisation
recogniser takes first) — so:

- in cased writing a group word counts written with its capital, unless the words around it make it a
  language or a thing ("in French", "French fries", "the Spanish version");
- in lower-case speech it counts only with a cue: said of a person ("i'm", "she is a", "as a", "we
  are") or with a word that makes it one ("citizen", "passport", "descent", "community", "church",
  "voter", "family");
- a party's name of the list ("the labour party", "partido popular") is a political group without a
  cue: its own word says what it is ("a member of the labour party" was not flagged in speech).
"""

from __future__ import annotations

from redactdesk.detect.sources import DetectDoc, Hit
from redactdesk.detect.worldnames import load_world_names, person_verbs, word_view
from redactdesk.lang.groups import PARTY_WORDS, load_groups

SOURCE = "gazetteer"
CATEGORY = "NRP"
# before the word: it is said of someone
_BEFORE = frozenset({"i'm", "im", "i", "am", "is", "are", "was", "were", "be", "been", "being", "as", "a", "an",
                     "fellow", "devout", "practising", "practicing", "born", "raised", "proud", "soy", "es", "somos",
                     "eres", "era", "fue", "son", "sois", "eran", "fueron", "como", "un", "una", "he's", "she's",
                     "we're", "they're", "you're",
                     # Spanish puts the group after the person it is said of: "una mujer colombiana"
                     "mujer", "mujeres", "hombre", "hombres", "chica", "chico", "señora", "señor", "persona",
                     "ciudadano", "ciudadana", "familia", "padre", "madre", "esposa", "esposo", "marido", "vecino",
                     "vecina", "amigo", "amiga", "compañero", "compañera", "inmigrante", "origen", "ascendencia",
                     "nacionalidad"})
# between two groups said of someone: the second is said of them too ("soy colombiana y católica")
_AND = frozenset({"and", "y", "e", "or", "o"})
_CUED = 0.8  # the score of a group said of someone
# what someone does who rings ("Christian called yesterday"): said of a given name, it is that person
_CALLING = frozenset({"called", "phoned", "rang", "texted", "emailed", "messaged", "llamó", "escribió"})
# after the word: it names people or their belonging
_AFTER = frozenset({"citizen", "citizens", "citizenship", "national", "nationals", "nationality", "passport",
                    "descent", "origin", "origins", "heritage", "background", "ancestry", "roots", "community",
                    "communities", "church", "mosque", "temple", "synagogue", "faith", "party", "voter", "voters",
                    "family", "parents", "father", "mother", "wife", "husband", "people", "immigrant", "immigrants",
                    "woman", "man", "women", "men", "guy", "girl", "boy", "person", "friend", "neighbour",
                    "neighbor", "colleague", "member", "members", "supporter", "supporters",
                    # a description of someone, as in a case note or a report: "a 45 year old hispanic male"
                    "male", "males", "female", "females", "lady", "ladies", "gentleman", "gentlemen", "patient",
                    "patients", "student", "students", "kid", "kids", "child", "children", "teen", "teens",
                    "teenager", "teenagers", "adult", "adults", "couple", "individual", "individuals",
                    "resident", "residents", "ciudadano",
                    "ciudadana", "nacionalidad", "pasaporte", "origen", "familia", "iglesia", "partido"})
# around the word: a language, a cuisine, a product
_LANGUAGE_BEFORE = frozenset({"speak", "speaks", "speaking", "spoke", "in", "into", "learn", "learning", "study",
                              "studying", "translate", "translated", "fluent", "hablo", "habla", "hablar", "en",
                              # the subject taught or read ("taught English at Texas Southern")
                              "teach", "teaches", "teaching", "taught", "learned", "learnt", "studied", "studies",
                              "learns", "enseña", "enseñaba", "estudia", "estudió", "aprende", "aprendió"})
_THING_AFTER = frozenset({"language", "languages", "speaker", "speakers", "version", "subtitles", "translation",
                          "food", "cuisine", "restaurant", "dish", "dishes", "fries", "toast", "dressing", "music",
                          "song", "songs", "film", "films", "movie", "movies", "keyboard", "class", "classes",
                          "lesson", "lessons", "teacher", "course", "wine", "cheese", "bread", "coffee", "tea",
                          "press", "horn", "bulldog", "shepherd", "kiss", "market", "markets", "time"})


# languages that write nationalities and religions in lower case ("soy colombiana y católica"):
# their cased text reads a group by its cue, as speech does
_GROUPS_IN_LOWER_CASE = frozenset({"es"})


def _hyphenated_groups(key: str, groups) -> bool:
    """Is ``key`` group words joined by hyphens ("nigerian-american", "african-american")?"""
    parts = key.split("-")
    return len(parts) > 1 and all((p,) in groups.by_key for p in parts)


# words said between a copula and the group it says ("we are both Republicans", "he is a devout Catholic")
_BETWEEN_CUE_AND_GROUP = frozenset({"both", "all", "also", "still", "now", "proud", "devout", "lifelong", "practicing",
                                    "practising", "strict", "staunch", "registered", "ambos", "todos", "también"})


def _context(v, i: int, j: int, words: list[str] | None = None, groups=None) -> tuple[bool, bool]:
    """(said of someone, said of a language or a thing) for the words [i, j) of a word view."""
    n = len(v.keys)
    before = v.keys[i - 1] if i > 0 and v.seg[i - 1] == v.seg[i] else ""
    if before in ("she", "he") and words and words[i - 1].lower().replace("’", "'").rstrip(",.").endswith("'s"):
        before += "'s"  # the keys drop a possessive's "'s": "she's nigerian" is "she is"
    before2 = v.keys[i - 2] if i > 1 and v.seg[i - 2] == v.seg[i] else ""
    if before in _BETWEEN_CUE_AND_GROUP and before2:  # "we're both Republicans", "they are all Catholics"
        before, before2 = before2, (v.keys[i - 3] if i > 2 and v.seg[i - 3] == v.seg[i] else "")
        if before in ("she", "he", "we", "they") and words and words[i - 2].lower().replace("’", "'").endswith(
                ("'s", "'re")):
            before += "'s" if words[i - 2].lower().endswith("s") else "'re"
    after = v.keys[j] if j < n and v.seg[j] == v.seg[i] else ""
    if after in _AND and groups is not None and j + 2 < n and (v.keys[j + 1],) in groups.by_key and (
            v.seg[j + 2] == v.seg[i]):
        after = v.keys[j + 2]  # "French and Italian food": what follows the pair is said of both
    thing = before in _LANGUAGE_BEFORE or after in _THING_AFTER
    # an age before it: "a 45 year old hispanic male", "the 30-year-old Nigerian" (not "Old English")
    aged = (before == "old" and before2 in ("year", "years")) or before.endswith(("year-old", "years-old"))
    cue = before in _BEFORE or (before in ("a", "an", "un", "una") and before2 in _BEFORE) or after in _AFTER or aged
    return cue, thing


def group_reading(doc: DetectDoc, w0: int, w1: int) -> str | None:
    """How words [w0, w1) read when they are a group of the list: "group" (a nationality said of
    someone, "I'm Nigerian"), "thing" (a language or a thing: "speak French", "Chinese food") or None
    when they are not in the list. A tagger that calls a demonym a place asks this."""
    groups = load_groups(doc.language)
    if groups is None:
        return None
    v = word_view(doc)
    if tuple(v.keys[w0:w1]) not in groups.by_key:
        return None
    cue, thing = _context(v, w0, w1, doc.words, groups)
    return "thing" if thing and not cue else "group"


def group_said_of_someone(doc: DetectDoc, w0: int, w1: int) -> bool:
    """Are words [w0, w1) one group word (or its plural) said of someone ("we are Hindus", "my neighbours
    are Brazilians")? A tagger that reads such a plural as an organisation asks this."""
    groups = load_groups(doc.language)
    if groups is None or w1 - w0 != 1:
        return False
    v = word_view(doc)
    key = v.keys[w0]
    if (key,) not in groups.by_key and groups.base_of(key) is None:
        return False
    cue, thing = _context(v, w0, w1, doc.words, groups)
    return cue and not thing


def _given_name_acting(doc: DetectDoc, v, i: int) -> bool:
    """Is the group word at ``i`` a given name of the lists said as someone who acts: no article or
    verb of being before it ("a Christian", "is Christian"), and right after it a verb only a person is
    the subject of (the lexicon's verbs of saying, gestures and calling: "Christian called yesterday",
    "christian said no")?"""
    if doc.lex is None or i + 1 >= len(v.keys) or v.seg[i + 1] != v.seg[i] or v.comma_after[i] or v.stop_after[i]:
        return False
    if i > 0 and v.seg[i - 1] == v.seg[i] and not v.stop_after[i - 1] and (
            v.keys[i - 1] in _BEFORE or v.keys[i - 1] in ("the", "el", "la", "un", "una", "los", "las")):
        return False
    after = doc.lower[i + 1].strip(".,;:!?\"")
    return (after in person_verbs(doc.lex) or after in _CALLING) and load_world_names().is_first(v.keys[i])


def find_groups(doc: DetectDoc, taken: list[bool]) -> list[Hit]:
    """NRP hits (see the module docstring); marks the words it takes in ``taken``."""
    groups = load_groups(doc.language)
    if groups is None or not doc.words:
        return []
    v = word_view(doc)
    n = len(v.keys)
    hits: list[Hit] = []
    i = 0
    while i < n:
        match = 0
        for length in range(min(groups.longest, n - i), 0, -1):
            if any(taken[k] or not v.keys[k] for k in range(i, i + length)):
                continue
            if tuple(v.keys[i:i + length]) in groups.by_key and all(v.seg[k] == v.seg[i] for k in range(i, i + length)):
                match = length
                break
        if not match and _hyphenated_groups(v.keys[i], groups):
            match = 1  # "Nigerian-American", "British-Pakistani"
        if not match and not taken[i] and groups.base_of(v.keys[i]):
            match = 1  # "Brazilians", "Hindus", "colombianos", "Frenchwoman"
        if not match:
            i += 1
            continue
        j = i + match
        # a second group word right after the first is part of it: "British Pakistani", "Irish Catholic"
        capitals = v.cased and doc.language not in _GROUPS_IN_LOWER_CASE
        while j < n and not taken[j] and v.seg[j] == v.seg[i] and not v.comma_after[j - 1] and (
                (v.keys[j],) in groups.by_key or _hyphenated_groups(v.keys[j], groups)) and (
                not capitals or v.cap[j]):
            j += 1
        cue, thing = _context(v, i, j, doc.words, groups)
        if hits and hits[-1].end_word == i - 1 and v.keys[i - 1] in _AND and v.seg[i - 1] == v.seg[i] and (
                hits[-1].score >= _CUED and not thing):
            cue = True  # "soy colombiana y católica", "I'm Nigerian and Catholic"
        party = j - i > 1 and any(k in PARTY_WORDS for k in v.keys[i:j])
        if not cue and j - i == 1 and _given_name_acting(doc, v, i):
            # "Christian called yesterday": the given name of someone who acts, no group
            hits.append(Hit(i, j, "PERSON", 0.75, SOURCE, "a given name before what a person does", strong=True))
            taken[i] = True
            i = j
            continue
        if capitals:
            ok = v.cap[i] and (cue or not thing)
        else:
            ok = (cue or party) and not thing
        if ok:
            hits.append(Hit(i, j, CATEGORY, _CUED if cue else 0.6, SOURCE,
                            "a nationality, religion or political group" + (" said of someone" if cue else ""),
                            strong=True))
            for k in range(i, j):
                taken[k] = True
        i = j
    return hits
