"""Resumable runs: an unfinished run with the same parameters and calls resumes; anything else starts afresh."""

from __future__ import annotations

from redactdesk.pipeline import run_journal
from redactdesk.store import Project


def test_an_unfinished_run_resumes_and_a_finished_one_is_forgotten(tmp_path):
    project = Project.create(tmp_path / "p.rdproj")
    done: set[str] = set()

    def finished(cid, record):
        return cid in done

    run = run_journal.begin(project, "detect", ["a", "b", "c"], {"x": 1}, finished)
    assert run.pending == ["a", "b", "c"] and not run.resumed
    done.add("a")

    again = run_journal.begin(project, "detect", ["a", "b", "c"], {"x": 1}, finished)
    assert again.run_id == run.run_id and again.pending == ["b", "c"] and again.resumed

    other = run_journal.begin(project, "detect", ["a", "b", "c"], {"x": 2}, finished)  # new parameters
    assert other.run_id != run.run_id and other.pending == ["a", "b", "c"]
    assert run_journal.begin(project, "detect", ["a", "b"], {"x": 2}, finished).pending == ["a", "b"]

    latest = run_journal.begin(project, "detect", ["a", "b"], {"x": 2}, finished)
    run_journal.finish(project, latest)
    assert project.setting("runs.detect") is None
    assert run_journal.begin(project, "detect", ["a", "b"], {"x": 2}, finished).pending == ["a", "b"]


def test_settings_of_a_run_are_not_signed(tmp_path):
    from redactdesk.risk.signoff import SIGNED_SETTINGS_KEYS, SIGNED_SETTINGS_PREFIXES

    assert not run_journal.PREFIX.startswith(SIGNED_SETTINGS_PREFIXES)
    assert not any(k.startswith(run_journal.PREFIX) for k in SIGNED_SETTINGS_KEYS)
