"""Job titles and occupations said of someone, as items of their own (category OCCUPATION).

"I work as a cardiologist", "my wife is a registered nurse", "Priya Raman, CFO, said", "soy
enfermera", "trabaja de agente de seguros": an occupation narrows who is speaking or spoken of
(the only cardiologist in a small town), so ITAC's blanket scheme anonymises job titles and
Presidio's evaluation data labels them (TITLE). Job words are everyday words too ("a driver
issue", "copper is a conductor", "the nurse station"), so an occupation counts only where it is
said of someone:

- after a subject that is a person and a copula: "I'm a", "she was an", "my dad is a", "Anna is
  the", "the patient is a" (a pronoun, a kin word, a person's name or a person of a note or a call
  before it — "the car is a model of" says nothing of anyone), or after a verb of work: "works as",
  "job as", "trained as", "promoted to", "soy", "trabaja de/como";
- set off right after a person's name by a comma, a line, a bar or an age: "Priya Raman, CFO,",
  "Wei Zhang⏎Senior Analyst", "Dr. Laura Méndez | Chief Medical Officer", "Margaret O'Neil, 72,
  retired schoolteacher" (not in a timed transcript, whose commas are guesses), or right before
  it ("Chief Executive Officer Tim Cook", "our new intern, Ahmed", "El director general, Antonio");
- after a form's label: "Occupation: Surveyor", "Job title: Senior Analyst", "Profesión: abogada".

A list of jobs gives each ("guitarist, songwriter and composer"), a title of a department is whole
("Director of Sales"), a title written head first as job lists write it too ("Engineer,
biomedical"). A person read right after "<job> at" is where the job is done, an organisation ("a
nurse at kaiser permanente").

What is an occupation: a *head* (the noun that says what the person is) — the heads of Faker's job
titles for the language (:func:`redactdesk.detect.occupations.job_vocabulary`), the lexicon's
``occupations`` (everyday trades and specialties the list lacks) and its offices — with the words
that qualify it before it (English: "senior software engineer"; Spanish after it: "agente de
seguros"). The head must end the clause or be followed by a function word ("a nurse at St Mary's";
not "a driver licence"), and it is the person's job, not a possession ("a doctor's note").

The step runs after the vote on the spans it made: an occupation never takes words a span holds,
except a name or organisation that is the very title ("works as a Water Engineer", which the job
title guard would otherwise drop as no name).
"""

from __future__ import annotations

import dataclasses
import functools

from redactdesk.core.types import Span, SpanStatus
from redactdesk.detect.coordinated_names import listed_name_word
from redactdesk.detect.lists import DENY_SOURCE
from redactdesk.detect.name_bounds import honorifics
from redactdesk.detect.occupations import job_vocabulary
from redactdesk.detect.sources import DetectDoc
from redactdesk.detect.worldnames import everyday_words, word_view
from redactdesk.lang.errors import UnsupportedLanguageError
from redactdesk.lang.groups import load_groups
from redactdesk.lang.lexicon import load_lexicon, word_list
from redactdesk.lang.occupations import faker_job_titles, feminine

CATEGORY = "OCCUPATION"
SOURCE = "gazetteer"
_SCORE = 0.7
# heads of Faker's titles and offices that are no job said alone ("general", "justice", "wales" ...)
_NO_HEADS = frozenset({"general", "justice", "crew", "runner", "visitor", "wales", "maths", "sciences", "medical",
                       "professional", "associate", "emeritus", "rep", "gov", "pres", "sen", "dr", "prof", "processor",
                       "controller", "handler", "forwarder", "vice", "prime", "chief", "deputy"})
_SUBJECTS = {"en": frozenset({"i", "he", "she", "you", "we", "they", "who",
                             # persons of case notes, reports and calls: "the patient is a retired teacher"
                             "patient", "customer", "caller", "client", "applicant", "claimant", "victim", "suspect",
                             "witness", "defendant", "plaintiff", "tenant", "resident", "employee", "member", "man",
                             "woman", "guy", "lady", "girl", "boy", "friend", "neighbour", "neighbor", "colleague",
                             "roommate", "boyfriend", "girlfriend", "fiancé", "fiance", "fiancee",
                             "pt", "pts"}),  # clinical notes' "Pt is a retired machinist"
             "es": frozenset({"yo", "él", "el", "ella", "usted", "tú", "tu"})}
