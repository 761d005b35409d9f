"""Project commands: init, import, list, show, gui, demo."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from redactdesk.core.types import Role, SpanStatus


class CliError(Exception):
    """A problem with the command line the user can fix."""


def open_project(args: argparse.Namespace, path: str | None = None):
    from redactdesk.store import Project

    role = Role(args.role) if getattr(args, "role", None) else Role.ANNOTATOR
    return Project.open(path or args.project, actor=getattr(args, "user", None), role=role)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("init", help="create an empty project file")
    p.add_argument("project", help="path of the new project file (e.g. calls.rdproj)")
    p.add_argument("--language", default="en", choices=["en", "es", "detect"], help="default language")
    p.set_defaults(func=cmd_init)

    p = sub.add_parser("import", help="add recordings (and transcripts) to a project")
    p.add_argument("project")
    p.add_argument("audio", nargs="+", help="audio files (WAV/FLAC/OGG/MP3)")
    p.add_argument("--transcript", help="transcript for a single audio file (whisperx JSON, project JSON, CTM, "
                                        "TextGrid, EAF, WebVTT, SRT); default: a file beside the audio with its stem")
    p.add_argument("--id", help="conversation id (single audio file only)")
    p.add_argument("--language", choices=["en", "es"], help="language of the recording(s)")
    p.set_defaults(func=cmd_import)

    p = sub.add_parser("list", help="list the conversations of a project")
    p.add_argument("project")
    p.set_defaults(func=cmd_list)

    p = sub.add_parser("show", help="show a project summary, or one conversation's transcript")
    p.add_argument("project")
    p.add_argument("conversation", nargs="?")
    p.add_argument("--reveal", action="store_true",
                   help="print original text of accepted spans (default: shown as [CATEGORY])")
    p.add_argument("--audit", type=int, metavar="N", help="also print the last N audit-log entries")
    p.set_defaults(func=cmd_show)

    p = sub.add_parser("gui", help="open a project in the desktop app")
    p.add_argument("project")
    p.set_defaults(func=cmd_gui)

    p = sub.add_parser("demo", help="build the demo project from the bundled sample calls and open it")
    p.add_argument("--headless", action="store_true",
                   help="no window: run the whole pipeline on the demo and print a summary")
    p.add_argument("--fresh", action="store_true", help="rebuild the demo project from scratch")
    p.add_argument("--project", help="where the demo project goes (default: your user data folder)")
    p.add_argument("--model", default=None, help="ASR model for the demo (default: base, for English and Spanish)")
    p.add_argument("--limit", type=int, default=None, help="use only the first N sample calls")
    p.set_defaults(func=cmd_demo)


def cmd_init(args: argparse.Namespace) -> int:
    from redactdesk.store import Project

    with Project.create(args.project) as project:
        project.set_setting("language", args.language)
    print(f"created {args.project}")
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    from redactdesk.core.ids import ID_RULE, IdError, is_safe_id
    from redactdesk.formats.errors import ImportFailed, printable
    from redactdesk.pipeline.importing import find_sidecar_transcript, import_recording
    from redactdesk.pipeline.progress import tqdm_progress
    from redactdesk.store.errors import ProjectError

    audio = [Path(a) for a in args.audio]
    if (args.transcript or args.id) and len(audio) != 1:
        raise CliError("--transcript and --id need exactly one audio file")
    if args.id is not None and not is_safe_id(args.id):
        raise CliError(f"--id: {ID_RULE}")  # never echo the id: it may be a path or hold control characters
    with open_project(args) as project:
        update, close = tqdm_progress("import", total=len(audio), disable=len(audio) < 2)
        failed = 0
        try:
            for i, path in enumerate(audio):
                name = printable(path.name)
                update(i / len(audio), name)
                try:
                    transcript = args.transcript or find_sidecar_transcript(path)
                except OSError:  # e.g. a sidecar name too long for the file system: there is none
                    transcript = None
                try:
                    res = import_recording(project, path, transcript, conversation_id=args.id,
                                           language=args.language)
                except (ImportFailed, IdError, ProjectError) as exc:
                    # report and go on with the next file; nothing half-written (one transaction each)
                    failed += 1
                    print(f"not imported: {name}\n{exc}", file=sys.stderr)
                    continue
                msg = f"imported {res.conversation_id}: {res.words} words"
                if res.unaligned:
                    msg += f" ({res.unaligned} with estimated times)"
                if res.spans:
                    msg += f", {res.spans} spans"
                print(msg)
                for w in res.warnings:
                    print(f"  warning: {w}")
            update(1.0, "done")
        finally:
            close()
    return 1 if failed else 0


def _fmt_duration(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    m, s = divmod(int(round(seconds)), 60)
    return f"{m}:{s:02d}"


def cmd_list(args: argparse.Namespace) -> int:
    from redactdesk.formats.errors import printable

    with open_project(args) as project:
        rows = project.list_conversations()
    if not rows:
        print("no conversations yet (add some with: redactdesk import PROJECT AUDIO...)")
        return 0
    print(f"{'conversation':24} {'status':11} {'length':>7} {'lang':4} {'words':>6} {'sugg':>5} {'acc':>5} {'rej':>5}")
    for r in rows:  # ids stored before ids were checked may hold control characters: escape them
        print(f"{printable(r.id)[:24]:24} {r.status:11} {_fmt_duration(r.duration):>7} "
              f"{printable(r.language)[:4]:4} {r.n_words:>6} {r.suggested:>5} {r.accepted:>5} {r.rejected:>5}")
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    with open_project(args) as project:
        if not args.conversation:
            rows = project.list_conversations()
            total = sum(r.duration or 0 for r in rows)
            print(f"project {args.project}: schema {project.schema_version}, {len(rows)} conversations, "
                  f"{_fmt_duration(total)} of audio")
            for key in ("suggested", "accepted", "rejected"):
                print(f"  {key:9} spans: {sum(getattr(r, key) for r in rows)}")
            sign = project.latest_signoff()
            print(f"  sign-off: {'none' if not sign else sign['reviewer'] + ' at ' + sign['at']}")
        else:
            conv = project.load_conversation(args.conversation)
            print(render_transcript(conv, reveal=args.reveal))
        if args.audit:
            for d in project.audit_log(args.conversation, limit=args.audit):
                print(f"{d.at} {d.actor} ({d.role.value}) {d.action} {d.conversation_id or ''} "
                      f"{'' if d.span_id is None else 'span ' + str(d.span_id)}")
    return 0


def render_transcript(conv, *, reveal: bool = False) -> str:
    """Turns with times; accepted spans shown as [CATEGORY] unless ``reveal``, suggestions marked {..}."""
    spans_at: dict[int, object] = {}
    for span in conv.spans:
        if span.status != SpanStatus.REJECTED:
            spans_at.setdefault(span.start_word, span)
    lines = [f"{conv.id}  ({conv.language}, {_fmt_duration(conv.duration)}, status {conv.status.value})"]
    for turn in conv.turns:
        out: list[str] = []
        i = turn.start_word
        while i < turn.end_word:
            span = spans_at.get(i)
            if span is None:
                w = conv.words[i]
                out.append(w.text + ("" if w.aligned else "~"))
                i += 1
                continue
            end = min(span.end_word, turn.end_word)
            if span.status == SpanStatus.ACCEPTED and not reveal:
                out.append(f"[{span.category}]")
            else:
                out.append("{" + conv.text(i, end) + f"|{span.category}}}")
            i = end
        start = conv.words[turn.start_word].start if turn.end_word > turn.start_word else 0.0
        lines.append(f"[{_fmt_duration(start)}] {turn.speaker}: {' '.join(out)}")
    return "\n".join(lines)


def cmd_gui(args: argparse.Namespace) -> int:
    if not Path(args.project).exists():
        raise CliError(f"{args.project}: no such project (create one with: redactdesk init {args.project})")
    from redactdesk.gui.app import run

    return run(args.project, role=args.role)


def cmd_demo(args: argparse.Namespace) -> int:
    from redactdesk.pipeline.demo import demo_main

    code, to_open = demo_main(args)
    if to_open is None:
        return code
    from redactdesk.gui.app import run

    return run(str(to_open), role=args.role)
