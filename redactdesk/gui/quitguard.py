"""Ask before quitting while a job runs (transcription, detection, an import, the demo's preparation).

Closing the window cancels running jobs: what they finished is kept (each call is written when it is
done), what they were doing is lost and has to run again. Ctrl+Q or the window's close button while
a job runs therefore asks first — "Cancel and quit" or "Keep working" (the default: Esc or Enter
keep the work going). Closes the program does itself (tests, File ▸ Open of another project, the
end of ``app.run``) are not asked about. The question is window-modal but does not block the event
loop: jobs keep reporting while it is open.
"""

from __future__ import annotations

from PySide6.QtCore import QObject
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QMessageBox


class QuitGuard(QObject):
    """Decides whether the window may close now (``window.quit_guard``)."""

    def __init__(self, window) -> None:
        super().__init__(window)
        self.window = window
        self.confirmed = False
        self._user_request = False
        self.box: QMessageBox | None = None

    def running(self) -> list[str]:
        """Titles of the jobs still running."""
        return [job.title for job in self.window.ctx.jobs.jobs if job.running]

    def request_quit(self) -> None:
        """Ctrl+Q / File ▸ Quit: close, asking first when a job runs."""
        self._user_request = True
        try:
            self.window.close()
        finally:
            self._user_request = False

    def allow_close(self, event) -> bool:
        """Called first in the window's ``closeEvent``: False (event ignored, question shown) to wait."""
        if self.confirmed or not (self._user_request or event.spontaneous()):
            return True
        jobs = self.running()
        if not jobs:
            return True
        event.ignore()
        if self.box is None or not self.box.isVisible():
            self._ask(jobs)
        return False

    def _ask(self, jobs: list[str]) -> None:
        first = f"“{jobs[0]}”" + (f" and {len(jobs) - 1} more job(s)" if len(jobs) > 1 else "")
        box = QMessageBox(QMessageBox.Icon.Warning, "Work is still running",
                          f"{first} is still running.", QMessageBox.StandardButton.NoButton, self.window)
        box.setObjectName("quitGuard")
        box.setInformativeText("Quitting now cancels it: what it has finished is kept, the rest has to run again "
                               "(the demo's preparation resumes the next time the project opens).")
        quit_button = box.addButton("Cancel and quit", QMessageBox.ButtonRole.DestructiveRole)
        quit_button.setObjectName("cancelAndQuit")
        keep = box.addButton("Keep working", QMessageBox.ButtonRole.RejectRole)
        keep.setObjectName("keepWorking")
        box.setDefaultButton(keep)
        box.setEscapeButton(keep)

        def answered(_result: int) -> None:
            self.box = None
            if box.clickedButton() is quit_button:
                self.confirmed = True
                self.window.ctx.jobs.cancel_all()
                self.window.close()
            else:
                self.window.ctx.status("Still working — quit again when the job has ended", 5000)

        box.finished.connect(answered)
        self.box = box
        box.open()


def install(window) -> QuitGuard:
    """The guard of ``window``; File ▸ Quit (Ctrl+Q) goes through it."""
    guard = QuitGuard(window)
    window.quit_guard = guard
    if all(s.isEmpty() for s in window.act_quit.shortcuts()):  # the platform's Quit key is empty without a desktop theme (Xvfb)
        window.act_quit.setShortcut(QKeySequence("Ctrl+Q"))
    window.act_quit.triggered.disconnect()
    window.act_quit.triggered.connect(lambda _=False: guard.request_quit())
    return guard
