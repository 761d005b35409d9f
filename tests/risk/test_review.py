"""Review sample, pre-scan, sign-off staleness and the leak scan."""

import pytest

from redactdesk.core import Conversation, Role, Span, SpanStatus, Turn, Word
from redactdesk.risk.leakscan import scan_folder, variants
from redactdesk.risk.sample import prescan, stratified_sample
from redactdesk.risk.signoff import content_hash, sign_off, signoff_state
from redactdesk.store import Project


def conv_from(text, cid="c1", language="en", duration=50.0, spans=()):
    words = [Word(t, i * 0.4, i * 0.4 + 0.3, speaker="agent") for i, t in enumerate(text.split())]
    c = Conversation(id=cid, words=words, language=language, duration=duration, spans=list(spans))
    c.turns = [Turn("agent", 0, len(words))]
    return c


def test_stratified_sample_covers_every_stratum_and_is_reproducible():
    convs = [conv_from("a b", f"en{i}", "en", 50) for i in range(20)]
    convs += [conv_from("a b", f"es{i}", "es", 50) for i in range(4)]
    convs += [conv_from("a b", f"long{i}", "en", 400) for i in range(2)]
    sample = stratified_sample(convs, 6, seed=3)
    assert len(sample) == 6 and sample == stratified_sample(convs, 6, seed=3)
    assert any(s.startswith("es") for s in sample) and any(s.startswith("long") for s in sample)
    assert sample != stratified_sample(convs, 6, seed=4)
    with pytest.raises(ValueError):
        stratified_sample(convs, 0)


def test_prescan_points_at_unflagged_digits_names_and_rejected():
    c = conv_from("my number is four one five two and I met Rosalind yesterday near Bob", spans=[
        Span(13, 14, "PERSON", status=SpanStatus.ACCEPTED), Span(0, 1, "CITY", status=SpanStatus.REJECTED, score=0.9)])
    kinds = {(h.kind, h.start_word) for h in prescan(c)}
    assert ("digit_run", 3) in kinds
    assert ("capitalised_unknown", 10) in kinds  # Rosalind; Bob is accepted; I is common
    assert ("rejected_high_score", 0) in kinds
    assert not any(h.start_word == 13 for h in prescan(c))


@pytest.fixture
def project(tmp_path):
    p = Project.create(tmp_path / "p.rdproj", actor="rita", role=Role.REVIEWER)
    c = conv_from("call me on four one five two please john", spans=[Span(3, 7, "PHONE"), Span(8, 9, "PERSON")])
    p.add_conversation(c)
    yield p
    p.close()


def test_signoff_goes_stale_on_any_change(project):
    assert not signoff_state(project).signed
    state = sign_off(project, "Rita Reviewer", "looks fine")
    assert state.valid and state.content_hash == content_hash(project)
    sid = project.spans("c1")[0].id
    project.update_span(sid, action="accept", status="accepted")
    assert signoff_state(project).stale and not signoff_state(project).valid
    sign_off(project, "Rita Reviewer")
    assert signoff_state(project).valid
    project.set_setting("mask.method", "beep")
    assert signoff_state(project).stale
    sign_off(project, "Rita Reviewer")
    project.put_pseudonyms("c1", [{"key": "john", "category": "PERSON", "original": "john", "surrogate": "paul"}])
    assert signoff_state(project).stale
    sign_off(project, "Rita Reviewer")
    project.add_missed("c1", 8, 9, "PERSON", partial=True)
    assert signoff_state(project).stale


def test_only_reviewers_sign(project):
    with pytest.raises(PermissionError):
        sign_off(project, "Ann", role=Role.ANNOTATOR)
    with pytest.raises(ValueError):
        sign_off(project, "  ")


def test_leak_scan_catches_planted_original_in_any_variant(tmp_path):
    c = conv_from("card four one one one one one one one one one one one one one one one thanks john smith",
                  spans=[Span(1, 17, "CREDIT_CARD", status=SpanStatus.ACCEPTED),
                         Span(18, 20, "PERSON", status=SpanStatus.ACCEPTED)])
    out = tmp_path / "release"
    out.mkdir()
    (out / "clean.txt").write_text("card five two two two ... thanks paul jones\n")
    assert scan_folder(out, [c]) == []
    (out / "corpus.jsonl").write_text('{"text": "ok"}\n{"text": "card 4111-1111-1111-1111"}\n')
    (out / "notes.txt").write_text("Thanks JOHN  Smith!\n")
    findings = scan_folder(out, [c])
    got = {(f.file, f.line, f.category) for f in findings}
    assert ("corpus.jsonl", 2, "CREDIT_CARD") in got and ("notes.txt", 1, "PERSON") in got
    assert all("john" not in f.hint.lower() for f in findings)  # reports never carry the value


def test_variants_cover_spoken_and_written_forms():
    v = variants("john dot smith at example dot com")
    assert "john.smith@example.com" in v
    assert "4111111111111111" in variants("4111 1111 1111 1111")
    assert "smith" in variants("S M I T H")
