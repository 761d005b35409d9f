"""Commands for the stages of the data path: transcribe, detect, eval, substitute, mask, simulate,
review-sample, risk, signoff, export. Each is a thin wrapper over the stage's own functions."""

from __future__ import annotations

import argparse
from pathlib import Path

from redactdesk.cli.commands_project import CliError, open_project
from redactdesk.core.types import Role


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("transcribe", help="transcribe a project's conversations, or one audio file to JSON")
    p.add_argument("project", nargs="?", help="project file (omit with --audio)")
    p.add_argument("--audio", help="transcribe this one file, no project (writes --out)")
    p.add_argument("--out", help="with --audio: WORDS.json to write")
    p.add_argument("--backend", default="faster-whisper", choices=["faster-whisper", "whisperx"])
    p.add_argument("--model", default=None,
                   help="tiny.en, base, or a path to a CTranslate2 model folder (default: base)")
    p.add_argument("--language", choices=["en", "es", "detect"], help="default: each conversation's language")
    p.add_argument("--only", nargs="+", metavar="CONV", help="only these conversations")
    p.set_defaults(func=cmd_transcribe)

    p = sub.add_parser("detect", help="suggest personal-data spans in a project, or in a JSONL file")
    p.add_argument("project", nargs="?", help="project file (omit with --jsonl)")
    p.add_argument("--jsonl", metavar="IN", help='lines {"id", "text"}; writes --out with character spans')
    p.add_argument("--out", metavar="OUT")
    p.add_argument("--lang", default="en", choices=["en", "es"])
    p.add_argument("--only", nargs="+", metavar="CONV", help="only these conversations")
    p.set_defaults(func=cmd_detect)

    p = sub.add_parser("eval", help="precision/recall/F1 of detection against labelled conversations")
    p.add_argument("gold", nargs="*", help="conversation JSON files or folders with gold spans "
                                           "(default: fresh generated calls, see --generate)")
    p.add_argument("--generate", type=int, default=0, metavar="N", help="evaluate on N freshly generated calls")
    p.add_argument("--seed", type=int, default=100000, help="first generator seed for --generate (>= 100000)")
    p.add_argument("--lang", default="en", choices=["en", "es"])
    p.set_defaults(func=cmd_eval)

    p = sub.add_parser("substitute", help="replace accepted items with pseudonyms and write revised transcripts")
    p.add_argument("project")
    p.add_argument("--mode", default="pseudonym", choices=["pseudonym", "placeholder", "tag", "redact", "generalise"])
    p.add_argument("--out", help="folder for revised transcripts (.txt and .json)")
    p.add_argument("-k", type=int, default=3, help="k for --mode generalise")
    p.set_defaults(func=cmd_substitute)

    p = sub.add_parser("mask", help="write masked audio for a project's conversations")
    p.add_argument("project")
    p.add_argument("--method", default="beep", choices=["silence", "beep", "noise", "distort", "voice"])
    p.add_argument("--out", required=True, help="folder for the masked audio")
    p.add_argument("--relisten", action="store_true", help="re-transcribe masked ranges and report leaks")
    p.set_defaults(func=cmd_mask)

    p = sub.add_parser("simulate", help="active-learning simulation (see `redactdesk simulate --help`)",
                       add_help=False)
    p.add_argument("rest", nargs=argparse.REMAINDER)
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser("review-sample", help="draw a stratified review sample and pre-scan it")
    p.add_argument("project")
    p.add_argument("--size", type=int, default=5)
    p.add_argument("--seed", type=int, default=0)
    p.set_defaults(func=cmd_review_sample)

    p = sub.add_parser("risk", help="residual risk from reviewers' MISSED_ marks (seed 002)")
    p.add_argument("project")
    p.add_argument("--mark", nargs=4, metavar=("CONV", "START", "END", "TAG"),
                   help="record a miss, e.g. --mark call_1 12 14 MISSED_PERSON_PARTIAL (word range, end exclusive)")
    p.add_argument("--item", help="with --mark: key that groups repeats of one item")
    p.add_argument("--threshold", type=float, default=None, help="criterion threshold (default: project setting or 5)")
    p.set_defaults(func=cmd_risk)

    p = sub.add_parser("signoff", help="sign the project off as a reviewer (or show the sign-off state)")
    p.add_argument("project")
    p.add_argument("--reviewer", help="reviewer's name (omit to show the current state)")
    p.add_argument("--comment", default="")
    p.set_defaults(func=cmd_signoff)

    p = sub.add_parser("export", help="write a release folder (needs a valid sign-off unless --draft)")
    p.add_argument("project")
    p.add_argument("--out", required=True)
    p.add_argument("--draft", action="store_true", help="export without a valid sign-off, marked DRAFT everywhere")
    p.add_argument("--method", default=None, help="masking method (default: the project's mask.method or beep)")
    p.add_argument("--override-leaks", metavar="REASON", help="reviewer's written reason to export despite "
                                                                "re-listen leaks")
    p.set_defaults(func=cmd_export)


