"""Spelling-alphabet passages as one item: "G as in George, A as in Adam", Whisper's "G is in
George", "P de París", NATO words ("Sierra Mike India").

The normaliser reads each "letter + connector + word" (and each NATO word in a run) as one LETTER
token over all its words. A passage is a run of such letters; the hit covers the letters and the
alphabet words between them (so substitution can re-spell the whole passage) and is ``strong``, so
an alphabet word alone ("Adam", "India") never stands as a name or place against it. The category
is SPELLED_LETTERS: the pattern source tells PERSON, EMAIL ... from context over the same words,
and the vote keeps that category where it does.
"""

from __future__ import annotations

from redactdesk.detect.normalize import LETTER, NUM
from redactdesk.detect.sources import DetectDoc, Hit

SOURCE = "gazetteer"


def find_spelling_passages(doc: DetectDoc, taken: list[bool]) -> list[Hit]:
    norm, lex = doc.norm, doc.lex
    if norm is None or lex is None:
        return []
    toks = norm.tokens
    hits: list[Hit] = []
    i = 0
    while i < len(toks):
        if toks[i].kind != LETTER:
            i += 1
            continue
        j = i + 1
        while j < len(toks) and toks[j].kind == LETTER and toks[j].seg == toks[i].seg:
            j += 1
        run = toks[i:j]
        alphabet = [t for t in run if t.w1 - t.w0 > 1 or doc.lower[t.w0] in lex.nato]
        # letters that lead or end digits are part of a code ("alpha bravo seven seven three nine"): the
        # pattern source reads letters and digits as one reference
        code = (j < len(toks) and toks[j].kind == NUM and toks[j].seg == toks[i].seg) or (
            i > 0 and toks[i - 1].kind == NUM and toks[i - 1].seg == toks[i].seg)  # "7-7-3-9, alpha, bravo"
        if alphabet and not code and (len(run) >= 2 or run[0].w1 - run[0].w0 > 1):
            w0, w1 = run[0].w0, run[-1].w1
            hits.append(Hit(w0, w1, "SPELLED_LETTERS", 0.8, SOURCE,
                            f"{len(run)} letters spelled with a spelling alphabet", True))
            for k in range(w0, min(w1, len(taken))):
                taken[k] = True
        i = j
    return hits
