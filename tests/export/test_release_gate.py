"""The fail-closed release gate: no release of what nobody detected, decided or reviewed.

Found from a fresh clone: import, detect, sign off, export gave exit 0, "PASS" and every original
value in clear. These tests pin what must happen instead.
"""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from redactdesk.core.types import Role, Span, SpanStatus, Word
from redactdesk.pipeline.export import (
    ExportRefused,
    GateClosed,
    UndecidedFound,
    export_release,
    release_summary,
    remove_stale_partials,
)
from redactdesk.risk.gate import release_readiness
from redactdesk.risk.signoff import sign_off


def _suggest(project, cid, start, end, category="PERSON"):
    project.replace_suggestions(cid, [Span(start, end, category, score=0.8, sources=("test",))])


def _extend(project, cid, extra, speaker):
    """Append words to a conversation (which drops its spans), then put its accepted spans back."""
    conv = project.load_conversation(cid)
    words = conv.words + [Word(t, 6.0 + i * 0.3, 6.25 + i * 0.3, 0.9, speaker) for i, t in enumerate(extra)]
    project.replace_words(cid, words, [], action="edit")
    for s in conv.spans:
        project.add_span(cid, Span(s.start_word, s.end_word, s.category, status=s.status, entity=s.entity))


def _releases(root: Path) -> list[str]:
    return sorted(p.name for p in root.iterdir())


def test_signed_project_with_undecided_suggestions_writes_no_release(tmp_path, out_root, kit):
    project = kit.build(tmp_path, signed=False)
    _suggest(project, "call_2", 4, 5)  # "this" suggested, nobody decided
    sign_off(project, "Rita Reviewer")
    with pytest.raises(GateClosed) as err:
        export_release(project, out_root / "rel", **kit.kwargs())
    assert "call_2: 1 undecided suggestion(s), not reviewed" in str(err.value)
    assert [g.id for g in err.value.readiness.blocked] == ["call_2"]
    assert _releases(out_root) == []


def test_cli_export_refuses_with_exit_code_and_no_folder(tmp_path, out_root, kit):
    project = kit.build(tmp_path, signed=False)
    _suggest(project, "call_1", 4, 5)
    sign_off(project, "Rita Reviewer")
    path = project.path
    project.close()
    exe = Path(sys.executable).with_name("redactdesk")
    res = subprocess.run([str(exe), "export", str(path), "--out", str(out_root / "rel")],
                         capture_output=True, text=True, timeout=120)
    assert res.returncode != 0
    assert "release refused" in res.stderr and "call_1" in res.stderr
    assert "Marjorie" not in res.stderr + res.stdout
    assert _releases(out_root) == []


def test_never_detected_and_audio_only_conversations_are_refused(tmp_path, out_root, kit):
    project = kit.build(tmp_path, signed=False, reviewed=False)
    project.replace_suggestions("call_1", [])
    project.mark_reviewed("call_1")  # call_2: imported with spans but detection never ran over it
    sign_off(project, "Rita Reviewer")
    with pytest.raises(GateClosed) as err:
        export_release(project, out_root / "rel", **kit.kwargs())
    assert "call_2: never detected, not reviewed" in str(err.value)


def test_new_words_clear_detection_and_new_suggestions_reopen_the_review(tmp_path, kit):
    project = kit.build(tmp_path, signed=False)
    assert release_readiness(project).ok
    conv = project.load_conversation("call_1")
    project.replace_words("call_1", conv.words + [Word("bye", 5.3, 5.4)], conv.turns)
    gate = {g.id: g for g in release_readiness(project).conversations}
    assert not gate["call_1"].detected and gate["call_1"].blocked
    _suggest(project, "call_2", 4, 5)
    assert project.load_conversation("call_2").status.value == "in_review"


