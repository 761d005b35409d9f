"""The audio part of an export on a 2-process Dask cluster writes the same release as in-process."""

from __future__ import annotations

import json

import pytest

from redactdesk.pipeline.executor import ExecutorConfig, open_executor
from redactdesk.pipeline.export import LeaksFound, export_release


def test_export_on_a_cluster_writes_the_same_audio_and_report(tmp_path, kit):
    project = kit.build(tmp_path, n_conversations=3)
    seen: list[str] = []

    def relisten(masked_path, conv, ranges, **kw):  # defined here: sent to the workers by value
        return {"leaks": [], "ranges_checked": len(ranges), "items_checked": len(conv.spans)}

    here = export_release(project, tmp_path / "here", mask_method="silence", **kit.kwargs(relisten=relisten))
    with open_executor(ExecutorConfig(workers=2)) as executor:
        there = export_release(project, tmp_path / "there", mask_method="silence", executor=executor,
                               progress=lambda f, m: seen.append(m), **kit.kwargs(relisten=relisten))
        assert executor.client is not None  # it really ran on the cluster
    audio = sorted(k for k in here.files if k.startswith("audio/"))
    assert audio == ["audio/call_1.wav", "audio/call_2.wav", "audio/call_3.wav"]
    assert [there.files[k] for k in audio] == [here.files[k] for k in audio]
    m_here, m_there = (json.loads((r.path / "manifest.json").read_text()) for r in (here, there))
    assert m_there["mask"] == m_here["mask"]
    assert m_there["leak_scan"]["relisten"] == m_here["leak_scan"]["relisten"]
    assert list(m_there["leak_scan"]["relisten"]) == ["call_1", "call_2", "call_3"]
    assert m_there["verdict"].startswith("PASS")
    assert seen[-1] == "release written"


def test_prosody_measured_on_the_workers_matches_in_process(tmp_path, kit):
    """On a cluster the prosody of each masked recording is measured by the worker that masked it."""
    project = kit.build(tmp_path, n_conversations=2)
    kw = kit.kwargs()
    kw.pop("prosody")  # the real measure
    here = export_release(project, tmp_path / "here", mask_method="silence", **kw)
    with open_executor(ExecutorConfig(workers=2)) as executor:
        there = export_release(project, tmp_path / "there", mask_method="silence", executor=executor, **kw)
    m_here, m_there = (json.loads((r.path / "manifest.json").read_text()) for r in (here, there))
    assert [r["conversation"] for r in m_there["prosody"]] == ["call_1", "call_2"]
    assert m_there["prosody"] == m_here["prosody"]


def test_a_text_refusal_on_a_cluster_stops_the_audio_and_writes_nothing(tmp_path, kit):
    """The text steps run beside the cluster's audio work; an original value left in the text still
    refuses the export, and neither a release nor a staging folder remains."""
    project = kit.build(tmp_path, n_conversations=3)
    out = tmp_path / "out"
    out.mkdir()
    with open_executor(ExecutorConfig(workers=2)) as executor, pytest.raises(LeaksFound):
        export_release(project, out / "rel", mask_method="silence", executor=executor,
                       **kit.kwargs(substitute=kit.substitute(leave_original="PHONE")))
    assert sorted(p.name for p in out.iterdir()) == []


def test_a_failed_audio_task_on_a_cluster_stops_the_text_and_writes_nothing(tmp_path, kit):
    project = kit.build(tmp_path, n_conversations=3)
    out = tmp_path / "out"
    out.mkdir()
    (tmp_path / "call_2.wav").write_bytes(b"RIFF not the recording that was imported")
    with open_executor(ExecutorConfig(workers=2)) as executor, pytest.raises(Exception, match="cannot open audio call_2"):
        export_release(project, out / "rel", mask_method="silence", executor=executor, **kit.kwargs())
    assert sorted(p.name for p in out.iterdir()) == []
