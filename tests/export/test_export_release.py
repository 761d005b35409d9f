"""Release export: refusals, atomicity, draft marking, leak scan, manifest."""

from __future__ import annotations

import json

import pytest
import soundfile as sf

from redactdesk.asr.base import AsrCancelled
from redactdesk.core.types import Role
from redactdesk.pipeline.export import (
    ExportError,
    ExportRefused,
    LeaksFound,
    export_release,
    release_summary,
    sha256_of,
)
from redactdesk.pipeline.progress import Cancelled


def _leftovers(out_root):
    return sorted(p.name for p in out_root.iterdir())


def _all_text(folder):
    return "\n".join(_docbin_text(p) if p.suffix == ".spacy" else p.read_text(encoding="utf-8")
                     for p in folder.rglob("*") if p.is_file() and p.suffix not in (".wav", ".flac"))


def _docbin_text(path):
    """Everything a spaCy DocBin holds as text: the docs, their entities and user data."""
    import spacy
    from spacy.tokens import DocBin

    docs = list(DocBin().from_disk(path).get_docs(spacy.blank("en").vocab))
    return "\n".join(f"{d.text} {[e.label_ for e in d.ents]} {d.user_data}" for d in docs)


def test_signed_export_writes_every_format(project, out_root, kit):
    result = export_release(project, out_root / "rel", **kit.kwargs())
    folder = out_root / "rel"
    assert result.path == folder and not result.draft
    assert _leftovers(out_root) == ["rel"]
    names = {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()}
    for cid in ("call_1", "call_2"):
        assert {f"corpus/{cid}.json", f"textgrid/{cid}.TextGrid", f"eaf/{cid}.eaf", f"text/{cid}.txt",
                f"audio/{cid}.wav"} <= names
    assert {"corpus.jsonl", "corpus.conll", "manifest.json", "report.html", "README.txt"} <= names
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["draft"] is False and manifest["signoff"]["state"] == "valid"
    assert manifest["signoff"]["reviewer"] == "Rita Reviewer"
    assert manifest["leak_scan"]["text_findings"] == 0
    assert [c["items"] for c in manifest["conversations"]] == [3, 3]
    summary = release_summary(result)
    assert str(folder) in summary and "0 original value(s)" in summary and "PASS" in summary


def test_no_original_value_or_map_in_release(project, out_root, kit):
    result = export_release(project, out_root / "rel", **kit.kwargs())
    text = _all_text(result.path)
    for original in kit.originals:
        assert original.lower() not in text.lower()
    assert "span_values" not in text and "gender" not in text  # meta other than speaker roles stays home
    assert project.secret not in text
    assert "Bernadette Oakley" in text  # the surrogate is there instead


def test_manifest_sha256_match_every_file(project, out_root, kit):
    result = export_release(project, out_root / "rel", **kit.kwargs())
    manifest = json.loads((result.path / "manifest.json").read_text())
    on_disk = {p.relative_to(result.path).as_posix() for p in result.path.rglob("*") if p.is_file()}
    assert set(manifest["files"]) == on_disk - {"manifest.json", "manifest.sig"}
    for rel, entry in manifest["files"].items():
        assert sha256_of(result.path / rel) == entry["sha256"]
        assert (result.path / rel).stat().st_size == entry["bytes"]
    assert result.files["manifest.json"] == sha256_of(result.path / "manifest.json")
    assert manifest["tool_version"] and manifest["content_hash"] == manifest["signoff"]["content_hash"]


def test_a_signed_release_verifies_and_any_change_is_named(project, out_root, kit):
    from redactdesk.pipeline.release_signature import verify_release

    result = export_release(project, out_root / "rel", **kit.kwargs())
    assert verify_release(result.path).valid
    text = result.path / "text" / "call_1.txt"
    text.write_text(text.read_text() + "Marjorie Quillfeather\n")
    check = verify_release(result.path)
    assert not check.valid and check.verdict.startswith("INVALID") and any("text/call_1.txt" in p for p in check.problems)


