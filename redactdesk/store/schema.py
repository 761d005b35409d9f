"""Schema of the project file and the migrations that bring older files up to date.

Each migration is a function over a sqlite-utils Database run inside one transaction; the
version reached is stored both in ``PRAGMA user_version`` and in the ``meta`` table.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import sqlite3
from collections.abc import Callable, Mapping
from typing import Any

import sqlite_utils

from redactdesk.store.errors import ProjectError

APP_ID = "redactdesk"
SCHEMA_VERSION = 4

# The append-only guards of the audit log as schema v1 wrote them (whitespace collapsed): a project whose
# triggers differ, or are missing, had its log opened up outside redactdesk.
AUDIT_TRIGGERS = {
    "audit_no_update": "CREATE TRIGGER audit_no_update BEFORE UPDATE ON audit "
                       "BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END",
    "audit_no_delete": "CREATE TRIGGER audit_no_delete BEFORE DELETE ON audit "
                       "BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END",
}

# The audit log's keyed hash chain: chain(row) = HMAC-SHA256(key, chain(previous row) + canonical JSON of
# the row's fields), with 64 zeros before the first row. The key is the UTF-8 bytes of ``meta.secret``.
AUDIT_CHAIN_FIELDS = ("id", "at", "actor", "role", "action", "conversation_id", "span_id", "before", "after")
AUDIT_CHAIN_GENESIS = "0" * 64


def normalized_sql(sql: str | None) -> str:
    """SQL text with every run of whitespace made one space (how trigger definitions are compared)."""
    return " ".join((sql or "").split())


def audit_chain_key(secret: str) -> bytes:
    return secret.encode("utf-8")


def audit_chain(key: bytes, previous: str | None, row: Mapping[str, Any]) -> str:
    """The chain value of one audit row: covers the previous row's chain and every field of this row.

    ``row`` holds the values as stored (``before``/``after`` are the stored JSON text, not parsed).
    """
    body = json.dumps({f: row[f] for f in AUDIT_CHAIN_FIELDS}, sort_keys=True, separators=(",", ":"),
                      ensure_ascii=True)
    return hmac.new(key, ((previous or "") + body).encode("utf-8"), hashlib.sha256).hexdigest()


def _run(db: sqlite_utils.Database, script: str) -> None:
    """Run a multi-statement script without leaving the caller's transaction (unlike executescript)."""
    buf = ""
    for line in script.splitlines(keepends=True):
        buf += line
        if sqlite3.complete_statement(buf):
            db.execute(buf)
            buf = ""
    if buf.strip():
        raise ValueError(f"incomplete SQL statement in migration: {buf[:60]!r}")


def _v1(db: sqlite_utils.Database) -> None:
    _run(
        db,
        """
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE conversations (
            id TEXT PRIMARY KEY,
            audio_path TEXT, audio_sha256 TEXT,
            sample_rate INTEGER, channels INTEGER, duration REAL,
            language TEXT NOT NULL DEFAULT 'en',
            status TEXT NOT NULL DEFAULT 'new',
            meta TEXT NOT NULL DEFAULT '{}',
            created TEXT NOT NULL, updated TEXT NOT NULL
        );
        CREATE TABLE words (
            conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
            idx INTEGER NOT NULL,
            text TEXT NOT NULL, start REAL NOT NULL, "end" REAL NOT NULL,
            confidence REAL, speaker TEXT, channel INTEGER,
            aligned INTEGER NOT NULL DEFAULT 1,
            PRIMARY KEY (conversation_id, idx)
        );
        CREATE TABLE turns (
            conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
            idx INTEGER NOT NULL,
            speaker TEXT NOT NULL, start_word INTEGER NOT NULL, end_word INTEGER NOT NULL,
            channel INTEGER,
            PRIMARY KEY (conversation_id, idx)
        );
        CREATE TABLE spans (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
            start_word INTEGER NOT NULL, end_word INTEGER NOT NULL,
            category TEXT NOT NULL,
            status TEXT NOT NULL CHECK (status IN ('suggested', 'accepted', 'rejected')),
            score REAL NOT NULL, sources TEXT NOT NULL DEFAULT '[]', reason TEXT NOT NULL DEFAULT '',
            entity TEXT,
            created TEXT NOT NULL, updated TEXT NOT NULL,
            CHECK (end_word > start_word)
        );
        CREATE INDEX spans_by_conversation ON spans(conversation_id, start_word);
        CREATE TABLE audit (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            at TEXT NOT NULL, actor TEXT NOT NULL, role TEXT NOT NULL, action TEXT NOT NULL,
            conversation_id TEXT, span_id INTEGER,
            before TEXT, after TEXT
        );
        CREATE INDEX audit_by_conversation ON audit(conversation_id, id);
        CREATE TRIGGER audit_no_update BEFORE UPDATE ON audit
            BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
        CREATE TRIGGER audit_no_delete BEFORE DELETE ON audit
            BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
        CREATE TABLE pseudonyms (
            conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
            key TEXT NOT NULL, category TEXT NOT NULL,
            original TEXT NOT NULL, surrogate TEXT NOT NULL,
            locked INTEGER NOT NULL DEFAULT 0, updated TEXT NOT NULL,
            PRIMARY KEY (conversation_id, key, category)
        );
        CREATE TABLE models (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            name TEXT NOT NULL, kind TEXT NOT NULL, created TEXT NOT NULL,
            n_labelled INTEGER NOT NULL DEFAULT 0,
            metrics TEXT NOT NULL DEFAULT '{}', blob BLOB
        );
        CREATE TABLE signoffs (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            reviewer TEXT NOT NULL, role TEXT NOT NULL, at TEXT NOT NULL,
            comment TEXT NOT NULL DEFAULT '', content_hash TEXT NOT NULL,
            draft INTEGER NOT NULL DEFAULT 0
        );
        """
    )


