"""Reviewers' signing keys (Ed25519) and the trust store of this machine.

Keys live in the user config folder (``platformdirs.user_config_dir("redactdesk")/keys/``; the
environment variable ``REDACTDESK_CONFIG_DIR`` replaces that folder, for tests and portable
installs). Each reviewer name gets its own key on first use: ``<slug>-<hash>.key`` (PKCS#8 PEM,
mode 0600, in a folder of mode 0700) and ``<slug>-<hash>.pub`` beside it (a small text file, the
same format ``redactdesk keys export`` writes).

A public key is trusted on this machine when it is one of the machine's own keys (a ``.pub`` in
``keys/``) or was imported into ``trusted/`` (``redactdesk keys trust FILE``). Sign-offs and release
signatures made with any other key verify as signatures but are reported as untrusted.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import hashlib
import os
import re
import tempfile
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

CONFIG_ENV = "REDACTDESK_CONFIG_DIR"
KEYS_DIR = "keys"
TRUSTED_DIR = "trusted"
PUBLIC_KEY_HEADER = "redactdesk-public-key v1"


class KeyStoreError(ValueError):
    """A key file is missing, unreadable or damaged (the message says which and what to do)."""


@dataclass(frozen=True)
class KeyInfo:
    """One public key this machine knows: its own (``own``) or imported into the trust store."""

    reviewer: str | None
    public_key: str  # base64 of the 32 raw bytes
    key_id: str
    path: Path
    own: bool


# ------------------------------------------------------------------------------------------ folders
def config_dir() -> Path:
    """The redactdesk user config folder (``REDACTDESK_CONFIG_DIR`` when set)."""
    override = os.environ.get(CONFIG_ENV)
    if override:
        return Path(override).expanduser()
    from platformdirs import user_config_dir

    return Path(user_config_dir("redactdesk", appauthor=False))


def keys_dir() -> Path:
    return config_dir() / KEYS_DIR


def trusted_dir() -> Path:
    return keys_dir() / TRUSTED_DIR


def _private_folder(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    with contextlib.suppress(OSError):  # best effort where chmod means little (Windows)
        os.chmod(path, 0o700)
    return path


# ------------------------------------------------------------------------------------------ names
def normalise_name(name: str) -> str:
    """The reviewer name a key belongs to: NFC, whitespace collapsed."""
    return " ".join(unicodedata.normalize("NFC", str(name)).split())


def key_stem(name: str) -> str:
    """File name (without suffix) of a reviewer's key: a safe slug of the name plus a short hash of it."""
    norm = normalise_name(name)
    if not norm:
        raise ValueError("a key needs the reviewer's name")
    ascii_name = unicodedata.normalize("NFKD", norm).encode("ascii", "ignore").decode("ascii")
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-")[:40].strip("-") or "reviewer"
    return f"{slug}-{hashlib.sha256(norm.encode('utf-8')).hexdigest()[:8]}"


# ------------------------------------------------------------------------------------------ key text
def public_key_text(key: Ed25519PrivateKey | Ed25519PublicKey) -> str:
    """base64 of the 32 raw bytes of the public key (of a private key: of its public half)."""
    pub = key.public_key() if isinstance(key, Ed25519PrivateKey) else key
    raw = pub.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return base64.b64encode(raw).decode("ascii")


def _raw_public(public_text: str) -> bytes:
    try:
        raw = base64.b64decode(str(public_text).strip(), validate=True)
    except (binascii.Error, ValueError) as exc:
        raise ValueError("not a base64 public key") from exc
    if len(raw) != 32:
        raise ValueError("an Ed25519 public key has 32 bytes")
    return raw


def public_key_from_text(public_text: str) -> Ed25519PublicKey:
    return Ed25519PublicKey.from_public_bytes(_raw_public(public_text))


def canonical_public_text(public_text: str) -> str:
    """The one spelling of a public key (raises ValueError when it is not one)."""
    return base64.b64encode(_raw_public(public_text)).decode("ascii")


def key_id(public_text: str) -> str:
    """A short fingerprint of a public key (16 hex digits of its sha256), to compare by eye or phone."""
    return hashlib.sha256(_raw_public(public_text)).hexdigest()[:16]


