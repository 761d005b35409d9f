"""Commands that meet other tools: ``tasks`` (annotation tools and transcript formats out, annotations
and Presidio results in), ``config`` (project settings, audited) and ``completion`` (shell completion).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from redactdesk.cli.commands_project import CliError, open_project
from redactdesk.cli.conventions import add_json_option, input_path, output_path, print_json

TASK_FORMATS = ("labelstudio", "prodigy", "doccano", "text", "ctm", "stm", "rttm", "vtt", "srt", "textgrid", "eaf")
# one file per conversation; the others hold every chosen conversation in one file
PER_CONVERSATION = {"ctm": ".ctm", "stm": ".stm", "rttm": ".rttm", "vtt": ".vtt", "srt": ".srt",
                    "textgrid": ".TextGrid", "eaf": ".eaf"}
IMPORT_FORMATS = ("labelstudio", "prodigy", "presidio")
SHELLS = ("bash", "zsh", "tcsh")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("tasks", help="hand conversations to annotation tools and take their annotations back")
    tsub = p.add_subparsers(dest="tasks_command", metavar="ACTION")
    tsub.required = True
    t = tsub.add_parser("export", help="write the project's transcripts (ORIGINAL words: keep the file as safe "
                                       "as the project) for Label Studio, Prodigy, doccano or a speech format")
    t.add_argument("project", help="the project file")
    t.add_argument("--to", required=True, choices=TASK_FORMATS,
                   help="labelstudio/prodigy/doccano: annotation tasks with the spans not rejected; text: "
                        'JSONL {"id", "text"} (for Presidio or `detect --jsonl`); ctm/stm/rttm/vtt/srt/textgrid/eaf: '
                        "one file per conversation")
    t.add_argument("--out", required=True, metavar="PATH",
                   help="a file (a folder for the per-conversation formats); - writes to stdout")
    t.add_argument("--only", nargs="+", metavar="CONV", help="only these conversations")
    t.add_argument("--audio-prefix", default=None, metavar="URL",
                   help="Label Studio/Prodigy: put this before each audio file name (default: the audio path)")
    t.set_defaults(func=cmd_tasks_export)

    t = tsub.add_parser("import", help="add spans from Label Studio or Prodigy annotations, or Presidio results")
    t.add_argument("project", help="the project file")
    t.add_argument("file", help="the export of the tool (Label Studio JSON, Prodigy JSONL, Presidio results "
                                "JSON/JSONL); - reads stdin")
    t.add_argument("--from", dest="source", required=True, choices=IMPORT_FORMATS, help="which tool wrote FILE")
    t.add_argument("--status", choices=["suggested", "accepted"], default="suggested",
                   help="status of the imported spans (default: suggested, to be reviewed)")
    t.add_argument("--use-predictions", action="store_true",
                   help="Label Studio: also take predictions, not only annotations")
    add_json_option(t)
    t.set_defaults(func=cmd_tasks_import)

    t = tsub.add_parser("config", help="print the Label Studio labeling config for `tasks export --to labelstudio`")
    t.add_argument("--out", default="-", metavar="FILE", help="where to write it (default: - for stdout)")
    t.set_defaults(func=cmd_tasks_config)

    p = sub.add_parser("config", help="show or change a project setting (changes are audited)")
    p.add_argument("project", help="the project file")
    p.add_argument("key", nargs="?", help="a setting, e.g. mask.padding (omit to list every setting)")
    p.add_argument("value", nargs="?", help="the new value (omit to show the current one)")
    add_json_option(p)
    p.set_defaults(func=cmd_config)

    p = sub.add_parser("completion", help="print a shell completion script (e.g. redactdesk completion bash "
                                          "> /etc/bash_completion.d/redactdesk)")
    p.add_argument("shell", choices=SHELLS, help="the shell to complete in")
    p.set_defaults(func=cmd_completion)


# ---------------------------------------------------------------------------------------------- tasks
def _conversations(project, only):
    ids = list(only) if only else project.conversation_ids()
    unknown = [c for c in ids if not project.has_conversation(c)]
    if unknown:
        raise CliError("--only names a conversation that is not in the project")
    return [project.load_conversation(c) for c in ids]


def _audio(conv, prefix: str | None) -> str | None:
    if not conv.audio_path:
        return None
    return f"{prefix.rstrip('/')}/{Path(conv.audio_path).name}" if prefix else conv.audio_path


def cmd_tasks_export(args: argparse.Namespace) -> int:
    import json

    from redactdesk.formats.files import atomic_write_text

    with open_project(args) as project:
        convs = _conversations(project, args.only)
    if args.to in PER_CONVERSATION:
        if args.out == "-":
            raise CliError(f"--to {args.to} writes one file per conversation: --out must be a folder")
        folder = Path(args.out)
        for conv in convs:
            _write_speech(args.to, conv, folder / f"{conv.id}{PER_CONVERSATION[args.to]}")
        print(f"wrote {len(convs)} {args.to} file(s) to {folder}", file=sys.stderr)
    else:
        lines = _task_lines(args.to, convs, args.audio_prefix)
        text = (json.dumps(lines, ensure_ascii=False, indent=1) + "\n") if args.to == "labelstudio" else \
            "".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines)
        with output_path(args.out) as out:
            atomic_write_text(out, text)
        print(f"wrote {len(lines)} {args.to} task(s)", file=sys.stderr)
    print("note: the file(s) hold the original transcripts; keep them as safe as the project file",
          file=sys.stderr)
    return 0


def _task_lines(fmt: str, convs, prefix: str | None) -> list:
    from redactdesk.formats.doccano import doccano_records
    from redactdesk.formats.interchange import whole_text
    from redactdesk.formats.labelstudio import labelstudio_task
    from redactdesk.formats.prodigy import prodigy_task

    if fmt == "labelstudio":
        return [labelstudio_task(c, _audio(c, prefix)) for c in convs]
    if fmt == "prodigy":
        return [prodigy_task(c, _audio(c, prefix)) for c in convs]
    if fmt == "doccano":
        return [r for c in convs for r in doccano_records(c)]
    return [{"id": c.id, "text": whole_text(c)[0]} for c in convs]


def _write_speech(fmt: str, conv, path: Path) -> None:
    from redactdesk.formats import write_ctm, write_eaf, write_srt, write_textgrid, write_vtt
    from redactdesk.formats.rttm import write_rttm
    from redactdesk.formats.stm import write_stm

    path.parent.mkdir(parents=True, exist_ok=True)
    if fmt == "ctm":
        write_ctm(conv.words, path, file_id=conv.id)
    elif fmt == "stm":
        write_stm(conv, path)
    elif fmt == "rttm":
        write_rttm(conv, path)
    elif fmt == "vtt":
        write_vtt(conv.words, path)
    elif fmt == "srt":
        write_srt(conv.words, path)
    elif fmt == "textgrid":
        write_textgrid(conv.words, path, duration=conv.duration)
    else:
        write_eaf(conv.words, path, audio_rel=conv.audio_path)


def cmd_tasks_import(args: argparse.Namespace) -> int:
    from redactdesk.core.types import SpanStatus
    from redactdesk.formats.errors import ImportFailed
    from redactdesk.resources import load_taxonomy

    status = SpanStatus(args.status)
    categories = load_taxonomy().ids()
    with open_project(args) as project, input_path(args.file) as path:
        convs = {c.id: c for c in project.iter_conversations()}
        unmapped = 0
        if args.source == "labelstudio":
            from redactdesk.formats.labelstudio import read_labelstudio, spans_from_labelstudio

            found, problems = spans_from_labelstudio(read_labelstudio(str(path)), convs, categories, status,
                                                     use_predictions=args.use_predictions)
        elif args.source == "prodigy":
            from redactdesk.formats.prodigy import read_prodigy, spans_from_prodigy

            found, problems = spans_from_prodigy(read_prodigy(str(path)), convs, categories, status)
        else:
            from redactdesk.formats.presidio import read_presidio, spans_from_presidio

            found, problems, unmapped = spans_from_presidio(read_presidio(str(path)), convs, categories, status)
        if problems:  # all or nothing: a file that does not fit the project changes nothing
            raise ImportFailed(None if args.file == "-" else path, problems)
        added = skipped = accepted = 0
        action = f"import:{args.source}"
        with project.transaction():
            for cid, spans in found.items():
                have = {(s.start_word, s.end_word, s.category): s for s in convs[cid].spans}
                for span in spans:
                    key = (span.start_word, span.end_word, span.category)
                    old = have.get(key)
                    if old is None:
                        project.add_span(cid, span, action=action)
                        have[key] = span
                        added += 1
                    elif status == SpanStatus.ACCEPTED and old.status == SpanStatus.SUGGESTED and old.id is not None:
                        project.update_span(old.id, action=action, status=SpanStatus.ACCEPTED)
                        old.status = SpanStatus.ACCEPTED
                        accepted += 1  # the tool's annotators accepted an open suggestion
                    else:
                        skipped += 1
    summary = {"added": added, "accepted_suggestions": accepted, "already_present": skipped,
               "conversations": len(found), "unmapped_entities": unmapped, "status": status.value}
    if args.json:
        print_json(summary)
    else:
        print(f"imported {added} span(s) as {status.value} into {len(found)} conversation(s); "
              f"{accepted} open suggestion(s) accepted; {skipped} already present")
        if unmapped:
            print(f"  warning: {unmapped} result(s) named an entity type with no category of the taxonomy "
                  "and were left out")
    return 0


def cmd_tasks_config(args: argparse.Namespace) -> int:
    from redactdesk.formats.files import atomic_write_text
    from redactdesk.formats.labelstudio import labeling_config
    from redactdesk.resources import load_taxonomy

    text = labeling_config([(c.id, c.colour) for c in load_taxonomy()])
    with output_path(args.out, ".xml") as out:
        atomic_write_text(out, text)
    return 0


# ---------------------------------------------------------------------------------------------- config
def cmd_config(args: argparse.Namespace) -> int:
    from redactdesk.pipeline.project_config import SettingError, describe, lookup, set_setting

    try:
        if args.key is not None:
            lookup(args.key)
        with open_project(args) as project:
            if args.value is not None:
                old, new = set_setting(project, args.key, args.value)
                result = {"key": args.key, "old": old, "value": new, "changed": old != new}
                if args.json:
                    print_json(result)
                else:
                    print(f"{args.key} = {new}" + (f" (was {old})" if old != new else " (unchanged)"))
                    if old != new and lookup(args.key).signed:
                        print("  this setting is covered by the sign-off: a reviewer must sign off again")
                return 0
            rows = describe(project)
    except SettingError as exc:
        raise CliError(str(exc)) from None
    if args.key is not None:
        rows = [r for r in rows if r["key"] == args.key]
    if args.json:
        print_json(rows if args.key is None else rows[0])
        return 0
    for r in rows:
        mark = "" if r["is_default"] else " *"
        print(f"{r['key']:22} {r['value']!s:10}{mark:2} {'signed' if r['signed'] else '      '}  {r['help']}")
    if args.key is None:
        print("(* set in this project; signed: part of the sign-off)")
    return 0


# ---------------------------------------------------------------------------------------------- completion
def cmd_completion(args: argparse.Namespace) -> int:
    try:
        import shtab
    except ImportError:
        raise CliError("shell completion needs the shtab package (pip install shtab)") from None
    from redactdesk.cli.main import build_parser

    print(shtab.complete(build_parser(), shell=args.shell))
    return 0