def test_excluded_conversations_are_left_out_and_named_in_the_manifest(tmp_path, out_root, kit):
    project = kit.build(tmp_path, signed=False)
    _suggest(project, "call_2", 4, 5)
    sign_off(project, "Rita Reviewer", exclude=["call_2"])
    result = export_release(project, out_root / "rel", **kit.kwargs())
    assert result.conversations == ["call_1"]
    assert result.manifest["gate"]["excluded_ids"] == ["call_2"]
    assert not (result.path / "corpus" / "call_2.json").exists()
    with pytest.raises(ExportRefused, match="excluded"):
        export_release(project, out_root / "rel2", conversation_ids=["call_2"], **kit.kwargs())


def test_written_override_releases_with_open_suggestions_anonymised(tmp_path, out_root, kit):
    project = kit.build(tmp_path, signed=False)
    # the whole name of call_2 is only suggested now: reopen it
    for span in project.spans("call_2"):
        project.update_span(span.id, action="reopen", status="suggested")
    with pytest.raises(ValueError, match="written reason"):
        sign_off(project, "Rita Reviewer", overrides={"call_2": "ok"})
    sign_off(project, "Rita Reviewer", overrides={"call_2": "customer consented to release on the call"})
    result = export_release(project, out_root / "rel", **kit.kwargs())
    text = (result.path / "corpus" / "call_2.json").read_text()
    assert "Marjorie" not in text and "Quillfeather" not in text
    assert result.verdict.startswith("PASS WITH OVERRIDES")
    assert result.manifest["gate"]["overrides"]["call_2"]["reason"].startswith("customer consented")
    assert "call_2" in result.risk.unknown


def test_redetection_stops_a_card_nobody_marked(tmp_path, out_root, kit):
    project = kit.build(tmp_path, signed=False, n_conversations=1)
    _extend(project, "call_1", ["and", "my", "card", "is", "4111", "1111", "1111", "1111"], "customer")
    project.replace_suggestions("call_1", [])
    project.mark_reviewed("call_1")  # a careless review: the card is nowhere marked
    sign_off(project, "Rita Reviewer")
    with pytest.raises(UndecidedFound) as err:
        export_release(project, out_root / "rel", **kit.kwargs())
    found = err.value.findings
    assert any(f.category == "CREDIT_CARD" and f.start_word >= 15 for f in found)
    assert "4111" not in str(err.value)
    assert _releases(out_root) == []
    # a person decides: it is the card -> accepted, anonymised, and the release goes out
    card = next(f for f in found if f.category == "CREDIT_CARD")
    project.add_span("call_1", Span(card.start_word, card.end_word, "CREDIT_CARD", status=SpanStatus.ACCEPTED))
    sign_off(project, "Rita Reviewer")
    result = export_release(project, out_root / "rel", **kit.kwargs(
        substitute=kit.substitute(surrogates={"CREDIT_CARD": "5500 0000 0000 0004"})))
    assert "4111" not in (result.path / "text" / "call_1.txt").read_text()
    assert result.manifest["recheck"]["undecided"] == 0


def test_a_rejected_span_is_a_decision_the_recheck_respects(tmp_path, out_root, kit):
    project = kit.build(tmp_path, signed=False, n_conversations=1)
    _extend(project, "call_1", ["ask", "for", "Jennifer", "Lopez"], "agent")
    project.replace_suggestions("call_1", [])
    project.mark_reviewed("call_1")
    sign_off(project, "Rita Reviewer")
    with pytest.raises(UndecidedFound):
        export_release(project, out_root / "rel", **kit.kwargs())
    # the annotator says: the singer, not a participant — not personal data here
    project.add_span("call_1", Span(17, 19, "PERSON", status=SpanStatus.REJECTED))
    sign_off(project, "Rita Reviewer")
    assert export_release(project, out_root / "rel", **kit.kwargs()).manifest["recheck"]["undecided"] == 0


