"""Transcription in the background (the real embedded Whisper, and cancel), renaming a speaker, and editing a
turn's words with forced re-alignment, all from the app's menus."""

from __future__ import annotations

import json
import re
import threading

import numpy as np
import pytest
import soundfile as sf
from PySide6.QtGui import QContextMenuEvent
from PySide6.QtWidgets import QApplication, QDialogButtonBox

from redactdesk.core.types import Conversation, ConversationStatus, Role, Word
from redactdesk.gui.app import build_main_window
from redactdesk.resources import resources_dir
from redactdesk.store import Project

SAMPLE = resources_dir() / "samples" / "call_en_1000.json"
needs_sample = pytest.mark.skipif(not SAMPLE.exists(), reason="bundled sample calls are not installed")


def open_menu(qtbot, win, pos):
    win.stage.menu = None
    viewport = win.transcript.viewport()
    QApplication.sendEvent(viewport, QContextMenuEvent(QContextMenuEvent.Reason.Mouse, pos, viewport.mapToGlobal(pos)))
    qtbot.waitUntil(lambda: win.stage.menu is not None and win.stage.menu.isVisible())
    return win.stage.menu


def trigger(menu, name):
    action = next(a for a in menu.actions() if a.objectName() == name)
    assert action.isEnabled()
    action.trigger()
    menu.close()


@pytest.fixture
def make_window(qtbot, settings):
    opened = []

    def make(path, conversation_id, role="annotator"):
        project = Project.open(path, actor="tester")
        win = build_main_window(project, role=role, settings=settings)
        win.show()
        qtbot.waitExposed(win)
        win.choose_conversation(conversation_id)
        opened.append((win, project))
        return win

    yield make
    for win, project in opened:
        win.close()
        win.deleteLater()
        qtbot.wait(1)
        project.close()


# ---------------------------------------------------------------------- transcription
@needs_sample
def test_transcribe_selected_runs_the_embedded_asr_in_the_background(qtbot, tmp_path, make_window):
    ref = json.loads(SAMPLE.read_text())
    audio, rate = sf.read(SAMPLE.with_name(ref["audio"]), dtype="float32")
    clip = tmp_path / "clip.wav"
    sf.write(clip, audio[: int(9.6 * rate)], rate)
    with Project.create(tmp_path / "asr.rdproj") as p:
        p.add_conversation(Conversation("clip", audio_path=str(clip), sample_rate=rate, channels=1, duration=9.6,
                                        language="en", status=ConversationStatus.NEW))
    win = make_window(tmp_path / "asr.rdproj", "clip")
    progress = []
    win.ctx.jobs.started.connect(lambda job: job.progress.connect(lambda f, m: progress.append(f)))
    win.act_transcribe.trigger()
    qtbot.waitUntil(lambda: "Transcribed 1 conversation" in win.ctx.last_status, timeout=120000)
    conv = win.project.load_conversation("clip")
    assert conv.status == ConversationStatus.TRANSCRIBED and conv.words and conv.turns
    heard = {re.sub(r"\W", "", w.text.lower()) for w in conv.words}
    assert len(heard & {"reached", "online", "banking", "name", "hello", "app", "let", "log"}) >= 5
    assert all(0 <= w.start <= w.end <= 9.7 for w in conv.words)
    assert win.ctx.conversation.words == conv.words  # the open view shows the new words
    assert any(0 < f < 1 for f in progress)
    assert win.project.audit_log("clip")[0].action == "transcribe"


def test_transcription_can_be_cancelled_and_writes_nothing(qtbot, window, monkeypatch):
    import redactdesk.asr.transcribe as asr

    started = threading.Event()

    def slow(path, *, progress=None, cancel=None, **kw):
        started.set()
        for i in range(500):
            if cancel():
                raise asr.AsrCancelled()
            progress(i / 500)
            threading.Event().wait(0.01)
        raise AssertionError("should have been cancelled")

    monkeypatch.setattr(asr, "transcribe_file", slow)
    win = window
    before = win.project.load_conversation("call_synth_001").words
    win.act_transcribe.trigger()
    qtbot.waitUntil(started.is_set, timeout=5000)
    qtbot.waitUntil(lambda: win.jobs_indicator.bar.value() > 0, timeout=5000)
    assert "Transcribing" in win.jobs_indicator.label.text()
    win.jobs_indicator.cancel.click()
    qtbot.waitUntil(lambda: not win.jobs_indicator.isVisible(), timeout=5000)
    assert "cancelled" in win.ctx.last_status
    assert win.project.load_conversation("call_synth_001").words == before


