"""Leak scan of a release folder, built on :mod:`redactdesk.risk.leakscan` (its needles and line scanner).

Scoping: a conversation's original values are searched in every file that carries that
conversation's text (``corpus/<id>.json``, ``textgrid/<id>.TextGrid``, ``eaf/<id>.eaf``,
``text/<id>.txt``, its lines of ``corpus.jsonl`` and its section of ``corpus.conll``), and every
conversation's values in the files that carry no transcript (report, manifest, README) and in any
file the scan cannot attribute. Such findings refuse the release.

Another conversation's value found in a conversation's placeholder text (where its own items are
hidden) is not a leak of that value — surrogates of one call often equal real values of another
(a city, a month) — but a value accepted elsewhere and said here unanonymised may be a miss:
those are returned as *cross hits* for the report, by category, never with text.

Structure is not text: before scanning, the numbers and identifiers our writers add (times,
sizes, hashes, time stamps, embedded images) are blanked, because the line scanner folds "19.85"
to "1985". A value split over CoNLL lines is also searched sentence by sentence. Needles that do
not occur anywhere in a file's whole text are dropped before the line-by-line scan (a match on a
line is also a match in the whole text, so nothing is lost).
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from redactdesk.core.types import Conversation
from redactdesk.risk.leakscan import (
    SEPARATORS,
    TEXT_SUFFIXES,
    LeakFinding,
    Needle,
    fold_accents,
    fold_line,
    needles,
    scan_text,
)

PER_CONVERSATION = {"corpus": ".json", "textgrid": ".TextGrid", "eaf": ".eaf", "text": ".txt",
                    "labelstudio": ".json", "ctm": ".ctm", "stm": ".stm", "vtt": ".vtt", "srt": ".srt",
                    "rttm": ".rttm", "audacity": ".txt"}
PLACEHOLDER_FOLDER = "text"


@dataclass(frozen=True)
class CrossHit:
    """A value accepted in ``source`` conversation found unanonymised in ``conversation_id``."""

    conversation_id: str
    source: str
    category: str
    line: int


_LOOKBEHINDS = ("(?<!\\d)", "(?<![0-9a-z])")
_LOOKAHEADS = ("(?!\\d)", "(?![0-9a-z])")
_GAP = "[\\s\\-]+"
_LITERALS: dict[str, str | None] = {}


def _literal(n: Needle) -> str | None:
    """The longest plain piece every match of the needle contains, or None if its pattern is not
    of the known shape (lookbehind, escaped text with [\\s\\-]+ gaps, lookahead)."""
    key = n.pattern.pattern
    if key in _LITERALS:
        return _LITERALS[key]
    out = None
    body = key
    lb = next((x for x in _LOOKBEHINDS if body.startswith(x)), None)
    la = next((x for x in _LOOKAHEADS if body.endswith(x)), None)
    if lb and la:
        body = body[len(lb):len(body) - len(la)]
        pieces = [re.sub(r"\\(.)", r"\1", x) for x in body.split(_GAP)]
        if pieces and all(x and re.escape(x) == raw for x, raw in zip(pieces, body.split(_GAP), strict=True)):
            out = max(pieces, key=len)
    _LITERALS[key] = out
    return out


def _candidates(text: str, ns: list[Needle]) -> list[Needle]:
    """Needles that match somewhere in the whole text, folded as the line scanner folds lines."""
    if not ns:
        return []
    folded = [fold_line(line) for line in text.splitlines()]
    joined = "\n".join(folded)
    squashed = "\n".join(SEPARATORS.sub("", line) for line in folded)
    plain = fold_accents(joined)  # letter sequences: a needle's letters must all stand alone somewhere
    singles = set(re.findall(r"(?<![0-9a-zñ])[a-zñ](?![0-9a-zñ])", plain))
    out = []
    for n in ns:
        if n.variant == "spelled":
            if set(n.letters) <= singles and n.pattern.search(plain):
                out.append(n)
            continue
        hay = squashed if n.variant == "digits" else joined
        lit = _literal(n)
        if (lit is None or lit in hay) and n.pattern.search(hay):
            out.append(n)
    return out


def scan_lines(text: str, name: str, ns: list[Needle]) -> list[LeakFinding]:
    """``leakscan.scan_text`` with the whole-text prefilter."""
    found = _candidates(text, ns)
    return scan_text(text, name, found) if found else []


# ---------------------------------------------------------------------------------------------- structure
_JSON_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?')
_TEXTGRID_TOKEN = re.compile(r'"(?:[^"]|"")*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?')
_EAF_NUMERIC_ATTR = re.compile(r'\b(TIME_VALUE|TIME_SLOT_ID|TIME_SLOT_REF[12]|ANNOTATION_ID|DATE|VERSION|'
                               r'lastUsedAnnotationId)="[^"]*"')
_EAF_LAST_ID = re.compile(r"(<PROPERTY NAME=\"lastUsedAnnotationId\">)\d+(</PROPERTY>)")
_HEX_DIGEST = re.compile(r"\b[0-9a-f]{32,}\b")
_TIMESTAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)?")
_DATA_URI = re.compile(r"data:[\w/+.-]+;base64,[A-Za-z0-9+/=\s]*")
_HTML_NUMBER_CELL = re.compile(r'<td class="n">[^<]*</td>')


def _outside_strings(token: re.Pattern[str], text: str) -> str:
    return "\n".join(token.sub(lambda m: m.group() if m.group().startswith('"') else "#", line)
                     for line in text.split("\n"))


def id_pattern(ids: Iterable[str]) -> re.Pattern[str] | None:
    """One pattern for all conversation ids (longest first), for :func:`blank_structure`."""
    ordered = sorted(set(ids), key=len, reverse=True)
    return re.compile("|".join(map(re.escape, ordered))) if ordered else None


def blank_structure(name: str, text: str, ids: re.Pattern[str] | None = None) -> str:
    """``text`` with the numbers and identifiers our writers add (not the transcript) replaced by '#'.

    ``ids`` (:func:`id_pattern`): conversation ids, blanked wherever they occur ("call_en_1000"
    holds no one's "1000"). Line structure is kept so findings keep their line numbers.
    """
    lower = name.lower()
    if ids is not None:
        text = ids.sub("#", text)
    text = _TIMESTAMP.sub("#", _HEX_DIGEST.sub("#", text))
    if lower.endswith((".json", ".jsonl")):
        return _outside_strings(_JSON_TOKEN, text)
    if lower.endswith(".textgrid"):
        return _outside_strings(_TEXTGRID_TOKEN, text)
    if lower.endswith(".eaf"):
        return _EAF_LAST_ID.sub(r"\1#\2", _EAF_NUMERIC_ATTR.sub(lambda m: f'{m.group(1)}="#"', text))
    if lower.endswith(".html"):
        return _HTML_NUMBER_CELL.sub('<td class="n">#</td>', _DATA_URI.sub("data:", text))
    for suffix, fields in _TIME_FIELDS.items():  # times and channels (speech formats), never the words
        if lower.endswith(suffix) and (suffix != ".txt" or lower.startswith("audacity/")):
            return _blank_fields(text, fields)
    if lower.endswith((".vtt", ".srt")):
        return _blank_cue_timing(text)
    return text


# whitespace-separated fields (0-based) our writers fill with numbers: CTM channel/start/duration/
# confidence, STM channel/begin/end, RTTM channel/onset/duration, Audacity start/end
_TIME_FIELDS = {".ctm": (1, 2, 3, 5), ".stm": (1, 3, 4), ".rttm": (2, 3, 4), ".txt": (0, 1)}
_CUE_TIMING = re.compile(r"^\s*[\d:.,]+\s*-->\s*[\d:.,]+")
_WORD_TIMING = re.compile(r"<(?:\d+:)?\d\d:\d\d[.,]\d{3}>")  # WebVTT's time of each word in a cue


def _blank_fields(text: str, fields: tuple[int, ...]) -> str:
    out = []
    for line in text.split("\n"):
        if line.startswith(";;"):
            out.append(line)
            continue
        parts = line.split("\t") if "\t" in line else line.split(" ")
        sep = "\t" if "\t" in line else " "
        out.append(sep.join("#" if i in fields else p for i, p in enumerate(parts)))
    return "\n".join(out)


def _blank_cue_timing(text: str) -> str:
    """WebVTT/SRT: timing lines, SRT's cue numbers (a digit line right before a timing line) and
    WebVTT's word times inside a cue ("<00:00:58.523>" holds no one's postcode 58523)."""
    lines = _WORD_TIMING.sub(" ", text).split("\n")  # a space: a value said across word times stays whole
    for i, line in enumerate(lines):
        if _CUE_TIMING.match(line):
            lines[i] = "#"
            if i and lines[i - 1].strip().isdigit():
                lines[i - 1] = "#"
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------- sections
def _jsonl_owner(line: str) -> str | None:
    try:
        d = json.loads(line)
    except ValueError:
        return None
    return d.get("conversation_id") if isinstance(d, dict) else None


def sections(rel: str, lines: list[str], ids: set[str]) -> dict[str | None, list[int]]:
    """Line indexes of a file per conversation (None: not attributable, scanned with every needle)."""
    out: dict[str | None, list[int]] = defaultdict(list)
    parts = rel.split("/")
    if len(parts) == 2 and parts[0] in PER_CONVERSATION and parts[1].endswith(PER_CONVERSATION[parts[0]]):
        cid = parts[1][: -len(PER_CONVERSATION[parts[0]])]
        out[cid if cid in ids else None] = list(range(len(lines)))
        return out
    if rel.endswith(".jsonl"):
        for i, line in enumerate(lines):
            owner = _jsonl_owner(line) if line.strip() else None
            out[owner if owner in ids else None].append(i)
        return out
    if rel.endswith(".conll"):
        current: str | None = None
        for i, line in enumerate(lines):
            if line.startswith("-DOCSTART-"):
                name = line.split("\t", 1)[1].strip() if "\t" in line else ""
                current = name if name in ids else None
                out[None].append(i)
            else:
                out[current].append(i)
        return out
    out[None] = list(range(len(lines)))
    return out


def _only(lines: list[str], keep: list[int]) -> str:
    """The file's text with every line not in ``keep`` emptied (line numbers stay)."""
    wanted = set(keep)
    return "\n".join(line if i in wanted else "" for i, line in enumerate(lines))