def _v2(db: sqlite_utils.Database) -> None:
    """Project-level term lists (allow/deny) and gazetteer edits, kept apart from settings."""
    _run(
        db,
        """
        CREATE TABLE term_lists (
            kind TEXT NOT NULL CHECK (kind IN ('allow', 'deny')),
            text TEXT NOT NULL, category TEXT NOT NULL DEFAULT '',
            added TEXT NOT NULL,
            PRIMARY KEY (kind, text, category)
        );
        CREATE TABLE gazetteer_entries (
            language TEXT NOT NULL, category TEXT NOT NULL, entry TEXT NOT NULL,
            action TEXT NOT NULL CHECK (action IN ('add', 'remove')),
            added TEXT NOT NULL,
            PRIMARY KEY (language, category, entry)
        );
        """
    )


def _v3(db: sqlite_utils.Database) -> None:
    """Reviewers' marks of personal data the process missed (seed 002's MISSED_<TYPE> tags)."""
    _run(
        db,
        """
        CREATE TABLE missed_items (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
            start_word INTEGER NOT NULL, end_word INTEGER NOT NULL,
            category TEXT NOT NULL,
            partial INTEGER NOT NULL DEFAULT 0, speaker INTEGER NOT NULL DEFAULT 0,
            item_key TEXT NOT NULL,
            reviewer TEXT NOT NULL, at TEXT NOT NULL, note TEXT NOT NULL DEFAULT '',
            CHECK (end_word > start_word)
        );
        CREATE INDEX missed_by_conversation ON missed_items(conversation_id);
        """
    )


def _v4(db: sqlite_utils.Database) -> None:
    """Fail-closed release gate and a sign-off that can be verified.

    - ``conversations.detected_at``: when detection last ran over the current words (cleared when
      the words change), so "never detected" is a fact, not a guess from the status;
    - ``signoffs.scope``: what the sign-off covers (excluded conversations, written overrides, the
      counts the reviewer saw); ``signature``/``public_key``: the reviewer's Ed25519 signature of
      the digest; ``digest_version``: which digest recipe was signed;
    - ``audit.chain``: a keyed hash chain over the audit log (each entry's chain value covers the
      previous one), so rewriting history is detected.
    """
    _run(
        db,
        """
        ALTER TABLE conversations ADD COLUMN detected_at TEXT;
        ALTER TABLE signoffs ADD COLUMN scope TEXT NOT NULL DEFAULT '{}';
        ALTER TABLE signoffs ADD COLUMN signature TEXT;
        ALTER TABLE signoffs ADD COLUMN public_key TEXT;
        ALTER TABLE signoffs ADD COLUMN digest_version INTEGER NOT NULL DEFAULT 1;
        ALTER TABLE audit ADD COLUMN chain TEXT;
        UPDATE conversations SET detected_at = updated
            WHERE status IN ('detected', 'in_review', 'reviewed', 'signed_off');
        """
    )
    _fill_audit_chain(db)


def _fill_audit_chain(db: sqlite_utils.Database) -> None:
    """Chain the entries written before v4 (in id order), inside the migration's transaction.

    The update guard is lifted for these writes only and put back with v1's exact text.
    """
    if db.execute("SELECT count(*) FROM audit").fetchone()[0] == 0:
        return
    secret = db.execute("SELECT value FROM meta WHERE key = 'secret'").fetchone()
    if not secret or not secret[0]:
        raise ProjectError("the project has no secret, so its audit log cannot be chained; it was not "
                           "created by redactdesk")
    key = audit_chain_key(secret[0])
    db.execute("DROP TRIGGER audit_no_update")
    previous, last_id = AUDIT_CHAIN_GENESIS, -1
    cols = ", ".join(f'"{f}"' for f in AUDIT_CHAIN_FIELDS)
    while True:
        rows = db.execute(f"SELECT {cols} FROM audit WHERE id > ? ORDER BY id LIMIT 2000", [last_id]).fetchall()
        if not rows:
            break
        updates = []
        for values in rows:
            previous = audit_chain(key, previous, dict(zip(AUDIT_CHAIN_FIELDS, values, strict=True)))
            updates.append((previous, values[0]))
        db.conn.executemany("UPDATE audit SET chain = ? WHERE id = ?", updates)
        last_id = rows[-1][0]
    db.execute(AUDIT_TRIGGERS["audit_no_update"])


MIGRATIONS: dict[int, Callable[[sqlite_utils.Database], None]] = {1: _v1, 2: _v2, 3: _v3, 4: _v4}
assert max(MIGRATIONS) == SCHEMA_VERSION
