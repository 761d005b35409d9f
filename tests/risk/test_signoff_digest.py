"""Sign-off digest v2 and signatures: what an attacker with write access to the project file can no
longer slip past a sign-off (word times, words outside spans, audio, surrogates, settings, forged or
edited sign-off rows, untrusted keys, rewritten history)."""

from __future__ import annotations

import base64
import json
import sqlite3

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from redactdesk.cli.main import main
from redactdesk.core import Conversation, Role, Span, SpanStatus, Word
from redactdesk.core.types import Decision
from redactdesk.risk import keys
from redactdesk.risk.signoff import (
    DIGEST_VERSION,
    content_hash,
    sign_off,
    signoff_message,
    signoff_state,
)
from redactdesk.store import Project, utc_now

TEXT = "hello my name is Marjorie Quillfeather and my card ends four four one two thanks"
# word 4-5: PERSON (accepted), 11-14: CARD (accepted), 0: a rejected GREETING suggestion


def _conversation(cid: str = "c1") -> Conversation:
    words = [Word(t, round(i * 0.4, 3), round(i * 0.4 + 0.3, 3), 0.9, "customer" if i >= 2 else "agent")
             for i, t in enumerate(TEXT.split())]
    conv = Conversation(id=cid, audio_path=f"/audio/{cid}.wav", audio_sha256="ab" * 32, sample_rate=16000,
                        channels=1, duration=6.0, words=words)
    conv.turns = conv.turns_from_speakers()
    conv.spans = [Span(4, 6, "PERSON", status=SpanStatus.ACCEPTED, entity="p1"),
                  Span(11, 15, "CREDIT_CARD", status=SpanStatus.ACCEPTED),
                  Span(0, 1, "PERSON", status=SpanStatus.REJECTED, score=0.2)]
    return conv


@pytest.fixture
def project(tmp_path):
    p = Project.create(tmp_path / "p.rdproj", actor="rita", role=Role.REVIEWER)
    p.add_conversation(_conversation("c1"))
    p.add_conversation(_conversation("c2"))
    p.put_pseudonyms("c1", [{"key": "marjorie quillfeather", "category": "PERSON",
                             "original": "Marjorie Quillfeather", "surrogate": "Bernadette Oakley"}])
    p.set_setting("mask.method", "beep")
    yield p
    p.close()


def _attacker(project: Project, *statements: tuple[str, list]) -> None:
    """Change the file the way someone with the file (not redactdesk) would: another connection."""
    conn = sqlite3.connect(project.path)
    try:
        for sql, args in statements:
            conn.execute(sql, args)
        conn.commit()
    finally:
        conn.close()


TAMPERING = {
    "move the accepted name's word times": [
        ('UPDATE words SET start = start + 1.5, "end" = "end" + 1.5 WHERE conversation_id = ? AND idx IN (4, 5)',
         ["c1"])],
    "move one word end by 2 ms": [('UPDATE words SET "end" = "end" + 0.002 WHERE conversation_id = ? AND idx = 11',
                                    ["c1"])],
    "inject a card number into a word outside any span": [
        ("UPDATE words SET text = ? WHERE conversation_id = ? AND idx = 1", ["4111111111111111", "c1"])],
    "point the conversation at other audio": [
        ("UPDATE conversations SET audio_path = ?, audio_sha256 = ? WHERE id = ?",
         ["/elsewhere/other.wav", "cd" * 32, "c2"])],
    "change a word's speaker": [("UPDATE words SET speaker = 'agent' WHERE conversation_id = 'c1' AND idx = 5", [])],
    "change a turn": [("UPDATE turns SET speaker = 'x' WHERE conversation_id = 'c2' AND idx = 0", [])],
    "change a surrogate": [("UPDATE pseudonyms SET surrogate = 'Marjorie Quillfeather' WHERE conversation_id = 'c1'",
                            [])],
    "change a surrogate's original": [("UPDATE pseudonyms SET original = 'Someone Else' WHERE conversation_id = 'c1'",
                                       [])],
    "change a setting": [("INSERT OR REPLACE INTO settings(key, value) VALUES ('mask.method', ?)",
                          [json.dumps("silence")])],
    "add a leak override": [("INSERT OR REPLACE INTO settings(key, value) VALUES ('review.leak_override', ?)",
                             [json.dumps("because I say so, really")])],
    "reject an accepted span": [("UPDATE spans SET status = 'rejected' WHERE conversation_id = 'c1' AND "
                                 "category = 'CREDIT_CARD'", [])],
    "add an allow-list term": [("INSERT INTO term_lists(kind, text, category, added) VALUES ('allow', "
                                "'Quillfeather', '', '2024-01-01')", [])],
    "change the audio duration": [("UPDATE conversations SET duration = 60.0 WHERE id = 'c1'", [])],
    "name a speaker in the exported metadata": [
        ("UPDATE conversations SET meta = ? WHERE id = 'c1'",
         [json.dumps({"speakers": {"customer": {"role": "Marjorie Quillfeather"}}})])],
}


