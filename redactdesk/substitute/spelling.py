"""Spelled letters: "S M I T H", "S as in Sam M as in Mary", "G de Granada A de Antonio".

:func:`parse` recognises a spelled run and remembers how it was said; :func:`render` spells another
word the same way, so a re-spelled surrogate matches the surrogate word letter for letter.

Real ASR output spells in more shapes than a reference transcript: Whisper writes "M -D -D -I -N -A"
(a dash before each letter), "C, A, B, E, C, A, S" (a comma after each), "G is in George" and
"W was in William" (misheard "as in"), "I as in I to" (a garbled alphabet word), "L. de Lorenzo",
Spanish "y de Italia" (the letter i heard as the word "y") and fused "Erederamón" ("erre de
Ramón"). The style keeps the separators, the connector as said, the case and which alphabet the
words came from (NATO or the language's list), so the re-spelled surrogate reads like the original.
"""

from __future__ import annotations

import functools
from collections import Counter
from dataclasses import dataclass, field

from redactdesk.lang.alphabet import NATO, NATO_WORDS, SPANISH_FUSED_LETTER_NAMES
from redactdesk.lang.folding import strip_accents
from redactdesk.substitute.text import plain_letters

# Longest first: "as in the word" before "as in".
_CONNECTORS = {
    "en": [("as", "in", "the", "word"), ("as", "in"), ("is", "in"), ("was", "in"), ("as", "an"), ("is", "an"),
           ("as", "and"), ("is", "and"), ("like", "in"), ("for",), ("like",)],
    "es": [("de", "la", "palabra"), ("como", "en"), ("de",), ("como",)],
}
# Connectors the ASR garbled past reading: re-spelled with "as in" ("is in", which Whisper writes
# consistently, is kept as said)
_GARBLED = {("is", "an"): ("as", "in"), ("as", "and"): ("as", "in"), ("is", "and"): ("as", "in"),
            ("as", "an"): ("as", "in")}
_STRIP = ".,?!¿¡;:\"()«»…-–—"
MAX_GARBLE = 2  # extra tokens an alphabet word may take when the ASR broke it ("I to", "I did")


def split_token(token: str) -> tuple[str, str, str]:
    """(leading punctuation or dash, core, trailing punctuation or dash) of one token."""
    a = 0
    while a < len(token) and token[a] in _STRIP:
        a += 1
    b = len(token)
    while b > a and token[b - 1] in _STRIP:
        b -= 1
    return token[:a], token[a:b], token[b:]


@dataclass
class Spelled:
    """A spelled run: the letters, and the way they were said."""

    letters: str
    style: str  # "letters" or "as_in"
    connector: tuple[str, ...] = ()
    upper: bool = True
    covered: int = 0  # tokens that belong to the spelling
    letter_positions: list[int] = field(default_factory=list)
    alphabet: str = "list"  # "nato" or "list" (the language's spelling words)
    lead: str = ""  # punctuation before each letter after the first ("-" in "M -D -D")
    trail: str = ""  # punctuation after each letter but the last ("," in "C, A, B")
    word_trail: str = ""  # punctuation after each alphabet word but the last ("George," ...)
    outer: tuple[str, str] = ("", "")  # punctuation before the first and after the last token


def _is_letter(core: str) -> bool:
    return len(core) == 1 and core.isalpha()


@functools.lru_cache(maxsize=8)
def _letter_names(language: str) -> dict[tuple[str, ...], str]:
    """The language's names of letters, as word tuples ("eme" -> M, "uve doble" -> W; the lexicon's
    ``letter_names``; English has none: its letters are said as letters)."""
    from redactdesk.lang.lexicon import load_lexicon

    names = load_lexicon(language).letter_names
    return {tuple(strip_accents(k).lower().split()): v.upper() for k, v in names.items()}


def _named_letter_at(low: list[str], i: int, language: str) -> tuple[str, int] | None:
    """(letter, words) of a letter said by its name at ``i`` ("eme", "uve doble"), or None."""
    names = _letter_names(language)
    for k in (2, 1):
        got = names.get(tuple(low[i:i + k])) if i + k <= len(low) else None
        if got is not None:
            return got, k
    return None


