"""A name of the lists said beside a person, joined by "and", "or" or a comma, is a person too:
"omg tobi and chioma are getting married", "my friends chioma and tobi". Alone, a lower-case given
name needs a cue ("my friend tobi"); beside another person the list says what it is. Only names of
the list that are no everyday word count ("tobi", "siobhan"; not "will", "mark", "rose"), written
with a capital in cased text; added after the vote, beside the persons it found.
"""

from __future__ import annotations

from redactdesk.core.types import Span, SpanStatus
from redactdesk.detect.sources import DetectDoc
from redactdesk.detect.worldnames import everyday_words, load_world_names, word_view
from redactdesk.lang.names import plural_surname_stems

SOURCE = "gazetteer"
_JOINERS = frozenset({"and", "&", "or", "y", "e", "o", "u"})


def listed_name_word(doc: DetectDoc, k: int) -> bool:
    """Is word ``k`` a name of the lists that is no everyday or function word, written with a capital in
    cased text ("tobi", "Kwame"; not "will", "mark", "rose")? What it is said beside or of makes it a
    person where it stands alone without a cue."""
    v = word_view(doc)
    key = v.keys[k]
    stop = doc.lex.stop_words if doc.lex is not None else frozenset()
    return (load_world_names().is_plain_name(key) and key not in everyday_words() and key not in stop
            and v.cores[k].isalpha() and (not v.cased or v.cap[k]))


def names_beside_people(doc: DetectDoc, spans: list[Span]) -> list[Span]:
    """The spans with a PERSON span for each listed name joined to a found person (module docstring)."""
    people = [s for s in spans if s.category == "PERSON"]
    if not people:
        return spans
    v = word_view(doc)
    n = len(doc.words)
    covered = {k for s in spans for k in range(s.start_word, s.end_word)}

    def joined(k: int, joiner: int) -> bool:
        """Is word ``k`` a listed name joined by word ``joiner`` (or a comma) to the person beside it?"""
        return 0 <= k < n and k not in covered and v.seg[k] == v.seg[joiner] and listed_name_word(doc, k)

    added = []
    for s in people:
        a, b = s.start_word, s.end_word
        if a >= 2 and doc.lower[a - 1] in _JOINERS and joined(a - 2, a - 1):
            added.append(a - 2)  # "tobi and | chioma"
        elif a >= 1 and v.comma_after[a - 1] and joined(a - 1, a):
            added.append(a - 1)  # "tobi, | chioma and ..."
        if b + 1 < n and doc.lower[b] in _JOINERS and joined(b + 1, b):
            added.append(b + 1)  # "chioma | and tobi"
    if not added:
        return spans
    new = [Span(k, k + 1, "PERSON", SpanStatus.SUGGESTED, 0.6, (SOURCE,), "a listed name beside a person")
           for k in sorted(set(added))]
    return sorted(spans + new, key=lambda s: (s.start_word, s.end_word))


_COPULAS = frozenset({"is", "was", "es", "era", "fue"})
_ARTICLES = frozenset({"a", "an", "the", "un", "una", "el", "la"})
_DESCRIPTIONS = frozenset({"NRP", "OCCUPATION"})


