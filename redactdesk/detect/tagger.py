"""The transcript tagger as a detection source: names, places and organisations in ASR text.

A statistical NER trained on cased, punctuated text rarely tags "my name is maria lopez" — ASR
writes lower case with no punctuation. This source runs the project's own tagger
(``resources/models/tagger_<lang>``, trained by ``redactdesk.learn.train_tagger`` on public NER text
turned into spoken form) over each turn's words cleaned exactly as at training time
(:func:`clean_token`), so written and spoken input read the same. Words
that clean to nothing (punctuation) are skipped and the entity's word range maps back over them.

Cased writing (:func:`~redactdesk.detect.sources.is_cased`: Whisper's transcripts, typed text)
goes to a second model when one is bundled (``tagger_<lang>_cased``, ``train_tagger --cased``: the
same public sentences as written, with their case), which reads the capitals a lower-case model
throws away. On the public written dev sets
(``benchmarks/bench_detect_public.py``) it took direct / quasi recall from 91.4 / 67.6 % to 92.3 /
72.4 % at a character precision of 89.1 % (was 88.2 %); running both models on cased text found a
little more (93.6 / 75.0 %) at 86.2 % precision and a quarter fewer words per second.

The contextual tagger (:mod:`redactdesk.detect.encoder`: MiniLM fine-tuned on the same public text,
spoken and written, on ONNX Runtime) reads every text beside these; it finds names the spaCy models
miss and they find some it misses (``TaggerSource._backends`` has the measurements).

Without a model for the language (Spanish today) the source returns nothing.
"""

from __future__ import annotations

import functools
import logging
import re
from collections.abc import Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from redactdesk.detect.encoder import load_encoder
from redactdesk.detect.groups import group_reading
from redactdesk.detect.normalize import letter_joiners
from redactdesk.detect.places import town_and_state_code
from redactdesk.detect.quotations import CLOSING_QUOTES, OPENING_QUOTES, QUOTE_CLOSED_AFTER_PUNCTUATION
from redactdesk.detect.relative_dates import day_words
from redactdesk.detect.sources import DetectDoc, Hit, check_params
from redactdesk.detect.spoken_handles import handle_word
from redactdesk.lang.digits import NUMBER_WORDS
from redactdesk.lang.lexicon import Lexicon, context_words, word_list
from redactdesk.lang.word_vectors import fill_vectors

log = logging.getLogger(__name__)

SOURCE = "tagger"
LABELS = {"PERSON": "PERSON", "LOCATION": "LOCATION", "ORGANIZATION": "ORGANIZATION"}
SCORES = {"PERSON": 0.8, "LOCATION": 0.6, "ORGANIZATION": 0.6, "NRP": 0.6}
# an organisation stands alone only when short and led by a distinctive word: the tagger takes
# whole commands for brands ("order me chinese food")
STRONG_CATEGORIES = frozenset({"PERSON", "LOCATION"})
MAX_WORDS = 120  # a turn longer than this is tagged in pieces (the model saw sentences)
# the contextual tagger's hits stand alone in the vote from this mean tag probability on
ENCODER_ALONE: dict[str, dict[str, float]] = {
    "distinctive": {"PERSON": 0.0, "LOCATION": 0.0, "ORGANIZATION": 0.0},
    "everyday": {"PERSON": 0.5, "LOCATION": 0.8, "ORGANIZATION": 0.9},
}
# ... and from this one when the spaCy tagger found the same kind of item over it. Everyday-word
# organisations at 0.8-0.9 were a third right alone ("differential geometry", "this time"); needing
# the spaCy tagger's agreement there took the public dev sets' character precision from 85.4 to
# 86.6 % written (Presidio 86.6 %) and 85.4 to 86.6 % spoken, for quasi recall 85.4 -> 85.0 % and
# 79.4 -> 78.4 % (0.9 alone without the agreement rule: 84.3 / 75.6 %; benchmarks/bench_detect_public.py)
ENCODER_WITH_SPACY: dict[str, dict[str, float]] = {
    "distinctive": {},
    "everyday": {"ORGANIZATION": 0.8},
}


CASED_SUFFIX = "_cased"
# words between a record's fields ("/" is left: "electro / synthpop", "4 / 22 / 2014" in tokenised text)
_FIELD_SEPARATORS = frozenset({"|", "||", "¦", "•", "·", ";"})


def model_dir(language: str) -> Path:
    """Where the tagger for ``language`` lives; ``"en_cased"`` names the one for cased writing."""
    from redactdesk.resources import resource

    return resource("models", f"tagger_{language}")


@functools.lru_cache(maxsize=4)
def load_tagger(language: str) -> Any | None:
    """The tagger pipeline for ``language`` (cached), or None when none is bundled."""
    path = model_dir(language)
    if not (path / "meta.json").exists():
        return None
    from redactdesk.lang import spacy_pipelines

    try:
        return spacy_pipelines.load(path)
    except Exception as exc:  # noqa: BLE001 - a damaged model disables the source, loudly, once
        log.warning("the transcript tagger in %s cannot be loaded (%s); the source is off", path, type(exc).__name__)
        return None


_EDGE = re.compile(r"^[^\w@']+|[^\w@']+$")


def clean_token(word: str, keep_case: bool = False) -> str:
    """A word as the tagger sees it — the same rule at training and at detection time: lower case
    (unless ``keep_case``: the tagger for cased writing), punctuation stripped from both edges
    (apostrophes inside words kept)."""
    return _EDGE.sub("", word if keep_case else word.lower()).strip("'")


_POSSESSIVE = re.compile(r"(.{2,})['’]s")


def possessor(word: str, language: str) -> str | None:
    """The name in an English possessive ("kowalczyk's" -> "kowalczyk"), None for other words and
    for contractions of function words ("it's", "that's"). The training text (WikiANN) writes the
    possessive apart ("putin 's"), so the tagger reads "kowalczyk's" as "kowalczyk s": names
    written spoken 84.2 -> 84.8 % direct recall, written 92.3 -> 93.1 %
    (``benchmarks/bench_detect_public.py``; dropping the "s" instead: 84.7 / 92.9 %)."""
    m = _POSSESSIVE.fullmatch(word)
    if m is None or language != "en" or m.group(1).lower() in _function_words(language, keep_numbers=False):
        return None
    return m.group(1)


def _pieces(doc: DetectDoc, keep_case: bool = False, limit: int | None = MAX_WORDS) -> list[tuple[list[str], list[int]]]:
    """(cleaned words, their word indices) per turn and per line of written text (a form's "Name:"
    line, a signature's name above its firm: no item runs on into the next line), long ones cut into
    pieces of ``limit`` words."""
    bounds = [0, *sorted({b for b in (*doc.breaks, *doc.lines) if 0 < b < len(doc.words)}), len(doc.words)]
    out = []
    for a, b in zip(bounds, bounds[1:], strict=False):
        words, idx = [], []
        for i in range(a, b):
            if doc.words[i].strip() in _FIELD_SEPARATORS and words:
                out.append((words, idx))  # "Driver: Tomasz | Plate: ...": a field ends at its separator
                words, idx = [], []
                continue
            w = clean_token(doc.words[i], keep_case)
            if w:
                stem = possessor(w, doc.language)
                if stem:  # as the training text has it: the possessive's "s" its own word
                    words += [stem, "s"]
                    idx += [i, i]
                else:
                    words.append(w)
                    idx.append(i)
                if limit is not None and len(words) >= limit:
                    out.append((words, idx))
                    words, idx = [], []
        if words:
            out.append((words, idx))
    return out


