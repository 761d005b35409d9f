"""The export dialog: where to write a release, draft or not, masking method, progress, result.

The export runs as a background job (``ctx.run_job``) on its own connection to the project file,
so the window's connection is never used from the worker thread. The dialog stays modal while
the job runs; Cancel stops it and leaves nothing behind (``export_release`` is atomic).

At the top: the release gate's summary and the sign-off state. When the export refuses because
conversations are not ready (``GateClosed``), detection over the release text finds undecided
items (``UndecidedFound``) or original values are found (``LeaksFound``), each is a row of the
problems list; double-click or Enter on a row closes the dialog and goes there (the conversation,
its first open suggestion or the words found, framed in the transcript and the waveform). A
written release shows its verdict line first, coloured.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
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
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from redactdesk.core.types import SpanStatus
from redactdesk.gui import style
from redactdesk.gui.corpus import readiness_text

SETTING_FOLDER = "export/folder"
PROBLEM_ROLE = Qt.ItemDataRole.UserRole


@dataclass(frozen=True)
class Problem:
    """One row of the problems list: where the export's refusal points."""

    kind: str  # "gate" (not ready), "undecided" (re-detection finding), "leak" (original value in a file)
    conversation_id: str
    text: str
    start_word: int | None = None
    end_word: int | None = None
    detail: str = ""  # said in the status bar after going there


def problems_of(exc: BaseException | None) -> list[Problem]:
    """The rows a refusal lists (empty for other errors)."""
    from redactdesk.pipeline.export import GateClosed, LeaksFound, UndecidedFound

    out: list[Problem] = []
    if isinstance(exc, GateClosed):
        for g in exc.readiness.blocked:
            what = ", ".join(g.problems)
            out.append(Problem("gate", g.id, f"{g.id} — {what}", detail=f"{g.id}: {what}"))
    elif isinstance(exc, UndecidedFound):
        for f in exc.findings:
            allow = " · on the allow list" if f.allow_listed else ""
            out.append(Problem("undecided", f.conversation_id,
                               f"{f.conversation_id} — {f.category} “{f.hint}” · words {f.start_word}–{f.end_word} "
                               f"· score {f.score:.2f}{allow}", f.start_word, f.end_word,
                               detail=f"undecided {f.category} ({f.hint}): accept it (M marks the framed words) "
                                      "or reject it"))
    elif isinstance(exc, LeaksFound):
        for f in exc.findings:
            where = f"{f.file}:{f.line}" if f.line else f.file
            out.append(Problem("leak", f.conversation_id,
                               f"{f.conversation_id} — {f.category} ({f.variant}) in {where} · {f.hint}",
                               detail=f"an original {f.category} value ({f.hint}) was found in {where}"))
    return out


def refusal_headline(exc: BaseException | None, n: int) -> str:
    from redactdesk.pipeline.export import ExportRefused, GateClosed, LeaksFound, UndecidedFound

    if isinstance(exc, GateClosed):
        return f"REFUSED: {n} conversation(s) are not ready for release — nothing was written"
    if isinstance(exc, UndecidedFound):
        return f"REFUSED: detection over the release text finds {n} item(s) nobody decided about — nothing was written"
    if isinstance(exc, LeaksFound):
        return f"REFUSED: {n} original value(s) found in the release — nothing was written"
    if isinstance(exc, ExportRefused):
        return "REFUSED — nothing was written"
    return "Export failed — nothing was written"


def verdict_colour(verdict: str) -> str:
    if verdict.startswith("PASS WITH") or verdict.startswith("DRAFT"):
        return style.WARN
    if verdict.startswith("PASS"):
        return style.GOOD
    return style.BAD


def _masker_names() -> list[str]:
    try:
        from redactdesk.audio import masker_names

        return list(masker_names())
    except Exception:  # the audio stage is optional for the dialog itself
        return ["silence", "beep", "noise"]


