"""``redactdesk learner``: the project's active-learning model -- which learner, its versions, rollback.

    redactdesk learner show calls.rdproj                 # learner in use, versions with scores
    redactdesk learner use calls.rdproj tagger|crf       # choose the learner (the CRF is the baseline)
    redactdesk learner update calls.rdproj [--crossval]  # learn from the turns labelled since the last version,
                                                         # then update its suggestions in open calls
                                                         # (--crossval: and score it by 5-fold cross-validation)
    redactdesk --role reviewer learner rollback calls.rdproj 3   # use version 3 again
    redactdesk learner prune calls.rdproj                # drop the models of versions older than the newest
                                                         # learn.keep_versions (their scores stay)

Output carries ids, counts and scores only, never words of the calls.
"""

from __future__ import annotations

import argparse
from typing import Any

from redactdesk.cli.commands_project import open_project
from redactdesk.cli.conventions import add_json_option, print_json


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("learner", help="the active-learning model: learner choice, versions, update, rollback")
    lsub = p.add_subparsers(dest="learner_command", metavar="ACTION")
    lsub.required = True
    s = lsub.add_parser("show", help="the learner in use and its stored versions with their scores")
    s.add_argument("project", help="the project file")
    add_json_option(s)
    s.set_defaults(func=cmd_show)
    s = lsub.add_parser("use", help="choose the learner: tagger (fine-tuned transcript tagger) or crf (baseline)")
    s.add_argument("project", help="the project file")
    s.add_argument("learner", choices=["tagger", "crf"], help="tagger (default; learns from every decision) or crf")
    s.set_defaults(func=cmd_use)
    s = lsub.add_parser("update", help="learn from the turns labelled since the version in use (a new version)")
    s.add_argument("project", help="the project file")
    s.add_argument("--crossval", action="store_true",
                   help="then cross-validate the learner on the labelled turns (5-fold, per category; the app "
                        "does this in the background) and keep the scores with the new version")
    add_json_option(s)
    s.set_defaults(func=cmd_update)
    s = lsub.add_parser("rollback", help="use an earlier version again (reviewers; audited)")
    s.add_argument("project", help="the project file")
    s.add_argument("version", type=int, help="the version id (see `learner show`)")
    s.set_defaults(func=cmd_rollback)
    s = lsub.add_parser("prune", help="drop the models of versions older than the newest learn.keep_versions "
                                      "(their scores stay; every update does this too)")
    s.add_argument("project", help="the project file")
    s.add_argument("--keep", type=int, default=None, metavar="N",
                   help="keep the newest N versions' models (default: the project's learn.keep_versions)")
    s.set_defaults(func=cmd_prune)


def _version_row(v: Any, active: int | None) -> dict[str, Any]:
    m = v.metrics
    return {"id": v.id, "active": v.id == active, "created": v.created, "n_labelled": v.n_labelled,
            "n_new": m.get("n_new"), "f1": m.get("f1"), "scored_at": v.scored_at, "eval": m.get("eval", "cv"),
            "parent": m.get("parent"), "pruned": not v.stored, "cv_f1": (m.get("xval") or {}).get("f1")}


def cmd_show(args: argparse.Namespace) -> int:
    from redactdesk.learn.service import model_summary
    from redactdesk.learn.versions import project_learner

    with open_project(args) as project:
        learner = project_learner(project)
        summary = model_summary(project)
    rows = [_version_row(v, summary.active) for v in summary.versions]
    if args.json:
        print_json({"learner": learner, "active": summary.active, "versions": rows})
        return 0
    print(f"learner: {learner}; {len(rows)} version(s)" + (f", in use: v{summary.active}" if rows else ""))
    for r in rows:
        f1 = "n/a" if r["f1"] is None else f"{r['f1']:.3f}"
        mark = "*" if r["active"] else " "
        print(f"{mark} v{r['id']:<4} {r['created'][:19]}  labelled {r['n_labelled']:>5}  "
              f"F1 {f1} ({r['eval']} at {r['scored_at']})"
              + ("" if r["cv_f1"] is None else f"  cross-validated F1 {r['cv_f1']:.3f}")
              + ("  pruned" if r["pruned"] else ""))
    return 0


def cmd_use(args: argparse.Namespace) -> int:
    from redactdesk.learn.versions import set_project_learner

    with open_project(args) as project:
        set_project_learner(project, args.learner)
    print(f"learner: {args.learner}")
    return 0


def cmd_update(args: argparse.Namespace) -> int:
    from redactdesk.learn.service import ActiveLearner, store_crossval
    from redactdesk.learn.suggestion_sync import refresh_learner_suggestions

    cv = None
    with open_project(args) as project:
        learner = ActiveLearner(project)
        v = learner.retrain()
        changes = refresh_learner_suggestions(project, learner)
        if args.crossval:
            cv = learner.prepare_crossval(refresh=False)()
            store_crossval(project, v.id, cv)
    out = {"id": v.id, "learner": learner.learner, "n_labelled": v.n_labelled, "n_new": v.metrics.get("n_new"),
           "f1": v.f1, "update_seconds": v.metrics.get("update_seconds"), "suggestions": changes.to_dict()}
    if cv is not None:
        out["crossval"] = cv.to_dict()
    if args.json:
        print_json(out)
        return 0
    f1 = "n/a" if v.f1 is None else f"{v.f1:.3f}"
    print(f"model v{v.id} ({learner.learner}): {v.n_labelled} labelled turns, F1 before this update {f1}")
    print(changes.message())
    if cv is not None and cv.scores is None:
        print(f"cross-validation: {cv.reason}")
    elif cv is not None:
        print(f"cross-validated F1 {cv.scores.f1:.3f} ({cv.folds}-fold over {cv.n_used} labelled turns)")
        for cat, m in sorted(cv.scores.per_category.items()):
            print(f"  {cat:<16} F1 {m['f1']:.3f}  support {int(m['support'])}")
    return 0


def cmd_rollback(args: argparse.Namespace) -> int:
    from redactdesk.learn.service import ActiveLearner
    from redactdesk.learn.suggestion_sync import refresh_learner_suggestions
    from redactdesk.learn.versions import rollback

    with open_project(args) as project:
        row = rollback(project, args.version)
        changes = refresh_learner_suggestions(project, ActiveLearner(project))  # its suggestions in open calls
    print(f"model v{row['id']} is in use again ({row['n_labelled']} labelled turns); later versions are kept")
    print(changes.message())
    return 0


def cmd_prune(args: argparse.Namespace) -> int:
    from redactdesk.learn.errors import LearnError
    from redactdesk.learn.versions import kind_of, project_learner, prune

    if args.keep is not None and args.keep < 1:
        raise LearnError("--keep must be at least 1")
    with open_project(args) as project:
        dropped = prune(project, kind_of(project_learner(project)), args.keep)
    print(f"pruned {len(dropped)} version(s)" + (": " + ", ".join(f"v{i}" for i in dropped) if dropped else ""))
    return 0
