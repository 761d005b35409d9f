"""Substitute a conversation's accepted spans: the one entry point of the substitution stage.

``substitute_conversation`` is a pure function over core types: it reads the conversation, the
caller's pseudonym map rows and the project secret, and returns the revised words, the list of
replacements, the map rows to store and the revision warnings. Nothing is written anywhere.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from redactdesk.core.kept_years import kept_year
from redactdesk.core.taxonomy import Taxonomy
from redactdesk.core.types import Conversation, Span, SpanStatus, Turn, Word
from redactdesk.lang.roads import is_numbered_road
from redactdesk.resources import load_taxonomy
from redactdesk.substitute import composite, dates, names, numeric, places, spelling  # noqa: F401 - registers generators
from redactdesk.substitute.base import REGISTRY, Context, Item, Occurrence, Piece, generator
from redactdesk.substitute.errors import SubstitutionError
from redactdesk.substitute.gazetteer import load_gazetteer
from redactdesk.substitute.mapping import PseudonymMap
from redactdesk.substitute.numbers import check_language
from redactdesk.substitute.text import norm, plain_letters, similarity, split_punct

MODES = ("pseudonym", "placeholder", "tag", "redact", "generalise")
PLACEHOLDER_NAMES = {
    "PERSON": "PERSON_NAME", "CREDIT_CARD": "CREDIT_CARD_NUMBER", "PHONE": "PHONE_NUMBER",
    "EMAIL": "EMAIL_ADDRESS", "ADDRESS": "STREET_ADDRESS", "SSN": "US_SOCIAL_SECURITY_NUMBER",
}
REDACTED = "[REDACTED]"


@dataclass
class Replacement:
    """One substituted span: word range ``[start_word, end_word)`` of the original, ``[revised_start,
    revised_end)`` of the revised words."""

    span_id: int | None
    category: str
    original: str
    surrogate: str
    start_word: int
    end_word: int
    revised_start: int
    revised_end: int
    keys: tuple[str, ...] = ()


@dataclass
class OccurrenceReport:
    span_id: int | None
    start_word: int  # conversation word range of this occurrence (original)
    end_word: int
    revised_start: int
    revised_end: int
    form: str
    said_original: str
    said_surrogate: str


@dataclass
class ItemReport:
    """One map entry of the conversation with every place it is said."""

    key: str
    category: str
    klass: str
    original: str
    surrogate: str
    locked: bool
    derived: bool
    kept: str = ""  # why a surrogate equal to the original is intended ("no absolute date")
    info: dict[str, Any] = field(default_factory=dict)
    occurrences: list[OccurrenceReport] = field(default_factory=list)


@dataclass
class SubstitutionResult:
    conversation_id: str
    mode: str
    language: str
    revised_words: list[Word]
    revised_turns: list[Turn]
    revised_spans: list[Span]
    replacements: list[Replacement]
    map_rows: list[dict[str, Any]]
    items: list[ItemReport]
    warnings: list[Any] = field(default_factory=list)  # RevisionWarning
    offset_days: int = 0
    month_shift: int = 0

    def revised_text(self) -> str:
        return " ".join(w.text for w in self.revised_words)


# ---------------------------------------------------------------------------------- helpers
def _accepted(conv: Conversation) -> tuple[list[Span], list[tuple[str, Span]]]:
    """Accepted spans without overlaps (an enclosing span wins); the dropped ones with a reason."""
    spans = sorted((s for s in conv.spans if s.status == SpanStatus.ACCEPTED),
                   key=lambda s: (s.start_word, -(s.end_word - s.start_word)))
    kept: list[Span] = []
    dropped: list[tuple[str, Span]] = []
    for s in spans:
        if s.end_word > len(conv.words):
            raise SubstitutionError(f"span {s.id} ends at word {s.end_word}, past the conversation's "
                                    f"{len(conv.words)} words")
        if kept and s.start_word < kept[-1].end_word:
            dropped.append(("inside" if s.end_word <= kept[-1].end_word else "overlap", s))
            continue
        kept.append(s)
    return kept, dropped


def _spread(span_words: list[Word], tokens: list[str]) -> list[Word]:
    """New words over the time of the original span, each as long as its share of letters."""
    t0, t1 = span_words[0].start, span_words[-1].end
    weights = [len(t) + 1 for t in tokens]
    total = float(sum(weights)) or 1.0
    first = span_words[0]
    out, acc = [], 0.0
    for tok, w in zip(tokens, weights, strict=True):
        start = t0 + (t1 - t0) * acc / total
        acc += w
        end = t0 + (t1 - t0) * acc / total
        out.append(Word(text=tok, start=round(start, 3), end=round(end, 3), confidence=None, speaker=first.speaker,
                        channel=first.channel, aligned=False))
    return out


class _Union:
    def __init__(self) -> None:
        self.parent: dict[str, str] = {}

    def find(self, k: str) -> str:
        self.parent.setdefault(k, k)
        while self.parent[k] != k:
            self.parent[k] = self.parent[self.parent[k]]
            k = self.parent[k]
        return k

    def union(self, keep: str, other: str) -> None:
        a, b = self.find(keep), self.find(other)
        if a != b:
            if a.startswith("spelled:") and not b.startswith("spelled:"):
                a, b = b, a
            self.parent[b] = a


WORDLIKE = ("person", "city", "country", "organization", "product")
# the classes a numbered road may be read as (its own class then changes only its number)
_ROAD_CLASSES = frozenset({"city", "country", "organization", "person", "address", "product"})


def _link(ctx: Context, pieces: list[tuple[int, Piece]], spans: list[Span]) -> _Union:
    """Merge items that are one thing: spans linked as one entity, letters spelling a word."""
    uf = _Union()
    for _, p in pieces:
        uf.find(p.key)
    groups: dict[str, list[tuple[int, Piece]]] = {}
    for si, p in pieces:
        if spans[si].entity:
            groups.setdefault(spans[si].entity, []).append((si, p))
    for group in groups.values():
        words = [p for _, p in group if p.form != "spelled"]
        by_span: dict[int, list[Piece]] = {}
        for si, p in group:
            if p.form != "spelled":
                by_span.setdefault(si, []).append(p)
        for ps in by_span.values():
            if len(ps) != 1:
                continue
            p = ps[0]
            same = [q for q in words if q.klass == p.klass and q.info.get("role") == p.info.get("role")]
            keys = list(dict.fromkeys(q.key for q in same))
            if p.key in keys and len(keys) == 1:
                continue
            others = [k for k in keys if k != p.key]
            if not others or p.key in [q.key for q in same if q is not p]:
                continue
            if len(others) == 1:
                uf.union(others[0], p.key)
            else:
                best = max(others, key=lambda k: similarity(k, p.key))
                uf.union(best, p.key)
        for _, p in group:
            if p.form == "spelled":
                cands = [q for q in words if q.klass in WORDLIKE]
                exact = [q for q in cands if plain_letters(q.original) == p.value]
                if exact:
                    uf.union(exact[0].key, p.key)
                elif cands:
                    best = max(cands, key=lambda q: similarity(plain_letters(q.original), p.value))
                    if similarity(plain_letters(best.original), p.value) >= 0.5:
                        uf.union(best.key, p.key)
    by_letters: dict[str, str] = {}
    for _, p in pieces:
        if p.form != "spelled" and p.klass in WORDLIKE:
            by_letters.setdefault(plain_letters(p.original), p.key)
    for _, p in pieces:
        if p.form == "spelled" and uf.find(p.key) == p.key and p.value in by_letters:
            uf.union(by_letters[p.value], p.key)
    _link_heard_spellings(pieces, spans, uf)
    return uf


SPELLED_LINK_RATIO = 0.5  # "M D D I N A" (Whisper) still spells Medina; "R O B L G" still Robledo
FUSED_LINK_RATIO = 0.75  # a word in capitals must be closer: it could be a name of its own


def _link_heard_spellings(pieces: list[tuple[int, Piece]], spans: list[Span], uf: _Union) -> None:
    """Tie a spelling the ASR garbled ("M -D -D -I -N -A" for Medina) to the name it spells, so it is
    re-spelled from that name's surrogate; a PERSON spelling that matches no name becomes a surname
    of its own (a surname drawn for it, then spelled), never random letters."""
    names = [(si, p) for si, p in pieces if p.form != "spelled" and p.klass in WORDLIKE]
    for si, p in pieces:
        if p.form != "spelled" or uf.find(p.key) != p.key:
            continue
        scored = []
        for sj, q in names:
            ratio = similarity(plain_letters(q.original), str(p.value))
            surname = q.info.get("role") == "surname"
            scored.append((ratio, surname, sj <= si, -abs(si - sj), q.key))
        best = max(scored, default=None)
        if best is not None and best[0] >= SPELLED_LINK_RATIO and len(str(p.value)) >= 3:
            uf.union(best[4], p.key)
        elif spans[si].category == "PERSON" and p.klass == "spelled":
            p.klass = "person"
            p.info = {**p.info, "role": "surname", "ntok": 1}
    for _, p in names:  # a spelling the ASR fused into one word in capitals ("MDDINA" for Medina)
        word = plain_letters(p.original)
        if p.form != "name" or not p.original.isupper() or len(word) < 3 or uf.find(p.key) != p.key:
            continue
        others = [(similarity(plain_letters(q.original), word), q.key) for _, q in names
                  if q.key != p.key and not q.original.isupper() and q.info.get("role") == p.info.get("role")]
        best = max(others, default=None)
        if best is not None and best[0] >= FUSED_LINK_RATIO:
            uf.union(best[1], p.key)


def _resolve_short_forms(pieces: list[tuple[int, Piece]]) -> None:
    """Point a short form at its full name's item when the full name is said in the conversation."""
    fulls = {p.key for _, p in pieces if p.klass == "person" and p.form == "name"}
    for _, p in pieces:
        cands = p.info.get("full_candidates")
        if not cands:
            continue
        present = [f for f, _ in cands if f"person:given:{f}" in fulls and f"person:given:{f}" != p.key]
        if present:
            p.key, p.form = f"person:given:{present[0]}", "short"
        elif p.form == "short":
            hint = p.info.get("gender_hint")
            pick = next((f for f, g in cands if g == hint), cands[0][0])
            p.key = f"person:given:{pick}"