def sign(key: Ed25519PrivateKey, message: bytes) -> str:
    """base64 Ed25519 signature of ``message``."""
    return base64.b64encode(key.sign(message)).decode("ascii")


def verify(public_text: str | None, message: bytes, signature: str | None) -> bool:
    """True when ``signature`` (base64) is ``public_text``'s signature of ``message``; never raises."""
    if not public_text or not signature:
        return False
    try:
        pub = public_key_from_text(public_text)
        sig = base64.b64decode(str(signature).strip(), validate=True)
        pub.verify(sig, message)
    except (InvalidSignature, ValueError, binascii.Error, TypeError):
        return False
    return True


# ------------------------------------------------------------------------------------------ files
def public_key_file_text(public_text: str, reviewer: str | None) -> str:
    """The text of a public-key file (what ``keys export`` writes and ``keys trust`` reads)."""
    public_text = canonical_public_text(public_text)
    lines = [PUBLIC_KEY_HEADER]
    if reviewer:
        lines.append(f"reviewer: {normalise_name(reviewer)}")
    lines += [f"key-id: {key_id(public_text)}", f"ed25519: {public_text}", ""]
    return "\n".join(lines)


def parse_public_key(text: str) -> tuple[str, str | None]:
    """(public key, reviewer or None) from a public-key file's text.

    Reads redactdesk's own format, a PEM ``PUBLIC KEY`` block, or a bare base64 key (as in a
    ``manifest.sig`` or a sign-off row). Raises ValueError when no Ed25519 public key is found.
    """
    reviewer = None
    found = None
    pem = re.search(r"-----BEGIN PUBLIC KEY-----.*?-----END PUBLIC KEY-----", text, re.S)
    if pem:
        try:
            pub = serialization.load_pem_public_key(pem.group(0).encode("ascii"))
        except ValueError as exc:
            raise ValueError("the PEM block is not a public key") from exc
        if not isinstance(pub, Ed25519PublicKey):
            raise ValueError("the PEM key is not an Ed25519 key")
        found = public_key_text(pub)
    for line in text.splitlines():
        line = line.strip()
        if line.lower().startswith("reviewer:"):
            reviewer = normalise_name(line.split(":", 1)[1]) or None
        elif line.lower().startswith("ed25519:") and found is None:
            found = canonical_public_text(line.split(":", 1)[1])
    if found is None:
        bare = [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.strip().startswith("#")]
        if len(bare) == 1:
            found = canonical_public_text(bare[0])
    if found is None:
        raise ValueError("no Ed25519 public key in the file")
    return found, reviewer


def read_public_key_file(path: str | os.PathLike[str]) -> tuple[str, str | None]:
    """(public key, reviewer or None) from a public-key file; KeyStoreError when it is not one."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise KeyStoreError(f"cannot read the public-key file {p}: {exc}") from exc
    try:
        return parse_public_key(text)
    except ValueError as exc:
        raise KeyStoreError(f"{p} is not a redactdesk public-key file ({exc})") from exc


def _write_new(path: Path, data: bytes, mode: int) -> bool:
    """Write ``path`` (mode ``mode``) unless it exists; atomic (temp file + link). True if written."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with contextlib.suppress(OSError):
            os.fchmod(fd, mode)
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        try:
            os.link(tmp, path)
        except FileExistsError:
            return False
        except OSError:  # no hard links here: a rename that still refuses to replace
            if path.exists():
                return False
            os.replace(tmp, path)
            return True
        return True
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)


def _load_private(path: Path) -> Ed25519PrivateKey:
    try:
        key = serialization.load_pem_private_key(path.read_bytes(), password=None)
    except (OSError, ValueError, TypeError) as exc:
        raise KeyStoreError(f"the key file {path} cannot be read ({exc}); move it away to let redactdesk create "
                            "a new key (sign-offs made with the old key then read as untrusted)") from exc
    if not isinstance(key, Ed25519PrivateKey):
        raise KeyStoreError(f"the key file {path} does not hold an Ed25519 key")
    return key


def reviewer_key(name: str) -> Ed25519PrivateKey:
    """The signing key of reviewer ``name`` on this machine, created on first use.

    Raises KeyStoreError (a ValueError) when the key folder cannot be written or the key file is damaged.
    """
    try:
        return _reviewer_key(name)
    except OSError as exc:
        raise KeyStoreError(f"cannot keep the reviewer's key in {keys_dir()} ({exc}); set {CONFIG_ENV} to a "
                            "writable folder") from exc


