"""ELAN EAF: reader (ElementTree) and writer (pympi-ling).

Reading takes every top-level time-aligned tier (no parent) as one speaker: the tier's PARTICIPANT,
else its id — except item tiers: a tier named like "PII" or "items" is never a speaker, and the
tier named by ``span_tier`` is read as labelled intervals for spans. An annotation holding several
words has its time spread evenly over them (``aligned=False``). Writing makes one tier per speaker
with one annotation per word (times in ms) and, given items, a tier ``items`` whose values come from
a controlled vocabulary of the taxonomy's categories, with a child tier ``placeholders``.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from pathlib import Path

from pympi import Elan

from redactdesk.core.types import Word
from redactdesk.formats._textio import decode_text, read_bytes
from redactdesk.formats.errors import ImportProblem, Problems
from redactdesk.formats.files import atomic_write_bytes
from redactdesk.formats.limits import MAX_LABEL_CHARS, MAX_SECONDS
from redactdesk.formats.span_tier import (
    CATEGORY_VOCABULARY,
    ITEMS_TIER,
    PLACEHOLDER_TIER,
    SpanInterval,
    is_chosen,
    looks_like_span_tier,
)
from redactdesk.formats.transcript import (
    TranscriptImport,
    merge_by_start,
    spread,
    tier_intervals,
    turns_from_words,
)
from redactdesk.formats.validate import check_words, raise_if

WORDS_TIER = "words"
_MAX_MS_DIGITS = len(str(int(MAX_SECONDS * 1000))) + 1  # longer values are refused before int()


def read_eaf(path: str | Path, audio_duration: float | None = None, span_tier: str | None = None
             ) -> TranscriptImport:
    """Read an ELAN .eaf file. Raises ImportFailed listing every problem.

    ``span_tier``: the TIER_ID of a time-aligned tier of items, returned as ``span_intervals``.

    The XML is read with ElementTree (expat: no external entities, entity expansion bounded) and
    walked directly; every attribute is checked, so odd documents give listed problems.
    """
    p = Path(path)
    data = read_bytes(p)
    decode_text(data, p)  # encoding problems reported with their byte offset
    try:
        root = ET.fromstring(data)
    except ET.ParseError as exc:
        line, col = exc.position
        raise_if(p, [ImportProblem(f"line {line}, column {col + 1}", "malformed XML")])
    except (ValueError, RecursionError, MemoryError):
        raise_if(p, [ImportProblem("file", "not a readable XML document")])
    if root.tag != "ANNOTATION_DOCUMENT":
        raise_if(p, [ImportProblem("file", "not an ELAN file (no ANNOTATION_DOCUMENT)")])
    return _from_tree(root, p, audio_duration, span_tier)


def _from_tree(root: ET.Element, path: Path | None, audio_duration: float | None,
               span_tier: str | None = None) -> TranscriptImport:
    problems = Problems()
    slots: dict[str, int | None] = {}
    for order in root.iter("TIME_ORDER"):
        for si, slot in enumerate(order.iter("TIME_SLOT"), 1):
            sid = slot.get("TIME_SLOT_ID")
            value = slot.get("TIME_VALUE")
            if not sid:
                problems.append(ImportProblem(f"time slot {si}", "missing TIME_SLOT_ID"))
                continue
            if value is None:
                slots[sid] = None
            elif value.isascii() and value.isdigit() and len(value) <= _MAX_MS_DIGITS:
                slots[sid] = int(value)
            else:
                problems.append(ImportProblem(f"time slot {si}", "TIME_VALUE is not a whole number of "
                                              f"milliseconds up to {_MAX_MS_DIGITS} digits"))
    raise_if(path, problems)

    items: list[tuple[Word, str]] = []
    groups: list[int] = []
    spread_count = 0
    span_intervals: list[SpanInterval] = []
    if span_tier is not None:
        picked = [t for t in root.findall("TIER") if is_chosen(t.get("TIER_ID") or "", span_tier)]
        if not picked:
            raise_if(path, [ImportProblem("file", "no tier has the id given as the span tier")])
        for tier in picked:
            for ai, ann in enumerate(tier.iterfind("ANNOTATION/ALIGNABLE_ANNOTATION"), 1):
                value_el = ann.find("ANNOTATION_VALUE")
                t0 = slots.get(ann.get("TIME_SLOT_REF1") or "")
                t1 = slots.get(ann.get("TIME_SLOT_REF2") or "")
                where = f"span tier, annotation {ai}"
                if t0 is None or t1 is None:
                    problems.append(ImportProblem(where, "time slot without a time value"))
                    continue
                label = value_el.text if value_el is not None and value_el.text else ""
                span_intervals.append(SpanInterval(t0 / 1000.0, t1 / 1000.0, label, where))
    top = [t for t in root.findall("TIER") if not t.get("PARENT_REF") and t.find("ANNOTATION/ALIGNABLE_ANNOTATION")
           is not None and not is_chosen(t.get("TIER_ID") or "", span_tier)
           and not looks_like_span_tier(t.get("TIER_ID") or "")]
    if not top:
        raise_if(path, [ImportProblem("file", "no time-aligned top-level tier with annotations")])
    for ti, tier in enumerate(top, 1):
        tier_id = tier.get("TIER_ID") or ""
        speaker = tier.get("PARTICIPANT") or (None if tier_id in (WORDS_TIER, "") else tier_id)
        if speaker is not None and len(speaker) > MAX_LABEL_CHARS:
            problems.append(ImportProblem(f"tier {ti}", f"participant or tier name longer than {MAX_LABEL_CHARS} "
                                          "characters"))
            continue
        anns: list[tuple[int | None, int | None, str]] = []
        for ann in tier.iterfind("ANNOTATION/ALIGNABLE_ANNOTATION"):
            value_el = ann.find("ANNOTATION_VALUE")
            value = value_el.text if value_el is not None and value_el.text else ""
            anns.append((slots.get(ann.get("TIME_SLOT_REF1") or ""), slots.get(ann.get("TIME_SLOT_REF2") or ""),
                         value))
        anns.sort(key=lambda a: math.inf if a[0] is None else a[0])
        for ai, (t0, t1, value) in enumerate(anns, 1):
            loc = f"tier {ti}, annotation {ai}"
            tokens = value.split()
            if not tokens:
                continue
            if t0 is None or t1 is None:
                problems.append(ImportProblem(loc, "time slot without a time value"))
                continue
            start, end = t0 / 1000.0, t1 / 1000.0
            if len(tokens) > 1:
                spread_count += 1
            for t, (s, e) in zip(tokens, spread(start, end, len(tokens)), strict=True):
                items.append((Word(text=t, start=s, end=e, speaker=speaker, aligned=len(tokens) == 1), loc))
                groups.append(ti)
    problems.extend(check_words([w for w, _ in items], [loc for _, loc in items], audio_duration, groups=groups))
    raise_if(path, problems)
    warnings: list[str] = []
    if spread_count:
        warnings.append(f"{spread_count} annotation(s) held several words; their times were spread evenly")
    words = [w for w, _ in merge_by_start(items)]
    return TranscriptImport(words=words, turns=turns_from_words(words), warnings=warnings, format="eaf",
                            span_intervals=span_intervals)


def build_eaf(words: list[Word], audio_rel: str | None = None,
              items: list[tuple[float, float, str, str]] | None = None,
              vocabulary: list[tuple[str, str]] | None = None) -> Elan.Eaf:
    """A pympi Eaf with one tier per speaker (PARTICIPANT = speaker) and one annotation per word.

    ``items`` (start, end, category, placeholder) add a tier ``items`` whose linguistic type is
    bound to a controlled vocabulary of ``vocabulary`` (category id, description) — in ELAN the
    annotator then picks categories from a list — and a symbolic-association child tier
    ``placeholders`` holding each item's placeholder.
    """
    eaf = Elan.Eaf(author="redactdesk")
    eaf.remove_tier("default")
    if audio_rel:
        eaf.add_linked_file(audio_rel, relpath=audio_rel, mimetype=_mime(audio_rel))
    by_speaker: dict[str, list[Word]] = {}
    for w in words:
        by_speaker.setdefault(w.speaker or WORDS_TIER, []).append(w)
    for tier, ws in by_speaker.items():
        eaf.add_tier(tier, part="" if tier == WORDS_TIER else tier)
        last = 0
        for s, e, text in tier_intervals(ws):
            ms0 = max(int(round(s * 1000)), last)
            ms1 = max(int(round(e * 1000)), ms0 + 1)
            eaf.add_annotation(tier, ms0, ms1, text)
            last = ms1
    if not by_speaker:
        eaf.add_tier(WORDS_TIER)
    if items is not None:
        _add_items(eaf, items, vocabulary or [])
    return eaf


def _add_items(eaf: Elan.Eaf, items: list[tuple[float, float, str, str]], vocabulary: list[tuple[str, str]]
               ) -> None:
    eaf.add_language("und", "http://cdb.iso.org/lg/CDB-00130975-001", "undetermined (ISO 639-3:und)")
    eaf.add_controlled_vocabulary(CATEGORY_VOCABULARY)
    eaf.add_cv_description(CATEGORY_VOCABULARY, "und", "redactdesk categories of personal data")
    known = {cid for cid, _ in vocabulary}
    extra = [(c, "") for c in dict.fromkeys(cat for *_, cat, _ in items) if c not in known]
    for n, (cid, description) in enumerate([*vocabulary, *extra], 1):
        eaf.add_cv_entry(CATEGORY_VOCABULARY, f"cveid{n}", [(cid, "und", description or None)])
    eaf.add_linguistic_type("redactdesk-item", param_dict={
        "LINGUISTIC_TYPE_ID": "redactdesk-item", "TIME_ALIGNABLE": "true", "GRAPHIC_REFERENCES": "false",
        "CONTROLLED_VOCABULARY_REF": CATEGORY_VOCABULARY})
    eaf.add_linguistic_type("redactdesk-placeholder", constraints="Symbolic_Association", timealignable=False)
    eaf.add_tier(ITEMS_TIER, ling="redactdesk-item")
    eaf.add_tier(PLACEHOLDER_TIER, ling="redactdesk-placeholder", parent=ITEMS_TIER)
    last = 0
    for s, e, category, placeholder in sorted(items):
        ms0 = max(int(round(s * 1000)), last)
        ms1 = max(int(round(e * 1000)), ms0 + 2)  # 2 ms at least: the placeholder refers to the middle
        eaf.add_annotation(ITEMS_TIER, ms0, ms1, category)
        if placeholder:
            eaf.add_ref_annotation(PLACEHOLDER_TIER, ITEMS_TIER, (ms0 + ms1) // 2, placeholder)
        last = ms1


def _mime(name: str) -> str:
    ext = name.rsplit(".", 1)[-1].lower()
    return {"wav": "audio/x-wav", "flac": "audio/flac", "ogg": "audio/ogg", "mp3": "audio/mpeg"}.get(ext, "audio/*")


def write_eaf(words: list[Word], path: str | Path, audio_rel: str | None = None,
              items: list[tuple[float, float, str, str]] | None = None,
              vocabulary: list[tuple[str, str]] | None = None) -> Path:
    """Write ``words`` as an ELAN file (times rounded to the millisecond), atomically; ``items`` and
    ``vocabulary`` as in :func:`build_eaf`.

    Overlapping words of one speaker are clipped as in ``tier_intervals``.
    """
    data = Elan.to_string(build_eaf(words, audio_rel, items, vocabulary), pretty=True, encoding="UTF-8")
    return atomic_write_bytes(path, data)
