"""The demo: a project built from the bundled sample calls, opened in the app or run end to end.

``redactdesk demo`` builds the project once in the user data folder (transcribing the sample
audio with the embedded ASR and running detection), then opens the app. ``--headless`` runs the
whole path instead — transcribe, detect, review (an oracle annotator replays the reference
transcripts), substitute, mask, sign off, export — and prints what happened.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from redactdesk.core.types import Role
from redactdesk.pipeline.progress import CancelFn, ProgressFn, tqdm_progress
from redactdesk.resources import samples_dir
from redactdesk.store import Project

DEMO_REVIEWER = "Demo Reviewer"
MODEL_FOR_LANGUAGE = {"en": "base", "es": "base"}  # base: 19% WER vs 24% and faster wall time here


def default_demo_dir() -> Path:
    from platformdirs import user_data_dir

    return Path(user_data_dir("redactdesk", appauthor=False)) / "demo"


def sample_calls(limit: int | None = None) -> list[dict[str, Any]]:
    """The bundled sample calls: dicts with id, language, audio and reference (absolute paths)."""
    folder = samples_dir()
    index = folder / "index.json"
    if not index.exists():
        raise FileNotFoundError(f"{index} is missing: the demo corpus is not bundled with this copy")
    data = json.loads(index.read_text(encoding="utf-8"))
    calls = []
    for entry in data["calls"]:
        calls.append({
            "id": entry["id"],
            "language": entry.get("language", "en"),
            "audio": folder / entry["audio"],
            "reference": folder / entry["json"],
        })
    return calls[:limit] if limit else calls


def build_demo_project(path: Path, *, model: str | None = None, limit: int | None = None,
                       progress: ProgressFn | None = None, cancel: CancelFn | None = None) -> dict[str, Any]:
    """Build the demo project at ``path`` (atomically: a cancelled or failed build leaves nothing).

    Audio is imported and transcribed with the embedded ASR (the multilingual
    base model (measured faster in wall time and more accurate than tiny.en on these calls) unless ``model`` is given); the reference transcript's path is kept in
    each conversation's meta for evaluation; detection adds suggestions.
    """
    from redactdesk.pipeline.detection import detect_project
    from redactdesk.pipeline.importing import import_recording
    from redactdesk.pipeline.transcription import transcribe_project

    calls = sample_calls(limit)
    building = path.with_name(path.name + ".building")
    for suffix in ("", "-wal", "-shm"):
        Path(str(building) + suffix).unlink(missing_ok=True)
    stats: dict[str, Any] = {"calls": len(calls)}
    t0 = time.perf_counter()
    project = Project.create(building, actor="demo", role=Role.ANNOTATOR)
    try:
        project.set_setting("demo", True)
        for call in calls:
            import_recording(project, call["audio"], None, conversation_id=call["id"], language=call["language"])
            project.update_conversation_meta(call["id"], meta={"reference": str(call["reference"])})
        n = len(calls)
        done_audio = 0.0
        total_audio = sum(project.load_conversation(c["id"]).duration or 0 for c in calls) or 1.0
        asr_seconds = 0.0
        for call in calls:
            conv_model = model or MODEL_FOR_LANGUAGE.get(call["language"], "base")
            duration = project.load_conversation(call["id"]).duration or 0.0

            def scaled(fraction: float, message: str, _base: float = done_audio, _d: float = duration) -> None:
                if progress is not None:
                    progress(0.85 * (_base + fraction * _d) / total_audio, message)

            outcome = transcribe_project(project, [call["id"]], model=conv_model, progress=scaled, cancel=cancel)
            asr_seconds += outcome[0].seconds
            done_audio += duration
        stats["audio_seconds"] = total_audio
        stats["asr_seconds"] = asr_seconds

        def det_progress(fraction: float, message: str) -> None:
            if progress is not None:
                progress(0.85 + 0.15 * fraction, message)

        stats["suggestions"] = sum(detect_project(project, progress=det_progress, cancel=cancel).values())
        stats["build_seconds"] = time.perf_counter() - t0
        stats["conversations"] = n
    except BaseException:
        project.close()
        for suffix in ("", "-wal", "-shm"):
            Path(str(building) + suffix).unlink(missing_ok=True)
        raise
    project.close()
    for suffix in ("-wal", "-shm"):
        Path(str(building) + suffix).unlink(missing_ok=True)
    os.replace(building, path)
    return stats


def ensure_demo_project(path: Path | None = None, *, fresh: bool = False, model: str | None = None,
                        limit: int | None = None, quiet: bool = False) -> Path:
    """The demo project's path, building it (with a progress bar) when missing or ``fresh``."""
    path = Path(path) if path else default_demo_dir() / "demo.rdproj"
    path.parent.mkdir(parents=True, exist_ok=True)
    if fresh and path.exists():
        for suffix in ("", "-wal", "-shm"):
            Path(str(path) + suffix).unlink(missing_ok=True)
    if not path.exists():
        update, close = tqdm_progress("building the demo project", disable=quiet)
        try:
            stats = build_demo_project(path, model=model, limit=limit, progress=update)
        finally:
            close()
        if not quiet:
            print(f"demo project: {stats['conversations']} calls, {stats['audio_seconds'] / 60:.1f} min of audio "
                  f"transcribed in {stats['asr_seconds']:.0f} s, {stats['suggestions']} suggestions "
                  f"({stats['build_seconds']:.0f} s in all)")
    return path


# ---------------------------------------------------------------------------- headless whole path
@dataclass
class DemoSummary:
    project: Path
    lines: list[str] = field(default_factory=list)
    release: Path | None = None
    leaks: int | None = None
    ok: bool = True

    def add(self, line: str) -> None:
        self.lines.append(line)
        print(line, flush=True)


def run_headless(path: Path, *, mask_method: str = "beep", out_root: Path | None = None) -> DemoSummary:
    """Review (oracle), substitute, mask, sign off and export a copy of the demo project.

    The built demo project stays as it was (transcribed and detected, nothing decided), so every run
    starts from the same state and the app still opens on an unreviewed project; the run's own copy is
    kept under ``runs/`` beside it (it holds originals, so it never goes into the release folder).
    """
    from redactdesk.pipeline import whole_path

    stamp = time.strftime("%Y%m%d-%H%M%S")
    with Project.open(path) as built:
        run_path = built.copy_to(path.parent / "runs" / f"run-{stamp}" / path.name)
    summary = DemoSummary(run_path)
    with Project.open(run_path, actor="demo-annotator", role=Role.ANNOTATOR) as project:
        summary.release = whole_path.run(project, summary, mask_method=mask_method,
                                         out_root=out_root or path.parent / "releases", reviewer=DEMO_REVIEWER)
    return summary


def demo_main(args: argparse.Namespace) -> tuple[int, Path | None]:
    """Build (if needed) and, with --headless, run the demo. Returns (exit code, project to open or None)."""
    path = ensure_demo_project(Path(args.project) if args.project else None, fresh=args.fresh,
                               model=args.model, limit=args.limit)
    if args.headless:
        summary = run_headless(path)
        return (0 if summary.ok else 1), None
    if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
            or os.environ.get("QT_QPA_PLATFORM") in ("offscreen", "minimal")):
        print("no display found: use `redactdesk demo --headless`, or run under xvfb-run")
        return 2, None
    return 0, path
