"""Social-media handles read aloud: "at homedepot", "rt at powerofsleep", "follow at the_rhs".

Written, a handle carries its "@" (:func:`redactdesk.detect.network_ids.find_handles`). Said, the
"@" becomes the word "at" and the handle a word no dictionary holds: several words run together
("homedepot", "onedirection") or made up ("bloglovin", "scatsx"). So in a transcript written
without capitals, "at" followed by one such word is a handle where a handle is said: opening a turn
(a reply), after a cue word of the lexicon's ``handle_cues`` ("rt", "follow", "via"), or after
another handle. It is a USERNAME over both words, the way the written form covers the "@".

What is no handle:
- "at" + an unknown word in the middle of a sentence: most often a shop or a place ("i bought it at
  walmart"), and a handle there would swap the place for a username;
- a listed first name, surname or place after "at" ("at heathrow", "at maria's" are the taggers'
  business), unless digits said follow the name ("at michael five sos");
- an everyday word ("at home"), and a word followed by "dot" (an e-mail or web address read aloud:
  the normaliser's business).

On the public dev sets (``benchmarks/bench_detect_public.py``, names spoken from Broad Twitter
Corpus part h) the handles said this way were the largest group of missed names and organisations.
"""

from __future__ import annotations

from redactdesk.detect.normalize import NUM
from redactdesk.detect.sources import DetectDoc, Hit
from redactdesk.lang.lexicon import Lexicon

SOURCE = "identifiers"
MIN_LETTERS = 4  # "at ups", "at bt" are too short to tell a handle from an abbreviation
MAX_DIGITS = 4  # digits a handle carries in two numbers said after it


def handle_word(word: str, lex: Lexicon) -> bool:
    """Could ``word`` be a handle said aloud: letters no dictionary, name list or place list holds
    ("goodmanespn", "justinbieber")?"""
    from redactdesk.detect.worldnames import everyday_words

    return _unknown_word(word, everyday_words(), lex.stop_words)


def _unknown_word(word: str, everyday: frozenset[str], stop: frozenset[str]) -> bool:
    from redactdesk.detect.places import load_places
    from redactdesk.detect.worldnames import load_world_names
    from redactdesk.lang.folding import fold_key

    letters = word.replace("_", "")
    if len(letters) < MIN_LETTERS or not letters.isalpha() or word in stop:
        return False
    key = fold_key(word)
    return key not in everyday and not load_world_names().is_name(key) and load_places().get(key) is None


def _listed_name(word: str, lex: Lexicon, stop: frozenset[str]) -> bool:
    """A first name or surname of the lists: a handle when its digits follow ("at michael five
    sos"). A word of the lexicon's cue phrases is no handle, whatever surname it also is ("at age
    thirteen")."""
    from redactdesk.detect.worldnames import load_world_names
    from redactdesk.lang.folding import fold_key
    from redactdesk.lang.lexicon import context_words

    return (len(word) >= 3 and word.isalpha() and word not in stop and word not in context_words(lex)
            and load_world_names().is_name(fold_key(word)))


def _first_name_or_place(word: str) -> bool:
    from redactdesk.detect.places import load_places
    from redactdesk.detect.worldnames import load_world_names
    from redactdesk.lang.folding import fold_key

    key = fold_key(word)
    return load_world_names().is_first(key) or load_places().get(key) is not None


def find_spoken_handles(doc: DetectDoc, used: list[bool]) -> list[Hit]:
    """USERNAME hits over "at" + a handle in a lower-case transcript (none in cased writing, where
    a handle keeps its "@")."""
    from redactdesk.detect.worldnames import everyday_words

    lower = doc.lower
    if "at" not in lower or doc.cased():  # a lone "I" or all capitals still read as speech
        return []
    if doc.lex is None:
        return []
    everyday, stop = everyday_words(), doc.lex.stop_words
    cues = frozenset(doc.lex.raw.get("handle_cues") or ())
    joiners = frozenset({"_", *(ph[0] for ph in doc.lex.underscore if len(ph) == 1)})
    starts = {0, *doc.breaks}
    hits: list[Hit] = []
    for k in range(len(lower) - 1):
        if lower[k] != "at" or used[k] or used[k + 1]:
            continue
        if k + 2 < len(lower) and lower[k + 2] == "dot":
            continue
        anywhere = _letters_and_digits(doc, k + 1, everyday, stop)  # a handle no sentence says otherwise
        joined = _joined(doc, k + 1, max(anywhere, _digits_after(doc, k + 2, everyday, stop)), joiners)
        if _domain_follows(doc, max(joined, anywhere, k + 2)):
            continue  # "email me at tom underscore baker at hotmail dot com": an e-mail's own name
        if joined:  # "at mlp_perla", "at joshsmith five _ twenty three", "at josh underscore smith"
            hits.append(Hit(k, joined, "USERNAME", 0.75, SOURCE, "a social-media handle joined by underscores said aloud",
                            True))
            continue
        if not (anywhere or k in starts or lower[k - 1] in cues or (hits and hits[-1].end_word == k)):
            continue
        if anywhere:  # "at r zero bynbird", "at two pmagreement two hundred and eleven"
            hits.append(Hit(k, anywhere, "USERNAME", 0.75, SOURCE, "a social-media handle of letters and digits said aloud",
                            True))
            continue
        word = lower[k + 1].strip(".,;:!?\"'")
        end = _digits_after(doc, k + 2, everyday, stop)
        if _unknown_word(word, everyday, stop) or (end > k + 2 and _listed_name(word, doc.lex, stop)):
            hits.append(Hit(k, end, "USERNAME", 0.75, SOURCE, "a social-media handle said aloud (at ...)", True))
    return hits