def _progress(desc: str):
    from redactdesk.pipeline.progress import tqdm_progress

    return tqdm_progress(desc)


def cmd_transcribe(args: argparse.Namespace) -> int:
    if args.audio:
        if not args.out:
            raise CliError("--audio needs --out WORDS.json")
        from redactdesk.asr.transcribe import transcribe_to_json

        transcribe_to_json(args.audio, args.out, backend=args.backend, model=args.model or "base",
                           language=None if args.language == "detect" else (args.language or "en"))
        print(f"wrote {args.out}")
        return 0
    if not args.project:
        raise CliError("give a PROJECT, or --audio FILE --out WORDS.json")
    from redactdesk.pipeline.transcription import transcribe_project

    with open_project(args) as project:
        update, close = _progress("transcribe")
        try:
            outcomes = transcribe_project(project, args.only, backend=args.backend, model=args.model,
                                          language=args.language, progress=update)
        finally:
            close()
    for o in outcomes:
        print(f"{o.conversation_id}: {o.words} words, RTF {o.rtf:.3f}"
              + (f", {o.timed} words with estimated times" if o.timed else ""))
        for w in o.warnings:
            print(f"  warning: {w}")
    return 0


def cmd_detect(args: argparse.Namespace) -> int:
    if args.jsonl:
        if not args.out:
            raise CliError("--jsonl needs --out OUT")
        from redactdesk.detect.pipeline import detect_jsonl

        n = detect_jsonl(args.jsonl, args.out, args.lang)
        print(f"wrote {n} lines to {args.out}")
        return 0
    if not args.project:
        raise CliError("give a PROJECT, or --jsonl IN --out OUT")
    from redactdesk.pipeline.detection import detect_project

    with open_project(args) as project:
        update, close = _progress("detect")
        try:
            counts = detect_project(project, args.only, progress=update)
        finally:
            close()
    for cid, n in counts.items():
        print(f"{cid}: {n} suggestions")
    return 0


def cmd_eval(args: argparse.Namespace) -> int:
    from redactdesk.detect.evaluate import comparison_table, evaluate
    from redactdesk.detect.pipeline import detect_conversations

    gold = []
    if args.gold:
        from redactdesk.formats import read_conversation_json

        for g in args.gold:
            path = Path(g)
            files = sorted(path.glob("*.json")) if path.is_dir() else [path]
            for f in files:
                if f.name == "index.json":
                    continue
                gold.append(read_conversation_json(f))
    else:
        from redactdesk.synth import generate_corpus

        n = args.generate or 50
        if args.seed < 100000:
            raise CliError("evaluation seeds start at 100000 (lower seeds are the demo's)")
        gold = generate_corpus(range(args.seed, args.seed + n), args.lang)
    blank = [type(c)(id=c.id, words=c.words, turns=c.turns, language=c.language) for c in gold]
    pred = detect_conversations(blank, language=args.lang)
    report = evaluate(gold, pred)
    print(comparison_table({"redactdesk": report}, title=f"detection on {len(gold)} conversations"))
    return 0


def cmd_substitute(args: argparse.Namespace) -> int:
    from redactdesk.substitute import substitute_project

    with open_project(args) as project:
        result = substitute_project(project, args.mode, k=args.k, out_dir=args.out)
    s = result.summary()
    print(f"{s['mode']}: {s['replacements']} items replaced in {s['conversations']} conversations")
    for kind, n in sorted(s["warnings"].items()):
        print(f"  revision warning: {n} x {kind}")
    if "generalisation" in s:
        print(f"  generalisation: {s['generalisation']}")
    if args.out:
        print(f"revised transcripts in {args.out}")
    return 0


