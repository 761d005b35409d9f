"""Spoken-form normaliser: ASR words -> normalised text with a map back to whole words.

Speech writes "four one one one", "4 -1 -1", "double five", "oh", "j o h n", "M as in Mary",
"john dot smith at gmail dot com". Recognizers want "4 1 1 1", "5 5", "0", "john",
"john.smith@gmail.com". :func:`normalize_words` builds that text as a list of tokens, each
remembering the half-open range of words it came from, so every character of a recognizer hit maps
back to whole words (:meth:`Normalized.word_range`).

Number words become digits with text2num's ``find_numbers`` (English and Spanish). Digit groups
stay separate tokens ("4111 1111"), so a recognizer sees a digit run as digits joined by spaces.
Turn breaks become newlines: no token run crosses a speaker change.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

from text_to_num import find_numbers

from redactdesk.lang.alphabet import ONE_LETTER_WORDS, fold1, fused_spelling
from redactdesk.lang.digits import (
    AGE_WORD,
    DIGIT_WORDS,
    MISHEARD_DIGITS,
    NUMBER_WORDS,
    SINGLE_DIGIT_WORDS,
    SPANISH_TENS,
)
from redactdesk.lang.lexicon import TLDS, Lexicon, load_lexicon

NUM, LETTER, WORD, SYM, ALNUM = "num", "letter", "word", "sym", "alnum"

_STRIP = ".,;:!?¡¿\"“”‘’«»()[]{}…*"
_DIGITS = re.compile(r"\d+")
_THOUSANDS = re.compile(r"\d{1,3}(?:,\d{3})+")
_SIGNED = re.compile(r"[+\-−–]+(\d+)")
_DIGIT_GROUPS = re.compile(r"\d+(?:[-–,]\d+)+")  # "12-34", and "0958,020" (numbers listed without a space)
_ABBREVIATIONS = frozenset({"a.m", "p.m", "e.g", "i.e", "a.k.a", "p.s", "n.b", "c.v", "e.t.a", "r.i.p", "q.v"})
_HYPHEN_LETTERS = re.compile(r"[a-zñ](?:[-.][a-zñ])+\.?")
_CODE_GROUPS = re.compile(r"[a-z0-9]+(?:[-–][a-z0-9]+)+")  # "s530-4127-8391", "ab12-3456": a code in groups
_ORDINAL = re.compile(r"(\d+)(st|nd|rd|th|º|ª|o|a|er|ro|do|to|vo|no)")
_ALNUM = re.compile(r"(?=[a-zñ]*\d)(?=\d*[a-zñ])[a-zñ0-9]+")
_LETTER = re.compile(r"[a-zñ]")
_PLURAL_SCALES = frozenset({"hundreds", "thousands", "millions", "billions", "trillions", "dozens", "cientos",
                            "miles", "millones", "billones"})
_NOT_NUMBER_PART = frozenset({"point", "dot", "punto", "coma", "period"})


@dataclass(frozen=True)
class NToken:
    """One normalised token and the words ``[w0, w1)`` it came from."""

    text: str
    kind: str
    w0: int
    w1: int
    ordinal: bool = False
    glue: bool = False  # written straight after the previous token, no space
    formatted: bool = False  # came from one written word such as "M-K" or "L,"
    seg: int = 0


@dataclass
class Normalized:
    """Normalised text plus the maps from characters to tokens and from tokens to words."""

    text: str
    tokens: list[NToken]
    char_tok: list[int]
    tok_start: list[int]
    tok_end: list[int]
    n_words: int
    language: str = "en"
    _word_tok: dict[int, int] = field(default_factory=dict, repr=False)

    def word_range(self, start_char: int, end_char: int) -> tuple[int, int] | None:
        """The words ``[w0, w1)`` behind the characters ``[start_char, end_char)``, or None."""
        toks = {t for t in self.char_tok[max(0, start_char) : end_char] if t >= 0}
        if not toks:
            return None
        return self.tokens_words(min(toks), max(toks) + 1)

    def tokens_words(self, t0: int, t1: int) -> tuple[int, int]:
        """The words ``[w0, w1)`` behind the tokens ``[t0, t1)``."""
        toks = self.tokens[t0:t1]
        return min(t.w0 for t in toks), max(t.w1 for t in toks)

    def token_at(self, char: int) -> int:
        return self.char_tok[char] if 0 <= char < len(self.char_tok) else -1

    def token_of_word(self, word: int) -> int | None:
        """Index of the first token made from ``word`` (None when the word left no token)."""
        if not self._word_tok:
            for i, t in enumerate(self.tokens):
                for w in range(t.w0, t.w1):
                    self._word_tok.setdefault(w, i)
        return self._word_tok.get(word)

    def tokens_text(self, t0: int, t1: int) -> str:
        return self.text[self.tok_start[t0] : self.tok_end[t1 - 1]]


@dataclass
class _Piece:
    text: str
    kind: str
    w0: int
    w1: int
    ordinal: bool = False
    formatted: bool = False
    upper: bool = False  # written as a capital letter ("A", "I" included)


_NUMBER_SIGN_REF = re.compile(r"#(?=[A-Z\d./-]*\d)[A-Z\d][A-Z\d./-]*")


def clean_word(raw: str) -> str:
    """Lower case, outer punctuation stripped (inner dots, @, hyphens and apostrophes kept)."""
    s = raw.strip().lower().replace("’", "'")
    s = s.strip(_STRIP + "'")
    return s


def _pieces_of_word(raw: str, w: int) -> list[_Piece]:
    t = clean_word(raw)
    if not t:
        return []
    if raw.strip()[:1] == "." and len(t) > 1 and t.replace(".", "").isalnum() and t[0].isalpha() and (
            not raw.strip(_STRIP).isupper()):  # (".NET" is a name; ".Jones" is "dot jones")
        # Whisper writes a spoken "dot example dot com" as " .example .com": the dot is the word's
        return [_Piece(".", SYM, w, w + 1), _Piece(t, WORD, w, w + 1)]
    if len(t) > 1 and t.isalpha():  # the common case: an ordinary word
        return [_Piece(t, WORD, w, w + 1)]
    if t[0] == "#" and _NUMBER_SIGN_REF.fullmatch(raw.strip().strip(_STRIP + "'")):
        # "Order #55321", "ticket #4821", "#INV-20931": the number sign, then the number or code
        # (a hashtag, "#blessed", "#2024goals", stays one word)
        rest = raw.strip()
        return [_Piece("#", SYM, w, w + 1), *_pieces_of_word(rest[rest.index("#") + 1:], w)]
    s = raw.strip()
    listed = s.endswith(",") or s.endswith(";")
    if _THOUSANDS.fullmatch(t):
        return [_Piece(t.replace(",", ""), NUM, w, w + 1)]
    m = _SIGNED.fullmatch(t)
    if m:  # "-1" from ASR reading "4 -1 -1"; a leading plus of a phone number
        return [_Piece(m.group(1), NUM, w, w + 1)]
    if t.isdigit():
        return [_Piece(t, NUM, w, w + 1)]
    if _DIGIT_GROUPS.fullmatch(t):
        return [_Piece(g, NUM, w, w + 1) for g in _DIGITS.findall(t)]
    m = AGE_WORD.fullmatch(t)
    if m:  # "67-year-old": the number, then the words that make it an age
        return [_Piece(m.group(1), NUM, w, w + 1),
                *(_Piece(x, WORD, w, w + 1) for x in re.split(r"[-–]", m.group(2)) if x)]
    if _CODE_GROUPS.fullmatch(t) and sum(c.isdigit() for c in t) >= 3:
        groups = re.split(r"[-–]", t)
        raw_groups = re.split(r"[-–]", raw.strip().strip(_STRIP + "'"))
        # letters and digits in groups, as licences and references are printed ("S530-4127-8391",
        # "PX-7734-221-B"); no word: a group of letters is at most three capitals ("covid-19",
        # "top-100", "f-150" stay words)
        letters_ok = all(g.isdigit() or _ALNUM.fullmatch(g) or (len(g) <= 3 and r.isupper())
                         for g, r in zip(groups, raw_groups, strict=False)) and len(groups) == len(raw_groups)
        if letters_ok and any(not g.isdigit() for g in groups):
            out: list[_Piece] = []
            for g in groups:
                if g.isdigit():
                    out.append(_Piece(g, NUM, w, w + 1))
                elif _ALNUM.fullmatch(g):
                    out.append(_Piece(g, ALNUM, w, w + 1))
                else:
                    out.extend(_Piece(c, LETTER, w, w + 1) for c in g)
            return out
    if _HYPHEN_LETTERS.fullmatch(t) and t.rstrip(".") not in _ABBREVIATIONS:  # "e.g.", "e.g", "(e.g.,": no spelling
        return [_Piece(c, LETTER, w, w + 1, formatted=True) for c in t if c.isalpha()]
    m = _ORDINAL.fullmatch(t)
    if m:
        return [_Piece(m.group(1), NUM, w, w + 1, ordinal=True)]
    if _ALNUM.fullmatch(t):
        return [_Piece(t, ALNUM, w, w + 1)]
    if len(t) == 2 and t[0] in "-–" and _LETTER.fullmatch(t[1]):
        # Whisper times a spelling "W-A-L-K-E-R" as the words "W", "-A", "-L" ...: each a letter of it
        return [_Piece(t[1], LETTER, w, w + 1, formatted=True, upper=raw.strip().strip(_STRIP)[-1:].isupper())]
    if len(t) == 1 and _LETTER.fullmatch(t):
        upper = raw.strip().strip(_STRIP).isupper()
        return [_Piece(t, LETTER, w, w + 1, formatted=listed or (upper and t not in ("i", "a")), upper=upper)]
    return [_Piece(t, WORD, w, w + 1)]


class _T:
    """Token protocol object for text2num's find_numbers."""

    __slots__ = ("_t", "_sep")

    def __init__(self, text: str, sep: bool = False) -> None:
        self._t = text
        self._sep = sep

    def text(self) -> str:
        return self._t

    def nt_separated(self, previous: object) -> bool:
        return self._sep

    def not_a_number_part(self) -> bool:
        return self._t in _NOT_NUMBER_PART