_COPULAS = {"en": frozenset({"am", "is", "are", "was", "were", "be", "been", "being"}),
            "es": frozenset({"es", "era", "fue", "sea", "será"})}
# a verb or phrase after which a job is said, with no subject needed
_WORK_CUES = {
    "en": (("work", "as"), ("works", "as"), ("worked", "as"), ("working", "as"), ("job", "as"), ("career", "as"),
           ("employed", "as"), ("trained", "as"), ("training", "as"), ("qualified", "as"), ("hired", "as"),
           ("retired", "as"), ("serve", "as"), ("serves", "as"), ("served", "as"), ("serving", "as"),
           ("promoted", "to"), ("position", "of"), ("position", "as"), ("role", "of"), ("role", "as"),
           ("became",), ("become",), ("becomes",), ("becoming",), ("as", "a"), ("as", "an")),
    "es": (("soy",), ("eres",), ("somos",), ("trabajo", "de"), ("trabajo", "como"), ("trabaja", "de"),
           ("trabaja", "como"), ("trabajaba", "de"), ("trabajaba", "como"), ("trabajó", "de"),
           ("trabajó", "como"), ("trabajé", "de"), ("trabajé", "como"), ("ejerzo", "de"), ("ejerce", "de"),
           ("ejerzo", "como"), ("ejerce", "como"), ("puesto", "de"), ("cargo", "de"), ("estudié", "para"),
           ("llegó", "a", "ser")),
}
# Spanish verbs of working: "como" after one of them, further back in the clause, says the job
_WORK_STEMS = ("trabaj", "ejerc", "contrat", "emple")
_ARTICLES = {"en": frozenset({"a", "an", "the"}), "es": frozenset({"un", "una", "el", "la"})}
_LABELS = frozenset({"occupation", "profession", "job", "title", "position", "role", "ocupación", "ocupacion",
                     "profesión", "profesion", "puesto", "cargo", "oficio"})
_EDGE = ".,;:!?\"()[]{}“”«»¿¡-–—…*"
_AGE_WORDS = frozenset({"year", "years", "old", "year-old", "years-old", "y/o", "yr", "yrs", "año", "años"})
# a job said right after a name in lower-case speech, which writes no comma: the article opening it and the
# words that may follow the job ("john smith a retired teacher from ohio"; not "told mark a lawyer would call")
_SPOKEN_APPOSITION = frozenset({"a", "an", "un", "una"})
_APPOSITION_ENDS = frozenset({"in", "from", "at", "of", "for", "with", "who", "aged", "and", "based", "living",
                              "en", "de", "que", "con", "y"})
_SKIP = 2  # words between the article and a title that qualify the person, not the job ("a really good nurse")
_PERSONS = frozenset({"PERSON"})
_LIST_AND = frozenset({"and", "or", "y", "e", "o", "u"})
_STATUS = frozenset({"new", "former", "current", "acting", "interim", "retired", "late", "longtime"})
_HEAD_ENDINGS = ("teacher", "worker", "keeper", "maker", "fighter", "smith", "wright", "ologist", "ician", "iatrist")
_BARS = frozenset({"|", "-", "–", "—", "/", "·", "•", ""})  # a signature's separators ("" once edge marks go)
# a title "of" a department: "Director of Sales", "Head of Human Resources", "VP of Engineering"
_HEADS_OF_A_DEPARTMENT = frozenset({"head", "vp", "svp", "evp"})
_DEPARTMENTS = frozenset({
    "sales", "marketing", "engineering", "operations", "finance", "accounts", "hr", "human", "resources",
    "communications", "product", "products", "technology", "research", "development", "strategy", "partnerships",
    "compliance", "legal", "procurement", "logistics", "design", "security", "infrastructure", "analytics", "data",
    "people", "talent", "recruitment", "recruiting", "it", "administration", "facilities", "customer", "success",
    "support", "service", "services", "business", "growth", "risk", "audit", "investor", "relations", "public",
    "affairs", "policy", "brand", "content", "digital", "innovation", "quality", "manufacturing", "production",
    "supply", "chain", "purchasing", "training", "learning", "education", "nursing", "admissions", "and", "&"})
