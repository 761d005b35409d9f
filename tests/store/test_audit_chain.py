"""The audit log as a keyed hash chain: normal use stays valid, every kind of rewrite is detected."""

import hashlib
import hmac
import json
import sqlite3

import pytest

from redactdesk.core import Conversation, Decision, Role, Span, Word
from redactdesk.store import Project, ProjectError, TamperedProject
from redactdesk.store.schema import MIGRATIONS

GUARD_UPDATE = ("CREATE TRIGGER audit_no_update BEFORE UPDATE ON audit\n"
                "            BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END")
GUARD_DELETE = ("CREATE TRIGGER audit_no_delete BEFORE DELETE ON audit\n"
                "            BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END")


def conv(cid="c1", n=8):
    return Conversation(id=cid, audio_sha256="ab" * 32, words=[Word(f"Name{i}", i, i + 0.5) for i in range(n)],
                        spans=[Span(1, 3, "PERSON")])


@pytest.fixture
def path(tmp_path):
    p = tmp_path / "p.rdproj"
    with Project.create(p, actor="ann") as project:
        project.add_conversation(conv())
        for i in range(30):
            project.add_term("deny", f"secret-term-{i}")
    return p


def raw(path):
    return sqlite3.connect(path, isolation_level=None)


def test_normal_use_keeps_the_chain_valid_including_rolled_back_savepoints(tmp_path):
    with Project.create(tmp_path / "p.rdproj", actor="ann") as p:
        assert p.audit_head() == "" and p.verify_audit().ok
        p.add_conversation(conv())
        sid = p.spans("c1")[0].id
        heads = set()
        for i in range(1500):
            with p.transaction():
                p.update_span(sid, action="accept" if i % 2 else "reject", status="accepted" if i % 2 else "rejected")
                if i % 10 == 0:  # a nested action that fails: its audit entry is rolled back with it
                    with pytest.raises(ProjectError), p.transaction():
                        p.add_term("allow", f"t{i}")
                        p.add_span("c1", Span(5, 99, "PERSON"))
            heads.add(p.audit_head())
        with pytest.raises(RuntimeError), p.transaction():  # a whole action rolled back
            p.log(Decision(action="note", actor="ann", role=Role.ANNOTATOR, at="2026-01-01T00:00:00+00:00"))
            raise RuntimeError("undo")
        p.log(Decision(action="note", actor="ann", role=Role.REVIEWER, at="2026-01-01T00:00:00+00:00",
                       conversation_id="c1", span_id=sid, before={"ü": "ñ"}, after={"n": [1, 2]}))
        check = p.verify_audit(full=True)
        n = p.db.execute("SELECT count(*) FROM audit").fetchone()[0]
        assert check.ok and check.n_rows == n == 1 + 1500 + 1
        assert len(heads) == 1500  # every action moved the head
        assert p.terms("allow") == []
        head = p.audit_head()
    with Project.open(tmp_path / "p.rdproj") as again:
        assert again.audit_head() == head and again.verify_audit(full=True).ok


def test_chain_follows_the_documented_recipe(path):
    """HMAC-SHA256(key = the secret's UTF-8 bytes, previous chain (64 zeros first) + canonical JSON)."""
    conn = raw(path)
    secret = conn.execute("SELECT value FROM meta WHERE key = 'secret'").fetchone()[0]
    cols = ["id", "at", "actor", "role", "action", "conversation_id", "span_id", "before", "after"]
    previous = "0" * 64
    for row in conn.execute(f"SELECT {', '.join(cols)}, chain FROM audit ORDER BY id"):
        body = json.dumps(dict(zip(cols, row[:-1], strict=True)), sort_keys=True, separators=(",", ":"))
        expected = hmac.new(secret.encode(), (previous + body).encode(), hashlib.sha256).hexdigest()
        assert row[-1] == expected
        previous = expected
    conn.close()
    with Project.open(path) as p:
        assert p.audit_head() == previous


def _open_fails(path, *, entry=None):
    with pytest.raises(TamperedProject) as err:
        Project.open(path)
    message = str(err.value)
    assert "audit log was changed outside redactdesk" in message
    if entry is not None:
        assert f"entry {entry} " in message
    assert "secret-term" not in message and "mallory" not in message and "Name" not in message
    return message


