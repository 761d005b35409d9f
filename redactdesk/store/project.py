"""The project file: one SQLite database holding conversations, words, spans and their history.

Every public method that changes data runs in one transaction that starts ``BEGIN IMMEDIATE`` (so
a read-then-write action never has to upgrade its lock, which WAL cannot do while another process
writes), and every change to a span writes an entry to the append-only audit log in that same
transaction, so the log and the data can never disagree. Each audit entry carries a keyed hash chain
value over the entry before it, checked on open (last entries) and at export (all of them).

The file is only ever opened through SQLite: under POSIX advisory locks, closing *any* descriptor of
the file drops every lock this process holds on it, and another process could then delete the WAL
from under a live connection.
"""

from __future__ import annotations

import contextlib
import getpass
import json
import os
import secrets
import sqlite3
import stat
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import sqlite_utils

from redactdesk.core.decisions import respect_decisions
from redactdesk.core.types import (
    Conversation,
    ConversationStatus,
    Decision,
    Role,
    Span,
    SpanStatus,
    Turn,
    Word,
)
from redactdesk.store.errors import (
    AlreadyImported,
    ChangedElsewhere,
    CorruptProject,
    NewerSchema,
    NotAProject,
    NotFound,
    ProjectBusy,
    ProjectError,
    SpanGone,
    TamperedProject,
)
from redactdesk.store.schema import (
    APP_ID,
    AUDIT_CHAIN_FIELDS,
    AUDIT_CHAIN_GENESIS,
    AUDIT_TRIGGERS,
    MIGRATIONS,
    SCHEMA_VERSION,
    audit_chain,
    audit_chain_key,
    normalized_sql,
)

BUSY_MESSAGE = "project busy (another redactdesk is writing); try again"
DEFAULT_BUSY_TIMEOUT = 5.0  # seconds a transaction waits for another writer before ProjectBusy
AUDIT_TAIL = 200  # entries whose chain Project.open checks (export checks all)


def utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def default_actor() -> str:
    try:
        return getpass.getuser()
    except Exception:  # no login name in some containers
        return "user"


@dataclass
class ConversationSummary:
    """One row of the corpus browser."""

    id: str
    status: str
    duration: float | None
    language: str
    audio_path: str | None
    n_words: int
    suggested: int
    accepted: int
    rejected: int
    detected_at: str | None = None


@dataclass(frozen=True)
class AuditCheck:
    """Outcome of :meth:`Project.verify_audit`. ``reason`` names entries by id, never by content."""

    ok: bool
    n_rows: int  # entries whose chain was checked
    first_bad_id: int | None = None
    reason: str = ""


def _sqlite_uri(p: Path, mode: str) -> str:
    """``file:`` URI of ``p`` with every special character (#, ?, %, space, non-ASCII) escaped."""
    return f"{p.resolve().as_uri()}?mode={mode}"


def _is_busy(exc: BaseException) -> bool:
    """SQLITE_BUSY in any of its forms ("database is locked")."""
    code = getattr(exc, "sqlite_errorcode", None)
    if isinstance(code, int):
        return code & 0xFF == sqlite3.SQLITE_BUSY
    return "database is locked" in str(exc)


class _ProjectDatabase(sqlite_utils.Database):
    """sqlite-utils, with transactions that start IMMEDIATE and busy errors that read as ProjectBusy."""

    def execute(self, sql: str, parameters: Any = None) -> sqlite3.Cursor:
        try:
            return super().execute(sql, parameters)
        except sqlite3.OperationalError as exc:
            if _is_busy(exc):
                raise ProjectBusy(BUSY_MESSAGE) from exc
            raise

    def query(self, sql: str, params: Any = None) -> Iterator[dict[str, Any]]:  # type: ignore[override]
        try:
            return super().query(sql, params)
        except sqlite3.OperationalError as exc:
            if _is_busy(exc):
                raise ProjectBusy(BUSY_MESSAGE) from exc
            raise

    @contextlib.contextmanager
    def atomic(self) -> Iterator[sqlite_utils.Database]:  # type: ignore[override]
        """One transaction, ``BEGIN IMMEDIATE`` (the write lock is taken first, then the reads
        happen); nested use is a savepoint of the enclosing transaction."""
        conn = self.conn
        if conn.in_transaction:
            name = f"rd_{secrets.token_hex(8)}"
            conn.execute(f"SAVEPOINT {name}")
            try:
                yield self
            except BaseException:
                if conn.in_transaction:  # an error may already have ended the whole transaction
                    conn.execute(f"ROLLBACK TO SAVEPOINT {name}")
                    conn.execute(f"RELEASE SAVEPOINT {name}")
                raise
            else:
                conn.execute(f"RELEASE SAVEPOINT {name}")
            return
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            if _is_busy(exc):
                raise ProjectBusy(BUSY_MESSAGE) from exc
            raise
        try:
            yield self
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        try:
            conn.execute("COMMIT")
        except sqlite3.OperationalError as exc:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            if _is_busy(exc):
                raise ProjectBusy(BUSY_MESSAGE) from exc
            raise


def _new_private_database(p: Path, advice: str, timeout: float = DEFAULT_BUSY_TIMEOUT) -> sqlite3.Connection:
    """A connection to a new database file at ``p`` readable by its owner only (0600); never overwrites."""
    if p.exists():
        raise ProjectError(f"{p} already exists; {advice}")
    p.parent.mkdir(parents=True, exist_ok=True)
    old_umask = os.umask(0o177)
    try:
        conn = sqlite3.connect(p, check_same_thread=False, timeout=timeout)
    finally:
        os.umask(old_umask)
    os.chmod(p, 0o600)
    return conn


def _audit_row_values(row: Any) -> dict[str, Any]:
    return dict(zip(AUDIT_CHAIN_FIELDS, row, strict=True))


