"""Does a recogniser's output still contain a personal item? Written and spoken forms compared alike.

Both sides are normalised the same way: number words become digits ("four one one" -> "411",
"double five" -> "55", "oh" between digits -> "0"), runs of single letters join ("M-A-R-K" ->
"mark"), "@" and "." in e-mails become "at" and "dot". An item is heard *fully* when its tokens, glued
together, equal a stretch of the heard tokens glued together (digit items: appear inside a heard
digit run); *partly* when a distinctive piece of it is heard (a 4-digit run of a longer number, a
name token of 3+ letters).
"""

from __future__ import annotations

import functools
import re

from text_to_num import alpha2digit

from redactdesk.lang.digits import DIGIT_VALUES, MISHEARD_DIGITS
from redactdesk.lang.folding import strip_marks
from redactdesk.resources import function_words

FULL = "full"
PARTIAL = "partial"

_STOPWORDS = {
    "en": set("the and of at dot com net org to in on for my is it a an street st road rd avenue ave lane "
              "drive dr number mister mr mrs ms miss doctor dr name as dollars dollar cents euros pounds "
              "hundred thousand".split()),
    "es": set("el la los las de del y en a al es mi su calle avenida plaza punto arroba com numero "
              "señor señora don doña nombre euros centimos cien mil".split()),
}


@functools.lru_cache(maxsize=4)
def _stop_words(language: str) -> frozenset[str]:
    """Words whose hearing is no evidence an item was heard ("con", "que", "with"), accents stripped."""
    lang = language if language in _STOPWORDS else "en"
    return frozenset(strip_marks(w) for w in _STOPWORDS[lang] | function_words(lang))

_MULTIPLIERS = {"en": {"double": 2, "triple": 3}, "es": {"doble": 2, "triple": 3}}


def normalise(text: str, language: str = "en") -> list[str]:
    """Lower-case tokens with numbers as digit runs and spelled letters joined (see module doc)."""
    lang = language if language in _STOPWORDS else "en"
    t = text.lower()
    t = re.sub(r"(?<=[0-9a-z])\.(?=[0-9a-z])", " dot ", t)
    t = t.replace("@", " at ")
    t = re.sub(r"[^\w]+", " ", t)
    try:
        t = alpha2digit(t, lang)
    except Exception:  # text2num refuses some odd inputs; keep the words then
        pass
    t = re.sub(r"(?<=\d)(?=[^\d\s])|(?<=[^\d\s])(?=\d)", " ", t)  # "4th" / "a1" -> separate runs
    raw = [strip_marks(tok) for tok in t.split()]
    expanded: list[str] = []
    i = 0
    while i < len(raw):  # "double 5" -> 5 5
        tok, nxt = raw[i], raw[i + 1] if i + 1 < len(raw) else ""
        digit = nxt if nxt.isdigit() else DIGIT_VALUES[lang].get(nxt, "")
        if tok in _MULTIPLIERS[lang] and len(digit) == 1:
            expanded.extend([digit] * _MULTIPLIERS[lang][tok])
            i += 2
        else:
            expanded.append(tok)
            i += 1
    return _join_runs(_digit_strings(expanded, lang))


def _digit_strings(tokens: list[str], lang: str) -> list[str]:
    """Digit words and homophones inside a run of two or more digits become digits ("oh one 2" -> 0 1 2)."""
    words, homophones = DIGIT_VALUES[lang], MISHEARD_DIGITS[lang]
    out = list(tokens)
    i = 0
    while i < len(out):
        j = i
        while j < len(out) and (out[j].isdigit() or out[j] in words or out[j] in homophones):
            j += 1
        if j > i and sum(1 for t in out[i:j] if t not in homophones) >= 2:
            out[i:j] = [t if t.isdigit() else words.get(t) or homophones[t] for t in out[i:j]]
        i = max(j, i + 1)
    return out


def _join_runs(tokens: list[str]) -> list[str]:
    out: list[str] = []
    run: list[str] = []
    kind = ""

    def flush() -> None:
        if run:
            out.append("".join(run) if kind == "digit" or len(run) > 1 else run[0])
        run.clear()

    for tok in tokens:
        k = "digit" if tok.isdigit() else "letter" if len(tok) == 1 and tok.isalpha() else ""
        if k and k == kind:
            run.append(tok)
            continue
        flush()
        kind = k
        if k:
            run.append(tok)
        else:
            out.append(tok)
    flush()
    return out


def match_item(item: str, heard: str, language: str = "en", spoken: str = "") -> str | None:
    """FULL when ``item`` is heard in ``heard``, PARTIAL when a distinctive piece is, else None.

    ``spoken`` is text deliberately said there (a spoken surrogate): what it shares with the item
    (a kept year, "Online Banking" of a company name) is no evidence of a leak.
    """
    item_tokens = normalise(item, language)
    heard_tokens = normalise(heard, language)
    if not item_tokens or not heard_tokens:
        return None
    said = normalise(spoken, language) if spoken else []
    said_runs = [t for t in said if t.isdigit()]
    glued = "".join(item_tokens)
    digit_runs = [t for t in heard_tokens if t.isdigit()]
    if glued.isdigit():
        if any(glued in run for run in digit_runs) and not any(glued in run for run in said_runs):
            return FULL
    elif _glued_window(glued, heard_tokens) and not _glued_window(glued, said):
        return FULL
    stop = _stop_words(language) | set(said)
    heard_set = set(heard_tokens)
    for tok in item_tokens:
        if tok.isdigit():
            if len(tok) >= 4 and _shares_digits(tok, digit_runs, exclude=said_runs):
                return PARTIAL
        elif len(tok) >= 3 and tok not in stop and tok in heard_set:
            return PARTIAL
    return None


def _glued_window(glued: str, tokens: list[str]) -> bool:
    for i in range(len(tokens)):
        acc = ""
        for tok in tokens[i:]:
            acc += tok
            if acc == glued:
                return True
            if len(acc) >= len(glued) or not glued.startswith(acc):
                break
    return False


def _shares_digits(item_digits: str, runs: list[str], width: int = 4, exclude: list[str] | None = None) -> bool:
    """True when ``width`` consecutive digits of the item appear in a heard run (and not in ``exclude``)."""
    if len(item_digits) <= width:
        pieces = {item_digits}
    else:
        pieces = {item_digits[i:i + width] for i in range(len(item_digits) - width + 1)}
    pieces = {p for p in pieces if not any(p in r for r in exclude or ())}
    return any(p in r for r in runs for p in pieces)