def _phrase_at(pieces: list[_Piece], i: int, phrases: Iterable[tuple[str, ...]]) -> int:
    """Length of the longest phrase starting at piece ``i`` (0 when none)."""
    best = 0
    for ph in phrases:
        n = len(ph)
        if n > best and i + n <= len(pieces) and all(pieces[i + k].text == ph[k] for k in range(n)):
            best = n
    return best


def _is_digitish(p: _Piece | None, lex: Lexicon, number_words: frozenset[str]) -> bool:
    return p is not None and (
        (p.kind == NUM and not p.ordinal) or p.text in number_words or p.text in lex.zero_words
    )




def _spoken_digits(pieces: list[_Piece], lex: Lexicon) -> list[_Piece]:
    """Expand "double five" / "triple seven" and read "oh" as zero beside other digits."""
    singles = SINGLE_DIGIT_WORDS[lex.language]
    out: list[_Piece] = []
    i = 0
    n = len(pieces)
    while i < n:
        p = pieces[i]
        nxt = pieces[i + 1] if i + 1 < n else None
        if (p.text in lex.double or p.text in lex.triple) and nxt is not None and (
            (nxt.kind == NUM and len(nxt.text) == 1) or nxt.text in singles or nxt.text in lex.zero_words
        ):
            reps = 2 if p.text in lex.double else 3
            digit = DIGIT_WORDS[lex.language][0] if nxt.text in lex.zero_words else nxt.text
            out.extend(_Piece(digit, nxt.kind if nxt.kind == NUM else WORD, p.w0, nxt.w1) for _ in range(reps))
            i += 2
            continue
        if (p.text in lex.double or p.text in lex.triple) and nxt is not None and _letter_said(nxt, lex) and (
                (out and _letter_said(out[-1], lex)) or (i + 2 < n and _letter_said(pieces[i + 2], lex))):
            # a letter said twice inside a spelling: "p h i double l i p s", "eme u erre i doble ele o"
            # (not "double a batteries")
            reps = 2 if p.text in lex.double else 3
            letter = nxt.text if nxt.kind == LETTER else lex.letter_names[nxt.text]
            # the first letter stands on "double", the others on the letter said: each word is a letter's
            out.append(_Piece(letter, LETTER, p.w0, p.w1))
            out.extend(_Piece(letter, LETTER, nxt.w0, nxt.w1) for _ in range(reps - 1))
            i += 2
            continue
        if (p.text in lex.double or p.text in lex.triple) and nxt is not None and nxt.kind == NUM and (
                nxt.text.isdigit() and 1 < len(nxt.text) and not nxt.ordinal):
            # ASR writes "double two oh four one" as "double 2041": the first digit said twice
            reps = 1 if p.text in lex.double else 2
            out.append(_Piece(nxt.text[0] * reps + nxt.text, NUM, p.w0, nxt.w1))
            i += 2
            continue
        if p.text in lex.zero_words:
            prev = out[-1] if out else None
            prev2 = out[-2] if len(out) > 1 else None
            nxt2 = pieces[i + 2] if i + 2 < n else None
            words = NUMBER_WORDS[lex.language] | lex.double | lex.triple
            before = _is_digitish(prev, lex, words)
            after = _is_digitish(nxt, lex, words)
            connector = nxt is None or any(nxt.text == ph[0] for ph in (*lex.at, *lex.dot, *lex.underscore))
            if (
                (after and (before or _is_digitish(nxt2, lex, words)))
                or (before and _is_digitish(prev2, lex, words))
                or (before and connector)
            ):
                out.append(_Piece(DIGIT_WORDS[lex.language][0], WORD, p.w0, p.w1))
                i += 1
                continue
        out.append(p)
        i += 1
    return out


