"""The project file: round trip, transactions, audit log, refusal of foreign/damaged/newer files."""

import os
import sqlite3
import stat

import pytest

from redactdesk.core import Conversation, ConversationStatus, Role, Span, SpanStatus, Turn, Word
from redactdesk.store import SCHEMA_VERSION, CorruptProject, NewerSchema, NotAProject, Project, ProjectError
from redactdesk.store.schema import MIGRATIONS


def make_conv(cid="c1", n=6):
    words = [Word(f"w{i}", i * 0.5, i * 0.5 + 0.4, confidence=0.9, speaker="agent" if i < 3 else "customer",
                  channel=0, aligned=i != 4) for i in range(n)]
    conv = Conversation(id=cid, audio_path="/x/a.flac", audio_sha256="ab" * 32, sample_rate=16000, channels=1,
                        duration=n * 0.5, language="en", words=words, meta={"source": "test"})
    conv.turns = conv.turns_from_speakers()
    conv.spans = [Span(1, 3, "PERSON", score=0.8, sources=("ner", "gazetteer"), reason="name"),
                  Span(4, 5, "CREDIT_CARD", status=SpanStatus.ACCEPTED)]
    return conv


@pytest.fixture
def project(tmp_path):
    p = Project.create(tmp_path / "p.rdproj", actor="ann", role=Role.ANNOTATOR)
    yield p
    p.close()


def test_round_trip_keeps_every_field(project, tmp_path):
    conv = make_conv()
    project.add_conversation(conv)
    project.close()
    again = Project.open(tmp_path / "p.rdproj")
    loaded = again.load_conversation("c1")
    assert loaded.words == conv.words
    assert loaded.turns == conv.turns == [Turn("agent", 0, 3, 0), Turn("customer", 3, 6, 0)]
    assert [(s.start_word, s.end_word, s.category, s.status, s.sources) for s in loaded.spans] == [
        (1, 3, "PERSON", SpanStatus.SUGGESTED, ("ner", "gazetteer")), (4, 5, "CREDIT_CARD", SpanStatus.ACCEPTED, ())]
    assert loaded.meta == {"source": "test"} and loaded.audio_sha256 == "ab" * 32
    summary = again.list_conversations()[0]
    assert (summary.suggested, summary.accepted, summary.rejected, summary.n_words) == (1, 1, 0, 6)
    again.close()


def test_file_is_private_and_wal(project, tmp_path):
    mode = stat.S_IMODE(os.stat(tmp_path / "p.rdproj").st_mode)
    assert mode == 0o600
    assert project.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert project.db.execute("PRAGMA foreign_keys").fetchone()[0] == 1


def test_span_decisions_are_logged_with_before_and_after(project):
    project.add_conversation(make_conv())
    sid = project.spans("c1", SpanStatus.SUGGESTED)[0].id
    project.update_span(sid, action="accept", status="accepted")
    project.update_span(sid, action="recategorise", category="ORGANIZATION")
    log = project.audit_log("c1")
    assert [d.action for d in log[:2]] == ["recategorise", "accept"]
    assert log[1].before["status"] == "suggested" and log[1].after["status"] == "accepted"
    assert log[0].actor == "ann" and log[0].role == Role.ANNOTATOR
    assert project.load_conversation("c1").status == ConversationStatus.REVIEWED


def test_audit_log_is_append_only(project):
    project.add_conversation(make_conv())
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        project.db.execute("DELETE FROM audit")
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        project.db.execute("UPDATE audit SET actor = 'x'")


def test_failed_action_leaves_nothing_behind(project):
    project.add_conversation(make_conv())
    n_log = len(project.audit_log())
    with pytest.raises(ProjectError, match="outside"):
        project.add_span("c1", Span(5, 9, "PERSON"))
    assert len(project.spans("c1")) == 2 and len(project.audit_log()) == n_log
    bad = make_conv("c2")
    bad.spans.append(Span(0, 99, "PERSON"))
    with pytest.raises(ProjectError):
        project.add_conversation(bad)
    assert not project.has_conversation("c2")
    assert project.db.execute("SELECT count(*) FROM words WHERE conversation_id='c2'").fetchone()[0] == 0


