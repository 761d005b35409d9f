"""Masking panel: hear what export will do to the audio (A/B preview) and choose the method.

"Play original" / "Play masked" play the current span with the play-context around it (a span
not yet accepted is previewed as if it were), or the conversation from the cursor, computed with
:func:`redactdesk.audio.preview_ab` in the background and played by the window's player (no sound
device: the player's own message in the status bar). The method, padding, confidence floor and
channel mode chosen here are the project's ``mask.*`` settings, which export uses — written through
:func:`redactdesk.pipeline.project_config.set_setting`, so every change is in the audit log and makes
an earlier sign-off stale (the same settings as ``redactdesk config``).
"""

from __future__ import annotations

import dataclasses
import json

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from redactdesk.core.types import SpanStatus
from redactdesk.gui.audiosource import resolve_audio_path
from redactdesk.gui.dialogs import pref
from redactdesk.gui.masking import ArraySource
from redactdesk.gui.panels import register_panel

PREVIEW_MAX_SECONDS = 600.0
SCOPES = [("Current span", "span"), ("Conversation from the cursor", "conversation")]


def _maskers() -> list[tuple[str, bool, str]]:
    """(name, available, description or why not) of every registered masker."""
    from redactdesk.audio import get_masker, masker_names

    out = []
    for name in masker_names():
        masker = get_masker(name)
        ok, why = masker.available()
        out.append((name, ok, masker.description if ok else why))
    return out