def _first_name_in(doc: DetectDoc) -> bool:
    """Does a word of ``doc`` (no function word) stand on the first-name list, everyday or not ("jo", "mark")?"""
    from redactdesk.detect.worldnames import load_world_names
    from redactdesk.lang.folding import fold_key

    names = load_world_names()
    stop = doc.lex.stop_words if doc.lex is not None else frozenset()
    return any(w not in stop and names.is_first(fold_key(w)) for w in doc.lower)


# a written word of capitals and digits ("AB12", "S530"): a code's part
_CODE_WORD = re.compile(r"(?=[A-Z-]*\d)(?=[\d-]*[A-Z])[A-Z\d][A-Z\d-]*[A-Z\d]")  # "AB12", "BL-HC-17"


def distinctive(words: Sequence[str], language: str) -> bool:
    """Does a found stretch hold a word that is no everyday word — a listed name or place, or a
    word no word list knows ("adeyemi")? A stretch of everyday words ("delete", "define framework")
    is what the tagger gets wrong most: it then needs a second source in the vote."""
    from redactdesk.detect.worldnames import everyday_words, load_world_names
    from redactdesk.lang.folding import fold_key
    from redactdesk.lang.lexicon import load_lexicon

    names, everyday = load_world_names(), everyday_words()
    stop = load_lexicon(language).stop_words
    for w in (part for word in words for part in word.split("-")):  # "Carter-Thompson": each part
        key = fold_key(w)
        if len(key) < 2 or not key.isalpha() or w.lower() in stop:
            continue
        if names.is_plain_name(key):
            return True
        if key not in everyday and not names.is_name(key) and not any(stem in everyday for stem in _stems(key)):
            return True
    return False


def _stems(key: str) -> tuple[str, ...]:
    """What an English inflected form may come of: "gossiping" -> "gossip", "availables" ->
    "available", "celebrities" -> "celebrity", "stopped" -> "stop". The everyday list holds mostly
    base forms, and an unlisted inflection read as distinctive let the tagger's organisations of
    everyday words stand alone ("gossiping about celebrities"). A listed name never gets here. SLURP
    devel odd ids: character precision 82.3 -> 83.1 %, quasi recall 86.5 -> 86.2 % (a brand that is a
    plural, "dominoes"); names spoken precision 86.8 -> 86.9 % (``benchmarks/bench_detect_public.py``)."""
    if len(key) < 5:
        return ()
    out: list[str] = []
    if key.endswith("ies"):
        out.append(key[:-3] + "y")
    elif key.endswith("es"):
        out += [key[:-2], key[:-1]]
    elif key.endswith("s") and not key.endswith("ss"):
        out.append(key[:-1])
    for suffix in ("ing", "ed"):
        if key.endswith(suffix) and len(key) - len(suffix) >= 3:
            base = key[:-len(suffix)]
            out += [base, base + "e"]
            if len(base) > 3 and base[-1] == base[-2]:
                out.append(base[:-1])  # "stopped", "running"
            if base.endswith("i"):
                out.append(base[:-1] + "y")  # "carried"
    return tuple(out)


@functools.lru_cache(maxsize=8)
def _function_words(language: str, keep_numbers: bool) -> frozenset[str]:
    """The lexicon's stop words (without the number words when ``keep_numbers``), built once."""
    from redactdesk.lang.digits import NUMBER_WORDS
    from redactdesk.lang.lexicon import load_lexicon

    stop = load_lexicon(language).stop_words
    return stop - NUMBER_WORDS.get(language, frozenset()) if keep_numbers else stop


def trim_function_words(words: Sequence[str], start: int, end: int, language: str) -> tuple[int, int]:
    """The tagger's stretch without function words at its end: a name does not end with "thanks"
    or "the" ("... r as in robert thanks"). Number words and single letters stay (a birth year said
    with a name, "nicholas i", "stephen g"); so does a leading "at" (a handle said aloud)."""
    stop = _function_words(language, keep_numbers=True)
    while end > start + 1 and len(words[end - 1]) > 1 and words[end - 1].lower() in stop:
        end -= 1
    return start, end


def _within_sentences(doc: DetectDoc, where: Sequence[int], spans: Sequence[tuple]) -> list[tuple]:
    """The tagger's stretches in written text cut where a sentence or clause ends by its punctuation
    inside them: the taggers read words without it, and the cased one joined "... meet Professor
    Okafor? Dr. Lindqvist: It was ..." into one person. A timed transcript's stops are ASR's guesses
    and cut nothing ("Savannah? Savannah." is one answer, "Leonor. Palomino" one name)."""
    from redactdesk.detect.worldnames import CLOSING_MARKS, word_view

    if doc.starts is not None:  # a transcript: ASR's full stops fall inside names ("Leonor. Palomino")
        return list(spans)
    view = word_view(doc)

    def ends(w: int) -> bool:
        # a quotation's edge ends a name: '"Fine," said Grace', 'Grace said, "Fine."' (a nickname in
        # quotes inside one stays: 'William "Bill" Smith', 'Harold " Junior " Theriault')
        word, after = doc.words[w], doc.words[w + 1] if w + 1 < len(doc.words) else ""
        # (a mark written apart: '"Fine," said' reads '"Fine,', '"')
        if QUOTE_CLOSED_AFTER_PUNCTUATION.search(word) or (
                word in CLOSING_QUOTES and w > 0 and doc.words[w - 1][-1:] in ",.!?…") or (
                word.endswith((",", ":")) and after[:1] in OPENING_QUOTES):
            return True
        # a title's colon ("Tomb Raider: Definitive Edition") or "U.S." ends nothing here
        raw = word.rstrip(CLOSING_MARKS)
        return view.sentence_after[w] and not raw.endswith(":") and "." not in view.cores[w]

    out: list[tuple] = []
    for a, b, *rest in spans:
        for k in range(a, b - 1):
            if ends(where[k]):
                out.append((a, k + 1, *rest))
                a = k + 1
        out.append((a, b, *rest))
    return out


def _without_name_cue(doc: DetectDoc, where: Sequence[int], a: int, b: int) -> int:
    """The start of the tagger's stretch ``[a, b)`` past a cue that introduces a name ("my name is",
    "this is", "i'm"): the contextual tagger read the turn "my name is john" as one organisation,
    which outvoted the person. A strong cue inside the stretch ends what comes before it too: "my
    dog is called toby" and "mi hija se llama carmen" were one organisation each. A title stays
    ("dr smith")."""
    from redactdesk.detect.sources import phrases_by_first
    from redactdesk.detect.worldnames import word_set

    if doc.lex is None or a >= b:
        return a
    titles = word_set("titles")
    start, p = a, a
    while p < b - 1:
        # at the start any cue; inside the stretch a strong one ("my dog is called | toby", "mi hija se llama | carmen")
        cut = None
        for key in ("name_cue_strong", "name_cue_weak") if p == start else ("name_cue_strong",):
            for _, ph in phrases_by_first(doc.lex, key).get(doc.lower[where[p]], ()):
                n = len(ph)
                if (p + n < b and not (n == 1 and ph[0] in titles)
                        and tuple(doc.lower[where[k]] for k in range(p, p + n)) == ph):
                    cut = p + n
                    break
            if cut is not None:
                break
        if cut is None:
            p += 1
        else:
            start = p = cut
    return start