def _check_audit(conn: sqlite3.Connection, secret: str | None, *, tail: int | None = None) -> AuditCheck:
    """Check the audit log's guard triggers and its hash chain (all of it, or the last ``tail`` entries).

    Reads only; the caller decides whether the reads form one snapshot.
    """
    guard = _check_audit_guards(conn)
    if guard is not None:
        return guard
    newest = conn.execute("SELECT max(id) FROM audit").fetchone()[0]  # rowid b-tree: no scan
    max_id = newest or 0
    seq_row = conn.execute("SELECT seq FROM sqlite_sequence WHERE name = 'audit'").fetchone()
    seq = seq_row[0] if seq_row else None
    if newest is not None and seq is None:
        return AuditCheck(False, 0, None, "its sequence record was removed")
    if seq is not None and seq > max_id:
        return AuditCheck(False, 0, max_id + 1, f"entries after entry {max_id} were removed")
    if newest is None:
        return AuditCheck(True, 0)
    if not secret:
        return AuditCheck(False, 0, None, "the project has no secret to check it with")
    key = audit_chain_key(secret)
    cols = ", ".join(f'"{f}"' for f in (*AUDIT_CHAIN_FIELDS, "chain"))
    if tail is not None:
        rows = conn.execute(f"SELECT {cols} FROM audit ORDER BY id DESC LIMIT ?", [tail + 1]).fetchall()[::-1]
        if len(rows) > tail:  # the entry before the window is the (unchecked) anchor
            previous, rows = rows[0][-1], rows[1:]
        else:
            previous = AUDIT_CHAIN_GENESIS
        batches: Iterable[list[Any]] = [rows]
    else:
        previous = AUDIT_CHAIN_GENESIS
        batches = _audit_batches(conn, cols)
    n = 0
    for batch in batches:
        for row in batch:
            values = _audit_row_values(row[:-1])
            if row[-1] is None or audit_chain(key, previous, values) != row[-1]:
                what = "has no chain value" if row[-1] is None else "does not match the chain"
                return AuditCheck(False, n, values["id"],
                                  f"entry {values['id']} {what} (it, or an entry just before it, was "
                                  "changed, removed or inserted)")
            previous = row[-1]
            n += 1
    return AuditCheck(True, n)


def _check_audit_guards(conn: sqlite3.Connection) -> AuditCheck | None:
    """The append-only triggers exactly as schema v1 made them, and no others on the table (None: fine)."""
    triggers = {name: normalized_sql(sql) for name, sql in conn.execute(
        "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND lower(tbl_name) = 'audit'")}
    for name, sql in AUDIT_TRIGGERS.items():
        if name not in triggers:
            return AuditCheck(False, 0, None, f"its append-only guard ({name}) was removed")
        if triggers[name] != sql:
            return AuditCheck(False, 0, None, f"its append-only guard ({name}) was replaced")
    extra = set(triggers) - set(AUDIT_TRIGGERS)
    if extra:
        return AuditCheck(False, 0, None, f"{len(extra)} unknown trigger(s) were added to it")
    return None


def _tamper_message(p: Path, check: AuditCheck) -> str:
    return (f"{p.name}: the audit log was changed outside redactdesk: {check.reason}. The project's history "
            "cannot be trusted; restore a backup or ask whoever changed it")


# SQLite's message about a damaged file may hold bytes that are not UTF-8: Python then raises
# UnicodeDecodeError instead of sqlite3.Error while building the exception
_OPEN_ERRORS = (sqlite3.Error, UnicodeDecodeError)


def _err(exc: BaseException) -> str:
    """An SQLite error by its name ("SQLITE_CORRUPT"): its text may quote bytes of the damaged file."""
    return str(getattr(exc, "sqlite_errorname", "") or type(exc).__name__)


def _open_error(p: Path, exc: BaseException) -> ProjectError:
    """The user's reading of an SQLite error met while opening ``p`` (never a raw traceback)."""
    code = getattr(exc, "sqlite_errorcode", 0) & 0xFF
    if _is_busy(exc):
        return ProjectBusy(BUSY_MESSAGE)
    if code == sqlite3.SQLITE_NOTADB:
        return NotAProject(f"{p} is not a redactdesk project (not an SQLite database)")
    if code == sqlite3.SQLITE_CORRUPT:
        return CorruptProject(f"{p} is damaged or half-written ({_err(exc)}); restore a backup")
    if code in (sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_PERM, sqlite3.SQLITE_AUTH, sqlite3.SQLITE_READONLY):
        return ProjectError(f"{p}: cannot open ({_err(exc)})")
    if code == sqlite3.SQLITE_IOERR:
        return ProjectError(f"{p}: cannot be read ({_err(exc)}); check the disk and try again")
    if code == sqlite3.SQLITE_ERROR:  # e.g. "no such column": tables that are not ours
        return NotAProject(f"{p} is an SQLite database but not a redactdesk project")
    return CorruptProject(f"{p} is damaged or half-written ({_err(exc)}); restore a backup")


def _write_error(p: Path, exc: BaseException) -> ProjectError | None:
    """The user's reading of an SQLite error met while writing (None: a bug, keep the traceback)."""
    code = getattr(exc, "sqlite_errorcode", 0) & 0xFF
    if _is_busy(exc):
        return ProjectBusy(BUSY_MESSAGE)
    if code == sqlite3.SQLITE_FULL:
        return ProjectError(f"{p.name}: the disk is full; nothing was changed")
    if code in (sqlite3.SQLITE_READONLY, sqlite3.SQLITE_PERM, sqlite3.SQLITE_CANTOPEN):
        return ProjectError(f"{p}: cannot write ({_err(exc)})")
    if code == sqlite3.SQLITE_IOERR:
        return ProjectError(f"{p}: cannot be written ({_err(exc)}); check the disk and try again")
    if code in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB):
        return CorruptProject(f"{p} is damaged ({_err(exc)}); restore a backup")
    return None


def _audit_batches(conn: sqlite3.Connection, cols: str, size: int = 5000) -> Iterator[list[Any]]:
    last_id = -1
    while True:
        rows = conn.execute(f"SELECT {cols} FROM audit WHERE id > ? ORDER BY id LIMIT ?", [last_id, size]).fetchall()
        if not rows:
            return
        yield rows
        last_id = rows[-1][0]


def _span_row(conversation_id: str, span: Span, now: str) -> dict[str, Any]:
    return {
        "conversation_id": conversation_id,
        "start_word": span.start_word,
        "end_word": span.end_word,
        "category": span.category,
        "status": span.status.value,
        "score": float(span.score),
        "sources": json.dumps(list(span.sources)),
        "reason": span.reason,
        "entity": span.entity,
        "created": now,
        "updated": now,
    }


def _span_from_row(row: dict[str, Any]) -> Span:
    return Span(
        start_word=row["start_word"],
        end_word=row["end_word"],
        category=row["category"],
        status=SpanStatus(row["status"]),
        score=row["score"],
        sources=tuple(json.loads(row["sources"])),
        reason=row["reason"],
        entity=row["entity"],
        id=row["id"],
    )


