"""Reviewer panel: review sample, pre-scan hits, MISSED_ marks, residual-risk histogram, sign-off, export.

Marks are made on the words selected in the transcript (a drag — its category menu has "Missed
item" too —, Shift+click, Shift+arrows), else the selected span, else the word cursor: Shift+M or
"Mark missed…" opens a small dialog showing those words (category, _PARTIAL, _SPEAKER, "same item
as"; word-number boxes only to adjust, or when nothing is selected); each mark is an undoable
command that goes through ``Project.add_missed`` and the audit log. The keyboard goes back to the
transcript when the dialog closes. The histogram shows
per-conversation scores of the sample (all conversations when no sample is drawn) with the
criterion mu+sigma against the threshold (seed 002). Conversations nobody finished reviewing have an
*unknown* risk: a grey "?" bar of their own, no score (not 0, not in the mean), and the verdict
reads UNKNOWN while any is in scope.

The sign-off dialog shows the release gate's counts first (``redactdesk.risk.gate``) and lets the
reviewer exclude each conversation that is not ready or release it with a written override.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QColor, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QFrame,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from redactdesk.core.types import Conversation
from redactdesk.gui import style
from redactdesk.gui.commands import ProjectCommand, SetSetting
from redactdesk.gui.corpus import readiness_text
from redactdesk.gui.dialogs import fit_height_for_width
from redactdesk.gui.panels import register_panel
from redactdesk.pipeline.project_config import as_text
from redactdesk.risk.gate import Readiness, release_readiness
from redactdesk.risk.residual import MissedItem, project_summary
from redactdesk.risk.sample import prescan, stratified_sample
from redactdesk.risk.signoff import MIN_OVERRIDE_CHARS, sign_off, signoff_state

SAMPLE_SETTING = "review.sample"
THRESHOLD_SETTING = "review.threshold"
DEFAULT_THRESHOLD = 5.0
MAX_MARK_WORDS = 30
SETTING_REVIEWER = "signoff/reviewer"  # the reviewer's name, remembered between sessions (user settings)
KEEP, EXCLUDE, OVERRIDE = "keep", "exclude", "override"
CHOICES = [("Keep (blocks the export)", KEEP), ("Exclude from release", EXCLUDE),
           ("Release with override", OVERRIDE)]


# ---------------------------------------------------------------------------------------------- commands
class AddMissed(ProjectCommand):
    """Record one MISSED_ mark (undo removes it)."""

    action = "mark_missed"

    def __init__(self, ctx, conversation_id: str, start_word: int, end_word: int, category: str, *,
                 partial: bool = False, speaker: bool = False, item_key: str | None = None) -> None:
        tag = MissedItem(conversation_id, category, "", partial, speaker).tag
        super().__init__(ctx, f"Mark {tag}", conversation_id)
        self.fields = {"start_word": start_word, "end_word": end_word, "category": category, "partial": partial,
                       "speaker": speaker, "item_key": item_key}
        self.missed_id: int | None = None

    def apply(self, action: str) -> None:
        f = self.fields
        self.missed_id = self.ctx.project.add_missed(self.conversation_id, f["start_word"], f["end_word"],
                                                     f["category"], partial=f["partial"], speaker=f["speaker"],
                                                     item_key=f["item_key"])

    def revert(self, action: str) -> None:
        self.ctx.project.remove_missed(self.missed_id)


class RemoveMissed(ProjectCommand):
    """Remove a MISSED_ mark (undo puts it back, under a new id)."""

    action = "unmark_missed"

    def __init__(self, ctx, row: dict[str, Any]) -> None:
        super().__init__(ctx, "Remove missed mark", row["conversation_id"])
        self.row = dict(row)

    def apply(self, action: str) -> None:
        self.ctx.project.remove_missed(self.row["id"])

    def revert(self, action: str) -> None:
        r = self.row
        self.row["id"] = self.ctx.project.add_missed(r["conversation_id"], r["start_word"], r["end_word"],
                                                     r["category"], partial=r["partial"], speaker=r["speaker"],
                                                     item_key=r["item_key"], note=r.get("note") or "")


# ---------------------------------------------------------------------------------------------- dialogs
class MarkMissedDialog(QDialog):
    """Words, category and flags of one missed item; shows the words being marked.

    ``selected``: the words come from the transcript's selection (the word-number boxes stay folded
    away behind "Adjust…"); otherwise the boxes are shown to choose the words."""

    def __init__(self, ctx, conv: Conversation, start: int, end: int, parent: QWidget | None = None, *,
                 selected: bool = True) -> None:
        super().__init__(parent)
        self.setObjectName("markMissedDialog")
        self.setWindowTitle("Mark a missed personal item")
        self.conv = conv
        n = len(conv.words)
        self.start = QSpinBox()
        self.start.setObjectName("missedStart")
        self.start.setRange(1, max(1, n))
        self.start.setValue(start + 1)
        self.length = QSpinBox()
        self.length.setObjectName("missedLength")
        self.length.setRange(1, MAX_MARK_WORDS)
        self.length.setValue(max(1, min(MAX_MARK_WORDS, end - start)))
        self.words = QLabel()
        self.words.setObjectName("missedWords")
        self.words.setWordWrap(True)
        self.category = QComboBox()
        self.category.setObjectName("missedCategory")
        for cat in ctx.taxonomy:
            self.category.addItem(f"{cat.label} ({cat.id})", cat.id)
        self.partial = QCheckBox("only part of it leaked (_PARTIAL)")
        self.partial.setObjectName("missedPartial")
        self.speaker = QCheckBox("it concerns a participant of the call (_SPEAKER)")
        self.speaker.setObjectName("missedSpeaker")
        self.speaker.setChecked(True)
        self.same_as = QComboBox()
        self.same_as.setObjectName("missedSameAs")
        self.same_as.addItem("a new item", None)
        for row in ctx.project.missed_items(conv.id):
            self.same_as.addItem(f"{row['category']}: “{conv.text(row['start_word'], row['end_word'])[:40]}”",
                                 row["item_key"])
        self.tag = QLabel()
        self.tag.setObjectName("missedTag")
        for w in (self.start, self.length):
            w.valueChanged.connect(self._update)
        self.category.currentIndexChanged.connect(self._update)
        self.partial.toggled.connect(self._update)
        self.speaker.toggled.connect(self._update)
        self.adjust_row = QWidget()
        self.adjust_row.setObjectName("missedAdjustRow")
        words_row = QHBoxLayout(self.adjust_row)
        words_row.setContentsMargins(0, 0, 0, 0)
        words_row.addWidget(QLabel("from word"))
        words_row.addWidget(self.start)
        words_row.addWidget(QLabel("words"))
        words_row.addWidget(self.length)
        words_row.addStretch(1)
        self.adjust = QToolButton()
        self.adjust.setObjectName("missedAdjust")
        self.adjust.setText("Adjust…")
        self.adjust.setToolTip("Change the words by number (or cancel, select other words in the transcript "
                               "and press Shift+M again)")
        self.adjust.setCheckable(True)
        self.adjust.toggled.connect(self.adjust_row.setVisible)
        self.adjust.setChecked(not selected)
        self.adjust_row.setVisible(not selected)
        self.adjust.setVisible(selected)
        words_line = QHBoxLayout()
        words_line.addWidget(self.words, 1)
        words_line.addWidget(self.adjust, 0, Qt.AlignmentFlag.AlignTop)
        self.source = QLabel("the words selected in the transcript" if selected else
                             "No words selected in the transcript: choose them by number here, or cancel, "
                             "select them (drag, Shift+click) and press Shift+M again.")
        self.source.setObjectName("muted")
        self.source.setWordWrap(True)
        form = QFormLayout()
        form.addRow("Words:", words_line)
        form.addRow("", self.source)
        form.addRow("", self.adjust_row)
        form.addRow("Category:", self.category)
        form.addRow("", self.partial)
        form.addRow("", self.speaker)
        form.addRow("Same item as:", self.same_as)
        form.addRow("Tag:", self.tag)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(buttons)
        self._update()
        fit_height_for_width(self, 520)
        self.category.setFocus()  # the words are given: the category is the first thing to choose

    def set_category(self, category: str) -> None:
        self.category.setCurrentIndex(self.category.findData(category))

    def values(self) -> dict[str, Any]:
        start = self.start.value() - 1
        end = min(len(self.conv.words), start + self.length.value())
        return {"start_word": start, "end_word": end, "category": self.category.currentData(),
                "partial": self.partial.isChecked(), "speaker": self.speaker.isChecked(),
                "item_key": self.same_as.currentData()}

    def _update(self) -> None:
        v = self.values()
        self.words.setText(f"“{self.conv.text(v['start_word'], v['end_word'])}”")
        if v["category"]:
            self.tag.setText(MissedItem(self.conv.id, v["category"], "", v["partial"], v["speaker"]).tag)


class SignOffDialog(QDialog):
    """Sign-off: the release gate's counts first, then what to do with each conversation that is not
    ready (keep it, which blocks the export; exclude it; or release it with a written override), then
    the reviewer's name (remembered between sessions) and comment.

    The counts the reviewer was shown are stored with the sign-off (``seen``).
    """

    def __init__(self, ctx, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("signOffDialog")
        self.setWindowTitle("Sign off the release")
        self.ctx = ctx
        self.error: str | None = None
        project = ctx.project
        previous = signoff_state(project)
        self.gate = release_readiness(project)  # the project as it is, before any choice in this dialog
        self.not_ready = [g for g in self.gate.conversations if not g.ready]

        # 1. the counts, first and large
        c = self.gate.counts()
        blocked = bool(self.gate.blocked)
        colour = style.BAD if blocked else style.GOOD
        self.counts = QLabel(f"{c['ready']} of {c['conversations']} conversation(s) ready for release")
        self.counts.setObjectName("signoffCounts")
        self.counts.setWordWrap(True)
        self.counts.setStyleSheet(f"color: {colour}; font-weight: bold; font-size: 17px")
        parts = [f"{c['undecided_suggestions']} undecided suggestion(s)", f"{c['never_detected']} never detected",
                 f"{c['not_reviewed']} not reviewed"]
        if c["no_transcript"]:
            parts.insert(0, f"{c['no_transcript']} without transcript")
        self.counts_detail = QLabel(" · ".join(parts))
        self.counts_detail.setObjectName("signoffCountsDetail")
        self.counts_detail.setWordWrap(True)
        self.counts_detail.setStyleSheet(f"color: {colour}; font-weight: bold; font-size: 14px")
        self.state = QLabel(("Last sign-off: " + previous.describe()) if previous.signed else "Not signed off yet.")
        self.state.setObjectName("signoffDialogState")
        self.state.setWordWrap(True)
        self.state.setStyleSheet(f"color: {style.MUTED}" if previous.valid or not previous.signed else
                                 f"color: {style.BAD}; font-weight: bold")
        banner = QFrame()
        banner.setObjectName("signoffBanner")
        fill = "#fdecee" if blocked else "#e8f5e9"
        banner.setStyleSheet(f"QFrame#signoffBanner {{ background: {fill}; border: 1px solid {colour}; "
                             "border-radius: 4px; }")
        banner_lay = QVBoxLayout(banner)
        banner_lay.addWidget(self.counts)
        banner_lay.addWidget(self.counts_detail)

        # 2. what to do with each conversation that is not ready
        self.table = QTableWidget(len(self.not_ready), 4)
        self.table.setObjectName("signoffNotReady")
        self.table.setHorizontalHeaderLabels(["Conversation", "What is open", "In the release", "Override reason"])
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.table.setWordWrap(False)
        self.choice_boxes: dict[str, QComboBox] = {}
        self.reason_edits: dict[str, QLineEdit] = {}
        for row, g in enumerate(self.not_ready):
            self.table.setItem(row, 0, QTableWidgetItem(g.id))
            what = QTableWidgetItem(", ".join(g.problems))
            what.setToolTip(", ".join(g.problems))
            what.setForeground(QColor(style.BAD))
            self.table.setItem(row, 1, what)
            box = QComboBox()
            box.setObjectName(f"signoffChoice_{g.id}")
            for label, value in CHOICES:
                box.addItem(label, value)
            reason = QLineEdit()
            reason.setObjectName(f"signoffReason_{g.id}")
            reason.setPlaceholderText(f"why release it as it is ({MIN_OVERRIDE_CHARS}+ characters)")
            reason.setToolTip("A written reason to release this conversation although it is not fully reviewed "
                              f"(at least {MIN_OVERRIDE_CHARS} characters); recorded with the sign-off")
            if g.id in previous.excluded:
                box.setCurrentIndex(box.findData(EXCLUDE))
            elif g.id in previous.overrides:
                box.setCurrentIndex(box.findData(OVERRIDE))
                reason.setText(previous.overrides[g.id])
            reason.setEnabled(box.currentData() == OVERRIDE)
            box.currentIndexChanged.connect(lambda _i, cid=g.id: self._choice_changed(cid))
            reason.textChanged.connect(lambda _t: self._update_effect())
            self.table.setCellWidget(row, 2, box)
            self.table.setCellWidget(row, 3, reason)
            self.choice_boxes[g.id] = box
            self.reason_edits[g.id] = reason
        head = self.table.horizontalHeader()
        head.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        head.setSectionResizeMode(1, QHeaderView.ResizeMode.Interactive)
        head.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        head.setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
        head.setMinimumSectionSize(60)
        self.table.setColumnWidth(1, 300)  # "16 undecided suggestion(s), not reviewed"; the rest in its tooltip
        self.table.verticalHeader().setDefaultSectionSize(30)
        self.table.setMinimumHeight(150)
        exclude_all = QPushButton("Exclude every one not ready")
        exclude_all.setObjectName("signoffExcludeAll")
        exclude_all.clicked.connect(lambda: self._set_all(EXCLUDE))
        keep_all = QPushButton("Keep all")
        keep_all.clicked.connect(lambda: self._set_all(KEEP))
        bulk = QHBoxLayout()
        self.table_title = QLabel(f"<b>Not ready ({len(self.not_ready)})</b>: keep it (the export refuses until "
                                  "it is reviewed), exclude it from the release, or release it with a written "
                                  "override (its open suggestions are then anonymised as suggested).")
        self.table_title.setWordWrap(True)
        bulk.addStretch(1)
        bulk.addWidget(exclude_all)
        bulk.addWidget(keep_all)
        table_box = QWidget()
        table_lay = QVBoxLayout(table_box)
        table_lay.setContentsMargins(0, 0, 0, 0)
        table_lay.addWidget(self.table_title)
        table_lay.addWidget(self.table, 1)
        table_lay.addLayout(bulk)
        table_box.setVisible(bool(self.not_ready))

        # 3. who signs, and what they checked
        remembered = ctx.settings.value(SETTING_REVIEWER, "")
        self.name = QLineEdit(str(remembered) if remembered else ctx.project.actor)
        self.name.setObjectName("signoffName")
        self.comment = QPlainTextEdit()
        self.comment.setObjectName("signoffComment")
        self.comment.setPlaceholderText("What was checked, what remains (no personal data here, please)")
        self.comment.setMaximumHeight(70)
        note = QLabel("Signing covers every decision, surrogate and masking setting as they are now; any later "
                      "change makes this sign-off stale and blocks the release until someone signs again.")
        note.setWordWrap(True)
        note.setObjectName("muted")

        # 4. the effect of the choices, said plainly right above the button
        self.effect = QLabel()
        self.effect.setObjectName("signoffEffect")
        self.effect.setWordWrap(True)
        self.message = QLabel()
        self.message.setObjectName("signoffError")
        self.message.setWordWrap(True)
        self.message.setStyleSheet(f"color: {style.BAD}; font-weight: bold; background: #fdecee; "
                                   f"border: 1px solid {style.BAD}; border-radius: 3px; padding: 4px")
        self.message.hide()
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.sign_button = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.sign_button.setText("Sign off")
        self.sign_button.setObjectName("signoffOk")
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)

        form = QFormLayout()
        form.addRow("Reviewer:", self.name)
        form.addRow("Comment:", self.comment)
        layout = QVBoxLayout(self)
        layout.addWidget(banner)
        layout.addWidget(self.state)
        layout.addWidget(table_box, 1)
        layout.addLayout(form)
        layout.addWidget(note)
        layout.addWidget(self.effect)
        layout.addWidget(self.message)
        layout.addWidget(self.buttons)
        self.resize(980 if self.not_ready else 620, 660 if self.not_ready else 420)
        self._update_effect()

    # ------------------------------------------------------------------ choices
    def set_choice(self, conversation_id: str, choice: str, reason: str = "") -> None:
        """Keep, exclude or override one not-ready conversation (``KEEP``/``EXCLUDE``/``OVERRIDE``)."""
        box = self.choice_boxes[conversation_id]
        box.setCurrentIndex(box.findData(choice))
        if reason:
            self.reason_edits[conversation_id].setText(reason)

    def _set_all(self, choice: str) -> None:
        for cid in self.choice_boxes:
            self.set_choice(cid, choice)

    def _choice_changed(self, conversation_id: str) -> None:
        override = self.choice_boxes[conversation_id].currentData() == OVERRIDE
        edit = self.reason_edits[conversation_id]
        edit.setEnabled(override)
        if override and self.isVisible():
            edit.setFocus()
        if not override:
            edit.setStyleSheet("")
        self._update_effect()

    def choices(self) -> tuple[list[str], dict[str, str]]:
        """(conversations to exclude, {conversation: override reason}) as chosen now."""
        exclude = [cid for cid, box in self.choice_boxes.items() if box.currentData() == EXCLUDE]
        overrides = {cid: self.reason_edits[cid].text().strip() for cid, box in self.choice_boxes.items()
                     if box.currentData() == OVERRIDE}
        return exclude, overrides

    def readiness(self) -> Readiness:
        """The gate with this dialog's exclusions and overrides applied (what the sign-off will record)."""
        exclude, overrides = self.choices()
        return Readiness([dataclasses.replace(g, excluded=g.id in exclude, override=overrides.get(g.id))
                          for g in self.gate.conversations])

    def _update_effect(self) -> None:
        r = self.readiness()
        c = r.counts()
        blocked = r.blocked
        if not c["included"]:
            text, colour = "Every conversation is excluded: there is nothing to release.", style.BAD
        elif blocked:
            ids = ", ".join(g.id for g in blocked[:4]) + (f" and {len(blocked) - 4} more" if len(blocked) > 4 else "")
            text = (f"{len(blocked)} conversation(s) still blocked ({ids}). You may sign off, but the export will "
                    "refuse until these are reviewed, excluded or overridden.")
            colour = style.BAD
        else:
            text = f"With these choices: {r.summary_line()}. The export can go ahead once you sign off."
            colour = style.WARN if c["overridden"] else style.GOOD
        self.effect.setText(text)
        self.effect.setStyleSheet(f"color: {colour}; font-weight: bold")

    def _refuse(self, text: str, focus: QWidget | None = None) -> None:
        self.error = text
        self.message.setText(text)
        self.message.show()
        if focus is not None:
            focus.setFocus()

    # ------------------------------------------------------------------ sign
    def accept(self) -> None:
        name = " ".join(self.name.text().split())
        if not name:
            self._refuse("Enter the reviewer's name.", self.name)
            return
        exclude, overrides = self.choices()
        for cid, reason in overrides.items():
            n = len(" ".join(reason.split()))
            edit = self.reason_edits[cid]
            if n < MIN_OVERRIDE_CHARS:
                edit.setStyleSheet(f"border: 2px solid {style.BAD}")
                self._refuse(f"The override for {cid} needs a written reason of at least {MIN_OVERRIDE_CHARS} "
                             f"characters (it has {n}): say why it may be released without a full review.", edit)
                return
            edit.setStyleSheet("")
        seen: dict[str, Any] = dict(self.readiness().counts())
        seen["before_choices"] = self.gate.counts()
        try:
            sign_off(self.ctx.project, name, self.comment.toPlainText().strip(), role=self.ctx.role,
                     exclude=exclude, overrides=overrides, seen=seen)
        except (PermissionError, ValueError) as exc:
            self._refuse(str(exc))
            return
        self.error = None
        self.ctx.settings.setValue(SETTING_REVIEWER, name)
        self.ctx.corpus_changed.emit()
        super().accept()