def _without_lead_words(doc: DetectDoc, where: Sequence[int], a: int, b: int, written: bool) -> int:
    """The start of the tagger's stretch ``[a, b)`` past the lower-case prepositions and joining words
    that open it ("see you at Coachella" gave "at Coachella"). Said aloud, a leading "at" may be a
    handle's sign ("at goodmanespn") and is kept, unless the word after it is a possessive: "dinner at
    nando's", "at john's place" (the taggers learned "at" from handles) — except where the possessive
    is a handle's ("at justinbieber's selfies": a word no list holds) — or the words after it are a
    name of several known words (:func:`_known_words_after_at`: "my doctor is at kaiser
    permanente"), or it ends an employer's cue ("the billing department at comcast"); in a run of
    handles read out, after another handle or a handle cue ("rt at sportsnation at drake's
    impression"), it stays."""
    lead = word_list(doc.lex, "name_lead_words") if doc.lex is not None else frozenset()
    while a < b - 1 and doc.words[where[a]] in lead:
        if not written and doc.words[where[a]] == "at":
            after = doc.lower[where[a + 1]].strip(".,;:!?\"")
            possessive = _POSSESSIVE.fullmatch(after)
            if not _ends_employer_cue(doc, where[a]) and not _place_at(doc, where[a]) and (
                    _after_handle(doc, where[a]) or (handle_word(possessive.group(1), doc.lex) if possessive
                                                     else not _known_words_after_at(doc, where, a + 1, b))):
                break
        a += 1
    return a


def _place_at(doc: DetectDoc, w: int) -> bool:
    """Is the "at" at word ``w`` said of where someone is or works ("now i'm at sainsburys", "a nurse
    at addenbrookes", "he's at ...")? After a job, or after a verb of being, it is a preposition —
    unless the text speaks of handles elsewhere (a handle cue such as "rt", "follow", or a turn
    opening with "at"): a post read aloud says "graphic designer at dwydesigns" of a handle."""
    from redactdesk.detect.occupations import job_before

    if w < 1 or w in doc.breaks or not (doc.lower[w - 1] in _BEING_BEFORE_AT or job_before(doc, w + 1)):
        return False
    cues = word_list(doc.lex, "handle_cues") if doc.lex is not None else frozenset()
    return not any(x in cues for x in doc.lower) and not any(
        doc.lower[k] == "at" for k in (0, *doc.breaks) if k < len(doc.lower))


# "i'm at", "she's at", "was at", "works at" (employer cues are read by _ends_employer_cue)
_BEING_BEFORE_AT = frozenset({"im", "i'm", "am", "is", "are", "was", "were", "be", "been", "being", "he's", "she's",
                              "they're", "we're", "you're", "it's", "hes", "shes", "theyre", "youre",
                              "currently", "still", "now"})


def _ends_employer_cue(doc: DetectDoc, w: int) -> bool:
    """Does the "at" at word ``w`` end a cue for where someone works or is served ("works at", "the
    billing department at comcast")? Then it is a preposition, no handle's sign."""
    return any(ph[-1] == doc.lower[w] and w + 1 - len(ph) in doc.occurrences(ph)
               for ph in doc.said("org_cue_employer"))


def _known_words_after_at(doc: DetectDoc, where: Sequence[int], a: int, b: int) -> bool:
    """Are the words [a, b) of the stretch after a spoken "at" two or more words of the lists or
    the dictionary, with no number said among them ("at kaiser permanente", "at the red lion")? A
    handle said aloud is one word no list holds ("at goodmanespn"), has underscores or digits ("at
    null gal_id", "at michael five sos"); such words are a place's or a firm's name, and "at" is
    their preposition."""
    numbers = NUMBER_WORDS.get(doc.language, NUMBER_WORDS["en"])
    words = [doc.lower[where[k]].strip(".,;:!?\"") for k in range(a, b)]
    return len(words) >= 2 and not any(
        "_" in w or w in numbers or not w.isalpha() or handle_word(w, doc.lex) for w in words)


def _title_opens_at_end(doc: DetectDoc, w: int) -> bool:
    """Is word ``w``, the last of a person, the first word of a title the next word ends ("... obama
    vice president biden", "... smith deputy director")? A word that qualifies a job and is no job of
    its own nor a name of the lists, before a job's head: speech writes no comma between them."""
    from redactdesk.detect.said_occupations import occupation_words

    if w + 1 >= len(doc.words) or w + 1 in doc.breaks:
        return False
    heads, qualifiers = occupation_words(doc.language.split("_")[0])
    word, after = doc.lower[w], doc.lower[w + 1].strip(".,;:!?")
    return word in qualifiers and word not in heads and after in heads and not _listed_name_in([word])


def _before_job_title(doc: DetectDoc, where: Sequence[int], a: int, b: int) -> int:
    """Where a person the tagger read in speech ends before a job title said of them after the name
    ("dr amara nwosu chief of cardiology at st luke's", "mary jones head of sales"): at a word of a job, no
    name of the lists, after two words or more, that "of", "at" or "for" follows. Speech writes no comma."""
    from redactdesk.detect.said_occupations import occupation_words

    heads, qualifiers = occupation_words(doc.language.split("_")[0])
    for k in range(a + 2, b - 1):
        word, after = doc.lower[where[k]], doc.lower[where[k + 1]]
        if (word in heads or word in qualifiers) and after in _AFTER_TITLE and not _listed_name_in([word]):
            while k - 1 >= a + 2 and doc.lower[where[k - 1]] in qualifiers and not _listed_name_in(
                    [doc.lower[where[k - 1]]]):
                k -= 1  # "... de varona | prime minister of cuba"
            return k
    return b


_AFTER_TITLE = frozenset({"of", "at", "for", "de", "en"})


def _all_capitals(word: str) -> bool:
    """Is ``word`` written in capitals, two letters or more ("CVC", "OTP", "IBAN:")?"""
    letters = [c for c in word if c.isalpha()]
    return len(letters) >= 2 and all(c.isupper() for c in letters)


def _one_clause(doc: DetectDoc, where: Sequence[int], a: int, b: int) -> tuple[int, int]:
    """The tagger's stretch ``[a, b)`` without the pieces at its edges, cut off by a written semicolon
    or colon, that only frame an item ("Account holder: Chen Wei; IBAN: GB82 ..." gave the person
    "Chen Wei; IBAN"; "IBAN" is a label). Pieces between names stay: "Maria Lopez; Tom Berg" is
    covered whole."""
    cuts = [k + 1 for k in range(a, b - 1) if doc.words[where[k]].rstrip().endswith((";", ":"))
            and where[k + 1] != where[k]]
    if not cuts:
        return a, b
    frame = context_words(doc.lex) if doc.lex is not None else frozenset()
    bounds = [a, *cuts, b]
    pieces = [(p, q) for p, q in zip(bounds, bounds[1:], strict=False)
              if any(doc.lower[where[k]].strip(";:,.") not in frame for k in range(p, q))]
    end = where[b - 1] + 1
    whole_line = end == len(doc.words) or end in doc.breaks or end in doc.lines
    if len(pieces) > 1 and not whole_line and pieces[0] == (bounds[0], bounds[1]) and _label_piece(
            doc, where, *pieces[0]):
        pieces = pieces[1:]
    return (pieces[0][0], pieces[-1][1]) if pieces else (a, a)


