"""`manifest.sig` and `redactdesk verify`: a recipient can tell an untouched release from a changed one."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from redactdesk.cli.main import main
from redactdesk.pipeline.release_signature import SIGNATURE, sign_release, verify_release
from redactdesk.risk import keys

FILES = {
    "corpus/call_1.json": b'{"words": ["hello", "Bernadette", "Oakley"]}\n',
    "corpus.jsonl": b'{"tokens": ["hello"]}\n',
    "audio/call_1.wav": bytes(range(256)) * 8,
    "report.html": b"<html><body>report</body></html>\n",
    "README.txt": b"redactdesk release\n",
}


def build_release(folder: Path, reviewer: str = "Rita Reviewer", files: dict[str, bytes] = FILES) -> Path:
    """A release folder the way export writes one: files, manifest.json listing them, manifest.sig."""
    folder.mkdir(parents=True)
    for rel, data in files.items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_bytes(data)
    manifest = {"format": "redactdesk-release", "version": 1, "release": folder.name, "draft": False,
                "files": {rel: {"sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data)}
                          for rel, data in sorted(files.items())}}
    text = (json.dumps(manifest, ensure_ascii=False, indent=1) + "\n").encode("utf-8")
    (folder / "manifest.json").write_bytes(text)
    (folder / SIGNATURE).write_bytes(sign_release(text, reviewer))
    return folder


@pytest.fixture
def release(tmp_path) -> Path:
    return build_release(tmp_path / "release-1")


def test_an_untouched_release_verifies(release, capsys):
    result = verify_release(release)
    assert result.valid and result.signature_ok and result.trusted and not result.problems
    assert result.files_checked == len(FILES) and result.reviewer == "Rita Reviewer"
    assert result.verdict.startswith("VALID:")
    assert main(["verify", str(release)]) == 0
    assert capsys.readouterr().out.splitlines()[0].startswith("VALID:")


def test_the_signature_file_names_its_key(release):
    sig = json.loads((release / SIGNATURE).read_text())
    assert sig["algorithm"] == "ed25519" and sig["reviewer"] == "Rita Reviewer"
    assert sig["public_key"] == keys.public_key_text(keys.reviewer_key("Rita Reviewer"))
    assert sig["key_id"] == keys.key_id(sig["public_key"])
    assert sig["manifest_sha256"] == hashlib.sha256((release / "manifest.json").read_bytes()).hexdigest()


@pytest.mark.parametrize("rel", sorted(FILES))
def test_one_flipped_byte_in_any_file_is_named(release, rel, capsys):
    path = release / rel
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x01
    path.write_bytes(bytes(data))
    result = verify_release(release)
    assert not result.valid and result.verdict.startswith("INVALID:")
    assert [p for p in result.problems if p.startswith(f"{rel}:")] and len(result.problems) == 1
    assert main(["verify", str(release)]) == 1
    out = capsys.readouterr().out
    assert out.splitlines()[0].startswith("INVALID:") and rel in out


def test_a_stray_missing_or_linked_file_is_named(release):
    (release / "corpus" / "extra.json").write_text("{}")
    (release / "audio" / "call_1.wav").unlink()
    problems = verify_release(release).problems
    assert any(p.startswith("corpus/extra.json: not listed") for p in problems)
    assert any(p.startswith("audio/call_1.wav: missing") for p in problems)


def test_an_edited_manifest_or_a_missing_signature_is_invalid(release, tmp_path):
    manifest = json.loads((release / "manifest.json").read_text())
    manifest["draft"] = True
    (release / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
    result = verify_release(release)
    assert not result.valid and not result.signature_ok
    assert any(p.startswith("manifest.sig: the signature does not verify") for p in result.problems)

    other = build_release(tmp_path / "release-2")
    (other / SIGNATURE).unlink()
    assert any("missing (the release is not signed)" in p for p in verify_release(other).problems)


def test_rehashing_a_changed_file_into_the_manifest_breaks_the_signature(release):
    (release / "corpus.jsonl").write_bytes(b'{"tokens": ["Marjorie"]}\n')
    manifest = json.loads((release / "manifest.json").read_text())
    data = (release / "corpus.jsonl").read_bytes()
    manifest["files"]["corpus.jsonl"] = {"sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data)}
    (release / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
    result = verify_release(release)
    assert not result.valid and not result.signature_ok


def test_an_untrusted_key_is_invalid_unless_given_with_key(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv(keys.CONFIG_ENV, str(tmp_path / "reviewer"))
    release = build_release(tmp_path / "release-1")
    keys.export_public_key("Rita Reviewer", tmp_path / "rita.pub")
    keys.export_public_key("Mallory", tmp_path / "mallory.pub")

    monkeypatch.setenv(keys.CONFIG_ENV, str(tmp_path / "recipient"))
    result = verify_release(release)
    assert not result.valid and result.signature_ok and not result.trusted
    assert any("does not trust" in p for p in result.problems)
    lax = verify_release(release, trusted_only=False)
    assert lax.valid and "valid signature by an untrusted key" in lax.verdict

    assert main(["verify", str(release)]) == 1
    assert capsys.readouterr().out.startswith("INVALID:")
    assert main(["verify", str(release), "--key", str(tmp_path / "rita.pub")]) == 0
    assert "the key given with --key" in capsys.readouterr().out.splitlines()[0]
    assert main(["verify", str(release), "--key", str(tmp_path / "mallory.pub")]) == 1
    assert "not by the key given" in capsys.readouterr().out
    assert main(["keys", "trust", str(tmp_path / "rita.pub")]) == 0
    assert main(["verify", str(release)]) == 0


def test_problems_name_paths_never_contents(tmp_path, capsys):
    secret = b"Marjorie Quillfeather 4111111111111111"
    release = build_release(tmp_path / "r", files={"text/call_1.txt": secret + b"\n"})
    (release / "text" / "call_1.txt").write_bytes(secret + b"!\n")
    (release / "notes.txt").write_bytes(secret)
    assert main(["verify", str(release)]) == 1
    out = capsys.readouterr().out
    assert "text/call_1.txt" in out and "notes.txt" in out and "Marjorie" not in out and "4111" not in out


def test_manifest_paths_outside_the_folder_are_refused_not_read(tmp_path):
    (tmp_path / "outside.txt").write_text("x")
    release = build_release(tmp_path / "r", files={"a.txt": b"a"})
    manifest = json.loads((release / "manifest.json").read_text())
    manifest["files"]["../outside.txt"] = {"sha256": hashlib.sha256(b"x").hexdigest(), "bytes": 1}
    text = (json.dumps(manifest, indent=1) + "\n").encode()
    (release / "manifest.json").write_bytes(text)
    (release / SIGNATURE).write_bytes(sign_release(text, "Rita Reviewer"))
    result = verify_release(release)
    assert not result.valid and any(p.startswith("../outside.txt: not a valid path") for p in result.problems)


def test_verify_of_a_folder_that_is_not_there(tmp_path, capsys):
    assert main(["verify", str(tmp_path / "nope")]) == 1
    assert capsys.readouterr().out.startswith("INVALID:")
