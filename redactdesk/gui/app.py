"""Entry points of the desktop app.

``run(project_path, role=None)`` starts Qt, asks for a role on first use (remembered in the user's
settings), opens the project and runs the event loop; ``build_main_window(project)`` builds the
window around an already-open :class:`redactdesk.store.Project` without showing any dialog (tests,
screenshots).
"""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QSettings, QTimer
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication, QMessageBox

from redactdesk.core.types import Role
from redactdesk.gui import dialogs, style
from redactdesk.gui.context import AppContext
from redactdesk.gui.mainwindow import MainWindow, app_settings
from redactdesk.gui.roles import as_role

APP_NAME = "redactdesk"
APP_ID = "org.redactdesk.RedactDesk"


def ensure_app(argv: list[str] | None = None) -> QApplication:
    """The running QApplication, created (and styled) if there is none yet."""
    app = QApplication.instance()
    if app is None:
        QCoreApplication.setOrganizationName(APP_NAME)
        QCoreApplication.setApplicationName(APP_NAME)
        app = QApplication(argv if argv is not None else [sys.argv[0] if sys.argv else APP_NAME])
        app.setApplicationDisplayName("redactdesk")
        app.setDesktopFileName(APP_ID)
        icon = _icon_path()
        if icon is not None:
            app.setWindowIcon(QIcon(str(icon)))
        style.apply_app_style(app)
    return app


def _icon_path() -> Path | None:
    here = Path(__file__).resolve().parent
    for candidate in (here.parent.parent / "packaging" / "redactdesk.svg", here / "redactdesk.svg"):
        if candidate.exists():
            return candidate
    return None


def _taxonomy():
    from redactdesk.resources import load_taxonomy

    return load_taxonomy()


def build_main_window(project, *, role: Role | str | None = None, settings: QSettings | None = None,
                      taxonomy=None) -> MainWindow:
    """The main window around an open project (not shown). Role: argument, then settings, then the project's."""
    ensure_app()
    settings = settings if settings is not None else app_settings()
    chosen = role or settings.value("role") or getattr(project, "role", None) or Role.ANNOTATOR
    ctx = AppContext(project, taxonomy or _taxonomy(), as_role(chosen), settings)
    window = MainWindow(ctx)
    ctx.setParent(window)
    return window


def open_window(project_path: str | Path, *, role: str | None = None,
                settings: QSettings | None = None) -> MainWindow:
    from redactdesk.store import Project

    project = Project.open(project_path)
    try:
        return build_main_window(project, role=role, settings=settings)
    except BaseException:
        project.close()
        raise


def ask_role(settings: QSettings, role: str | None) -> Role | None:
    """The role to work as: given, remembered, or asked (None when the user cancels)."""
    if role:
        chosen = as_role(role)
    elif settings.value("role"):
        try:
            return as_role(settings.value("role"))
        except ValueError:
            chosen = None
    else:
        chosen = None
    if chosen is None:
        dlg = dialogs.RoleDialog(Role.ANNOTATOR)
        if not dlg.exec():
            return None
        chosen = dlg.role()
    settings.setValue("role", chosen.value)
    return chosen


def run(project_path: str, *, role: str | None = None) -> int:
    """Open the project in the app and run until the window closes; returns the exit code."""
    app = ensure_app()
    settings = app_settings()
    try:
        chosen = ask_role(settings, role)
    except ValueError as exc:
        QMessageBox.critical(None, "redactdesk", str(exc))
        return 2
    if chosen is None:
        return 1
    try:
        window = open_window(project_path, role=chosen.value, settings=settings)
    except Exception as exc:  # a project that cannot be opened: say why, change nothing
        QMessageBox.critical(None, "Cannot open project", str(exc))
        return 2
    window.show()
    if window.project.setting("demo"):
        QTimer.singleShot(0, window.prepare_pending)  # the demo's calls are transcribed in the background
    code = app.exec()
    window.close()
    window.project.close()
    window.deleteLater()
    return int(code)


def main(argv: list[str] | None = None) -> int:
    """``python -m redactdesk.gui.app PROJECT [--role ROLE]`` (the CLI's ``redactdesk gui`` does the same)."""
    import argparse

    parser = argparse.ArgumentParser(prog="redactdesk-gui")
    parser.add_argument("project")
    parser.add_argument("--role", choices=[r.value for r in Role])
    args = parser.parse_args(argv)
    return run(args.project, role=args.role)


if __name__ == "__main__":
    sys.exit(main())
