import hashlib
import os

import pytest

from redactdesk.formats.files import atomic_path, atomic_write_text, sha256_file


class Boom(Exception):
    pass


def test_an_error_mid_write_keeps_the_old_file_and_leaves_no_temporary_file(tmp_path):
    target = tmp_path / "call.json"
    target.write_text("old content\n")
    with pytest.raises(Boom), atomic_path(target) as tmp:
        tmp.write_text("half of the new")
        assert tmp.parent == target.parent  # same folder: the rename cannot cross file systems
        raise Boom()
    assert target.read_text() == "old content\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["call.json"]


def test_a_finished_write_replaces_the_file_private_to_its_owner(tmp_path):
    target = tmp_path / "sub" / "call.txt"
    atomic_write_text(target, "new\n")
    atomic_write_text(target, "newer\n")
    assert target.read_text() == "newer\n"
    assert os.stat(target).st_mode & 0o077 == 0  # may hold personal data
    assert sorted(p.name for p in target.parent.iterdir()) == ["call.txt"]


def test_the_temporary_file_keeps_the_suffix_a_writer_picks_its_format_by(tmp_path):
    with atomic_path(tmp_path / "a.flac", suffix=".flac") as tmp:
        assert tmp.suffix == ".flac"
        tmp.write_bytes(b"x")
    assert (tmp_path / "a.flac").read_bytes() == b"x"


def test_sha256_file_matches_hashlib(tmp_path):
    p = tmp_path / "x.bin"
    p.write_bytes(b"abc" * 100_000)
    assert sha256_file(p) == hashlib.sha256(b"abc" * 100_000).hexdigest()
