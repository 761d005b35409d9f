"""Spelled letters Whisper fused into words, split back into what was said.

On Spanish calls Whisper base writes the spelling alphabet ("P de París, U de Úbeda, O de Oviedo")
as "Pede París", "Udeúbeda" and "Odeo Viedo". :func:`split_fused_spelling` turns such words back into
letter | de | word — ``P | de | París``, ``U | de | Úbeda``, ``O | de | Oviedo`` — so the annotator
reads what was said, detection sees a spelled name and substitution can re-spell it letter by letter.
A word is split only when the word after the joiner starts with the letter ("puede", "verde" stay)
and, when that word is the next token, is written with a capital, as Whisper writes the names of the
spelling alphabet ("el Odeón de Madrid" stays).
The pieces share the fused word's time span by length and are ``aligned=False``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from redactdesk.asr.timing import is_untimed, split_word, strip_punct
from redactdesk.core.types import Word
from redactdesk.lang.alphabet import fused_spelling
from redactdesk.lang.lexicon import load_lexicon


def _capitalised_like(text: str, model: str) -> str:
    return text[:1].upper() + text[1:] if model[:1].isupper() else text


def split_fused_spelling(words: Sequence[Word], *, language: str | None) -> list[Word]:
    """Copies of ``words`` with fused spelled letters split (see the module docstring)."""
    if language != "es":  # Whisper does not fuse English "as in" (see fused_letter)
        return list(words)
    lex = load_lexicon(language)
    out: list[Word] = []
    i = 0
    while i < len(words):
        w = words[i]
        lead, core, trail = strip_punct(w.text.strip())
        nxt = words[i + 1] if i + 1 < len(words) else None
        n_lead, n_core, n_trail = strip_punct(nxt.text.strip()) if nxt is not None else ("", "", "")
        # the spelling word is a name, written with a capital, when it is the next token ("Pede París")
        following = n_core.lower() if n_core[:1].isupper() and n_core.isalpha() else None
        fused = fused_spelling(core.lower(), following, lex) if core.isalpha() else None
        if fused is None:
            out.append(w)
            i += 1
            continue
        letter, joiner, word, takes_next = fused
        head, weights = lead + letter.upper(), [len(letter) + 1, len(joiner)]
        if not takes_next:  # "Udeúbeda"
            out += split_word(w, [head, joiner, _capitalised_like(word, core) + trail], [*weights, len(word)])
            i += 1
            continue
        assert nxt is not None
        inside = len(word) - len(n_core)  # letters of the word said inside the fused token ("o" of "Odeo")
        if inside:  # "Odeo Viedo": the word began inside the fused one
            parts = split_word(w, [head, joiner, word[:inside]], [*weights, inside])
            merged = dataclasses.replace(nxt, text=n_lead + _capitalised_like(word, n_core) + n_trail, aligned=False)
            if not is_untimed(parts[2]) and not is_untimed(nxt):
                merged.start = parts[2].start
            out += [*parts[:2], merged]
        else:  # "Pede París"
            out += [*split_word(w, [head, joiner + trail], weights), nxt]
        i += 2
    return out