def _spelled_right(word: str, lex: Lexicon) -> str:
    """A number word as it is spelled, for one that people and ASR misspell ("twelveth", "fourty",
    "nineth": the lexicon's ``number_misspellings``); other words as they are."""
    fixes = lex.raw.get("number_misspellings") or {}
    return str(fixes.get(word, word))


def _ordinal_text(value: int, lang: str) -> str:
    return str(value)


_HUNDRED = {"en": "hundred"}  # languages whose phones are said in hundreds ("eight hundred" for 800)


def _hundreds_then_digits(covered: list[_Piece], after: list[_Piece], lex: Lexicon) -> bool:
    """Is ``covered`` a digit, "hundred" and a digit ("eight hundred five") that three or more digits
    said one by one follow? Then the hundreds are a group of their own and the last digit the first
    of the run: a phone's "eight hundred" (800), not 805. Said alone ("room two hundred five") the
    number stays whole."""
    singles = SINGLE_DIGIT_WORDS.get(lex.language, frozenset())
    hundred = _HUNDRED.get(lex.language)
    return (hundred is not None and len(covered) == 3 and covered[1].text == hundred
            and covered[0].text in singles and covered[2].text in singles
            and len(after) == 3 and all(p.text in singles or (p.kind == NUM and len(p.text) == 1) for p in after))