def _doubled_at(low: list[str], cores: list[str], i: int, language: str) -> tuple[str, int, int] | None:
    """(letter, times, words) of "double l", "doble ele", "triple a" at ``i``, or None."""
    from redactdesk.lang.lexicon import load_lexicon

    lex = load_lexicon(language)
    times = 2 if low[i] in lex.double else 3 if low[i] in lex.triple else 0
    if not times or i + 1 >= len(low):
        return None
    if _is_letter(cores[i + 1]):
        return cores[i + 1].upper(), times, 2
    named = _named_letter_at(low, i + 1, language)
    return (named[0], times, 1 + named[1]) if named else None


def starts_spelling(token: str, language: str) -> bool:
    """Can a spelling start at ``token``: a single letter, or a letter's name ("eme")?"""
    core = split_token(token)[1]
    return _is_letter(core) or (strip_accents(core).lower(),) in _letter_names(language)


def _connector_at(low: list[str], i: int, language: str) -> tuple[str, ...] | None:
    for conn in _CONNECTORS.get(language, []):
        k = len(conn)
        if tuple(low[i:i + k]) == conn and i + k < len(low):
            return conn
    return None


def _fused(core: str, language: str) -> tuple[str, str] | None:
    """Spanish "erederamón" → ("R", "Ramón"): a letter name fused with "de" and its word."""
    if language != "es":
        return None
    low = strip_accents(core).lower()
    for name, letter in sorted(SPANISH_FUSED_LETTER_NAMES.items(), key=lambda kv: -len(kv[0])):
        head = name + "de"
        rest = core[len(head):]
        if low.startswith(head) and len(rest) > 2 and plain_letters(rest)[:1] == letter:
            return letter, rest
    return None


def _most(values: list[str]) -> str:
    return Counter(values).most_common(1)[0][0] if values else ""


def parse(tokens: list[str], language: str, spelling_words: dict[str, str] | None = None) -> Spelled | None:
    """The spelled run in ``tokens`` or None when they do not read as letter-by-letter spelling."""
    parts = [split_token(t) for t in tokens]
    cores = [p[1] for p in parts]
    low = [strip_accents(c).lower() for c in cores]
    words_by_letter = {k: strip_accents(v).lower().replace("-", " ").split()
                       for k, v in (spelling_words or {}).items()}
    letters: list[str] = []
    positions: list[int] = []
    connectors: list[tuple[str, ...]] = []
    alpha_words: list[str] = []
    leads: list[str] = []
    trails: list[str] = []
    word_trails: list[str] = []
    covered = 0
    said_names = 0  # letters said by their names ("eme u erre"): re-spelled the same way
    i, n = 0, len(tokens)
    while i < n:
        c = cores[i]
        fused = _fused(c, language) if not _is_letter(c) else None
        if fused is not None:
            letters.append(fused[0])
            positions.append(i)
            covered += 1
            i += 1
            continue
        if not _is_letter(c):
            doubled = _doubled_at(low, cores, i, language)
            named = _named_letter_at(low, i, language) if doubled is None else None
            if doubled is not None or named is not None:  # "doble ele", "eme": letters said by name
                letter, times, k = doubled if doubled is not None else (named[0], 1, named[1])
                letters += [letter] * times
                positions += [i] * times
                leads.append(parts[i][0])
                trails.append(parts[i + k - 1][2])
                said_names += times if doubled is None or not _is_letter(cores[i + 1]) else 0
                covered += k
                i += k
                continue
            i += 1
            continue
        letter = c.upper()
        conn = _connector_at(low, i + 1, language)
        if language == "es" and low[i] == "y" and conn and low[i + 1 + len(conn)].startswith("i"):
            letter = "I"  # Spanish "i" written as the word "y" ("y de Italia"; "Y de yegua" stays Y)
        letters.append(letter)
        positions.append(i)
        leads.append(parts[i][0])
        trails.append(parts[i][2])
        covered += 1
        i += 1
        if conn is None:
            continue
        j = i + len(conn)
        expected = words_by_letter.get(letter)
        span = len(expected) if expected and low[j:j + len(expected)] == expected else 1
        if span == 1 and _is_letter(cores[j]) and cores[j].upper() != letter:
            continue  # "A de B": the next token is a letter, not a word
        connectors.append(tuple(low[i:j]))
        alpha_words.append(low[j])
        end = j + span
        extra = 0  # a garbled alphabet word runs on until the next letter ("I to", "I did")
        while end < n and extra < MAX_GARBLE and not _is_letter(cores[end]) and _fused(cores[end], language) is None \
                and plain_letters(cores[end])[:1] != "" and _connector_at(low, end, language) is None \
                and end + 1 < n and (_is_letter(cores[end + 1]) or _fused(cores[end + 1], language)):
            end += 1
            extra += 1
        word_trails.append(parts[end - 1][2])
        covered += end - i
        i = end
    if len(letters) < 2 or covered < 0.8 * n:
        return None
    upper = sum(1 for p in positions if cores[p].isupper() or _fused(cores[p], language)) * 2 >= len(positions)
    nato = sum(1 for w in alpha_words if w in NATO_WORDS)
    # by name where at least half the consonants were (vowels are said as themselves)
    consonants = sum(1 for x in letters if x not in "AEIOU")
    style = "as_in" if connectors else "names" if said_names and said_names * 2 >= consonants else "letters"
    return Spelled(
        "".join(letters), style, _most_conn(connectors), upper, covered, positions,
        "nato" if alpha_words and nato * 2 > len(alpha_words) else "list",
        _most(leads[1:]), _most(trails[:-1]) if not connectors else _most(trails), _most(word_trails[:-1]),
        (parts[0][0] if parts else "", parts[-1][2] if parts else ""))