def test_rewritten_entry_is_detected(path):
    conn = raw(path)
    conn.execute("DROP TRIGGER audit_no_update")
    conn.execute("UPDATE audit SET actor = 'mallory' WHERE id = 20")
    conn.execute(GUARD_UPDATE)
    conn.close()
    _open_fails(path, entry=20)


def test_deleted_entry_is_detected(path):
    conn = raw(path)
    conn.execute("DROP TRIGGER audit_no_delete")
    conn.execute("DELETE FROM audit WHERE id = 12")
    conn.execute(GUARD_DELETE)
    conn.close()
    _open_fails(path, entry=13)


def test_deleted_last_entries_are_detected(path):
    conn = raw(path)
    conn.execute("DROP TRIGGER audit_no_delete")
    conn.execute("DELETE FROM audit WHERE id > 29")
    conn.execute(GUARD_DELETE)
    conn.close()
    assert "after entry 29 were removed" in _open_fails(path)


def test_inserted_entry_with_forged_chain_is_detected(path):
    conn = raw(path)
    conn.execute("INSERT INTO audit(at, actor, role, action, chain) VALUES ('2026', 'mallory', 'reviewer', "
                 "'signoff', ?)", ["f" * 64])
    conn.close()
    _open_fails(path, entry=32)


def test_entry_without_chain_is_detected(path):
    conn = raw(path)
    conn.execute("INSERT INTO audit(at, actor, role, action) VALUES ('2026', 'mallory', 'reviewer', 'signoff')")
    conn.close()
    assert "has no chain value" in _open_fails(path, entry=32)


@pytest.mark.parametrize("change", [
    ["DROP TRIGGER audit_no_update"],
    ["DROP TRIGGER audit_no_delete"],
    ["DROP TRIGGER audit_no_update",
     "CREATE TRIGGER audit_no_update BEFORE UPDATE ON audit WHEN 0 BEGIN SELECT RAISE(ABORT, 'x'); END"],
    ["CREATE TRIGGER audit_swallow BEFORE INSERT ON audit BEGIN SELECT RAISE(IGNORE); END"],
])
def test_guard_triggers_removed_or_replaced_are_detected(path, change):
    conn = raw(path)
    for sql in change:
        conn.execute(sql)
    conn.close()
    before = path.read_bytes()
    _open_fails(path)
    assert path.read_bytes() == before


def test_open_checks_the_last_entries_and_export_checks_all(tmp_path):
    path = tmp_path / "p.rdproj"
    with Project.create(path) as p:
        for i in range(260):
            p.add_term("deny", f"secret-term-{i}")
    conn = raw(path)
    conn.execute("DROP TRIGGER audit_no_update")
    conn.execute("UPDATE audit SET action = 'x' WHERE id = 5")
    conn.execute(GUARD_UPDATE)
    conn.close()
    with Project.open(path) as p:  # entry 5 is older than the last 200: open stays fast
        check = p.verify_audit(full=True)
        assert not check.ok and check.first_bad_id == 5 and "entry 5 " in check.reason
        assert "secret-term" not in check.reason
        assert p.verify_audit(full=False).ok


def test_migration_chains_entries_written_before_v4(tmp_path):
    path = tmp_path / "old.rdproj"
    import sqlite_utils

    conn = sqlite3.connect(path)
    db = sqlite_utils.Database(conn)
    with db.atomic():
        for v in (1, 2, 3):
            MIGRATIONS[v](db)
        db.execute("INSERT INTO meta VALUES ('app', 'redactdesk'), ('schema_version', '3'), ('secret', 'aa')")
        for i in range(50):
            db.execute("INSERT INTO audit(at, actor, role, action, after) VALUES (?, 'ann', 'annotator', 'accept', ?)",
                       [f"2025-01-01T00:00:{i:02d}", json.dumps({"i": i})])
    conn.close()
    with Project.open(path) as p:
        check = p.verify_audit(full=True)
        assert check.ok and check.n_rows == 50
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):  # the guard is back
            p.db.execute("UPDATE audit SET actor = 'x'")
        p.add_term("deny", "x")
        assert p.verify_audit(full=True).n_rows == 51
    with Project.open(path) as p:
        assert p.verify_audit().ok