def _numbers(pieces: list[_Piece], lex: Lexicon) -> list[_Piece]:
    """Number words -> NUM pieces (text2num), keeping the word ranges they cover."""
    if not pieces:
        return pieces
    masked = []
    for k, p in enumerate(pieces):
        in_run = p.kind == LETTER and (
            (k > 0 and pieces[k - 1].kind == LETTER) or (k + 1 < len(pieces) and pieces[k + 1].kind == LETTER)
        )
        lone_and = (
            p.text == "and" and lex.language == "en" and not (k > 0 and pieces[k - 1].text in ("hundred", "thousand"))
        )
        # Spanish joins tens and units with "y" ("setenta y cuatro"): "setenta cuatro" is 70, 4
        sep = lex.language == "es" and k > 0 and pieces[k - 1].text in SPANISH_TENS and p.text in SINGLE_DIGIT_WORDS["es"]
        masked.append(_T("#" if p.kind == NUM or in_run or lone_and else _spelled_right(p.text, lex), sep))
    occs = find_numbers(masked, lex.language, 0)
    out: list[_Piece] = []
    i = 0
    for o in occs:
        out.extend(pieces[i : o.start])
        covered = pieces[o.start : o.end]
        value = o.value
        if value != int(value):
            out.extend(covered)  # decimals are amounts, not identifiers
        elif len(covered) == 1 and covered[0].text in _PLURAL_SCALES:
            out.extend(covered)  # "visited by millions", "miles de personas": a crowd, no number
        elif _hundreds_then_digits(covered, pieces[o.end:o.end + 3], lex):
            # "eight hundred five five five zero one nine nine": a toll-free 800 said as hundreds, then
            # the number digit by digit — no 805
            out.append(_Piece(str(int(value) // 100 * 100), NUM, covered[0].w0, covered[1].w1))
            out.append(_Piece(str(int(value) % 100), NUM, covered[2].w0, covered[2].w1))
        else:
            text = o.text if (o.text.isdigit() and not o.is_ordinal) else str(int(value))
            out.append(
                _Piece(text, NUM, covered[0].w0, covered[-1].w1, ordinal=bool(o.is_ordinal))
            )
        i = o.end
    out.extend(pieces[i:])
    # ASR homophones between digits: "five five for one" -> 5 5 4 1
    mis = MISHEARD_DIGITS.get(lex.language, {})
    if mis:
        for k in range(1, len(out) - 1):
            p = out[k]
            if p.kind == WORD and p.text in mis:
                a, b = out[k - 1], out[k + 1]
                if a.kind == NUM and b.kind == NUM and len(a.text) == 1 and len(b.text) == 1:
                    out[k] = _Piece(mis[p.text], NUM, p.w0, p.w1)
    return out


def _whisper_spanish_compounds(pieces: list[_Piece], lex: Lexicon) -> list[_Piece]:
    """Whisper writes one Spanish number as two: "cincuenta y nueve" as "50 y 9" (so "1950 y 9",
    "760 y 4"), "dos mil veintinueve" as "2000, 29". Joined back into one NUM over all their words,
    so a date or amount span covers the whole number. Digit groups ("900 12 34") are left alone."""
    if lex.language != "es":
        return pieces
    out: list[_Piece] = []
    i = 0
    while i < len(pieces):
        p = pieces[i]
        plain = p.kind == NUM and not p.ordinal and p.text.isdigit()
        if plain and i + 2 < len(pieces) and re.fullmatch(r"\d*[3-9]0", p.text) and pieces[i + 1].text == "y":
            units = pieces[i + 2]
            if units.kind == NUM and not units.ordinal and re.fullmatch(r"[1-9]", units.text):
                out.append(_Piece(str(int(p.text) + int(units.text)), NUM, p.w0, units.w1))
                i += 3
                continue
        if plain and p.text == "2000" and i + 1 < len(pieces):
            year = pieces[i + 1]
            if year.kind == NUM and not year.ordinal and re.fullmatch(r"[1-9]\d?", year.text):
                out.append(_Piece(str(2000 + int(year.text)), NUM, p.w0, year.w1))
                i += 2
                continue
        out.append(p)
        i += 1
    return out


def _letter_said(p: _Piece, lex: Lexicon) -> bool:
    """A single letter, or a letter's name ("ele", "erre")."""
    return p.kind == LETTER or (p.kind == WORD and p.text in lex.letter_names)


def _letter_of(p: _Piece, lex: Lexicon) -> str | None:
    """The letter a piece can stand for when spelling (None when it cannot)."""
    if p.kind == LETTER:
        return p.text
    if p.kind == WORD:
        if p.text in lex.letter_names:
            return lex.letter_names[p.text]
        if p.text in lex.nato:
            return lex.nato[p.text]
    return None




# Letters Whisper writes for another that sounds the same: Spanish "i" is heard as the word "y".
_SAME_SOUND = {"es": {"y": "i"}}


def _unfuse_letters_as(pieces: list[_Piece], lex: Lexicon) -> list[_Piece]:
    """Split Whisper's fusions (:func:`fused_spelling`) back into letter, joiner and word pieces;
    a word that takes in the next word is one piece over both ("odeo Viedo" -> O de oviedo)."""
    out: list[_Piece] = []
    i = 0
    while i < len(pieces):
        p = pieces[i]
        nxt = pieces[i + 1] if i + 1 < len(pieces) and pieces[i + 1].kind == WORD else None
        fused = fused_spelling(p.text, nxt.text if nxt else None, lex) if p.kind == WORD else None
        if fused is None:
            out.append(p)
            i += 1
            continue
        letter, joiner, word, takes_next = fused
        end = nxt.w1 if takes_next and nxt else p.w1
        out += [_Piece(letter, LETTER, p.w0, p.w1), _Piece(joiner, WORD, p.w0, p.w1), _Piece(word, WORD, p.w0, end)]
        i += 2 if takes_next else 1
    return out


def _letters_as_in(pieces: list[_Piece], lex: Lexicon) -> list[_Piece]:
    """Collapse "M as in Mary" / "eme de Madrid" and two-word Spanish letter names into LETTER pieces
    (before number parsing, so "O as in Ocean" is not read as zero)."""
    out: list[_Piece] = []
    n = len(pieces)
    i = 0
    while i < n:
        p = pieces[i]
        letter = _letter_of(p, lex) if (p.kind == LETTER or p.text in lex.letter_names) else None
        if letter is not None:
            k = _phrase_at(pieces, i + 1, lex.letter_as)
            j = i + 1 + k
            # the word that says the letter is a name or a noun, no function word: "and I like it" spells nothing
            said = fold1(pieces[j].text) if j < n and pieces[j].kind == WORD and len(pieces[j].text) > 1 and (
                pieces[j].text not in lex.stop_words) else None
            if k and said is not None and (said == letter or _SAME_SOUND.get(lex.language, {}).get(letter) == said):
                out.append(_Piece(said, LETTER, p.w0, pieces[j].w1, formatted=True))
                i = j + 1
                continue
        if i + 1 < n and f"{p.text} {pieces[i + 1].text}" in lex.letter_names:
            out.append(_Piece(lex.letter_names[f"{p.text} {pieces[i + 1].text}"], LETTER, p.w0, pieces[i + 1].w1))
            i += 2
            continue
        out.append(p)
        i += 1
    return out


def _digits_before(pieces: list[_Piece]) -> int:
    """Digits said in the run of cardinal numbers that ends ``pieces``."""
    n, k = 0, len(pieces)
    while k > 0 and pieces[k - 1].kind == NUM and not pieces[k - 1].ordinal:
        n += len(pieces[k - 1].text)
        k -= 1
    return n


def _code_digits_before(pieces: list[_Piece]) -> int:
    """Digits said in the run of numbers and letters that ends ``pieces``, where letters are among them
    ("seven five three one one six s m nine": 7; "nineteen ninety": 0, a year or a decade)."""
    n, k, letters = 0, len(pieces), False
    while k > 0 and ((pieces[k - 1].kind == NUM and not pieces[k - 1].ordinal) or pieces[k - 1].kind == LETTER):
        n += len(pieces[k - 1].text) if pieces[k - 1].kind == NUM else 0
        letters |= pieces[k - 1].kind == LETTER
        k -= 1
    return n if letters else 0


def _digits_after(pieces: list[_Piece], k: int) -> int:
    """How many digits the number pieces from ``k`` on write, up to the first other piece."""
    n = 0
    while k < len(pieces) and pieces[k].kind == NUM and not pieces[k].ordinal:
        n += len(pieces[k].text)
        k += 1
    return n


def _pronoun_i_ends(run: list[_Piece], words: Sequence[str]) -> bool:
    """Is the run's last letter the pronoun "I" opening a clause that goes on in lower case ("A. I was
    at my sister's", a court transcript's answer; "Q. I see")? Written "I" without a full stop, after a
    letter with one and before a word in lower case: no letter of a spelling ("S M I T H", "K A I and")."""
    last = run[-1]
    if (last.kind != LETTER or last.text != "i" or not last.upper or last.w1 >= len(words) or last.w0 < 1
            or not words[last.w0 - 1].rstrip().endswith(".")):
        return False
    nxt = words[last.w1].strip().lstrip("\"'“‘(")
    return words[last.w0].strip() == "I" and nxt[:1].isalpha() and nxt[:1].islower() and len(nxt.rstrip(".,;:!?")) > 1


def _spelled(out: list[_Piece], lex: Lexicon, words: Sequence[str] = ()) -> list[_Piece]:
    """Keep only letter runs that are really spelling (two or more letters, not all everyday words)."""
    # Find runs of letter-like pieces; keep runs that are spelling, demote the rest to words.
    amb = ONE_LETTER_WORDS.get(lex.language, frozenset())
    result: list[_Piece] = []
    i = 0
    n = len(out)
    while i < n:
        if _letter_of(out[i], lex) is None:
            result.append(out[i])
            i += 1
            continue
        j = i
        while j < n and _letter_of(out[j], lex) is not None:
            j += 1
        if j - i >= 2 and _pronoun_i_ends(out[i:j], words):
            j -= 1  # the pronoun opens a clause after the run: a word, whatever the letters before it are
        run = out[i:j]
        n_upper = sum(1 for p in run if p.upper)
        before_digits = j < n and out[j].kind == NUM and not out[j].ordinal
        after_digits = bool(result) and result[-1].kind == NUM and not result[-1].ordinal
        # alphabet words spell when three come together, or two lead or end digits ("alpha bravo
        # seven seven", "7-7-3-9, alpha, bravo")
        nato_spells = len(run) >= 3 or (len(run) >= 2 and (before_digits or after_digits)
                                         and all(p.text in lex.nato for p in run))
        strong = sum(
            1
            for p in run
            if p.formatted
            or (p.upper and n_upper >= 2)
            or (p.kind == LETTER and p.text not in amb)
            or p.text in lex.unambiguous_letter_names
            or (p.text in lex.nato and nato_spells)
        )
        if (
            (len(run) >= 2 and strong >= 2)
            or (len(run) >= 3 and strong >= 1)
            or (len(run) >= 2 and strong >= 1 and before_digits)
            or (len(run) == 1 and run[0].formatted and run[0].kind == LETTER)
            # one alphabet word or unambiguous letter between digits: "one alpha two", "four b six"
            or (len(run) == 1 and before_digits and after_digits and (
                run[0].text in lex.nato or (run[0].kind == LETTER and run[0].text not in amb)))
            # English letters that are words too, between digits: a code's ("one z nine nine nine a a one
            # zero ..."); Spanish ones there join numbers ("de dos a tres", "dos o tres", "dos y tres")
            or (len(run) <= 3 and before_digits and after_digits and all(
                p.kind == LETTER and (p.text not in amb or lex.language == "en") for p in run))
            # an unambiguous letter opening a code of three digits or more: "e zero zero four five one two"
            or (len(run) == 1 and before_digits and not after_digits and run[0].kind == LETTER
                and run[0].text not in amb and _digits_after(out, j) >= 3)
            # ... or closing a code of three digits or more: "seven seven three four two two one b",
            # a DNI's "... seis siete zeta"
            or (len(run) == 1 and not before_digits and _digits_before(result) >= 3 and (
                (run[0].kind == LETTER and run[0].text not in amb) or run[0].text in lex.unambiguous_letter_names))
            # ... or two or three letters closing a code of letters and three digits or more, one of them
            # no word: a British driving licence's check letters ("... six s m nine i j")
            or (2 <= len(run) <= 3 and not before_digits and after_digits and _code_digits_before(result) >= 3
                and all(p.kind == LETTER for p in run) and strong >= 1)
        ):
            for p in run:
                result.append(_Piece(_letter_of(p, lex) or p.text, LETTER, p.w0, p.w1, formatted=p.formatted))
        else:
            for p in run:
                result.append(_Piece(p.text, WORD, p.w0, p.w1) if p.kind == LETTER else p)
        i = j
    return result


_ARITHMETIC = frozenset({"minus", "menos"})  # "five minus two" is a sum, no dash of a code


@functools.lru_cache(maxsize=8)
def said_dashes(lex: Lexicon, minus: bool = False) -> frozenset[str]:
    """The one-word dashes of the lexicon ("dash", "hyphen") that join the pieces of a number or code
    read aloud; "minus" among them only when ``minus`` (as a word no name holds, not as a joiner)."""
    words = frozenset(ph[0] for ph in lex.dash if len(ph) == 1)
    return words if minus else words - _ARITHMETIC


@functools.lru_cache(maxsize=8)
def letter_joiners(lex: Lexicon) -> frozenset[str]:
    """The words said between the letters of a name spelled out for the marks inside it (the
    lexicon's spoken ``letter_joiners``: "o apostrophe s u l l i v a n", "s m i t h hyphen j o n e s")."""
    return frozenset(str(w).lower() for w in (lex.raw.get("spoken") or {}).get("letter_joiners", ()))


def _drop_fillers(pieces: list[_Piece], lex: Lexicon) -> list[_Piece]:
    """Drop hesitations inside digit or letter runs ("4111 um 1111"), and a dash said between digit
    groups ("one two three dash four five dash six seven eight nine") or between letters and digits
    ("c l m dash two zero two four"): the run is one number or reference, the item covers the dashes.
    A name's mark said between spelled letters ("o apostrophe s u l l i v a n") goes too: the letters
    are one spelled name (before, "apostrophe" was left between two items, once read as a person)."""
    dashes = said_dashes(lex)
    marks = letter_joiners(lex)
    out: list[_Piece] = []
    for k, p in enumerate(pieces):
        if p.kind == WORD and p.text in dashes and out and out[-1].kind in (NUM, LETTER) and k + 1 < len(pieces) and (
                pieces[k + 1].kind in (NUM, LETTER)) and NUM in (out[-1].kind, pieces[k + 1].kind):
            continue  # and between letters and digits: "c l m dash two zero two four", a reference
        if p.kind == WORD and p.text in marks and out and k + 1 < len(pieces) and pieces[k + 1].kind == LETTER:
            last = out[-1]
            if last.kind == LETTER:
                continue
            if last.w1 - last.w0 == 1 and (last.kind, last.text) in ((NUM, "0"), (WORD, "o")):
                out[-1] = _Piece("o", LETTER, last.w0, last.w1)  # "o apostrophe b r i e n": O'Brien, no zero, no "or"
                continue
        if p.kind == WORD and p.text in lex.fillers and out:
            nxt = next((q for q in pieces[k + 1 :] if not (q.kind == WORD and q.text in lex.fillers)), None)
            if nxt is not None and out[-1].kind in (NUM, LETTER, ALNUM) and nxt.kind == out[-1].kind:
                continue
        out.append(p)
    return out


# --- email / web / IP glue -------------------------------------------------------------------------

_LABEL_KINDS = (WORD, LETTER, NUM, ALNUM)
_AT_LABEL_RE = re.compile(r"[a-z0-9][a-z0-9._%+-]*@[a-z0-9][a-z0-9-]*")
_LABEL_RE = re.compile(r"[a-z0-9ñáéíóúü][a-z0-9ñáéíóúü._+'-]*")  # "o'neill" of "k dot o'neill at ..."
_DOMAIN_RE = re.compile(r"[a-z0-9][a-z0-9-]*(?:\.[a-z0-9-]+)*\.([a-z]{2,})")


@functools.lru_cache(maxsize=4)
def _connector_starts(lex: Lexicon) -> frozenset[str]:
    return frozenset(ph[0] for group in (lex.at, lex.dot, lex.underscore, lex.dash, lex.slash) for ph in group)


def _connector(tokens: list[NToken], i: int, lex: Lexicon) -> tuple[str, int] | None:
    """(symbol, number of tokens) when a spoken connector starts at token ``i``."""
    if i < 0 or i >= len(tokens):
        return None
    t = tokens[i]
    if t.kind == SYM:
        return t.text, 1
    if t.text not in _connector_starts(lex):
        return None
    words = [tk.text for tk in tokens[i : i + 3]]
    for sym, phrases in (("@", lex.at), (".", lex.dot), ("_", lex.underscore), ("-", lex.dash), ("/", lex.slash)):
        for ph in phrases:
            if tuple(words[: len(ph)]) == ph:
                return sym, len(ph)
    return None


class _Glue:
    """Finds spoken email addresses, web addresses and IPs in a token list and glues them."""

    def __init__(self, tokens: list[NToken], lex: Lexicon, words: Sequence[str] | None = None) -> None:
        self.t = tokens
        self.lex = lex
        self.words = words  # the raw words (what punctuation ASR wrote)
        self.stop = lex.stop_words | {w for ph in lex.hot("email") for w in ph} | {"address", "dirección"}

    def is_label(self, i: int) -> bool:
        if not 0 <= i < len(self.t):
            return False
        tk = self.t[i]
        if tk.kind not in _LABEL_KINDS or tk.ordinal:
            return False
        if tk.kind == WORD:  # "jack@gmail" (then "dot com"): a written local part and domain label
            return bool(_LABEL_RE.fullmatch(tk.text) or _AT_LABEL_RE.fullmatch(tk.text)) \
                and _connector(self.t, i, self.lex) is None
        return True

    def label_start(self, i: int) -> int:
        """Start of the letter run that ends at token ``i`` (letters are glued into one label)."""
        while i > 0 and self.t[i].kind == LETTER and self.t[i - 1].kind == LETTER and self.t[i].glue:
            i -= 1
        return i

    def run(self) -> list[NToken]:
        t = self.t
        starts = _connector_starts(self.lex)
        if not any(tk.text in starts or "." in tk.text for tk in t):
            return t  # no spoken or written dot, at, dash ...: nothing to glue
        i = 0
        while i < len(t):
            tld_end = self._tld_end(i)
            if tld_end is None:
                i += 1
                continue
            stretch = self._domain(i, tld_end)
            if stretch is None:
                i += 1
                continue
            start, parts = stretch
            i = self._apply(start, parts)
            t = self.t
        self._ips()
        return self.t

    def _tld_end(self, i: int) -> int | None:
        """If token ``i`` is a TLD after a spoken or written dot, the index after it."""
        t = self.t
        tk = t[i]
        if tk.kind == WORD and _DOMAIN_RE.fullmatch(tk.text) and _DOMAIN_RE.fullmatch(tk.text).group(1) in TLDS:
            return i + 1  # a written domain such as "gmail.com"
        if tk.text not in TLDS or i < 2:
            return None
        # the dot connector just before (one or more tokens)
        for back in (1, 2):
            c = _connector(t, i - back, self.lex)
            if c and c[0] == "." and c[1] == back:
                return i + 1
        return None

    def _domain(self, tld: int, end: int) -> tuple[int, list[tuple[int, int, str | None]]] | None:
        """Walk left from a TLD over labels and connectors; returns the stretch start and its parts
        as (token start, token end, symbol or None for a label)."""
        t = self.t
        parts: list[tuple[int, int, str | None]] = []
        i = tld
        if end - tld == 1 and t[tld].kind == WORD and "." in t[tld].text:
            parts.append((tld, end, None))
            i = tld - 1
            domain_labels = 2
        else:
            parts.append((tld, end, None))
            i = tld - 1
            # dot before the TLD
            c = None
            for back in (1, 2):
                cc = _connector(t, tld - back, self.lex)
                if cc and cc[1] == back:
                    c = cc
                    break
            if c is None:
                return None
            parts.append((tld - c[1], tld, "."))
            i = tld - c[1] - 1
            if not self.is_label(i):
                return None
            domain_labels = 1
            s = self.label_start(i)
            parts.append((s, i + 1, None))
            i = s - 1
            # more labels joined by dots or dashes
            while True:
                found = None
                for back in (1, 2):
                    cc = _connector(t, i - back + 1, self.lex)
                    if cc and cc[1] == back and cc[0] in ".-" and self.is_label(i - back):
                        found = (cc, back)
                        break
                if not found:
                    break
                (sym, _), back = found
                parts.append((i - back + 1, i + 1, sym))
                i -= back
                s = self.label_start(i)
                parts.append((s, i + 1, None))
                i = s - 1
                domain_labels += 1
        # an "at" before the domain makes it an email: walk the local part
        at = None
        for back in (1, 2):
            cc = _connector(t, i - back + 1, self.lex)
            if cc and cc[1] == back and cc[0] == "@":
                at = back
                break
        if at is not None and self.is_label(i - at) and t[i - at].text not in self.stop:
            parts.append((i - at + 1, i + 1, "@"))
            i -= at
            s = self.label_start(i)
            parts.append((s, i + 1, None))
            i = s - 1
            count = 1
            while count < 6:
                found = None
                for back in (1, 2):
                    cc = _connector(t, i - back + 1, self.lex)
                    if cc and cc[1] == back and cc[0] in "._-" and self.is_label(i - back):
                        found = (cc[0], back)
                        break
                if found:
                    sym, back = found
                    parts.append((i - back + 1, i + 1, sym))
                    i -= back
                    s = self.label_start(i)
                    parts.append((s, i + 1, None))
                    i = s - 1
                    count += 1
                    continue
                # digits or spelled letters straight before a label: "john 85", "j smith"; a name
                # whose spoken "dot" ASR wrote as a full stop: "Megan. Wright at example .org"
                first = parts[-1][0]
                if (
                    self.is_label(i)
                    and t[i].seg == t[first].seg
                    and t[i].text not in self.stop
                    and (t[first].kind == NUM or t[i].kind == LETTER or self._full_stop_for_dot(i, first))
                ):
                    s = self.label_start(i)
                    parts.append((s, i + 1, None))
                    i = s - 1
                    count += 1
                    continue
                break
        elif domain_labels < 2 and t[tld].text not in ("com", "net", "org", "es", "io"):
            # a bare "word dot uk" is too weak to call a web address
            return None
        parts.reverse()
        if at is None:
            parts += self._path(end)
        return parts[0][0], parts

    def _path(self, i: int) -> list[tuple[int, int, str | None]]:
        """The parts of a web address's path said after its domain, from token ``i``: "slash in slash
        priya dash raman" (linkedin.com/in/priya-raman). Each step is a slash and a label, the label
        joined to more by dashes, underscores or dots; at most six steps."""
        t, parts = self.t, []
        for _ in range(6):
            c = _connector(t, i, self.lex)
            if c is None or c[0] != "/" or not self.is_label(i + c[1]) or t[i + c[1]].seg != t[i].seg:
                break  # after a slash any word is the path's ("slash in slash ...": linkedin.com/in/...)
            parts.append((i, i + c[1], "/"))
            i += c[1]
            e = self._label_end(i)
            parts.append((i, e, None))
            i = e
            while (cc := _connector(t, i, self.lex)) is not None and cc[0] in "-_." and self.is_label(i + cc[1]) \
                    and t[i + cc[1]].text not in self.stop:
                parts.append((i, i + cc[1], cc[0]))
                i += cc[1]
                e = self._label_end(i)
                parts.append((i, e, None))
                i = e
        return parts

    def _label_end(self, i: int) -> int:
        """End of the letter run that starts at token ``i`` (letters said one by one are one label)."""
        e = i + 1
        while e < len(self.t) and self.t[i].kind == LETTER and self.t[e].kind == LETTER and self.t[e].glue:
            e += 1
        return e

    def _full_stop_for_dot(self, i: int, first: int) -> bool:
        """Is token ``i`` a word straight before the local part's first label ``first`` that ASR wrote
        for "megan dot wright at ..." — "Megan. Wright at ..." (the dot a full stop) or "Rebecca Wolfe
        at ..." (the dot dropped: two capitalised names, neither a stop word)?"""
        if self.words is None or self.t[i].kind != WORD or self.t[i].w1 != self.t[first].w0:
            return False
        raw = self.words[self.t[i].w1 - 1].strip()
        if raw.endswith(".") and not raw.endswith("..") and raw[:-1].isalpha():
            return True
        nxt = self.words[self.t[first].w0].strip()
        return raw.isalpha() and raw[:1].isupper() and raw[1:].islower() and nxt[:1].isupper() and (
            self.t[first].kind == WORD and len(self.t[first].text) > 1)

    def _apply(self, start: int, parts: list[tuple[int, int, str | None]]) -> int:
        """Rewrite the stretch: connectors become symbols, everything after ``start`` is glued.
        Returns the index just after the stretch in the rewritten list."""
        t = self.t
        new: dict[int, NToken | None] = {}
        for a, b, sym in parts:
            if sym is not None:
                new[a] = NToken(sym, SYM, t[a].w0, t[b - 1].w1, glue=True, seg=t[a].seg)
                for k in range(a + 1, b):
                    new[k] = None
            else:
                for k in range(a, b):
                    new[k] = replace(t[k], glue=(k != start))
        end = parts[-1][1]
        removed_before_end = sum(1 for k, v in new.items() if v is None and k < end)
        self.t = [new.get(k, tk) for k, tk in enumerate(t) if not (k in new and new[k] is None)]
        return end - removed_before_end

    def _num_group(self, i: int) -> int:
        """End of a group of digit tokens starting at ``i`` that together hold at most 3 digits."""
        t = self.t
        j, digits = i, 0
        while j < len(t) and t[j].kind == NUM and not t[j].ordinal and digits + len(t[j].text) <= 3:
            if j > i and t[j].glue:
                break
            digits += len(t[j].text)
            j += 1
        return j

    def _ips(self) -> None:
        """Four digit groups joined by spoken dots: "192 dot 168 dot 1 dot 1", "one nine two dot ..."."""
        t = self.t
        i = 0
        while i < len(t):
            if t[i].kind == NUM and not t[i].ordinal and len(t[i].text) <= 3:
                parts: list[tuple[int, int, str | None]] = [(i, self._num_group(i), None)]
                j = parts[0][1]
                while len(parts) < 7:
                    c = _connector(t, j, self.lex)
                    if not c or c[0] != "." or j + c[1] >= len(t):
                        break
                    g = self._num_group(j + c[1])
                    if g == j + c[1]:
                        break
                    parts.append((j, j + c[1], "."))
                    parts.append((j + c[1], g, None))
                    j = g
                if len(parts) == 7:
                    i = self._apply(i, parts)
                    t = self.t
                    continue
            i += 1


# --- assembly ---------------------------------------------------------------------------------------


def _segments(n_words: int, breaks: Iterable[int]) -> list[tuple[int, int]]:
    cuts = sorted({b for b in breaks if 0 < b < n_words})
    bounds = [0, *cuts, n_words]
    return [(a, b) for a, b in zip(bounds, bounds[1:], strict=False) if b > a]


def normalize_words(words: Sequence[str], language: str = "en", breaks: Iterable[int] = ()) -> Normalized:
    """Normalise ASR words. ``breaks`` are word indices where a new turn starts (no run crosses one)."""
    lex = load_lexicon(language)
    tokens: list[NToken] = []
    for seg, (a, b) in enumerate(_segments(len(words), breaks)):
        pieces: list[_Piece] = []
        for w in range(a, b):
            pieces.extend(_pieces_of_word(words[w], w))
        pieces = _letters_as_in(_unfuse_letters_as(pieces, lex), lex)
        pieces = _spoken_digits(pieces, lex)
        pieces = _whisper_spanish_compounds(_numbers(pieces, lex), lex)
        pieces = _spelled(pieces, lex, words)
        pieces = _drop_fillers(pieces, lex)
        seg_tokens: list[NToken] = []
        prev_kind = None
        for p in pieces:
            glue = p.kind == LETTER and prev_kind == LETTER
            seg_tokens.append(
                NToken(p.text, p.kind, p.w0, p.w1, ordinal=p.ordinal, glue=glue, formatted=p.formatted, seg=seg)
            )
            prev_kind = p.kind
        tokens.extend(_Glue(seg_tokens, lex, words).run())
    return _render(tokens, len(words), lex.language)


def _render(tokens: list[NToken], n_words: int, language: str) -> Normalized:
    parts: list[str] = []
    char_tok: list[int] = []
    starts: list[int] = []
    ends: list[int] = []
    pos = 0
    prev_seg = None
    for i, tk in enumerate(tokens):
        if prev_seg is not None:
            sep = "\n" if tk.seg != prev_seg else ("" if tk.glue else " ")
            if sep:
                parts.append(sep)
                char_tok.append(-1)
                pos += 1
        starts.append(pos)
        parts.append(tk.text)
        char_tok.extend([i] * len(tk.text))
        pos += len(tk.text)
        ends.append(pos)
        prev_seg = tk.seg
    return Normalized("".join(parts), tokens, char_tok, starts, ends, n_words, language)