def test_unsigned_export_is_refused_and_writes_nothing(unsigned_project, out_root, kit):
    with pytest.raises(ExportRefused, match="not signed off"):
        export_release(unsigned_project, out_root / "rel", **kit.kwargs())
    assert _leftovers(out_root) == []


def test_stale_signoff_blocks_export(project, out_root, kit):
    span = project.spans("call_1")[0]
    project.update_span(span.id, action="recategorise", category="ORGANIZATION")
    with pytest.raises(ExportRefused, match="STALE"):
        export_release(project, out_root / "rel", **kit.kwargs())
    assert _leftovers(out_root) == []


def test_draft_export_is_marked_draft_everywhere(unsigned_project, out_root, kit):
    result = export_release(unsigned_project, out_root / "rel", draft=True, **kit.kwargs())
    assert result.draft and result.path.name == "rel-DRAFT"
    assert _leftovers(out_root) == ["rel-DRAFT"]
    manifest = json.loads((result.path / "manifest.json").read_text())
    assert manifest["draft"] is True and manifest["signoff"]["state"] == "missing"
    assert "DRAFT" in (result.path / "report.html").read_text()
    assert (result.path / "README.txt").read_text().startswith("DRAFT")
    conv = json.loads((result.path / "corpus" / "call_1.json").read_text())
    assert conv["meta"]["draft"] is True
    assert "(DRAFT)" in release_summary(result)


def test_planted_original_is_caught_and_no_release_remains(project, out_root, kit):
    with pytest.raises(LeaksFound) as info:
        export_release(project, out_root / "rel", **kit.kwargs(substitute=kit.substitute(leave_original="PHONE")))
    findings = info.value.findings
    assert findings and {f.category for f in findings} == {"PHONE"}
    assert {f.file for f in findings} >= {"corpus/call_1.json", "corpus.jsonl", "corpus.conll"}
    assert "0612" not in str(info.value)  # the message gives hints, never the value
    assert _leftovers(out_root) == []


def test_planted_original_is_caught_in_a_draft_too(unsigned_project, out_root, kit):
    with pytest.raises(LeaksFound):
        export_release(unsigned_project, out_root / "rel", draft=True,
                       **kit.kwargs(substitute=kit.substitute(leave_original="PERSON")))
    assert _leftovers(out_root) == []


def test_failure_in_a_step_leaves_no_partial_or_temporary_folder(project, out_root, kit):
    calls = []

    def broken_mask(src, dst, ranges, method, params, progress=None, cancel=None):  # mask_file's signature
        calls.append(dst)
        if len(calls) == 2:
            raise RuntimeError("disk on fire")
        dst.write_bytes(src.read_bytes())
        return {"method": method}

    with pytest.raises(RuntimeError, match="disk on fire"):
        export_release(project, out_root / "rel", **kit.kwargs(mask=broken_mask))
    assert len(calls) == 2 and calls[0].exists() is False  # the first masked file went with the temp folder
    assert _leftovers(out_root) == []


@pytest.mark.parametrize("failing_message", ["writing the report", "writing the manifest", "re-listening"])
def test_failure_reported_by_progress_at_any_step_leaves_nothing(project, out_root, kit, failing_message):
    seen = []

    def progress(fraction, message):
        seen.append(message)
        if message.startswith(failing_message):
            raise OSError("injected failure")

    with pytest.raises(OSError, match="injected"):
        export_release(project, out_root / "rel", progress=progress, **kit.kwargs())
    assert any(m.startswith(failing_message) for m in seen)
    assert _leftovers(out_root) == []


def test_cancel_leaves_nothing(project, out_root, kit):
    ticks = []

    def cancel():
        ticks.append(1)
        return len(ticks) > 3

    with pytest.raises(Cancelled):
        export_release(project, out_root / "rel", cancel=cancel, **kit.kwargs())
    assert _leftovers(out_root) == []