def _most_conn(connectors: list[tuple[str, ...]]) -> tuple[str, ...]:
    return Counter(connectors).most_common(1)[0][0] if connectors else ()


def alphabet_word(letter: str, language: str, sp: Spelled | None, spelling_words: dict[str, str]) -> str:
    """The alphabet word for ``letter`` from the list the original spelling used."""
    if sp is not None and sp.alphabet == "nato":
        return NATO.get(letter, letter)
    return spelling_words.get(letter, letter)


def letter_name(letter: str, language: str) -> str:
    """The name a language says ``letter`` by ("m" -> "eme"; of the lexicon's names one of a single
    word first, then the longest: "erre" before "ere", "uve doble" for w), or the letter itself
    (vowels, and letters of languages with no names)."""
    said = [" ".join(k) for k, v in _letter_names(language).items() if v == letter.upper()]
    return min(said, key=lambda w: (len(w.split()), -len(w))) if said else letter.lower()


def render(word: str, language: str, sp: Spelled | None, spelling_words: dict[str, str]) -> list[str]:
    """Spell ``word`` the way ``sp`` was said: letters only or with alphabet words from the same list,
    with the same connector, case and separators ("M -D -D" → "S -M -I -T -H", "C, A" → "R, U")."""
    style = sp.style if sp else "letters"
    upper = sp.upper if sp else True
    connector = sp.connector if sp and sp.connector else (("as", "in") if language == "en" else ("de",))
    connector = _GARBLED.get(connector, connector)
    lead, trail, word_trail = (sp.lead, sp.trail, sp.word_trail) if sp else ("", "", "")
    letters = plain_letters(word)
    out: list[str] = []
    for k, letter in enumerate(letters):
        last = k == len(letters) - 1
        said = letter if upper else letter.lower()
        if style == "names":  # "ge a erre erre i ge a": a letter by its name, vowels as themselves
            name = letter_name(letter, language).split()
            out += name[:-1] + [name[-1] + ("" if last else trail)]
            continue
        if style == "as_in":
            out.append((lead if k else "") + said + trail)
            words = alphabet_word(letter, language, sp, spelling_words).replace("-", " ").split() or [letter]
            out += list(connector) + words[:-1] + [words[-1] + ("" if last else word_trail)]
        else:
            out.append((lead if k else "") + said + ("" if last else trail))
    if out and sp is not None:
        out[0] = sp.outer[0] + out[0]
        out[-1] = out[-1] + sp.outer[1]
    return out