def test_replace_suggestions_keeps_human_decisions(project):
    project.add_conversation(make_conv())
    new = project.replace_suggestions("c1", [Span(0, 1, "PERSON"), Span(2, 3, "CITY")])
    statuses = sorted((s.category, s.status.value) for s in project.spans("c1"))
    assert statuses == [("CITY", "suggested"), ("CREDIT_CARD", "accepted"), ("PERSON", "suggested")]
    assert all(s.id for s in new)


def test_undo_of_delete_restores_same_id(project):
    project.add_conversation(make_conv())
    span = project.spans("c1")[0]
    project.delete_span(span.id)
    project.restore_span(span, "c1")
    assert project.span(span.id)[1] == span


def test_settings_terms_pseudonyms_models_signoffs(project):
    project.add_conversation(make_conv())
    project.set_setting("ui.position", {"conversation": "c1", "span": 3})
    assert project.setting("ui.position") == {"conversation": "c1", "span": 3}
    project.add_term("allow", "visa", "CREDIT_CARD")
    assert project.terms("allow") == [("visa", "CREDIT_CARD")]
    project.put_pseudonyms("c1", [{"key": "john", "category": "PERSON", "original": "John", "surrogate": "Paul"}],
                           action="edit_surrogate")
    assert project.pseudonyms("c1")[0]["surrogate"] == "Paul"
    assert "John" not in str(project.audit_log()[0].after)  # originals never enter the log
    mid = project.save_model("crf", "crf", b"blob", {"f1": 0.5}, n_labelled=10)
    assert project.model_blob(mid) == b"blob" and project.models("crf")[0]["metrics"] == {"f1": 0.5}
    project.add_signoff("Rita", Role.REVIEWER, "ok", "hash1")
    assert project.latest_signoff()["content_hash"] == "hash1"
    assert len(project.secret) == 64


def test_refuses_file_that_is_not_a_project(tmp_path):
    txt = tmp_path / "notes.txt"
    txt.write_text("hello")
    with pytest.raises(NotAProject):
        Project.open(txt)
    other = tmp_path / "other.sqlite"
    sqlite3.connect(other).execute("CREATE TABLE t(x)").connection.close()
    before = other.read_bytes()
    with pytest.raises(NotAProject, match="not a redactdesk project"):
        Project.open(other)
    assert other.read_bytes() == before


