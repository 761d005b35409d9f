"""The revision checks that real ASR output needs (issue 18): each warning names its item and span,
never a value, and auto-fix resolves what a rule can (a re-drawn surrogate, a grown span)."""

from __future__ import annotations

import copy

from redactdesk.substitute import PseudonymMap, revision_checks, substitute_conversation
from redactdesk.substitute.autofix import auto_fix, plan_fixes


def _kinds(warnings):
    return sorted({w.kind for w in warnings})


def test_placeholder_in_pseudonym_output_is_flagged_and_redrawn(make_conv, secret):
    conv = make_conv([("c", "I'm Holly Thompson."), ("c", "my email is Holly Thompson thanks")],
                     [(0, "Holly Thompson.", "PERSON"), (1, "Holly Thompson", "EMAIL")])
    res = substitute_conversation(conv, secret=secret)
    email = next(r for r in res.replacements if r.category == "EMAIL")
    assert "[" not in email.surrogate and " at " in f" {email.surrogate} "  # no domain heard: still an address
    key = next(r["key"] for r in res.map_rows if r["key"].startswith("email:"))
    bad = copy.deepcopy(res)
    next(r for r in bad.replacements if r.category == "EMAIL").surrogate = "[email]"
    warnings = [w for w in revision_checks(conv, bad) if w.kind == "placeholder"]
    assert [w.span_ids for w in warnings] == [(2,)] and warnings[0].item_key == key
    assert "holly" not in warnings[0].message.lower()
    bad.warnings = warnings
    plan = plan_fixes(conv, bad, secret=secret)
    assert key in plan.surrogates and "[" not in plan.surrogates[key]["surrogate"]


def test_digits_said_as_words_are_a_form_change(make_conv, secret):
    conv = make_conv([("c", "my account is 4 4 7 1 9 2 thanks")], [(0, "4 4 7 1 9 2", "GENERIC_ID")])
    res = substitute_conversation(conv, secret=secret)
    assert not res.warnings
    broken = copy.deepcopy(res)
    broken.items[0].occurrences[0].said_surrogate = "four four seven one nine two"
    assert _kinds(revision_checks(conv, broken)) == ["form_changed"]
    broken.items[0].occurrences[0].said_surrogate = "4 4 7 1 9"  # a digit lost
    assert _kinds(revision_checks(conv, broken)) == ["form_changed"]


def test_spanish_title_agreement_with_the_new_name(make_conv, secret):
    conv = make_conv([("c", "buenos días la señora Lucía Gómez llama")], [(0, "Lucía Gómez", "PERSON")],
                     language="es")
    res = substitute_conversation(conv, secret=secret)
    assert "agreement" not in _kinds(res.warnings)
    rows = PseudonymMap(res.map_rows)
    rows.set("person:given:lucia", "PERSON", "Lucía", "Pedro")
    bad = substitute_conversation(conv, secret=secret, existing_map=rows.rows())
    assert _kinds(bad.warnings) == ["agreement"] and bad.warnings[0].span_ids == (1,)
    _, fixed, plan = auto_fix(conv, secret=secret, existing_map=rows.rows())
    assert "person:given:lucia" in plan.surrogates and not fixed.warnings
    rows.set("person:given:lucia", "PERSON", "Lucía", "Pedro", locked=True)  # a locked entry is left alone
    _, still, plan = auto_fix(conv, secret=secret, existing_map=rows.rows())
    assert not plan.surrogates and _kinds(still.warnings) == ["agreement"]


def test_spanish_article_before_a_given_name_agrees_too(make_conv, secret):
    conv = make_conv([("c", "ha llamado la Lucía Gómez hoy")], [(0, "Lucía Gómez", "PERSON")], language="es")
    rows = PseudonymMap(substitute_conversation(conv, secret=secret).map_rows)
    rows.set("person:given:lucia", "PERSON", "Lucía", "Pedro")
    assert _kinds(substitute_conversation(conv, secret=secret, existing_map=rows.rows()).warnings) == ["agreement"]


def test_a_person_called_like_a_city_reads_as_another_category(make_conv, secret):
    conv = make_conv([("c", "this is Emma speaking")], [(0, "Emma", "PERSON")])
    res = substitute_conversation(conv, secret=secret)
    rows = PseudonymMap(res.map_rows)
    rows.set("person:given:emma", "PERSON", "Emma", "Boston")
    assert _kinds(substitute_conversation(conv, secret=secret, existing_map=rows.rows()).warnings) == ["category"]


def test_spelled_letters_that_still_spell_the_original_are_flagged(make_conv, secret):
    conv = make_conv([("c", "It's John Medina."), ("c", "M -E -D -I -N -A.")],
                     [(0, "John Medina.", "PERSON"), (1, "M -E -D -I -N -A.", "PERSON")])
    res = substitute_conversation(conv, secret=secret)
    assert not res.warnings
    broken = copy.deepcopy(res)
    item = next(it for it in broken.items if any(o.form == "spelled" for o in it.occurrences))
    next(o for o in item.occurrences if o.form == "spelled").said_surrogate = "M -E -D -I -N -A."
    warnings = [w for w in revision_checks(conv, broken) if w.kind == "spelling"]
    assert warnings and all("still spell the original" in w.message or "do not spell" in w.message
                            for w in warnings)


def test_digit_cut_off_by_the_span_boundary_is_flagged_and_taken_in(make_conv, secret):
    conv = make_conv([("c", "I was born 0 8 1 5 6 0. Where was it shipped")], [(0, "0 8 1 5 6", "DATE_OF_BIRTH")])
    res = substitute_conversation(conv, secret=secret)
    assert _kinds(res.warnings) == ["original_nearby"]
    fixed_conv, fixed, plan = auto_fix(conv, secret=secret)
    assert plan.span_bounds == {1: (3, 9)} and not fixed.warnings
    assert fixed_conv.spans[0].end_word == 9 and conv.spans[0].end_word == 8  # the caller's copy is unchanged


def test_a_date_that_goes_on_past_its_span_is_taken_in_whole(make_conv, secret):
    conv = make_conv([("c", "su fecha de nacimiento. Nació el 11 de 11 de 81. Es el")], [(0, "11", "DATE_OF_BIRTH")],
                     language="es")
    res = substitute_conversation(conv, secret=secret)
    assert "original_nearby" in _kinds(res.warnings)
    fixed_conv, fixed, plan = auto_fix(conv, secret=secret)
    assert plan.span_bounds == {1: (6, 11)} and not fixed.warnings
    said = next(r.surrogate for r in fixed.replacements)
    assert said.split()[1::2] == ["de", "de"] and said.endswith(".") and "81" not in said
