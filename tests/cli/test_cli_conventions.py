"""CLI conventions (issue 21 item 4): help on every option, one --lang, --json, - for stdin/stdout,
an audited `config`, -v/-q and a log without personal data, documented exit codes, shell completion,
and the `tasks` round trip with annotation tools."""

from __future__ import annotations

import argparse
import io
import json
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

from redactdesk.cli.main import (
    EXIT_CHECK_FAILED,
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_USAGE,
    build_parser,
    main,
)
from redactdesk.core.types import Conversation, Span, SpanStatus, Word
from redactdesk.store import Project

SECRET = "Quillfeather"
WORDS = [("hello", 0.1, 0.4, "agent"), ("this", 1.2, 1.35, "customer"), ("is", 1.37, 1.45, "customer"),
         ("Marjorie", 1.5, 1.9, "customer"), (SECRET, 1.92, 2.4, "customer"), ("thanks", 4.4, 4.7, "agent")]


@pytest.fixture
def project(tmp_path) -> Path:
    path = tmp_path / "p.rdproj"
    with Project.create(path, actor="tester") as p:
        conv = Conversation(id="call_1", duration=5.0, words=[Word(t, s, e, 0.9, sp) for t, s, e, sp in WORDS])
        conv.turns = conv.turns_from_speakers()
        conv.spans = [Span(3, 5, "PERSON", status=SpanStatus.SUGGESTED, score=0.8)]
        p.add_conversation(conv)
    return path