_GIVES_WAY = frozenset({"PERSON", "ORGANIZATION", "LOCATION", "CITY"})
_OWNERS = frozenset({"my", "our", "your", "his", "her", "their", "mi", "mis", "su", "sus", "nuestro", "nuestra"})
# a subject and its verb in one word: "she's a nurse", "I'm an engineer" (the Spanish verb says who: "soy")
_CONTRACTED = frozenset({"i'm", "im", "he's", "she's", "hes", "shes", "you're", "we're", "they're", "youre",
                         "theyre"})

# a subject with its auxiliary in one word, and the auxiliaries and adverbs between a subject and "been"/"be":
# "she's been a nurse", "I've been a teacher", "he has always been a plumber", "she will be an engineer"
_SUBJECT_AND_VERB = _CONTRACTED | frozenset(f"{p}'{v}" for p in ("i", "you", "he", "she", "we", "they")
                                            for v in ("ve", "d", "ll"))
_AUXILIARIES = frozenset({"has", "have", "had", "will", "would", "could", "might", "may", "must", "should", "also",
                          "always", "never", "once", "still", "just", "already", "not", "now"})


@functools.lru_cache(maxsize=4)
def occupation_words(language: str) -> tuple[frozenset[str], frozenset[str]]:
    """(heads, qualifiers) of the language's job titles, lower case (see the module docstring)."""
    lang = language.split("_")[0]
    try:
        lex = load_lexicon(lang)
    except UnsupportedLanguageError:  # a language without a lexicon has no occupations
        return frozenset(), frozenset()
    vocab, heads = job_vocabulary(lang)
    listed = word_list(lex, "occupations")
    offices = word_list(lex, "office_titles")
    all_heads = set(heads | listed | offices) - _NO_HEADS
    if lang == "es":  # the lists are masculine: "enfermero" -> "enfermera", "director" -> "directora"
        all_heads |= {feminine(h) for h in all_heads}
    stop = lex.stop_words
    qualifiers = (vocab | word_list(lex, "occupation_modifiers")) - stop
    return frozenset(all_heads - stop), frozenset(qualifiers)


@functools.lru_cache(maxsize=4)
def _inverted_titles(language: str) -> dict[tuple[str, ...], frozenset[tuple[str, ...]]]:
    """Faker's titles written head first, by their head's words: ("engineer",) -> {("biomedical",), ...}."""
    out: dict[tuple[str, ...], set[tuple[str, ...]]] = {}
    for title in faker_job_titles(language):
        head, sep, tail = title.partition(",")
        if sep:
            words = tuple(w.strip(_EDGE).lower() for w in tail.split())
            out.setdefault(tuple(w.strip(_EDGE).lower() for w in head.split()), set()).add(words)
    return {k: frozenset(v) for k, v in out.items()}


