"""The `redactdesk` command fails closed (issue 15): hostile arguments and files give one clear line
and a documented exit code — never a traceback, a hang, or a value from the input."""

from __future__ import annotations

import os
import resource
import stat
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

from redactdesk.core.ids import ID_RULE

REDACTDESK = Path(sys.executable).with_name("redactdesk")
SECRET = "Mckenzie"


def _cap_memory() -> None:  # in the child: a reader without limits dies here, not the machine
    resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))


def rd(*args: str, tmp: Path, timeout: float = 120, **kw) -> subprocess.CompletedProcess:
    env = {**os.environ, "XDG_STATE_HOME": str(tmp / "state"), "HF_HUB_OFFLINE": "1"}
    env.pop("REDACTDESK_TRACEBACK", None)
    return subprocess.run([str(REDACTDESK), *args], capture_output=True, text=True, timeout=timeout, env=env,
                          preexec_fn=_cap_memory, **kw)


def assert_clean(run: subprocess.CompletedProcess, code: int) -> None:
    assert run.returncode == code, (run.returncode, run.stderr[-3000:])
    assert "Traceback" not in run.stderr and "Traceback" not in run.stdout
    assert SECRET not in run.stderr


@pytest.fixture
def wav(tmp_path) -> Path:
    path = tmp_path / "call.wav"
    sf.write(str(path), (0.1 * np.sin(np.arange(32000) / 16000 * 2 * np.pi * 220)).astype("float32"), 16000)
    return path


@pytest.fixture
def project(tmp_path, wav) -> Path:
    from redactdesk.pipeline.importing import import_recording
    from redactdesk.store import Project

    ctm = tmp_path / "t.ctm"
    ctm.write_text(f"call A 0.1 0.2 hello\ncall A 0.4 0.3 {SECRET}\ncall A 0.8 0.2 there\n", encoding="utf-8")
    path = tmp_path / "p.rdproj"
    with Project.create(path) as p:
        import_recording(p, wav, ctm, conversation_id="call")
    return path


def _ids(project: Path) -> list[str]:
    from redactdesk.store import Project

    with Project.open(project) as p:
        return p.conversation_ids()


def test_help_documents_the_exit_codes(tmp_path):
    run = rd("--help", tmp=tmp_path)
    assert_clean(run, 0)
    assert "exit codes:" in run.stdout
    for code, word in (("0", "done"), ("1", "check failed"), ("2", "usage"), ("3", "internal error"),
                       ("141", "closed early")):
        assert any(line.split()[:1] == [code] and word in line for line in run.stdout.splitlines()), code


def in_process(capsys, *args: str) -> tuple[int, str]:
    """The same command through ``main()`` in this process (for variants of a case a subprocess
    already covers): exit code and stderr."""
    from redactdesk.cli.main import main

    code = main(list(args))
    err = capsys.readouterr().err
    assert "Traceback" not in err and SECRET not in err
    return code, err


def test_mark_needs_whole_word_numbers(tmp_path, project, capsys):
    run = rd("risk", str(project), "--mark", "call", "x", "3", "MISSED_PERSON", tmp=tmp_path)
    assert_clean(run, 2)
    assert "--mark" in run.stderr and "word numbers" in run.stderr and len(run.stderr.strip().splitlines()) == 1
    for start, end in (("1", "two"), ("-1", "3"), ("1.5", "3"), ("5", "2"), ("1", "99999999999999999999999"),
                       ("\u0663", "5")):
        code, err = in_process(capsys, "risk", str(project), "--mark", "call", start, end, "MISSED_PERSON")
        assert code == 2 and "--mark" in err, (start, end, err)


def test_mark_with_an_unknown_tag_is_a_usage_error(tmp_path, project):
    run = rd("risk", str(project), "--mark", "call", "0", "1", "NOT_A_TAG", tmp=tmp_path)
    assert_clean(run, 2)
    assert "MISSED_" in run.stderr