@pytest.mark.parametrize("what", sorted(TAMPERING))
def test_any_change_outside_redactdesk_makes_the_signoff_stale(project, what):
    assert sign_off(project, "Rita Reviewer", "checked").valid
    before = content_hash(project)
    _attacker(project, *TAMPERING[what])
    assert content_hash(project) != before
    state = signoff_state(project)
    assert state.signed and state.stale and not state.valid
    assert state.describe().startswith("STALE")


def test_the_digest_is_keyed_with_the_project_secret(tmp_path):
    a = Project.create(tmp_path / "a.rdproj")
    b = Project.create(tmp_path / "b.rdproj")
    for p in (a, b):
        p.add_conversation(_conversation())
    assert content_hash(a) == content_hash(a) and content_hash(a) != content_hash(b)
    a.close()
    b.close()


def test_actions_that_change_nothing_released_keep_the_signoff_valid(project):
    state = sign_off(project, "Rita Reviewer", "checked")
    assert state.valid and state.content_hash == content_hash(project) and state.digest_version == DIGEST_VERSION
    project.log(Decision(action="export", actor="rita", role=Role.REVIEWER, at=utc_now(), after={"release": "r1"}))
    project.save_model("crf", "crf", None, {"f1": 0.5})
    project.update_conversation_meta("c1", audio_path="/moved/c1.wav")  # relinking moved audio (same sha256)
    assert signoff_state(project).valid


def test_the_signed_row_records_signature_key_and_scope(project):
    sign_off(project, "Rita Reviewer", "checked", exclude=["c2"], seen={"undecided_suggestions": 0})
    row = project.latest_signoff()
    assert row["digest_version"] == DIGEST_VERSION and row["signature"] and row["public_key"]
    assert row["public_key"] == keys.public_key_text(keys.reviewer_key("Rita Reviewer"))
    assert row["scope"]["excluded"] == ["c2"] and row["scope"]["seen"] == {"undecided_suggestions": 0}
    state = signoff_state(project)
    assert state.valid and state.excluded == ("c2",) and state.key_id == keys.key_id(row["public_key"])
    if hasattr(project, "audit_head"):  # the history up to the sign-off is part of what was signed
        assert row["scope"]["audit"]["chain"]


def test_a_digest_v1_row_reads_as_signed_by_an_older_redactdesk(project):
    project.add_signoff("Rita Reviewer", Role.REVIEWER, "old", "0" * 64)  # digest_version defaults to 1
    state = signoff_state(project)
    assert state.signed and state.stale and state.outdated and not state.valid
    assert "signed with an older redactdesk; sign again" in state.describe()


def _insert_row(project, *, digest, scope=None, reviewer="Rita Reviewer", at="2030-01-01T00:00:00.000+00:00",
                comment="ok", signature=None, public_key=None):
    scope = {"excluded": [], "overrides": {}} if scope is None else scope
    _attacker(project, ("INSERT INTO signoffs(reviewer, role, at, comment, content_hash, draft, scope, signature, "
                        "public_key, digest_version) VALUES (?, 'reviewer', ?, ?, ?, 0, ?, ?, ?, ?)",
                        [reviewer, at, comment, digest, json.dumps(scope, sort_keys=True), signature, public_key,
                         DIGEST_VERSION]))


def test_a_row_inserted_with_the_right_digest_but_no_signature_is_forged(project):
    _insert_row(project, digest=content_hash(project))
    state = signoff_state(project)
    assert state.signed and not state.stale and state.forged and not state.valid
    assert "sign-off signature does not verify (the sign-off row was changed outside redactdesk)" in state.describe()


def test_a_row_signed_by_another_key_under_the_reviewers_public_key_is_forged(project):
    digest = content_hash(project)
    rita = keys.public_key_text(keys.reviewer_key("Rita Reviewer"))
    mallory = Ed25519PrivateKey.generate()
    scope = {"excluded": [], "overrides": {}}
    msg = signoff_message(digest, scope, "Rita Reviewer", "2030-01-01T00:00:00.000+00:00", "ok")
    _insert_row(project, digest=digest, scope=scope, signature=base64.b64encode(mallory.sign(msg)).decode(),
                public_key=rita)
    state = signoff_state(project)
    assert state.forged and not state.valid


