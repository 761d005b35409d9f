"""Sign-off: a reviewer's signed approval of exactly what was reviewed.

The digest (version 2) is an HMAC-SHA256, keyed with the project secret, over everything a release
is made from: per conversation its language, audio hash and format, its metadata (speakers), every
word (text, times to the millisecond, speaker, channel, aligned), every turn, every span
(suggestions too), every surrogate row (the original it replaces included), every MISSED_ mark;
then the signed settings, the allow and deny lists and the gazetteer edits. Not covered: where
the audio lies (relinking moved audio is fine: export checks the file against the signed sha256),
word confidences, conversation status, the audit log itself (see below). Any later change gives a
different digest, so the sign-off reads as stale and a release export refuses until someone signs
again. Rows signed with digest version 1 (older redactdesk) read as stale: sign again.

The reviewer signs ``{"v": 2, "digest", "scope", "reviewer", "at", "comment"}`` (canonical JSON) with
their Ed25519 key (``redactdesk.risk.keys``); the signature and public key are stored with the row.
A row whose signature does not verify (changed or inserted outside redactdesk) reads as forged, a
row signed by a key this machine does not trust as untrusted; neither is valid.

The audit log is not in the digest: the sign-off itself, exports and model training append to it
without changing what is released, and a live audit head would make every sign-off stale the moment
it is written. Instead, when the project keeps a hash chain over its audit log
(``Project.audit_head``), the signed scope records the id and chain value of the newest entry at
signing time (``scope["audit"]``); a history rewritten up to the sign-off no longer has that value
there and the sign-off reads as invalid (``history_changed``). ``Project.verify_audit`` (run by
export) checks the whole chain.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import sqlite3
import weakref
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from redactdesk.core.types import Role
from redactdesk.store import Project, utc_now

SIGNED_SETTINGS_PREFIXES = ("mask.", "substitute.", "export.")
SIGNED_SETTINGS_KEYS = ("review.leak_override",)
DIGEST_VERSION = 2
MESSAGE_VERSION = 2

_WORDS_SQL = ('SELECT json_array(text, CAST(round(start * 1000) AS INTEGER), CAST(round("end" * 1000) AS INTEGER), '
              "speaker, channel, aligned) FROM words WHERE conversation_id = ? ORDER BY idx")
_TURNS_SQL = ("SELECT json_array(idx, speaker, start_word, end_word, channel) FROM turns WHERE conversation_id = ? "
              "ORDER BY idx")
_SPANS_SQL = ("SELECT json_array(start_word, end_word, category, status, entity) FROM spans "
              "WHERE conversation_id = ? ORDER BY start_word, end_word, category, status, entity")
_SURROGATES_SQL = ("SELECT json_array(key, category, original, surrogate, locked) FROM pseudonyms "
                   "WHERE conversation_id = ? ORDER BY key, category")
_MISSED_SQL = ("SELECT json_array(start_word, end_word, category, partial, speaker, item_key) FROM missed_items "
               "WHERE conversation_id = ? ORDER BY start_word, end_word, category, partial, speaker, item_key")


def _canonical(obj: Any) -> bytes:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode("utf-8")


def _key(project: Project) -> bytes:
    secret = project.secret
    try:
        return bytes.fromhex(secret)
    except ValueError:
        return secret.encode("utf-8")


def _parsed(text: Any) -> Any:
    try:
        return json.loads(text) if isinstance(text, str) else text
    except ValueError:
        return text


def _ms(x: Any) -> int | None:
    return None if x is None else round(float(x) * 1000)


def signed_settings(settings: Mapping[str, Any]) -> dict[str, Any]:
    """The settings a sign-off covers: mask./substitute./export. and the leak override."""
    return {k: v for k, v in sorted(settings.items())
            if k.startswith(SIGNED_SETTINGS_PREFIXES) or k in SIGNED_SETTINGS_KEYS}


_DIGESTS: weakref.WeakKeyDictionary[Project, tuple[tuple[int, int, int], str]] = weakref.WeakKeyDictionary()


def _change_marker(project: Project) -> tuple[int, int, int] | None:
    """Changes whenever the file may have changed: commits by any other connection (``data_version``)
    and every row this connection wrote (``total_changes``, rolled-back writes included)."""
    conn = project.db.conn
    try:
        return id(conn), int(conn.execute("PRAGMA data_version").fetchone()[0]), int(conn.total_changes)
    except (sqlite3.Error, TypeError):
        return None


def content_hash(project: Project) -> str:
    """Digest v2: HMAC-SHA256 (project secret) over everything a release is made from.

    Streams rows straight from SQLite (one JSON array per row, built by SQLite) into the HMAC, so
    a 2,000-conversation project costs seconds, not a load of every Conversation. Reused while
    nothing in the file changed (no write by this connection, no commit by any other).
    """
    marker = _change_marker(project)
    cached = _DIGESTS.get(project)
    if marker is not None and cached is not None and cached[0] == marker:
        return cached[1]
    digest = _compute_digest(project)
    if marker is not None:
        _DIGESTS[project] = (marker, digest)
    return digest


def _compute_digest(project: Project) -> str:
    mac = hmac.new(_key(project), digestmod=hashlib.sha256)
    conn = project.db.conn

    def line(obj: Any) -> None:
        mac.update(_canonical(obj))
        mac.update(b"\n")

    def rows(tag: str, sql: str, cid: str) -> None:
        items = [r[0] for r in conn.execute(sql, [cid]).fetchall()]
        line([tag, len(items)])
        if items:
            mac.update("\n".join(items).encode("utf-8"))
            mac.update(b"\n")

    own = not conn.in_transaction
    if own:
        conn.execute("BEGIN")  # deferred: one read snapshot, no write lock, even while another process writes
    try:
        line(["redactdesk-signoff-digest", DIGEST_VERSION])
        convs = conn.execute(
            "SELECT id, language, audio_sha256, sample_rate, channels, duration, meta FROM conversations ORDER BY id"
        ).fetchall()
        line(["conversations", len(convs)])
        for cid, language, audio_sha256, sample_rate, channels, duration, meta in convs:
            line(["conversation", cid, language, audio_sha256, sample_rate, channels, _ms(duration)])
            line(["meta", _parsed(meta)])  # speakers' names and roles are exported; quasi-identifiers generalised
            rows("words", _WORDS_SQL, cid)
            rows("turns", _TURNS_SQL, cid)
            rows("spans", _SPANS_SQL, cid)
            rows("surrogates", _SURROGATES_SQL, cid)
            rows("missed", _MISSED_SQL, cid)
        line(["settings", signed_settings(project.settings())])
        line(["terms", [list(r) for r in conn.execute(
            "SELECT kind, text, category FROM term_lists ORDER BY kind, text, category")]])
        line(["gazetteer", [list(r) for r in conn.execute(
            "SELECT language, category, entry, action FROM gazetteer_entries ORDER BY language, category, entry")]])
    finally:
        if own and conn.in_transaction:
            conn.execute("COMMIT")
    return mac.hexdigest()


def signoff_message(digest: str, scope: Mapping[str, Any], reviewer: str, at: str, comment: str) -> bytes:
    """The bytes a reviewer signs: canonical JSON of the digest and the sign-off's own fields."""
    return _canonical({"v": MESSAGE_VERSION, "digest": digest, "scope": scope, "reviewer": reviewer, "at": at,
                       "comment": comment})


