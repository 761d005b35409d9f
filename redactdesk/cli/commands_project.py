"""Project commands: init, import, list, show, gui, demo."""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Iterator
from pathlib import Path

from redactdesk.cli.conventions import add_json_option, add_lang_option, print_json
from redactdesk.core.types import Role, SpanStatus

# named here, not imported: importing redactdesk.formats loads numpy and soundfile (≈ 0.2 s) on every
# command's start; cmd_import checks a given name against redactdesk.formats.FORMATS (tested equal)
TRANSCRIPT_FORMATS = ("whisperx", "conversation", "words", "ctm", "stm", "textgrid", "eaf", "vtt", "srt")


class CliError(Exception):
    """A problem with the command line the user can fix."""


def open_project(args: argparse.Namespace, path: str | None = None):
    from redactdesk.store import Project

    role = Role(args.role) if getattr(args, "role", None) else Role.ANNOTATOR
    return Project.open(path or args.project, actor=getattr(args, "user", None), role=role)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("init", help="create an empty project file")
    p.add_argument("project", help="path of the new project file (e.g. calls.rdproj)")
    add_lang_option(p, ["en", "es", "detect"], "en", "default language of the recordings")
    p.set_defaults(func=cmd_init)

    p = sub.add_parser("import", help="add recordings (and transcripts) to a project")
    p.add_argument("project", help="the project file")
    p.add_argument("audio", nargs="+", help="audio files (WAV/FLAC/OGG/MP3)")
    p.add_argument("--transcript", help="transcript for a single audio file (whisperx JSON, project JSON, CTM, STM, "
                                        "TextGrid, EAF, WebVTT, SRT; - reads standard input); default: a file "
                                        "beside the audio with its stem")
    p.add_argument("--transcript-format", choices=TRANSCRIPT_FORMATS, default=None, metavar="FORMAT",
                   help=f"the transcript's format when its name or content does not say "
                        f"({', '.join(TRANSCRIPT_FORMATS)}); "
                        "needed for CTM, STM and SRT on standard input")
    p.add_argument("--id", help="conversation id (single audio file only)")
    add_lang_option(p, ["en", "es"], None, "language of the recording(s) (default: the transcript's, else en)")
    p.add_argument("--span-tier", metavar="NAME",
                   help="TextGrid/EAF only: read the tier NAME as personal-data items (labels name a category, "
                        "e.g. PERSON or 'PERSON [PERSON_1]'); tiers named like PII or items are never speakers")
    p.add_argument("--span-status", choices=["suggested", "accepted"], default=None,
                   help="status of spans read from the transcript (default: suggested for --span-tier, "
                        "as stored for project JSON)")
    p.set_defaults(func=cmd_import)

    p = sub.add_parser("list", help="list the conversations of a project")
    p.add_argument("project", help="the project file")
    add_json_option(p)
    p.set_defaults(func=cmd_list)

    p = sub.add_parser("show", help="show a project summary, or one conversation's transcript")
    p.add_argument("project", help="the project file")
    p.add_argument("conversation", nargs="?", help="a conversation id (omit for the project summary)")
    p.add_argument("--reveal", action="store_true",
                   help="print original text of accepted spans (default: shown as [CATEGORY])")
    p.add_argument("--audit", type=int, metavar="N", help="also print the last N audit-log entries")
    add_json_option(p)
    p.set_defaults(func=cmd_show)

    p = sub.add_parser("gui", help="open a project in the desktop app")
    p.add_argument("project", help="the project file")
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
        project.set_setting("language", args.lang)
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
    if args.transcript == "-":
        with _stdin_transcript(args.transcript_format) as tmp:
            args.transcript, args.transcript_name = str(tmp), "stdin"
            return cmd_import(args)
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
                                           language=args.lang, span_tier=args.span_tier,
                                           transcript_format=args.transcript_format if args.transcript else None,
                                           transcript_name=getattr(args, "transcript_name", None),
                                           keep_spans_as=SpanStatus(args.span_status) if args.span_status
                                           else None)
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


