"""A project file nothing can break: locks kept, odd names, damage and busy refusals, concurrent writers,
concurrent imports, and a writer killed mid-transaction. Several tests run real second processes."""

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from redactdesk.core import Conversation, Word
from redactdesk.store import (
    SCHEMA_VERSION,
    CorruptProject,
    NewerSchema,
    NotAProject,
    Project,
    ProjectBusy,
    ProjectError,
)

BUSY = "project busy (another redactdesk is writing); try again"


def run_python(code: str, *args: object, timeout: float = 30) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code), *map(str, args)],
                          capture_output=True, text=True, timeout=timeout)


def start_python(code: str, *args: object) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", textwrap.dedent(code), *map(str, args)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def sidecars(path: Path) -> list[str]:
    return sorted(s for s in ("-wal", "-shm", "-journal") if Path(str(path) + s).exists())


def small_conv(cid: str, n: int = 5) -> Conversation:
    return Conversation(id=cid, audio_sha256="cd" * 32,
                        words=[Word(f"w{i}", i * 0.5, i * 0.5 + 0.4) for i in range(n)])


# ---------------------------------------------------------------------------------------------- 1: locks
CLI_WRITE = """
    import sys
    from redactdesk.store import Project
    p = Project.open(sys.argv[1], actor="cli")
    p.set_setting(sys.argv[2], "from the other process")
    p.close()
"""


def test_second_open_in_process_does_not_let_another_process_delete_the_wal(tmp_path):
    """The window holds a connection, a background job opens the project again, a CLI writes and exits.

    Reading the file with open()/close() dropped the window's locks, the CLI's close then believed it
    was the last connection and deleted the WAL under the window: a later write was silently lost.
    """
    path = tmp_path / "p.rdproj"
    app = Project.create(path, actor="window")
    for i in range(20):
        app.set_setting(f"app{i}", i)  # committed, still in the WAL
    job = Project.open(path, actor="job")  # as a background job does, while the window stays open
    job.settings()
    first = run_python(CLI_WRITE, path, "cli1")
    assert first.returncode == 0, first.stderr
    for i in range(20, 40):
        app.set_setting(f"app{i}", i)
    job.close()
    second = run_python(CLI_WRITE, path, "cli2")
    assert second.returncode == 0, second.stderr
    for i in range(40, 60):
        app.set_setting(f"app{i}", i)
    app.close()
    with Project.open(path) as again:
        settings = again.settings()
    missing = [k for k in [f"app{i}" for i in range(60)] + ["cli1", "cli2"] if k not in settings]
    assert missing == []


# ---------------------------------------------------------------------------------------------- 2: names
@pytest.mark.parametrize("name", ["with space.rdproj", "hash#1.rdproj", "what?.rdproj", "100%25.rdproj",
                                  "50%.rdproj", "Ünïcødé ñ.rdproj", "a?mode=rw#x.rdproj"])
def test_odd_file_names_open_after_init(tmp_path, name):
    path = tmp_path / name
    with Project.create(path) as p:
        p.add_conversation(small_conv("c1"))
    with Project.open(path) as p:
        assert p.load_conversation("c1").words == small_conv("c1").words
        assert p.verify_audit().ok
    assert sidecars(path) == []


def test_read_only_check_looks_at_the_named_file_not_a_neighbour(tmp_path):
    # "p" is a sound project; "p#new.rdproj" was written by a newer redactdesk. An unescaped URI made
    # the check read "p" and let the newer file be opened and changed.
    with Project.create(tmp_path / "p"):
        pass
    newer = tmp_path / "p#new.rdproj"
    with Project.create(newer) as p:
        p._set_meta("schema_version", str(SCHEMA_VERSION + 1))
    before = newer.read_bytes()
    with pytest.raises(NewerSchema):
        Project.open(newer)
    assert newer.read_bytes() == before


# ---------------------------------------------------------------------------------------------- 3: damage
def _index_damaged_project(path: Path) -> None:
    with Project.create(path) as p:
        for i in range(3):
            p.add_conversation(small_conv(f"c{i}"))
            p.replace_suggestions(f"c{i}", [])
    conn = sqlite3.connect(path)  # the index's declared columns no longer match its content
    conn.execute("PRAGMA writable_schema = ON")
    conn.execute("UPDATE sqlite_master SET sql = 'CREATE INDEX audit_by_conversation ON audit(action, id)' "
                 "WHERE name = 'audit_by_conversation'")
    conn.commit()
    conn.close()


