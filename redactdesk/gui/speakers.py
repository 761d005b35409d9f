"""Transcript corrections from the turn's context menu: rename a speaker, edit a turn's words.

Renaming changes the speaker of every word and turn of the conversation (and moves its entry in
``meta["speakers"]`` so the role stays attached). Editing corrects the words of one turn, keeping
their number (spans refer to word positions), then re-times the turn by forced alignment
(pocketsphinx, :func:`redactdesk.asr.align.align_turn`) in the background; the status bar says how
far the word boundaries moved. Both are one undoable command each.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np
from PySide6.QtCore import QObject
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QInputDialog,
    QLabel,
    QMenu,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from redactdesk.core.types import Conversation, Turn, Word
from redactdesk.gui import roles
from redactdesk.gui.audiosource import AudioSource, AudioUnavailable, resolve_audio_path
from redactdesk.gui.stage_commands import ReplaceWords

if TYPE_CHECKING:
    from redactdesk.asr.align import AlignmentReport
    from redactdesk.gui.context import AppContext

roles.grant("edit_transcript", *roles.ALL_ROLES)


class EditWordsDialog(QDialog):
    """Correct the words of one turn; OK only while the number of words is unchanged."""

    def __init__(self, parent: QWidget, speaker: str, words: list[str]) -> None:
        super().__init__(parent)
        self.setObjectName("editWordsDialog")
        self.setWindowTitle(f"Edit words — {speaker}")
        self.n = len(words)
        self.original = list(words)
        self.edit = QPlainTextEdit(" ".join(words))
        self.edit.setObjectName("turnWords")
        self.hint = QLabel()
        self.hint.setObjectName("muted")
        self.hint.setWordWrap(True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        lay = QVBoxLayout(self)
        lay.addWidget(QLabel("Correct the words (one space between words). The turn is re-timed against the "
                             "audio afterwards."))
        lay.addWidget(self.edit)
        lay.addWidget(self.hint)
        lay.addWidget(self.buttons)
        self.edit.textChanged.connect(self._check)
        self.resize(560, 220)
        self._check()

    def words(self) -> list[str]:
        return self.edit.toPlainText().split()

    def _check(self) -> None:
        n = len(self.words())
        ok = n == self.n
        if ok:
            self.hint.setText(f"{n} words")
        else:
            self.hint.setText(f"{n} words — keep {self.n}: spans point at word positions, so a turn keeps its "
                              "number of words (join or split words with a spanless edit later)")
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(ok and self.words() != self.original)


class _ChannelReader:
    """Mono samples of one channel (or the mix) of a recording, read on demand for the aligner."""

    def __init__(self, source: AudioSource, channel: int | None) -> None:
        self.source = source
        self.channel = channel if channel is not None and 0 <= channel < source.channels else None
        self.frames = source.frames

    def __call__(self, a: int, b: int) -> np.ndarray:
        x = self.source.read(a, b)
        return x[:, self.channel] if self.channel is not None else x.mean(axis=1)


class SpeakerActions(QObject):
    """Rename speakers and edit turns of the current conversation.

    ``parent``: the widget its dialogs open over; ``audio()``: the current conversation's open
    recording, or None (then the recording is opened from the project when a turn is re-timed).
    """

    def __init__(self, ctx: AppContext, parent: QWidget, audio: Callable[[], AudioSource | None]) -> None:
        super().__init__(parent)
        self.parent_widget = parent
        self.ctx = ctx
        self.audio = audio
        self.rename_dialog: QInputDialog | None = None
        self.words_dialog: EditWordsDialog | None = None
        self.last_report: AlignmentReport | None = None

    def turns(self) -> list[Turn]:
        conv = self.ctx.conversation
        return (conv.turns or conv.turns_from_speakers()) if conv is not None else []

    def add_actions(self, menu: QMenu, turn_index: int) -> None:
        turns = self.turns()
        if not 0 <= turn_index < len(turns):
            return
        speaker = turns[turn_index].speaker
        may = self.ctx.can("edit_transcript")
        a = menu.addAction(f"Rename speaker “{speaker}”…", lambda: self.ask_rename(speaker))
        a.setObjectName("act_rename_speaker")
        a.setEnabled(may)
        a = menu.addAction("Edit words of this turn…", lambda: self.ask_edit(turn_index))
        a.setObjectName("act_edit_turn")
        a.setEnabled(may)

    # ------------------------------------------------------------------ rename
    def ask_rename(self, speaker: str) -> None:
        dlg = QInputDialog(self.parent_widget)
        dlg.setObjectName("renameSpeakerDialog")
        dlg.setWindowTitle("Rename speaker")
        dlg.setLabelText(f"New name for “{speaker}” in every turn of this conversation:")
        dlg.setTextValue(speaker)
        dlg.textValueSelected.connect(lambda name: self.rename(speaker, name))
        self.rename_dialog = dlg
        dlg.open()

    def rename(self, old: str, new: str) -> bool:
        conv = self.ctx.conversation
        new = " ".join(str(new).split())
        if conv is None or not self.ctx.may("edit_transcript"):
            return False
        if not new or new == old:
            self.ctx.status("Speaker not renamed: give a different, non-empty name")
            return False
        if not any(w.speaker == old for w in conv.words):
            self.ctx.status(f"No words of speaker “{old}” in this conversation")
            return False
        merged = any(w.speaker == new for w in conv.words)
        words = [dataclasses.replace(w, speaker=new) if w.speaker == old else w for w in conv.words]
        turns = [dataclasses.replace(t, speaker=new) if t.speaker == old else t for t in conv.turns]
        meta = old_meta = None
        speakers = conv.meta.get("speakers")
        if isinstance(speakers, dict) and old in speakers:
            moved: dict = {}
            for name, info in speakers.items():
                moved.setdefault(new if name == old else name, info)
            meta, old_meta = {"speakers": moved}, {"speakers": dict(speakers)}
        cmd = ReplaceWords(self.ctx, conv.id, f"Rename speaker {old} to {new}", "rename_speaker",
                           (list(conv.words), list(conv.turns)), (words, turns), meta=meta, old_meta=old_meta)
        if not self.ctx.push_command(cmd):
            return False
        self.ctx.status(f"Speaker “{old}” is now “{new}”" + (" (merged with the existing speaker)" if merged else ""))
        return True

    # ------------------------------------------------------------------ edit words
    def ask_edit(self, turn_index: int) -> None:
        conv = self.ctx.conversation
        turn = self.turns()[turn_index]
        texts = [w.text for w in conv.words[turn.start_word:turn.end_word]]
        dlg = EditWordsDialog(self.parent_widget, turn.speaker, texts)
        dlg.accepted.connect(lambda: self.edit_turn(turn_index, dlg.words()))
        self.words_dialog = dlg
        dlg.open()

    def edit_turn(self, turn_index: int, texts: list[str]) -> None:
        """Set the texts of a turn's words, then re-time the turn against the audio (background)."""
        conv = self.ctx.conversation
        if conv is None or not self.ctx.may("edit_transcript"):
            return
        turn = self.turns()[turn_index]
        a, b = turn.start_word, turn.end_word
        if len(texts) != b - a:
            self.ctx.status(f"The turn has {b - a} words; {len(texts)} given — nothing changed")
            return
        old = (list(conv.words), list(conv.turns))
        edited = list(conv.words)
        edited[a:b] = [dataclasses.replace(w, text=t) for w, t in zip(conv.words[a:b], texts, strict=True)]
        source = self._audio(conv)
        if source is None:
            self._apply_edit(conv.id, old, edited, "no audio to re-time against; times kept")
            return
        reader = _ChannelReader(source, turn.channel if turn.channel is not None else conv.words[a].channel)
        language = conv.language or "en"

        def work(job):
            from redactdesk.asr.align import align_turn

            job.report(-1, 0, "aligning the edited turn")
            return align_turn(reader, source.rate, edited, a, b, language=language)

        def done(result) -> None:
            words, report = result
            self.last_report = report
            self._apply_edit(conv.id, old, words,
                             f"turn re-timed: boundaries moved {report.median_ms:.0f} ms (median), "
                             f"{report.max_ms:.0f} ms at most" + (f"; {report.oov} word(s) not in the "
                                                                  "dictionary" if report.oov else ""))

        def failed(message: str) -> None:
            self._apply_edit(conv.id, old, edited, f"times kept — forced alignment failed: {message}")

        self.ctx.run_job("Aligning", work, done, on_error=failed)

    def _apply_edit(self, cid: str, old: tuple[list[Word], list[Turn]], words: list[Word], note: str) -> None:
        if self.ctx.closed:
            return
        if self.ctx.project.load_conversation(cid).words != old[0]:
            self.ctx.error("Edit not applied", "the conversation's words changed while the turn was being "
                           "aligned; edit the turn again")
            return
        if self.ctx.push_command(ReplaceWords(self.ctx, cid, "Edit words of a turn", "edit_words", old,
                                             (words, old[1]))):
            self.ctx.status(f"Words edited; {note}", 10000)

    def _audio(self, conv: Conversation) -> AudioSource | None:
        current = self.audio()
        if current is not None and self.ctx.conversation is conv:
            return current
        path = resolve_audio_path(conv.audio_path, self.ctx.project.path)
        try:
            return AudioSource.open(path) if path is not None else None
        except AudioUnavailable:
            return None
