"""``redactdesk learner``: choose the learner, list versions, roll back (reviewers only)."""

from __future__ import annotations

import json

from redactdesk.cli.main import main
from redactdesk.learn.versions import MODEL_NAME


def _project_with_versions(tmp_path, kind="spacy-ner"):
    from redactdesk.store import Project

    path = tmp_path / "p.rdproj"
    with Project.create(path) as proj:
        for n in (10, 25):
            proj.save_model(MODEL_NAME, kind, b"", {"f1": 0.5 + n / 100, "eval": "test-then-train", "scored_n": n - 10},
                            n)
    return path


def test_show_use_and_rollback(tmp_path, capsys):
    path = _project_with_versions(tmp_path)
    assert main(["learner", "show", str(path), "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["learner"] == "tagger" and shown["active"] == 2
    assert [v["id"] for v in shown["versions"]] == [1, 2] and shown["versions"][1]["active"]

    assert main(["learner", "rollback", str(path), "1"]) == 2  # an annotator may not
    assert "reviewer" in capsys.readouterr().err
    assert main(["--role", "reviewer", "learner", "rollback", str(path), "1"]) == 0
    assert "v1 is in use again" in capsys.readouterr().out
    assert main(["learner", "show", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["active"] == 1
    assert main(["--role", "reviewer", "learner", "rollback", str(path), "7"]) == 2
    capsys.readouterr()

    assert main(["learner", "use", str(path), "crf"]) == 0
    assert capsys.readouterr().out.strip() == "learner: crf"
    assert main(["learner", "show", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"learner": "crf", "active": None, "versions": []}


def test_prune_keeps_the_newest_models_and_show_marks_the_rest(tmp_path, capsys):
    from redactdesk.store import Project

    path = tmp_path / "p.rdproj"
    with Project.create(path) as proj:
        for n in range(1, 5):
            proj.save_model(MODEL_NAME, "spacy-ner", b"model", {"f1": 0.5}, n)
    assert main(["learner", "prune", str(path), "--keep", "0"]) == 2
    assert "--keep must be at least 1" in capsys.readouterr().err
    assert main(["learner", "prune", str(path), "--keep", "2"]) == 0
    assert capsys.readouterr().out.strip() == "pruned 2 version(s): v1, v2"
    assert main(["learner", "show", str(path), "--json"]) == 0
    assert [v["pruned"] for v in json.loads(capsys.readouterr().out)["versions"]] == [True, True, False, False]
    assert main(["--role", "reviewer", "learner", "rollback", str(path), "1"]) == 2
    assert "was pruned" in capsys.readouterr().err
    assert main(["learner", "show", str(path)]) == 0
    assert capsys.readouterr().out.count("pruned") == 2


def test_rollback_brings_the_earlier_versions_suggestions_back_in_open_calls(tmp_path, capsys):
    import dataclasses

    from redactdesk.core.types import SpanStatus
    from redactdesk.learn.service import SOURCE_NAME, ActiveLearner
    from redactdesk.learn.suggestion_sync import refresh_learner_suggestions
    from redactdesk.learn.training import TrainingSettings
    from redactdesk.learn.versions import set_project_learner
    from redactdesk.store import Project
    from redactdesk.synth import generate_corpus

    def learner_spans(proj, ids):
        return {(cid, s.start_word, s.end_word, s.category) for cid in ids
                for s in proj.spans(cid, SpanStatus.SUGGESTED) if s.sources == (SOURCE_NAME,)}

    path = tmp_path / "p.rdproj"
    with Project.create(path) as proj:
        set_project_learner(proj, "crf")
        for k, conv in enumerate(generate_corpus(range(100_300, 100_305))):
            conv.spans = [dataclasses.replace(s, status=SpanStatus.SUGGESTED) for s in conv.spans
                          if k < 2 or s.category != "PERSON"]
            proj.add_conversation(conv)
        ids = proj.conversation_ids()
        learner = ActiveLearner(proj, source=None, training=TrainingSettings(max_iterations=25))
        shown = []
        for cid in ids[:2]:
            for span in proj.spans(cid, SpanStatus.SUGGESTED):
                proj.update_span(span.id, action="accept", status=SpanStatus.ACCEPTED)
            learner.retrain()
            refresh_learner_suggestions(proj, learner)
            shown.append(learner_spans(proj, ids[2:]))
    assert shown[0] != shown[1]
    assert main(["--role", "reviewer", "learner", "rollback", str(path), "1"]) == 0
    out = capsys.readouterr().out
    assert "v1 is in use again" in out and ("now also flags" in out or "withdrew" in out)
    with Project.open(path) as proj:
        assert learner_spans(proj, ids[2:]) == shown[0]


def test_update_with_crossval_keeps_the_scores_with_the_version(tmp_path, capsys):
    import dataclasses

    from redactdesk.core.types import SpanStatus
    from redactdesk.learn.versions import set_project_learner
    from redactdesk.store import Project
    from redactdesk.synth import generate_corpus

    path = tmp_path / "p.rdproj"
    with Project.create(path) as proj:
        set_project_learner(proj, "crf")
        for conv in generate_corpus(range(100_300, 100_303)):
            conv.spans = [dataclasses.replace(s, status=SpanStatus.SUGGESTED) for s in conv.spans]
            proj.add_conversation(conv)
        for cid in proj.conversation_ids()[:2]:
            for span in proj.spans(cid, SpanStatus.SUGGESTED):
                proj.update_span(span.id, action="accept", status=SpanStatus.ACCEPTED)
    assert main(["learner", "update", str(path), "--crossval", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    cv = out["crossval"]
    assert cv["folds"] == 5 and cv["n_labelled"] == out["n_labelled"] and "PERSON" in cv["per_category"]
    assert main(["learner", "show", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["versions"][0]["cv_f1"] == cv["f1"]
    assert main(["learner", "show", str(path)]) == 0
    assert "cross-validated F1" in capsys.readouterr().out
