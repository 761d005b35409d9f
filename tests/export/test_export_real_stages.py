"""Export with the real substitution engine, masker, re-listen check (scripted recogniser) and prosody."""

from __future__ import annotations

import functools
import json

import pytest

from redactdesk.core.types import Role, Word
from redactdesk.pipeline.export import ExportRefused, export_release

substitute_engine = pytest.importorskip("redactdesk.substitute.engine")
audio = pytest.importorskip("redactdesk.audio")


@pytest.fixture
def substituted(project):
    """The real flow: substitution stores the maps, then the reviewer signs off."""
    from redactdesk.pipeline.substitute_project import substitute_project
    from redactdesk.risk.signoff import sign_off

    substitute_project(project)
    sign_off(project, "Rita Reviewer", comment="after substitution")
    return project


def deaf(samples, rate):
    return []


def hears_the_name(samples, rate):
    """A recogniser that hears the caller's name wherever it listens (as if masking had failed)."""
    seconds = len(samples) / rate
    return [Word("Marjorie", t / 10, t / 10 + 0.25) for t in range(0, int(seconds * 10) - 2, 3)]


def test_real_stages_write_a_clean_release(substituted, out_root, kit):
    project = substituted
    result = export_release(project, out_root / "rel", mask_method="beep",
                            relisten=functools.partial(audio.relisten, recogniser=deaf))
    manifest = json.loads((result.path / "manifest.json").read_text())
    assert manifest["leak_scan"]["relisten_run"] and manifest["leak_scan"]["relisten_leaks"] == 0
    assert manifest["leak_scan"]["relisten"]["call_1"]["items_checked"] == 3
    rows = {r["conversation"]: r for r in manifest["prosody"]}
    assert rows["call_1"]["ranges"] == 3 and rows["call_1"]["pitch_rmsd_silence"] > 0
    text = (result.path / "corpus" / "call_1.json").read_text()
    for original in kit.originals:
        assert original.lower() not in text.lower()
    conv = json.loads(text)
    assert len(conv["anonymised"]) == 3 and all(a["surrogate"] for a in conv["anonymised"])
    assert "Prosody" in (result.path / "report.html").read_text()


def test_real_relisten_leak_blocks_until_a_reviewer_overrides(substituted, out_root, kit):
    project = substituted
    leaky = functools.partial(audio.relisten, recogniser=hears_the_name)
    with pytest.raises(ExportRefused, match="re-listen check still recognises"):
        export_release(project, out_root / "rel", mask_method="beep", relisten=leaky, prosody=False)
    assert list(out_root.iterdir()) == []
    project.role = Role.REVIEWER
    with pytest.raises(ExportRefused, match="written reason"):
        export_release(project, out_root / "rel", mask_method="beep", relisten=leaky, prosody=False,
                       override_reason="ok")
    result = export_release(project, out_root / "rel", mask_method="beep", relisten=leaky, prosody=False,
                            override_reason="reviewed by ear, the beep hides it")
    assert result.relisten_leaks >= 2 and result.manifest["leak_override"]["by"] == "tester"
    assert result.manifest["leak_override"]["leaks"] == result.relisten_leaks


def test_real_substitution_not_run_since_sign_off_refuses(project, out_root):
    with pytest.raises(ExportRefused, match="pseudonym map"):
        export_release(project, out_root / "rel", relisten=False, prosody=False)
    assert list(out_root.iterdir()) == []