def test_list_into_a_closed_pipe_ends_quietly(tmp_path, project):
    env = {**os.environ, "XDG_STATE_HOME": str(tmp_path / "state")}
    proc = subprocess.Popen([str(REDACTDESK), "list", str(project)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env)
    proc.stdout.close()  # like `| head` having read its line and gone: every write now fails with EPIPE
    _, err = proc.communicate(timeout=120)
    assert proc.returncode in (0, 141), err
    assert b"Traceback" not in err and b"BrokenPipe" not in err and err.strip() == b""


def test_list_piped_into_head(tmp_path, project):
    run = subprocess.run(f"'{REDACTDESK}' list '{project}' | head -1", shell=True, capture_output=True,
                         text=True, timeout=120, env={**os.environ, "XDG_STATE_HOME": str(tmp_path / "state")})
    assert run.stdout.startswith("conversation") and run.stderr == ""


def test_import_refuses_ids_that_are_paths(tmp_path, project, wav, capsys):
    for bad in ("../../x", "a\nb"):
        run = rd("import", str(project), str(wav), "--id", bad, tmp=tmp_path)
        assert_clean(run, 2)
        assert ID_RULE in run.stderr
        assert bad not in run.stderr  # the id is never echoed (it may hold a newline or an escape sequence)
    for bad in ("/tmp/redactdesk-abs-id", "..", ".", "a/b", "x" * 65, ".hidden", "a\x1b[2Jb", "a\x00b", ""):
        code, err = in_process(capsys, "import", str(project), str(wav), "--id", bad)
        assert code == 2 and ID_RULE in err and (len(bad) < 3 or bad not in err), repr(bad)
    assert _ids(project) == ["call"]  # nothing stored


def test_import_with_a_251_character_file_name(tmp_path, project, wav):
    long_audio = tmp_path / ("a" * 246 + ".flac")  # 251 characters; a sidecar name would be too long
    data, rate = sf.read(str(wav))
    sf.write(str(long_audio), data, rate)
    run = rd("import", str(project), str(long_audio), tmp=tmp_path)
    assert_clean(run, 0)
    assert run.stdout.startswith("imported " + "a" * 64 + ":")
    assert sorted(_ids(project)) == ["a" * 64, "call"]


def test_import_with_a_fifo_transcript_does_not_hang(tmp_path, project, wav):
    fifo = tmp_path / "words.json"
    os.mkfifo(fifo)
    run = rd("import", str(project), str(wav), "--transcript", str(fifo), "--id", "second", tmp=tmp_path, timeout=60)
    assert_clean(run, 1)
    assert "not a regular file" in run.stderr
    assert _ids(project) == ["call"]


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_import_with_an_endless_transcript(tmp_path, project, wav):
    run = rd("import", str(project), str(wav), "--transcript", "/dev/zero", "--id", "second", tmp=tmp_path,
             timeout=60)
    assert_clean(run, 1)
    assert "not a regular file" in run.stderr
    assert _ids(project) == ["call"]


def test_import_with_a_huge_channel_number_is_refused_cleanly(tmp_path, project, wav):
    t = tmp_path / "t.json"
    t.write_text('{"words": [{"text": "' + SECRET + '", "start": 0.1, "end": 0.3, "channel": 1'
                 + "0" * 30 + "}]}", encoding="utf-8")
    run = rd("import", str(project), str(wav), "--transcript", str(t), "--id", "second", tmp=tmp_path)
    assert_clean(run, 1)
    assert "word 1: 'channel' is outside" in run.stderr
    assert _ids(project) == ["call"]


def test_unexpected_errors_are_one_line_and_a_private_log(tmp_path, project, monkeypatch, capsys):
    from redactdesk.cli import commands_project
    from redactdesk.cli.main import EXIT_INTERNAL, main

    def boom(args):
        raise RuntimeError(f"invalid literal for int() with base 10: '{SECRET}'")

    monkeypatch.setattr(commands_project, "cmd_list", boom)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.delenv("REDACTDESK_TRACEBACK", raising=False)
    assert main(["list", str(project)]) == EXIT_INTERNAL
    err = capsys.readouterr().err
    assert SECRET not in err and "Traceback" not in err
    line, = err.strip().splitlines()
    assert line.startswith("redactdesk: internal error (RuntimeError); details in ")
    log = Path(line.split("details in ", 1)[1])
    assert log.is_file() and log.is_relative_to(tmp_path / "state")
    assert stat.S_IMODE(log.stat().st_mode) == 0o600
    assert "Traceback" in log.read_text() and SECRET in log.read_text()  # the details stay private


def test_user_errors_stay_exit_2(tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("hello")
    run = rd("list", str(notes), tmp=tmp_path)
    assert_clean(run, 2)
    assert run.stderr.startswith("redactdesk: error: ")