def _reviewer_key(name: str) -> Ed25519PrivateKey:
    stem = key_stem(name)
    folder = _private_folder(keys_dir())
    priv_path, pub_path = folder / f"{stem}.key", folder / f"{stem}.pub"
    if not priv_path.exists():
        new = Ed25519PrivateKey.generate()
        pem = new.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                serialization.NoEncryption())
        _write_new(priv_path, pem, 0o600)  # another process may have won the race: read what is there
    key = _load_private(priv_path)
    pub_text = public_key_text(key)
    try:
        current = read_public_key_file(pub_path)[0] if pub_path.exists() else None
    except KeyStoreError:
        current = None
    if current != pub_text:
        data = public_key_file_text(pub_text, normalise_name(name)).encode("utf-8")
        pub_path.unlink(missing_ok=True)
        _write_new(pub_path, data, 0o644)
    return key


def has_key(name: str) -> bool:
    return (keys_dir() / f"{key_stem(name)}.key").exists()


def _infos(folder: Path, own: bool) -> list[KeyInfo]:
    out = []
    if not folder.is_dir():
        return out
    for p in sorted(folder.glob("*.pub")):
        try:
            pub, reviewer = read_public_key_file(p)
        except KeyStoreError:
            continue
        out.append(KeyInfo(reviewer, pub, key_id(pub), p, own))
    return out


def own_keys() -> list[KeyInfo]:
    return _infos(keys_dir(), own=True)


def trusted_keys() -> list[KeyInfo]:
    return _infos(trusted_dir(), own=False)


def known_keys() -> list[KeyInfo]:
    """Every key this machine trusts: its own, then the imported ones."""
    return own_keys() + trusted_keys()


def trusted_public_keys(extra: Iterable[str] = ()) -> set[str]:
    keys = {k.public_key for k in known_keys()}
    for e in extra:
        with contextlib.suppress(ValueError):
            keys.add(canonical_public_text(e))
    return keys


def is_trusted(public_text: str | None, extra: Iterable[str] = ()) -> bool:
    if not public_text:
        return False
    try:
        pub = canonical_public_text(public_text)
    except ValueError:
        return False
    return pub in trusted_public_keys(extra)


def trusted_info(public_text: str) -> KeyInfo | None:
    """This machine's record of a public key (own keys first), or None when it is not trusted."""
    try:
        pub = canonical_public_text(public_text)
    except ValueError:
        return None
    return next((k for k in known_keys() if k.public_key == pub), None)


def export_public_key(name: str, out: str | os.PathLike[str]) -> KeyInfo:
    """Write reviewer ``name``'s public key to ``out`` (creating the key on first use); never overwrites."""
    key = reviewer_key(name)
    pub = public_key_text(key)
    dest = Path(out)
    if dest.exists():
        raise KeyStoreError(f"{dest} already exists; choose another file name")
    dest.parent.mkdir(parents=True, exist_ok=True)
    dest.write_text(public_key_file_text(pub, name), encoding="utf-8")
    return KeyInfo(normalise_name(name), pub, key_id(pub), dest, own=True)


def trust_public_key(public_text: str, reviewer: str | None = None) -> KeyInfo:
    """Add a public key to this machine's trust store (idempotent)."""
    pub = canonical_public_text(public_text)
    existing = trusted_info(pub)
    if existing is not None:
        return existing
    folder = _private_folder(trusted_dir())
    kid = key_id(pub)
    stem = f"{key_stem(reviewer)}-{kid}" if reviewer and normalise_name(reviewer) else f"key-{kid}"
    path = folder / f"{stem}.pub"
    _write_new(path, public_key_file_text(pub, reviewer).encode("utf-8"), 0o644)
    return KeyInfo(normalise_name(reviewer) if reviewer else None, pub, kid, path, own=False)


def trust_key_file(path: str | os.PathLike[str]) -> KeyInfo:
    """Import a reviewer's exported public-key file into this machine's trust store."""
    pub, reviewer = read_public_key_file(path)
    return trust_public_key(pub, reviewer)
