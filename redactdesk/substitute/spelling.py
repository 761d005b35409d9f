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
    return Spelled(
        "".join(letters), "as_in" if connectors else "letters", _most_conn(connectors), upper, covered, positions,
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