# ---------------------------------------------------------------------------------- modes
def _simple_tokens(mode: str, spans: list[Span], conv: Conversation, language: str) -> list[list[str]]:
    """Tokens per span for the placeholder, tag and redact modes."""
    out: list[list[str]] = []
    numbering: dict[str, dict[str, int]] = {}
    entity_key: dict[int, str] = {}
    letters_key: dict[str, str] = {}
    for i, s in enumerate(spans):
        text = conv.span_text(s)
        key = f"entity:{s.entity}" if s.entity else f"{s.category}:{norm(text)}"
        entity_key[i] = key
        for tok in text.split():
            letters_key.setdefault(plain_letters(tok), key)
    for i, s in enumerate(spans):
        if mode == "redact":
            out.append([REDACTED])
            continue
        if mode == "tag":
            out.append([f"[{s.category}]"])
            continue
        name = PLACEHOLDER_NAMES.get(s.category, s.category)
        key = entity_key[i]
        if not s.entity:
            sp = spelling.parse([w.text for w in conv.words[s.start_word:s.end_word]], language)
            if sp is not None and sp.letters in letters_key:
                key = letters_key[sp.letters]
        table = numbering.setdefault(name, {})
        if key not in table:
            table[key] = len(table) + 1
        out.append([f"[{name}_{table[key]}]"])
    return out


