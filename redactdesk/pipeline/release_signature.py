"""The release's signature (``manifest.sig``) and the check a recipient runs on a release folder.

``sign_release`` signs the sha256 of ``manifest.json`` (and the reviewer's name) with the reviewer's
Ed25519 key; ``verify_release`` checks that signature, that the key is trusted on this machine (or
given with ``--key``), that every file the manifest lists is there with its sha256 and size, and that
no other file is in the folder. Problems are named by relative path, never by content.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from redactdesk.risk import keys

MANIFEST = "manifest.json"
SIGNATURE = "manifest.sig"
SIGNATURE_FORMAT = "redactdesk-release-signature"
SIGNATURE_VERSION = 1
ALGORITHM = "ed25519"


def _signed_message(manifest_sha256: str, reviewer: str) -> bytes:
    """What the key signs: canonical JSON naming the manifest's sha256 and the reviewer."""
    return json.dumps({"kind": SIGNATURE_FORMAT, "v": SIGNATURE_VERSION, "manifest_sha256": manifest_sha256,
                       "reviewer": reviewer}, sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False).encode("utf-8")


def sign_release(manifest_bytes: bytes, reviewer: str) -> bytes:
    """The content of ``manifest.sig`` for ``manifest_bytes``, signed with ``reviewer``'s key on this machine."""
    name = keys.normalise_name(reviewer)
    if not name:
        raise ValueError("a release signature needs the reviewer's name")
    key = keys.reviewer_key(name)
    public = keys.public_key_text(key)
    digest = hashlib.sha256(manifest_bytes).hexdigest()
    sig = {
        "format": SIGNATURE_FORMAT, "version": SIGNATURE_VERSION, "algorithm": ALGORITHM,
        "signed": "sha256 of manifest.json", "manifest_sha256": digest,
        "reviewer": name, "key_id": keys.key_id(public), "public_key": public,
        "signature": keys.sign(key, _signed_message(digest, name)),
    }
    return (json.dumps(sig, indent=1, ensure_ascii=False) + "\n").encode("utf-8")


@dataclass
class VerifyResult:
    """The outcome of checking a release folder. ``verdict`` is the line to print first."""

    folder: Path
    valid: bool
    verdict: str
    problems: list[str] = field(default_factory=list)  # "relative/path: what is wrong"
    reviewer: str | None = None
    key_id: str | None = None
    signature_ok: bool = False
    trusted: bool = False
    files_checked: int = 0

    def text(self) -> str:
        return "\n".join([self.verdict, *(f"  {p}" for p in self.problems)])


def _sha256_file(path: Path) -> str:
    with path.open("rb") as fh:  # not formats.sha256_file: `redactdesk verify` stays free of numpy/soundfile
        return hashlib.file_digest(fh, "sha256").hexdigest()


def _safe_rel(rel: str) -> bool:
    p = PurePosixPath(rel)
    return bool(rel) and not p.is_absolute() and "\\" not in rel and all(part not in ("", ".", "..")
                                                                        for part in rel.split("/"))


def _folder_entries(folder: Path) -> list[str]:
    """Every non-folder entry below ``folder`` (files, links, others), as relative POSIX paths."""
    out = []
    for root, dirs, files in os.walk(folder, followlinks=False):
        base = Path(root)
        for d in list(dirs):
            if (base / d).is_symlink():  # a link to a folder is an entry, not a place to walk
                dirs.remove(d)
                files.append(d)
        for f in files:
            out.append((base / f).relative_to(folder).as_posix())
    return sorted(out)


def _check_files(folder: Path, listed: Any, problems: list[str]) -> int:
    if not isinstance(listed, dict) or not listed:
        problems.append(f"{MANIFEST}: lists no files")
        return 0
    checked = 0
    for rel, meta in sorted(listed.items()):
        if not isinstance(rel, str) or not _safe_rel(rel) or rel in (MANIFEST, SIGNATURE):
            problems.append(f"{rel!s}: not a valid path for a release file")
            continue
        if not isinstance(meta, dict) or not isinstance(meta.get("sha256"), str):
            problems.append(f"{rel}: the manifest gives no sha256 for it")
            continue
        path = folder / rel
        if path.is_symlink():
            problems.append(f"{rel}: is a link, not a file")
            continue
        if not path.is_file():
            problems.append(f"{rel}: missing")
            continue
        size = path.stat().st_size
        if "bytes" in meta and size != meta["bytes"]:
            problems.append(f"{rel}: {size} bytes, the manifest says {meta['bytes']}")
            continue
        if _sha256_file(path) != meta["sha256"].lower():
            problems.append(f"{rel}: content differs from the manifest (sha256)")
            continue
        checked += 1
    return checked


