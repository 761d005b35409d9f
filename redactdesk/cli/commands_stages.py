"""Commands for the stages of the data path: transcribe, detect, eval, substitute, mask, simulate,
review-sample, risk, signoff, export, verify, keys. Each is a thin wrapper over the stage's own functions."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from redactdesk.cli.commands_project import CliError, open_project
from redactdesk.cli.conventions import add_json_option, add_lang_option, input_path, output_path, print_json
from redactdesk.cli.executor_options import add_executor_options, stage_executor
from redactdesk.core.types import Role


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("transcribe", help="transcribe a project's conversations, or one audio file to JSON")
    p.add_argument("project", nargs="?", help="project file (omit with --audio)")
    p.add_argument("--audio", help="transcribe this one file, no project (writes --out)")
    p.add_argument("--out", help="with --audio: WORDS.json to write (- for stdout)")
    p.add_argument("--backend", default="faster-whisper", choices=["faster-whisper", "whisperx"],
                   help="ASR engine (whisperx needs the extra redactdesk[whisperx])")
    p.add_argument("--model", default=None,
                   help="tiny.en, base, or a path to a CTranslate2 model folder (default: base)")
    add_lang_option(p, ["en", "es", "detect"], None, "language spoken (default: each conversation's; detect: "
                    "let the model decide)")
    p.add_argument("--only", nargs="+", metavar="CONV", help="only these conversations")
    p.add_argument("--speakers", type=int, default=None, metavar="N",
                   help="speakers the diarizer finds in a mono recording (default: the project setting "
                   "asr.speakers, 2; with --audio 2; 0: no diarizer, one speaker); stereo calls take one "
                   "speaker per channel")
    add_executor_options(p)
    p.set_defaults(func=cmd_transcribe)

    p = sub.add_parser("detect", help="suggest personal-data spans in a project, or in a JSONL file")
    p.add_argument("project", nargs="?", help="project file (omit with --jsonl)")
    p.add_argument("--jsonl", metavar="IN", help='lines {"id", "text"} (- for stdin); writes --out with '
                                                  "character spans")
    p.add_argument("--out", metavar="OUT", help="with --jsonl: where the spans go (- for stdout)")
    add_lang_option(p, ["en", "es"], "en", "language of the JSONL texts (--jsonl only)")
    p.add_argument("--only", nargs="+", metavar="CONV", help="only these conversations")
    add_executor_options(p)
    p.set_defaults(func=cmd_detect)

    p = sub.add_parser("eval", help="precision/recall/F1 of detection against labelled conversations")
    p.add_argument("gold", nargs="*", help="conversation JSON files or folders with gold spans "
                                           "(default: fresh generated calls, see --generate)")
    p.add_argument("--generate", type=int, default=0, metavar="N", help="evaluate on N freshly generated calls")
    p.add_argument("--seed", type=int, default=100000, help="first generator seed for --generate (>= 100000)")
    add_lang_option(p, ["en", "es"], "en", "language of the detector (and of --generate's calls)")
    add_json_option(p)
    p.set_defaults(func=cmd_eval)

    p = sub.add_parser("substitute", help="replace accepted items with pseudonyms and write revised transcripts")
    p.add_argument("project", help="the project file")
    p.add_argument("--mode", default="pseudonym", choices=["pseudonym", "placeholder", "tag", "redact", "generalise"],
                   help="what replaces an item: a pseudonym, [PERSON_1], [PERSON], a blank, or a coarser value")
    p.add_argument("--out", help="folder for revised transcripts (.txt and .json)")
    p.add_argument("-k", type=int, default=3, help="k for --mode generalise")
    p.add_argument("--auto-fix", action="store_true",
                   help="first resolve the revision warnings a rule can (the linguist's Auto-fix: grow a span over "
                   "the rest of its item, draw a surrogate again), as audited decisions")
    p.set_defaults(func=cmd_substitute)

    p = sub.add_parser("mask", help="write masked audio for a project's conversations")
    p.add_argument("project", help="the project file")
    p.add_argument("--method", default="beep", choices=["silence", "beep", "noise", "distort", "voice"],
                   help="how an item's audio is masked (voice: the surrogate spoken)")
    p.add_argument("--out", required=True, help="folder for the masked audio")
    p.add_argument("--relisten", action="store_true", help="re-transcribe masked ranges and report leaks (on the "
                   "same workers as the masking)")
    p.add_argument("--relisten-scheme", default=None, choices=["per-piece", "packed"],
                   help="how masked ranges are laid into recogniser calls: each clip alone (per-piece, the "
                   "default: it hears the most), or packed end to end into ~28-s calls (faster; tiny.en heard "
                   "fewer items in the benchmark, see benchmarks/bench_mask.py --schemes)")
    add_executor_options(p)
    p.set_defaults(func=cmd_mask)

    p = sub.add_parser("simulate", help="active-learning simulation (see `redactdesk simulate --help`)",
                       add_help=False)
    p.add_argument("rest", nargs=argparse.REMAINDER, help="options of the simulation")
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser("review-sample", help="draw a stratified review sample and pre-scan it")
    p.add_argument("project", help="the project file")
    p.add_argument("--size", type=int, default=5, help="number of conversations in the sample")
    p.add_argument("--seed", type=int, default=0, help="random seed (the same seed draws the same sample)")
    add_json_option(p)
    p.set_defaults(func=cmd_review_sample)

    p = sub.add_parser("risk", help="residual risk from reviewers' MISSED_ marks (seed 002)")
    p.add_argument("project", help="the project file")
    p.add_argument("--mark", nargs=4, metavar=("CONV", "START", "END", "TAG"),
                   help="record a miss, e.g. --mark call_1 12 14 MISSED_PERSON_PARTIAL (word range, end exclusive)")
    p.add_argument("--item", help="with --mark: key that groups repeats of one item")
    p.add_argument("--threshold", type=float, default=None, help="criterion threshold (default: project setting or 5)")
    add_json_option(p)
    p.set_defaults(func=cmd_risk)

    p = sub.add_parser("signoff", help="sign the project off as a reviewer (or show the sign-off state)")
    p.add_argument("project", help="the project file")
    p.add_argument("--reviewer", help="reviewer's name (omit to show the current state)")
    p.add_argument("--comment", default="", help="a note stored with the sign-off")
    p.add_argument("--exclude", nargs="+", action="extend", default=[], metavar="CONV",
                   help="leave these conversations out of the release")
    p.add_argument("--override", nargs=2, action="append", default=[], metavar=("CONV", "REASON"),
                   help="release CONV although it is not fully reviewed, for this written reason (repeatable)")
    add_json_option(p)
    p.set_defaults(func=cmd_signoff)

    p = sub.add_parser("verify", help="check a release folder: signature, trusted key, every file, nothing extra")
    p.add_argument("release", help="the release folder")
    p.add_argument("--key", action="append", default=[], metavar="PUBKEYFILE",
                   help="the reviewer's exported public key (redactdesk keys export); repeatable")
    p.set_defaults(func=cmd_verify)

    p = sub.add_parser("keys", help="reviewers' signing keys on this machine, and the keys it trusts")
    ksub = p.add_subparsers(dest="keys_command", metavar="ACTION")
    ksub.required = True
    k = ksub.add_parser("list", help="list this machine's own and trusted keys")
    k.set_defaults(func=cmd_keys)
    k = ksub.add_parser("export", help="write a reviewer's public key to a file (to give to recipients)")
    k.add_argument("name", help="the reviewer's name, as used with signoff --reviewer")
    k.add_argument("--out", required=True, metavar="FILE", help="where the public key goes")
    k.set_defaults(func=cmd_keys)
    k = ksub.add_parser("trust", help="trust a reviewer's exported public key on this machine")
    k.add_argument("file", metavar="FILE", help="a public key written by `redactdesk keys export`")
    k.set_defaults(func=cmd_keys)

    p = sub.add_parser("export", help="write a release folder (needs a valid sign-off unless --draft)")
    p.add_argument("project", help="the project file")
    p.add_argument("--out", required=True, help="the release folder to create (must not exist)")
    p.add_argument("--draft", action="store_true", help="export without a valid sign-off, marked DRAFT everywhere")
    p.add_argument("--method", default=None, help="masking method (default: the project's mask.method or beep)")
    p.add_argument("--override-leaks", metavar="REASON", help="reviewer's written reason to export despite "
                                                                "re-listen leaks")
    add_executor_options(p)
    p.set_defaults(func=cmd_export)


def _as_json(obj) -> dict:
    """A report object as JSON-able data: its ``to_dict()``, else its dataclass fields."""
    import dataclasses

    if hasattr(obj, "to_dict"):
        return obj.to_dict()
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return dataclasses.asdict(obj)
    return {"value": str(obj)}


def _progress(desc: str):
    from redactdesk.pipeline.progress import tqdm_progress

    return tqdm_progress(desc)


def cmd_transcribe(args: argparse.Namespace) -> int:
    if args.speakers is not None:  # the same rule as the project setting asr.speakers
        from redactdesk.pipeline.project_config import SettingError, lookup

        try:
            lookup("asr.speakers").parse(str(args.speakers))
        except SettingError as exc:
            raise CliError(f"--speakers: {exc}") from None
    if args.audio:
        if not args.out:
            raise CliError("--audio needs --out WORDS.json")
        from redactdesk.asr.transcribe import transcribe_to_json

        with output_path(args.out, ".json") as out:
            transcribe_to_json(args.audio, out, backend=args.backend, model=args.model or "base",
                               language=None if args.lang == "detect" else (args.lang or "en"),
                               speakers=2 if args.speakers is None else args.speakers)
        if args.out != "-":
            print(f"wrote {args.out}")
        return 0
    if not args.project:
        raise CliError("give a PROJECT, or --audio FILE --out WORDS.json")
    from redactdesk.pipeline.transcription import transcribe_project

    with open_project(args) as project, stage_executor(args, project) as executor:
        update, close = _progress("transcribe")
        try:
            outcomes = transcribe_project(project, args.only, backend=args.backend, model=args.model,
                                          language=args.lang, progress=update, executor=executor,
                                          resume=True, speakers=args.speakers)
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

        with input_path(args.jsonl, ".jsonl") as inp, output_path(args.out, ".jsonl") as out:
            n = detect_jsonl(inp, out, args.lang)
        print(f"wrote {n} lines to {'stdout' if args.out == '-' else args.out}",
              file=sys.stderr if args.out == "-" else sys.stdout)
        return 0
    if not args.project:
        raise CliError("give a PROJECT, or --jsonl IN --out OUT")
    from redactdesk.pipeline.detection import detect_project

    with open_project(args) as project, stage_executor(args, project) as executor:
        update, close = _progress("detect")
        try:
            counts = detect_project(project, args.only, progress=update, executor=executor, resume=True)
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
    if args.json:
        print_json({"conversations": len(gold), "report": _as_json(report)})
        return 0
    print(comparison_table({"redactdesk": report}, title=f"detection on {len(gold)} conversations"))
    return 0


def cmd_substitute(args: argparse.Namespace) -> int:
    from redactdesk.pipeline.substitute_project import substitute_project

    with open_project(args) as project:
        if args.auto_fix:
            from redactdesk.pipeline.substitute_project import autofix_project

            if args.mode not in ("pseudonym", "generalise"):
                raise CliError("--auto-fix works on pseudonyms: use it with --mode pseudonym or generalise")
            fixed = autofix_project(project)
            print(f"auto-fix: {fixed.spans_grown} span(s) grown, {fixed.surrogates_redrawn} surrogate(s) drawn "
                  f"again, {fixed.warnings_left} warning(s) left for the linguist")
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
    from redactdesk.pipeline.masking import mask_project_with, relisten_project_with

    with open_project(args) as project, stage_executor(args, project) as executor:
        update, close = _progress(f"mask ({args.method})")
        try:
            surrogates = _voice_surrogates(project) if args.method == "voice" else None
            reports = mask_project_with(project, args.out, args.method, progress=update, surrogates=surrogates,
                                        executor=executor)
        finally:
            close()
        project.set_setting("mask.method", args.method)
        heard = {}
        if args.relisten:
            update, close = _progress("re-listen")
            try:
                heard = relisten_project_with(project, reports, executor=executor, method=args.method,
                                              surrogates=surrogates, scheme=args.relisten_scheme, progress=update)
            finally:
                close()
        leaks = 0
        for r in reports:
            if r.skipped:
                print(f"{r.conversation_id}: skipped ({r.skipped})")
                continue
            line = f"{r.conversation_id}: {len(r.ranges)} ranges masked -> {r.output} ({r.seconds:.2f} s)"
            if r.conversation_id in heard:
                n = len(heard[r.conversation_id].leaks)
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
        if args.json:
            print_json({"seed": args.seed, "of": len(convs), "sample": [
                {"id": cid, "prescan": [{"start_word": h.start_word, "end_word": h.end_word, "kind": h.kind}
                                        for h in prescan(by_id[cid])]} for cid in ids]})
            return 0
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
    if args.mark:  # checked before the project is opened: a usage error changes nothing
        cid, start_s, end_s, tag = args.mark
        if not all(s.isascii() and s.isdigit() and len(s) <= 9 for s in (start_s, end_s)):
            raise CliError("--mark CONV START END TAG: START and END must be word numbers (whole numbers "
                           "from 0, END exclusive), e.g. --mark call_1 12 14 MISSED_PERSON_PARTIAL")
        start, end = int(start_s), int(end_s)
        if start >= end:
            raise CliError("--mark CONV START END TAG: END must be greater than START (END is exclusive)")
        try:
            category, partial, speaker = parse_tag(tag, taxonomy)
        except ValueError:
            raise CliError("--mark CONV START END TAG: TAG must be MISSED_<CATEGORY>[_PARTIAL][_SPEAKER] with a "
                           "category of the taxonomy, e.g. MISSED_PERSON_PARTIAL") from None
    with open_project(args) as project:
        if args.mark:
            project.add_missed(cid, start, end, category, partial=partial, speaker=speaker,
                               item_key=args.item)
            print(f"recorded {tag} in {cid} words {start}-{end}")
        sample = project.setting("review.sample")
        ids = sample["ids"] if sample else None
        threshold = args.threshold if args.threshold is not None else project.setting("review.threshold", 5.0)
        summary = corpus_summary(items_from_project(project, ids), taxonomy, threshold=threshold)
    if args.json:
        print_json({"scope": ids or "all", "passed": summary.passed, "summary": _as_json(summary)})
        return 0 if summary.passed else 1
    scope = f"review sample ({len(ids)} conversations)" if ids else "all conversations"
    print(f"residual risk over {scope}:")
    print(summary.table())
    for cid, score in sorted(summary.scores.items(), key=lambda kv: -kv[1])[:10]:
        if score:
            print(f"  {cid}: {score}")
    return 0 if summary.passed else 1


def _signoff_counts(project, excluded: list[str], overrides: dict[str, str]) -> dict[str, int]:
    """What the reviewer sees before signing: the release gate's counts (risk.gate), or the same
    numbers from the corpus list where that module is not installed."""
    try:
        from redactdesk.risk.gate import release_readiness
    except ImportError:
        release_readiness = None
    if release_readiness is not None:
        return dict(release_readiness(project, excluded=excluded, overrides=overrides).counts())
    rows = project.list_conversations()
    inc = [r for r in rows if r.id not in set(excluded)]
    open_ = [r for r in inc if r.n_words == 0 or not r.detected_at or r.suggested
             or r.status not in ("reviewed", "signed_off")]
    return {"conversations": len(rows), "included": len(inc), "excluded": len(rows) - len(inc),
            "undecided_suggestions": sum(r.suggested for r in inc),
            "no_transcript": sum(r.n_words == 0 for r in inc),
            "never_detected": sum(r.n_words > 0 and not r.detected_at for r in inc),
            "not_reviewed": sum(r.status not in ("reviewed", "signed_off") for r in inc),
            "overridden": sum(r.id in overrides for r in open_),
            "blocked": sum(r.id not in overrides for r in open_)}


def cmd_signoff(args: argparse.Namespace) -> int:
    from redactdesk.risk.keys import KeyStoreError
    from redactdesk.risk.signoff import sign_off, signoff_state

    overrides: dict[str, str] = {}
    for cid, reason in args.override:
        if cid in overrides:
            raise CliError(f"--override {cid} is given twice")
        overrides[cid] = reason
    with open_project(args) as project:
        if not args.reviewer:
            if args.exclude or overrides:
                raise CliError("--exclude and --override are part of a sign-off: give --reviewer NAME")
            state = signoff_state(project)
        else:
            role = Role(args.role) if args.role else Role.REVIEWER
            if role != Role.REVIEWER:
                raise PermissionError("only a reviewer can sign a release off (--role reviewer)")
            project.role = role
            project.actor = args.reviewer
            unknown = [c for c in [*args.exclude, *overrides] if not project.has_conversation(c)]
            if unknown:
                raise CliError(f"no conversation {unknown[0]!r} in the project")
            counts = _signoff_counts(project, list(args.exclude), overrides)
            notes = sys.stderr if args.json else sys.stdout
            print(f"conversations to release: {counts.get('included', 0)}; "
                  f"undecided suggestions: {counts.get('undecided_suggestions', 0)}; "
                  f"never detected: {counts.get('never_detected', 0)}; "
                  f"not reviewed: {counts.get('not_reviewed', 0)}; "
                  f"excluded: {counts.get('excluded', 0)}; overridden: {counts.get('overridden', 0)}", file=notes)
            if counts.get("blocked", 0) or counts.get("undecided_suggestions", 0):
                print(f"WARNING: signing with open items: {counts.get('blocked', 0)} conversation(s) to release are "
                      "not ready and have no override; export will refuse them until they are reviewed, "
                      "excluded or overridden (the sign-off records these counts)", file=notes)
            try:
                state = sign_off(project, args.reviewer, args.comment, role=role, exclude=args.exclude,
                                 overrides=overrides, seen=counts)
            except (ValueError, KeyStoreError) as exc:
                raise CliError(str(exc)) from exc
    if args.json:
        print_json({"valid": state.valid, "describe": state.describe(), **_as_json(state)})
    else:
        print(state.describe())
    return 0 if state.valid else 1


def cmd_verify(args: argparse.Namespace) -> int:
    from redactdesk.pipeline.release_signature import verify_release
    from redactdesk.risk.keys import KeyStoreError, read_public_key_file

    try:
        given = [read_public_key_file(k)[0] for k in args.key]
    except KeyStoreError as exc:
        raise CliError(str(exc)) from exc
    result = verify_release(args.release, keys_given=given)
    print(result.text())
    return 0 if result.valid else 1


def cmd_keys(args: argparse.Namespace) -> int:
    from redactdesk.risk import keys

    try:
        if args.keys_command == "export":
            info = keys.export_public_key(args.name, args.out)
            print(f"wrote the public key of {info.reviewer} (key id {info.key_id}) to {info.path}")
            print("give it to recipients: `redactdesk keys trust FILE` or `redactdesk verify RELEASE --key FILE`; "
                  "tell them the key id by another channel")
        elif args.keys_command == "trust":
            info = keys.trust_key_file(args.file)
            who = info.reviewer or "an unnamed reviewer"
            print(f"{'own key of' if info.own else 'trusted key of'} {who} (key id {info.key_id}): {info.path}")
        else:
            own, trusted = keys.own_keys(), keys.trusted_keys()
            print(f"keys folder: {keys.keys_dir()}")
            if not own and not trusted:
                print("  no keys yet (a reviewer's key is made at their first sign-off)")
            for info in own:
                print(f"  own      {info.key_id}  {info.reviewer or '?'}")
            for info in trusted:
                print(f"  trusted  {info.key_id}  {info.reviewer or '?'}  ({info.path.name})")
    except (ValueError, OSError) as exc:  # KeyStoreError is a ValueError
        raise CliError(str(exc)) from exc
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    from redactdesk.pipeline.export import export_release, release_summary

    with open_project(args) as project, stage_executor(args, project) as executor:
        method = args.method or project.setting("mask.method", "beep")
        update, close = _progress("export")
        try:
            result = export_release(project, args.out, draft=args.draft, mask_method=method, progress=update,
                                    override_reason=args.override_leaks, executor=executor)
        finally:
            close()
    print(release_summary(result))
    return 0