def test_a_stage_cancelled_inside_the_export_is_the_exports_cancel(project, out_root, kit):
    # the recogniser of the re-listen check stops with its own AsrCancelled; export only knew MaskCancelled
    # (by its class name), so this one went out as a speech-recognition error
    def cancelled_relisten(*args, **kwargs):
        raise AsrCancelled()

    with pytest.raises(Cancelled, match="export cancelled; no release was written"):
        export_release(project, out_root / "rel", **kit.kwargs(relisten=cancelled_relisten))
    assert _leftovers(out_root) == []


def test_progress_is_monotone_and_ends_at_one(project, out_root, kit):
    fractions = []
    export_release(project, out_root / "rel", progress=lambda f, m: fractions.append(f), **kit.kwargs())
    assert fractions == sorted(fractions) and fractions[-1] == pytest.approx(1.0)


def test_existing_release_folder_is_not_replaced(project, out_root, kit):
    (out_root / "rel").mkdir()
    (out_root / "rel" / "keep.txt").write_text("mine")
    with pytest.raises(ExportError, match="already exists"):
        export_release(project, out_root / "rel", **kit.kwargs())
    assert (out_root / "rel" / "keep.txt").read_text() == "mine"
    assert _leftovers(out_root) == ["rel"]


def _leaky_relisten(masked_path, conv, ranges, **kw):
    return {"leaks": [{"start": 3.0, "end": 4.2, "category": "PHONE", "kind": "full", "heard": "0612 449377"}],
            "items_checked": 3, "ranges_checked": 2}


def test_relisten_leak_refuses_without_override(project, out_root, kit):
    with pytest.raises(ExportRefused, match="re-listen"):
        export_release(project, out_root / "rel", **kit.kwargs(relisten=_leaky_relisten))
    assert _leftovers(out_root) == []


def test_relisten_override_by_reviewer_is_recorded(project, out_root, kit):
    project.role = Role.ANNOTATOR
    with pytest.raises(ExportRefused, match="only a reviewer"):
        export_release(project, out_root / "rel", override_reason="checked by ear",
                       **kit.kwargs(relisten=_leaky_relisten))
    project.role = Role.REVIEWER
    result = export_release(project, out_root / "rel", override_reason="checked by ear: only a cough",
                            **kit.kwargs(relisten=_leaky_relisten))
    manifest = json.loads((result.path / "manifest.json").read_text())
    assert manifest["leak_override"]["reason"] == "checked by ear: only a cough"
    assert manifest["leak_scan"]["relisten_leaks"] == 2
    assert "heard" not in json.dumps(manifest)  # what the recogniser heard stays out of the release
    actions = [d.action for d in project.audit_log(limit=5)]
    assert actions[:2] == ["export", "leak_override"]
    assert "checked by ear" in (result.path / "report.html").read_text()


def test_masked_audio_keeps_format_and_silences_the_items(project, out_root, kit):
    result = export_release(project, out_root / "rel", mask_method="silence", **kit.kwargs())
    src_info = sf.info(project.load_conversation("call_1").audio_path)
    out = result.path / "audio" / "call_1.wav"
    info = sf.info(str(out))
    assert (info.samplerate, info.channels, info.frames, info.subtype) == \
        (src_info.samplerate, src_info.channels, src_info.frames, src_info.subtype)
    x, rate = sf.read(str(out))
    item = x[int(1.6 * rate):int(2.3 * rate)]  # inside "Marjorie Quillfeather"
    assert abs(item).max() < 1e-3
    assert abs(x[int(0.15 * rate):int(0.35 * rate)]).max() > 0.1  # "hello" untouched


def test_export_is_logged(project, out_root, kit):
    export_release(project, out_root / "rel", **kit.kwargs())
    entry = project.audit_log(limit=1)[0]
    assert entry.action == "export" and entry.after["release"] == "rel" and entry.after["draft"] is False


