"""Masked ranges shaded on the waveform, and the Masking panel's A/B preview and method setting."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QPointF, Qt
from PySide6.QtWidgets import QApplication

from redactdesk.audio import mask_ranges
from redactdesk.core.types import SpanStatus


class FakeStream:
    def __init__(self, callback, channels, **kw):
        self.callback, self.channels = callback, channels

    def start(self):
        self.callback(np.zeros((800, self.channels), dtype=np.float32), 800, None, None)

    def stop(self):
        pass

    def close(self):
        pass


class FakeSD:
    PortAudioError = OSError
    CallbackStop = type("CallbackStop", (Exception,), {})

    def OutputStream(self, **kw):  # noqa: N802 - sounddevice's name
        return FakeStream(**kw)


class NoDevice:
    class PortAudioError(Exception):
        pass

    CallbackStop = Exception

    def OutputStream(self, **kw):  # noqa: N802
        raise self.PortAudioError("Error querying device -1")


def span_named(win, category):
    return next(s for s in win.ctx.conversation.spans if s.category == category)


def accept(qtbot, win, span):
    win.ctx.select(span.id)
    qtbot.keyClick(win.transcript, Qt.Key.Key_A)
    assert win.project.span(span.id)[1].status == SpanStatus.ACCEPTED


def pixel_column(win, t):
    """The waveform plot's pixel x of time ``t``, and an image of the plot."""
    plot = win.waveform.plot
    QApplication.processEvents()
    x = plot.mapFromScene(win.waveform.vb.mapViewToScene(QPointF(t, 0.0))).x()
    return int(x), plot.grab().toImage()


def test_accepted_spans_are_shaded_on_the_waveform_and_follow_changes(qtbot, window):
    win = window
    shading = win.stage.shading
    assert shading.ranges == [] and shading.layer.ranges == []
    phone = span_named(win, "PHONE")
    accept(qtbot, win, phone)
    conv = win.ctx.conversation
    t0, t1 = conv.span_times(conv.spans[[s.id for s in conv.spans].index(phone.id)])
    assert len(shading.ranges) == 1
    r = shading.ranges[0]
    assert shading.ranges == mask_ranges(conv, padding=0.05)  # what export masks (default padding)
    assert r.start <= t0 - 0.05 and r.end >= t1 + 0.05  # (low-confidence words widen it: fail closed)
    assert r.span_ids == (phone.id,)
    assert shading.layer.ranges == shading.ranges == shading.ov_layer.ranges

    win.project.set_setting("mask.padding", 0.2)  # export's setting, read on the next change
    email = span_named(win, "EMAIL")
    accept(qtbot, win, email)
    assert shading.ranges == mask_ranges(win.ctx.conversation, padding=0.2)
    assert len(shading.ranges) == 2 and shading.ranges[0].start <= r.start - 0.15
    panel = win.panel_widgets["masking"]
    assert panel.summary.text().startswith("2 masked ranges") and "200 ms" in panel.summary.text()

    win.act_undo.trigger()
    assert len(shading.ranges) == 1 and len(shading.layer.ranges) == 1
    assert panel.summary.text().startswith("1 masked range ")

    # the shading is really drawn: pixels inside the range change when it is switched off
    win.waveform.set_range(t0 - 2.0, t1 + 2.0)
    x_in, shaded = pixel_column(win, (t0 + t1) / 2)
    x_out, _ = pixel_column(win, t0 - 1.5)
    panel.shade.setChecked(False)
    assert not shading.layer.isVisible()
    _, plain = pixel_column(win, (t0 + t1) / 2)
    y = plain.height() // 2 + 30
    assert shaded.pixelColor(x_in, y) != plain.pixelColor(x_in, y)
    assert shaded.pixelColor(x_out, y) == plain.pixelColor(x_out, y)
    panel.shade.setChecked(True)


def test_ab_preview_of_a_span_plays_original_and_masked_and_saves_the_method(qtbot, window, monkeypatch):
    win = window
    monkeypatch.setattr(win.player, "sd", FakeSD())
    panel = win.panel_widgets["masking"]
    jobs = []
    win.ctx.jobs.started.connect(jobs.append)
    phone = span_named(win, "PHONE")
    accept(qtbot, win, phone)
    win.ctx.select(phone.id)
    r = win.stage.shading.ranges[0]
    rate = 16000

    def played():
        return win.player._buffer[:, 0].copy()

    def inside(x):  # the middle of the masked range (fades at its edges left out)
        return x[int((r.start - t0 + 0.03) * rate): int((r.end - t0 - 0.03) * rate)]

    panel.play_masked.click()
    qtbot.waitUntil(lambda: panel.last_played == "masked", timeout=20000)
    t0, t1 = panel.last_window
    assert t0 == r.start - 0.5 and t1 == r.end + 0.5  # the masked range with the play context around it
    masked = played()
    assert np.abs(inside(masked)).max() < 1e-6  # silence, the default method
    qtbot.waitUntil(win.waveform.playhead.isVisible)  # the playhead runs over the previewed stretch
    assert t0 <= win.waveform.playhead.value() <= t1
    panel.play_original.click()
    assert panel.last_played == "original" and len(jobs) == 1  # A/B toggles without recomputing
    original = played()
    assert len(original) == len(masked)
    assert np.sqrt(np.mean(inside(original) ** 2)) > 0.01
    head = int((r.start - t0 - 0.05) * rate)
    np.testing.assert_array_equal(masked[:head], original[:head])  # untouched outside the range
    assert "Playing the original audio" in win.ctx.last_status

    panel.method.setCurrentIndex(panel.method.findData("beep"))
    assert win.project.setting("mask.method") == "beep"
    panel.play_masked.click()
    qtbot.waitUntil(lambda: len(jobs) == 2 and panel.last_played == "masked" and not win.ctx.jobs.jobs,
                    timeout=20000)
    beep = played()
    assert np.sqrt(np.mean(inside(beep) ** 2)) > 1e-3 and not np.allclose(inside(beep), inside(original))


