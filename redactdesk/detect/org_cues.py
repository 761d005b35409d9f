"""Organisations named by what is said around them: "the stock price of apple", "amd stock prices",
"i work for olive garden", "we bank with chase".

Said aloud, a company's name has no capital and is often an everyday word ("apple", "target",
"chase"), so neither the lists nor the capitals find it; the words around it do. The lexicon holds
three kinds of cue (``hotwords``):

- ``org_cue_market_before`` / ``org_cue_market_after``: what a share price is quoted for is a
  company ("the stock price for tesco", "tell me amd stock prices"). Before the cue the name must be
  a word no everyday list holds or a short one, a ticker ("amd"); "the opening stock price" and
  "high stock price" are no company (``org_cue_generic`` holds such words). After it, any word.
  These hits stand alone in the vote.
- ``org_cue_greeting``: an agent's greeting names the company ("thank you for calling deal telecom",
  "you've reached ...", "ha llamado a ..."); a department is none ("you've reached customer
  service": ``org_cue_generic``). These stand alone too.
- ``org_cue_complaint``: whom a complaint or a public message goes to ("tweet a complaint to
  samsung", "send a tweet to dominoes", "file a complaint against comcast"): a company, standing
  alone, unless the words name someone (a listed first name, a job, a kin word: "complain to the
  manager").
- ``org_cue_caller``: whom an agent calls for ("this is dave calling from british gas", "calling on
  behalf of octopus energy"): a company unless the words name someone (:func:`_someone`) or a
  place of the list ("calling from spain"); it stands alone when a word of it is on no everyday list
  or it ends in a generic organisation word ("gas", "energy": structures.yaml's ``org_after``),
  else it needs a second source ("calling from upstairs").
- ``org_cue_agent`` and ``org_cue_agent_from``: an agent names themself and the company ("le
  atiende carmen de movistar", "this is dave from british gas"): after the cue, a listed first name
  (and perhaps a second), then "de"/"from", the company: a person, a listed place, a surname's
  particle ("de la torre") or a department (``org_cue_generic``: "from accounts") is none; a brand on
  the everyday lists stands alone there.
- ``org_cue_employer``: where someone works, banks or studies ("i work for", "employed by", "we bank
  with", "graduated from").
  Often no name follows ("work for a bank", "work at night", "work for the council": the lexicon's
  ``org_cue_generic`` words and every function word end the walk). The hit stands alone only when
  a word of it is on no everyday list; otherwise it needs a second source in the vote (the
  transcript tagger seeing an organisation there too), so "i work for apple" stands and "i work
  for fun" does not.

An employer is a quasi-identifier: with a town and a job title it narrows a caller to a handful of
people.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from redactdesk.detect.sources import DetectDoc, Hit
from redactdesk.lang.lexicon import Lexicon, context_words, word_list

SOURCE = "patterns"
MAX_WORDS = 3  # "bank of new york" is longer, but a longer walk mostly runs into the rest of the sentence
BEFORE_WORDS = 2  # words a name may have before an after-cue ("coca cola stock")
TICKER_LETTERS = 4  # a short word before an after-cue is a ticker ("amd stock prices", "ibm shares")


@functools.lru_cache(maxsize=4)
def _generic_words(lex: Lexicon) -> frozenset[str]:
    return frozenset(w for ph in lex.hot("org_cue_generic") for w in ph)


@functools.lru_cache(maxsize=4)
def _walk_stops(lex: Lexicon) -> frozenset[str]:
    """Words that end an employer said after its cue: when ("a shift at kroger tonight") and what is
    said next ("my manager at walmart said no": the lexicon's ``name_tail_verbs``)."""
    from redactdesk.detect.relative_dates import day_words

    return (frozenset(word_list(lex, "employer_stop_words")) | frozenset(word_list(lex, "name_tail_verbs"))
            | day_words(lex) | frozenset(lex.weekdays))


def _someone(doc: DetectDoc, a: int, b: int) -> bool:
    """Do words ``[a, b)`` name a person rather than a company: a first name of the lists that is no
    everyday word ("tweet to john"), a job or an office ("complain to the manager"), a kin word?"""
    from redactdesk.detect.occupations import job_vocabulary
    from redactdesk.detect.worldnames import load_world_names
    from redactdesk.lang.folding import fold_key

    names = load_world_names()
    heads = job_vocabulary(doc.language)[1]
    kin = word_list(doc.lex, "kin_words") if doc.lex is not None else frozenset()
    first = fold_key(doc.words[a])
    return (names.is_first(first) and not names.is_common(first)) or any(
        w in heads or w.removesuffix("s") in heads or w in kin for w in doc.lower[a:b])


def _listed_place(doc: DetectDoc, a: int, b: int) -> bool:
    """Are words ``[a, b)`` a place of the list, whole ("spain", "new york")?"""
    from redactdesk.detect.places import load_places
    from redactdesk.detect.worldnames import word_view

    hit = load_places().match(word_view(doc).keys, a, b)
    return hit is not None and a + hit[0] == b


def _ends_generic(doc: DetectDoc, b: int) -> bool:
    """Does the name end in a generic organisation word ("british gas", "octopus energy")?"""
    from redactdesk.detect.worldnames import word_set, word_view

    return word_view(doc).keys[b - 1] in word_set("org_after")


def _agents_company(doc: DetectDoc) -> list[tuple[str, tuple[str, ...], int]]:
    """Where an agent's company starts after their name: "le atiende carmen de | movistar", "this is
    dave from | british gas" — the lexicon's ``org_cue_agent``, one or two listed first names, then a
    word of ``org_cue_agent_from``; not before a surname's particle ("carmen de la torre"). (cue key,
    cue words, where the company starts)."""
    from redactdesk.detect.worldnames import load_world_names, word_set
    from redactdesk.lang.folding import fold_key

    lex = doc.lex
    if lex is None or not lex.hot("org_cue_agent"):
        return []
    names, particles = load_world_names(), word_set("name_particles")
    froms = {ph[0] for ph in lex.hot("org_cue_agent_from") if len(ph) == 1}
    lower, n = doc.lower, len(doc.lower)
    out = []
    for ph in doc.said("org_cue_agent"):
        for w in doc.occurrences(ph):
            k = w + len(ph)
            given = 0
            while k + given < n and given < 2 and names.is_first(fold_key(lower[k + given])) and (
                    k + given not in doc.breaks):
                given += 1
            f = k + given
            if given and f + 1 < n and lower[f] in froms and f + 1 not in doc.breaks and lower[f + 1] not in particles:
                out.append(("org_cue_agent", (*ph, *lower[k:f + 1]), f + 1))
    return out


def _jobs_at(doc: DetectDoc) -> list[tuple[str, tuple[str, ...], int]]:
    """Employer cues made of a job and "at" ("a chartered accountant at Hernandez-Hoffman", "nurse at
    st mary's"): (cue key, cue words, where the name starts), as the lexicon's cues give them."""
    from redactdesk.detect.occupations import job_and_at_before

    return [("org_cue_employer", (doc.lower[w - 2], doc.lower[w - 1]), w) for w in range(2, len(doc.lower))
            if w - 1 not in doc.breaks and job_and_at_before(doc, w)]


def find_organisations_by_cue(doc: DetectDoc, free: Callable[[int, int], bool]) -> list[Hit]:
    """ORGANIZATION hits after and before the lexicon's organisation cues; ``free(w0, w1)`` says
    whether no earlier pass has claimed the words."""
    from redactdesk.detect.tagger import distinctive
    from redactdesk.detect.worldnames import word_view

    lex = doc.lex
    if lex is None:
        return []
    lower = doc.lower
    if not any(lex.hot(k) for k in ("org_cue_market_before", "org_cue_market_after", "org_cue_greeting",
                                    "org_cue_employer", "org_cue_complaint", "org_cue_caller")):
        return []
    stop = lex.stop_words
    generic = _generic_words(lex)
    context = context_words(lex)
    starts = set(doc.breaks)
    view = word_view(doc)
    # written text: a comma, a clause's end or a line's ends the name ("works at Boeing, he's been ...")
    ends = [c or e for c, e in zip(view.comma_after, view.stop_after, strict=True)]
    walk_stops = _walk_stops(lex)
    articles = frozenset(word_list(lex, "employer_articles")) or frozenset({"the"})
    sure = word_list(lex, "org_cue_sure")

    def name_word(k: int) -> bool:
        w = lower[k]
        if "'" in w and (w.split("'")[0] in stop or w.endswith("n't")):
            return False  # a pronoun's or a verb's contraction: "united airlines | i'm angry"
        return (w.replace("'", "").replace(".", "").replace("-", "").isalpha() and w not in stop and w not in context
                and w not in generic and w not in walk_stops and k not in starts)

    hits: list[Hit] = []
    taken: set[int] = set()
    cased = doc.cased()

    def add(a: int, b: int, strong: bool, reason: str) -> None:
        if b > a and not taken.intersection(range(a, b)) and free(a, b):
            taken.update(range(a, b))
            hits.append(Hit(a, b, "ORGANIZATION", 0.75 if strong else 0.55, SOURCE, reason, strong))

    cues = [(key, ph, w + len(ph)) for key in ("org_cue_market_before", "org_cue_greeting", "org_cue_employer",
                                               "org_cue_complaint", "org_cue_caller")
            for ph in doc.said(key) for w in doc.occurrences(ph)]
    cues += _jobs_at(doc)
    cues += _agents_company(doc)
    for key, ph, a in cues:
        if a < len(lower) and lower[a] in articles and a + 1 < len(lower) and a + 1 not in starts:
            a += 1  # "work for the bbc", "trabajo en el corte inglés"
        b = a
        capital = cased and a < len(lower) and doc.words[a][:1].isupper()
        while b < len(lower) and b - a < MAX_WORDS and name_word(b) and (b == a or b not in starts) and (
                b == a or not capital or doc.words[b][:1].isupper()):
            b += 1  # in writing a capitalised name ends at the first small word ("Chick-fil-A lets gooo")
            if ends[b - 1]:
                break
        if b == a:
            continue
        # a firm of partners said: "guerrero walker and rowe", "marks and spencer"
        if (b + 1 < len(lower) and not ends[b - 1] and lower[b] in ("and", "&") and name_word(b + 1)
                and b + 1 not in starts):
            b += 2
        if key in ("org_cue_market_before", "org_cue_greeting"):
            add(a, b, True, f"company after '{' '.join(ph)}'")
        elif key == "org_cue_complaint":  # "complain to my manager", "tweet to john": someone
            if not _someone(doc, a, b):
                add(a, b, True, f"company a complaint goes to, after '{' '.join(ph)}'")
        elif key in ("org_cue_caller", "org_cue_agent"):  # "on behalf of mr smith", "from spain": no company
            # after an agent's name a brand on the everyday lists stands too ("le atiende carmen de
            # movistar"): a department ends the walk ("soy laura de atención al cliente")
            if not _someone(doc, a, b) and not _listed_place(doc, a, b):
                add(a, b, key == "org_cue_agent" or distinctive(doc.words[a:b], lex.language) or _ends_generic(doc, b),
                    f"company an agent calls for, after '{' '.join(ph)}'")
        else:  # in cased writing a capital after the cue is as telling ("Trabajo en Telefónica"),
            # and anywhere a word in capitals ("graduating from UCLA!!" in a lower-case tweet); after
            # a cue of being someone's customer (the lexicon's ``org_cue_sure``: "soy cliente de
            # movistar", "a customer of vodafone") a name word is the firm, brand names being on the
            # everyday-word lists
            add(a, b, " ".join(ph) in sure or distinctive(doc.words[a:b], lex.language) or (cased and all(
                w[:1].isupper() for w in doc.words[a:b] if w.lower() not in ("and", "&", "y", "e"))) or any(
                sum(c.isalpha() for c in w) >= 2 and w.isupper() for w in doc.words[a:b]),
                f"employer after '{' '.join(ph)}'")
    for ph in doc.said("org_cue_market_after"):
        for w in doc.occurrences(ph):
            a = w
            while a > 0 and w - a < BEFORE_WORDS and name_word(a - 1) and a not in starts and not ends[a - 1]:
                a -= 1
            while a < w and not (len(lower[a]) <= TICKER_LETTERS or distinctive(doc.words[a:a + 1], lex.language)):
                a += 1  # "the opening stock price": an everyday word before the cue is no company
            add(a, w, True, f"company before '{' '.join(ph)}'")
    return hits