def verify_release(folder: str | os.PathLike[str], trusted_only: bool = True, *,
                   keys_given: Iterable[str] = ()) -> VerifyResult:
    """Check a release folder: signature, key trust, every listed file, no unlisted file.

    ``keys_given`` are public keys (base64 text) the recipient got from the reviewer (``--key``):
    the release is then valid only when signed by one of them. Without them the key must be trusted
    on this machine; with ``trusted_only=False`` a good signature by an unknown key is reported as
    "valid signature by an untrusted key".
    """
    root = Path(folder)
    given = set()
    for k in keys_given:
        given.add(keys.canonical_public_text(k))
    if not root.is_dir():
        return VerifyResult(root, False, f"INVALID: {root} is not a release folder", [f"{root.name}: not a folder"])
    problems: list[str] = []
    manifest_bytes = None
    manifest: dict[str, Any] = {}
    mpath = root / MANIFEST
    if mpath.is_symlink() or not mpath.is_file():
        problems.append(f"{MANIFEST}: missing")
    else:
        manifest_bytes = mpath.read_bytes()
        try:
            loaded = json.loads(manifest_bytes.decode("utf-8"))
            if not isinstance(loaded, dict):
                raise ValueError("not an object")
            manifest = loaded
        except (ValueError, UnicodeDecodeError):
            problems.append(f"{MANIFEST}: not a readable manifest (JSON)")

    # the signature
    reviewer = kid = None
    signature_ok = trusted = False
    spath = root / SIGNATURE
    sig: dict[str, Any] = {}
    if spath.is_symlink() or not spath.is_file():
        problems.append(f"{SIGNATURE}: missing (the release is not signed)")
    else:
        try:
            loaded = json.loads(spath.read_bytes().decode("utf-8"))
            if not isinstance(loaded, dict):
                raise ValueError("not an object")
            sig = loaded
        except (ValueError, UnicodeDecodeError):
            problems.append(f"{SIGNATURE}: not a readable signature file")
    if sig:
        public = sig.get("public_key")
        reviewer = sig.get("reviewer") if isinstance(sig.get("reviewer"), str) else None
        try:
            public = keys.canonical_public_text(str(public))
            kid = keys.key_id(public)
        except ValueError:
            public = None
            problems.append(f"{SIGNATURE}: no valid public key in it")
        if sig.get("algorithm") != ALGORITHM:
            problems.append(f"{SIGNATURE}: unknown algorithm {sig.get('algorithm')!r}")
        elif public is not None and manifest_bytes is not None:
            digest = hashlib.sha256(manifest_bytes).hexdigest()
            signature_ok = keys.verify(public, _signed_message(digest, reviewer or ""), sig.get("signature"))
            if not signature_ok:
                problems.append(f"{SIGNATURE}: the signature does not verify over {MANIFEST} (the manifest or the "
                                "signature was changed)")
        if public is not None:
            if given:
                trusted = public in given
                if not trusted:
                    problems.append(f"{SIGNATURE}: signed by key {kid}, not by the key given with --key "
                                    f"({', '.join(sorted(keys.key_id(g) for g in given))})")
            else:
                trusted = keys.is_trusted(public)
                if not trusted and trusted_only:
                    problems.append(f"{SIGNATURE}: signed with key {kid}, which this machine does not trust "
                                    "(redactdesk keys trust FILE, or verify --key FILE)")

    # the files
    listed = manifest.get("files") if manifest else None
    checked = _check_files(root, listed, problems) if manifest else 0
    listed_names = set(listed) if isinstance(listed, dict) else set()
    for rel in _folder_entries(root):
        if rel not in listed_names and rel not in (MANIFEST, SIGNATURE):
            problems.append(f"{rel}: not listed in the manifest")

    who = f"{reviewer or 'an unnamed reviewer'} (key {kid})"
    if problems:
        verdict = f"INVALID: {len(problems)} problem(s) in {root.name}" + (f"; signed by {who}" if signature_ok else "")
        return VerifyResult(root, False, verdict, problems, reviewer, kid, signature_ok, trusted, checked)
    if trusted:
        how = "the key given with --key" if given else "a key this machine trusts"
        verdict = f"VALID: {root.name} signed by {who}, {how}; {checked} file(s) match {MANIFEST}"
    else:
        verdict = (f"VALID: {root.name}: valid signature by an untrusted key, {who}; compare its key id with the "
                   f"reviewer's; {checked} file(s) match {MANIFEST}")
    return VerifyResult(root, True, verdict, problems, reviewer, kid, signature_ok, trusted, checked)