def test_a_correctly_signed_row_by_a_foreign_key_is_untrusted(project):
    digest = content_hash(project)
    mallory = Ed25519PrivateKey.generate()
    scope = {"excluded": [], "overrides": {}}
    msg = signoff_message(digest, scope, "Rita Reviewer", "2030-01-01T00:00:00.000+00:00", "ok")
    _insert_row(project, digest=digest, scope=scope, signature=base64.b64encode(mallory.sign(msg)).decode(),
                public_key=keys.public_key_text(mallory))
    state = signoff_state(project)
    assert state.signed and not state.stale and not state.forged and state.untrusted and not state.valid
    assert "signed with a key this machine does not trust (redactdesk keys trust FILE)" in state.describe()


@pytest.mark.parametrize("column, value", [
    ("comment", "something else"),
    ("reviewer", "Somebody Else"),
    ("at", "2001-01-01T00:00:00.000+00:00"),
    ("scope", json.dumps({"excluded": ["c2"], "overrides": {}})),  # widen what the reviewer left out
])
def test_editing_a_signed_row_breaks_its_signature(project, column, value):
    sign_off(project, "Rita Reviewer", "checked")
    _attacker(project, (f"UPDATE signoffs SET {column} = ?", [value]))
    state = signoff_state(project)
    assert state.forged and not state.valid


def test_a_signoff_from_another_machine_is_untrusted_until_its_key_is_trusted(project, tmp_path, monkeypatch):
    monkeypatch.setenv(keys.CONFIG_ENV, str(tmp_path / "reviewer-laptop"))
    assert sign_off(project, "Rita Reviewer", "checked").valid
    exported = keys.export_public_key("Rita Reviewer", tmp_path / "rita.pub")
    monkeypatch.setenv(keys.CONFIG_ENV, str(tmp_path / "exporter-desktop"))
    state = signoff_state(project)
    assert state.untrusted and not state.valid and state.key_id == exported.key_id
    info = keys.trust_key_file(tmp_path / "rita.pub")
    assert signoff_state(project).valid
    info.path.unlink()  # the trust file removed
    assert signoff_state(project).untrusted and not signoff_state(project).valid


def test_rewriting_the_audit_history_before_the_signoff_is_detected(project):
    if not hasattr(project, "audit_head"):
        pytest.skip("this store keeps no audit chain")
    sign_off(project, "Rita Reviewer", "checked")
    anchor = project.latest_signoff()["scope"]["audit"]["id"]
    _attacker(project, ("DROP TRIGGER audit_no_update", []),
              ("UPDATE audit SET chain = ? WHERE id = ?", ["0" * 64, anchor]))
    state = signoff_state(project)
    assert state.history_changed and not state.valid and "audit log" in state.describe()


def test_cli_signoff_prints_counts_first_warns_and_records_scope(project, capsys):
    path = str(project.path)
    rc = main(["--role", "reviewer", "signoff", path, "--reviewer", "Rita Reviewer", "--comment", "ok",
               "--exclude", "c2", "--override", "c1", "spot-checked by phone with the caller"])
    out = capsys.readouterr().out.splitlines()
    assert rc == 0
    assert out[0].startswith("conversations to release: 1;") and "excluded: 1" in out[0]
    assert "overridden: 1" in out[0]
    assert out[-1].startswith("signed off by Rita Reviewer")
    state = signoff_state(project)
    assert state.valid and state.excluded == ("c2",) and "c1" in state.overrides
    assert state.scope["seen"]["excluded"] == 1

    assert main(["signoff", path]) == 0
    assert capsys.readouterr().out.startswith("signed off by Rita Reviewer")
    project.set_setting("mask.method", "noise")
    assert main(["signoff", path]) == 1
    assert capsys.readouterr().out.startswith("STALE")


def test_cli_signoff_warns_about_open_items_and_refuses_bad_scopes(project, capsys):
    path = str(project.path)
    assert main(["--role", "reviewer", "signoff", path, "--reviewer", "Rita Reviewer"]) == 0
    out = capsys.readouterr().out
    assert "WARNING: signing with open items" in out  # nothing was ever detected or marked reviewed
    assert main(["--role", "reviewer", "signoff", path, "--reviewer", "Rita", "--override", "c1", "short"]) == 2
    assert "written reason" in capsys.readouterr().err
    assert main(["--role", "reviewer", "signoff", path, "--reviewer", "Rita", "--exclude", "nope"]) == 2
    assert main(["--role", "annotator", "signoff", path, "--reviewer", "Ann"]) == 2
    assert main(["signoff", path, "--exclude", "c1"]) == 2