def _walk(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _walk(sub, (*path, name))
        else:
            yield path, action


def test_every_option_of_every_command_has_help():
    missing = [(" ".join(path), action.option_strings or action.dest) for path, action in _walk(build_parser())
               if not isinstance(action, argparse._HelpAction | argparse._VersionAction) and not action.help]
    assert missing == []
    commands = {path[0] for path, _ in _walk(build_parser()) if path}
    assert {"tasks", "config", "completion"} <= commands


def test_one_lang_option_with_a_hidden_deprecated_alias(capsys):
    parser = build_parser()
    for cmd in (["init", "p"], ["import", "p", "a.wav"], ["transcribe", "p"], ["detect", "p"], ["eval"]):
        assert parser.parse_args([*cmd, "--lang", "es"]).lang == "es"
        assert parser.parse_args([*cmd, "--language", "es"]).lang == "es"
        sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices[cmd[0]]
        assert "--lang" in sub.format_help() and "--language" not in sub.format_help()
    assert "--language is deprecated; use --lang" in capsys.readouterr().err


def test_json_output_of_list_show_risk_signoff_review_sample(project, capsys):
    def run(*args: str):
        code = main(list(args))
        return code, json.loads(capsys.readouterr().out)

    code, rows = run("list", str(project), "--json")
    assert code == 0 and rows[0]["id"] == "call_1" and rows[0]["suggested"] == 1
    code, summary = run("show", str(project), "--json", "--audit", "2")
    assert summary["conversations"] == 1 and summary["spans"]["suggested"] == 1 and len(summary["audit"]) == 1
    code, conv = run("show", str(project), "call_1", "--json")
    assert [t["speaker"] for t in conv["turns"]] == ["agent", "customer", "agent"]
    code, risk = run("risk", str(project), "--json")
    assert code in (0, 1) and "passed" in risk
    code, state = run("signoff", str(project), "--json")
    assert code == EXIT_CHECK_FAILED and state["valid"] is False
    code, sample = run("review-sample", str(project), "--size", "1", "--json")
    assert code == 0 and [s["id"] for s in sample["sample"]] == ["call_1"]


def test_eval_json(capsys):
    assert main(["eval", "--generate", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["conversations"] == 1 and out["report"]


def test_config_lists_sets_and_audits(project, capsys):
    assert main(["config", str(project), "--json"]) == 0
    rows = {r["key"]: r for r in json.loads(capsys.readouterr().out)}
    assert rows["mask.padding"]["value"] == 0.05 and rows["mask.padding"]["signed"] is True
    assert {"mask.min_confidence", "mask.channel_mode"} <= set(rows)
    assert main(["--user", "ana", "config", str(project), "mask.padding", "0.12"]) == 0
    assert "mask.padding = 0.12 (was 0.05)" in capsys.readouterr().out
    assert main(["config", str(project), "mask.channel_mode", "both"]) == 0
    with Project.open(project) as p:
        assert p.setting("mask.padding") == 0.12 and p.setting("mask.channel_mode") == "both"
        entries = [d for d in p.audit_log() if d.action == "setting"]
    assert [(d.actor, d.before, d.after["value"]) for d in entries if d.after["key"] == "mask.padding"] == \
        [("ana", {"key": "mask.padding", "value": None}, 0.12)]
    assert main(["config", str(project), "mask.padding", "9" + SECRET]) == EXIT_USAGE
    err = capsys.readouterr().err
    assert "must be a number" in err and SECRET not in err
    assert main(["config", str(project), "mask.unknown"]) == EXIT_USAGE


def test_a_masking_setting_changed_after_signoff_makes_it_stale(project, capsys):
    from redactdesk.risk.signoff import sign_off, signoff_state

    with Project.open(project) as p:
        sign_off(p, "Rita Reviewer", "ok")
        assert signoff_state(p).valid
    assert main(["config", str(project), "mask.min_confidence", "0.8"]) == 0
    with Project.open(project) as p:
        assert not signoff_state(p).valid


def test_exit_codes(project, monkeypatch, capsys):
    from redactdesk.cli import commands_project

    assert EXIT_INTERNAL == 3
    assert main(["list", str(project)]) == 0
    assert main(["signoff", str(project)]) == EXIT_CHECK_FAILED  # no sign-off yet
    with pytest.raises(SystemExit) as usage:
        main(["list"])
    assert usage.value.code == EXIT_USAGE
    monkeypatch.setattr(commands_project, "cmd_list", lambda args: (_ for _ in ()).throw(KeyboardInterrupt()))
    assert main(["list", str(project)]) == EXIT_INTERRUPTED
    monkeypatch.setattr(commands_project, "cmd_list", lambda args: 1 / 0)
    monkeypatch.delenv("REDACTDESK_TRACEBACK", raising=False)
    assert main(["list", str(project)]) == EXIT_INTERNAL
    assert "internal error (ZeroDivisionError)" in capsys.readouterr().err


def test_activity_log_is_private_and_holds_no_values(project, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    assert main(["-v", "signoff", str(project), "--reviewer", "Rita", "--comment", f"checked {SECRET}"]) in (0, 1)
    assert main(["show", str(project), "call_1", "--reveal"]) == 0
    assert SECRET in capsys.readouterr().out  # --reveal shows it on the terminal, as asked
    log = tmp_path / "state" / "redactdesk" / "log" / "redactdesk.log"
    text = log.read_text()
    assert stat.S_IMODE(log.stat().st_mode) == 0o600
    assert "start signoff -v --reviewer --comment" in text and "end show exit 0" in text
    assert SECRET not in text and "Rita" not in text and "Marjorie" not in text


def test_quiet_and_verbose_are_exclusive(project):
    with pytest.raises(SystemExit):
        main(["-v", "-q", "list", str(project)])


def test_bash_completion_script(capsys):
    pytest.importorskip("shtab")
    assert main(["completion", "bash"]) == 0
    script = capsys.readouterr().out
    for word in ("redactdesk", "transcribe", "tasks", "--span-tier", "--lang"):
        assert word in script
    if shutil.which("bash"):
        check = subprocess.run(["bash", "-n"], input=script, text=True, capture_output=True)
        assert check.returncode == 0, check.stderr


def test_tasks_round_trip_with_label_studio(project, tmp_path, capsys):
    out = tmp_path / "ls.json"
    assert main(["tasks", "export", str(project), "--to", "labelstudio", "--out", str(out)]) == 0
    assert "original transcripts" in capsys.readouterr().err
    tasks = json.loads(out.read_text())
    result = tasks[0]["predictions"][0]["result"]
    assert result[0]["value"]["paragraphlabels"] == ["PERSON"]
    region = dict(result[0], value={**result[0]["value"], "paragraphlabels": ["PERSON"]})
    moved = dict(region, value={**region["value"], "startOffset": 0, "endOffset": 4})  # the annotator adds "this"
    tasks[0]["annotations"] = [{"id": 1, "result": [region, moved], "was_cancelled": False}]
    out.write_text(json.dumps(tasks))
    assert main(["tasks", "import", str(project), str(out), "--from", "labelstudio", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary == {"added": 1, "accepted_suggestions": 0, "already_present": 1, "conversations": 1,
                       "unmapped_entities": 0, "status": "suggested"}
    with Project.open(project) as p:
        spans = p.spans("call_1")
        assert sorted((s.start_word, s.end_word) for s in spans) == [(1, 2), (3, 5)]
        assert p.audit_log(limit=1)[0].action == "import:labelstudio"


def test_tasks_export_to_stdout_and_presidio_from_stdin(project, monkeypatch, capsys):
    assert main(["tasks", "export", str(project), "--to", "text", "--out", "-"]) == 0
    line = json.loads(capsys.readouterr().out)
    assert line["id"] == "call_1" and SECRET in line["text"]
    start = line["text"].index("Marjorie")
    results = {"id": "call_1", "text": line["text"],
               "results": [{"entity_type": "PERSON", "start": start, "end": start + 21, "score": 0.85}]}
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(json.dumps(results).encode())))
    assert main(["tasks", "import", str(project), "-", "--from", "presidio", "--status", "accepted"]) == 0
    assert "1 open suggestion(s) accepted" in capsys.readouterr().out
    with Project.open(project) as p:
        assert [(s.start_word, s.end_word, s.status) for s in p.spans("call_1", SpanStatus.ACCEPTED)] == \
            [(3, 5, SpanStatus.ACCEPTED)]


def test_tasks_import_that_does_not_fit_changes_nothing(project, tmp_path, capsys):
    bad = tmp_path / "r.jsonl"
    bad.write_text(json.dumps({"id": "call_1", "results": [{"entity_type": "PERSON", "start": 0, "end": 5},
                                                           {"entity_type": "PERSON", "start": 900, "end": 905}]}))
    assert main(["tasks", "import", str(project), str(bad), "--from", "presidio"]) == EXIT_USAGE
    assert "result 2" in capsys.readouterr().err
    with Project.open(project) as p:
        assert len(p.spans("call_1")) == 1


def test_import_reads_a_span_tier_and_never_makes_it_a_speaker(tmp_path, capsys):
    from redactdesk.formats import write_textgrid

    proj = tmp_path / "q.rdproj"
    assert main(["init", str(proj)]) == 0
    wav = tmp_path / "call.wav"
    sf.write(str(wav), np.zeros(16000 * 3, dtype="float32"), 16000)
    words = [Word(t, s, e, speaker=sp) for t, s, e, sp in WORDS if e < 3]
    tg = write_textgrid(words, tmp_path / "call.TextGrid", duration=3.0, items=[(1.5, 2.4, "PERSON")])
    tg.write_text(tg.read_text().replace('name = "items"', 'name = "PII"'))
    assert main(["import", str(proj), str(wav), "--transcript", str(tg), "--span-tier", "PII",
                 "--span-status", "accepted"]) == 0
    assert "1 spans" in capsys.readouterr().out
    with Project.open(proj) as p:
        conv = p.load_conversation("call")
    assert {t.speaker for t in conv.turns} == {"agent", "customer"}
    assert [(s.start_word, s.end_word, s.category, s.status) for s in conv.spans] == \
        [(3, 5, "PERSON", SpanStatus.ACCEPTED)]


def test_detect_jsonl_reads_stdin_and_writes_stdout(tmp_path):
    exe = Path(sys.executable).with_name("redactdesk")
    run = subprocess.run([str(exe), "detect", "--jsonl", "-", "--out", "-"], capture_output=True, text=True,
                         input=json.dumps({"id": 1, "text": "my name is Marjorie Quillfeather"}) + "\n",
                         timeout=300, env={**__import__("os").environ, "XDG_STATE_HOME": str(tmp_path)})
    assert run.returncode == 0, run.stderr[-2000:]
    out = json.loads(run.stdout)
    assert out["id"] == 1 and out["spans"][0]["category"] == "PERSON"


def test_the_activity_log_takes_no_stage_messages(tmp_path, monkeypatch):
    import logging

    from redactdesk.cli.conventions import configure_logging

    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    path = configure_logging(0, False)
    logging.getLogger("redactdesk.asr.transcribe").warning("transcribed %s", f"{SECRET}_call.wav")
    logging.getLogger("redactdesk.cli").info("start list")
    for h in logging.getLogger("redactdesk").handlers:
        h.flush()
    text = path.read_text()
    assert "start list" in text and SECRET not in text
