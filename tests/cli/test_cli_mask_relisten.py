"""`redactdesk mask P --relisten`: the re-listen check runs on the stage's executor and its verdict
decides the exit code."""

from __future__ import annotations

import numpy as np
import pytest
import soundfile as sf

from redactdesk.cli.main import main
from redactdesk.core.types import Conversation, Span, SpanStatus, Word
from redactdesk.store import Project


@pytest.fixture
def tiny_project(tmp_path, monkeypatch, sound_recogniser):
    import importlib

    relisten_module = importlib.import_module("redactdesk.audio.relisten")  # the package exports a function of that name
    monkeypatch.setattr(relisten_module, "whisper_recogniser", lambda model, language: sound_recogniser("Lee"))
    monkeypatch.setattr(relisten_module, "whisper_batch_recogniser",  # the default: clips heard in batches
                        lambda model, language, **kw: lambda clips, rate: [sound_recogniser("Lee")(x, rate)
                                                                           for x in clips])
    path = tmp_path / "p.rdproj"
    project = Project.create(path)
    rate = 16000
    x = np.zeros(3 * rate, dtype=np.float32)
    x[int(1.5 * rate):int(2.4 * rate)] = 0.3 * np.sin(np.arange(int(0.9 * rate)) * 0.2)  # only the name is heard
    for n in range(2):
        audio = tmp_path / f"call_{n}.wav"
        sf.write(str(audio), x, rate, subtype="PCM_16")
        words = [Word(t, 0.5 * i, 0.5 * i + 0.4) for i, t in enumerate("my name is Ann Lee".split())]
        project.add_conversation(Conversation(id=f"call_{n}", audio_path=str(audio), duration=3.0, words=words,
                                              spans=[Span(3, 5, "PERSON", status=SpanStatus.ACCEPTED)]))
    project.close()
    return path


def test_mask_relisten_in_one_worker_reports_each_conversation(tiny_project, tmp_path, capsys):
    assert main(["mask", str(tiny_project), "--out", str(tmp_path / "silent"), "--method", "silence",
                 "--relisten", "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert out.count("re-listen: 0 item(s) still recognised") == 2


def test_mask_relisten_exits_1_while_an_item_is_still_heard(tiny_project, tmp_path, capsys):
    assert main(["mask", str(tiny_project), "--out", str(tmp_path / "noisy"), "--method", "noise",
                 "--relisten", "--workers", "1"]) == 1  # noise keeps sound in the range: the fake hears "Lee"
    out = capsys.readouterr().out
    assert out.count("re-listen: 1 item(s) still recognised") == 2
    assert "Ann" not in out and "Lee" not in out


def test_relisten_runs_as_one_task_per_conversation_on_the_executor(tiny_project, tmp_path):
    from redactdesk.pipeline.executor import InProcess
    from redactdesk.pipeline.masking import mask_project_with, relisten_project_with
    from redactdesk.pipeline.stage_tasks import relisten_task

    class Recording(InProcess):
        def __init__(self):
            self.runs = []

        def run(self, fn, tasks, **kw):
            self.runs.append((fn, [t.key for t in tasks], kw.get("warm"), [t.kwargs for t in tasks]))
            return super().run(fn, tasks, **kw)

    executor = Recording()
    with Project.open(tiny_project) as project:
        reports = mask_project_with(project, tmp_path / "out", "noise")
        heard = relisten_project_with(project, reports, executor=executor, scheme="packed")
    options = {"model": "tiny.en", "scheme": "packed"}
    assert executor.runs == [(relisten_task, ["call_0", "call_1"], [("relisten", "tiny.en", "en")], [options] * 2)]
    assert {cid: [x.category for x in rep.leaks] for cid, rep in heard.items()} == \
        {"call_0": ["PERSON"], "call_1": ["PERSON"]}


def test_the_cli_offers_every_relisten_scheme(capsys):
    """The CLI lists the names itself (importing the audio package at start-up costs numpy and scipy)."""
    from redactdesk.audio.relisten import SCHEMES

    with pytest.raises(SystemExit):
        main(["mask", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "{" + ",".join(SCHEMES) + "}" in help_text


def test_mask_relisten_scheme_reaches_the_check(tiny_project, tmp_path, capsys, monkeypatch):
    import redactdesk.pipeline.masking as masking

    real, seen = masking.relisten_project_with, []

    def spy(*args, **kw):
        seen.append(kw.get("scheme"))
        return real(*args, **kw)

    monkeypatch.setattr(masking, "relisten_project_with", spy)
    assert main(["mask", str(tiny_project), "--out", str(tmp_path / "o"), "--method", "noise", "--relisten",
                 "--relisten-scheme", "packed", "--workers", "1"]) == 1
    assert capsys.readouterr().out.count("re-listen: 1 item(s) still recognised") == 2 and seen == ["packed"]


def test_the_voice_method_tells_the_check_what_was_spoken(tiny_project, tmp_path):
    """Words an item shares with its spoken surrogate are no leak: the check must get the surrogates."""
    from redactdesk.pipeline.masking import mask_project_with, relisten_project_with

    with Project.open(tiny_project) as project:
        reports = mask_project_with(project, tmp_path / "out", "noise")
        heard = relisten_project_with(project, reports, method="voice",
                                      surrogates=lambda conv: {s.id: "Lee Marvin" for s in conv.spans})
    assert all(not rep.leaked for rep in heard.values())  # "Lee" was said on purpose