def _audit_anchor(project: Project) -> dict[str, Any] | None:
    """The audit chain's last entry (id and chain value) when the project keeps a chain."""
    head = getattr(project, "audit_head", None)
    if not callable(head):
        return None
    try:
        if not head():
            return None
        row = project.db.conn.execute("SELECT id, chain FROM audit ORDER BY id DESC LIMIT 1").fetchone()
    except Exception:  # a project without a chain column, or one the head cannot be read from
        return None
    if row is None or not row[1]:
        return None
    return {"id": int(row[0]), "chain": str(row[1])}


def _anchor_holds(project: Project, anchor: Any) -> bool:
    if not isinstance(anchor, dict):
        return False
    try:
        row = project.db.conn.execute("SELECT chain FROM audit WHERE id = ?", [int(anchor["id"])]).fetchone()
    except Exception:
        return False
    return row is not None and row[0] == anchor.get("chain")


@dataclass
class SignOffState:
    signed: bool
    stale: bool
    reviewer: str | None = None
    at: str | None = None
    comment: str | None = None
    content_hash: str | None = None
    excluded: tuple[str, ...] = ()  # conversations the reviewer left out of the release
    overrides: dict[str, str] = field(default_factory=dict)  # conversation -> written reason to release unreviewed
    scope: dict[str, Any] = field(default_factory=dict)  # everything the sign-off recorded (counts seen, ...)
    digest_version: int | None = None
    outdated: bool = False  # signed with another digest recipe (an older redactdesk): reads as stale
    forged: bool = False  # the signature does not verify over the stored row
    untrusted: bool = False  # a good signature, by a key this machine does not trust
    history_changed: bool = False  # the audit log before the sign-off was rewritten
    key_id: str | None = None  # fingerprint of the signing key

    @property
    def valid(self) -> bool:
        return self.signed and not (self.stale or self.forged or self.untrusted or self.history_changed)

    def describe(self) -> str:
        if not self.signed:
            return "not signed off"
        if self.forged:
            return (f"INVALID: sign-off by {self.reviewer} at {self.at}: sign-off signature does not verify "
                    "(the sign-off row was changed outside redactdesk)")
        if self.history_changed:
            return (f"INVALID: sign-off by {self.reviewer} at {self.at}: the audit log before the sign-off was "
                    "changed since it was signed")
        if self.outdated:
            return (f"STALE: signed by {self.reviewer} at {self.at}, but signed with an older redactdesk; "
                    "sign again")
        if self.stale:
            return f"STALE: signed by {self.reviewer} at {self.at}, but decisions or settings changed since"
        if self.untrusted:
            return (f"UNTRUSTED: signed off by {self.reviewer} at {self.at}, but signed with a key this machine "
                    f"does not trust (redactdesk keys trust FILE); key id {self.key_id}")
        return f"signed off by {self.reviewer} at {self.at} (key {self.key_id})"