def _folded_tokens(text: str) -> list[str]:
    return re.findall(r"[\w@]+", text.lower())


def _contains_original(rep: Replacement) -> bool:
    """True when the surrogate still says the original inside it ("zero five thirty" -> "... thirty two")."""
    orig, sur = _folded_tokens(rep.original), _folded_tokens(rep.surrogate)
    if not orig or len("".join(orig)) < 3 or len(sur) < len(orig):
        return False
    return any(sur[i:i + len(orig)] == orig for i in range(len(sur) - len(orig) + 1))


def _keeps_a_number(rep: Replacement) -> bool:
    """True when a token of the original holding three or more digits ("h704725") is still in the
    surrogate: a generator left a part of the item it could not read as it was. An event date's year
    is no such part: the date moves by whole weeks and may keep it (core/kept_years.py; "5 March 2019"
    -> "26 March 2019" was replaced by its tag)."""
    sur = set(_folded_tokens(rep.surrogate))
    return any(sum(c.isdigit() for c in t) >= 3 and t in sur and not kept_year(rep.category, t)
               and t not in numeric.DRAWN_ON_PURPOSE.get(rep.category, ()) for t in _folded_tokens(rep.original))


MAX_REDRAWS = 8


def substitute_conversation(
    conv: Conversation,
    *,
    mode: str = "pseudonym",
    secret: str,
    existing_map: list[dict[str, Any]] | None = None,
    language: str | None = None,
    gazetteer_edits: Iterable[dict[str, Any]] | None = None,
    taxonomy: Taxonomy | None = None,
    generalisation: dict[str, int] | None = None,
    salts: dict[str, str] | None = None,
    check: bool = True,
) -> SubstitutionResult:
    """Replace the conversation's ACCEPTED spans (see :func:`_substitute_once`).

    A surrogate that happens to contain its own original (a card expiry "zero five thirty" drawn as
    "zero five thirty two") would leak it, so such items are re-drawn with a fresh salt, a few times
    at most. An item whose surrogate still says its original after that (a generator that could not
    read a garbled item keeps its words) is replaced by its category tag (``[CARD_EXPIRY]``) and a
    ``kept_as_tag`` warning tells the linguist: an accepted item never survives substitution.
    """
    salts = dict(salts or {})
    kwargs = dict(mode=mode, secret=secret, existing_map=existing_map, language=language,
                  gazetteer_edits=gazetteer_edits, taxonomy=taxonomy, generalisation=generalisation, check=check)
    result = _substitute_once(conv, salts=salts, **kwargs)
    for attempt in range(MAX_REDRAWS):
        bad = [k for rep in result.replacements if _contains_original(rep) for k in rep.keys]
        if not bad:
            break
        for k in bad:
            salts[k] = salts.get(k, "") + f"~{attempt}"
        result = _substitute_once(conv, salts=salts, **kwargs)
    kept = {it.key for it in result.items if it.kept}  # intended ("yesterday" is no date of a person)
    stuck = {rep.start_word for rep in result.replacements
             if (_contains_original(rep) or _same_words(rep) or _keeps_a_number(rep))
             and not (rep.keys and set(rep.keys) <= kept)}
    if stuck and mode in ("pseudonym", "generalise"):
        from redactdesk.substitute.revision import RevisionWarning

        result = _substitute_once(conv, salts=salts, as_tag=stuck, **kwargs)
        result.warnings += [RevisionWarning("kept_as_tag", f"no {rep.category} surrogate could be drawn that does "
                                            "not repeat the original; the item is replaced by its tag",
                                            rep.category, (rep.span_id,)) for rep in result.replacements
                            if rep.start_word in stuck]
    return result


