"""Model versions are pruned (issue 17): only the newest ``learn.keep_versions`` versions and the one in
use keep their model, the scores of every version stay, a pruned version cannot be rolled back to, and
the project file stops growing."""

from __future__ import annotations

import os

import pytest

from redactdesk.core.types import Role
from redactdesk.learn.errors import LearnError
from redactdesk.learn.service import TrainResult, model_summary, save_version
from redactdesk.learn.versions import DEFAULT_KEEP, KEEP_SETTING, MODEL_NAME, prune, rollback

KIND = "spacy-ner"
BLOB = 256 * 1024  # a stand-in model: big enough that keeping every one would show in the file size


@pytest.fixture()
def project(tmp_path):
    from redactdesk.store import Project

    proj = Project.create(tmp_path / "p.rdproj", role=Role.REVIEWER)
    yield proj
    proj.close()


def _update(project, n):
    result = TrainResult(model=None, n_labelled=n, metrics={"f1": 0.5, "n_labelled": n}, blob=os.urandom(BLOB),
                         kind=KIND)
    return save_version(project, result)


def _stored(project):
    return [r["id"] for r in project.models(MODEL_NAME) if r["stored"]]


def _pages(project):
    return project.db.execute("PRAGMA page_count").fetchone()[0]


def test_after_n_plus_3_updates_at_most_n_plus_1_models_are_kept_and_the_file_stops_growing(project):
    ids = [_update(project, 10 * k).id for k in range(1, DEFAULT_KEEP + 4)]
    assert _stored(project) == ids[-DEFAULT_KEEP:]
    versions = model_summary(project, "tagger").versions
    assert [v.id for v in versions] == ids  # every version's scores stay
    assert [v.stored for v in versions] == [False] * 3 + [True] * DEFAULT_KEEP
    assert project.audit_log(limit=1)[0].action in {"prune_models", "train_model"}
    assert any(e.action == "prune_models" and e.after["model_ids"] == [ids[0]] for e in project.audit_log())

    size = _pages(project)
    for k in range(20):
        _update(project, 100 + k)
    assert len(_stored(project)) == DEFAULT_KEEP
    assert _pages(project) <= size * 1.1  # the freed pages are reused


def test_rollback_to_a_pruned_version_is_refused_and_the_version_in_use_is_kept(project):
    project.set_setting(KEEP_SETTING, 2)
    ids = [_update(project, 10 * k).id for k in range(1, 4)]
    assert _stored(project) == ids[1:]
    with pytest.raises(LearnError, match=f"version {ids[0]} was pruned") as err:
        rollback(project, ids[0], "tagger")
    assert "cannot be used again" in str(err.value)
    assert model_summary(project, "tagger").active == ids[-1]  # nothing changed

    rollback(project, ids[1], "tagger")
    newer = [_update(project, 40 + k).id for k in range(3)]
    # the newest two, plus the rolled-back-to version while it was in use (it is no longer in use now)
    assert _stored(project) == newer[-2:]
    rollback(project, newer[-2], "tagger")
    _update(project, 99)
    _update(project, 100)
    assert newer[-2] not in _stored(project)  # no longer in use, and older than the newest two

    older, active = _stored(project)
    rollback(project, older, "tagger")
    project.set_setting(KEEP_SETTING, 1)
    assert prune(project, KIND) == []  # the newest, and the one in use
    rollback(project, active, "tagger")
    assert prune(project, KIND) == [older]
    assert _stored(project) == [active]


def test_a_bad_keep_setting_falls_back_to_the_default(project):
    project.set_setting(KEEP_SETTING, "lots")
    ids = [_update(project, k).id for k in range(DEFAULT_KEEP + 1)]
    assert _stored(project) == ids[1:]


def test_the_setting_is_in_the_catalogue_and_checked():
    from redactdesk.pipeline.project_config import SettingError, lookup

    setting = lookup(KEEP_SETTING)
    assert setting.default == DEFAULT_KEEP and setting.parse("3") == 3 and not setting.signed
    with pytest.raises(SettingError):
        setting.parse("0")