def test_verdict_is_the_first_line_of_report_and_summary(project, out_root, kit):
    result = export_release(project, out_root / "rel", **kit.kwargs())
    first = (result.path / "report.html").read_text().splitlines()[0]
    assert first.startswith("<!-- PASS: signed release of 2 conversation(s)")
    assert release_summary(result).splitlines()[0].startswith("PASS: ")
    draft = export_release(project, out_root / "d", draft=True, **kit.kwargs())
    assert (draft.path / "report.html").read_text().splitlines()[0].startswith("<!-- DRAFT — NOT FOR RELEASE")


def test_measured_residual_risk_above_threshold_refuses(project, out_root, kit):
    project.role = Role.REVIEWER
    project.add_missed("call_1", 0, 1, "PERSON")
    project.add_missed("call_2", 0, 1, "PERSON")
    project.add_missed("call_2", 2, 3, "ADDRESS")
    sign_off(project, "Rita Reviewer")
    with pytest.raises(ExportRefused, match="residual risk"):
        export_release(project, out_root / "rel", **kit.kwargs())
    assert _releases(out_root) == []


def test_unsafe_ids_never_become_paths(tmp_path, out_root, kit):
    project = kit.build(tmp_path, signed=False, n_conversations=1)
    project.db.execute("PRAGMA foreign_keys = OFF")
    with project.transaction():
        for table in ("conversations",):
            project.db.execute(f"UPDATE {table} SET id = '../../escaped' WHERE id = 'call_1'")
        for table in ("words", "turns", "spans"):
            project.db.execute(f"UPDATE {table} SET conversation_id = '../../escaped'")
    sign_off(project, "Rita Reviewer")
    with pytest.raises(ExportRefused, match="not safe as file names"):
        export_release(project, out_root / "rel", **kit.kwargs())
    assert not (tmp_path / "escaped.json").exists() and _releases(out_root) == []


def test_stale_partial_release_is_removed_but_a_running_one_is_kept(out_root):
    stale = out_root / ".rel.partial-abc123"
    (stale / "text").mkdir(parents=True)
    (stale / "text" / "call_1.txt").write_text("revised text")
    Path(str(stale) + ".lock").write_text("")
    running = out_root / ".rel.partial-def456"
    running.mkdir()
    with open(str(running) + ".lock", "w") as held:
        fcntl.flock(held.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        old = out_root / ".old.partial-zzz"  # from a version without lock files, killed long ago
        old.mkdir()
        os.utime(old, (time.time() - 3600, time.time() - 3600))
        assert remove_stale_partials(out_root) == 2
        assert running.exists() and not stale.exists() and not old.exists()


def test_killed_export_leaves_nothing_the_next_export_keeps(project, out_root, kit, tmp_path):
    code = (
        "import os, sys\n"
        "from redactdesk.store import Project\n"
        "from redactdesk.pipeline import export as ex\n"
        "from redactdesk.pipeline.release import text\n"
        "def die(*a, **k):\n"
        "    os.kill(os.getpid(), 9)\n"
        "text.recheck_release = die\n"
        "sys.path.insert(0, sys.argv[3])\n"
        "from conftest import make_substitute, no_relisten\n"
        "p = Project.open(sys.argv[1])\n"
        "ex.export_release(p, sys.argv[2], substitute=make_substitute(), relisten=no_relisten, prosody=False)\n"
    )
    path = project.path
    project.close()
    res = subprocess.run([sys.executable, "-c", code, str(path), str(out_root / "rel"),
                          str(Path(__file__).parent)], capture_output=True, text=True, timeout=120)
    assert res.returncode == -9
    assert [p.name for p in out_root.iterdir() if p.is_dir()][0].startswith(".rel.partial-")
    from redactdesk.store import Project

    with Project.open(path) as again:
        result = export_release(again, out_root / "rel", **kit.kwargs())
    assert sorted(p.name for p in out_root.iterdir()) == ["rel"]
    assert any("unfinished release" in w for w in result.warnings)
