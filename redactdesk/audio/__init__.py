"""Masked audio: ranges from accepted spans, maskers, streaming writer, re-listen check, prosody metrics.

Entry points:
  mask_ranges(conv, ...) -> list[MaskRange]             which seconds to mask (fail closed)
  mask_file(in, out, ranges, method, params, ...)        one masked file -> MaskReport
  relisten(masked, conv, ranges, ...) -> LeakReport      is anything still recognisable?
  leaks_block_export(report, override_reason) -> bool    the export gate
  prosody_report(original, masked, ranges) -> ProsodySummary
  preview / preview_ab                                   A/B samples for the app

Masking a whole project (its settings and audio paths) is :mod:`redactdesk.pipeline.audio_project`.
"""

from redactdesk.audio.base import FrameRange, Masker
from redactdesk.audio.errors import MaskCancelled, MaskError, MaskerUnavailable
from redactdesk.audio.maskfile import MaskReport, mask_file
from redactdesk.audio.preview import preview, preview_ab
from redactdesk.audio.prosody import ProsodySummary, RangeProsody, prosody_report
from redactdesk.audio.ranges import MaskRange, mask_ranges, merge_ranges, span_key
from redactdesk.audio.registry import get_masker, masker_names, register_masker
from redactdesk.audio.relisten import Leak, LeakReport, leaks_block_export, relisten

__all__ = [
    "FrameRange", "Leak", "LeakReport", "MaskCancelled", "MaskError", "MaskRange", "MaskReport", "Masker",
    "MaskerUnavailable", "ProsodySummary", "RangeProsody", "get_masker", "leaks_block_export",
    "mask_file", "mask_ranges", "masker_names", "merge_ranges", "preview", "preview_ab",
    "prosody_report", "register_masker", "relisten", "span_key",
]