def _domain_follows(doc: DetectDoc, e: int) -> bool:
    """Does an e-mail's domain said aloud start at word ``e``, or after the number said there
    ("eighty eight at hotmail dot co dot uk")? Then the words before it are the address's own
    name, said after "email me at", and no handle."""
    lower = doc.lower
    e = _number_end(doc, e)
    return e + 2 < len(lower) and lower[e] == "at" and lower[e + 2] == "dot"  # not "at anne t dot co" (a link)


def _glued(word: str) -> bool:
    """A word an underscore holds together: "mlp_perla", "axela_", "_nina"."""
    return "_" in word and any(c.isalnum() for c in word) and all(c.isalnum() or c == "_" for c in word)


def _joined(doc: DetectDoc, w: int, end: int, joiners: frozenset[str]) -> int:
    """End of a handle that an underscore joins, from word ``w`` on (``end``: where the handle read
    without underscores ends), or 0 where no underscore is in it or right after it. No sentence said
    aloud holds an underscore, so such a handle stands wherever it is: "at stormyteacup_lk", "at
    karennn twelve _" (@karennn12_), "at joshsmith five _ twenty three", "at blues four _nina",
    "at josh underscore smith". Digits after an underscore or a word it holds belong to the handle;
    a word, only after the spoken "underscore" (written, the underscore and the word are one)."""
    lower, n = doc.lower, len(doc.lower)
    e = max(end, w + 1)
    if not (any(_glued(x) for x in lower[w:e])
            or (e < n and e not in doc.breaks and (lower[e] in joiners or (_glued(lower[e]) and lower[e][0] == "_")))):
        return 0
    stop = doc.lex.stop_words if doc.lex is not None else frozenset()
    if _glued(lower[e - 1]):
        e = _number_end(doc, e)  # "at d one _dreamin seventy two"
    while e < n and e not in doc.breaks and (lower[e] in joiners or _glued(lower[e])):
        said = lower[e] in joiners and lower[e] != "_"
        e += 1
        if e >= n or e in doc.breaks:
            break
        after = _number_end(doc, e)
        if after > e:
            e = after  # "_ twenty three" is _23
        elif said and lower[e].isalnum() and lower[e] not in stop:
            e += 1  # "underscore smith"
    return e


def _number_end(doc: DetectDoc, w: int) -> int:
    """End of the cardinal number said from word ``w`` on, or ``w`` where none begins there."""
    if w >= len(doc.lower) or w in doc.breaks or doc.norm is None:
        return w
    t = doc.norm.token_of_word(w)
    tok = doc.norm.tokens[t] if t is not None else None
    return tok.w1 if tok is not None and tok.kind == NUM and tok.w0 == w and not tok.ordinal else w


def _letters_and_digits(doc: DetectDoc, w: int, everyday: frozenset[str], stop: frozenset[str]) -> int:
    """End of a handle said as pieces from word ``w`` on: short letter groups, numbers and made-up
    words, with a number and a made-up word of four letters or more among them ("r zero bynbird",
    "b two utymakassar"); 0 when the words there are no such handle ("two pm", "gate forty two")."""
    norm = doc.norm
    if norm is None:
        return 0
    lower, n = doc.lower, len(doc.lower)
    e, digits, made_up = w, False, False
    while e < n and e - w < 8 and (e == w or e not in doc.breaks):
        t = norm.token_of_word(e)
        tok = norm.tokens[t] if t is not None else None
        word = lower[e].strip(".,;:!?\"'")
        if tok is not None and tok.kind == NUM and tok.w0 == e:
            if tok.ordinal:
                break  # "at five hontour fifth harmony": an ordinal begins the words after the handle
            digits, e = True, tok.w1
            continue
        if _unknown_word(word, everyday, stop):
            made_up, e = True, e + 1
            continue
        if 1 <= len(word) <= 3 and word.isalpha() and word not in stop and word not in everyday:
            e += 1
            continue
        break
    while e > w and lower[e - 1].strip(".,;:!?\"'") in everyday:
        e -= 1
    first = norm.token_of_word(w)
    if e < n and first is not None and norm.tokens[first].kind == NUM and _street_type(lower[e]):
        return 0  # "i live at forty two castle street": a house number and its street, no handle
    return e if digits and made_up and e - w >= 2 else 0


def _street_type(word: str) -> bool:
    from redactdesk.detect.worldnames import word_set

    return word.strip(".,;:!?\"'") in word_set("street_after")


def _digits_after(doc: DetectDoc, w: int, everyday: frozenset[str], stop: frozenset[str]) -> int:
    """Where the handle ends: its digits said after it belong to it ("at ryanmiller three thousand
    and thirty nine" is @ryanmiller3039), and so does a short word no list knows after them ("at
    kelly twenty five dsee", "at michael five sos"); a longer first name or a place after the digits
    begins the sentence ("at jessica twenty five angela said so")."""
    t = doc.norm.token_of_word(w) if doc.norm is not None else None
    num = doc.norm.tokens[t] if t is not None else None
    if num is None or num.kind != NUM or num.w0 != w:
        return w
    end = num.w1
    nxt = doc.norm.tokens[t + 1] if t + 1 < len(doc.norm.tokens) else None
    if nxt is not None and nxt.kind == NUM and nxt.w0 == end and len(num.text) + len(nxt.text) <= MAX_DIGITS:
        end = nxt.w1  # a year said in two numbers: "at annabel twenty ten" is @annabel2010
    if end < len(doc.lower):
        tail = doc.lower[end]
        if 2 <= len(tail) <= 6 and tail.isalpha() and tail not in everyday and tail not in stop \
                and (len(tail) <= 3 or not _first_name_or_place(tail)):
            end += 1
    return end
