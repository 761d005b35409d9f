"""The release pre-check and decisions from the command line, as a reviewer on a server uses them."""

from __future__ import annotations

from redactdesk.cli.main import main
from redactdesk.core.types import Conversation, Span, SpanStatus, Word
from redactdesk.store import Project

WORDS = "hello this is Marjorie Quillfeather my card is 4111 1111 1111 1111 thanks".split()


def _project(tmp_path):
    path = tmp_path / "p.rdproj"
    with Project.create(path) as p:
        conv = Conversation(id="call_1", words=[Word(w, i * 0.5, i * 0.5 + 0.4, 0.9, "c") for i, w in enumerate(WORDS)])
        conv.turns = conv.turns_from_speakers()
        conv.spans = [Span(3, 5, "PERSON", status=SpanStatus.ACCEPTED)]
        p.add_conversation(conv)
        p.replace_suggestions("call_1", [])
    return path


def test_precheck_lists_the_unmarked_card_and_decide_resolves_it(tmp_path, capsys):
    path = _project(tmp_path)
    assert main(["precheck", str(path)]) == 1
    out = capsys.readouterr().out
    assert out.startswith("FAIL: 1 item(s)") and "call_1 words 8-12: CREDIT_CARD" in out and "4111" not in out
    assert main(["decide", str(path), "call_1", "8", "12", "--accept", "credit_card"]) == 0
    assert main(["precheck", str(path)]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("PASS")
    with Project.open(path) as p:
        assert [a.action for a in p.audit_log("call_1", limit=1)] == ["accept"]


def test_decide_refuses_words_outside_and_unknown_categories(tmp_path, capsys):
    path = _project(tmp_path)
    assert main(["decide", str(path), "call_1", "10", "99", "--reject"]) == 2
    assert "do not lie inside" in capsys.readouterr().err
    assert main(["decide", str(path), "call_1", "0", "1", "--accept", "NOPE"]) == 2


def test_mark_reviewed_refuses_open_suggestions(tmp_path, capsys):
    path = _project(tmp_path)
    with Project.open(path) as p:
        p.replace_suggestions("call_1", [Span(0, 1, "PERSON", score=0.5)])
    assert main(["mark-reviewed", str(path), "call_1"]) == 2
    assert "undecided" in capsys.readouterr().err
    assert main(["decide", str(path), "call_1", "0", "1", "--reject"]) == 0
    assert main(["mark-reviewed", str(path), "call_1"]) == 0


def test_decide_over_a_spans_exact_words_changes_that_span_and_adds_none(tmp_path, capsys):
    """A reviewer rejects an accepted name from the command line: the span itself becomes rejected (it
    stayed accepted, beside a second, rejected span), and saying it again changes nothing."""
    path = _project(tmp_path)
    assert main(["decide", str(path), "call_1", "3", "5", "--reject"]) == 0
    assert main(["decide", str(path), "call_1", "3", "5", "--reject"]) == 0
    assert "already rejected" in capsys.readouterr().out
    with Project.open(path) as p:
        spans = p.spans("call_1")
        assert [(s.start_word, s.end_word, s.category, s.status) for s in spans] == \
            [(3, 5, "PERSON", SpanStatus.REJECTED)]
        assert [a.action for a in p.audit_log("call_1", limit=1)] == ["reject"]
    assert main(["decide", str(path), "call_1", "3", "5", "--accept", "organization"]) == 0
    with Project.open(path) as p:
        assert [(s.category, s.status) for s in p.spans("call_1")] == [("ORGANIZATION", SpanStatus.ACCEPTED)]


def test_rejecting_words_inside_an_accepted_span_keeps_it_and_says_so(tmp_path, capsys):
    path = _project(tmp_path)
    assert main(["decide", str(path), "call_1", "4", "5", "--reject"]) == 0
    err = capsys.readouterr().err
    assert "stays accepted" in err and "Quillfeather" not in err
    with Project.open(path) as p:
        assert {(s.start_word, s.end_word, s.status) for s in p.spans("call_1")} == \
            {(3, 5, SpanStatus.ACCEPTED), (4, 5, SpanStatus.REJECTED)}


def test_accepting_a_suggestion_over_its_exact_words_decides_that_suggestion(tmp_path):
    path = _project(tmp_path)
    with Project.open(path) as p:
        p.replace_suggestions("call_1", [Span(8, 12, "CREDIT_CARD", score=0.9)])
        sid = next(s.id for s in p.spans("call_1") if s.status == SpanStatus.SUGGESTED)
    assert main(["decide", str(path), "call_1", "8", "12", "--accept", "credit_card"]) == 0
    with Project.open(path) as p:
        card = [s for s in p.spans("call_1") if s.start_word == 8]
        assert [(s.id, s.status) for s in card] == [(sid, SpanStatus.ACCEPTED)]


def test_rejecting_words_an_older_version_left_accepted_and_rejected_rejects_both(tmp_path, capsys):
    """A project where the old `decide --reject` left an accepted span beside a rejected one over the
    same words: rejecting again settles the accepted twin instead of saying 'already rejected'."""
    path = _project(tmp_path)
    with Project.open(path) as p:
        p.add_span("call_1", Span(3, 5, "PERSON", status=SpanStatus.REJECTED), action="reject")
    assert main(["decide", str(path), "call_1", "3", "5", "--reject"]) == 0
    with Project.open(path) as p:
        assert {s.status for s in p.spans("call_1")} == {SpanStatus.REJECTED}
    assert main(["decide", str(path), "call_1", "3", "5", "--reject"]) == 0
    assert "already rejected" in capsys.readouterr().out
