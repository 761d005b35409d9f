"""Review decisions from the command line: the release pre-check, one decision, marking reviewed.

The app is where people review; these commands let a reviewer on a server (or a script) resolve
what the release gate reports without it: ``precheck`` lists what the export's re-detection would
stop on, ``decide`` records one decision over a word range (written to the audit log like the
app's), ``mark-reviewed`` says a conversation has been read in full.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from redactdesk.cli.commands_project import CliError, open_project
from redactdesk.core.types import Span, SpanStatus


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("precheck", help="list what detection finds in the revised text that nobody decided about")
    p.add_argument("project", help="the project file")
    p.add_argument("--only", nargs="+", metavar="CONV", help="only these conversations")
    p.set_defaults(func=cmd_precheck)

    p = sub.add_parser("decide", help="record one decision over words START..END (end exclusive) of a conversation")
    p.add_argument("project", help="the project file")
    p.add_argument("conversation", help="the conversation id")
    p.add_argument("start", type=int, help="first word (0-based)")
    p.add_argument("end", type=int, help="one past the last word")
    what = p.add_mutually_exclusive_group(required=True)
    what.add_argument("--accept", metavar="CATEGORY", help="these words are personal data of CATEGORY")
    what.add_argument("--reject", action="store_true", help="these words are not personal data")
    p.set_defaults(func=cmd_decide)

    p = sub.add_parser("mark-reviewed", help="say a conversation was read in full and every suggestion decided")
    p.add_argument("project", help="the project file")
    p.add_argument("conversation", nargs="+", help="conversation ids")
    p.set_defaults(func=cmd_mark_reviewed)


def cmd_precheck(args: argparse.Namespace) -> int:
    from redactdesk.pipeline.release_recheck import precheck_project

    with open_project(args) as project:
        findings = precheck_project(project, args.only)
    blocking = [f for f in findings if not f.allow_listed]
    print(f"{'FAIL' if blocking else 'PASS'}: {len(blocking)} item(s) nobody decided about"
          + (f", {len(findings) - len(blocking)} on the allow list" if len(findings) > len(blocking) else ""))
    for f in findings:
        print(f"  {f.describe()}{' (allow list)' if f.allow_listed else ''}")
    if blocking:
        print("resolve each with: redactdesk decide PROJECT CONV START END --accept CATEGORY | --reject")
    return 1 if blocking else 0


def cmd_decide(args: argparse.Namespace) -> int:
    from redactdesk.resources import load_taxonomy

    with open_project(args) as project:
        if not project.has_conversation(args.conversation):
            raise CliError(f"no conversation {args.conversation!r} in the project")
        n = project.word_count(args.conversation)
        if not 0 <= args.start < args.end <= n:
            raise CliError(f"words {args.start}-{args.end} do not lie inside the conversation ({n} words)")
        if args.accept:
            category = args.accept.upper()
            if category not in load_taxonomy():
                raise CliError("unknown category; see resources/taxonomy.yaml for the list")
        spans = project.spans(args.conversation)
        same = [s for s in spans if (s.start_word, s.end_word) == (args.start, args.end)]
        status = SpanStatus.ACCEPTED if args.accept else SpanStatus.REJECTED
        if same:  # spans over exactly these words: the decision changes them (never a second, contradicting one)
            wanted = {"status": status.value, **({"category": category} if args.accept else {})}
            if args.reject:  # every span over these words (an older version could leave an accepted twin)
                todo = [s for s in same if s.status != SpanStatus.REJECTED]
            elif any(s.status == status and s.category == category for s in same):
                todo = []
            else:
                todo = [next((s for s in same if s.status == status), same[0])]
            if not todo:
                print(f"{args.conversation}: words {args.start}-{args.end} already "
                      f"{'accepted as ' + category if args.accept else 'rejected'}")
                return 0
            with project.transaction():
                for s in todo:
                    action = "reject" if args.reject else "recategorise" if s.status == status else "accept"
                    project.update_span(s.id, action=action, **wanted)
                span = project.span(todo[0].id)[1]
                _settle_overlaps(project, args, span)
            span_id = todo[0].id
        else:
            if args.accept:
                span = Span(args.start, args.end, category, status=status, sources=("annotator",),
                            reason="decided on the command line")
            else:  # keep the category detection proposed there, so it is not suggested again
                near = [s for s in spans if s.overlaps(Span(args.start, args.end, "PERSON"))]
                span = Span(args.start, args.end, near[0].category if near else "PERSON", status=status,
                            sources=("annotator",), reason="not personal data (command line)")
            with project.transaction():
                _settle_overlaps(project, args, span)
                span_id = project.add_span(args.conversation, span, action="accept" if args.accept else "reject")
        kept = [s for s in project.spans(args.conversation, SpanStatus.ACCEPTED)
                if args.reject and s.id != span_id and s.overlaps(span)]
        for s in kept:  # fail closed: words outside this decision may still be personal data
            print(f"note: accepted span {s.id} ({s.category}, words {s.start_word}-{s.end_word}) overlaps these words "
                  "and stays accepted; decide over its exact words to change it", file=sys.stderr)
    print(f"{args.conversation}: words {args.start}-{args.end} {'accepted as ' + span.category if args.accept else 'rejected'}"
          f" (span {span_id})")
    return 0


def _settle_overlaps(project: Any, args: argparse.Namespace, span: Span) -> None:
    """Open suggestions overlapping a decision are settled by it (rejected, or superseded by an accept)."""
    for s in project.spans(args.conversation, SpanStatus.SUGGESTED):
        if s.overlaps(span):
            project.update_span(s.id, action="reject" if args.reject else "supersede", status="rejected")


def cmd_mark_reviewed(args: argparse.Namespace) -> int:
    with open_project(args) as project:
        for cid in args.conversation:
            project.mark_reviewed(cid)
            print(f"{cid}: reviewed")
    return 0
