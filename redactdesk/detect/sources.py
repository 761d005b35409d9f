"""Recognizer sources: the protocol and the shared document view.

A *source* proposes :class:`Hit` objects (word ranges with a category). The vote
(:mod:`redactdesk.detect.vote`) combines them. New sources — the active-learning model, a project's
own rules — plug in with :func:`~redactdesk.detect.registry.register_source` and take part in the vote
like the built-in ones. This module knows no implementation: the catalogue of sources by name is
:mod:`redactdesk.detect.registry`.
"""

from __future__ import annotations

import bisect
import functools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from redactdesk.core.types import Conversation
from redactdesk.detect.errors import SourceParamsError
from redactdesk.detect.normalize import Normalized, clean_word, normalize_words
from redactdesk.lang.lexicon import Lexicon, check_language, load_lexicon


@dataclass(frozen=True)
class Hit:
    """One proposal by one source: words ``[start_word, end_word)`` are ``category``."""

    start_word: int
    end_word: int
    category: str
    score: float
    source: str
    reason: str = ""
    strong: bool = False  # the source's evidence stands alone in the vote (e.g. a spelled name after "spell")

    def __post_init__(self) -> None:
        if self.end_word <= self.start_word:
            raise ValueError(f"hit must cover at least one word ({self.start_word}, {self.end_word})")
        object.__setattr__(self, "score", min(1.0, max(0.0, float(self.score))))


def is_cased(words: Sequence[str]) -> bool:
    """True when capitals carry information: some words capitalised, most not shouting."""
    alpha = [w for w in words if any(c.isalpha() for c in w)]
    if not alpha:
        return False
    title = sum(1 for w in alpha if w[:1].isupper() and any(c.islower() for c in w)
                and w not in ("I'm", "I'll", "I've", "I'd"))
    upper = sum(1 for w in alpha if w.isupper() and len(w) > 1)
    if upper > 0.6 * len(alpha):
        return False
    return title >= 1


@dataclass
class DetectDoc:
    """The view of one conversation every source works on: raw words, cleaned lower-case words,
    the normalised text, turn breaks and (optionally) word times. ``cache`` lets sources share work."""

    id: str
    words: list[str]
    language: str
    breaks: tuple[int, ...] = ()
    lines: tuple[int, ...] = ()  # words that open a new line of written text inside a turn
    starts: list[float] | None = None
    ends: list[float] | None = None
    lower: list[str] = field(default_factory=list)
    norm: Normalized | None = None
    lex: Lexicon | None = None
    cache: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_words(
        cls,
        words: Sequence[str],
        language: str = "en",
        *,
        breaks: Iterable[int] = (),
        lines: Iterable[int] = (),
        id: str = "",
        starts: Sequence[float] | None = None,
        ends: Sequence[float] | None = None,
    ) -> DetectDoc:
        lang = check_language(language)
        words = [str(w) for w in words]
        br = tuple(sorted(set(breaks)))
        return cls(
            id=id,
            words=words,
            language=lang,
            breaks=br,
            lines=tuple(sorted(set(lines))),
            starts=list(starts) if starts is not None else None,
            ends=list(ends) if ends is not None else None,
            lower=[clean_word(w) for w in words],
            norm=normalize_words(words, lang, br),
            lex=load_lexicon(lang),
        )

    @classmethod
    def from_conversation(cls, conv: Conversation, language: str | None = None) -> DetectDoc:
        turns = conv.turns or conv.turns_from_speakers()
        return cls.from_words(
            [w.text for w in conv.words],
            language or conv.language or "en",
            breaks=[t.start_word for t in turns],
            id=conv.id,
            starts=[w.start for w in conv.words],
            ends=[w.end for w in conv.words],
        )

    def __len__(self) -> int:
        return len(self.words)

    def spelling_words(self) -> frozenset[int]:
        """Words that belong to a spelled letter with its alphabet word ("G is in George", "P de
        París") or join two spelled letters ("o apostrophe b r i e n"): the letter is the item, the
        alphabet word and the mark are none — no name, place or organisation source proposes one
        (cached)."""
        from redactdesk.detect.normalize import LETTER, letter_joiners

        got = self.cache.get("spelling_words")
        if got is None:
            toks = self.norm.tokens if self.norm is not None else []
            nato = self.lex.nato if self.lex is not None else {}
            marks = letter_joiners(self.lex) if self.lex is not None else frozenset()
            # "G as in George" (one letter of several words) and alphabet words read as letters ("alpha bravo 7 7")
            words = {k for t in toks if t.kind == LETTER and (t.w1 - t.w0 > 1 or self.lower[t.w0] in nato)
                     for k in range(t.w0, t.w1)}
            for a, b in zip(toks, toks[1:], strict=False):
                if a.kind == LETTER == b.kind and a.w1 < b.w0 and all(self.lower[k] in marks for k in range(a.w1, b.w0)):
                    words.update(range(a.w1, b.w0))
            got = frozenset(words)
            self.cache["spelling_words"] = got
        return got

    # --- context -------------------------------------------------------------------------------

    def _word_index(self) -> dict[str, list[int]]:
        """{lower-case word: its positions, ascending} (cached)."""
        index = self.cache.get("_word_index")
        if index is None:
            index = {}
            for i, w in enumerate(self.lower):
                index.setdefault(w, []).append(i)
            self.cache["_word_index"] = index
        return index

    def said(self, key: str) -> list[tuple[str, ...]]:
        """The lexicon's ``key`` phrases whose first word the document says, in the lexicon's order:
        most phrases a pass asks for are not said at all (a name or organisation pass asked
        :meth:`occurrences` of 240 phrases a sentence)."""
        if self.lex is None:
            return []
        firsts = phrases_by_first(self.lex, key)
        index = self._word_index()
        found = sorted(item for w in (index.keys() & firsts.keys()) for item in firsts[w])
        return [ph for _, ph in found]

    def occurrences(self, phrase: tuple[str, ...]) -> list[int]:
        """Start indices of every occurrence of ``phrase`` (lower-case words) in the document."""
        at = self._word_index().get(phrase[0])
        if not at:  # most phrases a pass asks for are not said at all: no comprehension to run
            return []
        n = len(phrase)
        return [i for i in at if tuple(self.lower[i : i + n]) == phrase]

    def find_phrase(self, phrases: Iterable[tuple[str, ...]], lo: int, hi: int) -> tuple[int, tuple[str, ...]] | None:
        """The last (closest to ``hi``) phrase found wholly inside words ``[lo, hi)``, with its start
        (the longer phrase where two start there). Looks each phrase's first word up in the word
        index: scanning every window position for every phrase was a tenth of the detection time of
        spoken addresses."""
        lo = max(0, lo)
        hi = min(len(self.lower), hi)
        index = self._word_index()
        best: tuple[int, tuple[str, ...]] | None = None
        for ph in phrases:
            at = index.get(ph[0])
            if not at:
                continue
            n = len(ph)
            j = bisect.bisect_right(at, hi - n) - 1
            while j >= 0 and at[j] >= lo:
                i = at[j]
                if tuple(self.lower[i : i + n]) == ph:
                    if best is None or i > best[0] or (i == best[0] and n > len(best[1])):
                        best = (i, ph)
                    break
                j -= 1
        return best

    def cased(self) -> bool:
        """Whether capitals carry information in these words (:func:`is_cased`), worked out once per
        document: a dozen passes ask."""
        value = self.cache.get("_cased")
        if value is None:
            value = self.cache["_cased"] = is_cased(self.words)
        return value

    def context(self, key: str, w0: int, w1: int, left: int = 8, right: int = 0) -> str | None:
        """The hotword phrase of ``key`` near words ``[w0, w1)`` (``left`` words before, ``right`` after)."""
        assert self.lex is not None
        phrases = self.lex.hot(key)
        if not phrases:
            return None
        found = self.find_phrase(phrases, w0 - left, w0)
        if found is None and right:
            found = self.find_phrase(phrases, w1, w1 + right)
        return " ".join(found[1]) if found else None

    def context_distance(self, key: str, w0: int, left: int = 12) -> int | None:
        """Words between the closest ``key`` hotword before ``w0`` and ``w0`` (None when absent)."""
        assert self.lex is not None
        found = self.find_phrase(self.lex.hot(key), w0 - left, w0)
        return None if found is None else w0 - (found[0] + len(found[1]))