def test_structural_numbers_do_not_count_as_leaks_but_text_does(tmp_path):
    from redactdesk.core.types import Conversation, Span, SpanStatus, Word
    from redactdesk.pipeline.release_scan import scan_release

    words = [Word(t, i, i + 1) for i, t in enumerate("born in nineteen eighty five".split())]
    conv = Conversation(id="c", words=words, spans=[Span(2, 5, "DATE_OF_BIRTH", status=SpanStatus.ACCEPTED)])
    (tmp_path / "a.json").write_text('{"text": "born", "start": 19.85, "end": 20.1}\n')
    (tmp_path / "a.TextGrid").write_text('xmin = 19.85\nxmax = 20.5\ntext = "born"\n')
    (tmp_path / "a.eaf").write_text('<TIME_SLOT TIME_SLOT_ID="ts3" TIME_VALUE="1985"/>\n')
    assert scan_release(tmp_path, [conv]) == []
    (tmp_path / "b.json").write_text('{"text": "1985", "start": 3.0}\n')
    (tmp_path / "b.conll").write_text("nineteen\tO\neighty\tO\nfive\tO\n\n")
    found = scan_release(tmp_path, [conv], extra={"manifest.json": '{"comment": "born 1985"}'})
    assert sorted((f.file, f.line) for f in found) == [("b.conll", 1), ("b.json", 1), ("manifest.json", 1)]


def test_an_original_inside_another_items_surrogate_is_a_coincidence_not_a_leak(project, out_root, kit):
    # the PHONE item's generated surrogate happens to contain the name "Marjorie" said elsewhere
    sub = kit.substitute(surrogates={"PHONE": "Marjorie Lane"})
    result = export_release(project, out_root / "rel", **kit.kwargs(substitute=sub))
    assert any("inside another item's surrogate" in w for w in result.warnings)
    assert "Quillfeather" not in (result.path / "corpus" / "call_1.json").read_text()


def test_a_surrogate_that_keeps_its_original_is_a_leak(project, out_root, kit):
    sub = kit.substitute(surrogates={"PHONE": "0612 449377 0"})  # the original number plus a digit
    with pytest.raises(LeaksFound):
        export_release(project, out_root / "rel", **kit.kwargs(substitute=sub))
    assert _leftovers(out_root) == []


def test_each_jsonl_and_conll_section_is_scanned_with_its_own_calls_values(project, out_root, kit):
    from redactdesk.pipeline.release_scan import scan_release, sections

    result = export_release(project, out_root / "rel", **kit.kwargs())
    lines = (result.path / "corpus.jsonl").read_text().split("\n")
    owners = sections("corpus.jsonl", lines, {"call_1", "call_2"})
    assert sorted(len(v) for k, v in owners.items() if k) == [3, 3]
    # call_2's values said in call_1's lines are not call_1's leak (and vice versa)
    convs = [project.load_conversation(c) for c in ("call_1", "call_2")]
    convs[1].words[14].text = "Zebedee"  # call_2 now accepts this name; no line holds it yet
    assert scan_release(result.path, convs) == []
    lines[0] = lines[0].replace("hello", "Zebedee")  # plant call_2's value in a call_1 line: not a leak
    lines[3] = lines[3].replace("hello", "Zebedee")  # ... and in a call_2 line: a leak
    (result.path / "corpus.jsonl").write_text("\n".join(lines))
    found = scan_release(result.path, convs)
    assert [(f.file, f.line, f.conversation_id) for f in found] == [("corpus.jsonl", 4, "call_2")]


def test_conversation_without_audio_exports_text_only(project, out_root, kit):
    project.update_conversation_meta("call_2", audio_path=None)
    from redactdesk.risk.signoff import sign_off

    sign_off(project, "Rita Reviewer")
    result = export_release(project, out_root / "rel", **kit.kwargs())
    assert (result.path / "audio" / "call_1.wav").is_file() and not (result.path / "audio" / "call_2.wav").exists()
    conv = json.loads((result.path / "corpus" / "call_2.json").read_text())
    assert "audio" not in conv
    assert [c["audio"] for c in result.manifest["conversations"]] == ["audio/call_1.wav", None]