def _same_words(rep: Replacement) -> bool:
    """True when the surrogate says exactly the original (any length: even "ten" must not stay)."""
    return bool(_folded_tokens(rep.original)) and _folded_tokens(rep.original) == _folded_tokens(rep.surrogate)


def _substitute_once(
    conv: Conversation,
    *,
    mode: str = "pseudonym",
    secret: str,
    existing_map: list[dict[str, Any]] | None = None,
    language: str | None = None,
    gazetteer_edits: Iterable[dict[str, Any]] | None = None,
    taxonomy: Taxonomy | None = None,
    generalisation: dict[str, int] | None = None,
    salts: dict[str, str] | None = None,
    check: bool = True,
    as_tag: set[int] | None = None,
) -> SubstitutionResult:
    """Replace the conversation's ACCEPTED spans (see the module docstring); spans starting at a word
    in ``as_tag`` get their category tag.

    ``mode``: pseudonym (natural surrogates, default), placeholder (``[PERSON_NAME_1]`` reused
    within the call), tag (``[PERSON]``), redact (``[REDACTED]``) or generalise (quasi-identifier
    spans → their generalised value at the level in ``generalisation`` {category: level}; other
    spans as pseudonym). ``existing_map`` rows (``Project.pseudonyms``) are honoured: a row keeps
    its surrogate (derived rows such as e-mails only when locked). ``salts`` {key: text} re-draws
    single items (the linguist's "regenerate").
    """
    if mode not in MODES:
        raise SubstitutionError(f"unknown substitution mode {mode!r}; use one of {', '.join(MODES)}")
    if not isinstance(secret, str) or not secret:
        raise SubstitutionError("substitute_conversation needs the project secret (secret=...)")
    lang = check_language(language or conv.language or "en")
    tax = taxonomy or load_taxonomy()
    spans, dropped = _accepted(conv)
    from redactdesk.substitute.revision import RevisionWarning, revision_checks

    engine_warnings: list[RevisionWarning] = [
        RevisionWarning("overlap", f"accepted span {s.id} {why} another accepted span; the outer one is used",
                        s.category, (s.id,)) for why, s in dropped if why == "overlap"]

    span_tokens: list[list[str]]
    ctx: Context | None = None
    occ_of_span: dict[int, list[tuple[Item, Occurrence]]] = {}
    if mode in ("placeholder", "tag", "redact"):
        span_tokens = _simple_tokens(mode, spans, conv, lang)
    else:
        gaz = load_gazetteer(lang, gazetteer_edits)
        ctx = Context(conv, lang, gaz, secret, PseudonymMap(existing_map), spans)
        ctx.salts = dict(salts or {})
        span_tokens, occ_of_span = _pseudonymise(ctx, spans, tax, mode, generalisation or {})

    for si, s in enumerate(spans):
        if as_tag and s.start_word in as_tag:
            span_tokens[si] = [f"[{s.category}]"]
    revised: list[Word] = []
    new_start = [0] * (len(conv.words) + 1)
    replacements: list[Replacement] = []
    revised_spans: list[Span] = []
    by_start = {s.start_word: (i, s) for i, s in enumerate(spans)}
    span_rev: dict[int, tuple[int, int]] = {}
    i = 0
    while i < len(conv.words):
        if i in by_start:
            si, s = by_start[i]
            toks = span_tokens[si] or [f"[{s.category}]"]
            start = len(revised)
            revised += _spread(conv.words[s.start_word:s.end_word], toks)
            for j in range(s.start_word, s.end_word):
                new_start[j] = start
            span_rev[si] = (start, len(revised))
            keys = tuple(dict.fromkeys(it.key for it, _ in occ_of_span.get(si, [])))
            replacements.append(Replacement(s.id, s.category, conv.span_text(s), " ".join(toks), s.start_word,
                                            s.end_word, start, len(revised), keys))
            # no reason text: a recogniser's reason may quote the original
            revised_spans.append(Span(start, len(revised), s.category, SpanStatus.ACCEPTED, s.score, s.sources,
                                      "", s.entity, s.id))
            i = s.end_word
        else:
            new_start[i] = len(revised)
            w = conv.words[i]
            revised.append(Word(w.text, w.start, w.end, w.confidence, w.speaker, w.channel, w.aligned))
            i += 1
    new_start[len(conv.words)] = len(revised)
    turns = [Turn(t.speaker, new_start[t.start_word], new_start[t.end_word] if t.end_word < len(conv.words)
                  else len(revised), t.channel) for t in conv.turns]

    items: list[ItemReport] = []
    map_rows: list[dict[str, Any]] = []
    if ctx is not None:
        items = _item_reports(ctx, spans, span_tokens, span_rev, conv)
        if mode in ("pseudonym", "generalise"):
            for it in ctx.items.values():
                if it.surrogate is None:
                    continue
                map_rows.append({"key": it.key, "category": it.category, "original": it.original,
                                 "surrogate": it.surrogate, "locked": it.locked})
        for it in ctx.items.values():
            if it.info.get("form_lost"):
                engine_warnings.append(RevisionWarning(
                    "form_lost", f"no {it.category} surrogate keeps the spoken form; the value is unchanged",
                    it.category, tuple(o.span_id for r in items if r.key == it.key for o in r.occurrences), it.key))
            if it.info.get("rule_broken"):
                engine_warnings.append(RevisionWarning(
                    "rule_broken", f"the {it.category} surrogate could not meet its check rule in this spoken form",
                    it.category, (), it.key))
    result = SubstitutionResult(conv.id, mode, lang, revised, turns, revised_spans, replacements, map_rows, items,
                                list(engine_warnings), ctx.offset_days if ctx else 0, ctx.month_shift if ctx else 0)
    if check and mode in ("pseudonym", "generalise"):
        result.warnings += revision_checks(conv, result)
    return result


