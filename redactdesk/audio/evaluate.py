"""Compare masking methods on a set of conversations: leaks heard, prosody kept, time taken.

:func:`evaluate_methods` masks every conversation with each method, re-listens (counting accepted
items the recogniser still hears) and measures pitch/energy RMSD; :func:`format_table` prints the
rows. The ``original`` row re-listens to the unmasked audio: how many items the recogniser hears
when nothing is hidden, the yardstick for the others.
"""

from __future__ import annotations

import math
import os
import tempfile
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from redactdesk.audio.masker_params import conversation_params
from redactdesk.audio.maskfile import mask_file
from redactdesk.audio.prosody import ProsodySummary, prosody_report
from redactdesk.audio.ranges import mask_ranges
from redactdesk.audio.registry import get_masker
from redactdesk.audio.relisten import relisten
from redactdesk.core.progress import FractionFn
from redactdesk.core.types import Conversation

METHODS = ("silence", "beep", "noise", "distort", "voice")
ORIGINAL = "original"


@dataclass
class MethodRow:
    """One method over the whole set. Gains are (silence RMSD - method RMSD) / silence RMSD."""

    method: str
    conversations: int = 0
    audio_seconds: float = 0.0
    ranges: int = 0
    items: int = 0
    heard_full: int = 0
    heard_partial: int = 0
    pitch_rmsd: float = 0.0
    energy_rmsd: float = 0.0
    pitch_rmsd_silence: float = 0.0
    energy_rmsd_silence: float = 0.0
    mask_seconds: float = 0.0
    check_seconds: float = 0.0
    skipped: str = ""

    @property
    def pitch_gain(self) -> float:
        s = self.pitch_rmsd_silence
        return (s - self.pitch_rmsd) / s if s > 0 else math.nan

    @property
    def energy_gain(self) -> float:
        s = self.energy_rmsd_silence
        return (s - self.energy_rmsd) / s if s > 0 else math.nan

    @property
    def realtime(self) -> float:
        return self.audio_seconds / self.mask_seconds if self.mask_seconds > 0 else math.inf

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "pitch_gain": self.pitch_gain, "energy_gain": self.energy_gain,
                "realtime": self.realtime}


def load_corpus(folder: str | os.PathLike[str]) -> list[Conversation]:
    """The conversations (project conversation JSON) in ``folder`` whose audio file is present."""
    import json

    from redactdesk.formats.conversation_json import FORMAT_NAME, read_conversation_json

    out = []
    for path in sorted(Path(folder).glob("*.json")):
        try:
            if json.loads(path.read_text(encoding="utf-8")).get("format") != FORMAT_NAME:
                continue  # an index or other JSON beside the conversations
        except (ValueError, AttributeError):
            continue
        conv = read_conversation_json(path)
        if conv.audio_path and Path(conv.audio_path).is_file():
            out.append(conv)
    return out


def _add_prosody(row: MethodRow, p: ProsodySummary) -> None:
    row.pitch_rmsd += p.pitch_rmsd
    row.energy_rmsd += p.energy_rmsd
    row.pitch_rmsd_silence += p.pitch_rmsd_silence
    row.energy_rmsd_silence += p.energy_rmsd_silence


