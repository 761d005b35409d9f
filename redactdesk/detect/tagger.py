"""The transcript tagger as a detection source: names, places and organisations in ASR text.

A statistical NER trained on cased, punctuated text rarely tags "my name is maria lopez" — ASR
writes lower case with no punctuation. This source runs the project's own tagger
(``resources/models/tagger_<lang>``, trained by ``redactdesk.learn.train_tagger`` on public NER text
turned into spoken form) over each turn's words cleaned exactly as at training time
(:func:`clean_token`), so written and spoken input read the same. Words
that clean to nothing (punctuation) are skipped and the entity's word range maps back over them.

Cased writing (:func:`~redactdesk.detect.worldnames.is_cased`: Whisper's transcripts, typed text)
goes to a second model when one is bundled (``tagger_<lang>_cased``, ``train_tagger --cased``: the
same public sentences as written, with their case), which reads the capitals a lower-case model
throws away. On the public written dev sets
(``benchmarks/bench_detect_public.py``) it took direct / quasi recall from 91.4 / 67.6 % to 92.3 /
72.4 % at a character precision of 89.1 % (was 88.2 %); running both models on cased text found a
little more (93.6 / 75.0 %) at 86.2 % precision and a quarter fewer words per second.

Without a model for the language (Spanish today) the source returns nothing.
"""

from __future__ import annotations

import functools
import logging
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from redactdesk.detect.sources import DetectDoc, Hit, check_params
from redactdesk.detect.worldnames import is_cased
from redactdesk.lang.word_vectors import fill_vectors

log = logging.getLogger(__name__)

SOURCE = "tagger"
LABELS = {"PERSON": "PERSON", "LOCATION": "LOCATION", "ORGANIZATION": "ORGANIZATION"}
SCORES = {"PERSON": 0.8, "LOCATION": 0.6, "ORGANIZATION": 0.6}
# an organisation stands alone only when short and led by a distinctive word: the tagger takes
# whole commands for brands ("order me chinese food")
STRONG_CATEGORIES = frozenset({"PERSON", "LOCATION"})
MAX_WORDS = 120  # a turn longer than this is tagged in pieces (the model saw sentences)


CASED_SUFFIX = "_cased"


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


def _pieces(doc: DetectDoc, keep_case: bool = False) -> list[tuple[list[str], list[int]]]:
    """(cleaned words, their word indices) per turn, long turns cut into pieces of MAX_WORDS."""
    bounds = [0, *[b for b in doc.breaks if 0 < b < len(doc.words)], len(doc.words)]
    out = []
    for a, b in zip(bounds, bounds[1:], strict=False):
        words, idx = [], []
        for i in range(a, b):
            w = clean_token(doc.words[i], keep_case)
            if w:
                stem = possessor(w, doc.language)
                if stem:  # as the training text has it: the possessive's "s" its own word
                    words += [stem, "s"]
                    idx += [i, i]
                else:
                    words.append(w)
                    idx.append(i)
                if len(words) >= MAX_WORDS:
                    out.append((words, idx))
                    words, idx = [], []
        if words:
            out.append((words, idx))
    return out


def distinctive(words: Sequence[str], language: str) -> bool:
    """Does a found stretch hold a word that is no everyday word — a listed name or place, or a
    word no word list knows ("adeyemi")? A stretch of everyday words ("delete", "define framework")
    is what the tagger gets wrong most: it then needs a second source in the vote."""
    from redactdesk.detect.worldnames import everyday_words, load_world_names
    from redactdesk.lang.folding import fold_key
    from redactdesk.lang.lexicon import load_lexicon

    names, everyday = load_world_names(), everyday_words()
    stop = load_lexicon(language).stop_words
    for w in words:
        key = fold_key(w)
        if len(key) < 2 or not key.isalpha() or w.lower() in stop:
            continue
        if names.is_name(key) and not names.is_common(key):
            return True
        if key not in everyday and not names.is_name(key):
            return True
    return False


@functools.lru_cache(maxsize=8)
def _function_words(language: str, keep_numbers: bool) -> frozenset[str]:
    """The lexicon's stop words (without the number words when ``keep_numbers``), built once."""
    from redactdesk.lang.digits import NUMBER_WORDS
    from redactdesk.lang.lexicon import load_lexicon

    stop = load_lexicon(language).stop_words
    return stop - NUMBER_WORDS.get(language, frozenset()) if keep_numbers else stop