def _pseudonymise(ctx: Context, spans: list[Span], tax: Taxonomy, mode: str,
                  generalisation: dict[str, int]) -> tuple[list[list[str]], dict[int, list[tuple[Item, Occurrence]]]]:
    from redactdesk.substitute.generalise import generalise_span

    conv = ctx.conv
    pieces: list[tuple[int, Piece]] = []
    general: dict[int, list[str]] = {}
    for si, s in enumerate(spans):
        tokens = [w.text for w in conv.words[s.start_word:s.end_word]]
        if mode == "generalise":
            said = generalise_span(s.category, tokens, ctx.language, generalisation.get(s.category, 1))
            if said is not None:
                general[si] = said
                continue
        klass = tax.get(s.category).substitution if s.category in tax else "tag"
        if klass in _ROAD_CLASSES and is_numbered_road(tokens, ctx.language):
            klass = "road"  # "Route 9" read as a place or a firm: another number, not a town's or firm's name
        if klass not in REGISTRY:
            general[si] = [f"[{s.category}]"]
            continue
        for p in generator(klass).analyse(ctx, si, tokens, s):
            pieces.append((si, p))
    _resolve_short_forms(pieces)
    uf = _link(ctx, pieces, spans)
    roots = {p.key: uf.find(p.key) for _, p in pieces}
    for _, p in sorted(pieces, key=lambda x: (roots[x[1].key] != x[1].key, x[0], x[1].start)):
        root = roots[p.key]
        if root not in ctx.items:
            src = p if p.key == root else next(q for _, q in pieces if q.key == root)
            ctx.ensure_item(src)
    occ_of_span: dict[int, list[tuple[Item, Occurrence]]] = {}
    for si, p in pieces:
        item = ctx.items[roots[p.key]]
        occ = Occurrence(si, p.start, p.end, p.form, p.style, p.original)
        item.occurrences.append(occ)
        if p.info.get("gender_hint") and not item.info.get("gender_hint"):
            item.info["gender_hint"] = p.info["gender_hint"]
        if p.form == "name" and item.klass == "person" and item.original != p.original and (
                norm(item.original) == norm(p.original) or item.occurrences[0].form in ("short", "spelled")):
            item.original = p.original
            item.info["ntok"] = p.end - p.start
        occ_of_span.setdefault(si, []).append((item, occ))
    date_values = [it.value for it in ctx.items.values() if it.klass == "date" and isinstance(it.value, dates.DateValue)]
    dates.plan_offset(ctx, date_values)
    order = sorted(ctx.items.values(), key=lambda it: (
        generator(it.klass).priority,
        min((o.span_index for o in it.occurrences), default=len(spans))))
    for it in order:
        ctx.surrogate_of(it.key)
    out: list[list[str]] = []
    for si, s in enumerate(spans):
        if si in general:
            out.append(general[si])
            continue
        tokens = [w.text for w in conv.words[s.start_word:s.end_word]]
        said: list[str] = []
        pos = 0
        for item, occ in sorted(occ_of_span.get(si, []), key=lambda x: x[1].start):
            said += tokens[pos:occ.start]
            sub = tokens[occ.start:occ.end]
            if occ.form == "spelled":
                word = item.surrogate or ""
                if item.klass == "person":
                    word = "".join(word.split())
                occ.said = spelling.render(word, ctx.language, occ.style, ctx.spelling_words)
            else:
                occ.said = generator(item.klass).render(ctx, item, occ, sub)
            occ.revised_offset = len(said)
            said += occ.said
            pos = max(pos, occ.end)
        said += tokens[pos:]
        out.append(said)
    return out, occ_of_span


def _item_reports(ctx: Context, spans: list[Span], span_tokens: list[list[str]],
                  span_rev: dict[int, tuple[int, int]], conv: Conversation) -> list[ItemReport]:
    reports: list[ItemReport] = []
    for it in ctx.items.values():
        rep = ItemReport(it.key, it.category, it.klass, it.original, it.surrogate or "", it.locked, it.derived,
                         str(it.info.get("kept", "")), {k: v for k, v in it.info.items()
                                                        if k in ("role", "gender_hint", "ntok")})
        if it.klass == "person" and it.info.get("role") == "given":
            rep.info["gender"] = names.PersonGenerator.gender(ctx, it)
        for occ in it.occurrences:
            s = spans[occ.span_index]
            a, _ = span_rev.get(occ.span_index, (0, 0))
            ra = a + occ.revised_offset
            rep.occurrences.append(OccurrenceReport(
                s.id, s.start_word + occ.start, s.start_word + occ.end, ra, ra + len(occ.said), occ.form,
                " ".join(split_punct(w.text)[1] for w in conv.words[s.start_word + occ.start:s.start_word + occ.end]),
                " ".join(split_punct(t)[1] for t in occ.said)))
        reports.append(rep)
    return reports
