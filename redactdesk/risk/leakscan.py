"""Leak scan: search released text for any original value of an accepted span, in its variants.

Variants cover how the same value can reappear: as said (lower-cased, whitespace folded), digits
without spaces or dashes, number words turned into digits and digits into words (en, es), and
letters spelled out joined into a word. Letter sequences are searched too: every word of an
original (and the letters of an original that was itself spelled, "M -D -D -I -N -A") is looked for
spelled out in the release — "m -e -d -i -n -a", "M, E, D", "M as in Mary E as in Edward ..." — so a
spelled passage that still spells the real name is a leak even when every alphabet word changed.
Findings never carry the original text — only where it was found, its category, and a masked hint.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from redactdesk.core.kept_years import YEAR_KEPT, kept_year
from redactdesk.core.types import Conversation, SpanStatus
from redactdesk.lang.folding import strip_marks
from redactdesk.resources import function_words

TEXT_SUFFIXES = {".json", ".jsonl", ".txt", ".TextGrid", ".textgrid", ".eaf", ".conll", ".csv", ".html", ".vtt",
                 ".srt", ".ctm", ".md",
                 ".stm", ".rttm"}
MIN_VARIANT_CHARS = 3


_SPACES = re.compile(r"\s+")
SEPARATORS = re.compile(r"[\s\-.,]")  # removed from a line before digit runs are searched in it


def fold_line(text: str) -> str:
    """A line as the scan compares it: lower case, runs of white space as one space."""
    return _SPACES.sub(" ", text.lower()).strip()


def _digits_to_words(text: str, lang: str) -> str:
    from num2words import num2words

    return re.sub(r"\d", lambda m: " " + num2words(int(m.group()), lang=lang) + " ", text)


def _words_to_digits(text: str, lang: str) -> str:
    try:
        from text_to_num import alpha2digit

        return alpha2digit(text, lang, threshold=0)
    except Exception:  # text2num refuses some inputs; the other variants still apply
        return text


def variants(original: str, language: str = "en") -> set[str]:
    """Normalised forms under which ``original`` could reappear in exported text."""
    base = fold_line(original)
    out = {base}
    squashed = SEPARATORS.sub("", base)
    if any(c.isdigit() for c in base):
        out.add(re.sub(r"\D", "", base))
        out.add(fold_line(_digits_to_words(base, language)))
    as_digits = fold_line(_words_to_digits(base, language))
    if as_digits != base:
        out.add(as_digits)
        out.add(re.sub(r"[\s\-]", "", as_digits))
    spoken_symbols = re.sub(r"\s*\b(dot|punto)\b\s*", ".", base)
    spoken_symbols = re.sub(r"\s*\b(at|arroba)\b\s*", "@", spoken_symbols)
    spoken_symbols = re.sub(r"\s*\b(underscore|guion bajo)\b\s*", "_", spoken_symbols)
    if spoken_symbols != base:
        out.add(spoken_symbols.replace(" ", ""))
    tokens = base.replace("-", " ").split()
    if tokens and all(len(t) == 1 for t in tokens):  # spelled letters "s m i t h" -> "smith"
        out.add("".join(tokens))
    out.add(squashed)
    return {v for v in out if len(v.replace(" ", "")) >= MIN_VARIANT_CHARS}


MIN_SPELLED_LETTERS = 3
_SEP = r"[\s,.\-]+"
_LETTER_CONNECTORS = r"(?:as|is|was)\s+in(?:\s+the\s+word)?|as\s+an|like|for|de(?:\s+la\s+palabra)?|como(?:\s+en)?"
# between two spelled letters: separators, optionally "as in <word>" / "de <word>" after the letter
_BETWEEN = rf"(?:{_SEP}(?:{_LETTER_CONNECTORS})\s+[^\s]+)?{_SEP}"


def fold_accents(text: str) -> str:
    """Lower case without accents: the form released text and originals are compared in."""
    return strip_marks(text.lower())


def letter_sequences(original: str, language: str = "en") -> set[str]:
    """Lower-case letter strings of ``original`` that must not come back spelled letter by letter:
    each word of three letters or more (not a function word) and, for an original that is itself
    spelled ("M -D -D -I -N -A", "G as in George ..."), its letters joined."""
    stop = function_words(language)
    words = re.findall(r"[^\W\d_]+", fold_accents(original))
    out = {w for w in words if len(w) >= MIN_SPELLED_LETTERS and w not in stop}
    singles = [w for w in words if len(w) == 1]
    if len(singles) >= MIN_SPELLED_LETTERS and len(singles) * 2 >= len(words):
        out.add("".join(singles))  # the letters of a spelled original, alphabet words aside
    return out


# the sequence is a whole spelled run: no spelled letter right before it or right after it ("c, o, n,
# w, a, y" spells Conway, not the word "way")
_NO_LETTER_BEFORE = "".join(rf"(?<![^0-9a-zñ'’][a-zñ][\s,.\-]{{{w}}})(?<!^[a-zñ][\s,.\-]{{{w}}})" for w in (1, 2, 3))
_NO_LETTER_AFTER = rf"(?![\s,.\-]+(?:(?:{_LETTER_CONNECTORS})\s+[^\s]+[\s,.\-]+)?[a-zñ](?![0-9a-zñ]))"


class LazyPattern:
    """A regular expression compiled when it is first searched with. A spelled-letter pattern takes
    about 2 ms to compile (its look-behinds), a release has hundreds, and the scan rules most of them
    out by a cheaper test (are the letters said singly anywhere?) before it searches."""

    __slots__ = ("_compiled", "pattern")

    def __init__(self, pattern: str) -> None:
        self.pattern = pattern
        self._compiled: re.Pattern[str] | None = None

    def search(self, text: str) -> re.Match[str] | None:
        if self._compiled is None:
            self._compiled = re.compile(self.pattern)
        return self._compiled.search(text)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, LazyPattern) and other.pattern == self.pattern

    def __hash__(self) -> int:
        return hash(self.pattern)


def spelled_pattern(letters: str) -> LazyPattern:
    """A pattern finding ``letters`` spelled out with any separators or alphabet words, as a whole run."""
    body = _BETWEEN.join(re.escape(c) for c in letters)
    return LazyPattern(r"(?<![0-9a-zñ])" + _NO_LETTER_BEFORE + body + r"(?![0-9a-zñ])" + _NO_LETTER_AFTER)


def _only_function_words(original: str, language: str) -> bool:
    words = re.findall(r"[^\W\d_]+|\d+", _words_to_digits(original.lower(), language))  # "four" is no function word
    stop = function_words(language)
    return bool(words) and all(w in stop for w in words)


def _only_relative_date(original: str, language: str) -> bool:
    from redactdesk.lang.lexicon import month_and_day_words, relative_date_words

    words = [w.removesuffix("'s") for w in re.findall(r"[^\W\d_]+(?:'s)?", original.lower())]
    known = relative_date_words(language) | function_words(language)
    months, days = month_and_day_words(language)
    absolute = any(w in months for w in words) and any(w in days for w in words)  # "the fifth of may"
    return bool(words) and not re.search(r"\d", original) and not absolute and all(w in known for w in words)


def hint(original: str) -> str:
    """A masked hint of a value for reports: first character of each word, the rest starred."""
    return " ".join(w[0] + "*" * (len(w) - 1) for w in original.split()) or "*"


@dataclass(frozen=True)
class LeakFinding:
    file: str
    line: int
    conversation_id: str
    category: str
    variant: str  # which normalisation matched: "as said", "digits", ...
    hint: str


@dataclass(frozen=True)
class Needle:
    conversation_id: str
    category: str
    original: str
    pattern: re.Pattern[str] | LazyPattern
    variant: str
    letters: str = ""  # a letter-sequence needle's letters (for prefilters)


def needles(conversations: Iterable[Conversation]) -> list[Needle]:
    """Search patterns for every accepted span's original text and its variants."""
    out: list[Needle] = []
    for conv in conversations:
        for span in conv.spans:
            if span.status != SpanStatus.ACCEPTED:
                continue
            original = conv.span_text(span)
            if _only_function_words(original, conv.language):
                continue  # a garbled item heard as "con": searching for it finds only the word "con"
            if span.category in YEAR_KEPT and _only_relative_date(original, conv.language):
                continue  # "tomorrow", "next friday": kept as said by design, they name no day alone
            for v in sorted(variants(original, conv.language)):
                if v.isdigit() and len(v) < 4:
                    continue  # short numbers (ages, days) occur everywhere; longer runs are caught
                if kept_year(span.category, v):
                    continue  # an event date moves by whole weeks and may keep its year, by design
                if v.isdigit():  # searched in lines with separators removed: only digit boundaries count
                    pat = re.compile(r"(?<!\d)" + v + r"(?!\d)")
                else:
                    body = re.escape(v).replace(r"\ ", r"[\s\-]+")
                    pat = re.compile(r"(?<![0-9a-z])" + body + r"(?![0-9a-z])")
                kind = "digits" if v.isdigit() else "as said" if v == fold_line(original) else "variant"
                out.append(Needle(conv.id, span.category, original, pat, kind))
            for letters in sorted(letter_sequences(original, conv.language)):
                out.append(Needle(conv.id, span.category, original, spelled_pattern(letters), "spelled", letters))
    return out


def scan_text(text: str, name: str, found_needles: list[Needle]) -> list[LeakFinding]:
    findings = []
    folded_lines = [fold_line(line) for line in text.splitlines()]
    plain_lines = [fold_accents(line) for line in folded_lines]
    squashed_lines = [SEPARATORS.sub("", line) for line in folded_lines]
    for n in found_needles:
        for i, line in enumerate(folded_lines):
            hay = squashed_lines[i] if n.variant == "digits" else plain_lines[i] if n.variant == "spelled" else line
            if n.pattern.search(hay):
                findings.append(LeakFinding(name, i + 1, n.conversation_id, n.category, n.variant, hint(n.original)))
    return findings


def scan_folder(folder: str | Path, conversations: Iterable[Conversation]) -> list[LeakFinding]:
    """Scan every text file below ``folder`` for every accepted original (and its variants)."""
    folder = Path(folder)
    ns = needles(conversations)
    findings: list[LeakFinding] = []
    for path in sorted(folder.rglob("*")):
        if path.is_file() and path.suffix in TEXT_SUFFIXES:
            text = path.read_text(encoding="utf-8", errors="replace")
            findings += scan_text(text, str(path.relative_to(folder)), ns)
    return findings