def evaluate_methods(
    convs: Sequence[Conversation],
    methods: Iterable[str] = METHODS,
    workdir: str | os.PathLike[str] | None = None,
    *,
    check: bool = True,
    model: str = "tiny.en",
    params: Mapping[str, Mapping[str, Any]] | None = None,
    surrogates: Callable[[Conversation], Mapping[Any, str]] | None = None,
    baseline: bool = True,
    progress: FractionFn | None = None,
    log: Callable[[str], None] | None = None,
) -> list[MethodRow]:
    """Mask ``convs`` with each method (into ``workdir``, a temporary folder by default) and measure.

    ``params``: method -> masker parameters. ``surrogates``: conversation -> {span id: text} for the
    voice method (the substitution stage's pseudonyms). ``check=False`` skips the re-listen check.
    Methods that are not available here get a row with ``skipped`` set.
    """
    methods = list(methods)
    with tempfile.TemporaryDirectory(prefix="redactdesk-mask-eval-") as tmp:
        root = Path(workdir) if workdir is not None else Path(tmp)
        root.mkdir(parents=True, exist_ok=True)
        rows = []
        plan = ([ORIGINAL] if baseline and check else []) + methods
        for m_i, method in enumerate(plan):
            row = MethodRow(method)
            rows.append(row)
            if method != ORIGINAL:
                ok, why = get_masker(method).available()
                if not ok:
                    row.skipped = why
                    continue
            for c_i, conv in enumerate(convs):
                src = Path(conv.audio_path or "")
                ranges = mask_ranges(conv)
                row.conversations += 1
                row.audio_seconds += conv.duration or 0.0
                row.ranges += len(ranges)
                p: dict[str, Any] = {}
                if method == ORIGINAL:
                    out = src
                else:
                    out = root / method / f"{conv.id}{src.suffix}"
                    out.parent.mkdir(parents=True, exist_ok=True)
                    p = conversation_params(method, (params or {}).get(method), conv, surrogates)
                    t0 = time.perf_counter()
                    mask_file(src, out, ranges, method, p)
                    row.mask_seconds += time.perf_counter() - t0
                    _add_prosody(row, prosody_report(src, out, ranges, method=method))
                if check:
                    t0 = time.perf_counter()
                    spoken = p.get("surrogates") if method == "voice" else None
                    report = relisten(out, conv, ranges, model=model, spoken=spoken)
                    row.check_seconds += time.perf_counter() - t0
                    row.items += report.items_checked
                    row.heard_full += len(report.full_leaks)
                    row.heard_partial += len(report.partial_leaks)
                if log is not None:
                    log(f"{method}: {conv.id} done ({c_i + 1}/{len(convs)})")
                if progress is not None:
                    progress((m_i + (c_i + 1) / max(1, len(convs))) / len(plan))
    return rows


def _pct(x: float) -> str:
    return "n/a" if math.isnan(x) else f"{100 * x:+.1f}%"


def format_table(rows: Sequence[MethodRow]) -> str:
    """A plain-text table: items heard, prosody RMSD against silence's, time taken."""
    head = (f"{'method':<9} {'convs':>5} {'items':>5} {'heard':>5} {'part.':>5} "
            f"{'pitch RMSD Hz':>15} {'energy RMSD':>15} {'pitch kept':>10} {'energy kept':>11} "
            f"{'mask s':>7} {'x RT':>7} {'check s':>7}")
    lines = [head, "-" * len(head)]
    for r in rows:
        if r.skipped:
            lines.append(f"{r.method:<9} skipped: {r.skipped}")
            continue
        n = max(1, r.ranges)
        masked = r.method != ORIGINAL
        pitch = f"{r.pitch_rmsd / n:6.1f}/{r.pitch_rmsd_silence / n:<6.1f}" if masked else "-"
        energy = f"{r.energy_rmsd / n:.4f}/{r.energy_rmsd_silence / n:.4f}" if masked else "-"
        lines.append(
            f"{r.method:<9} {r.conversations:>5} {r.items:>5} {r.heard_full:>5} {r.heard_partial:>5} "
            f"{pitch:>15} {energy:>15} {(_pct(r.pitch_gain) if masked else '-'):>10} "
            f"{(_pct(r.energy_gain) if masked else '-'):>11} {r.mask_seconds:7.1f} "
            f"{(f'{r.realtime:7.0f}' if masked else '-'):>7} {r.check_seconds:7.1f}")
    lines.append("heard = accepted items the re-listen check still recognises in full (part. = partly); "
                 "RMSD = mean per range, method/silence; kept = share of silence's loss avoided.")
    return "\n".join(lines)