def _conll_sentences(lines: list[str], keep: list[int]) -> list[tuple[int, str]]:
    """(first line number, tokens joined by spaces) of each CoNLL sentence within ``keep``."""
    wanted = set(keep)
    out: list[tuple[int, str]] = []
    tokens: list[str] = []
    first = 0
    for i, line in enumerate([*lines, ""]):
        if i >= len(lines) or i not in wanted or not line.strip() or line.startswith("-DOCSTART-"):
            if tokens:
                out.append((first, " ".join(tokens)))
            tokens = []
            continue
        if not tokens:
            first = i + 1
        tokens.append(line.split("\t")[0])
    return out


# ---------------------------------------------------------------------------------------------- scans
def scan_release(folder: str | Path, conversations: Iterable[Conversation],
                 extra: dict[str, str] | None = None, ns: list[Needle] | None = None) -> list[LeakFinding]:
    """Findings that refuse a release: a conversation's original values in its own or shared text.

    ``extra`` scans texts not written yet (name -> text, e.g. the manifest) with every needle;
    ``ns`` reuses needles already built for these conversations.
    """
    folder = Path(folder)
    convs = list(conversations)
    by_conv: dict[str, list[Needle]] = defaultdict(list)
    every = needles(convs) if ns is None else ns
    for n in every:
        by_conv[n.conversation_id].append(n)
    ids = {c.id for c in convs}
    blank_ids = id_pattern(ids)
    findings: list[LeakFinding] = []
    for path in sorted(folder.rglob("*")):
        if not (path.is_file() and path.suffix in TEXT_SUFFIXES):
            continue
        rel = path.relative_to(folder).as_posix()
        raw = path.read_text(encoding="utf-8", errors="replace")
        lines = blank_structure(rel, raw, blank_ids).split("\n")
        for owner, keep in sections(rel, raw.split("\n"), ids).items():
            ns = every if owner is None else by_conv.get(owner, [])
            findings += scan_lines(_only(lines, keep), rel, ns)
            if rel.endswith(".conll"):  # each sentence as one line: values split over token lines
                seen = {(f.line, f.conversation_id, f.category) for f in findings if f.file == rel}
                sentences = _conll_sentences(lines, keep)
                for f in scan_lines("\n".join(text for _, text in sentences), rel, ns):
                    hit = replace(f, line=sentences[f.line - 1][0])
                    if (hit.line, hit.conversation_id, hit.category) not in seen:
                        seen.add((hit.line, hit.conversation_id, hit.category))
                        findings.append(hit)
    for name, text in (extra or {}).items():
        findings += scan_lines(blank_structure(name, text, blank_ids), name, every)
    return findings


