"""What the release stages share: the job they fill in, the stage type, the tools they call, the result.

A release is written by a fixed list of ``Stage``s (``release.runner``), each a typed function over
one ``ReleaseJob``: the gate's outcome and the settings go in, each stage adds what it made (revised
text, masked audio reports, re-listen results, the manifest) for the stages after it.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from redactdesk.core.types import Conversation
from redactdesk.pipeline import export_formats as ef
from redactdesk.pipeline.progress import CancelFn, ProgressFn, check_cancel
from redactdesk.pipeline.release.errors import ExportRefused
from redactdesk.pipeline.release_recheck import RecheckFinding
from redactdesk.risk.gate import Readiness
from redactdesk.risk.leakscan import LeakFinding
from redactdesk.risk.residual import RiskSummary
from redactdesk.risk.signoff import SignOffState
from redactdesk.store import Project

MANIFEST = "manifest.json"
SIGNATURE = "manifest.sig"
REPORT = "report.html"
README = "README.txt"
DRAFT_SUFFIX = "-DRAFT"
RELEASE_FORMAT = "redactdesk-release"
RELEASE_VERSION = 1
DEFAULT_RISK_THRESHOLD = 5.0

Report = Callable[[float], None]  # a stage's progress: its own fraction 0..1 (also checks cancel)


# ------------------------------------------------------------------------------ the tools stages call
class SubstituteFn(Protocol):
    """``substitute.engine.substitute_conversation``: a result with ``revised_words``, ``replacements``
    and ``map_rows``."""

    def __call__(self, conv: Conversation, *, mode: str, secret: str, existing_map: Any, language: str,
                 gazetteer_edits: Any, **extra: Any) -> Any: ...


class MaskFn(Protocol):
    """``audio.mask_file``: writes the masked copy and reports what was done."""

    def __call__(self, src: Path, dst: Path, ranges: Sequence[Any], method: str, params: Any, *,
                 progress: Callable[..., None] | None = None, cancel: CancelFn | None = None) -> Any: ...


class RelistenFn(Protocol):
    """``audio.relisten``: which accepted items a recogniser still hears in the masked audio."""

    def __call__(self, masked: Path, conv: Conversation, ranges: Sequence[Any], *,
                 progress: Callable[..., None] | None = None, cancel: CancelFn | None = None,
                 **extra: Any) -> Any: ...


class ProsodyFn(Protocol):
    """``audio.prosody_report``: pitch and energy of the masked audio against the original."""

    def __call__(self, original: Path, masked: Path, ranges: Sequence[Any], *, method: str) -> Any: ...


@dataclass(frozen=True)
class Tools:
    substitute: SubstituteFn
    mask: MaskFn
    mask_is_default: bool  # workers then use their own mask_file instead of a pickled function
    relisten: RelistenFn | None  # None: not run (recorded in the manifest and report)
    relisten_is_default: bool
    prosody: ProsodyFn | None


# ---------------------------------------------------------------------------------------- the gate
@dataclass(frozen=True)
class GateOutcome:
    """What ``release.gate.check`` allowed: the conversations, the sign-off and its overrides."""

    final: Path
    state: SignOffState
    ids: list[str]
    excluded: set[str]
    readiness: Readiness
    override_reason: str | None  # a reviewer's written reason to release despite re-listen leaks


# ----------------------------------------------------------------------------------------- the job
@dataclass
class ReleaseJob:
    """One export in progress: the inputs (first block) and what the stages made so far."""

    project: Project
    gate: GateOutcome
    draft: bool
    tools: Tools
    settings: dict[str, Any]
    method: str
    mask_params: Any
    convs: dict[str, Conversation]
    overridden: set[str]
    has_audio: list[str]
    staging: Path
    executor: Any
    cancel: CancelFn | None
    removed_partials: int = 0  # staging folders of killed exports removed before this one
    done_stages: set[str] = field(default_factory=set)  # run beside others (runner._text_beside_audio)
    warnings: list[str] = field(default_factory=list)
    # text
    revised: dict[str, ef.RevisedConversation] = field(default_factory=dict)
    audio_rel: dict[str, str] = field(default_factory=dict)
    recheck: list[RecheckFinding] = field(default_factory=list)
    blocking: list[RecheckFinding] = field(default_factory=list)
    # audio
    on_cluster: bool = False
    sources: dict[str, Path] = field(default_factory=dict)
    ranges_of: dict[str, list[Any]] = field(default_factory=dict)
    mask_reports: dict[str, dict[str, Any]] = field(default_factory=dict)
    relisten_results: dict[str, dict[str, Any]] = field(default_factory=dict)
    relisten_leaks: int = 0
    override: dict[str, Any] | None = None
    prosody_rows: list[dict[str, Any]] = field(default_factory=list)
    # scan
    needles: Any = None
    cross: dict[str, dict[str, int]] = field(default_factory=dict)
    # manifest
    risk: RiskSummary | None = None
    content_hash: str = ""
    manifest: dict[str, Any] = field(default_factory=dict)
    sums: dict[str, str] = field(default_factory=dict)

    @property
    def ids(self) -> list[str]:
        return self.gate.ids

    def inside(self, *parts: str) -> Path:
        return inside(self.staging, *parts)


@dataclass(frozen=True)
class Stage:
    """One step of the export: its share of the progress bar and its message, whether it runs for
    this job, and the work (which reports its own fraction through ``Report``)."""

    name: str
    weight: Callable[[ReleaseJob], float]
    message: Callable[[ReleaseJob], str]
    run: Callable[[ReleaseJob, Report], None]
    applies: Callable[[ReleaseJob], bool] = lambda job: True


@dataclass
class ReleaseResult:
    """What one export wrote. ``path`` is the release folder."""

    path: Path
    draft: bool
    conversations: list[str]
    files: dict[str, str]  # relative path -> sha256
    manifest: dict[str, Any]
    risk: RiskSummary
    signoff: SignOffState
    leak_findings: list[LeakFinding] = field(default_factory=list)
    relisten: dict[str, dict[str, Any]] = field(default_factory=dict)
    override_reason: str | None = None
    audio_seconds: float = 0.0
    seconds: float = 0.0
    warnings: list[str] = field(default_factory=list)
    readiness: Readiness | None = None
    recheck: list[RecheckFinding] = field(default_factory=list)  # allow-listed (or, in a draft, all) findings

    @property
    def verdict(self) -> str:
        return self.manifest.get("verdict", "")

    @property
    def folder(self) -> Path:
        return self.path

    @property
    def relisten_leaks(self) -> int:
        return sum(int(r.get("leaks", 0)) for r in self.relisten.values())


# ---------------------------------------------------------------------------------------------- steps
class Steps:
    """Maps step-local progress onto one 0..1 bar and checks cancel at every report."""

    def __init__(self, weights: Mapping[str, float], progress: ProgressFn | None, cancel: CancelFn | None) -> None:
        self.weights = weights
        self.total = sum(weights.values()) or 1.0
        self.done = 0.0
        self.progress = progress
        self.cancel = cancel

    def start(self, name: str | Sequence[str], message: str) -> Report:
        """The report of step ``name`` (or of several steps run as one, their shares added)."""
        check_cancel(self.cancel)
        names = [name] if isinstance(name, str) else list(name)
        base, weight = self.done, sum(self.weights.get(n, 0.0) for n in names)
        self.done += weight

        def report(fraction: float, *_: Any) -> None:
            check_cancel(self.cancel)
            if self.progress is not None:
                self.progress(min(1.0, (base + weight * min(max(fraction, 0.0), 1.0)) / self.total), message)

        report(0.0)
        return report


# ---------------------------------------------------------------------------------------------- files
def inside(root: Path, *parts: str) -> Path:
    """``root/parts`` — refusing any path that would leave ``root`` (ids are data, not paths)."""
    target = root.joinpath(*parts)
    if any(p in ("", ".", "..") or "/" in p or "\\" in p or "\0" in p for p in parts):
        raise ExportRefused("release refused: a file name in the release would leave the release folder")
    if os.path.commonpath([os.path.abspath(root), os.path.abspath(target)]) != os.path.abspath(root):
        raise ExportRefused("release refused: a file name in the release would leave the release folder")
    return target


def write_text(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8", newline="\n")


def as_dict(obj: Any) -> dict[str, Any]:
    if obj is None:
        return {}
    if isinstance(obj, dict):
        return dict(obj)
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type) and not hasattr(obj, "to_dict"):
        return dataclasses.asdict(obj)
    to_dict = getattr(obj, "to_dict", None)
    return dict(to_dict()) if callable(to_dict) else {"value": str(obj)}