def cmd_mask(args: argparse.Namespace) -> int:
    from redactdesk.audio.project import mask_project

    with open_project(args) as project:
        update, close = _progress(f"mask ({args.method})")
        try:
            surrogates = _voice_surrogates(project) if args.method == "voice" else None
            reports = mask_project(project, args.out, args.method, progress=lambda f: update(f, ""),
                                   surrogates=surrogates)
        finally:
            close()
        project.set_setting("mask.method", args.method)
        leaks = 0
        for r in reports:
            if r.skipped:
                print(f"{r.conversation_id}: skipped ({r.skipped})")
                continue
            line = f"{r.conversation_id}: {len(r.ranges)} ranges masked -> {r.output} ({r.seconds:.2f} s)"
            if args.relisten and r.output:
                from redactdesk.audio.relisten import relisten

                conv = project.load_conversation(r.conversation_id)
                rep = relisten(r.output, conv, r.ranges)
                n = len(getattr(rep, "leaks", []))
                leaks += n
                line += f"; re-listen: {n} item(s) still recognised"
            print(line)
    return 1 if leaks else 0


def _voice_surrogates(project):
    """For the spoken-surrogate masker: each conversation's span id -> surrogate text, from the
    project's stored pseudonym map (so the audio says what the revised transcript says)."""
    from redactdesk.audio.voice import surrogates_from
    from redactdesk.substitute import substitute_conversation

    def for_conversation(conv):
        result = substitute_conversation(conv, secret=project.secret, existing_map=project.pseudonyms(conv.id))
        return surrogates_from(result.replacements)

    return for_conversation


def cmd_simulate(args: argparse.Namespace) -> int:
    from redactdesk.learn.simulate import main as simulate_main

    return simulate_main(args.rest)


def cmd_review_sample(args: argparse.Namespace) -> int:
    from redactdesk.risk.sample import prescan, stratified_sample

    with open_project(args) as project:
        convs = list(project.iter_conversations())
        ids = stratified_sample(convs, args.size, seed=args.seed)
        project.set_setting("review.sample", {"ids": ids, "seed": args.seed})
        by_id = {c.id: c for c in convs}
        print(f"review sample of {len(ids)} from {len(convs)} conversations (seed {args.seed}):")
        for cid in ids:
            hits = prescan(by_id[cid])
            kinds: dict[str, int] = {}
            for h in hits:
                kinds[h.kind] = kinds.get(h.kind, 0) + 1
            detail = ", ".join(f"{n} {k.replace('_', ' ')}" for k, n in sorted(kinds.items())) or "nothing flagged"
            print(f"  {cid}: pre-scan: {detail}")
            for h in hits[:10]:
                print(f"      words {h.start_word}-{h.end_word}: {h.kind} ({h.detail})")
    return 0


def cmd_risk(args: argparse.Namespace) -> int:
    from redactdesk.resources import load_taxonomy
    from redactdesk.risk.residual import corpus_summary, items_from_project, parse_tag

    taxonomy = load_taxonomy()
    with open_project(args) as project:
        if args.mark:
            cid, start, end, tag = args.mark
            category, partial, speaker = parse_tag(tag, taxonomy)
            project.add_missed(cid, int(start), int(end), category, partial=partial, speaker=speaker,
                               item_key=args.item)
            print(f"recorded {tag} in {cid} words {start}-{end}")
        sample = project.setting("review.sample")
        ids = sample["ids"] if sample else None
        threshold = args.threshold if args.threshold is not None else project.setting("review.threshold", 5.0)
        summary = corpus_summary(items_from_project(project, ids), taxonomy, threshold=threshold)
    scope = f"review sample ({len(ids)} conversations)" if ids else "all conversations"
    print(f"residual risk over {scope}:")
    print(summary.table())
    for cid, score in sorted(summary.scores.items(), key=lambda kv: -kv[1])[:10]:
        if score:
            print(f"  {cid}: {score}")
    return 0 if summary.passed else 1


def cmd_signoff(args: argparse.Namespace) -> int:
    from redactdesk.risk.signoff import sign_off, signoff_state

    with open_project(args) as project:
        if args.reviewer:
            role = Role(args.role) if args.role else Role.REVIEWER
            project.role = role
            project.actor = args.reviewer
            state = sign_off(project, args.reviewer, args.comment, role=role)
        else:
            state = signoff_state(project)
    print(state.describe())
    return 0 if state.valid else 1


def cmd_export(args: argparse.Namespace) -> int:
    from redactdesk.pipeline.export import export_release, release_summary

    with open_project(args) as project:
        method = args.method or project.setting("mask.method", "beep")
        update, close = _progress("export")
        try:
            result = export_release(project, args.out, draft=args.draft, mask_method=method, progress=update,
                                    override_reason=args.override_leaks)
        finally:
            close()
    print(release_summary(result))
    return 0