def trim_function_words(sdoc: Any, start: int, end: int, language: str) -> tuple[int, int]:
    """The tagger's stretch without function words at its end: a name does not end with "thanks"
    or "the" ("... r as in robert thanks"). Number words and single letters stay (a birth year said
    with a name, "nicholas i", "stephen g"); so does a leading "at" (a handle said aloud)."""
    stop = _function_words(language, keep_numbers=True)
    while end > start + 1 and len(sdoc[end - 1].text) > 1 and sdoc[end - 1].text.lower() in stop:
        end -= 1
    return start, end


def name_like(words: Sequence[str], language: str) -> bool:
    """Is no word of the stretch a function word ("robert thanks" is not a name: "thanks" is)?
    (Everyday-word lists are no guide here: they hold "bieber" and "schwarzenegger".)"""
    stop = _function_words(language, keep_numbers=False)
    return not any(w.lower() in stop for w in words)


def _capitalised(doc: DetectDoc, w0: int, w1: int) -> bool:
    """In cased writing, a stretch whose every word is capitalised — and that is not just a capital
    at the start of a sentence — is a proper noun the tagger is right about ("Ice Cube", "Lady Gaga")."""
    if not doc.cache.get("cased"):
        doc.cache["cased"] = "yes" if any(w[:1].islower() for w in doc.words) and any(
            w[:1].isupper() for w in doc.words) else "no"
    if doc.cache["cased"] != "yes":
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
    need a second source."""
    if category == "PERSON" and not opens and name_like(words, language):
        return True
    return distinctive(words, language) and (
        category in STRONG_CATEGORIES or (len(words) <= 3 and not opens and distinctive(words[:1], language)))


class TaggerSource:
    """The bundled transcript tagger (see the module docstring). A hit with a distinctive word
    stands alone in the vote (``strong``); one of everyday words only votes. Every hit of the
    tagger for cased writing stands alone: it reads the capitals, and needing a second source threw
    away half of its organisations — written dev sets 93.1 / 72.8 -> 93.8 / 78.2 % direct / quasi
    recall for character precision 89.2 -> 87.6 %; the demo's suggestions after ASR 0.933 -> 0.934
    precision, 0.919 -> 0.927 item recall. (Lower-case speech keeps the rules: all its hits alone
    took SLURP's character precision from 82.8 to 67.9 %.)"""

    name = SOURCE
    categories = frozenset(LABELS.values())
    trusted: frozenset[str] = frozenset()
    defaults: dict[str, Any] = {"batch_size": 256}

    def validate(self, params: Mapping[str, Any] | None) -> dict[str, Any]:
        return check_params(self.name, params, self.defaults)

    def apply(self, docs: Sequence[DetectDoc], params: Mapping[str, Any]) -> list[list[Hit]]:
        from spacy.tokens import Doc

        out: list[list[Hit]] = [[] for _ in docs]
        by_model: dict[tuple[str, bool], list[int]] = {}
        for i, d in enumerate(docs):
            cased = is_cased(d.words) and load_tagger(d.language + CASED_SUFFIX) is not None
            by_model.setdefault((d.language, cased), []).append(i)
        for (lang, cased), idx in by_model.items():
            nlp = load_tagger(lang + CASED_SUFFIX if cased else lang)
            if nlp is None:
                continue
            jobs: list[tuple[int, list[int]]] = []
            sdocs = []
            for i in idx:
                for words, where in _pieces(docs[i], keep_case=cased):
                    jobs.append((i, where))
                    sdocs.append(Doc(nlp.vocab, words=words))
            try:
                fill_vectors(nlp, (t.text for sdoc in sdocs for t in sdoc), lang)
            except ValueError as exc:  # a model without the table it was trained with: off, loudly
                log.warning("the transcript tagger is off: %s", exc)
                continue
            for (i, where), sdoc in zip(jobs, nlp.pipe(sdocs, batch_size=int(params["batch_size"])), strict=True):
                for ent in sdoc.ents:
                    cat = LABELS.get(ent.label_)
                    a, b = trim_function_words(sdoc, ent.start, ent.end, lang)
                    if cat is None or a >= b or not any(t.text.isalpha() for t in sdoc[a:b]):
                        continue  # digit groups are the patterns' business, never a name
                    w0, w1 = where[a], where[b - 1] + 1
                    words = [t.text for t in sdoc[a:b]]
                    # a lone word opening a turn is often a command verb the tagger took for a brand
                    opens = len(words) == 1 and (w0 == 0 or w0 in docs[i].breaks)
                    strong = cased or stands_alone(cat, words, opens, lang) or _capitalised(docs[i], w0, w1)
                    out[i].append(Hit(w0, w1, cat, SCORES[cat], SOURCE, f"transcript tagger {cat.lower()}",
                                      strong=strong))
        return out
