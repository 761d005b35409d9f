"""Why a release was not written. Every one of them means nothing was left behind."""

from __future__ import annotations

from collections.abc import Sequence

from redactdesk.pipeline.release_recheck import RecheckFinding
from redactdesk.risk.gate import Readiness
from redactdesk.risk.leakscan import LeakFinding


class ExportError(Exception):
    """The release could not be written; nothing was left behind."""


class ExportRefused(ExportError):
    """The release may not be written yet (sign-off missing or stale, leaks found)."""


class LeaksFound(ExportRefused):
    """Original values were found in the would-be release (findings carry hints, never values)."""

    def __init__(self, message: str, findings: Sequence[LeakFinding]) -> None:
        super().__init__(message)
        self.findings = list(findings)


class GateClosed(ExportRefused):
    """Included conversations are undecided, never detected or not reviewed (``readiness`` says which)."""

    def __init__(self, message: str, readiness: Readiness) -> None:
        super().__init__(message)
        self.readiness = readiness


class UndecidedFound(ExportRefused):
    """Detection over the release text finds items nobody decided about (``findings``: where, never what)."""

    def __init__(self, message: str, findings: Sequence[RecheckFinding]) -> None:
        super().__init__(message)
        self.findings = list(findings)