def _label_piece(doc: DetectDoc, where: Sequence[int], p: int, q: int) -> bool:
    """Is the piece ``[p, q)``, up to a colon, part of a speaker's or a section's label of everyday
    words and numbers that opens a line or sentence ("Interviewer: Dr. Patel, what ...", "Support
    Engineer: Restart the router")? A label naming someone ("Dr. Hannah Whitfield: Well") holds a
    distinctive word and stays; so does a stretch that runs to the end of its line, a title with its
    subtitle ("Terminator: The Sarah Connor Chronicles": the caller checks)."""
    from redactdesk.detect.worldnames import word_view

    opens = word_view(doc).sent_start
    w0, w1 = where[p], where[q - 1] + 1
    while w0 > 0 and not (opens[w0] or w0 in doc.lines):
        w0 -= 1
    words = [clean_token(w, True) for w in doc.words[w0:w1]]
    named = [w for w in words if w and not w.isdigit()]
    return len(words) <= 4 and (not named or not distinctive(named, doc.language))


def _after_handle(doc: DetectDoc, w: int) -> bool:
    """Does word ``w`` follow a handle said aloud ("at sportsnation") or a handle cue ("rt", "via")?"""
    lower = doc.lower
    cues = word_list(doc.lex, "handle_cues") if doc.lex is not None else frozenset()
    return (w >= 1 and lower[w - 1] in cues) or (w >= 2 and lower[w - 2] == "at")


def _over_spelling(where: Sequence[int], a: int, b: int, spelled: frozenset[int]) -> tuple[int, int]:
    """The tagger's stretch ``[a, b)`` (indices into ``where``, its words' positions) grown over the
    whole of any spelling-alphabet passage it touches: the spelled name is one item, and a name that
    covered part of it won the overlap and left the rest unflagged ("Cher G is in George ... C is in
    Charlie I A" gave "Cher G" and "Charlie I A", the letters A R C between them went unflagged).
    Where ASR broke a passage ("N as in Mary", "I, as in I to"), the tagger's stretch still bridges it."""
    if not spelled or not any(where[k] in spelled for k in range(a, b)):
        return a, b
    while a > 0 and where[a - 1] in spelled:
        a -= 1
    while b < len(where) and where[b] in spelled:
        b += 1
    return a, b


def name_like(words: Sequence[str], language: str, any_word: bool = False) -> bool:
    """Is no word of the stretch a function word ("robert thanks" is not a name: "thanks" is)? With
    ``any_word``: is some word of it no function word ("you" alone is no name, "bank of america" may
    be one). (Everyday-word lists are no guide here: they hold "bieber" and "schwarzenegger".)"""
    stop = _function_words(language, keep_numbers=False)
    if any_word:
        return any(w.lower() not in stop for w in words)
    return not any(w.lower() in stop for w in words)


def _mixed_case(doc: DetectDoc) -> bool:
    """Does the text hold both capitalised and lower-case words (cached on the document)?"""
    if not doc.cache.get("cased"):
        doc.cache["cased"] = "yes" if any(w[:1].islower() for w in doc.words) and any(
            w[:1].isupper() for w in doc.words) else "no"
    return doc.cache["cased"] == "yes"


def _written(doc: DetectDoc) -> bool:
    """Is the text written rather than said: capitals and lower case, or a handle typed with its "@"
    (there "at" is a preposition, not a handle read aloud)?"""
    if "written" not in doc.cache:  # read per hit: once per document
        doc.cache["written"] = _mixed_case(doc) or any(w.startswith("@") and len(w) > 1 for w in doc.words)
    return doc.cache["written"]


def _ends_with_organisation_word(stretch: Sequence[str]) -> bool:
    """Does a person the tagger read of two words or more end with a word that closes organisation
    names or a legal form ("Labs", "Airlines", "GmbH") that is nobody's name ("Church", "Power" are)?"""
    from redactdesk.detect.worldnames import load_world_names, strip_word, word_set
    from redactdesk.lang.folding import fold_key

    if len(stretch) < 2:
        return False
    last = fold_key(strip_word(stretch[-1]))
    return (last in word_set("org_after") or last in word_set("org_legal")) and not load_world_names().is_name(last)


def _landmark_end(stretch: Sequence[str]) -> int | None:
    """Where a person the tagger read ends as a place: after its last word, past its first, that
    names places and venues ("Madison Square Garden", "Heathrow Airport"; structures.yaml's
    ``landmark_words``) and is nobody's name; the words after it are what the tagger ran into
    ("madison square garden tonight"). None when there is no such word."""
    from redactdesk.detect.worldnames import load_world_names, strip_word, word_set
    from redactdesk.lang.folding import fold_key

    if any(len(strip_word(w)) == 1 for w in stretch):
        return None  # a middle initial is a person's: "Allen C. Beach"
    landmarks, names = word_set("landmark_words"), load_world_names()
    ends = [k + 1 for k in range(1, len(stretch))
            if (w := fold_key(strip_word(stretch[k]))) in landmarks and not names.is_name(w)]
    return ends[-1] if ends else None


def _lower_in_cased(doc: DetectDoc, w0: int, w1: int) -> bool:
    """In cased writing, is no word of the stretch capitalised ("parish", "hockey club")?"""
    return _mixed_case(doc) and not any(w.lstrip("#@\"'(")[:1].isupper() for w in doc.words[w0:w1])


def _whole_everyday_sentence(doc: DetectDoc, w0: int, w1: int, stretch: Sequence[str], language: str) -> bool:
    """Is an organisation the tagger read the whole of a lower-case sentence of everyday words
    ("space research", "catch a ride", "entertainment news")? Said alone, such a turn is a request
    or a topic: a name of everyday words is said inside a sentence ("i work for general motors").
    On SLURP's odd ids all 9 such hits were wrong; in the written-title fragments of WikiANN
    ("calder valley line") 8 were right, but transcripts hold no such fragments."""
    if any(w[:1].isupper() for w in doc.words) or distinctive(stretch, language):
        return False  # "General Motors" alone: capitals are the writer's evidence
    return (w0 == 0 or w0 in doc.breaks) and (w1 == len(doc.words) or w1 in doc.breaks)


_NAMING_VERBS = frozenset({"called", "named", "llamado", "llamada"})


def _generic_body(doc: DetectDoc, w0: int, w1: int) -> bool:
    """Are words [w0, w1) a kind of body after a determiner and nothing else ("the bank", "our gym",
    "the hospital"; the lexicon's ``generic_bodies``), with at most a naming verb the tagger ran
    into ("the bank called me")? People speak of their bank or the hospital without naming it: no
    organisation. A word of its own names one ("the royal bank", "the mayo clinic"), and in cased
    writing so does a capital ("the League")."""
    if doc.lex is None:
        return False
    bodies = word_list(doc.lex, "generic_bodies")
    determiners = word_list(doc.lex, "generic_body_determiners")

    def bare(w: str) -> str:
        return w.strip(".,;:!?\"'()").lower()

    # the tagger may have left the determiner out of its stretch: "the | hospital"
    lo = w0 - 1 if w0 > 0 and bare(doc.words[w0 - 1]) in determiners else w0
    raw = list(doc.words[lo:w1])
    words = [bare(w) for w in raw]
    if len(words) > 2 and words[-1] in _NAMING_VERBS:
        raw, words = raw[:-1], words[:-1]
    cased = _mixed_case(doc)
    return len(words) >= 2 and words[0] in determiners and all(
        w in bodies and not (cased and r[:1].isupper()) for w, r in zip(words[1:], raw[1:], strict=True))


def _personal_title(doc: DetectDoc, word: str) -> bool:
    """Is ``word`` a personal title of the language, one that is a strong name cue on its own
    ("Mr.", "Mrs", "Dr.", "señora", "don")? Titles that also open places and bodies ("Saint",
    "King", "President") are not among them."""
    return doc.lex is not None and word.lower().strip(".") in _personal_titles(doc.lex)