# ---------------------------------------------------------------------------------------------- panel
class ReviewPanel(QWidget):
    """What a reviewer needs to decide on a release (see the module docstring)."""

    def __init__(self, ctx) -> None:
        super().__init__()
        self.ctx = ctx
        self.setObjectName("reviewPanel")
        self.dialog: QDialog | None = None

        # sign-off and export
        self.state = QLabel()
        self.state.setObjectName("signoffState")
        self.state.setWordWrap(True)
        self.sign_button = QPushButton("Sign off…")
        self.sign_button.setObjectName("signOffButton")
        self.sign_button.clicked.connect(self.open_sign_off)
        self.export_button = QPushButton("Export release…")
        self.export_button.setObjectName("exportButton")
        self.export_button.clicked.connect(self.open_export)
        sign_row = QHBoxLayout()
        sign_row.addWidget(self.sign_button)
        sign_row.addWidget(self.export_button)
        self.gate_label = QLabel()
        self.gate_label.setObjectName("releaseGate")
        self.gate_label.setWordWrap(True)
        sign_box = QGroupBox("Sign-off")
        sign_layout = QVBoxLayout(sign_box)
        sign_layout.addWidget(self.gate_label)
        sign_layout.addWidget(self.state)
        sign_layout.addLayout(sign_row)

        # review sample
        self.sample_size = QSpinBox()
        self.sample_size.setObjectName("sampleSize")
        self.sample_size.setRange(1, 100000)
        self.sample_size.setValue(10)
        self.sample_seed = QSpinBox()
        self.sample_seed.setObjectName("sampleSeed")
        self.sample_seed.setRange(0, 1_000_000)
        draw = QPushButton("Draw sample")
        draw.setObjectName("drawSample")
        draw.clicked.connect(self.draw_sample)
        clear = QPushButton("All")
        clear.setToolTip("Score every conversation instead of a sample")
        clear.clicked.connect(self.clear_sample)
        size_row = QFormLayout()  # one field a row: the panel fits a narrow dock (a 1024 px window)
        size_row.addRow("Size", self.sample_size)
        size_row.addRow("Seed", self.sample_seed)
        draw_row = QHBoxLayout()
        draw_row.addWidget(draw)
        draw_row.addWidget(clear)
        draw_row.addStretch(1)
        self.sample_list = QListWidget()
        self.sample_list.setObjectName("sampleList")
        self.sample_list.itemActivated.connect(self._open_sample_item)
        sample_box = QGroupBox("Review sample")
        sample_box.setToolTip("A sample stratified by language and length")
        sample_layout = QVBoxLayout(sample_box)
        sample_layout.addLayout(size_row)
        sample_layout.addLayout(draw_row)
        sample_layout.addWidget(self.sample_list)

        # pre-scan and missed marks of the current conversation
        self.prescan_list = QListWidget()
        self.prescan_list.setObjectName("prescanList")
        self.prescan_list.itemActivated.connect(self._jump)
        self.missed_list = QListWidget()
        self.missed_list.setObjectName("missedList")
        self.missed_list.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.missed_list.itemActivated.connect(self._jump)
        self.mark_action = QAction("Mark missed item…", self)
        self.mark_action.setObjectName("markMissedAction")
        self.mark_action.setShortcut(QKeySequence("Shift+M"))
        self.mark_action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        self.mark_action.triggered.connect(self.mark_missed)
        self.addAction(self.mark_action)
        self.remove_action = QAction("Remove mark", self)
        self.remove_action.triggered.connect(self.remove_selected_mark)
        self.missed_list.addAction(self.remove_action)
        self.missed_list.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        mark = QPushButton("Mark missed…")
        mark.setObjectName("markMissedButton")
        mark.setToolTip("Mark the words selected in the transcript as a missed item (Shift+M)")
        mark.clicked.connect(self.mark_missed)
        remove = QPushButton("Remove")
        remove.clicked.connect(self.remove_selected_mark)
        mark_row = QHBoxLayout()
        mark_row.addWidget(mark)
        mark_row.addWidget(remove)
        conv_box = QGroupBox("This conversation")
        conv_layout = QVBoxLayout(conv_box)
        for text, lst in (("Pre-scan: looks like personal data, not accepted", self.prescan_list),
                          ("Missed items (MISSED_ marks)", None)):
            label = QLabel(text)
            label.setWordWrap(True)
            conv_layout.addWidget(label)
            if lst is not None:
                conv_layout.addWidget(lst, 1)
        conv_layout.addWidget(self.missed_list, 1)
        conv_layout.addLayout(mark_row)

        # residual risk
        self.threshold = QDoubleSpinBox()
        self.threshold.setObjectName("riskThreshold")
        self.threshold.setRange(0.5, 100.0)
        self.threshold.setSingleStep(0.5)
        self.threshold.setValue(float(ctx.project.setting(THRESHOLD_SETTING, DEFAULT_THRESHOLD)))
        self.threshold.editingFinished.connect(self._threshold_changed)
        self.plot = pg.PlotWidget()
        self.plot.setObjectName("riskPlot")
        self.plot.setMinimumHeight(140)
        self.plot.setBackground(None)
        self.plot.setMouseEnabled(False, False)
        self.plot.setLabel("bottom", "score per conversation")
        self.plot.setLabel("left", "conversations")
        self.bars = pg.BarGraphItem(x=[0], height=[0], width=0.8, brush="#5677a6")
        self.plot.addItem(self.bars)
        self.unknown_bar = pg.BarGraphItem(x=[0], height=[0], width=0.8, brush=pg.mkBrush("#afb8c1"),
                                           pen=pg.mkPen(style.WARN, width=1, style=Qt.PenStyle.DashLine))
        self.unknown_bar.setToolTip("conversations not reviewed: risk unknown")
        self.plot.addItem(self.unknown_bar)
        self.criterion_line = pg.InfiniteLine(angle=90, pen=pg.mkPen("#e08000", width=2, style=Qt.PenStyle.DashLine))
        self.threshold_line = pg.InfiniteLine(angle=90, pen=pg.mkPen("#b00020", width=2))
        self.plot.addItem(self.criterion_line)
        self.plot.addItem(self.threshold_line)
        self.risk_label = QLabel()
        self.risk_label.setObjectName("riskLabel")
        self.risk_label.setWordWrap(True)
        th_row = QHBoxLayout()
        th_row.addWidget(QLabel("Threshold"))
        th_row.addWidget(self.threshold)
        th_row.addStretch(1)
        risk_box = QGroupBox("Residual risk (seed 002)")
        risk_layout = QVBoxLayout(risk_box)
        risk_layout.addLayout(th_row)
        risk_layout.addWidget(self.plot)
        risk_layout.addWidget(self.risk_label)

        body = QWidget()
        layout = QVBoxLayout(body)
        layout.addWidget(sign_box)
        layout.addWidget(sample_box, 1)
        layout.addWidget(conv_box, 2)
        layout.addWidget(risk_box, 1)
        scroll = QScrollArea()  # a narrow or short dock scrolls instead of squashing the lists
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setWidget(body)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(scroll)

        ctx.conversation_changed.connect(lambda _conv: self.refresh_conversation())
        ctx.spans_changed.connect(self.refresh)
        ctx.corpus_changed.connect(self.refresh)
        ctx.role_changed.connect(lambda _role: self.refresh())
        self.summary = None
        self.refresh()

    # ------------------------------------------------------------------ refresh
    def refresh(self) -> None:
        self.refresh_signoff()
        self.refresh_sample()
        self.refresh_conversation()
        self.refresh_risk()

    def refresh_signoff(self) -> None:
        state = signoff_state(self.ctx.project)
        self.state.setText(state.describe() if state.signed else "Not signed off: only a draft can be exported.")
        self.state.setStyleSheet("color: #1b5e20; font-weight: bold" if state.valid else
                                 "color: #b00020; font-weight: bold; font-size: 115%")
        gate = release_readiness(self.ctx.project, excluded=state.excluded, overrides=state.overrides)
        text, colour = readiness_text(gate)
        self.gate_label.setText(f"Release gate: {text}")
        self.gate_label.setStyleSheet(f"color: {colour}; font-weight: bold")
        self.sign_button.setEnabled(self.ctx.can("sign_off"))
        self.sign_button.setToolTip("" if self.ctx.can("sign_off") else "Only reviewers can sign off")
        self.export_button.setEnabled(self.ctx.can("export"))

    def sample_ids(self) -> list[str]:
        ids = self.ctx.project.conversation_ids()
        sample = self.ctx.project.setting(SAMPLE_SETTING)
        if isinstance(sample, list) and sample:
            known = set(ids)
            return [c for c in sample if c in known]
        return ids

    def refresh_sample(self) -> None:
        project = self.ctx.project
        ids = self.sample_ids()
        summary = self._summary(ids)
        self.sample_list.clear()
        for cid in ids:
            if cid in summary.unknown:
                item = QListWidgetItem(f"{cid}  —  risk unknown (not reviewed)")
                item.setForeground(QColor(style.WARN))
                item.setToolTip("Nobody finished reviewing it, so its residual risk is unknown (not 0).")
            else:
                item = QListWidgetItem(f"{cid}  —  risk {summary.scores.get(cid, 0)}")
            item.setData(Qt.ItemDataRole.UserRole, cid)
            self.sample_list.addItem(item)
        drawn = isinstance(project.setting(SAMPLE_SETTING), list)
        self.sample_list.setToolTip("the drawn sample" if drawn else "no sample drawn: every conversation")

    def refresh_conversation(self) -> None:
        conv = self.ctx.conversation
        self.prescan_list.clear()
        self.missed_list.clear()
        self.mark_action.setEnabled(conv is not None)
        if conv is None:
            return
        marks = []
        for hit in prescan(conv):
            item = QListWidgetItem(f"{hit.kind.replace('_', ' ')}: “{conv.text(hit.start_word, hit.end_word)[:50]}” "
                                   f"({hit.detail})")
            item.setData(Qt.ItemDataRole.UserRole, hit.start_word)
            self.prescan_list.addItem(item)
        for row in self.ctx.project.missed_items(conv.id):
            tag = MissedItem(conv.id, row["category"], row["item_key"], row["partial"], row["speaker"]).tag
            item = QListWidgetItem(f"{tag}: “{conv.text(row['start_word'], row['end_word'])[:50]}”")
            item.setData(Qt.ItemDataRole.UserRole, row["start_word"])
            item.setData(Qt.ItemDataRole.UserRole + 1, row)
            self.missed_list.addItem(item)
            marks.append((row["start_word"], row["end_word"], tag))
        self.ctx.missed_marks.emit(conv.id, marks)

    def _summary(self, ids: list[str]):
        """Residual risk of ``ids``; conversations nobody reviewed are *unknown*, never scored 0."""
        threshold = float(self.ctx.project.setting(THRESHOLD_SETTING, DEFAULT_THRESHOLD))
        return project_summary(self.ctx.project, ids, self.ctx.taxonomy, threshold)

    def refresh_risk(self) -> None:
        summary = self._summary(self.sample_ids())
        self.summary = summary
        counts: dict[int, int] = {}
        for s in summary.scores.values():
            counts[s] = counts.get(s, 0) + 1
        top = max([*counts, int(summary.threshold) + 1])
        xs = list(range(0, top + 1))
        self.bars.setOpts(x=xs, height=[counts.get(x, 0) for x in xs], width=0.8)
        # the unreviewed ones: a grey bar of their own, right of the scale, labelled "?" (not a score)
        n_unknown = len(summary.unknown)
        unknown_x = top + 2
        self.unknown_bar.setOpts(x=[unknown_x], height=[n_unknown], width=0.8)
        self.unknown_bar.setVisible(bool(n_unknown))
        step = max(1, (top + 1) // 10)
        ticks = [(x, str(x)) for x in range(0, top + 1, step)]
        if n_unknown:
            ticks.append((unknown_x, "?"))
        self.plot.getAxis("bottom").setTicks([ticks, []])
        self.criterion_line.setValue(summary.criterion)
        self.threshold_line.setValue(summary.threshold)
        self.criterion_line.setVisible(bool(summary.scores))
        self.plot.setXRange(-0.6, (unknown_x if n_unknown else top) + 0.6, padding=0)
        verdict = summary.verdict
        colour = {"PASS": style.GOOD, "FAIL": style.BAD}.get(verdict, style.WARN)
        if summary.scores:
            stats = (f"{len(summary.scores)} reviewed conversation(s): mean {summary.mean:.2f}, sd {summary.sd:.2f}, "
                     f"P95 {summary.p95:.2f}, max {summary.max}. Criterion mu+sigma = {summary.criterion:.2f} "
                     f"vs threshold {summary.threshold:g}")
        else:
            stats = f"No reviewed conversation in scope (threshold {summary.threshold:g})"
        unknown = ""
        if n_unknown:
            shown = ", ".join(summary.unknown[:3]) + (" …" if n_unknown > 3 else "")
            unknown = (f"<br><span style='color:{style.WARN}'>{n_unknown} conversation(s) not reviewed "
                       f"({shown}): risk unknown, not counted as 0 (the grey “?” bar).</span>")
        self.risk_label.setText(f"{stats}: <b style='color:{colour}'>{verdict}</b>{unknown}")

    # ------------------------------------------------------------------ sample
    def draw_sample(self) -> None:
        if not self.ctx.can("review_sample"):
            self.ctx.status("Only reviewers draw review samples")
            return
        rows = self.ctx.project.list_conversations()
        light = [Conversation(id=r.id, language=r.language, duration=r.duration) for r in rows]
        if not light:
            return
        ids = stratified_sample(light, self.sample_size.value(), seed=self.sample_seed.value())
        self.ctx.push_command(SetSetting(self.ctx, SAMPLE_SETTING, as_text(ids), f"Draw a review sample of {len(ids)}"))

    def clear_sample(self) -> None:
        self.ctx.push_command(SetSetting(self.ctx, SAMPLE_SETTING, "", "Score every conversation"))

    def _threshold_changed(self) -> None:
        value = float(self.threshold.value())
        if value != float(self.ctx.project.setting(THRESHOLD_SETTING, DEFAULT_THRESHOLD)):
            self.ctx.push_command(SetSetting(self.ctx, THRESHOLD_SETTING, as_text(value), f"Risk threshold {value:g}"))

    def _open_sample_item(self, item: QListWidgetItem) -> None:
        self.ctx.open_conversation(item.data(Qt.ItemDataRole.UserRole))

    def _jump(self, item: QListWidgetItem) -> None:
        self.ctx.select(None, item.data(Qt.ItemDataRole.UserRole))

    # ------------------------------------------------------------------ marks
    def selected_words(self) -> tuple[int, int] | None:
        """The words to mark: those selected in the transcript, else the selected span's, else the
        word cursor's."""
        if self.ctx.selected_words is not None:
            return self.ctx.selected_words
        span = self.ctx.current_span()
        if span is not None:
            return span.start_word, span.end_word
        if self.ctx.current_word is not None:
            return self.ctx.current_word, self.ctx.current_word + 1
        return None

    def mark_missed(self) -> MarkMissedDialog | None:
        """Open the mark dialog on the selected words (non-blocking); returns it. With nothing selected
        the dialog asks for word numbers."""
        conv = self.ctx.conversation
        if conv is None or not conv.words:
            self.ctx.status("Open a conversation first")
            return None
        words = self.selected_words()
        dialog = MarkMissedDialog(self.ctx, conv, *(words or (0, 1)), parent=self, selected=words is not None)
        dialog.accepted.connect(lambda d=dialog, c=conv.id: self._add_mark(c, d.values()))
        dialog.finished.connect(lambda _r: self.ctx.focus_review())
        self.dialog = dialog
        dialog.open()
        return dialog

    def _add_mark(self, conversation_id: str, v: dict[str, Any]) -> None:
        self.ctx.push_command(AddMissed(self.ctx, conversation_id, v["start_word"], v["end_word"], v["category"],
                                        partial=v["partial"], speaker=v["speaker"], item_key=v["item_key"]))

    def remove_selected_mark(self) -> None:
        item = self.missed_list.currentItem()
        if item is None:
            return
        self.ctx.push_command(RemoveMissed(self.ctx, item.data(Qt.ItemDataRole.UserRole + 1)))

    # ------------------------------------------------------------------ dialogs
    def open_sign_off(self) -> SignOffDialog | None:
        if not self.ctx.can("sign_off"):
            self.ctx.status("Only reviewers can sign off")
            return None
        dialog = SignOffDialog(self.ctx, self)
        self.dialog = dialog
        dialog.open()
        return dialog

    def open_export(self):
        from redactdesk.gui.export_dialog import ExportDialog

        dialog = ExportDialog(self.ctx, self)
        dialog.setWindowModality(Qt.WindowModality.WindowModal)
        self.dialog = dialog
        dialog.open()
        return dialog


def make_review_panel(ctx) -> ReviewPanel:
    return ReviewPanel(ctx)


register_panel("review", "Review and release", make_review_panel, roles=("reviewer",), area="right", order=50)