def test_index_damage_is_refused_and_the_file_left_alone(tmp_path):
    path = tmp_path / "damaged.rdproj"
    _index_damaged_project(path)
    assert sidecars(path) == []
    before = path.read_bytes()
    with pytest.raises(CorruptProject, match="damaged.*integrity check.*restore a backup"):
        Project.open(path)
    assert path.read_bytes() == before
    assert sidecars(path) == []


def test_refusals_leave_no_wal_or_shm_files(tmp_path):
    newer = tmp_path / "newer.rdproj"
    with Project.create(newer) as p:
        p._set_meta("schema_version", str(SCHEMA_VERSION + 1))
    foreign = tmp_path / "foreign.sqlite"
    conn = sqlite3.connect(foreign)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("CREATE TABLE t(x)")
    conn.close()
    half = tmp_path / "half.rdproj"
    with Project.create(tmp_path / "full.rdproj") as p:
        for i in range(20):
            p.add_conversation(small_conv(f"c{i}", n=300))
    data = (tmp_path / "full.rdproj").read_bytes()
    half.write_bytes(data[: len(data) // 2])
    for path, error in ((newer, NewerSchema), (foreign, NotAProject), (half, CorruptProject)):
        before = path.read_bytes()
        with pytest.raises(error):
            Project.open(path)
        assert path.read_bytes() == before, path.name
        assert sidecars(path) == [], path.name


def test_refusal_keeps_the_wal_of_a_process_that_has_the_file_open(tmp_path):
    # a newer redactdesk in another process is using the file: its -wal/-shm must stay
    path = tmp_path / "newer.rdproj"
    with Project.create(path) as p:
        p._set_meta("schema_version", str(SCHEMA_VERSION + 1))
    holder = start_python("""
        import sqlite3, sys
        conn = sqlite3.connect(sys.argv[1])
        conn.execute("INSERT INTO settings VALUES ('newer', '1')")
        conn.commit()
        print("ready", flush=True)
        __import__("time").sleep(30)
    """, path)
    try:
        assert holder.stdout.readline().strip() == "ready"
        with pytest.raises(NewerSchema):
            Project.open(path)
        assert sidecars(path) == ["-shm", "-wal"]
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        assert conn.execute("SELECT value FROM settings WHERE key = 'newer'").fetchone() == ("1",)
        conn.close()
    finally:
        holder.kill()
        holder.wait()


@pytest.mark.parametrize("value", ["abc", "", "-1", "0", "4.5"])
def test_unreadable_schema_version_is_a_clear_error(tmp_path, value):
    path = tmp_path / "p.rdproj"
    with Project.create(path) as p:
        p._set_meta("schema_version", value)
    before = path.read_bytes()
    with pytest.raises(ProjectError, match="no valid schema version") as err:
        Project.open(path)
    if value:
        assert value not in str(err.value).replace(str(path), "")  # the message quotes no stored value
    assert path.read_bytes() == before and sidecars(path) == []


def test_text_file_and_unreadable_file(tmp_path):
    txt = tmp_path / "notes.rdproj"
    txt.write_text("hello, this is not a project at all" * 10)
    with pytest.raises(NotAProject):
        Project.open(txt)
    assert sidecars(txt) == []
    with pytest.raises(ProjectError, match="no such project file"):
        Project.open(tmp_path / "missing.rdproj")
    with pytest.raises(NotAProject, match="folder"):
        Project.open(tmp_path)


def test_open_that_saw_an_older_schema_does_not_migrate_a_second_time(tmp_path, monkeypatch):
    # two processes open a v3 file at once: both see v3, the second migrates after the first
    import sqlite_utils

    from redactdesk.store.schema import MIGRATIONS

    path = tmp_path / "old.rdproj"
    conn = sqlite3.connect(path)
    db = sqlite_utils.Database(conn)
    with db.atomic():
        for v in (1, 2, 3):
            MIGRATIONS[v](db)
        db.execute("INSERT INTO meta VALUES ('app', 'redactdesk'), ('schema_version', '3'), ('secret', 'aa')")
    conn.close()
    Project.open(path).close()  # the first process migrated
    monkeypatch.setattr(Project, "_inspect", staticmethod(lambda p, timeout=5.0: 3))  # what the second saw
    with Project.open(path) as p:
        assert p.schema_version == SCHEMA_VERSION and p.verify_audit().ok


# ---------------------------------------------------------------------------------------------- 4: busy
HOLD_WRITE_LOCK = """
    import sqlite3, sys, time
    conn = sqlite3.connect(sys.argv[1], isolation_level=None)
    conn.execute("BEGIN IMMEDIATE")
    conn.execute("INSERT INTO settings VALUES ('holder', '1')")
    print("locked", flush=True)
    time.sleep(float(sys.argv[2]))
    conn.execute("COMMIT")
"""


def test_busy_project_gives_project_busy_not_a_traceback(tmp_path):
    path = tmp_path / "p.rdproj"
    with Project.create(path) as p:
        p.add_conversation(small_conv("c1"))
    project = Project.open(path, busy_timeout=0.3)
    holder = start_python(HOLD_WRITE_LOCK, path, 20)
    try:
        assert holder.stdout.readline().strip() == "locked"
        with pytest.raises(ProjectBusy) as err:
            project.set_setting("x", 1)
        assert str(err.value) == BUSY
        # read, then write, as a user's action does: refused before anything is read or written
        with pytest.raises(ProjectBusy, match="another redactdesk is writing"):
            with project.transaction():
                project.load_conversation("c1")
                project.set_setting("x", 2)
        assert project.load_conversation("c1").id == "c1"  # reading still works meanwhile
    finally:
        holder.kill()
        holder.wait()
    project.set_setting("x", 3)  # the lock is free again
    assert project.setting("x") == 3
    project.close()


def test_open_while_another_process_holds_the_file_exclusively_is_busy_not_damaged(tmp_path):
    path = tmp_path / "p.rdproj"
    with Project.create(path) as p:
        p.add_conversation(small_conv("c1"))
    holder = start_python("""
        import sqlite3, sys, time
        conn = sqlite3.connect(sys.argv[1], isolation_level=None)
        conn.execute("PRAGMA locking_mode = EXCLUSIVE")
        conn.execute("BEGIN EXCLUSIVE")
        conn.execute("INSERT INTO settings VALUES ('holder', '1')")
        conn.execute("COMMIT")
        print("locked", flush=True)
        time.sleep(20)
    """, path)
    try:
        assert holder.stdout.readline().strip() == "locked"
        with pytest.raises(ProjectBusy, match="try again"):
            Project.open(path, busy_timeout=0.3)
    finally:
        holder.kill()
        holder.wait()
    with Project.open(path) as p:
        assert p.setting("holder") == 1


WRITER = """
    import sys
    from redactdesk.store import Project, ProjectBusy
    path, tag, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
    ok = busy = 0
    p = Project.open(path, actor=tag)
    for i in range(n):
        try:
            with p.transaction():  # read, then write
                seen = len(p.terms("deny"))
                p.add_term("deny", f"{tag}-{i}")
                p.set_setting(f"{tag}-seen", seen)
            ok += 1
        except ProjectBusy:
            busy += 1
    p.close()
    print(ok, busy)
"""


def test_concurrent_writers_all_succeed_or_are_told_busy(tmp_path):
    path = tmp_path / "p.rdproj"
    Project.create(path).close()
    procs = [start_python(WRITER, path, f"w{k}", 50) for k in range(4)]
    ok = busy = 0
    for proc in procs:
        out, err = proc.communicate(timeout=60)
        assert proc.returncode == 0, err[-2000:]  # no "database is locked" traceback
        a, b = map(int, out.split())
        ok, busy = ok + a, busy + b
    assert ok + busy == 200 and ok > 0
    with Project.open(path) as p:
        assert len(p.terms("deny")) == ok
        assert sum(a.action == "deny_list_add" for a in p.audit_log()) == ok
        check = p.verify_audit(full=True)
        assert check.ok and check.n_rows == ok


# ---------------------------------------------------------------------------------------------- 5: imports
IMPORTER = """
    import os, sys, time
    go = sys.argv[1]
    while not os.path.exists(go):
        time.sleep(0.002)
    from redactdesk.cli.main import main
    sys.exit(main(["import", *sys.argv[2:]]))
"""


def _wav(path: Path) -> Path:
    import numpy as np
    import soundfile as sf

    sf.write(path, (0.1 * np.sin(np.arange(8000) / 7)).astype(np.float32), 16000)
    return path


def test_two_processes_importing_the_same_recording_store_it_once(tmp_path):
    project = tmp_path / "p.rdproj"
    Project.create(project).close()
    audio = _wav(tmp_path / "call.wav")
    go = tmp_path / "go"
    procs = [start_python(IMPORTER, go, project, audio) for _ in range(2)]
    time.sleep(0.5)  # both are waiting with everything imported
    go.write_text("")
    results = [(proc.wait(timeout=60), *proc.communicate()) for proc in procs]
    assert all("Traceback" not in err for _, _, err in results), results
    assert sorted(rc for rc, _, _ in results) == [0, 1], results
    assert any("already imported as call" in err for _, _, err in results), results
    with Project.open(project) as p:
        assert p.conversation_ids() == ["call"]
        assert p.verify_audit().ok


def test_second_import_of_the_same_recording_is_refused_unless_given_another_id(tmp_path):
    project = tmp_path / "p.rdproj"
    Project.create(project).close()
    audio = _wav(tmp_path / "call.wav")
    cli = [str(Path(sys.executable).with_name("redactdesk")), "import", str(project), str(audio)]
    first = subprocess.run(cli, capture_output=True, text=True, timeout=60)
    assert first.returncode == 0, first.stderr
    again = subprocess.run(cli, capture_output=True, text=True, timeout=60)
    assert again.returncode == 1 and "already imported as call" in again.stderr
    other = subprocess.run([*cli, "--id", "call_copy"], capture_output=True, text=True, timeout=60)
    assert other.returncode == 0, other.stderr
    with Project.open(project) as p:
        assert p.conversation_ids() == ["call", "call_copy"]


# ---------------------------------------------------------------------------------------------- 7: kill -9
KILLED_WRITER = """
    import os, sys, time
    from redactdesk.core import Conversation, Word
    from redactdesk.store import Project
    p = Project.open(sys.argv[1])
    original = Project._write_words

    def write_then_stall(self, *args):
        original(self, *args)
        self.db.execute("INSERT INTO settings VALUES ('half', '1')")
        print("inside", flush=True)
        time.sleep(60)

    Project._write_words = write_then_stall
    words = [Word(f"w{i}", i * 0.1, i * 0.1 + 0.05) for i in range(int(sys.argv[2]))]
    p.add_conversation(Conversation(id="big", audio_sha256="ef" * 32, words=words))
"""


def test_writer_killed_mid_transaction_leaves_a_project_that_opens_cleanly(tmp_path):
    path = tmp_path / "p.rdproj"
    with Project.create(path) as p:
        p.add_conversation(small_conv("kept"))
    proc = start_python(KILLED_WRITER, path, 100_000)
    try:
        assert proc.stdout.readline().strip() == "inside", proc.stderr.read() if proc.poll() is not None else ""
        assert os.path.getsize(str(path) + "-wal") > 1_000_000  # the big transaction spilled into the WAL
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    with Project.open(path) as p:
        assert p.conversation_ids() == ["kept"]
        assert p.setting("half") is None
        assert p.verify_audit().ok
        p.add_conversation(small_conv("after"))
    with Project.open(path) as p:
        assert p.conversation_ids() == ["after", "kept"]


def test_a_fifo_is_refused_at_once_not_waited_on(tmp_path):
    fifo = tmp_path / "p.rdproj"
    os.mkfifo(fifo)
    with pytest.raises(NotAProject, match="not a regular file"):
        Project.open(fifo)


def test_messages_about_a_damaged_file_name_the_error_not_its_text(tmp_path):
    path = tmp_path / "p.rdproj"
    Project.create(path).close()
    data = path.read_bytes()
    at = data.index(b"CREATE TABLE settings (key")
    # the schema's SQL made unreadable: SQLite's message quotes the word it stumbles on
    bad = b"CREATE TABLE settings Zqxwvut"
    path.write_bytes(data[:at] + bad + data[at + len(bad):])
    with pytest.raises(ProjectError) as err:
        Project.open(path)
    assert "Zqxwvut" not in str(err.value)
