"""Line a transcript up with a reference transcript, and play annotator from the reference.

Used by the demo and by evaluations: ASR words ("4111", "Smith,") and reference words ("four",
"one", "one", "one", "smith") are both expanded into normalised spoken tokens, aligned by jiwer's
word-level edit distance (the alignment WER counts; a run of words heard differently is spread over
the words heard in its place), and every reference span is carried over to the
hypothesis words it covers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from redactdesk.core.types import Conversation, Span, SpanStatus
from redactdesk.lang.digits import DIGIT_WORDS

_PUNCT = re.compile(r"[^\w@.'-]+|(?<!\w)[.'-]|[.'-](?!\w)")


def spoken_tokens(text: str, language: str = "en") -> list[str]:
    """Normalised tokens of one word: lower case, no punctuation, each digit as its word."""
    digits = DIGIT_WORDS.get(language, DIGIT_WORDS["en"])
    t = _PUNCT.sub(" ", text.lower())
    out: list[str] = []
    for piece in t.replace("-", " ").split():
        if piece == "oh":
            out.append(digits[0])
            continue
        buf = ""
        for ch in piece:
            if ch.isdigit():
                if buf:
                    out.append(buf)
                    buf = ""
                out.append(digits[int(ch)])
            else:
                buf += ch
        if buf:
            out.append(buf)
    return out


def _expand(conv: Conversation) -> tuple[list[str], list[int]]:
    tokens: list[str] = []
    owner: list[int] = []
    for i, w in enumerate(conv.words):
        for tok in spoken_tokens(w.text, conv.language):
            tokens.append(tok)
            owner.append(i)
    return tokens, owner


def word_map(reference: Conversation, hypothesis: Conversation) -> dict[int, set[int]]:
    """For each reference word index, the hypothesis word indices aligned to it."""
    ref_toks, ref_owner = _expand(reference)
    hyp_toks, hyp_owner = _expand(hypothesis)
    out: dict[int, set[int]] = {}
    if not ref_toks or not hyp_toks:
        return out
    import jiwer

    # tokens never hold whitespace (spoken_tokens splits on it), so jiwer's split gives them back
    aligned = jiwer.process_words(" ".join(ref_toks), " ".join(hyp_toks)).alignments[0]
    block: list[int] = [0, 0, 0, 0]  # the run of non-equal chunks since the last equal one: i1, i2, j1, j2
    for chunk in [*aligned, None]:
        if chunk is not None and chunk.type != "equal":
            if block[1] == block[0] and block[3] == block[2]:
                block = [chunk.ref_start_idx, chunk.ref_start_idx, chunk.hyp_start_idx, chunk.hyp_start_idx]
            block[1], block[3] = chunk.ref_end_idx, chunk.hyp_end_idx
            continue
        i1, i2, j1, j2 = block
        if i2 > i1 and j2 > j1:  # words heard differently ("figuero labo" as "figueroa"): spread the
            for k in range(i1, i2):  # heard words over the said ones, so a span still lands somewhere
                j = j1 + (k - i1) * (j2 - j1) // (i2 - i1)
                out.setdefault(ref_owner[k], set()).add(hyp_owner[min(j, j2 - 1)])
        block = [0, 0, 0, 0]
        if chunk is not None:
            for k in range(chunk.ref_end_idx - chunk.ref_start_idx):
                out.setdefault(ref_owner[chunk.ref_start_idx + k], set()).add(hyp_owner[chunk.hyp_start_idx + k])
    return out


def project_spans(reference: Conversation, hypothesis: Conversation) -> list[Span]:
    """Reference (accepted) spans carried over to hypothesis word ranges; spans with no match are dropped."""
    mapping = word_map(reference, hypothesis)
    out: list[Span] = []
    for span in reference.spans:
        hits = sorted(set().union(*(mapping.get(i, set()) for i in span.word_range())))
        if not hits:
            continue
        out.append(Span(hits[0], hits[-1] + 1, span.category, status=SpanStatus.ACCEPTED, score=1.0,
                        sources=("reference",), reason="from the reference transcript"))
    return out


@dataclass
class OracleDecisions:
    accept: list[tuple[int, str, int, int]]  # (span id, category, start_word, end_word)
    reject: list[int]
    add: list[Span]


ADDRESS_PARTS = frozenset({"ADDRESS", "CITY", "POSTCODE", "COUNTRY", "LOCATION"})


def oracle_decisions(hypothesis: Conversation, reference_spans: list[Span]) -> OracleDecisions:
    """What a careful annotator would do with the suggestions, given the true items.

    A suggestion overlapping a true item is accepted with the item's category and its boundaries
    set to the item's; a second suggestion on an item already claimed, or one on no item, is
    rejected; true items no suggestion touched are added. An ADDRESS suggestion that holds the
    reference's street with its town and postcode is accepted as one address over them (detection
    gives the whole address as one item; the generated calls' reference marks its parts). Items that share a recognised word
    ("2028095" heard for an expiry and a security code) cannot be split at a word boundary: they
    become one span over both, with the category that scores the higher risk, as an annotator
    would mark them — accepted spans never overlap.
    """
    from redactdesk.resources import load_taxonomy

    taxonomy = load_taxonomy()
    chosen: list[tuple[int, int, str, int | None]] = []  # start, end, category, suggestion id (None: add)
    reject: list[int] = []
    claimed: set[int] = set()
    for span in hypothesis.spans:
        if span.status != SpanStatus.SUGGESTED or span.id is None:
            continue
        truth = [(k, r) for k, r in enumerate(reference_spans) if r.overlaps(span) and k not in claimed]
        if not truth:
            reject.append(span.id)
            continue
        k, best = max(truth, key=lambda kr: min(kr[1].end_word, span.end_word) - max(kr[1].start_word, span.start_word))
        parts = [(j, r) for j, r in truth if r.category in ADDRESS_PARTS
                 and span.start_word <= r.start_word and r.end_word <= span.end_word]
        if span.category == "ADDRESS" and len(parts) > 1 and any(r.category == "ADDRESS" for _, r in parts):
            # a whole address (street, town, postcode) suggested as one item is accepted as one: the
            # reference's street, town and postcode are all in it
            claimed.update(j for j, _ in parts)
            chosen.append((min(r.start_word for _, r in parts), max(r.end_word for _, r in parts), "ADDRESS", span.id))
            continue
        claimed.add(k)
        chosen.append((best.start_word, best.end_word, best.category, span.id))
    chosen += [(r.start_word, r.end_word, r.category, None) for k, r in enumerate(reference_spans) if k not in claimed]

    def risk(category: str) -> float:
        return taxonomy.miss_score(category) if category in taxonomy else 0.0

    accept: list[tuple[int, str, int, int]] = []
    add: list[Span] = []
    chosen.sort(key=lambda c: (c[0], -c[1]))
    i = 0
    while i < len(chosen):
        group = [chosen[i]]
        end = chosen[i][1]
        while i + len(group) < len(chosen) and chosen[i + len(group)][0] < end:
            end = max(end, chosen[i + len(group)][1])
            group.append(chosen[i + len(group)])
        start = group[0][0]
        category = max(group, key=lambda c: (risk(c[2]), c[1] - c[0]))[2]
        keep = next((c for c in group if c[3] is not None), None)
        if keep is not None:
            accept.append((keep[3], category, start, end))
            reject += [c[3] for c in group if c[3] is not None and c is not keep]
        else:
            add.append(Span(start, end, category, status=SpanStatus.ACCEPTED, score=1.0,
                            sources=("reference",), reason="from the reference transcript"))
        i += len(group)
    return OracleDecisions(accept, reject, add)


def _key(text: str) -> str:
    return re.sub(r"[^\w@]+", "", text.lower())


def repeated_occurrences(conv: Conversation) -> list[Span]:
    """Spans for every other place an accepted item's exact words are said again, unmarked.

    "The amount is 141.8 … 141.8, yes": an annotator accepting the first must mark the second too,
    or its original goes out (the export's leak scan refuses it). Items of under three characters
    or of function words only are not searched.
    """
    from redactdesk.resources import function_words

    keys = [_key(w.text) for w in conv.words]
    covered = [False] * len(conv.words)
    accepted = [s for s in conv.spans if s.status == SpanStatus.ACCEPTED]
    for s in accepted:
        for i in s.word_range():
            covered[i] = True
    stop = function_words(conv.language)
    out: list[Span] = []
    seen: set[tuple[str, ...]] = set()
    for s in accepted:
        needle = tuple(k for k in keys[s.start_word:s.end_word])
        if needle in seen or len("".join(needle)) < 3 or all(k in stop or not k for k in needle):
            continue
        seen.add(needle)
        n = len(needle)
        i = 0
        while i + n <= len(keys):
            if tuple(keys[i:i + n]) == needle and not any(covered[i:i + n]):
                out.append(Span(i, i + n, s.category, status=SpanStatus.ACCEPTED, score=1.0, sources=("annotator",),
                                reason="another occurrence of an accepted item"))
                for j in range(i, i + n):
                    covered[j] = True
                i += n
            else:
                i += 1
    return out