class _Doc:
    """Per-word facts the step reads: keys (lower case, edge punctuation off, "'s" kept), heads."""

    def __init__(self, doc: DetectDoc, heads: frozenset[str], qualifiers: frozenset[str]) -> None:
        self.doc = doc
        self.v = word_view(doc)
        self.n = len(doc.words)
        # keys keep a "'s": "she's" is she is, "a doctor's note" no one's job (no head)
        self.keys = [w.strip().replace("’", "'").strip(_EDGE).lower() for w in doc.words]
        # a compound of a trade's head: "schoolteacher", "steelworker", "shopkeeper", "cabinetmaker"
        self.head = [k in heads or (k.endswith(_HEAD_ENDINGS) and not k.endswith("'s") and any(
            k.endswith(e) and len(k) - len(e) >= 3 for e in _HEAD_ENDINGS)) for k in self.keys]
        self.reach = [h or k in _HEADS_OF_A_DEPARTMENT for h, k in zip(self.head, self.keys, strict=True)]
        self.qualifiers = qualifiers
        self.stop = doc.lex.stop_words if doc.lex else frozenset()
        self.spanish = doc.language.startswith("es")
        self.groups = load_groups(doc.language)

    def closes(self, i: int, j: int) -> bool:
        """Does the clause let a title of words [i, j) end there (its end, a comma, a function word)?"""
        v = self.v
        if j >= self.n or v.seg[j] != v.seg[i] or v.stop_after[j - 1] or v.comma_after[j - 1] or v.line_after[j - 1]:
            return True
        nxt = self.keys[j]
        if nxt.endswith("ing") and len(nxt) > 5 and nxt in everyday_words() and self._after_article(i):
            return True  # a clause said of the person goes on: "a retired machinist living with his daughter"
        return nxt in self.stop or nxt in _AGE_WORDS or nxt == "aged" or not any(c.isalpha() for c in nxt) or (
            self.groups is not None and (v.keys[j],) in self.groups.by_key)  # "una enfermera filipina"

    def _after_article(self, i: int) -> bool:
        """Is "a"/"an" said before word ``i``, with only an age or qualifiers between ("a 74 y/o retired")?"""
        k = i - 1
        while k >= 0 and i - k <= 5 and (self.keys[k] in _AGE_WORDS or self.keys[k][:1].isdigit()
                                         or self.keys[k] in self.qualifiers or self.keys[k] in _STATUS):
            k -= 1
        return k >= 0 and self.keys[k] in ("a", "an")

    def title_from(self, p: int, skip: int = _SKIP) -> tuple[int, int] | None:
        """The job title that starts at word ``p`` or up to ``skip`` words after it: (start, end) or None."""
        n, v, keys = self.n, self.v, self.keys
        if p >= n:
            return None
        if self.spanish:  # the head first, what qualifies it after: "agente de seguros", "enfermera jefa"
            if not self.head[p]:
                return None
            j = p + 1
            while j < n and v.seg[j] == v.seg[p] and not v.comma_after[j - 1] and not v.stop_after[j - 1]:
                if keys[j] in ("de", "del") and j + 1 < n and (keys[j + 1] in self.qualifiers or self.head[j + 1]):
                    j += 2
                elif (keys[j] in self.qualifiers and keys[j] not in ("de", "del")) or self.head[j]:
                    j += 1
                else:
                    break
            return (p, j) if self.closes(p, j) else None
        q = p  # an age says who, not what: "a 42 year old software engineer"
        while skip and q + 1 < n and v.seg[q] == v.seg[p] and (keys[q][:1].isdigit() or keys[q] in _AGE_WORDS) and (
                keys[q + 1] in _AGE_WORDS or keys[q + 1][:1].isdigit()):
            q += 1
        if q > p and keys[q] in _AGE_WORDS:
            p = q + 1
        for start in range(p, min(n, p + skip + 1)):
            if start >= n or v.seg[start] != v.seg[p] or (
                    start > p and (keys[start - 1] in self.stop or v.comma_after[start - 1])):
                return None
            k, last_head = start, -1
            while k < n and v.seg[k] == v.seg[start]:
                key = keys[k]
                if key in self.stop or not (key in self.qualifiers or self.head[k]):
                    break
                if self.head[k]:
                    last_head = k
                k += 1
                if v.comma_after[k - 1] or v.stop_after[k - 1] or v.line_after[k - 1]:
                    break
            if last_head < 0 and k - 1 >= start and keys[k - 1] in _HEADS_OF_A_DEPARTMENT:
                last_head = k - 1 if self.department_after(k) > k else -1  # "Head of Marketing"
            if last_head >= 0:
                end = self.department_after(last_head + 1)  # "Director of Sales", "VP of Engineering"
                if not self.closes(start, end):
                    return None
                return start, self.inverted_tail(start, end)
        return None

    def inverted_tail(self, start: int, end: int) -> int:
        """The end of a title written head first, as job lists write them ("Engineer, biomedical",
        "Accountant, chartered certified"): the qualifier after the comma joins the title."""
        v, keys = self.v, self.keys
        if end >= self.n or not v.comma_after[end - 1] or v.seg[end] != v.seg[start]:
            return end
        tails = _inverted_titles(self.doc.language)
        for s in range(start, end):
            after = tails.get(tuple(keys[s:end]))
            if not after:
                continue
            for m in range(min(max(len(a) for a in after), self.n - end), 0, -1):
                if tuple(keys[end:end + m]) in after and all(v.seg[k] == v.seg[start] for k in range(end, end + m)) \
                        and not any(v.comma_after[k] or v.stop_after[k] for k in range(end, end + m - 1)):
                    return end + m
        return end

    def department_after(self, j: int) -> int:
        """The end of "of" + a department's name after a title ending before word ``j`` (``j`` if none)."""
        n, keys, v = self.n, self.keys, self.v
        if j + 1 >= n or keys[j] != "of" or v.comma_after[j - 1] or v.seg[j] != v.seg[j - 1]:
            return j
        k = j + 1
        while k < n and k < j + 4 and keys[k] in _DEPARTMENTS and v.seg[k] == v.seg[j] and (
                not v.cased or v.cap[k] or keys[k] in ("and", "&")):
            k += 1
            if v.comma_after[k - 1] or v.stop_after[k - 1]:
                break
        while k > j + 1 and keys[k - 1] in ("and", "&"):
            k -= 1
        return k if k > j + 1 else j