def _key(conversation_id: str, category: str, variant: str, hint_text: str) -> tuple[str, str, str, str]:
    return conversation_id, category, variant, hint_text


def inside_other_surrogates(findings: list[LeakFinding], conversations: Iterable[Conversation],
                            revised: dict[str, Any], ns: list[Needle] | None = None
                            ) -> tuple[list[LeakFinding], list[LeakFinding]]:
    """Split findings into (blocking, coincidental).

    A finding is coincidental only when its value occurs nowhere in the conversation's text outside
    its anonymised items (its placeholder text), not inside the surrogate of an item whose original
    it is (a surrogate that keeps its original is a leak), but inside the surrogate of another item
    (a generated value that happens to contain it: "4353" inside another item's ten random digits).
    Findings in shared files (report, manifest) always block.
    """
    from redactdesk.pipeline.export_formats import placeholder_text
    from redactdesk.risk.leakscan import hint

    convs = {c.id: c for c in conversations}
    wanted = {_key(f.conversation_id, f.category, f.variant, f.hint) for f in findings}
    verdict: dict[tuple[str, str, str, str], bool] = {}
    for cid in sorted({f.conversation_id for f in findings}):
        conv, rev = convs.get(cid), revised.get(cid)
        if conv is None or rev is None:
            continue
        text = placeholder_text(rev)
        span_text = {s.id: conv.span_text(s) for s in conv.spans}
        for n in (needles([conv]) if ns is None else [x for x in ns if x.conversation_id == cid]):
            k = _key(cid, n.category, n.variant, hint(n.original))
            if k not in wanted:
                continue
            in_text = bool(scan_lines(text, "", [n]))
            own = any(span_text.get(it.span_id) == n.original and scan_lines(it.surrogate, "", [n]) for it in rev.items)
            other = any(span_text.get(it.span_id) != n.original and scan_lines(it.surrogate, "", [n])
                        for it in rev.items)
            coincidental = other and not in_text and not own
            verdict[k] = verdict.get(k, True) and coincidental
    blocking, coincidental = [], []
    for f in findings:
        shared = f.file.split("/")[0] not in PER_CONVERSATION and not f.file.endswith((".jsonl", ".conll"))
        ok = not shared and verdict.get(_key(f.conversation_id, f.category, f.variant, f.hint), False)
        (coincidental if ok else blocking).append(f)
    return blocking, coincidental


def cross_hits(folder: str | Path, conversations: Iterable[Conversation],
               ns: list[Needle] | None = None) -> list[CrossHit]:
    """Values accepted in one conversation and said unanonymised in another (its placeholder text)."""
    folder = Path(folder)
    convs = list(conversations)
    every = needles(convs) if ns is None else ns
    out: list[CrossHit] = []
    for conv in convs:
        path = folder / PLACEHOLDER_FOLDER / f"{conv.id}{PER_CONVERSATION[PLACEHOLDER_FOLDER]}"
        if not path.is_file():
            continue
        others = [n for n in every if n.conversation_id != conv.id]
        for f in scan_lines(path.read_text(encoding="utf-8"), path.name, others):
            out.append(CrossHit(conv.id, f.conversation_id, f.category, f.line))
    return sorted(set(out), key=lambda h: (h.conversation_id, h.line, h.category, h.source))