_SUFFIX_OF = {"ctm": ".ctm", "stm": ".stm", "srt": ".srt", "vtt": ".vtt", "textgrid": ".TextGrid", "eaf": ".eaf",
              "whisperx": ".whisperx.json", "conversation": ".json", "words": ".json"}


@contextlib.contextmanager
def _stdin_transcript(fmt: str | None) -> Iterator[Path]:
    """Standard input in a private temporary file (removed afterwards), read at most to the transcript
    size limit; named by ``fmt`` so the readers recognise it (without one, by content)."""
    import tempfile

    from redactdesk.formats.limits import MAX_TRANSCRIPT_BYTES

    data = sys.stdin.buffer.read(MAX_TRANSCRIPT_BYTES + 1)
    if len(data) > MAX_TRANSCRIPT_BYTES:
        raise CliError(f"the transcript on standard input is larger than {MAX_TRANSCRIPT_BYTES // 2**20} MB")
    if not data.strip():
        raise CliError("standard input holds no transcript")
    with tempfile.TemporaryDirectory(prefix="redactdesk-stdin-") as folder:
        path = Path(folder) / ("stdin" + _SUFFIX_OF.get(fmt or "", ""))
        path.write_bytes(data)
        yield path


def _fmt_duration(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    m, s = divmod(int(round(seconds)), 60)
    return f"{m}:{s:02d}"


def cmd_list(args: argparse.Namespace) -> int:
    from redactdesk.formats.errors import printable

    with open_project(args) as project:
        rows = project.list_conversations()
    if args.json:
        print_json([{"id": r.id, "status": r.status, "duration": r.duration, "language": r.language,
                     "words": r.n_words, "suggested": r.suggested, "accepted": r.accepted, "rejected": r.rejected}
                    for r in rows])
        return 0
    if not rows:
        print("no conversations yet (add some with: redactdesk import PROJECT AUDIO...)")
        return 0
    print(f"{'conversation':24} {'status':11} {'length':>7} {'lang':4} {'words':>6} {'sugg':>5} {'acc':>5} {'rej':>5}")
    for r in rows:  # ids stored before ids were checked may hold control characters: escape them
        print(f"{printable(r.id)[:24]:24} {r.status:11} {_fmt_duration(r.duration):>7} "
              f"{printable(r.language)[:4]:4} {r.n_words:>6} {r.suggested:>5} {r.accepted:>5} {r.rejected:>5}")
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    if args.json:
        return _show_json(args)
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


def _show_json(args: argparse.Namespace) -> int:
    """``show --json``: the summary, or a conversation's turns with accepted items as [CATEGORY]
    unless ``--reveal`` (the same rule as the text view)."""
    with open_project(args) as project:
        if not args.conversation:
            rows = project.list_conversations()
            sign = project.latest_signoff()
            out: dict = {"project": str(args.project), "schema": project.schema_version, "conversations": len(rows),
                         "audio_seconds": sum(r.duration or 0 for r in rows),
                         "spans": {k: sum(getattr(r, k) for r in rows) for k in ("suggested", "accepted", "rejected")},
                         "signoff": None if not sign else {"reviewer": sign["reviewer"], "at": sign["at"]}}
        else:
            conv = project.load_conversation(args.conversation)
            lines = render_transcript(conv, reveal=args.reveal).split("\n")[1:]
            out = {"id": conv.id, "language": conv.language, "duration": conv.duration, "status": conv.status.value,
                   "counts": conv.counts(),
                   "turns": [{"speaker": t.speaker, "start": conv.words[t.start_word].start if t.end_word > t.start_word
                              else 0.0, "text": line.split(": ", 1)[1] if ": " in line else ""}
                             for t, line in zip(conv.turns, lines, strict=False)]}
        if args.audit:
            out["audit"] = [{"at": d.at, "actor": d.actor, "role": d.role.value, "action": d.action,
                             "conversation": d.conversation_id, "span": d.span_id}
                            for d in project.audit_log(args.conversation, limit=args.audit)]
    print_json(out)
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