def described_people(doc: DetectDoc, spans: list[Span]) -> list[Span]:
    """The spans with a PERSON span for a listed name that a group or a job is said of: "Kwame is
    Ghanaian and lives in Accra", "Tobi is a nurse". A sentence's first word is no name on its
    capital alone, and no source read one there; what is said of it says it is someone."""
    if not any(s.category in _DESCRIPTIONS for s in spans):
        return spans
    v = word_view(doc)
    stop = doc.lex.stop_words if doc.lex is not None else frozenset()
    covered = {k for s in spans for k in range(s.start_word, s.end_word)}

    # a tagger's one-word place or firm there is the person: "Kwame is Ghanaian." read "Kwame" as a place
    retold = {s.start_word: s for s in spans if s.end_word - s.start_word == 1 and s.sources == ("tagger",)
              and s.category in ("LOCATION", "ORGANIZATION") and s.status == SpanStatus.SUGGESTED}

    def listed(k: int) -> bool:
        return (k not in covered or k in retold) and listed_name_word(doc, k)

    added: list[tuple[int, int]] = []
    for s in spans:
        if s.category not in _DESCRIPTIONS:
            continue
        e = s.end_word
        if s.category == "NRP" and e < len(doc.words) and not v.stop_after[e - 1] and not v.comma_after[e - 1] and (
                doc.lower[e] not in stop):
            continue  # "Bilka is a Danish chain of hypermarkets": the group word describes a thing said after it
        k = s.start_word - 1
        while k >= 0 and doc.lower[k] in _ARTICLES:
            k -= 1
        if k < 1 or doc.lower[k] not in _COPULAS or v.seg[k - 1] != v.seg[s.start_word] or not listed(k - 1):
            continue
        a = k - 1
        if a >= 1 and listed(a - 1) and v.seg[a - 1] == v.seg[a] and not v.comma_after[a - 1]:
            a -= 1  # "Kwame Mensah is Ghanaian"
        added.append((a, k))
    if not added:
        return spans
    new = []
    for a, b in sorted(set(added)):
        if b - a == 1 and a in retold:
            retold[a].category = "PERSON"
            retold[a].reason = "a listed name a group or a job is said of"
        elif not any(k in covered for k in range(a, b)):
            new.append(Span(a, b, "PERSON", SpanStatus.SUGGESTED, 0.6, (SOURCE,),
                            "a listed name a group or a job is said of"))
    return sorted(spans + new, key=lambda s: (s.start_word, s.end_word))


def families(doc: DetectDoc, spans: list[Span]) -> list[Span]:
    """The spans with a PERSON span for a family named by its surname in the plural after "the":
    "dinner with my in laws the johnsons", "what's on my calendar with the smiths tomorrow", "the
    joneses". The surname must be one of the lists and no everyday word ("the browns", "the woods",
    "the roses" stay words), and the word a plural ("the boss" is no family Bos)."""
    if doc.language.split("_")[0] != "en":
        return spans
    v = word_view(doc)
    names, common = load_world_names(), everyday_words()
    covered = {k for s in spans for k in range(s.start_word, s.end_word)}
    new = []
    for k in range(1, len(doc.words)):
        word = v.keys[k]
        if k in covered or doc.lower[k - 1] != "the" or len(word) < 4 or not word.endswith("s") or word.endswith(
                ("ss", "us", "is")) or not (
                v.cores[k].isalpha() and (not v.cased or v.cap[k])):
            continue
        stems = plural_surname_stems(word)
        base = next((b for b in stems if names.is_last(b)), stems[-1])  # "the joneses": "jones"
        if names.is_last(base) and base not in common and len(base) >= 3:
            new.append(Span(k, k + 1, "PERSON", SpanStatus.SUGGESTED, 0.6, (SOURCE,), "a family named by its surname"))
    spans = _surname_families(doc, spans, names)
    if not new:
        return spans
    return sorted(spans + new, key=lambda s: (s.start_word, s.end_word))


_FAMILY_WORDS = frozenset({"family"})


def _surname_families(doc: DetectDoc, spans: list[Span], names) -> list[Span]:
    """A family named by its surname and "family" ("the Caloi family", "the smith family") is a
    person, the surname: the taggers read "Caloi family" as a firm, and the revised text put a
    company's name there. In lower-case speech the surname is one of the lists; a title's "Family" in
    capitals stays ("Portrait of an American Family")."""
    v = word_view(doc)
    for s in spans:
        if s.category not in ("ORGANIZATION", "PERSON") or s.status != SpanStatus.SUGGESTED:
            continue
        a, b = s.start_word, s.end_word
        if b - a > 1 and doc.lower[b - 1].strip(".,;:!?") in _FAMILY_WORDS:
            b -= 1  # "the Caloi family"
        elif not (s.category == "ORGANIZATION" and b < len(doc.words) and doc.lower[b].strip(".,;:!?") in (
                _FAMILY_WORDS)):  # "the Okafor | family": a tagger's firm before the word
            continue
        if (v.cased and doc.words[b][:1].isupper()) or b - a > 3 or not all(
                (v.cased and v.cap[k]) or names.is_last(v.keys[k]) for k in range(a, b)):
            continue  # "American Family": a title; "the boxing family": no surname
        s.start_word, s.end_word, s.category = a, b, "PERSON"
        s.reason = f"a family named by its surname ({s.reason})"
    return spans
