"""Release export: the names callers have always imported from here; the code is in
``redactdesk.pipeline.release`` (gate, text, audio, scan, manifest, and the runner over them)."""

from redactdesk.formats.files import sha256_file as sha256_of
from redactdesk.pipeline.release import (
    ExportError,
    ExportRefused,
    GateClosed,
    LeaksFound,
    ReleaseResult,
    UndecidedFound,
    export_release,
    release_path,
    release_summary,
    remove_stale_partials,
)
from redactdesk.pipeline.release.job import (
    DEFAULT_RISK_THRESHOLD,
    DRAFT_SUFFIX,
    MANIFEST,
    README,
    RELEASE_FORMAT,
    RELEASE_VERSION,
    REPORT,
    SIGNATURE,
)

__all__ = [
    "DEFAULT_RISK_THRESHOLD",
    "DRAFT_SUFFIX",
    "MANIFEST",
    "README",
    "RELEASE_FORMAT",
    "RELEASE_VERSION",
    "REPORT",
    "SIGNATURE",
    "ExportError",
    "ExportRefused",
    "GateClosed",
    "LeaksFound",
    "ReleaseResult",
    "UndecidedFound",
    "export_release",
    "release_path",
    "release_summary",
    "remove_stale_partials",
    "sha256_of",
]
