"""Reviewers' keys: where they go, who can read them, the trust store and the `keys` command."""

from __future__ import annotations

import base64
import os
import stat
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization

from redactdesk.cli.main import main
from redactdesk.risk import keys


def _mode(p: Path) -> int:
    return stat.S_IMODE(p.stat().st_mode)


def test_config_dir_follows_the_environment_variable(tmp_path, monkeypatch):
    monkeypatch.setenv(keys.CONFIG_ENV, str(tmp_path / "portable"))
    keys.reviewer_key("Rita Reviewer")
    assert keys.keys_dir() == tmp_path / "portable" / "keys"
    assert len(list((tmp_path / "portable" / "keys").glob("*.key"))) == 1


def test_without_the_variable_keys_go_to_the_user_config_folder(monkeypatch):
    from platformdirs import user_config_dir

    monkeypatch.delenv(keys.CONFIG_ENV, raising=False)
    assert keys.keys_dir() == Path(user_config_dir("redactdesk", appauthor=False)) / "keys"


@pytest.mark.skipif(os.name != "posix", reason="POSIX file modes")
def test_a_key_is_made_once_per_reviewer_readable_by_its_owner_only():
    k1 = keys.reviewer_key("Rita Reviewer")
    assert keys.public_key_text(keys.reviewer_key("Rita Reviewer")) == keys.public_key_text(k1)
    assert keys.public_key_text(keys.reviewer_key("  Rita   Reviewer ")) == keys.public_key_text(k1)
    assert keys.public_key_text(keys.reviewer_key("Rita")) != keys.public_key_text(k1)
    folder = keys.keys_dir()
    stem = keys.key_stem("Rita Reviewer")
    assert _mode(folder) == 0o700
    assert _mode(folder / f"{stem}.key") == 0o600
    assert (folder / f"{stem}.pub").is_file()
    pem = (folder / f"{stem}.key").read_bytes()
    assert b"BEGIN PRIVATE KEY" in pem and serialization.load_pem_private_key(pem, None)


def test_file_names_are_safe_for_any_reviewer_name():
    for name in ("../../etc/passwd", "Ñúñez O'Brien", "a/b\\c", "李雷", "x" * 300):
        stem = keys.key_stem(name)
        assert "/" not in stem and "\\" not in stem and not stem.startswith(".") and len(stem) <= 49
        keys.reviewer_key(name)
    assert all(p.parent == keys.keys_dir() for p in keys.keys_dir().iterdir() if p.is_file())
    assert keys.key_stem("Ann") != keys.key_stem("ann")  # the hash tells names apart, the slug does not
    with pytest.raises(ValueError):
        keys.key_stem("   ")


def test_public_key_text_and_key_id():
    key = keys.reviewer_key("Rita Reviewer")
    text = keys.public_key_text(key)
    assert len(base64.b64decode(text)) == 32
    kid = keys.key_id(text)
    assert len(kid) == 16 and kid == keys.key_id(text) and kid != keys.key_id(keys.public_key_text(
        keys.reviewer_key("Someone Else")))


def test_sign_and_verify_never_raise_on_rubbish():
    key = keys.reviewer_key("Rita Reviewer")
    pub = keys.public_key_text(key)
    sig = keys.sign(key, b"message")
    assert keys.verify(pub, b"message", sig)
    assert not keys.verify(pub, b"messagE", sig)
    assert not keys.verify(pub, b"message", None) and not keys.verify(None, b"message", sig)
    assert not keys.verify("not base64!", b"message", sig) and not keys.verify(pub, b"message", "AAAA")


def test_own_keys_are_trusted_and_others_only_once_imported(tmp_path, monkeypatch):
    monkeypatch.setenv(keys.CONFIG_ENV, str(tmp_path / "a"))
    rita = keys.public_key_text(keys.reviewer_key("Rita Reviewer"))
    assert keys.is_trusted(rita)
    exported = keys.export_public_key("Rita Reviewer", tmp_path / "rita.pub")
    with pytest.raises(keys.KeyStoreError):
        keys.export_public_key("Rita Reviewer", tmp_path / "rita.pub")  # never overwrites

    monkeypatch.setenv(keys.CONFIG_ENV, str(tmp_path / "b"))
    assert not keys.is_trusted(rita)
    info = keys.trust_key_file(tmp_path / "rita.pub")
    assert info.key_id == exported.key_id and info.reviewer == "Rita Reviewer" and not info.own
    assert keys.is_trusted(rita) and keys.trust_key_file(tmp_path / "rita.pub").path == info.path  # idempotent
    info.path.unlink()
    assert not keys.is_trusted(rita)


def test_public_key_files_in_pem_or_bare_base64_are_read(tmp_path):
    key = keys.reviewer_key("Rita Reviewer")
    pub = keys.public_key_text(key)
    pem = key.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    (tmp_path / "k.pem").write_bytes(pem)
    (tmp_path / "k.txt").write_text(pub + "\n")
    (tmp_path / "bad.txt").write_text("hello\n")
    assert keys.read_public_key_file(tmp_path / "k.pem")[0] == pub
    assert keys.read_public_key_file(tmp_path / "k.txt")[0] == pub
    with pytest.raises(keys.KeyStoreError):
        keys.read_public_key_file(tmp_path / "bad.txt")


def test_a_damaged_key_file_is_a_clear_error():
    keys.reviewer_key("Rita Reviewer")
    (keys.keys_dir() / f"{keys.key_stem('Rita Reviewer')}.key").write_text("garbage")
    with pytest.raises(keys.KeyStoreError, match="cannot be read"):
        keys.reviewer_key("Rita Reviewer")


def test_keys_command_export_trust_list(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv(keys.CONFIG_ENV, str(tmp_path / "a"))
    assert main(["keys", "export", "Rita Reviewer", "--out", str(tmp_path / "rita.pub")]) == 0
    kid = keys.key_id(keys.read_public_key_file(tmp_path / "rita.pub")[0])
    assert kid in capsys.readouterr().out
    assert main(["keys", "export", "Rita Reviewer", "--out", str(tmp_path / "rita.pub")]) == 2  # exists

    monkeypatch.setenv(keys.CONFIG_ENV, str(tmp_path / "b"))
    assert main(["keys", "list"]) == 0
    assert kid not in capsys.readouterr().out
    assert main(["keys", "trust", str(tmp_path / "rita.pub")]) == 0
    assert kid in capsys.readouterr().out
    assert main(["keys", "list"]) == 0
    listed = capsys.readouterr().out
    assert f"trusted  {kid}  Rita Reviewer" in listed
    (tmp_path / "junk.pub").write_text("nothing here")
    assert main(["keys", "trust", str(tmp_path / "junk.pub")]) == 2