def test_refuses_half_written_file(tmp_path):
    p = Project.create(tmp_path / "p.rdproj")
    for i in range(30):
        p.add_conversation(make_conv(f"c{i}", n=200))
    p.close()
    data = (tmp_path / "p.rdproj").read_bytes()
    cut = tmp_path / "cut.rdproj"
    cut.write_bytes(data[: len(data) // 2])
    with pytest.raises(CorruptProject):
        Project.open(cut)
    assert cut.read_bytes() == data[: len(data) // 2]


def test_refuses_newer_schema_without_touching_it(tmp_path):
    p = Project.create(tmp_path / "p.rdproj")
    p._set_meta("schema_version", str(SCHEMA_VERSION + 1))
    p.db.conn.commit()
    p.close()
    before = (tmp_path / "p.rdproj").read_bytes()
    with pytest.raises(NewerSchema, match="update redactdesk"):
        Project.open(tmp_path / "p.rdproj")
    assert (tmp_path / "p.rdproj").read_bytes() == before


def test_migrates_version_1_file(tmp_path):
    # build a v1 file exactly as the first release wrote it
    path = tmp_path / "old.rdproj"
    conn = sqlite3.connect(path)
    import sqlite_utils

    db = sqlite_utils.Database(conn)
    with db.atomic():
        MIGRATIONS[1](db)
        db.execute("INSERT INTO meta VALUES ('app', 'redactdesk'), ('schema_version', '1'), ('secret', 'aa')")
    conn.close()
    p = Project.open(path)
    assert p.schema_version == SCHEMA_VERSION
    p.add_term("deny", "acme")  # table added by migration 2
    assert p.terms("deny") == [("acme", "")]
    assert p.missed_items() == []  # table added by migration 3
    p.close()


def test_create_refuses_existing_file(tmp_path):
    (tmp_path / "x").write_text("keep me")
    with pytest.raises(ProjectError, match="already exists"):
        Project.create(tmp_path / "x")
    assert (tmp_path / "x").read_text() == "keep me"


def test_missed_items_are_recorded_and_logged(project):
    project.add_conversation(make_conv())
    mid = project.add_missed("c1", 1, 3, "PERSON", partial=True, item_key="marc")
    rows = project.missed_items("c1")
    assert rows[0]["partial"] is True and rows[0]["item_key"] == "marc"
    assert project.audit_log()[0].action == "mark_missed"
    with pytest.raises(ProjectError):
        project.add_missed("c1", 4, 40, "PERSON")
    project.remove_missed(mid)
    assert project.missed_items() == []


def test_copy_is_private_complete_and_independent(project, tmp_path):
    project.add_conversation(make_conv())
    copy_path = project.copy_to(tmp_path / "runs" / "copy.rdproj")
    assert stat.S_IMODE(os.stat(copy_path).st_mode) == 0o600
    with pytest.raises(ProjectError, match="already exists"):
        project.copy_to(copy_path)
    with Project.open(copy_path) as copy:
        assert copy.load_conversation("c1").words == make_conv().words
        assert copy.secret == project.secret  # same pseudonyms in the copy
        copy.delete_conversation("c1")
    assert project.has_conversation("c1")  # the original is untouched


def test_a_second_connection_closing_does_not_lock_out_writes(project, tmp_path):
    """Background jobs open, read and close their own connection while the window keeps writing."""
    import threading

    project.add_conversation(make_conv())
    stop = threading.Event()

    def job() -> None:
        while not stop.is_set():
            other = Project.open(tmp_path / "p.rdproj", actor="job")
            other.load_conversation("c1")
            other.close()

    worker = threading.Thread(target=job)
    worker.start()
    failures = 0
    try:
        for n in range(300):
            try:
                with project.transaction():  # read, then write: as a user's action does
                    project.load_conversation("c1")
                    project.set_setting("m", n)
            except sqlite3.OperationalError:
                failures += 1
    finally:
        stop.set()
        worker.join()
    assert failures == 0 and project.setting("m") == 299


def test_outside_version_changes_on_another_programs_commit_only(tmp_path):
    path = tmp_path / "p.rdproj"
    with Project.create(path) as mine:
        before = mine.outside_version()
        mine.add_conversation(Conversation(id="c1", words=[Word("hello", 0.0, 0.5)]))
        assert mine.outside_version() == before  # its own commit
        with Project.open(path) as other:
            other.add_conversation(Conversation(id="c2", words=[Word("hi", 0.0, 0.5)]))
        assert mine.outside_version() != before


def test_suggestions_read_before_another_program_decided_do_not_cover_its_decisions(tmp_path):
    """The app accepted and rejected while a CLI `detect` ran on what it had read before: its
    suggestions came back over the accepted span and repeated the rejected one (the window then
    showed each item twice: decided, and suggested again)."""
    path = tmp_path / "p.rdproj"
    with Project.create(path, actor="ann") as app:
        conv = make_conv()
        conv.spans = [Span(1, 3, "PERSON"), Span(4, 5, "CREDIT_CARD")]
        app.add_conversation(conv)
        stale = [Span(s.start_word, s.end_word, s.category) for s in app.spans("c1")]  # what detection read
        person, card = app.spans("c1")
        app.update_span(person.id, action="accept", status="accepted")
        app.update_span(card.id, action="reject", status="rejected")
        with Project.open(path, actor="cli") as cli:  # detection writes what it found on the stale read
            stored = cli.replace_suggestions("c1", [*stale, Span(0, 1, "CITY")])
        assert [(s.start_word, s.category) for s in stored] == [(0, "CITY")]
        assert sorted((s.start_word, s.status.value) for s in app.spans("c1")) == [
            (0, "suggested"), (1, "accepted"), (4, "rejected")]
