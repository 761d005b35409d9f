"""Release export: the signed-off corpus, anonymised, as one folder that appears all at once.

``export_release`` (``runner``) runs the gate (``gate``: sign-off, signing key, audit log, release
readiness), then typed stages over one ``ReleaseJob`` (``job``): substitute every conversation and
write the text formats, detect again over the release text (``text``); mask the audio, re-listen to
it, measure prosody (``audio``); scan every text file for original values (``scan``); write
``report.html``, ``manifest.json`` (sha256 of every file) and the signature (``manifest``). They
write into a locked staging folder (``staging``) that is renamed to the release name only at the end.
Any error, refusal or cancel removes the staging folder: no partial release ever exists.

What never enters a release: the pseudonym map, original values (also not in warnings, meta or the
report), the project secret, the original audio's path or hash.
"""

from redactdesk.pipeline.release.errors import (
    ExportError,
    ExportRefused,
    GateClosed,
    LeaksFound,
    UndecidedFound,
)
from redactdesk.pipeline.release.gate import release_path
from redactdesk.pipeline.release.job import ReleaseResult
from redactdesk.pipeline.release.runner import export_release
from redactdesk.pipeline.release.staging import remove_stale_partials
from redactdesk.pipeline.release.summary import release_summary

__all__ = [
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
]