class MaskingPanel(QWidget):
    """Method selector, A/B buttons and a summary of what will be masked in this conversation."""

    def __init__(self, ctx) -> None:
        super().__init__()
        self.ctx = ctx
        self.method = QComboBox()
        self.method.setObjectName("maskMethod")
        for name, ok, text in _maskers():
            self.method.addItem(name, name)
            i = self.method.count() - 1
            self.method.setItemData(i, text, Qt.ItemDataRole.ToolTipRole)
            if not ok:
                self.method.model().item(i).setEnabled(False)
        current = ctx.project.setting("mask.method", "silence")
        if self.method.findData(current) >= 0:
            self.method.setCurrentIndex(self.method.findData(current))
        self.method.currentIndexChanged.connect(self._method_chosen)
        for combo in (self.method,):
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(10)
        self.scope = QComboBox()
        self.scope.setObjectName("maskScope")
        self.scope.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.scope.setMinimumContentsLength(10)
        for label, value in SCOPES:
            self.scope.addItem(label, value)
        self.play_original = QPushButton("▶ Original")
        self.play_original.setObjectName("playOriginal")
        self.play_original.setToolTip("Play the recording as it is (A)")
        self.play_masked = QPushButton("▶ Masked")
        self.play_masked.setObjectName("playMasked")
        self.play_masked.setToolTip("Play what the released recording will sound like (B)")
        self.stop = QPushButton("■")
        self.stop.setToolTip("Stop")
        self.stop.setMaximumWidth(44)
        self.play_original.clicked.connect(lambda: self.play("original"))
        self.play_masked.clicked.connect(lambda: self.play("masked"))
        self.stop.clicked.connect(lambda: ctx.player and ctx.player.stop())
        self.shade = QCheckBox("Shade masked ranges")
        self.shade.setToolTip("Shade the ranges export will mask on the waveform")
        self.shade.setChecked(True)
        self.shade.toggled.connect(self._shade_toggled)
        self.padding = QDoubleSpinBox()
        self.padding.setObjectName("maskPadding")
        self.padding.setRange(0.0, 2000.0)
        self.padding.setDecimals(0)
        self.padding.setSingleStep(10.0)
        self.padding.setSuffix(" ms")
        self.padding.setToolTip("Audio masked before and after each item (mask.padding)")
        self.padding.setValue(float(ctx.project.setting("mask.padding", 0.05)) * 1000)
        self.padding.valueChanged.connect(lambda v: self._set("mask.padding", f"{v / 1000:.3f}"))
        self.min_confidence = QDoubleSpinBox()
        self.min_confidence.setObjectName("maskMinConfidence")
        self.min_confidence.setRange(0.0, 1.0)
        self.min_confidence.setSingleStep(0.05)
        self.min_confidence.setToolTip("A word next to an item heard with less ASR confidence than this is "
                                       "masked too (mask.min_confidence)")
        self.min_confidence.setValue(float(ctx.project.setting("mask.min_confidence", 0.5)))
        self.min_confidence.valueChanged.connect(lambda v: self._set("mask.min_confidence", f"{v:.2f}"))
        self.channel_mode = QComboBox()
        self.channel_mode.setObjectName("maskChannelMode")
        self.channel_mode.addItem("Speaker's channel", "speaker")
        self.channel_mode.addItem("Both channels", "both")
        self.channel_mode.setToolTip("Stereo calls: mask only the channel of the speaker who said the item, "
                                     "or both (mask.channel_mode)")
        self.channel_mode.setCurrentIndex(max(0, self.channel_mode.findData(
            ctx.project.setting("mask.channel_mode", "speaker"))))
        self.channel_mode.currentIndexChanged.connect(
            lambda _i: self._set("mask.channel_mode", self.channel_mode.currentData()))
        self.summary = QLabel("")
        self.summary.setObjectName("muted")
        self.summary.setWordWrap(True)

        form = QFormLayout()
        form.addRow("Method", self.method)
        form.addRow("Padding", self.padding)
        form.addRow("Min. confidence", self.min_confidence)
        form.addRow("Channels", self.channel_mode)
        form.addRow("Preview", self.scope)
        buttons = QHBoxLayout()
        buttons.addWidget(self.play_original)
        buttons.addWidget(self.play_masked)
        buttons.addWidget(self.stop)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(6, 6, 6, 6)
        lay.addLayout(form)
        lay.addLayout(buttons)
        lay.addWidget(self.shade)
        lay.addWidget(self.summary)
        lay.addStretch(1)
        self._cache: tuple | None = None  # (key, original, masked, rate, t0, t1)
        self.last_played: str | None = None
        self.last_window: tuple[float, float] | None = None
        self._attached = False
        if not self._attach():  # the window adds its shading after building the first panels
            ctx.conversation_changed.connect(self._attach)

    # ------------------------------------------------------------------ shading & summary
    def _shading(self):
        stage = getattr(self.ctx.window, "stage", None)
        return getattr(stage, "shading", None)

    def _attach(self, *_args) -> bool:
        shading = self._shading()
        if shading is not None and not self._attached:
            self._attached = True
            shading.changed.connect(self._summarise)
            self._summarise()
        return self._attached

    def _shade_toggled(self, on: bool) -> None:
        shading = self._shading()
        if shading is not None:
            shading.set_visible(on)

    def _summarise(self) -> None:
        shading = self._shading()
        if shading is None or self.ctx.conversation is None:
            self.summary.setText("")
        elif shading.error:
            self.summary.setText(f"Cannot work out the masked ranges: {shading.error}")
        else:
            pad = float(self.ctx.project.setting("mask.padding", 0.05)) * 1000
            n = len(shading.ranges)
            self.summary.setText(f"{n} masked range{'s' if n != 1 else ''} · {shading.seconds:.1f} s "
                                 f"(accepted spans, {pad:.0f} ms padding)")

    # ------------------------------------------------------------------ method
    def _method_chosen(self, _index: int) -> None:
        name = self.method.currentData()
        if name and name != self.ctx.project.setting("mask.method"):
            self._set("mask.method", name)
            self.ctx.status(f"Audio will be masked with “{name}” on export", 4000)

    def _set(self, key: str, value: str) -> None:
        """Store one mask setting (audited; part of the sign-off) and recompute the shaded ranges."""
        from redactdesk.pipeline.project_config import SettingError, set_setting

        try:
            old, new = set_setting(self.ctx.project, key, value)
        except SettingError as exc:
            self.ctx.error("Cannot change the setting", str(exc))
            return
        self._cache = None
        shading = self._shading()
        if shading is not None and old != new:
            shading.refresh()

    # ------------------------------------------------------------------ A/B preview
    def play(self, which: str) -> None:
        """Play the ``"original"`` or ``"masked"`` version of the chosen stretch."""
        from redactdesk.audio import MaskError, mask_ranges
        from redactdesk.audio.masker_params import conversation_params
        from redactdesk.pipeline.audio_project import range_settings

        ctx = self.ctx
        conv = ctx.conversation
        if conv is None:
            ctx.status("Open a conversation first")
            return
        path = resolve_audio_path(conv.audio_path, ctx.project.path)
        if path is None or not path.exists():
            ctx.status("No audio to preview for this conversation")
            return
        preview_conv, t0, t1, note = self._stretch(conv)
        if preview_conv is None:
            ctx.status(note)
            return
        method = self.method.currentData() or "silence"
        params = ctx.project.setting("mask.params") if method == ctx.project.setting("mask.method") else None
        try:
            ranges = mask_ranges(preview_conv, **range_settings(ctx.project))
            params = conversation_params(method, params, conv, None)
        except (MaskError, ValueError) as exc:  # bad settings or stale spans
            ctx.error("Cannot preview the masking", str(exc))
            return
        key = (conv.id, str(path), method, round(t0, 3), round(t1, 3), tuple(ranges),
               json.dumps(params, sort_keys=True, default=str))
        if self._cache is not None and self._cache[0] == key:
            self._play(which, note)
            return

        def work(job):
            from redactdesk.audio import preview_ab

            job.report(-1, 0, f"masking {t1 - t0:.1f} s with {method}")
            return preview_ab(path, ranges, method, t0, t1, params)

        def done(result) -> None:
            original, masked, rate = result
            self._cache = (key, original, masked, rate, t0, t1)
            self._play(which, note)

        ctx.run_job("Preparing preview", work, done)

    def _stretch(self, conv):
        """(conversation to take ranges from, start, end, note); conversation None when there is none."""
        from redactdesk.audio import span_key

        duration = conv.duration or (conv.words[-1].end if conv.words else 0.0)
        if self.scope.currentData() == "conversation":
            window = self.ctx.window
            t0 = getattr(window, "cursor_time", None) or 0.0
            t1 = min(duration, t0 + PREVIEW_MAX_SECONDS)
            note = "" if t1 >= duration else f" (first {PREVIEW_MAX_SECONDS / 60:.0f} minutes)"
            return conv, t0, t1, note
        span = self.ctx.current_span()
        if span is None:
            return None, 0.0, 0.0, "Select a span to preview (or preview the conversation)"
        note = ""
        if span.status != SpanStatus.ACCEPTED:
            spans = [dataclasses.replace(s, status=SpanStatus.ACCEPTED) if s.id == span.id else s
                     for s in conv.spans]
            conv, note = dataclasses.replace(conv, spans=spans), " (as if the span were accepted)"
        a, b = conv.span_times(span)
        for r in self._ranges(conv):  # the masked range may reach past the span (unsure words widen it)
            if span_key(span) in r.span_ids:
                a, b = min(a, r.start), max(b, r.end)
        context = pref(self.ctx.settings, "play_context")
        return conv, max(0.0, a - context), min(duration, b + context), note

    def _ranges(self, conv):
        from redactdesk.audio import MaskError, mask_ranges
        from redactdesk.pipeline.audio_project import range_settings

        try:
            return mask_ranges(conv, **range_settings(self.ctx.project))
        except (MaskError, ValueError):
            return []

    def _play(self, which: str, note: str) -> None:
        _key, original, masked, rate, t0, t1 = self._cache
        player = self.ctx.player
        if player is None:
            return
        self.last_played = which
        self.last_window = (t0, t1)
        data = original if which == "original" else masked
        if player.play(ArraySource(data, rate, t0), t0, t1):
            self.ctx.status(f"Playing the {which} audio, {t1 - t0:.1f} s{note}", 4000)


register_panel("masking", "Masking", MaskingPanel, roles=("reviewer", "annotator"), area="right", order=40)