@functools.lru_cache(maxsize=4)
def _personal_titles(lex: Lexicon) -> frozenset[str]:
    """The lexicon's one-word strong name cues (read once per lexicon: asked for every tagger hit)."""
    return frozenset(ph[0] for ph in lex.hot("name_cue_strong") if len(ph) == 1)


def _opens_with_organisation_word(stretch: Sequence[str]) -> bool:
    """Does a person the tagger read of two words or more start with a word that opens organisation
    names ("Banca", "Hotel", "Universidad") and that is no first name of its own?"""
    from redactdesk.detect.worldnames import load_world_names, word_set
    from redactdesk.lang.folding import fold_key

    if len(stretch) < 2:
        return False
    first = fold_key(stretch[0])
    names = load_world_names()
    return first in word_set("org_before") and not (names.is_first(first) and not names.is_common(first))


def _place_and_no_name(word: str) -> bool:
    """Is ``word`` a town, region or country of the place list that the name lists do not hold?"""
    from redactdesk.detect.places import load_places
    from redactdesk.detect.worldnames import load_world_names
    from redactdesk.lang.folding import fold_key

    key = fold_key(word)
    place = load_places().get(key)
    return place is not None and not place.name and not place.common and not load_world_names().is_name(key)


def _country(word: str) -> bool:
    """Is ``word`` a country of the place list (whatever name it also is: "Jordan", "Chad", "Cuba")?"""
    from redactdesk.detect.places import load_places
    from redactdesk.lang.folding import fold_key

    return getattr(load_places().get(fold_key(word)), "category", None) == "COUNTRY"


def _listed_name_in(stretch: Sequence[str]) -> bool:
    """Is a word of the stretch a name of the world-name or place lists ("luke robert hemmings")? A
    place that is an everyday word is none ("university" of "the university hospital")."""
    from redactdesk.detect.places import load_places
    from redactdesk.detect.worldnames import load_world_names
    from redactdesk.lang.folding import fold_key

    names, places = load_world_names(), load_places()

    def listed(k: str) -> bool:
        place = places.get(k)
        return names.is_name(k) or (place is not None and not place.common)

    return any(listed(fold_key(w)) for w in stretch)


# lower-case words a person's name may hold between its capitals ("Catherine of Aragon", "Simon and Garfunkel")
_PERSON_JOINERS = frozenset({"of", "and", "or", "y", "e", "o", "i", "und", "et"})


def _cased_name_bounds(doc: DetectDoc, where: Sequence[int], a: int, b: int, person: bool) -> tuple[int, int]:
    """Where a name the tagger read in cased writing starts and ends: at its first capital when only
    lower-case function or everyday words come before it ("economies of Western Europe"; a particle
    stays: "van Gogh"), and at its last capital when the tagger ran on into the sentence after it —
    for a person, when only such words follow ("Jose at the bar"); for an organisation or a place,
    whose names end in such words ("Cosham railway station", "Interstate 40"), when a function word
    or a comma follows ("The Red Line is late", "Faleti, finance team"). "Stephen I of Hungary",
    "Ludwig van Beethoven" and a name all in lower case ("alicia keys") stay."""
    from redactdesk.detect.worldnames import everyday_words, name_joiners, word_view

    words = [clean_token(doc.words[where[k]], True) for k in range(a, b)]
    caps = [k for k, w in enumerate(words) if w[:1].isupper()]
    if not caps:
        return a, b
    particles = name_joiners()
    stop = doc.lex.stop_words if doc.lex else frozenset()
    everyday = everyday_words()

    def filler(w: str) -> bool:  # a lower-case word a name neither starts nor ends with
        return w not in particles and (w in stop or w in everyday or not any(c.isalpha() for c in w))

    end = b
    if person:  # "J. R. R. Tolkien at Oxford": a preposition between capitals ends a person ("Joan of Arc" stays)
        lead = word_list(doc.lex, "name_lead_words") if doc.lex is not None else frozenset()
        spelled = doc.spelling_words()  # "S as in Sam N as in Mary": a spelling passage, even broken, is one item
        inner = [] if any(where[k] in spelled for k in range(a, b)) else [
            k for k in range(caps[0] + 1, caps[-1]) if words[k] in lead and words[k] not in _PERSON_JOINERS]
        if inner:
            b = end = a + inner[0]
            words = words[:inner[0]]
            caps = [k for k in caps if k < inner[0]]
    if caps[-1] < len(words) - 1:
        tail = [w.lower() for w in words[caps[-1] + 1:]]
        if person:
            cut = all(filler(w) for w in tail)
        else:  # a function word after the last capital, or its possessive, starts the clause around the
            # name ("Maria's car is red" was one organisation; "Cosham railway station" stays)
            comma = doc.words[where[a + caps[-1]]].rstrip().endswith(",")
            owner = doc.words[where[a + caps[-1]]].rstrip(".,;:!?\"").endswith(("'s", "’s"))
            cut = words[caps[-1] + 1][:1].islower() and (
                tail[0] in stop or comma or owner or any(w in stop and w not in particles for w in tail))
        end = a + caps[-1] + 1 if cut else b
    start = a
    head = words[:caps[0]]
    if head and all(w[:1].islower() and filler(w.lower()) for w in head):
        start = a + caps[0]
    # a remark before a comma, opening the sentence, is no part of the name after it: "See you soon,
    # Grace", "Thank you so much, Priya" (the first word's capital only opens the sentence; a function
    # word in lower case says it is a clause, where "Stadium mk, Milton Keynes" and "William IV,
    # Landgrave of Hesse-Kassel" are names)
    comma = next((k for k in range(len(words) - 1) if doc.words[where[a + k]].rstrip().endswith(",")), None)
    if start == a and comma is not None and any(k > comma for k in caps) and word_view(doc).sent_start[where[a]]:
        head = words[:comma + 1]
        if all(filler(w.lower()) for w in head) and all(w[:1].islower() for w in head[1:]) and any(
                w in stop for w in head[1:]):
            start = a + comma + 1
    return start, end


def _label_and_number(stretch: Sequence[str], labels: frozenset[str]) -> bool:
    """Is the stretch a label that frames an identifier and the number after it ("CVV 737", "exp
    09/28", "MRN 004512873"), and nothing else? No name: the patterns read the number, and the label
    is no one's. A number before its word is a name's ("30 Seconds to Mars")."""
    numbers = [any(c.isdigit() for c in w) for w in stretch]
    return (len(stretch) > 1 and not numbers[0] and numbers[-1]
            and all(d or w.lower() in labels for w, d in zip(stretch, numbers, strict=True)))


def _group_and_everyday_words(stretch: Sequence[str], language: str) -> bool:
    """Is a person the tagger read a nationality, religion or political group (that is nobody's
    name) with everyday and function words ("Pakistani doctor", "catholic priest", "a hispanic male")?"""
    from redactdesk.detect.worldnames import everyday_words, load_world_names
    from redactdesk.lang.folding import fold_key
    from redactdesk.lang.groups import load_groups

    groups = load_groups(language)
    if groups is None:
        return False
    keys = [fold_key(w) for w in stretch]
    names, everyday, stop = load_world_names(), everyday_words(), _function_words(language, keep_numbers=False)
    in_group = [(k,) in groups.by_key for k in keys]
    # a group word that is a first name too ("Christian Bale") leaves the person be
    return any(in_group) and all(not names.is_name(k) if g else k in everyday or k in stop
                                 for k, g in zip(keys, in_group, strict=True))


