"""The speaker named beside a quotation in written text: '"That was owed to me," says Player.',
'"Fine," May said.', '"Bien", respondió Rosa.'

A closed quotation, a reporting verb (the lexicon's ``reporting_verbs``) and capitalised words on
the other side of it name whoever spoke, whatever else the words are: the name lists call "Player",
"May" or "Grace" everyday words, and the taggers left them. Pronouns and other stop words are no
one's name ('"Go," he said', '"Go." The man said'); punctuation ends the name ('said Ross, smiling').
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from redactdesk.detect.sources import DetectDoc
from redactdesk.lang.lexicon import word_list

OPENING_QUOTES = frozenset('"“‘«')
CLOSING_QUOTES = frozenset('"”’»')
QUOTE_CLOSED_AFTER_PUNCTUATION = re.compile(r"[,.!?…][\"”’»]$")  # 'Fine,"': a quotation's end in one word
_STOPS = ",.;:!?"
MOST_WORDS = 3  # a speaker's name: at most this many capitalised words ("Mary Ann Evans")


def _closes_quotation(word: str) -> bool:
    """Does ``word`` end a quotation ('Fine,"', '"', 'fine".', '»')?"""
    return word.rstrip(_STOPS)[-1:] in CLOSING_QUOTES


def _name_word(word: str, stop: frozenset[str]) -> bool:
    core = word.strip(".,;:!?\"'”’»«“‘()")
    return (len(core) > 1 and core[:1].isupper() and not core.isupper()
            and core.replace("-", "").replace("'", "").isalpha() and core.lower() not in stop)


def _run(words: Sequence[str], k: int, stop: frozenset[str]) -> int:
    """How many name words run from ``k`` on, ending at punctuation ('said Ross, smiling': "Ross")."""
    n = 0
    while k + n < len(words) and n < MOST_WORDS and _name_word(words[k + n], stop):
        n += 1
        if words[k + n - 1][-1:] in _STOPS or words[k + n - 1][-1:] in CLOSING_QUOTES:
            break
    return n


def quotation_speakers(doc: DetectDoc) -> list[tuple[int, int]]:
    """Word ranges of the speakers named right after a quotation, before or after its reporting verb."""
    if doc.lex is None or not doc.cased():
        return []
    verbs = word_list(doc.lex, "reporting_verbs")
    stop = doc.lex.stop_words
    words = doc.words
    out: list[tuple[int, int]] = []
    for k in range(1, len(words)):
        if not _closes_quotation(words[k - 1]):
            continue
        if words[k].lower().strip(_STOPS) in verbs and words[k][-1:] not in _STOPS:
            n = _run(words, k + 1, stop)  # '... ," says Player.'
            if n:
                out.append((k + 1, k + 1 + n))
        else:
            n = _run(words, k, stop)  # '... ," May said.'
            verb_after = k + n < len(words) and words[k + n].lower().strip(_STOPS) in verbs
            if n and verb_after and words[k + n - 1][-1:] not in _STOPS:
                out.append((k, k + n))
    return out
