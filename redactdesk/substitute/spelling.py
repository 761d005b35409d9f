"""Spelled letters: "S M I T H", "S as in Sam M as in Mary", "G de Granada A de Antonio".

:func:`parse` recognises a spelled run and remembers how it was said; :func:`render` spells another
word the same way, so a re-spelled surrogate matches the surrogate word letter for letter.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from redactdesk.substitute.text import plain_letters, split_punct

_CONNECTORS = {
    "en": [("as", "in"), ("for",), ("like",)],
    "es": [("de",), ("como",)],
}


@dataclass
class Spelled:
    """A spelled run: the letters, and the way they were said."""

    letters: str
    style: str  # "letters" or "as_in"
    connector: tuple[str, ...] = ()
    upper: bool = True
    covered: int = 0  # tokens that belong to the spelling
    letter_positions: list[int] = field(default_factory=list)


def _is_letter(core: str) -> bool:
    return len(core) == 1 and core.isalpha()


def parse(tokens: list[str], language: str, spelling_words: dict[str, str] | None = None) -> Spelled | None:
    """The spelled run in ``tokens`` or None when they do not read as letter-by-letter spelling."""
    cores = [split_punct(t)[1] for t in tokens]
    low = [c.lower() for c in cores]
    words_by_letter = {k: v.lower().replace("-", " ").split() for k, v in (spelling_words or {}).items()}
    letters: list[str] = []
    positions: list[int] = []
    connector: tuple[str, ...] = ()
    covered = 0
    i, n = 0, len(tokens)
    while i < n:
        c = cores[i]
        if not _is_letter(c):
            i += 1
            continue
        letters.append(c.upper())
        positions.append(i)
        covered += 1
        i += 1
        for conn in _CONNECTORS.get(language, []):
            k = len(conn)
            if tuple(low[i : i + k]) == conn and i + k < n:
                connector = conn
                j = i + k
                expected = words_by_letter.get(c.upper())
                span = len(expected) if expected and low[j : j + len(expected)] == expected else 1
                if span == 1 and j < n and _is_letter(cores[j]) and (cores[j].upper() != c.upper()):
                    break  # "A de B": the next token is a letter, not a word
                covered += k + span
                i = j + span
                break
    if len(letters) < 2 or covered < 0.8 * n:
        return None
    upper = all(cores[p].isupper() for p in positions)
    return Spelled("".join(letters), "as_in" if connector else "letters", connector, upper, covered, positions)


def render(word: str, language: str, sp: Spelled | None, spelling_words: dict[str, str]) -> list[str]:
    """Spell ``word`` the way ``sp`` was said (letters only, or with "as in" words)."""
    out: list[str] = []
    style = sp.style if sp else "letters"
    upper = sp.upper if sp else True
    connector = sp.connector if sp and sp.connector else (("as", "in") if language == "en" else ("de",))
    for letter in plain_letters(word):
        out.append(letter if upper else letter.lower())
        if style == "as_in":
            out += list(connector) + spelling_words.get(letter, letter).replace("-", " ").split()
    return out