def test_a_suggested_span_is_previewed_as_if_accepted(qtbot, window, monkeypatch):
    win = window
    monkeypatch.setattr(win.player, "sd", FakeSD())
    panel = win.panel_widgets["masking"]
    email = span_named(win, "EMAIL")
    win.ctx.select(email.id)
    panel.play_masked.click()
    qtbot.waitUntil(lambda: panel.last_played == "masked", timeout=20000)
    assert "as if the span were accepted" in win.ctx.last_status
    a, b = win.ctx.conversation.span_times(email)
    t0, t1 = panel.last_window
    assert t0 <= a - 0.55 + 1e-9 and t1 >= b + 0.55 - 1e-9  # span, padding and context
    x = win.player._buffer[:, 0]
    assert np.abs(x[int((a - t0) * 16000): int((b - t0) * 16000)]).max() < 1e-6
    assert win.project.span(email.id)[1].status == SpanStatus.SUGGESTED  # nothing was decided
    assert win.stage.shading.ranges == []


def test_preview_of_the_whole_conversation_changes_only_the_masked_ranges(qtbot, window, monkeypatch):
    win = window
    monkeypatch.setattr(win.player, "sd", FakeSD())
    panel = win.panel_widgets["masking"]
    accept(qtbot, win, span_named(win, "PHONE"))
    panel.scope.setCurrentIndex(panel.scope.findData("conversation"))
    win.ctx.select(None, 0)
    win.cursor_time = None
    panel.play_masked.click()
    qtbot.waitUntil(lambda: panel.last_played == "masked", timeout=20000)
    masked = win.player._buffer[:, 0].copy()
    panel.play_original.click()
    original = win.player._buffer[:, 0].copy()
    assert len(masked) == win.source.frames
    changed = np.nonzero(masked != original)[0] / 16000
    (r,) = win.stage.shading.ranges
    assert changed.min() >= r.start - 0.011 and changed.max() <= r.end + 0.011


def test_without_a_sound_device_the_preview_says_so(qtbot, window, monkeypatch):
    win = window
    monkeypatch.setattr(win.player, "sd", NoDevice())
    panel = win.panel_widgets["masking"]
    win.ctx.select(span_named(win, "PHONE").id)
    panel.play_masked.click()
    qtbot.waitUntil(lambda: win.ctx.last_status.startswith("Playback unavailable"), timeout=20000)
    assert "no audio output" in win.audio_out_label.text() and not win.player.playing


def test_the_masking_panel_is_for_annotators_and_reviewers(qtbot, window):
    win = window
    assert win.docks["masking"].toggleViewAction().isVisible()
    win.ctx.set_role("linguist")
    assert not win.docks["masking"].toggleViewAction().isVisible()
    win.ctx.set_role("reviewer")
    assert win.docks["masking"].toggleViewAction().isVisible()


def test_mask_settings_in_the_panel_are_audited_and_move_the_shading(qtbot, window):
    """Padding, confidence floor and channel mode: the same audited settings as `redactdesk config`."""
    win = window
    panel = win.panel_widgets["masking"]
    accept(qtbot, win, span_named(win, "PHONE"))
    before = win.stage.shading.ranges[0]
    panel.padding.setValue(200)
    assert win.project.setting("mask.padding") == 0.2
    after = win.stage.shading.ranges[0]
    assert abs(after.start - max(0.0, before.start - 0.15)) < 1e-6  # 50 ms padding before, 200 ms now
    panel.min_confidence.setValue(0.75)
    panel.channel_mode.setCurrentIndex(panel.channel_mode.findData("both"))
    assert win.project.setting("mask.min_confidence") == 0.75
    assert win.project.setting("mask.channel_mode") == "both"
    changes = [d.after["key"] for d in win.project.audit_log() if d.action == "setting"]
    assert {"mask.padding", "mask.min_confidence", "mask.channel_mode"} <= set(changes)