def _acronym(doc: DetectDoc, w0: int, w1: int) -> bool:
    """In cased writing, is the stretch one word of three to six capitals ("IMF", "WTO", "UNICEF")?
    The everyday-word list holds such bodies' initials, so the tagger's organisation needed a second
    source that seldom reads them; written in capitals in mixed-case text, they are the body's name."""
    if w1 - w0 != 1 or not _mixed_case(doc):
        return False
    word = doc.words[w0].strip(".,;:!?\"'()[]")
    return 3 <= len(word) <= 6 and word.isalpha() and word.isupper() and not _ROMAN.fullmatch(word)


_ROMAN = re.compile(r"[IVXLCDM]+")  # "Bajnokság II", "Henry VIII": a number, no body


def _capitalised(doc: DetectDoc, w0: int, w1: int) -> bool:
    """In cased writing, a stretch whose every word is capitalised — and that is not just a capital
    at the start of a sentence — is a proper noun the tagger is right about ("Ice Cube", "Lady Gaga")."""
    if not _mixed_case(doc):
        return False
    words = [w.strip(".,;:!?\"'()[]") for w in doc.words[w0:w1]]
    if not all(w[:1].isupper() and not w.isupper() for w in words if w[:1].isalpha()):
        return False
    starts_sentence = w0 == 0 or w0 in doc.breaks or doc.words[w0 - 1][-1:] in ".!?"
    return len(words) >= 2 or not starts_sentence


def stands_alone(category: str, words: Sequence[str], opens: bool, language: str) -> bool:
    """May a tagger hit stand alone in the vote? A person with no function word in it, unless it is
    a lone word opening the turn (a command verb: "cook pasta"); a place with a distinctive word; an
    organisation of at most three words led by a distinctive word, not a lone word opening the turn
    (a command the tagger took for a brand). With the wordpiece vectors the tagger's persons are right often enough to stand alone:
    SLURP devel odd ids, direct recall 84.7 % -> 93.1 % for character precision 83.7 % -> 82.8 %
    (``benchmarks/bench_detect_public.py``); its places and organisations of everyday words still
    need a second source, and so do its persons of two everyday words or more that hold no name of
    the lists ("presenting with chest pain" became "presenting with joan mccann"; "a short timber
    stringer span", "a sonic milkshake"): names sets at 2,000 spoken, character precision 87.5 ->
    87.6 % for quasi recall 78.4 -> 78.3 % (bands a person reading covered: "iron maiden")."""
    if category == "PERSON" and not opens and name_like(words, language) and (
            len(words) == 1 or distinctive(words, language) or _listed_name_in(words)):
        return True
    return distinctive(words, language) and (
        category in STRONG_CATEGORIES or (len(words) <= 3 and not opens and distinctive(words[:1], language)))


@dataclass
class TaggerReading:
    """The tagger's reading of a batch of documents, its network started in a second thread
    (:meth:`TaggerSource.begin`). :meth:`close` cancels a network run still waiting and waits for the
    running one: whatever failed meanwhile (the spaCy tagger, a rule source), no thread is left behind."""

    docs: Sequence[DetectDoc]
    by_model: dict[tuple[str, str], list[int]]
    readers: list[tuple[str, ...]]
    batch_size: int
    pool: ThreadPoolExecutor | None
    running: dict[str, Future]

    def close(self) -> None:
        for job in self.running.values():
            job.cancel()
        if self.pool is not None:
            self.pool.shutdown(wait=True)


