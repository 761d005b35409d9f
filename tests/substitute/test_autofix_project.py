"""The linguist's Auto-fix over a whole project: spans grown and surrogates re-drawn are stored,
audited decisions, so the audio of the grown part is masked too."""

from __future__ import annotations

import dataclasses

from redactdesk.audio.ranges import mask_ranges
from redactdesk.pipeline.substitute_project import autofix_project, substitute_project
from redactdesk.store import Project


def test_the_rest_of_a_date_after_its_span_joins_the_item_and_its_mask(make_conv, tmp_path):
    conv = make_conv([("c", "su fecha de nacimiento. Nació el 11 de 11 de 81. Es el")], [(0, "11", "DATE_OF_BIRTH")],
                     language="es")
    conv = dataclasses.replace(conv, spans=[dataclasses.replace(s, id=None) for s in conv.spans])
    with Project.create(tmp_path / "p.rdproj", actor="linguist") as p:
        p.add_conversation(conv)
        substitute_project(p)
        before = mask_ranges(p.load_conversation(conv.id))
        summary = autofix_project(p)
        after_conv = p.load_conversation(conv.id)
        log = [d.action for d in p.audit_log(conversation_id=conv.id)]
        again = autofix_project(p)  # nothing left to fix: a second run changes nothing
    span = after_conv.spans[0]
    assert [w.text for w in after_conv.words[span.start_word:span.end_word]] == ["11", "de", "11", "de", "81."]
    assert summary.spans_grown == 1 and summary.warnings_left == 0 and "span_autofix" in log
    after = mask_ranges(after_conv)
    assert after[0].end - after[0].start > 3 * (before[0].end - before[0].start)  # the month and year are masked
    assert again.spans_grown == 0 and again.surrogates_redrawn == 0


def test_the_cli_runs_the_auto_fix_before_substituting(make_conv, tmp_path, capsys):
    from redactdesk.cli.main import main

    conv = make_conv([("c", "su fecha de nacimiento. Nació el 11 de 11 de 81. Es el")], [(0, "11", "DATE_OF_BIRTH")],
                     language="es")
    conv = dataclasses.replace(conv, spans=[dataclasses.replace(s, id=None) for s in conv.spans])
    path = tmp_path / "p.rdproj"
    with Project.create(path, actor="linguist") as p:
        p.add_conversation(conv)
    assert main(["substitute", str(path), "--auto-fix"]) == 0
    out = capsys.readouterr().out
    assert "auto-fix: 1 span(s) grown" in out and "revision warning" not in out and "81" not in out
    assert main(["substitute", str(path), "--auto-fix", "--mode", "tag"]) == 2
