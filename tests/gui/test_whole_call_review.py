"""A whole demo call reviewed by keyboard only, with its two speakers on their own channels.

The demo calls are stereo (agent left, customer right): the waveform shows two lanes, the
transcript two speakers, and every suggestion of the call is decided with one key each — nothing
left undecided, nothing decided that was not reached by a key. A screenshot of the finished call is
saved when REDACTDESK_SHOTS names a folder (``make screenshot`` takes the README's).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from redactdesk.core.types import SpanStatus
from redactdesk.store import Project


def test_a_whole_stereo_demo_call_is_reviewed_by_keyboard_only(qtbot, window, project_path):
    win = window
    sample = next((c for c in win.ctx.project.conversation_ids() if c.startswith("call_")
                   and c != "call_synth_001"), None)
    if sample is None:
        pytest.skip("no bundled demo call in this checkout")
    win.choose_conversation(sample)
    conv = win.ctx.conversation
    assert conv.channels == 2 and len(win.waveform.curves) == 2  # two lanes: L agent, R customer
    assert {t.speaker for t in conv.turns} == {"agent", "customer"}
    assert {t.channel for t in conv.turns} == {0, 1}
    assert len({win.transcript.speaker_label(t.speaker) for t in conv.turns}) == 2  # two speakers shown
    todo = [s for s in conv.spans if s.status == SpanStatus.SUGGESTED]
    assert len(todo) >= 10
    win.transcript.setFocus()
    qtbot.waitUntil(lambda: win.transcript.hasFocus())
    keys = 0
    qtbot.keyClick(win.focusWidget(), Qt.Key.Key_J)  # to the first suggestion
    keys += 1
    for k in range(len(todo)):
        current = win.ctx.current_span()
        assert current is not None and current.status == SpanStatus.SUGGESTED
        # every fourth suggestion is rejected (Backspace), the others accepted (A): one key each
        qtbot.keyClick(win.focusWidget(), Qt.Key.Key_Backspace if k % 4 == 3 else Qt.Key.Key_A)
        keys += 1
    assert keys == len(todo) + 1
    with Project.open(project_path) as p:
        spans = p.spans(sample)
        log = [d for d in p.audit_log(conversation_id=sample) if d.span_id is not None]
    assert not [s for s in spans if s.status == SpanStatus.SUGGESTED]
    assert sum(s.status == SpanStatus.REJECTED for s in spans) == len(todo) // 4
    assert len(log) == len(todo) and all(d.role.value == "annotator" for d in log)
    shots = os.environ.get("REDACTDESK_SHOTS")
    if shots:
        win.resize(1280, 800)
        qtbot.wait(200)
        win.grab().save(str(Path(shots) / "whole-call-review.png"))