MIN_OVERRIDE_CHARS = 10


def _scope(project: Project, exclude: Iterable[str], overrides: Mapping[str, str] | None) -> dict[str, Any]:
    """The sign-off's scope, checked: known ids, written reasons, no id both excluded and overridden."""
    excluded = sorted({str(c) for c in exclude})
    reasons = {str(c): " ".join(str(r).split()) for c, r in (overrides or {}).items()}
    known = set(project.conversation_ids())
    unknown = [c for c in [*excluded, *reasons] if c not in known]
    if unknown:
        raise ValueError(f"no conversation {unknown[0]!r} in the project")
    both = sorted(set(excluded) & set(reasons))
    if both:
        raise ValueError(f"{both[0]!r} cannot be both excluded from and released with an override")
    short = sorted(c for c, r in reasons.items() if len(r) < MIN_OVERRIDE_CHARS)
    if short:
        raise ValueError(f"the override for {short[0]!r} needs a written reason (at least {MIN_OVERRIDE_CHARS} "
                         "characters)")
    return {"excluded": excluded, "overrides": dict(sorted(reasons.items()))}


def sign_off(project: Project, reviewer: str, comment: str = "", role: Role = Role.REVIEWER, *,
             exclude: Iterable[str] = (), overrides: Mapping[str, str] | None = None,
             seen: Mapping[str, Any] | None = None) -> SignOffState:
    """Record a reviewer's signed sign-off over the project's current content. Only reviewers may sign.

    ``exclude`` leaves conversations out of the release; ``overrides`` maps a conversation to a
    written reason to release it although it is not fully reviewed (its open suggestions are then
    anonymised as suggested). ``seen`` records the counts the reviewer was shown when signing.
    The row is signed with the reviewer's key on this machine (created on first use).
    """
    from redactdesk.risk import keys

    if Role(role) != Role.REVIEWER:
        raise PermissionError("only a reviewer can sign a release off")
    name = keys.normalise_name(reviewer)
    if not name:
        raise ValueError("a sign-off needs the reviewer's name")
    scope = _scope(project, exclude, overrides)
    if seen:
        scope["seen"] = dict(seen)
    key = keys.reviewer_key(name)
    anchor = _audit_anchor(project)
    if anchor:
        scope["audit"] = anchor
    scope = json.loads(_canonical(scope))  # exactly what is stored and read back
    comment = comment or ""
    digest = content_hash(project)
    at = utc_now()
    signature = keys.sign(key, signoff_message(digest, scope, name, at, comment))
    project.add_signoff(name, Role.REVIEWER, comment, digest, scope=scope, signature=signature,
                        public_key=keys.public_key_text(key), digest_version=DIGEST_VERSION, at=at)
    return signoff_state(project)


def signoff_state(project: Project) -> SignOffState:
    """The latest sign-off, checked: digest against the current content, signature, key trust, history."""
    from redactdesk.risk import keys

    row = project.latest_signoff()
    if row is None:
        return SignOffState(signed=False, stale=False)
    scope = row.get("scope") or {}
    if not isinstance(scope, dict):
        scope = {}
    version = int(row.get("digest_version") or 1)
    public = row.get("public_key")
    try:
        kid = keys.key_id(public) if public else None
    except ValueError:
        kid = None
    state = SignOffState(True, True, row["reviewer"], row["at"], row["comment"], row["content_hash"],
                         excluded=tuple(scope.get("excluded", ())), overrides=dict(scope.get("overrides", {})),
                         scope=scope, digest_version=version, key_id=kid)
    if version != DIGEST_VERSION:
        state.outdated = True  # an old recipe: nothing to compare, sign again
        return state
    state.stale = row["content_hash"] != content_hash(project)
    message = signoff_message(row["content_hash"], scope, row["reviewer"], row["at"], row["comment"] or "")
    state.forged = not keys.verify(public, message, row.get("signature"))
    if not state.forged:
        state.untrusted = not keys.is_trusted(public)
        if "audit" in scope:
            state.history_changed = not _anchor_holds(project, scope["audit"])
    return state
