"""Project-level substitution: maps stored in the project file, revised transcripts on disk."""

from __future__ import annotations

import json

import pytest

from redactdesk.pipeline.substitute_project import substitute_project
from redactdesk.store import Project
from redactdesk.substitute import SubstitutionError, write_revised
from redactdesk.substitute import digits as D
from redactdesk.substitute.text import split_punct

LINES = [("agent", "thank you for calling this is Emma"), ("customer", "hi it's Daniel Brooks from Denver"),
         ("customer", "my number is three one two eight four seven two nine one six")]
SPANS = [(0, "Emma", "PERSON"), (1, "Daniel Brooks", "PERSON"), (1, "Denver", "CITY"),
         (2, "three one two eight four seven two nine one six", "PHONE")]


@pytest.fixture
def project(tmp_path, make_conv):
    p = Project.create(tmp_path / "p.redactdesk")
    for i in range(4):
        conv = make_conv(LINES, SPANS, cid=f"call_{i}")
        for s in conv.spans:
            s.id = None
        conv.meta = {"speakers": {"customer": {"role": "customer", "gender": "male"}}, "span_values": ["secret"]}
        p.add_conversation(conv)
    yield p
    p.close()


def test_maps_are_stored_and_a_rerun_is_stable(project, tmp_path):
    first = substitute_project(project, out_dir=tmp_path / "out")
    assert first.summary()["conversations"] == 4 and first.n_replacements == 16
    assert first.warning_counts() == {}
    rows = project.pseudonyms("call_0")
    assert {r["key"] for r in rows} >= {"person:given:emma", "person:surname:brooks", "city:denver"}
    n_log = len(project.audit_log())
    again = substitute_project(project)
    assert len(project.audit_log()) == n_log  # nothing changed, nothing logged
    assert [r.surrogate for r in again.results["call_0"].replacements] == [
        r.surrogate for r in first.results["call_0"].replacements]
    surrogates = {first.results[c].replacements[1].surrogate for c in first.results}
    assert len(surrogates) > 1  # each call has its own map


def test_linguist_edit_in_the_project_is_used(project):
    substitute_project(project, conversation_ids=["call_1"])
    rows = project.pseudonyms("call_1")
    row = next(r for r in rows if r["key"] == "person:surname:brooks")
    project.put_pseudonyms("call_1", [{**row, "surrogate": "Okafor", "locked": True}], action="pseudonym_edit")
    res = substitute_project(project, conversation_ids=["call_1"]).results["call_1"]
    assert res.replacements[1].surrogate.endswith("Okafor")
    assert project.audit_log(limit=1)[0].action == "pseudonym_edit"  # the re-run changed nothing more


def test_revised_files_hold_no_original_values(project, tmp_path):
    out = substitute_project(project, out_dir=tmp_path / "rev")
    conv = out.conversations["call_2"]
    txt = (tmp_path / "rev" / "call_2.txt").read_text(encoding="utf-8")
    doc = json.loads((tmp_path / "rev" / "call_2.json").read_text(encoding="utf-8"))
    assert doc["format"] == "redactdesk-conversation" and doc["id"] == "call_2"
    assert "span_values" not in doc["meta"] and doc["meta"]["substitution"]["mode"] == "pseudonym"
    blob = txt + json.dumps(doc)
    for s in conv.spans:
        if s.category == "PHONE":
            said = [w["text"] for w in doc["words"][doc["spans"][3]["start_word"]:doc["spans"][3]["end_word"]]]
            assert D.parse(said, "en").digits != D.parse(conv.span_text(s).split(), "en").digits
            continue
        for w in conv.words[s.start_word:s.end_word]:
            assert split_punct(w.text)[1] not in blob, w.text
    assert txt.startswith("agent: thank you for calling this is ")
    assert len(doc["spans"]) == 4 and all(sp["end_word"] <= len(doc["words"]) for sp in doc["spans"])


def test_generalise_mode_reports_k_and_information_loss(project, tmp_path):
    out = substitute_project(project, mode="generalise", k=3, out_dir=tmp_path / "gen")
    rep = out.generalisation
    assert rep is not None and rep.achieved_k == 4 and rep.k_met
    assert rep.information_loss["city"]["mean_il"] == 0.0  # all four share Denver: nothing to generalise
    doc = json.loads((tmp_path / "gen" / "call_0.json").read_text(encoding="utf-8"))
    assert doc["meta"]["quasi_identifiers_generalised"]["city"] == "Denver"
    with pytest.raises(SubstitutionError):
        substitute_project(project, mode="shuffle")


def test_write_revised_refuses_a_mismatched_result(project, tmp_path):
    out = substitute_project(project, conversation_ids=["call_0"])
    other = project.load_conversation("call_1")
    with pytest.raises(SubstitutionError, match="not"):
        write_revised(other, out.results["call_0"], tmp_path)