def run_export(ctx: Any, out: Path, options: dict[str, Any], job: Any) -> Any:
    """Worker-thread body: export on the job's own connection (``ctx.job_project()``). Returns the ReleaseResult."""
    from redactdesk.gui.stage_jobs import cancel_of
    from redactdesk.pipeline.executor import open_executor, resolve_config
    from redactdesk.pipeline.export import export_release

    with ctx.job_project() as project, open_executor(resolve_config(project=project)) as executor:
        # masking and re-listening of many calls run on the same executor as `redactdesk export`
        return export_release(project, out, progress=job.progress_fn, cancel=cancel_of(job), executor=executor,
                              **options)


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
        self.refusal: BaseException | None = None  # what the last export raised

        from redactdesk.risk.gate import release_readiness

        state = signoff_state(ctx.project)
        self.state = state
        self.readiness = release_readiness(ctx.project, excluded=state.excluded if state.signed else (),
                                           overrides=state.overrides if state.signed else None)
        text, colour = readiness_text(self.readiness)
        if self.readiness.blocked:
            text += " — a release (not a draft) will be refused until they are reviewed, excluded or overridden"
        self.gate_label = QLabel(text)
        self.gate_label.setObjectName("exportReadiness")
        self.gate_label.setWordWrap(True)
        self.gate_label.setStyleSheet(f"color: {colour}; font-weight: bold; font-size: 14px")
        self.state_label = QLabel(state.describe())
        self.state_label.setObjectName("signoffState")
        self.state_label.setWordWrap(True)
        self.state_label.setStyleSheet(f"color: {style.GOOD}; font-weight: bold" if state.valid
                                       else f"color: {style.BAD}; font-weight: bold")

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
        form.addRow("Release gate:", self.gate_label)
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
        self.verdict = QLabel("")
        self.verdict.setObjectName("exportVerdict")
        self.verdict.setWordWrap(True)
        self.verdict.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.verdict.hide()
        self.problems_title = QLabel("Double-click a row (or select it and press Enter) to go there:")
        self.problems_title.setObjectName("muted")
        self.problems_title.hide()
        self.problems = QListWidget()
        self.problems.setObjectName("exportProblems")
        self.problems.setAlternatingRowColors(True)
        self.problems.itemActivated.connect(self.go_to)
        self.problems.hide()
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
        layout.addWidget(self.verdict)
        layout.addWidget(self.problems_title)
        layout.addWidget(self.problems, 2)
        layout.addWidget(self.summary, 1)
        layout.addLayout(buttons)
        self.resize(780, 640)

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
        self.result, self.error, self.refusal = None, None, None
        self.summary.setPlainText("")
        self._show_problems([])
        self.verdict.hide()
        self.open_button.setEnabled(False)
        self._busy(True)
        out, options = self.target(), self.options()
        self.job = self.ctx.run_job("Export release", lambda job: run_export(self.ctx, out, options, job),
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
        verdict = result.verdict or release_summary(result).splitlines()[0]
        self.verdict.setText(verdict)
        self.verdict.setStyleSheet(f"color: {verdict_colour(verdict)}; font-weight: bold; font-size: 15px")
        self.verdict.show()
        self.summary.setPlainText(release_summary(result))
        self.open_button.setEnabled(True)
        self.ctx.status(f"Release written: {result.path}")
        self.ctx.corpus_changed.emit()  # the audit log has an export entry
        self.finished_export.emit(result)

    def _failed(self, message: str) -> None:
        exc = getattr(self.job, "exception", None)
        self.job = None
        self.error = message
        self.refusal = exc
        self._busy(False)
        self.progress.setValue(0)
        self.step.setText("export failed; nothing was written")
        problems = problems_of(exc)
        self._show_problems(problems)
        self.verdict.setText(refusal_headline(exc, len(problems)) if exc is not None else message)
        self.verdict.setStyleSheet(f"color: {style.BAD}; font-weight: bold; font-size: 15px")
        self.verdict.show()
        self.summary.setPlainText(message)

    # ------------------------------------------------------------------ problems list
    def _show_problems(self, problems: list[Problem]) -> None:
        self.problems.clear()
        for prob in problems:
            item = QListWidgetItem(prob.text)
            item.setData(PROBLEM_ROLE, prob)
            item.setToolTip("Double-click or Enter: close this dialog and go there")
            self.problems.addItem(item)
        self.problems.setVisible(bool(problems))
        self.problems_title.setVisible(bool(problems))
        if problems:
            self.problems.setCurrentRow(0)
            self.problems.setFocus()

    def go_to(self, item: QListWidgetItem) -> None:
        """Close the dialog and go to the place a problem row points at."""
        prob: Problem | None = item.data(PROBLEM_ROLE) if item is not None else None
        if prob is None or self.job is not None:
            return
        ctx = self.ctx
        self.export_button.setDefault(False)  # the Enter that activated the row must not start an export
        self.done(QDialog.DialogCode.Accepted)
        try:
            if prob.kind == "gate":
                open_spans = sorted((sp for sp in ctx.project.spans(prob.conversation_id)
                                     if sp.status == SpanStatus.SUGGESTED), key=lambda sp: sp.start_word)
                ctx.reveal(prob.conversation_id, span_id=open_spans[0].id if open_spans else None)
                hint = ("first open suggestion: J next, A accept, X reject" if open_spans else
                        "Ctrl+Shift+R marks it reviewed once you have read it")
                ctx.status(f"{prob.detail} — {hint}", 12000)
            else:
                ctx.reveal(prob.conversation_id, prob.start_word, prob.end_word)
                ctx.status(prob.detail, 12000)
        except Exception as exc:  # e.g. the conversation was deleted meanwhile
            ctx.error("Cannot go there", str(exc))

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
