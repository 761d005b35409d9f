"""Review sampling and the pre-scan that points reviewers at likely misses."""

from __future__ import annotations

import random
import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from redactdesk.core.types import Conversation, SpanStatus
from redactdesk.lang.calendar import weekday_names
from redactdesk.lang.digits import DIGIT_VALUES, DIGIT_WORDS

NUMBER_WORDS = set(DIGIT_VALUES["en"]) | set(DIGIT_WORDS["es"]) | {"ten"}
COMMON_CAPITALISED = {"I", "OK", "Okay", "Hi", "Hello", "Yes", "No", "Thank", "Thanks", "Mr", "Mrs", "Ms", "Dr",
                      *weekday_names("en"), "Sí", "Hola"}
DIGITS_RE = re.compile(r"^\d[\d\-]*$")


def stratum(conv: Conversation) -> tuple[str, str]:
    """Language and a length band: short (<60 s), medium (<180 s), long."""
    d = conv.duration or (conv.words[-1].end if conv.words else 0.0)
    band = "short" if d < 60 else "medium" if d < 180 else "long"
    return conv.language, band


def stratified_sample(conversations: Sequence[Conversation], size: int, seed: int = 0) -> list[str]:
    """Conversation ids drawn at random within strata, allocated in proportion (at least one per stratum)."""
    if size <= 0:
        raise ValueError("sample size must be positive")
    groups: dict[tuple[str, str], list[str]] = defaultdict(list)
    for conv in conversations:
        groups[stratum(conv)].append(conv.id)
    total = sum(len(v) for v in groups.values())
    if size >= total:
        return sorted(c.id for c in conversations)
    rng = random.Random(seed)
    keys = sorted(groups)
    alloc = {k: max(1, round(size * len(groups[k]) / total)) for k in keys}
    while sum(alloc.values()) > size:  # trim the largest allocations first
        k = max(keys, key=lambda k: (alloc[k], k))
        alloc[k] -= 1
    while sum(alloc.values()) < size:
        k = max(keys, key=lambda k: (len(groups[k]) - alloc[k], k))
        alloc[k] += 1
    picked: list[str] = []
    for k in keys:
        members = sorted(groups[k])
        picked += rng.sample(members, min(alloc[k], len(members)))
    return sorted(picked)


@dataclass(frozen=True)
class PrescanHit:
    """Something that looks like personal data but is not covered by an accepted span."""

    conversation_id: str
    start_word: int
    end_word: int
    kind: str  # "digit_run", "capitalised_unknown", "rejected_high_score"
    detail: str  # never the text itself


def prescan(conv: Conversation, *, min_digits: int = 3, rejected_score: float = 0.7,
            known_words: set[str] | None = None) -> list[PrescanHit]:
    covered = set()
    for s in conv.spans:
        if s.status == SpanStatus.ACCEPTED:
            covered.update(s.word_range())
    hits: list[PrescanHit] = []
    # runs of digits / number words not covered by an accepted span
    run: list[int] = []

    def flush() -> None:
        if len(run) >= min_digits or (run and sum(len(conv.words[i].text.strip(",.")) for i in run) >= min_digits
                                       and any(DIGITS_RE.match(conv.words[i].text.strip(",.")) for i in run)):
            hits.append(PrescanHit(conv.id, run[0], run[-1] + 1, "digit_run", f"{len(run)} numeric words"))
        run.clear()

    for i, w in enumerate(conv.words):
        t = w.text.strip(",.?!").lower()
        if i not in covered and (t in NUMBER_WORDS or DIGITS_RE.match(t)):
            run.append(i)
        else:
            flush()
    flush()
    turn_starts = {t.start_word for t in conv.turns}
    for i, w in enumerate(conv.words):
        t = w.text.strip(",.?!\"'")
        if (i in covered or i in turn_starts or not t[:1].isupper() or t in COMMON_CAPITALISED
                or (i > 0 and conv.words[i - 1].text.rstrip().endswith((".", "?", "!")))):
            continue
        if known_words is not None and t.lower() in known_words:
            continue
        hits.append(PrescanHit(conv.id, i, i + 1, "capitalised_unknown", "capitalised word mid-sentence"))
    for s in conv.spans:
        if s.status == SpanStatus.REJECTED and s.score >= rejected_score:
            hits.append(PrescanHit(conv.id, s.start_word, s.end_word, "rejected_high_score",
                                   f"rejected {s.category} suggestion, score {s.score:.2f}"))
    return sorted(hits, key=lambda h: (h.start_word, h.kind))


def sample_ids(setting: object) -> list[str]:
    """The conversation ids of a stored review sample (the app stores a list, the CLI {"ids", "seed"})."""
    if isinstance(setting, dict):
        setting = setting.get("ids")
    if isinstance(setting, list):
        return [str(c) for c in setting]
    return []
