"""The export dialog: where to write a release, draft or not, masking method, progress, result.

The export runs as a background job (``ctx.run_job``) on its own connection to the project file,
so the window's connection is never used from the worker thread. The dialog stays modal while
the job runs; Cancel stops it and leaves nothing behind (``export_release`` is atomic).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, QUrl, Signal
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from redactdesk.store import Project

SETTING_FOLDER = "export/folder"


def _masker_names() -> list[str]:
    try:
        from redactdesk.audio import masker_names

        return list(masker_names())
    except Exception:  # the audio stage is optional for the dialog itself
        return ["silence", "beep", "noise"]


def run_export(project_path: Path, actor: str, role: Any, out: Path, options: dict[str, Any], job: Any) -> Any:
    """Worker-thread body: open a second connection, export, close. Returns the ReleaseResult."""
    from redactdesk.pipeline.export import export_release

    project = Project.open(project_path, actor=actor, role=role)
    try:
        return export_release(project, out, progress=lambda f, m: job.report(f, None, m),
                              cancel=lambda: job.is_cancelled, **options)
    finally:
        project.close()


class ExportDialog(QDialog):
    """Choose folder and options, run the export with progress, show the summary, open the folder."""

    finished_export = Signal(object)  # ReleaseResult

    def __init__(self, ctx, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        from redactdesk.risk.signoff import signoff_state

        self.ctx = ctx
        self.setObjectName("exportDialog")
        self.setWindowTitle("Export release")
        self.setMinimumWidth(560)
        self.job = None
        self.result: Any = None
        self.error: str | None = None

        state = signoff_state(ctx.project)
        self.state = state
        self.state_label = QLabel(state.describe())
        self.state_label.setObjectName("signoffState")
        self.state_label.setWordWrap(True)
        self.state_label.setStyleSheet("color: #1b5e20; font-weight: bold" if state.valid
                                       else "color: #b00020; font-weight: bold")

        default_root = ctx.settings.value(SETTING_FOLDER, str(ctx.project.path.parent / "releases"))
        self.folder = QLineEdit(str(default_root))
        self.folder.setObjectName("exportFolder")
        browse = QPushButton("Browse…")
        browse.clicked.connect(self._browse)
        folder_row = QHBoxLayout()
        folder_row.addWidget(self.folder, 1)
        folder_row.addWidget(browse)
        self.name = QLineEdit(time.strftime("release-%Y%m%d-%H%M%S"))
        self.name.setObjectName("exportName")
        self.draft = QCheckBox("Draft (marked DRAFT everywhere; allowed without a valid sign-off)")
        self.draft.setObjectName("exportDraft")
        if not state.valid:
            self.draft.setChecked(True)
            self.draft.setEnabled(False)
            self.draft.setToolTip("Only a draft can be exported until a reviewer signs off the current decisions.")
        self.method = QComboBox()
        self.method.setObjectName("exportMethod")
        self.method.addItems(_masker_names())
        current = ctx.project.setting("mask.method", "silence")
        if current in _masker_names():
            self.method.setCurrentText(current)
        self.relisten = QCheckBox("Re-listen to the masked audio (speech recogniser)")
        self.relisten.setObjectName("exportRelisten")
        self.relisten.setChecked(True)
        self.prosody = QCheckBox("Measure prosody (pitch and energy) of the masked audio")
        self.prosody.setObjectName("exportProsody")
        self.prosody.setChecked(True)
        self.override = QLineEdit()
        self.override.setObjectName("exportOverride")
        self.override.setPlaceholderText("only if the re-listen check finds leaks: a reviewer's written reason")
        self.override.setEnabled(ctx.can("sign_off"))

        form = QFormLayout()
        form.addRow("Sign-off:", self.state_label)
        form.addRow("Folder:", folder_row)
        form.addRow("Release name:", self.name)
        form.addRow("", self.draft)
        form.addRow("Audio masking:", self.method)
        form.addRow("", self.relisten)
        form.addRow("", self.prosody)
        form.addRow("Leak override:", self.override)

        self.progress = QProgressBar()
        self.progress.setObjectName("exportProgress")
        self.progress.setRange(0, 1000)
        self.progress.setValue(0)
        self.step = QLabel("")
        self.step.setObjectName("exportStep")
        self.summary = QPlainTextEdit()
        self.summary.setObjectName("exportSummary")
        self.summary.setReadOnly(True)
        self.summary.setPlaceholderText("The release summary appears here.")

        self.export_button = QPushButton("Export")
        self.export_button.setObjectName("exportStart")
        self.export_button.setDefault(True)
        self.export_button.clicked.connect(self.start)
        self.cancel_button = QPushButton("Cancel export")
        self.cancel_button.setObjectName("exportCancel")
        self.cancel_button.setEnabled(False)
        self.cancel_button.clicked.connect(self.cancel)
        self.open_button = QPushButton("Open folder")
        self.open_button.setObjectName("exportOpen")
        self.open_button.setEnabled(False)
        self.open_button.clicked.connect(self.open_folder)
        self.close_button = QPushButton("Close")
        self.close_button.clicked.connect(self.reject)
        buttons = QHBoxLayout()
        buttons.addWidget(self.export_button)
        buttons.addWidget(self.cancel_button)
        buttons.addStretch(1)
        buttons.addWidget(self.open_button)
        buttons.addWidget(self.close_button)

        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.progress)
        layout.addWidget(self.step)
        layout.addWidget(self.summary, 1)
        layout.addLayout(buttons)

    # ------------------------------------------------------------------ actions
    def _browse(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Folder for releases", self.folder.text())
        if folder:
            self.folder.setText(folder)

    def target(self) -> Path:
        return Path(self.folder.text()).expanduser() / self.name.text().strip()

    def options(self) -> dict[str, Any]:
        return {"draft": self.draft.isChecked(), "mask_method": self.method.currentText() or None,
                "override_reason": self.override.text().strip() or None,
                "relisten": None if self.relisten.isChecked() else False,
                "prosody": None if self.prosody.isChecked() else False}

    def start(self) -> None:
        if self.job is not None:
            return
        if not self.ctx.can("export"):
            self._failed(f"the {self.ctx.role.value} role cannot export releases")
            return
        if not self.name.text().strip() or not self.folder.text().strip():
            self._failed("choose a folder and a release name")
            return
        self.ctx.settings.setValue(SETTING_FOLDER, self.folder.text())
        self.result, self.error = None, None
        self.summary.setPlainText("")
        self.open_button.setEnabled(False)
        self._busy(True)
        p = self.ctx.project
        out, options = self.target(), self.options()
        self.job = self.ctx.run_job("Export release",
                                    lambda job: run_export(p.path, p.actor, p.role, out, options, job),
                                    self._done, self._failed)
        self.job.progress.connect(self._progress)
        self.job.cancelled.connect(self._cancelled)

    def cancel(self) -> None:
        if self.job is not None:
            self.step.setText("cancelling…")
            self.job.cancel()

    def open_folder(self) -> None:
        if self.result is not None:
            QDesktopServices.openUrl(QUrl.fromLocalFile(str(self.result.path)))

    # ------------------------------------------------------------------ job signals
    def _progress(self, fraction: float, message: str) -> None:
        if fraction >= 0:
            self.progress.setValue(int(round(fraction * 1000)))
        self.step.setText(message)

    def _done(self, result: Any) -> None:
        from redactdesk.pipeline.export import release_summary

        self.job = None
        self.result = result
        self._busy(False)
        self.progress.setValue(1000)
        self.step.setText("release written")
        self.summary.setPlainText(release_summary(result))
        self.open_button.setEnabled(True)
        self.ctx.status(f"Release written: {result.path}")
        self.ctx.corpus_changed.emit()  # the audit log has an export entry
        self.finished_export.emit(result)

    def _failed(self, message: str) -> None:
        self.job = None
        self.error = message
        self._busy(False)
        self.progress.setValue(0)
        self.step.setText("export failed; nothing was written")
        self.summary.setPlainText(message)

    def _cancelled(self) -> None:
        self.job = None
        self.error = "cancelled"
        self._busy(False)
        self.progress.setValue(0)
        self.step.setText("export cancelled; nothing was written")

    def _busy(self, busy: bool) -> None:
        for w in (self.export_button, self.close_button, self.folder, self.name, self.method, self.relisten,
                  self.prosody, self.override):
            w.setEnabled(not busy)
        if not busy:
            self.draft.setEnabled(self.state.valid)
            self.override.setEnabled(self.ctx.can("sign_off"))
        else:
            self.draft.setEnabled(False)
        self.cancel_button.setEnabled(busy)

    def reject(self) -> None:  # Escape / close while running: cancel first
        if self.job is not None:
            self.cancel()
            return
        super().reject()

    def keyPressEvent(self, event) -> None:
        if event.key() == Qt.Key.Key_Escape and self.job is not None:
            self.cancel()
            return
        super().keyPressEvent(event)