def test_missing_audio_file_fails_clearly(project, out_root, kit):
    from pathlib import Path

    Path(project.load_conversation("call_1").audio_path).unlink()
    with pytest.raises(ExportError, match="audio of 'call_1' is missing"):
        export_release(project, out_root / "rel", **kit.kwargs())
    assert _leftovers(out_root) == []


def test_surrogates_missing_from_the_signed_map_refuse_a_release_and_warn_a_draft(project, out_root, kit):
    row = {"key": "person:given:x", "category": "PERSON", "original": "Marjorie", "surrogate": "Bernadette"}
    sub = kit.substitute(map_rows=(row,))
    with pytest.raises(ExportRefused, match="not in the project's pseudonym map"):
        export_release(project, out_root / "rel", **kit.kwargs(substitute=sub))
    assert _leftovers(out_root) == []
    result = export_release(project, out_root / "rel", draft=True, **kit.kwargs(substitute=sub))
    assert any("not yet stored" in w for w in result.warnings)
    project.put_pseudonyms("call_1", [row])
    project.put_pseudonyms("call_2", [row])
    from redactdesk.risk.signoff import sign_off

    sign_off(project, "Rita Reviewer")
    assert export_release(project, out_root / "rel2", **kit.kwargs(substitute=sub)).warnings == []


def test_conversation_ids_and_function_word_items_are_not_leaks(tmp_path):
    """'call_en_1000' holds no one's 1000; an item the recogniser heard as 'con' cannot be searched for."""
    from redactdesk.core.types import Conversation, Span, SpanStatus, Word
    from redactdesk.pipeline.release_scan import scan_release

    words = [Word(t, i, i + 1) for i, t in enumerate("pagó 1000 euros con tarjeta".split())]
    conv = Conversation(id="call_es_1000", language="es", words=words,
                        spans=[Span(1, 2, "MONEY", status=SpanStatus.ACCEPTED),
                               Span(3, 4, "PERSON", status=SpanStatus.ACCEPTED)])
    (tmp_path / "corpus.jsonl").write_text('{"id": "call_es_1000", "text": "pagó 2500 euros con tarjeta"}\n')
    (tmp_path / "corpus.conll").write_text("# conversation call_es_1000\npagó\tO\ncon\tO\n\n")
    assert scan_release(tmp_path, [conv]) == []
    (tmp_path / "corpus.jsonl").write_text('{"id": "call_es_1000", "text": "pagó 1000 euros con tarjeta"}\n')
    assert [(f.file, f.category) for f in scan_release(tmp_path, [conv])] == [("corpus.jsonl", "MONEY")]


def test_an_event_dates_kept_year_is_no_leak_but_a_birth_years_is(tmp_path):
    """Event dates move by whole weeks and may keep their year; birth dates always change it."""
    from redactdesk.core.types import Conversation, Span, SpanStatus, Word
    from redactdesk.pipeline.release_scan import scan_release

    words = [Word(t, i, i + 1) for i, t in enumerate("sent the fifth of October 2024 born the fifth of May 1951".split())]
    conv = Conversation(id="c", words=words, spans=[Span(1, 6, "DATE", status=SpanStatus.ACCEPTED),
                                                    Span(7, 12, "DATE_OF_BIRTH", status=SpanStatus.ACCEPTED)])
    (tmp_path / "a.txt").write_text("sent the 26th of November 2024\n")
    assert scan_release(tmp_path, [conv]) == []
    (tmp_path / "a.txt").write_text("born the 9th of June 1951\n")
    assert [f.category for f in scan_release(tmp_path, [conv])] == ["DATE_OF_BIRTH"]
