"""Render the main window to a PNG (docs/screenshots, visual checks).

``python -m redactdesk.gui.screenshot --out docs/screenshots/main-window.png [--project P]``
Without ``--project`` a throw-away project is built from the bundled sample calls (their reference
spans imported as suggestions, a few of them decided) so the picture shows every span style; a
given project is copied first and never changed.
Works offscreen (QT_QPA_PLATFORM=offscreen) and under Xvfb.
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
import tempfile
from pathlib import Path

from redactdesk.core.types import SpanStatus


def sample_project(path: Path, limit: int = 4) -> Path:
    """A project at ``path`` from the first ``limit`` sample calls, reference spans as suggestions."""
    import json

    from redactdesk.pipeline.importing import import_recording
    from redactdesk.store import Project

    with Project.create(path, actor="demo") as project:
        for call in _sample_calls(limit):
            data = json.loads(Path(call["reference"]).read_text(encoding="utf-8"))
            for i, span in enumerate(data.get("spans", [])):  # look like detector output
                span.update(status="suggested", score=round(0.62 + 0.07 * (i % 5), 2),
                            sources=["spacy" if span["category"] == "PERSON" else "patterns"],
                            reason=span.get("reason") or f"looks like {span['category'].lower().replace('_', ' ')}")
            transcript = path.parent / f"{call['id']}.json"
            transcript.write_text(json.dumps(data), encoding="utf-8")
            import_recording(project, call["audio"], transcript, conversation_id=call["id"],
                             language=call["language"])
    return path


def _sample_calls(limit: int) -> list[dict]:
    import json

    from redactdesk.resources import samples_dir

    folder = samples_dir()
    index = json.loads((folder / "index.json").read_text(encoding="utf-8"))
    calls = []
    for entry in index["calls"][:limit]:
        calls.append({"id": entry["id"], "language": entry.get("language", "en"),
                      "audio": folder / entry["audio"],
                      "reference": folder / (entry.get("json") or entry["transcript"])})
    return calls


def stage(window, conversation_id: str | None = None, decisions: int = 3) -> None:
    """Open a conversation, decide its first few suggestions and select the next one."""
    from redactdesk.gui import commands

    ctx = window.ctx
    ids = ctx.project.conversation_ids()
    if not ids:
        return
    window.choose_conversation(conversation_id or ids[0])
    spans = sorted(ctx.conversation.spans, key=lambda s: s.start_word)
    for i, span in enumerate(spans[:decisions]):
        status = SpanStatus.REJECTED if i == 1 else SpanStatus.ACCEPTED
        ctx.push_command(commands.SetStatus(ctx, span, status))
    window.review_next()
    span = ctx.current_span()
    if span is not None:
        t0, t1 = ctx.conversation.span_times(span)
        window.waveform.set_range(max(0.0, t0 - 9.0), t1 + 9.0)


def render(window, out: Path, size: tuple[int, int] = (1600, 1000)) -> Path:
    import time

    from PySide6.QtWidgets import QApplication

    window.resize(*size)
    window.show()
    start = time.monotonic()  # let background jobs (panels start some, a little later) finish first
    while time.monotonic() - start < 120.0:
        QApplication.processEvents()
        if time.monotonic() - start > 1.5 and not window.ctx.jobs.jobs and not window.jobs_indicator.isVisible():
            break
        time.sleep(0.05)
    for _ in range(5):
        QApplication.processEvents()
    window.waveform.redraw()
    QApplication.processEvents()
    out.parent.mkdir(parents=True, exist_ok=True)
    if not window.grab().save(str(out)):
        raise OSError(f"could not write {out}")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="redactdesk-screenshot")
    parser.add_argument("--out", default="docs/screenshots/main-window.png")
    parser.add_argument("--project")
    parser.add_argument("--conversation")
    parser.add_argument("--size", default="1600x1000")
    parser.add_argument("--role", default="annotator")
    parser.add_argument("--decide", type=int, default=None,
                        help="decide this many suggestions first (default: 3 on sample calls, 0 on a project)")
    args = parser.parse_args(argv)
    width, height = (int(v) for v in args.size.lower().split("x"))

    from PySide6.QtCore import QSettings

    from redactdesk.gui.app import build_main_window, ensure_app
    from redactdesk.store import Project

    ensure_app()
    with tempfile.TemporaryDirectory() as tmp:
        if args.project:  # work on a copy: the picture must not change the user's project
            path = Path(tmp) / "copy.rdproj"
            with Project.open(args.project) as src:
                src.db.conn.backup(sqlite3.connect(path))
        else:
            path = sample_project(Path(tmp) / "screenshot.rdproj")
        settings = QSettings(str(Path(tmp) / "settings.ini"), QSettings.Format.IniFormat)
        project = Project.open(path, actor="demo")
        try:
            window = build_main_window(project, role=args.role, settings=settings)
            window.resize(width, height)
            window.show()
            decide = args.decide if args.decide is not None else (0 if args.project else 3)
            stage(window, args.conversation, decisions=decide)
            out = render(window, Path(args.out), (width, height))
            window.close()
        finally:
            project.close()
    print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