# ---------------------------------------------------------------------- speakers
def test_renaming_a_speaker_from_its_label_renames_every_turn_undoably(qtbot, window):
    win = window
    conv = win.ctx.conversation
    agent_words = [i for i, w in enumerate(conv.words) if w.speaker == "agent"]
    spans_before = [(s.id, s.start_word, s.end_word, s.status) for s in conv.spans]
    assert win.transcript.speaker_label("agent") == "Agent"

    menu = open_menu(qtbot, win, win.transcript.speaker_rect(0).center())
    assert [a.objectName() for a in menu.actions()] == ["act_rename_speaker", "act_edit_turn"]  # no span here
    trigger(menu, "act_rename_speaker")
    dlg = win.stage.speakers.rename_dialog
    qtbot.waitUntil(dlg.isVisible)
    assert dlg.textValue() == "agent"
    dlg.setTextValue("  Sarah  ")
    dlg.accept()

    stored = win.project.load_conversation("call_synth_001")
    assert [i for i, w in enumerate(stored.words) if w.speaker == "Sarah"] == agent_words
    assert not any(w.speaker == "agent" for w in stored.words)
    assert [t.speaker for t in stored.turns][:2] == ["Sarah", "customer"]
    assert [(s.id, s.start_word, s.end_word, s.status) for s in stored.spans] == spans_before
    assert stored.meta["speakers"]["Sarah"] == {"role": "agent"} and "agent" not in stored.meta["speakers"]
    assert win.transcript.speaker_label("Sarah") == "Sarah · agent"
    assert win.ctx.conversation.words[agent_words[0]].speaker == "Sarah"
    log = win.project.audit_log("call_synth_001")
    assert log[0].action == "rename_speaker" and log[0].role == Role.ANNOTATOR

    win.act_undo.trigger()
    stored = win.project.load_conversation("call_synth_001")
    assert [i for i, w in enumerate(stored.words) if w.speaker == "agent"] == agent_words
    assert "agent" in stored.meta["speakers"] and "Sarah" not in stored.meta["speakers"]
    assert win.transcript.speaker_label("agent") == "Agent"
    win.act_redo.trigger()
    assert win.project.load_conversation("call_synth_001").words[agent_words[0]].speaker == "Sarah"


def test_a_blank_or_unchanged_name_changes_nothing(qtbot, window):
    win = window
    count = win.ctx.undo_stack.count()
    assert not win.stage.speakers.rename("agent", "   ")
    assert not win.stage.speakers.rename("agent", "agent")
    assert win.ctx.undo_stack.count() == count and "not renamed" in win.ctx.last_status


# ---------------------------------------------------------------------- edit words + forced alignment
SHIFT = 0.25


@pytest.fixture
def misheard(project_path):
    """The sample call with its second turn misheard ("up", "lock") and its times off by 250 ms."""
    with Project.open(project_path) as p:
        ids = [c for c in p.conversation_ids() if c != "call_synth_001"]
        if not ids:
            pytest.skip("bundled sample calls are not installed")
        conv = p.load_conversation(ids[0])
        if conv.audio_path is None:
            pytest.skip("the sample call has no audio")
        turn = conv.turns[1]
        reference = [Word(w.text, w.start, w.end, w.confidence, w.speaker, w.channel, w.aligned)
                     for w in conv.words]
        words = list(conv.words)
        for i in range(turn.start_word, turn.end_word):
            w = words[i]
            words[i] = Word(w.text, w.start + SHIFT, w.end + SHIFT, w.confidence, w.speaker, w.channel, w.aligned)
        texts = [w.text for w in words[turn.start_word:turn.end_word]]
        assert texts == "Hello the app won't let me log in".split(), texts
        words[turn.start_word + 2].text = "up"
        words[turn.start_word + 6].text = "lock"
        p.replace_words(conv.id, words, conv.turns, action="transcribe")
        return conv.id, turn, reference, words


def test_editing_a_turn_corrects_its_words_and_retimes_it_by_forced_alignment(qtbot, project_path, misheard,
                                                                             make_window):
    cid, turn, reference, misheard_words = misheard
    win = make_window(project_path, cid)
    spans_before = [(s.id, s.start_word, s.end_word) for s in win.ctx.conversation.spans]
    word = turn.start_word + 2
    win.transcript.ensure_visible(word, word)
    menu = open_menu(qtbot, win, win.transcript.word_rect(word).center())
    trigger(menu, "act_edit_turn")
    dlg = win.stage.speakers.words_dialog
    qtbot.waitUntil(dlg.isVisible)
    ok = dlg.buttons.button(QDialogButtonBox.StandardButton.Ok)
    assert dlg.edit.toPlainText() == "Hello the up won't let me lock in" and not ok.isEnabled()
    dlg.edit.setPlainText("Hello the app won't let me login")  # one word short
    assert not ok.isEnabled() and "keep 8" in dlg.hint.text()
    dlg.edit.setPlainText("Hello the app won't let me log in")
    assert ok.isEnabled()
    ok.click()
    qtbot.waitUntil(lambda: "re-timed" in win.ctx.last_status, timeout=60000)

    stored = win.project.load_conversation(cid)
    a, b = turn.start_word, turn.end_word
    assert [w.text for w in stored.words] == [w.text for w in reference]
    errors = [abs(x - y) for new, ref in zip(stored.words[a:b], reference[a:b], strict=True)
              for x, y in ((new.start, ref.start), (new.end, ref.end))]
    assert float(np.median(errors)) < 0.1  # back near the true times (they were 250 ms off)
    assert stored.words[:a] == misheard_words[:a] and stored.words[b:] == misheard_words[b:]
    report = win.stage.speakers.last_report
    assert report.words == b - a and report.median_ms > 100
    assert f"{report.median_ms:.0f} ms" in win.ctx.last_status
    assert [(s.id, s.start_word, s.end_word) for s in stored.spans] == spans_before
    assert win.ctx.conversation.words[a + 2].text == "app"
    assert win.project.audit_log(cid)[0].action == "edit_words"

    win.act_undo.trigger()
    assert win.project.load_conversation(cid).words == misheard_words
    assert win.project.audit_log(cid)[0].action == "undo_edit_words"
    assert [(s.id, s.start_word, s.end_word) for s in win.project.spans(cid)] == spans_before