@runtime_checkable
class Source(Protocol):
    """A recognizer. ``categories`` are those it can propose; ``trusted`` those where its word alone
    is enough in the vote (seed 003: spaCy for PERSON and DATE; validated patterns for numbers)."""

    name: str
    categories: frozenset[str]
    trusted: frozenset[str]

    def validate(self, params: Mapping[str, Any] | None) -> dict[str, Any]:
        """Checked parameters with defaults filled in; raises SourceParamsError."""
        ...

    def apply(self, docs: Sequence[DetectDoc], params: Mapping[str, Any]) -> list[list[Hit]]:
        """Hits for each document (batched, so a model can run over many documents at once). A source
        whose work can run in the background may also have ``begin(docs, params)``, returning a reading
        with ``close()``, and ``finish(reading)`` giving the hits: the pipeline begins such sources
        before the others run (:class:`redactdesk.detect.tagger.TaggerSource`)."""
        ...


def check_params(name: str, params: Mapping[str, Any] | None, defaults: Mapping[str, Any]) -> dict[str, Any]:
    """Defaults overlaid with ``params``; unknown keys or wrongly typed values raise SourceParamsError."""
    out = dict(defaults)
    for k, v in (params or {}).items():
        if k not in defaults:
            raise SourceParamsError(f"source {name!r} has no parameter {k!r} (known: {', '.join(sorted(defaults))})")
        d = defaults[k]
        if d is not None and not isinstance(v, type(d)) and not (isinstance(d, float) and isinstance(v, int)):
            raise SourceParamsError(f"source {name!r}: parameter {k!r} must be {type(d).__name__}, got {v!r}")
        out[k] = v
    return out


@functools.lru_cache(maxsize=256)
def phrases_by_first(lex: Lexicon, key: str) -> dict[str, list[tuple[int, tuple[str, ...]]]]:
    """{first word: [(position in the list, phrase)]} of a lexicon's hotword list (cached per lexicon)."""
    index: dict[str, list[tuple[int, tuple[str, ...]]]] = {}
    for k, ph in enumerate(lex.hot(key)):
        if ph:
            index.setdefault(ph[0], []).append((k, ph))
    return index