def _groups_and_job(doc: DetectDoc, s: Span, a: int, b: int) -> bool:
    """Is ``s`` a suggested organisation of group words (nationalities, religions) and then the job title
    [a, b) ("Catholic Filipino nurse")?"""
    if s.category != "ORGANIZATION" or s.status != SpanStatus.SUGGESTED or DENY_SOURCE in s.sources or not (
            s.start_word < a and s.end_word == b):
        return False
    groups = load_groups(doc.language)
    keys = word_view(doc).keys
    return groups is not None and all((keys[m],) in groups.by_key for m in range(s.start_word, a))


def _after_cue(keys: list[str], i: int, cues) -> bool:
    """Does a work cue end right before word ``i`` ("works as | a nurse")?"""
    return any(i >= len(cue) and tuple(keys[i - len(cue):i]) == cue for cue in cues)


def occupations_of_people(doc: DetectDoc, spans: list[Span]) -> list[Span]:
    """The spans with an OCCUPATION span for each job title said of someone (module docstring)."""
    lang = doc.language.split("_")[0]
    heads, qualifiers = occupation_words(lang)
    if not heads or not doc.words or doc.lex is None:
        return spans
    d = _Doc(doc, heads, qualifiers)
    if not any(d.reach):
        return spans
    v, n, keys = d.v, d.n, d.keys
    kin = word_list(doc.lex, "kin_words")
    articles = _ARTICLES.get(lang, frozenset())
    copulas = _COPULAS.get(lang, frozenset())
    subjects = _SUBJECTS.get(lang, frozenset())
    cues = _WORK_CUES.get(lang, ())
    person_ends = {s.end_word for s in spans if s.category in _PERSONS}
    # "Margaret O'Neil, 72, retired schoolteacher": an age set off after a name is still about the person
    person_ends |= {s.end_word for s in spans if s.category == "AGE" and s.start_word in person_ends}
    person_starts = {s.start_word for s in spans if s.category in _PERSONS}
    titles = honorifics()

    def title_at(p: int, skip: int = _SKIP) -> tuple[int, int] | None:
        if p < n and keys[p] in articles:
            p += 1
        return d.title_from(p, skip)

    def person_at(k: int) -> bool:  # a pronoun, a kin word, a name's last word or a listed name ("Tobi is a nurse")
        if k >= 0 and keys[k] == "who":  # "my sister, who is a nurse"; not the question "who is president"
            return k > 0 and (v.comma_after[k - 1] or keys[k - 1] in kin or k in person_ends)
        return k >= 0 and (keys[k] in subjects or keys[k] in kin or k + 1 in person_ends or listed_name_word(doc, k))

    def person_before_verb(k: int) -> bool:  # "Anna is", "she has always been", "I've been", "he'd been"
        while k >= 0 and keys[k] in _AUXILIARIES:
            k -= 1
        return person_at(k) or (k >= 0 and keys[k] in _SUBJECT_AND_VERB)

    found: list[tuple[int, int, str]] = []
    for i in range(n):
        if not any(d.reach[i:i + _SKIP + 5]):
            continue  # no head in reach: nothing to find from here
        prev = keys[i - 1] if i else ""
        got, why = None, ""
        if i and v.seg[i - 1] == v.seg[i] and _after_cue(keys, i, cues):
            got, why = title_at(i), "a job said after a work cue"
        elif d.spanish and prev == "como" and any(keys[m].startswith(_WORK_STEMS) for m in range(max(0, i - 7), i - 1)):
            got, why = title_at(i), "a job said after a work cue"  # "trabaja en telefónica como ingeniero"
        elif prev in _CONTRACTED:
            got, why = title_at(i), "a job said of someone"  # "she's a nurse"
        elif d.spanish and prev in copulas and keys[i] not in articles and d.head[i]:
            # "es profesor de la universidad": Spanish drops the subject, and a job said with "ser" takes no
            # article; the bare job is said of someone
            got, why = title_at(i, 0), "a job said of someone"
        elif prev in copulas and person_before_verb(i - 2):
            got, why = title_at(i), "a job said of someone"  # "my dad was a plumber", "he's been a nurse"
        elif i and (v.comma_after[i - 1] or v.line_after[i - 1]) and (
                i in person_ends or keys[i - 1] in kin) and not (doc.starts is not None and not v.line_after[i - 1]):
            # "Priya Raman, CFO,", "my nephew, a registered nurse," (a timed transcript's commas are guesses)
            got, why = title_at(i), "a job title set off after a name"
        elif i > 1 and keys[i - 1] in _BARS and i - 1 in person_ends and doc.starts is None:
            # a signature's bar: "Dr. Laura Méndez | Chief Medical Officer | Northwind Health"
            got, why = title_at(i, 0), "a job title set off after a name"
        elif i and v.comma_after[i - 1] and keys[i] in ("a", "an") and doc.starts is None:
            t = title_at(i)  # "The patient, a retired firefighter aged 67,": set off by commas
            if t and (t[1] >= n or v.comma_after[t[1] - 1] or v.stop_after[t[1] - 1] or keys[t[1]] in _AGE_WORDS
                      or keys[t[1]] in ("aged", "who", "with")):
                got, why = t, "a job title set off between commas"
        elif i in person_ends and keys[i] in _SPOKEN_APPOSITION and not v.cased:
            t = title_at(i)  # said, with no comma: "pierre dubois a french diplomat in nineteen sixty two"
            if t and (t[1] >= n or v.seg[t[1]] != v.seg[i] or keys[t[1]] in _APPOSITION_ENDS):
                got, why = t, "a job title said right after a name"
        elif prev in _LABELS and doc.words[i - 1].rstrip().endswith(":"):
            got, why = title_at(i, 0), "a job title after a form's label"
        owner = prev in _OWNERS or (prev in _STATUS and i > 1 and keys[i - 2] in _OWNERS | articles)  # "our new intern"
        if got is None and not d.spanish and (i == 0 or v.sent_start[i] or owner or prev in articles or (
                v.cased and v.cap[i] and not v.cap[i - 1])):
            # right before a name: "Chief Executive Officer Tim Cook", "our CFO, Priya Raman", "the plumber john"
            k = i
            while k < n and v.seg[k] == v.seg[i] and (keys[k] in qualifiers or d.head[k]) and keys[k] not in d.stop:
                k += 1
                if v.comma_after[k - 1]:
                    break
            titled = k - 1 > i and keys[k - 1] in titles and d.head[k - 2] and (
                k in person_starts or k - 1 in person_starts)
            if titled:
                k -= 1  # "my therapist doctor okafor", "my therapist Dr. Okafor": the title is the name's
            if k > i and d.head[k - 1] and (k in person_starts or titled) and (
                    not v.cased or all(v.cap[m] or v.upper[m] for m in range(i, k)) or owner or v.sent_start[i]):
                # (a sentence opens with the job as news writes it: "Chemical engineer John Reyes will lead")
                got, why = (i, k), "a job title before a name"
        if got is None and d.spanish and (i == 0 or v.sent_start[i] or owner or prev in articles):
            t = d.title_from(i, 0)  # "El director general, Antonio Ruiz, firmó": the head first, then the name
            if t and t[1] in person_starts:
                got, why = t, "a job title before a name"
        if got is not None:
            found.append((got[0], got[1], why))
            # a list of jobs said of the same person: "a guitarist, songwriter and composer"
            k = got[1]
            while k < n and v.seg[k] == v.seg[got[0]] and not v.stop_after[k - 1]:
                p = k + 1 if keys[k] in _LIST_AND else k if v.comma_after[k - 1] else -1
                if p < 0 or p >= n:
                    break
                if keys[p] in _LIST_AND and v.comma_after[k - 1]:
                    p += 1  # "writer, and poet"
                more = title_at(p, 0) if p < n else None
                if more is None:
                    break
                found.append((more[0], more[1], why))
                k = more[1]
    if not found:
        return spans
    held: list[int | None] = [None] * n
    for idx, s in enumerate(spans):
        for k in range(s.start_word, min(n, s.end_word)):
            held[k] = idx
    drop: set[int] = set()
    added = []
    last_end = -1
    for a, b, why in sorted(found):
        if a < last_end:
            continue
        over = {held[k] for k in range(a, b) if held[k] is not None}
        # a group or a place said before the job is its own item: "an English actor", "a Google engineer"
        lead = [x for x in over if spans[x].category not in _GIVES_WAY and spans[x].start_word <= a < spans[x].end_word]
        if lead:
            a = max(spans[x].end_word for x in lead)
            if a >= b or not any(d.head[a:b]):
                continue
            over = {held[k] for k in range(a, b) if held[k] is not None}
        # a tagger's organisation over the groups said before the job and the job: "a Catholic Filipino nurse"
        # is two groups and a job
        groups = {x for x in over if _groups_and_job(doc, spans[x], a, b)}
        # a name or organisation that is the title itself gives way ("works as a Water Engineer"), also with a
        # form's label or an article the tagger read into it ("Occupation: Surveyor")
        if any(spans[x].category not in _GIVES_WAY or spans[x].end_word > b or spans[x].status != SpanStatus.SUGGESTED
               or any(keys[m] not in _LABELS and keys[m] not in articles for m in range(spans[x].start_word, a))
               for x in over - groups):
            continue
        drop |= over
        added.extend(Span(m, m + 1, "NRP", SpanStatus.SUGGESTED, _SCORE, (SOURCE,), "a group said before a job")
                     for x in groups for m in range(spans[x].start_word, a))
        added.append(Span(a, b, CATEGORY, SpanStatus.SUGGESTED, _SCORE, (SOURCE,), why))
        last_end = b
        if d.spanish and b < n and held[b] is None and d.groups is not None and (v.keys[b],) in d.groups.by_key:
            # "una enfermera filipina": the group said after the job is said of the same person
            added.append(Span(b, b + 1, "NRP", SpanStatus.SUGGESTED, _SCORE, (SOURCE,), "a group said after a job"))
            last_end = b + 1
    if not added:
        return spans
    kept = [s for x, s in enumerate(spans) if x not in drop]
    # where a job is done: "a nurse at kaiser permanente" — a person read there is the employer (one works
    # "for" a person, "at" a place or a firm)
    job_ends = {s.end_word for s in added}
    for k, s in enumerate(kept):
        if s.category == "PERSON" and s.start_word - 1 in job_ends and keys[s.start_word - 1] in ("at", "en") and (
                s.status == SpanStatus.SUGGESTED and DENY_SOURCE not in s.sources):
            kept[k] = dataclasses.replace(s, category="ORGANIZATION",
                                          reason="where a job is done, after the job and 'at'")
    return sorted(kept + added, key=lambda s: (s.start_word, s.end_word))
