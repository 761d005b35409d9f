"""The demo: a project built from the bundled sample calls, opened in the app or run end to end.

``redactdesk demo`` creates the project once in the user data folder with the sample audio imported
(seconds) and opens the app at once; the app transcribes (embedded Whisper) and detects the calls in
the background on the project's executor (:func:`prepare_pending_calls`), showing each call as soon as
it is committed, so the first is ready to review within seconds and the rest follow.
``--headless`` prepares them all first, then runs the whole path — review (an oracle annotator
replays the reference transcripts), substitute, mask, sign off, export — and prints what happened.
Preparation is resumable: a conversation finished before a crash or a closed window is kept.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from redactdesk.core.types import ConversationStatus, Role
from redactdesk.pipeline.progress import CancelFn, ProgressFn, part, tqdm_progress
from redactdesk.resources import resource, samples_dir
from redactdesk.store import Project

DEMO_REVIEWER = "Demo Reviewer"


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


def build_demo_project(path: Path, *, limit: int | None = None) -> dict[str, Any]:
    """Create the demo project at ``path`` with the sample calls' audio imported (seconds; atomic).

    Nothing is transcribed yet: :func:`prepare_demo_project` (headless) or the app (in the
    background, one call after another) does that. Each conversation keeps its reference
    transcript's path in its meta for evaluation and the oracle annotator.
    """
    from redactdesk.pipeline.importing import import_recording

    calls = sample_calls(limit)
    building = path.with_name(path.name + ".building")
    for suffix in ("", "-wal", "-shm"):
        Path(str(building) + suffix).unlink(missing_ok=True)
    project = Project.create(building, actor="demo", role=Role.ANNOTATOR)
    try:
        project.set_setting("demo", True)
        project.set_setting("demo.samples", samples_fingerprint())
        for call in calls:
            import_recording(project, call["audio"], None, conversation_id=call["id"], language=call["language"])
            project.update_conversation_meta(call["id"], meta={"reference": str(call["reference"])})
    except BaseException:
        project.close()
        for suffix in ("", "-wal", "-shm"):
            Path(str(building) + suffix).unlink(missing_ok=True)
        raise
    project.close()
    for suffix in ("-wal", "-shm"):
        Path(str(building) + suffix).unlink(missing_ok=True)
    os.replace(building, path)
    return {"conversations": len(calls)}


def samples_fingerprint() -> str:
    """Changes whenever the bundled sample calls do (their index, and each file's name and size)."""
    import hashlib

    folder = samples_dir()
    h = hashlib.sha256((folder / "index.json").read_bytes())
    for f in sorted(folder.iterdir()):
        h.update(f"{f.name}:{f.stat().st_size}".encode())
    return h.hexdigest()[:16]


def detector_fingerprint() -> str:
    """Changes whenever detection may: the detect package's code, its lists and the bundled models
    (about 35 MB read in 40 ms)."""
    import hashlib

    import redactdesk.detect as detect_package

    h = hashlib.sha256()
    for root in (Path(detect_package.__file__).parent, resource("detect"), resource("models")):
        for f in sorted(p for p in root.rglob("*") if p.is_file() and p.suffix != ".pyc"):
            h.update(f.relative_to(root).as_posix().encode())
            h.update(f.read_bytes())
    return h.hexdigest()[:16]


def detect_again_if_detector_changed(project: Project, *, quiet: bool = False) -> list[str]:
    """Mark the demo's detected calls for detecting again when the detector changed since they
    were detected (an update): the built demo project is kept between runs, and its suggestions
    (and the headless demo's precision and recall) would otherwise stay the old detector's. They go
    back to "transcribed", so the preparation that follows — the headless one, or the app's in the
    background — detects them again (not transcribe: that is kept). Nothing is decided in the built
    project, so nothing is lost. The calls marked."""
    now = detector_fingerprint()
    if project.setting("demo.detector") == now:
        return []
    marked = [r.id for r in project.list_conversations() if r.n_words and r.status not in (
        ConversationStatus.NEW.value, ConversationStatus.TRANSCRIBED.value)]
    for cid in marked:
        project.set_status(cid, ConversationStatus.TRANSCRIBED)
    project.set_setting("demo.detector", now)
    if marked and not quiet:
        print("the detector changed since the demo project was detected: its calls are detected again")
    return marked


def _built_from(path: Path) -> str | None:
    try:
        with Project.open(path) as project:
            return project.setting("demo.samples")
    except Exception:  # noqa: BLE001 - unreadable or foreign: rebuild it
        return None


def pending_conversations(project: Project) -> tuple[list[str], list[str]]:
    """(to transcribe, to detect): conversations with audio but no words, and those without suggestions yet."""
    rows = project.list_conversations()
    to_transcribe = [r.id for r in rows if r.status == ConversationStatus.NEW.value and r.audio_path]
    to_detect = [r.id for r in rows if r.status in (ConversationStatus.NEW.value, ConversationStatus.TRANSCRIBED.value)
                 and (r.audio_path or r.n_words)]
    return to_transcribe, to_detect


def prepare_conversation(project: Project, conversation_id: str, *, model: str | None = None,
                         progress: ProgressFn | None = None, cancel: CancelFn | None = None) -> dict[str, Any]:
    """Transcribe (if it has no words yet) and detect one conversation; each step is its own transaction."""
    from redactdesk.pipeline.detection import detect_project
    from redactdesk.pipeline.transcription import transcribe_project

    conv = project.load_conversation(conversation_id)
    out: dict[str, Any] = {"asr_seconds": 0.0, "audio_seconds": conv.duration or 0.0}
    if conv.status == ConversationStatus.NEW and conv.audio_path:
        outcome = transcribe_project(project, [conversation_id], model=model,
                                     progress=part(progress, 0.0, 0.9), cancel=cancel)
        out["asr_seconds"] = outcome[0].seconds
    out["suggestions"] = detect_project(project, [conversation_id], cancel=cancel).get(conversation_id, 0)
    if progress is not None:
        progress(1.0, f"{conversation_id} ready")
    return out


def prepare_pending_calls(project: Project, *, executor: Any = None, model: str | None = None,
                          progress: ProgressFn | None = None, cancel: CancelFn | None = None,
                          on_ready: Callable[[str, int], None] | None = None) -> dict[str, Any]:
    """Transcribe and detect every call not done yet on ``executor`` (the app's demo preparation).

    Calls that only need detecting come first (ready at once); the rest are transcribed on the
    executor — on a cluster several at once, the longest first — and each is detected here as soon
    as its words are committed. ``on_ready(conversation_id, suggestions)`` runs after each call's
    detection is committed, so a window can show it while the others are still being prepared.
    Cancel stops the run; finished calls are kept and the rest are prepared next time.
    """
    from redactdesk.pipeline.detection import detect_project
    from redactdesk.pipeline.transcription import transcribe_project

    to_transcribe, to_detect = pending_conversations(project)
    stats: dict[str, Any] = {"conversations": len(to_detect), "asr_seconds": 0.0, "suggestions": 0}

    def detect_one(cid: str) -> None:
        found = detect_project(project, [cid], cancel=cancel).get(cid, 0)
        stats["suggestions"] += found
        if on_ready is not None:
            on_ready(cid, found)

    for cid in [c for c in to_detect if c not in set(to_transcribe)]:
        detect_one(cid)

    def committed(outcome: Any) -> None:
        stats["asr_seconds"] += outcome.seconds
        detect_one(outcome.conversation_id)

    if to_transcribe:
        transcribe_project(project, to_transcribe, model=model, executor=executor, progress=progress,
                           cancel=cancel, on_commit=committed)
    elif progress is not None:
        progress(1.0, "all calls ready")
    return stats


def prepare_demo_project(project: Project, *, model: str | None = None, progress: ProgressFn | None = None,
                         cancel: CancelFn | None = None) -> dict[str, Any]:
    """Transcribe and detect every conversation not done yet (resumable: finished ones are kept)."""
    _, ids = pending_conversations(project)
    durations = {r.id: r.duration or 1.0 for r in project.list_conversations() if r.id in ids}
    total = sum(durations.values()) or 1.0
    stats: dict[str, Any] = {"conversations": len(ids), "audio_seconds": 0.0, "asr_seconds": 0.0, "suggestions": 0}
    t0 = time.perf_counter()
    done = 0.0
    for cid in ids:
        step = part(progress, done, durations[cid], total=total)
        one = prepare_conversation(project, cid, model=model, progress=step, cancel=cancel)
        for key in ("audio_seconds", "asr_seconds", "suggestions"):
            stats[key] += one[key]
        done += durations[cid]
    stats["seconds"] = time.perf_counter() - t0
    return stats


def ensure_demo_project(path: Path | None = None, *, fresh: bool = False, prepare: bool = True,
                        model: str | None = None, limit: int | None = None, quiet: bool = False) -> Path:
    """The demo project's path, created when missing or ``fresh``.

    ``prepare``: also transcribe and detect what is not done yet, with a progress bar (headless);
    the app instead opens at once and prepares the calls in the background.
    """
    path = Path(path) if path else default_demo_dir() / "demo.rdproj"
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.exists() and not fresh and _built_from(path) != samples_fingerprint():
        fresh = True  # the bundled calls changed since it was built (an update): their times would not fit
        if not quiet:
            print("the bundled sample calls changed since the demo project was built: building it again")
    if fresh and path.exists():
        for suffix in ("", "-wal", "-shm"):
            Path(str(path) + suffix).unlink(missing_ok=True)
    if not path.exists():
        build_demo_project(path, limit=limit)
    with Project.open(path, actor="demo", role=Role.ANNOTATOR) as project:
        detect_again_if_detector_changed(project, quiet=quiet)
        if prepare and pending_conversations(project)[1]:
            update, close = tqdm_progress("preparing the demo project", disable=quiet)
            try:
                stats = prepare_demo_project(project, model=model, progress=update)
            finally:
                close()
            if not quiet:
                print(f"demo project: {stats['conversations']} calls, {stats['audio_seconds'] / 60:.1f} min of "
                      f"audio transcribed in {stats['asr_seconds']:.0f} s, {stats['suggestions']} suggestions "
                      f"({stats['seconds']:.0f} s in all)")
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


def run_headless(path: Path, *, mask_method: str = "beep", out_root: Path | None = None,
                 quiet: bool = False) -> DemoSummary:
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
                                         out_root=out_root or path.parent / "releases", reviewer=DEMO_REVIEWER,
                                         quiet=quiet)
    return summary


def demo_main(args: argparse.Namespace) -> tuple[int, Path | None]:
    """Build (if needed) and, with --headless, run the demo. Returns (exit code, project to open or None)."""
    path = ensure_demo_project(Path(args.project) if args.project else None, fresh=args.fresh,
                               prepare=bool(args.headless), model=args.model, limit=args.limit)
    if args.headless:
        summary = run_headless(path)
        return (0 if summary.ok else 1), None
    if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
            or os.environ.get("QT_QPA_PLATFORM") in ("offscreen", "minimal")):
        print("no display found: use `redactdesk demo --headless`, or run under xvfb-run")
        return 2, None
    return 0, path