class TaggerSource:
    """The bundled taggers (see the module docstring). ``model="auto"``: the contextual tagger
    (:mod:`redactdesk.detect.encoder`, when it is bundled and can run) and the spaCy tagger for the
    text's case both read every text, each a voice in the vote (:meth:`_backends`; in lower-case
    speech the spaCy tagger skips a turn of everyday words the contextual tagger passed,
    :meth:`_spacy_needed`); ``"encoder"`` or
    ``"spacy"``: one of them. Which hits stand alone in the vote: :meth:`_strong`. A place that is a
    nationality of the list is no place (:func:`~redactdesk.detect.groups.group_reading`)."""

    name = SOURCE
    categories = frozenset(LABELS.values()) | {"NRP"}
    trusted: frozenset[str] = frozenset()
    defaults: dict[str, Any] = {"batch_size": 256, "model": "auto"}

    def validate(self, params: Mapping[str, Any] | None) -> dict[str, Any]:
        out = check_params(self.name, params, self.defaults)
        if out["model"] not in ("auto", "encoder", "spacy"):
            from redactdesk.detect.errors import SourceParamsError

            raise SourceParamsError(f"source {self.name!r}: model must be auto, encoder or spacy")
        return out

    def apply(self, docs: Sequence[DetectDoc], params: Mapping[str, Any]) -> list[list[Hit]]:
        return self.finish(self.begin(docs, params))

    def begin(self, docs: Sequence[DetectDoc], params: Mapping[str, Any]) -> TaggerReading:
        """Start the contextual tagger's network on ``docs`` in a second thread and return at once;
        :meth:`finish` reads the rest and gives the hits. The pipeline begins this source before it
        runs the rule sources, so the network (native code that lets the interpreter go) runs while
        they do (:func:`redactdesk.detect.pipeline.detect_docs`)."""
        by_model: dict[tuple[str, str], list[int]] = {}
        readers: list[tuple[str, ...]] = []
        for i, d in enumerate(docs):
            readers.append(self._backends(d, params["model"]))
            for backend in readers[-1]:
                by_model.setdefault((d.language, backend), []).append(i)
        batch_size = int(params["batch_size"])
        encoder_jobs = {lang: idx for (lang, backend), idx in by_model.items() if backend == "encoder"}
        pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="contextual-tagger") if encoder_jobs else None
        running = {lang: pool.submit(self._encoder_entities, docs, idx, lang, False, batch_size)
                   for lang, idx in encoder_jobs.items()} if pool is not None else {}
        return TaggerReading(docs, by_model, readers, batch_size, pool, running)

    def finish(self, reading: TaggerReading) -> list[list[Hit]]:
        """The hits of a reading :meth:`begin` started (it is closed whatever happens)."""
        try:
            found = self._read(reading)
        finally:
            reading.close()
        return self._hits(reading.docs, reading.readers, found)

    def _hits(self, docs: Sequence[DetectDoc], readers: Sequence[tuple[str, ...]],
              reading: list[tuple[str, str, list]]) -> list[list[Hit]]:
        out: list[list[Hit]] = [[] for _ in docs]
        agreeing: list[tuple[int, int]] = []  # (doc, hit): an encoder hit that stands with the spaCy tagger
        from_spacy: list[set[int]] = [set() for _ in docs]
        for lang, backend, found in reading:
            for i, words, where, spans in found:
                spelled = docs[i].spelling_words()
                # the marks said between spelled letters: "hyphen" of "s m i t h hyphen j o"
                marks = {k for k in spelled if docs[i].lower[k] in letter_joiners(docs[i].lex)} if (
                    spelled and docs[i].lex is not None) else set()
                for a, b, cat, prob in _within_sentences(docs[i], where, spans):
                    a, b = trim_function_words(words, a, b, lang)
                    if b - a > 1 and docs[i].lex is not None and words[b - 1].islower() and _mixed_case(docs[i]) and (
                            words[b - 1] in word_list(docs[i].lex, "reporting_verbs")):
                        b -= 1  # 'Grace said, "Fine."': a verb of saying in lower case is no part of a name
                    a, b = _one_clause(docs[i], where, a, b)
                    if cat == "PERSON" and b - a > 1 and _title_opens_at_end(docs[i], where[b - 1]):
                        b -= 1  # "president obama vice president biden": "vice" opens the next one's title
                    if cat == "PERSON" and b - a > 2 and not _mixed_case(docs[i]):
                        b = _before_job_title(docs[i], where, a, b)  # "dr amara nwosu | chief of cardiology at ..."
                    if a >= b:
                        continue  # every piece only frame words ("IBAN; Phone:"): no name
                    lead = a
                    a = _without_lead_words(docs[i], where, a, b, _written(docs[i]))
                    if cat == "PERSON" and a > lead and docs[i].lower[where[a - 1]] == "at" and _place_at(
                            docs[i], where[a - 1]) and not _listed_name_in(words[a:b]):
                        cat = "ORGANIZATION"  # "now i'm at sainsburys": read as a handle ("at x", a person), a firm
                    a = _without_name_cue(docs[i], where, a, b)
                    if cat in ("PERSON", "ORGANIZATION", "LOCATION") and _mixed_case(docs[i]):
                        a, b = _cased_name_bounds(docs[i], where, a, b, person=cat == "PERSON")
                    if cat is None or a >= b or not any(w.isalpha() and len(w) > 1 and where[k] not in marks
                                                        for k, w in enumerate(words[a:b], start=a)):
                        continue  # digit groups and spelled letters ("s m i t h hyphen j o") are the patterns' business
                    if cat == "PERSON" and any(_CODE_WORD.fullmatch(clean_token(docs[i].words[where[k]], True))
                                               for k in range(a, b)):
                        continue  # "AB12 CDE", "S530 ...": a written code in capitals is nobody's name
                    w0, w1 = where[a], where[b - 1] + 1
                    if all(k in spelled for k in range(w0, w1)) or not name_like(words[a:b], lang, any_word=True):
                        continue  # "G is in George H.": alphabet words are no item; "you." is no organisation
                    a, b = _over_spelling(where, a, b, spelled)
                    w0, w1 = where[a], where[b - 1] + 1
                    # "glancing at Mr. Whitcombe": a personal title before names alone opens someone's
                    # name ("at dr greens office", with an everyday word, stays the place)
                    if cat in ("LOCATION", "ORGANIZATION") and b - a > 1 and _personal_title(docs[i], words[a]) and all(
                            distinctive([w], lang) for w in words[a + 1:b]):
                        cat = "PERSON"
                    # a demonym is no place, nor alone an organisation: a group said of someone, or a
                    # language ("American Express", two words, stays an organisation)
                    # (a listed group of several words too: "He is African American"; a person of one
                    # word that reads as a language or a thing is none: "my old french teacher")
                    if cat in ("LOCATION", "ORGANIZATION") or (cat == "PERSON" and w1 - w0 == 1):
                        reading = group_reading(docs[i], w0, w1)
                        if reading == "thing":
                            continue
                        if reading == "group" and cat != "PERSON":
                            cat = "NRP"
                    stretch = words[a:b]
                    if cat == "ORGANIZATION" and _whole_everyday_sentence(docs[i], w0, w1, stretch, lang):
                        continue
                    if cat in ("ORGANIZATION", "LOCATION") and _generic_body(docs[i], w0, w1):
                        continue  # "the bank called me", "the hospital": a kind of body, no name
                    if len(stretch) == 1 and (stretch[0].islower() or _all_capitals(docs[i].words[w0])) and (
                            docs[i].lex is not None and stretch[0].lower() in context_words(docs[i].lex)):
                        continue  # "exp 11/2025 cvv 123", "enter the CVC code": a word that frames an item is none
                    if docs[i].lex is not None and _label_and_number(stretch, context_words(docs[i].lex)):
                        continue  # "CVV 737", "MRN 004512873": an item with its label is the patterns' business
                    if len(stretch) == 1 and docs[i].lex is not None and (
                            stretch[0].lower() in docs[i].lex.weekdays or stretch[0].lower() in day_words(docs[i].lex)):
                        continue  # "admitted on Monday", "see u tmrw": a day is the date source's, no name
                    if _lower_in_cased(docs[i], w0, w1) and not distinctive(stretch, lang) and not _listed_name_in(stretch):
                        continue  # cased writing: "luthier", "city councilman" — everyday words, no capital
                    if cat == "PERSON" and _group_and_everyday_words(stretch, lang):
                        continue  # "a British Pakistani doctor": the group is the item (NRP), no one's name
                    if cat == "PERSON" and len(stretch) == 1 and _place_and_no_name(stretch[0]):
                        cat = "LOCATION"  # "the mayor of Springfield": a town of the list, no listed name
                    elif cat == "PERSON" and len(stretch) == 1 and w0 > 0 and docs[i].lower[w0 - 1] == "of" and (
                            _country(stretch[0])):
                        cat = "LOCATION"  # "prime minister of cuba", "the king of jordan": Cuba, Jordan are names too
                    if cat == "ORGANIZATION" and w1 - w0 >= 2 and town_and_state_code(docs[i], w1 - 1, start=w0):
                        cat = "LOCATION"  # "Reno, NV": a town and its state, no firm
                    if cat == "PERSON" and (_opens_with_organisation_word(stretch)
                                            or _ends_with_organisation_word(stretch)):
                        cat = "ORGANIZATION"  # "Banca Transilvania", "Hotel Adlon", "Lumina Labs", "Initech Inc"
                    elif cat == "PERSON" and w0 > 0 and _ends_employer_cue(docs[i], w0 - 1) and not _listed_name_in(
                            stretch):
                        cat = "ORGANIZATION"  # "my mobile is with vodafone", "i bank with monzo": whom one is with
                    elif cat == "PERSON" and (end := _landmark_end(stretch)) is not None:
                        cat = "LOCATION"  # "madison square garden", "heathrow airport"
                        stretch, w1 = stretch[:end], where[a + end - 1] + 1
                    # a lone word opening a turn is often a command verb the tagger took for a brand
                    opens = len(stretch) == 1 and (w0 == 0 or w0 in docs[i].breaks)
                    strong = self._strong(backend, docs[i], cat, stretch, opens, lang, w0, w1, prob,
                                          alone=len(readers[i]) == 1)
                    score = SCORES[cat] if prob is None else round(SCORES[cat] * (0.5 + 0.5 * prob), 3)
                    if backend != "encoder":
                        from_spacy[i].add(len(out[i]))
                    elif not strong and prob is not None and prob >= ENCODER_WITH_SPACY[
                            "distinctive" if distinctive(stretch, lang) else "everyday"].get(cat, 1.01):
                        agreeing.append((i, len(out[i])))
                    out[i].append(Hit(w0, w1, cat, score, SOURCE, f"transcript tagger {cat.lower()}", strong=strong))
        for i, k in agreeing:
            h = out[i][k]
            if any(out[i][j].category == h.category and out[i][j].start_word < h.end_word
                   and h.start_word < out[i][j].end_word for j in from_spacy[i]):
                out[i][k] = Hit(h.start_word, h.end_word, h.category, h.score, SOURCE,
                                f"transcript tagger {h.category.lower()} (both models)", strong=True)
        return out

    @classmethod
    def _read(cls, reading: TaggerReading) -> list[tuple[str, str, list]]:
        """Each model's reading of its documents, ``(language, backend, found)`` in the order their
        hits are voted (the contextual tagger's first). The contextual tagger runs in a second thread while the
        spaCy tagger reads the documents it reads whatever the other finds (:meth:`_spacy_needed`);
        both spend their time in native code that lets the interpreter go (ONNX Runtime, BLIS), so
        on two cores they overlap (names spoken 6,554 -> 7,833 words/s, 1.85 -> 2.11 × Presidio's in
        the same run of ``benchmarks/bench_detect_public.py``; the same spans on every set: both read
        each sentence on its own, whatever the batch). The rest of the spaCy tagger's documents, those
        where the contextual tagger proposed something, follow."""
        docs, readers, batch_size = reading.docs, reading.readers, reading.batch_size
        order = sorted(reading.by_model.items(), key=lambda kv: kv[0][1] != "encoder")
        sure: dict[tuple[str, str], tuple[list[int], list]] = {}
        for (lang, backend), idx in order:
            if backend != "encoder":
                first = [i for i in idx if backend != "spacy" or cls._spacy_needed(
                    docs[i], "encoder" in readers[i], False)]
                sure[(lang, backend)] = (first, cls._spacy_entities(
                    docs, first, lang, backend == "spacy_cased", batch_size) if first else [])
        from_encoder = {lang: job.result() for lang, job in reading.running.items()}
        encoder_saw = {i for found in from_encoder.values() for i, _, _, spans in found if spans}
        out: list[tuple[str, str, list]] = []
        for (lang, backend), idx in order:
            if backend == "encoder":
                out.append((lang, backend, from_encoder[lang]))
                continue
            first, found = sure[(lang, backend)]
            done = set(first)
            later = [i for i in idx if i not in done and cls._spacy_needed(docs[i], "encoder" in readers[i], i in encoder_saw)]
            if later:
                rank = {i: k for k, i in enumerate(idx)}  # back in document order (a doc's pieces keep theirs)
                found = sorted(found + cls._spacy_entities(docs, later, lang, backend == "spacy_cased", batch_size),
                               key=lambda job: rank[job[0]])
            out.append((lang, backend, found))
        return out

    @staticmethod
    def reads(language: str) -> bool:
        """Is a tagger bundled (and able to run) for ``language``?"""
        return load_encoder(language) is not None or load_tagger(language) is not None

    @classmethod
    def _backends(cls, doc: DetectDoc, model: str) -> tuple[str, ...]:
        """Which models read ``doc``: "encoder", "spacy_cased", "spacy" (none: an empty tuple).
        ``auto``: the contextual tagger and the spaCy tagger for the text's case, each a voice in the
        vote; together they find more than either (public dev sets, written names 95.0 / 82.6 ->
        96.5 / 85.5 % direct / quasi recall for character precision 86.6 -> 84.1 %, spoken 89.1 /
        77.0 -> 92.8 / 79.4 % for 87.5 -> 85.0 %; the demo's suggestions after ASR: precision 0.925
        -> 0.930, item recall 0.911 -> 0.919) at about two thirds of the words per second."""
        spacy = ("spacy_cased",) if doc.cased() and load_tagger(doc.language + CASED_SUFFIX) is not None \
            else ("spacy",) if load_tagger(doc.language) is not None else ()
        encoder = ("encoder",) if model != "spacy" and load_encoder(doc.language) is not None else ()
        if model == "encoder":
            return encoder
        if model == "spacy":
            return spacy
        return encoder + spacy

    @staticmethod
    def _spacy_needed(doc: DetectDoc, encoder_read: bool, encoder_saw: bool) -> bool:
        """Does the lower-case spaCy tagger read ``doc`` beside the contextual tagger? Only where
        the contextual tagger proposed something or a word is on no everyday list: a turn of
        everyday words the contextual tagger passed ("what time is it", "four five two one") is
        where the spaCy tagger finds least. On the public dev sets every recall and precision stayed
        the same, for 23 % more words per second on SLURP and 25 % on spoken identifiers
        (``benchmarks/bench_detect_public.py``; without the first-name test SLURP lost "pick jo")."""
        return not encoder_read or encoder_saw or distinctive(doc.words, doc.language) or _first_name_in(doc)

    @staticmethod
    def _strong(backend: str, doc: DetectDoc, cat: str, stretch: Sequence[str], opens: bool, language: str,
                w0: int, w1: int, prob: float | None, alone: bool = True) -> bool:
        """May the hit stand alone in the vote? Every hit of the tagger for cased writing when it reads
        ``alone``: it reads the capitals, and needing a second source threw away half of its
        organisations (written dev sets 93.1 / 72.8 -> 93.8 / 78.2 % direct / quasi recall for
        character precision 89.2 -> 87.6 %); beside the contextual tagger it keeps the rules below
        (written names 97.0 / 86.8 / 83.2 -> 96.5 / 85.5 / 84.1 % direct / quasi / precision).
        Lower-case speech keeps the rules of :func:`stands_alone` (all its hits alone took SLURP's
        character precision from 82.8 to 67.9 %) and a stretch written in capitals stands
        (:func:`_capitalised`). The contextual tagger: see :data:`ENCODER_ALONE`."""
        if backend == "spacy_cased" and alone:
            return True
        if backend == "encoder" and prob is not None:
            kind = "distinctive" if distinctive(stretch, language) or (
                cat == "ORGANIZATION" and _acronym(doc, w0, w1)) else "everyday"
            if kind == "everyday" and _lower_in_cased(doc, w0, w1):
                return False
            return prob >= ENCODER_ALONE[kind].get(cat, 1.01) or _capitalised(doc, w0, w1)
        return stands_alone(cat, stretch, opens, language) or _capitalised(doc, w0, w1)

    @staticmethod
    def _spacy_entities(docs: Sequence[DetectDoc], idx: Sequence[int], lang: str, cased: bool, batch_size: int):
        """(doc index, cleaned words, their word indices, [(start, end, label, None)]) per piece."""
        from spacy.tokens import Doc

        nlp = load_tagger(lang + CASED_SUFFIX if cased else lang)
        jobs: list[tuple[int, list[str], list[int]]] = []
        sdocs = []
        for i in idx:
            for words, where in _pieces(docs[i], keep_case=cased):
                jobs.append((i, words, where))
                sdocs.append(Doc(nlp.vocab, words=words))
        try:
            fill_vectors(nlp, (w for _, words, _ in jobs for w in words), lang)  # no Token objects: 10 % of the time
        except ValueError as exc:  # a model without the table it was trained with: off, loudly
            log.warning("the transcript tagger is off: %s", exc)
            return []
        return [(i, words, where, [(e.start, e.end, LABELS.get(e.label_), None) for e in sdoc.ents])
                for (i, words, where), sdoc in zip(jobs, nlp.pipe(sdocs, batch_size=batch_size), strict=True)]

    @staticmethod
    def _encoder_entities(docs: Sequence[DetectDoc], idx: Sequence[int], lang: str, cased: bool, batch_size: int):
        """As :meth:`_spacy_entities`, from the contextual tagger, with each entity's mean probability.
        A turn is one sentence (the encoder reads long ones in overlapping windows itself)."""
        enc = load_encoder(lang)
        jobs = [(i, words, where) for i in idx for words, where in _pieces(docs[i], keep_case=True, limit=None)]
        found = enc.entities([words for _, words, _ in jobs])
        return [(i, words, where, [(a, b, LABELS.get(lab), p) for a, b, lab, p in ents])
                for (i, words, where), ents in zip(jobs, found, strict=True)]
