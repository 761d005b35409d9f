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

from redactdesk.asr.timing import is_untimed, spread_times, strip_punct
from redactdesk.core.types import Word
from redactdesk.detect.lexicon import load_lexicon
from redactdesk.detect.normalize import fold1, fused_letter


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
        fused = fused_letter(core.lower(), lex) if core.isalpha() and len(core) > 2 else None
        if fused is None:
            out.append(w)
            i += 1
            continue
        letter, joiner, rest = fused
        head = lead + letter.upper()
        rest_written = core[len(core) - len(rest):] if rest else ""
        nxt = words[i + 1] if i + 1 < len(words) else None
        n_lead, n_core, n_trail = strip_punct(nxt.text.strip()) if nxt is not None else ("", "", "")
        if len(rest) > 2 and fold1(rest) == letter:  # "Udeúbeda"
            texts = [head, joiner, _capitalised_like(rest_written, core) + trail]
            out += _spread(w, texts, [len(letter) + 1, len(joiner), len(rest)])
            i += 1
        elif (nxt is not None and n_core[:1].isupper() and n_core.isalpha() and len(rest + n_core) > 2
              and fold1((rest + n_core).lower()) == letter):  # the spelling word is a name: "Pede París"
            if rest:  # "Odeo Viedo": the word began inside the fused one
                word = _capitalised_like(rest_written + n_core.lower(), n_core) + n_trail
                parts = _spread(w, [head, joiner, rest_written], [len(letter) + 1, len(joiner), len(rest)])
                merged = dataclasses.replace(nxt, text=n_lead + word, aligned=False)
                if not is_untimed(parts[2]) and not is_untimed(nxt):
                    merged.start = parts[2].start
                out += [*parts[:2], merged]
            else:  # "Pede París"
                out += [*_spread(w, [head, joiner + trail], [len(letter) + 1, len(joiner)]), nxt]
            i += 2
        else:
            out.append(w)
            i += 1
    return out


def _spread(w: Word, texts: list[str], weights: list[int]) -> list[Word]:
    parts = [dataclasses.replace(w, text=t, aligned=False) for t in texts]
    if not is_untimed(w):
        spread_times(parts, float(w.start), float(w.end), weights)
    return parts