class Project:
    """An open project file. Use :meth:`create` or :meth:`open`; close with :meth:`close`."""

    def __init__(self, path: Path, conn: sqlite3.Connection, *, actor: str | None = None,
                 role: Role = Role.ANNOTATOR, busy_timeout: float = DEFAULT_BUSY_TIMEOUT) -> None:
        self.path = path
        self.db = _ProjectDatabase(conn)
        self.actor = actor or default_actor()
        self.role = role
        self.busy_timeout = float(busy_timeout)
        self._chain_key: bytes | None = None

    # ------------------------------------------------------------------ opening
    @classmethod
    def create(cls, path: str | os.PathLike[str], **kw: Any) -> Project:
        """Create a new, empty project file (mode 0600). Refuses to overwrite an existing file."""
        p = Path(path)
        conn = _new_private_database(p, "open it instead of creating it",
                                     timeout=kw.get("busy_timeout", DEFAULT_BUSY_TIMEOUT))
        project = cls(p, conn, **kw)
        try:
            project._configure()
            with project.transaction():  # schema and identity in one step: no half-made project is ever seen
                project._migrate(from_version=0)
                project._set_meta("app", APP_ID)
                project._set_meta("created", utc_now())
                project._set_meta("secret", secrets.token_hex(32))
        except BaseException:
            conn.close()
            for suffix in ("", "-wal", "-shm"):
                Path(str(p) + suffix).unlink(missing_ok=True)
            raise
        return project

    @classmethod
    def open(cls, path: str | os.PathLike[str], **kw: Any) -> Project:
        """Open an existing project, migrating an older schema. Clear errors, no changes, otherwise.

        Refusals: :class:`NotAProject`, :class:`CorruptProject` (SQLite's full integrity check),
        :class:`NewerSchema`, :class:`TamperedProject` (audit guard triggers, chain of the last
        entries), :class:`ProjectBusy`; a refused file is left as it was, with no ``-wal``/``-shm``
        files of ours beside it.
        """
        p = Path(path)
        if not p.exists():
            raise ProjectError(f"{p}: no such project file")
        if p.is_dir():
            raise NotAProject(f"{p} is a folder, not a redactdesk project file")
        if not stat.S_ISREG(p.stat().st_mode):  # a FIFO or device would block SQLite's open for ever
            raise NotAProject(f"{p} is not a regular file, so it is not a redactdesk project")
        timeout = float(kw.get("busy_timeout", DEFAULT_BUSY_TIMEOUT))
        version = cls._inspect(p, timeout)
        try:
            conn = sqlite3.connect(_sqlite_uri(p, "rw"), uri=True, check_same_thread=False, timeout=timeout)
        except _OPEN_ERRORS as exc:
            raise _open_error(p, exc) from exc
        project = cls(p, conn, **kw)
        try:
            project._configure()
            if version < SCHEMA_VERSION:
                project._migrate(from_version=version)
        except _OPEN_ERRORS as exc:
            conn.close()
            error = _write_error(p, exc)
            if error is None:
                raise
            raise error from exc
        except BaseException:
            conn.close()
            raise
        return project

    @staticmethod
    def _inspect(p: Path, timeout: float = DEFAULT_BUSY_TIMEOUT) -> int:
        """Read-only look at a file: is it our project, sound, untampered, and which schema version?

        Only SQLite opens the file (never ``open()``, see the module doc). A read-only connection to a
        WAL file makes ``-wal``/``-shm`` files; when the file is refused, the ones it made are removed
        again the way SQLite removes them (the last connection to close deletes them), so a
        connection of another process keeps its own.
        """
        sidecars = [Path(str(p) + suffix) for suffix in ("-wal", "-shm")]
        existed = {s for s in sidecars if s.exists()}
        try:
            return Project._inspect_readonly(p, timeout)
        except ProjectBusy:
            raise
        except ProjectError:
            if any(s.exists() and s not in existed for s in sidecars):
                with contextlib.suppress(*_OPEN_ERRORS):
                    conn = sqlite3.connect(_sqlite_uri(p, "rw"), uri=True, timeout=0)
                    try:
                        with contextlib.suppress(*_OPEN_ERRORS):
                            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
                    finally:
                        conn.close()
            raise

    @staticmethod
    def _inspect_readonly(p: Path, timeout: float) -> int:
        try:
            conn = sqlite3.connect(_sqlite_uri(p, "ro"), uri=True, timeout=timeout)
        except _OPEN_ERRORS as exc:
            raise _open_error(p, exc) from exc
        conn.text_factory = lambda b: b.decode("utf-8", "replace")  # a damaged file may hold any bytes
        try:
            conn.execute("BEGIN")  # one snapshot for every check below
            try:
                problems = [r[0] for r in conn.execute("PRAGMA integrity_check(100)")]
            except UnicodeDecodeError:  # the report quotes damaged bytes: it is not "ok" either way
                problems = ["damaged"]
            if problems != ["ok"]:
                raise CorruptProject(
                    f"{p} is damaged: SQLite's integrity check found {len(problems)}"
                    f"{'+' if len(problems) >= 100 else ''} problem(s); restore a backup")
            tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            if "meta" not in tables:
                raise NotAProject(f"{p} is an SQLite database but not a redactdesk project")
            meta = dict(conn.execute("SELECT key, value FROM meta").fetchall())
            if meta.get("app") != APP_ID:
                raise NotAProject(f"{p} is an SQLite database but not a redactdesk project")
            try:
                version = int(str(meta.get("schema_version", "")).strip())
            except ValueError:
                version = -1
            if version < 1:
                raise CorruptProject(
                    f"{p} has no valid schema version in its meta table (it was changed outside redactdesk "
                    "or is damaged); restore a backup")
            if version > SCHEMA_VERSION:
                raise NewerSchema(
                    f"{p} uses project schema {version}, but this redactdesk understands up to "
                    f"{SCHEMA_VERSION}; update redactdesk to open it (the file was not changed)"
                )
            if "audit" not in tables:
                raise TamperedProject(f"{p}: its audit log is missing; it was changed outside redactdesk")
            # the chain exists from v4 on (older files get it from the migration): check the guards only
            check = (_check_audit(conn, meta.get("secret"), tail=AUDIT_TAIL) if version >= 4
                     else _check_audit_guards(conn) or AuditCheck(True, 0))
            if not check.ok:
                raise TamperedProject(_tamper_message(p, check))
            return version
        except _OPEN_ERRORS as exc:
            raise _open_error(p, exc) from exc
        finally:
            conn.close()

    def _configure(self) -> None:
        self.db.execute("PRAGMA foreign_keys = ON")
        self.db.execute("PRAGMA journal_mode = WAL")
        self.db.execute("PRAGMA synchronous = NORMAL")
        self.db.execute(f"PRAGMA busy_timeout = {int(self.busy_timeout * 1000)}")

    def _migrate(self, from_version: int) -> None:
        with self.transaction():
            # read again under the write lock: another process may have migrated since we looked
            has_meta = self.db.execute(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'").fetchone()
            current = int(self.meta("schema_version", "0") or 0) if has_meta else from_version
            for version in range(current + 1, SCHEMA_VERSION + 1):
                MIGRATIONS[version](self.db)
                self._set_meta("schema_version", str(version))
            self.db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    def copy_to(self, dest: str | os.PathLike[str]) -> Path:
        """A consistent copy of this project at ``dest`` (SQLite online backup; mode 0600; not overwriting)."""
        d = Path(dest)
        target = _new_private_database(d, "choose another place for the copy")
        try:
            self.db.conn.backup(target)
        except BaseException as exc:
            target.close()
            d.unlink(missing_ok=True)
            if isinstance(exc, sqlite3.OperationalError) and _is_busy(exc):
                raise ProjectBusy(BUSY_MESSAGE) from exc
            raise
        target.close()
        return d

    def close(self) -> None:
        # PASSIVE: a background job closing its own connection must not lock out the window's writes
        # (TRUNCATE made them fail with "database is locked"); the last connection to close folds
        # the WAL back into the file anyway.
        with contextlib.suppress(sqlite3.Error, ProjectError):
            self.db.execute("PRAGMA wal_checkpoint(PASSIVE)")
        self.db.conn.close()

    def __enter__(self) -> Project:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def transaction(self) -> contextlib.AbstractContextManager[Any]:
        """One user action = one transaction, started ``BEGIN IMMEDIATE``; nests as a savepoint.

        Raises :class:`ProjectBusy` when another writer keeps the lock past the busy timeout.
        """
        return self.db.atomic()

    # ------------------------------------------------------------------ meta & settings
    def _set_meta(self, key: str, value: str) -> None:
        self.db.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", [key, value])

    def meta(self, key: str, default: str | None = None) -> str | None:
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", [key]).fetchone()
        return row[0] if row else default

    @property
    def schema_version(self) -> int:
        return int(self.meta("schema_version", "0") or 0)

    @property
    def secret(self) -> str:
        """Per-project secret that seeds pseudonym choices (never exported)."""
        value = self.meta("secret")
        if not value:
            raise ProjectError("project has no secret; it was not created by redactdesk")
        return value

    def setting(self, key: str, default: Any = None) -> Any:
        row = self.db.execute("SELECT value FROM settings WHERE key = ?", [key]).fetchone()
        return json.loads(row[0]) if row else default

    def set_setting(self, key: str, value: Any) -> None:
        with self.transaction():
            self.db.execute(
                "INSERT OR REPLACE INTO settings(key, value) VALUES (?, ?)", [key, json.dumps(value)]
            )

    def settings(self) -> dict[str, Any]:
        return {k: json.loads(v) for k, v in self.db.execute("SELECT key, value FROM settings")}

    # ------------------------------------------------------------------ audit log
    def log(self, decision: Decision) -> int:
        """Append one decision to the audit log (inside the caller's transaction if any).

        The entry's chain value covers the previous entry's, read under the same write lock.
        """
        values: dict[str, Any] = {
            "at": str(decision.at),
            "actor": str(decision.actor),
            "role": Role(decision.role).value,
            "action": str(decision.action),
            "conversation_id": None if decision.conversation_id is None else str(decision.conversation_id),
            "span_id": None if decision.span_id is None else int(decision.span_id),
            "before": None if decision.before is None else json.dumps(decision.before),
            "after": None if decision.after is None else json.dumps(decision.after),
        }
        with self.transaction():
            if self._chain_key is None:
                self._chain_key = audit_chain_key(self.secret)
            last = self.db.execute("SELECT id, chain FROM audit ORDER BY id DESC LIMIT 1").fetchone()
            seq = self.db.execute("SELECT seq FROM sqlite_sequence WHERE name = 'audit'").fetchone()
            values["id"] = max(last[0] if last else 0, seq[0] if seq else 0) + 1
            chain = audit_chain(self._chain_key, last[1] if last else AUDIT_CHAIN_GENESIS, values)
            self.db.execute(
                "INSERT INTO audit(id, at, actor, role, action, conversation_id, span_id, before, after, chain) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [values[f] for f in AUDIT_CHAIN_FIELDS] + [chain],
            )
        return int(values["id"])

    def verify_audit(self, full: bool = True) -> AuditCheck:
        """Check the audit log: its append-only triggers and its keyed hash chain (every entry, or
        the last ones as :meth:`open` does). Reads one snapshot; changes nothing."""
        conn = self.db.conn
        own = not conn.in_transaction
        try:
            if own:
                conn.execute("BEGIN")
            return _check_audit(conn, self.meta("secret"), tail=None if full else AUDIT_TAIL)
        except sqlite3.OperationalError as exc:
            if _is_busy(exc):
                raise ProjectBusy(BUSY_MESSAGE) from exc
            raise
        finally:
            if own and conn.in_transaction:
                conn.execute("COMMIT")

    def audit_head(self) -> str:
        """The newest audit entry's chain value ("" when the log is empty): binds a digest to the history."""
        row = self.db.execute("SELECT chain FROM audit ORDER BY id DESC LIMIT 1").fetchone()
        return (row[0] or "") if row else ""

    def _decision(self, action: str, conversation_id: str | None, span_id: int | None,
                  before: dict[str, Any] | None, after: dict[str, Any] | None) -> Decision:
        return Decision(action=action, actor=self.actor, role=self.role, at=utc_now(),
                        conversation_id=conversation_id, span_id=span_id, before=before, after=after)

    def audit_log(self, conversation_id: str | None = None, limit: int | None = None,
                  newest_first: bool = True) -> list[Decision]:
        sql = "SELECT * FROM audit"
        args: list[Any] = []
        if conversation_id is not None:
            sql += " WHERE conversation_id = ?"
            args.append(conversation_id)
        sql += " ORDER BY id DESC" if newest_first else " ORDER BY id"
        if limit:
            sql += f" LIMIT {int(limit)}"
        out = []
        for row in self.db.query(sql, args):
            out.append(Decision(
                action=row["action"], actor=row["actor"], role=Role(row["role"]), at=row["at"],
                conversation_id=row["conversation_id"], span_id=row["span_id"],
                before=None if row["before"] is None else json.loads(row["before"]),
                after=None if row["after"] is None else json.loads(row["after"]),
                id=row["id"],
            ))
        return out

    # ------------------------------------------------------------------ conversations
    def has_conversation(self, conversation_id: str) -> bool:
        return self.db.execute("SELECT 1 FROM conversations WHERE id = ?", [conversation_id]).fetchone() is not None

    def add_conversation(self, conv: Conversation, *, replace: bool = False,
                         id_chooser: Callable[[Project], str] | None = None,
                         refuse_duplicate: bool = False) -> None:
        """Store a whole conversation (row, words, turns, spans) in one transaction.

        ``id_chooser(project)`` picks ``conv.id`` inside that transaction, under the write lock, so two
        processes adding at once cannot both take the same free id. ``refuse_duplicate`` raises
        :class:`AlreadyImported` when a conversation with the same audio (sha256) and the same words
        is already stored.
        """
        with self.transaction():
            if refuse_duplicate:
                same = self._same_recording(conv)
                if same is not None:
                    name = Path(conv.audio_path).name if conv.audio_path else "this recording"
                    raise AlreadyImported(
                        f"{name}: already imported as {same} (same audio and transcript); "
                        "give another id to import it again")
            if id_chooser is not None:
                conv.id = id_chooser(self)
            if self.has_conversation(conv.id):
                if not replace:
                    raise ProjectError(f"conversation {conv.id!r} already exists in {self.path.name}")
                self.db.execute("DELETE FROM conversations WHERE id = ?", [conv.id])
            now = utc_now()
            self.db["conversations"].insert({
                "id": conv.id, "audio_path": conv.audio_path, "audio_sha256": conv.audio_sha256,
                "sample_rate": conv.sample_rate, "channels": conv.channels, "duration": conv.duration,
                "language": conv.language, "status": conv.status.value, "meta": json.dumps(conv.meta),
                "created": now, "updated": now,
            })
            self._write_words(conv.id, conv.words, conv.turns)
            for span in conv.spans:
                self._check_span(conv.id, span, len(conv.words))
                span.id = int(self.db["spans"].insert(_span_row(conv.id, span, now)).last_pk)
            self.log(self._decision("import", conv.id, None, None,
                                    {"words": len(conv.words), "spans": len(conv.spans)}))

    def _same_recording(self, conv: Conversation) -> str | None:
        """Id of a stored conversation with ``conv``'s audio sha256 and exactly its words, if any."""
        if not conv.audio_sha256:
            return None
        mine = [(w.text, w.start, w.end, w.confidence, w.speaker, w.channel, int(bool(w.aligned)))
                for w in conv.words]
        for (cid,) in self.db.execute("SELECT id FROM conversations WHERE audio_sha256 = ? ORDER BY created, id",
                                      [conv.audio_sha256]).fetchall():
            if self.word_count(cid) != len(mine):
                continue
            theirs = self.db.execute(
                'SELECT text, start, "end", confidence, speaker, channel, aligned FROM words '
                "WHERE conversation_id = ? ORDER BY idx", [cid]).fetchall()
            if theirs == mine:
                return str(cid)
        return None

    def _write_words(self, conversation_id: str, words: list[Word], turns: list[Turn]) -> None:
        self.db.execute("DELETE FROM words WHERE conversation_id = ?", [conversation_id])
        self.db.execute("DELETE FROM turns WHERE conversation_id = ?", [conversation_id])
        self.db.conn.executemany(
            'INSERT INTO words(conversation_id, idx, text, start, "end", confidence, speaker, channel, aligned) '
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(conversation_id, i, w.text, w.start, w.end, w.confidence, w.speaker, w.channel, int(w.aligned))
             for i, w in enumerate(words)],
        )
        self.db.conn.executemany(
            "INSERT INTO turns(conversation_id, idx, speaker, start_word, end_word, channel) VALUES (?, ?, ?, ?, ?, ?)",
            [(conversation_id, i, t.speaker, t.start_word, t.end_word, t.channel) for i, t in enumerate(turns)],
        )

    def replace_words(self, conversation_id: str, words: list[Word], turns: list[Turn], *,
                      action: str = "transcribe", status: ConversationStatus | None = None) -> None:
        """Replace a conversation's words and turns (after ASR or re-alignment).

        Spans refer to word indices, so when the word count changes every span is dropped (and
        logged); when it does not, spans stay.
        """
        with self.transaction():
            old_n = self.word_count(conversation_id)
            if old_n != len(words):
                n_spans = self.db.execute(
                    "SELECT count(*) FROM spans WHERE conversation_id = ?", [conversation_id]).fetchone()[0]
                self.db.execute("DELETE FROM spans WHERE conversation_id = ?", [conversation_id])
            else:
                n_spans = 0
            self._write_words(conversation_id, words, turns)
            self._touch(conversation_id, status)
            # new words were never looked at by detection: the release gate must see that
            self.db.execute("UPDATE conversations SET detected_at = NULL WHERE id = ?", [conversation_id])
            self.log(self._decision(action, conversation_id, None, {"words": old_n},
                                    {"words": len(words), "spans_dropped": n_spans}))

    def _touch(self, conversation_id: str, status: ConversationStatus | None = None) -> None:
        stamp = self._next_stamp(conversation_id)
        if status is None:
            self.db.execute("UPDATE conversations SET updated = ? WHERE id = ?", [stamp, conversation_id])
        else:
            self.db.execute("UPDATE conversations SET updated = ?, status = ? WHERE id = ?",
                            [stamp, ConversationStatus(status).value, conversation_id])

    def _next_stamp(self, conversation_id: str) -> str:
        """A new ``updated`` stamp, later than the stored one even within the same millisecond: the
        app's search index reads a call again only when its stamp changed, and two changes in one
        millisecond left it answering from the old words."""
        now = utc_now()
        row = self.db.execute("SELECT updated FROM conversations WHERE id = ?", [conversation_id]).fetchone()
        if row is None or not row[0] or now > row[0]:
            return now
        return (datetime.fromisoformat(row[0]) + timedelta(milliseconds=1)).isoformat(timespec="milliseconds")

    def set_status(self, conversation_id: str, status: ConversationStatus) -> None:
        with self.transaction():
            self._require_conversation(conversation_id)
            self._touch(conversation_id, status)

    def update_conversation_meta(self, conversation_id: str, **fields: Any) -> None:
        """Change conversation columns (audio_path, language, ...) or merge into ``meta`` (meta=dict)."""
        allowed = {"audio_path", "audio_sha256", "sample_rate", "channels", "duration", "language", "meta"}
        unknown = set(fields) - allowed
        if unknown:
            raise ValueError(f"cannot update conversation fields {sorted(unknown)}")
        with self.transaction():
            row = self._require_conversation(conversation_id)
            if "meta" in fields:
                merged = json.loads(row["meta"])
                merged.update(fields["meta"])
                fields["meta"] = json.dumps(merged)
            fields["updated"] = self._next_stamp(conversation_id)
            self.db["conversations"].update(conversation_id, fields)

    def _require_conversation(self, conversation_id: str) -> dict[str, Any]:
        rows = list(self.db.query("SELECT * FROM conversations WHERE id = ?", [conversation_id]))
        if not rows:
            raise NotFound(f"no conversation {conversation_id!r} in {self.path.name}")
        return rows[0]

    def conversation_ids(self) -> list[str]:
        return [r[0] for r in self.db.execute("SELECT id FROM conversations ORDER BY id")]

    def word_count(self, conversation_id: str) -> int:
        return self.db.execute("SELECT count(*) FROM words WHERE conversation_id = ?", [conversation_id]).fetchone()[0]

    def list_conversations(self) -> list[ConversationSummary]:
        sql = """
            SELECT c.id, c.status, c.duration, c.language, c.audio_path, c.detected_at,
                (SELECT count(*) FROM words w WHERE w.conversation_id = c.id) AS n_words,
                (SELECT count(*) FROM spans s WHERE s.conversation_id = c.id AND s.status = 'suggested') AS suggested,
                (SELECT count(*) FROM spans s WHERE s.conversation_id = c.id AND s.status = 'accepted') AS accepted,
                (SELECT count(*) FROM spans s WHERE s.conversation_id = c.id AND s.status = 'rejected') AS rejected
            FROM conversations c ORDER BY c.id
        """
        return [ConversationSummary(**row) for row in self.db.query(sql)]

    def load_conversation(self, conversation_id: str) -> Conversation:
        row = self._require_conversation(conversation_id)
        words = [
            Word(text=r["text"], start=r["start"], end=r["end"], confidence=r["confidence"],
                 speaker=r["speaker"], channel=r["channel"], aligned=bool(r["aligned"]))
            for r in self.db.query(
                'SELECT text, start, "end", confidence, speaker, channel, aligned FROM words '
                "WHERE conversation_id = ? ORDER BY idx", [conversation_id])
        ]
        turns = [
            Turn(speaker=r["speaker"], start_word=r["start_word"], end_word=r["end_word"], channel=r["channel"])
            for r in self.db.query("SELECT * FROM turns WHERE conversation_id = ? ORDER BY idx", [conversation_id])
        ]
        return Conversation(
            id=row["id"], audio_path=row["audio_path"], audio_sha256=row["audio_sha256"],
            sample_rate=row["sample_rate"], channels=row["channels"], duration=row["duration"],
            language=row["language"], status=ConversationStatus(row["status"]),
            words=words, turns=turns, spans=self.spans(conversation_id), meta=json.loads(row["meta"]),
        )

    def iter_conversations(self) -> Iterator[Conversation]:
        for cid in self.conversation_ids():
            yield self.load_conversation(cid)

    def delete_conversation(self, conversation_id: str) -> None:
        with self.transaction():
            self._require_conversation(conversation_id)
            self.db.execute("DELETE FROM conversations WHERE id = ?", [conversation_id])
            self.log(self._decision("delete_conversation", conversation_id, None, None, None))

    # ------------------------------------------------------------------ spans
    def spans(self, conversation_id: str, status: SpanStatus | None = None) -> list[Span]:
        sql = "SELECT * FROM spans WHERE conversation_id = ?"
        args: list[Any] = [conversation_id]
        if status is not None:
            sql += " AND status = ?"
            args.append(SpanStatus(status).value)
        sql += " ORDER BY start_word, end_word, id"
        return [_span_from_row(r) for r in self.db.query(sql, args)]

    def span(self, span_id: int) -> tuple[str, Span]:
        rows = list(self.db.query("SELECT * FROM spans WHERE id = ?", [span_id]))
        if not rows:
            raise NotFound(f"no span {span_id} in {self.path.name}")
        return rows[0]["conversation_id"], _span_from_row(rows[0])

    def _span_still_there(self, span_id: int) -> tuple[str, Span]:
        """The span a caller read and now changes; :class:`SpanGone` when no longer stored (every
        caller changes a span it read: a view, a review command, the pipeline)."""
        try:
            return self.span(span_id)
        except NotFound:
            raise SpanGone(f"span {span_id} is no longer in {self.path.name}: another program removed it since it "
                           "was read (detecting a call again replaces its open suggestions); nothing was changed, "
                           "the view shows the call as it is now") from None

    def _check_span(self, conversation_id: str, span: Span, n_words: int | None = None) -> None:
        n = self.word_count(conversation_id) if n_words is None else n_words
        if span.end_word > n or span.start_word < 0:
            raise ProjectError(
                f"span words {span.start_word}-{span.end_word} fall outside conversation "
                f"{conversation_id!r} ({n} words)")

    def add_span(self, conversation_id: str, span: Span, *, action: str = "create") -> int:
        """Insert a span (e.g. one an annotator drew) and log it; returns its id."""
        with self.transaction():
            self._require_conversation(conversation_id)
            self._check_span(conversation_id, span)
            span_id = int(self.db["spans"].insert(_span_row(conversation_id, span, utc_now())).last_pk)
            span.id = span_id
            self.log(self._decision(action, conversation_id, span_id, None, span.to_dict()))
            self._after_decision(conversation_id)
        return span_id

    def update_span(self, span_id: int, *, action: str, expect: dict[str, Any] | None = None,
                    **changes: Any) -> Span:
        """Change a span's fields (status, category, start_word, end_word, entity, ...) and log before/after.

        ``expect``: the fields as the caller last saw them (e.g. ``{"status": "suggested"}``); when the
        stored span differs — another program decided it meanwhile — nothing changes and
        :class:`ChangedElsewhere` is raised, so a stale view never overwrites someone else's decision.
        """
        allowed = {"status", "category", "start_word", "end_word", "entity", "score", "reason", "sources"}
        unknown = set(changes) - allowed
        if unknown:
            raise ValueError(f"cannot change span fields {sorted(unknown)}")
        with self.transaction():
            conversation_id, before = self._span_still_there(span_id)
            stored = before.to_dict()
            if expect and any(stored.get(k) != v for k, v in expect.items()):
                raise ChangedElsewhere(f"span {span_id} was changed by another program since this view read it "
                                       f"(it is now {stored.get('status')}); the view shows it as it is now")
            after = Span.from_dict({**before.to_dict(), **changes})
            self._check_span(conversation_id, after)
            row = _span_row(conversation_id, after, utc_now())
            del row["created"], row["conversation_id"]
            self.db["spans"].update(span_id, row)
            self.log(self._decision(action, conversation_id, span_id, before.to_dict(), after.to_dict()))
            self._after_decision(conversation_id)
        return after

    def restore_span(self, span: Span, conversation_id: str, *, action: str = "restore") -> None:
        """Put back a deleted span with its old id (undo of a delete)."""
        with self.transaction():
            row = _span_row(conversation_id, span, utc_now())
            row["id"] = span.id
            self.db["spans"].insert(row)
            self.log(self._decision(action, conversation_id, span.id, None, span.to_dict()))
            self._after_decision(conversation_id)

    def delete_span(self, span_id: int, *, action: str = "delete") -> Span:
        with self.transaction():
            conversation_id, before = self._span_still_there(span_id)
            self.db.execute("DELETE FROM spans WHERE id = ?", [span_id])
            self.log(self._decision(action, conversation_id, span_id, before.to_dict(), None))
            self._after_decision(conversation_id)
        return before

    def replace_suggestions(self, conversation_id: str, spans: Iterable[Span], *, source: str = "detect") -> list[Span]:
        """Drop a conversation's open suggestions and store new ones; human decisions stay. A new
        suggestion over a decision stored meanwhile — another program decided while detection ran on
        what it had read — is not stored (:func:`redactdesk.core.decisions.respect_decisions`): the
        accepted item would otherwise be suggested a second time."""
        spans = list(spans)
        if any(span.status != SpanStatus.SUGGESTED for span in spans):
            raise ValueError("replace_suggestions takes suggested spans only")
        with self.transaction():
            self._require_conversation(conversation_id)
            n_words = self.word_count(conversation_id)
            removed = self.db.execute(
                "DELETE FROM spans WHERE conversation_id = ? AND status = 'suggested'", [conversation_id]).rowcount
            now = utc_now()
            stored = []
            for span in respect_decisions(spans, self.spans(conversation_id)):
                self._check_span(conversation_id, span, n_words)
                span.id = int(self.db["spans"].insert(_span_row(conversation_id, span, now)).last_pk)
                stored.append(span)
            row = self._require_conversation(conversation_id)
            status = ConversationStatus(row["status"])
            if status in (ConversationStatus.NEW, ConversationStatus.TRANSCRIBED):
                status = ConversationStatus.DETECTED
            elif stored and status in (ConversationStatus.REVIEWED, ConversationStatus.SIGNED_OFF):
                status = ConversationStatus.IN_REVIEW  # new open suggestions: the review is not finished
            self._touch(conversation_id, status)
            if source == "detect":
                self.db.execute("UPDATE conversations SET detected_at = ? WHERE id = ?", [utc_now(), conversation_id])
            self.log(self._decision(source, conversation_id, None, {"suggested": removed},
                                    {"suggested": len(stored)}))
        return stored

    def detected_at(self, conversation_id: str) -> str | None:
        """When detection last ran over the conversation's current words (None: never)."""
        return self._require_conversation(conversation_id)["detected_at"]

    def mark_reviewed(self, conversation_id: str) -> None:
        """A person has read the whole conversation and decided every suggestion (there may be none).

        Refused while suggestions are open: "reviewed" means nothing is left undecided.
        """
        with self.transaction():
            self._require_conversation(conversation_id)
            open_n = self.db.execute("SELECT count(*) FROM spans WHERE conversation_id = ? AND status = 'suggested'",
                                     [conversation_id]).fetchone()[0]
            if open_n:
                raise ProjectError(f"{conversation_id!r} still has {open_n} undecided suggestion(s); decide them "
                                   "before marking it reviewed")
            self._touch(conversation_id, ConversationStatus.REVIEWED)
            self.log(self._decision("mark_reviewed", conversation_id, None, None, {"status": "reviewed"}))

    def _after_decision(self, conversation_id: str) -> None:
        """Keep the conversation's status in step with its spans."""
        row = self._require_conversation(conversation_id)
        status = ConversationStatus(row["status"])
        if status == ConversationStatus.SIGNED_OFF:
            self._touch(conversation_id)
            return
        counts = dict(self.db.execute(
            "SELECT status, count(*) FROM spans WHERE conversation_id = ? GROUP BY status", [conversation_id]))
        decided = counts.get("accepted", 0) + counts.get("rejected", 0)
        if decided and not counts.get("suggested", 0):
            status = ConversationStatus.REVIEWED
        elif decided:
            status = ConversationStatus.IN_REVIEW
        self._touch(conversation_id, status)

    # ------------------------------------------------------------------ pseudonym maps
    def pseudonyms(self, conversation_id: str) -> list[dict[str, Any]]:
        return list(self.db.query(
            "SELECT key, category, original, surrogate, locked FROM pseudonyms WHERE conversation_id = ? "
            "ORDER BY category, key", [conversation_id]))

    def put_pseudonyms(self, conversation_id: str, rows: Iterable[dict[str, Any]], *, action: str | None = None) -> None:
        """Upsert map rows {key, category, original, surrogate, locked}; log when ``action`` is given."""
        with self.transaction():
            now = utc_now()
            rows = list(rows)
            for r in rows:
                self.db.execute(
                    "INSERT OR REPLACE INTO pseudonyms(conversation_id, key, category, original, surrogate, locked, updated)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?)",
                    [conversation_id, r["key"], r["category"], r["original"], r["surrogate"],
                     int(bool(r.get("locked", False))), now])
            if action:
                # the audit log records which entries changed, never the original values
                self.log(self._decision(action, conversation_id, None, None,
                                        {"entries": [{"key_hash": _short_hash(r["key"]), "category": r["category"]}
                                                     for r in rows]}))

    def clear_pseudonyms(self, conversation_id: str, *, keep_locked: bool = True) -> None:
        with self.transaction():
            sql = "DELETE FROM pseudonyms WHERE conversation_id = ?"
            if keep_locked:
                sql += " AND locked = 0"
            self.db.execute(sql, [conversation_id])

    # ------------------------------------------------------------------ models
    def save_model(self, name: str, kind: str, blob: bytes | None, metrics: dict[str, Any],
                   n_labelled: int = 0) -> int:
        with self.transaction():
            cur = self.db.execute(
                "INSERT INTO models(name, kind, created, n_labelled, metrics, blob) VALUES (?, ?, ?, ?, ?, ?)",
                [name, kind, utc_now(), n_labelled, json.dumps(metrics), blob])
            self.log(self._decision("train_model", None, None, None,
                                    {"model_id": cur.lastrowid, "name": name, "n_labelled": n_labelled}))
            return int(cur.lastrowid)

    def models(self, name: str | None = None) -> list[dict[str, Any]]:
        """Model rows, oldest first, without their blobs; ``stored`` is False once the blob was dropped."""
        sql = "SELECT id, name, kind, created, n_labelled, metrics, blob IS NOT NULL AS stored FROM models"
        args: list[Any] = []
        if name:
            sql += " WHERE name = ?"
            args.append(name)
        rows = list(self.db.query(sql + " ORDER BY id", args))
        for r in rows:
            r["metrics"] = json.loads(r["metrics"])
            r["stored"] = bool(r["stored"])
        return rows

    def update_model_metrics(self, model_id: int, extra: dict[str, Any]) -> None:
        """Add scores computed after a model was saved (e.g. a cross-validation run in the background)
        to its metrics; keys already there are replaced by ``extra``'s."""
        with self.transaction():
            row = self.db.execute("SELECT metrics FROM models WHERE id = ?", [model_id]).fetchone()
            if row is None:
                raise NotFound(f"no model {model_id}")
            merged = {**json.loads(row[0]), **extra}
            self.db.execute("UPDATE models SET metrics = ? WHERE id = ?", [json.dumps(merged), model_id])

    def drop_model_blobs(self, model_ids: list[int]) -> list[int]:
        """Delete the stored models of ``model_ids``, keeping their rows and scores (audited as one
        ``prune_models`` entry). Returns the ids whose model was still stored."""
        ids = sorted({int(i) for i in model_ids})
        if not ids:
            return []
        marks = ", ".join("?" * len(ids))
        with self.transaction():
            dropped = [int(r[0]) for r in self.db.execute(
                f"SELECT id FROM models WHERE blob IS NOT NULL AND id IN ({marks}) ORDER BY id", ids).fetchall()]
            if dropped:
                self.db.execute(f"UPDATE models SET blob = NULL WHERE id IN ({marks})", ids)
                self.log(self._decision("prune_models", None, None, None, {"model_ids": dropped}))
        return dropped

    def model_blob(self, model_id: int) -> bytes | None:
        row = self.db.execute("SELECT blob FROM models WHERE id = ?", [model_id]).fetchone()
        if row is None:
            raise NotFound(f"no model {model_id}")
        return row[0]

    # ------------------------------------------------------------------ sign-offs
    def add_signoff(self, reviewer: str, role: Role, comment: str, content_hash: str, *, draft: bool = False,
                    scope: dict[str, Any] | None = None, signature: str | None = None,
                    public_key: str | None = None, digest_version: int = 1, at: str | None = None) -> int:
        """Store a sign-off row: the signed digest, its scope (exclusions, overrides, counts) and signature."""
        with self.transaction():
            at = at or utc_now()
            cur = self.db.execute(
                "INSERT INTO signoffs(reviewer, role, at, comment, content_hash, draft, scope, signature, public_key, "
                "digest_version) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [reviewer, Role(role).value, at, comment, content_hash, int(draft),
                 json.dumps(scope or {}, sort_keys=True), signature, public_key, int(digest_version)])
            self.log(Decision(action="signoff", actor=reviewer, role=Role(role), at=at,
                              after={"content_hash": content_hash, "draft": draft,
                                     "excluded": len((scope or {}).get("excluded", [])),
                                     "overrides": len((scope or {}).get("overrides", {}))}))
            return int(cur.lastrowid)

    def outside_version(self) -> int:
        """A number that changes when another connection (another program, a background job with its
        own connection) commits to the project file; this connection's own commits leave it as it is
        (SQLite's ``PRAGMA data_version``). A view polls it to notice work done elsewhere."""
        return int(self.db.conn.execute("PRAGMA data_version").fetchone()[0])

    def latest_signoff(self) -> dict[str, Any] | None:
        rows = list(self.db.query("SELECT * FROM signoffs WHERE draft = 0 ORDER BY id DESC LIMIT 1"))
        if not rows:
            return None
        row = rows[0]
        row["scope"] = json.loads(row.get("scope") or "{}")
        return row

    # ------------------------------------------------------------------ reviewers' missed items
    def add_missed(self, conversation_id: str, start_word: int, end_word: int, category: str, *,
                   partial: bool = False, speaker: bool = False, item_key: str | None = None,
                   note: str = "") -> int:
        """Record a MISSED_<CATEGORY>[_PARTIAL][_SPEAKER] mark; ``item_key`` groups repeats of one item."""
        with self.transaction():
            self._require_conversation(conversation_id)
            if not 0 <= start_word < end_word <= self.word_count(conversation_id):
                raise ProjectError(f"missed item words {start_word}-{end_word} fall outside {conversation_id!r}")
            key = item_key or f"{category}:{start_word}-{end_word}"
            cur = self.db.execute(
                "INSERT INTO missed_items(conversation_id, start_word, end_word, category, partial, speaker, "
                "item_key, reviewer, at, note) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [conversation_id, start_word, end_word, category, int(partial), int(speaker), key,
                 self.actor, utc_now(), note])
            self.log(self._decision("mark_missed", conversation_id, None, None,
                                    {"missed_id": cur.lastrowid, "category": category, "partial": partial,
                                     "speaker": speaker, "words": [start_word, end_word]}))
            return int(cur.lastrowid)

    def remove_missed(self, missed_id: int) -> None:
        with self.transaction():
            rows = list(self.db.query("SELECT * FROM missed_items WHERE id = ?", [missed_id]))
            if not rows:
                raise NotFound(f"no missed item {missed_id}")
            self.db.execute("DELETE FROM missed_items WHERE id = ?", [missed_id])
            self.log(self._decision("unmark_missed", rows[0]["conversation_id"], None,
                                    {"missed_id": missed_id, "category": rows[0]["category"]}, None))

    def missed_items(self, conversation_id: str | None = None) -> list[dict[str, Any]]:
        sql = "SELECT * FROM missed_items"
        args: list[Any] = []
        if conversation_id is not None:
            sql += " WHERE conversation_id = ?"
            args.append(conversation_id)
        rows = list(self.db.query(sql + " ORDER BY conversation_id, start_word, id", args))
        for r in rows:
            r["partial"], r["speaker"] = bool(r["partial"]), bool(r["speaker"])
        return rows

    # ------------------------------------------------------------------ allow / deny lists
    def add_term(self, kind: str, text: str, category: str = "") -> None:
        with self.transaction():
            self.db.execute(
                "INSERT OR REPLACE INTO term_lists(kind, text, category, added) VALUES (?, ?, ?, ?)",
                [kind, text, category, utc_now()])
            self.log(self._decision(f"{kind}_list_add", None, None, None,
                                    {"category": category, "term_hash": _short_hash(text)}))

    def remove_term(self, kind: str, text: str, category: str = "") -> None:
        with self.transaction():
            self.db.execute("DELETE FROM term_lists WHERE kind = ? AND text = ? AND category = ?",
                            [kind, text, category])
            self.log(self._decision(f"{kind}_list_remove", None, None,
                                    {"category": category, "term_hash": _short_hash(text)}, None))

    def terms(self, kind: str) -> list[tuple[str, str]]:
        """(text, category) pairs of the allow or deny list."""
        return [(r[0], r[1]) for r in self.db.execute(
            "SELECT text, category FROM term_lists WHERE kind = ? ORDER BY text", [kind])]

    # ------------------------------------------------------------------ gazetteer edits
    def set_gazetteer_entry(self, language: str, category: str, entry: str, action: str) -> None:
        with self.transaction():
            self.db.execute(
                "INSERT OR REPLACE INTO gazetteer_entries(language, category, entry, action, added) VALUES (?, ?, ?, ?, ?)",
                [language, category, entry, action, utc_now()])

    def gazetteer_entries(self, language: str) -> list[dict[str, Any]]:
        return list(self.db.query(
            "SELECT category, entry, action FROM gazetteer_entries WHERE language = ? ORDER BY category, entry",
            [language]))


def _short_hash(text: str) -> str:
    import hashlib

    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]
