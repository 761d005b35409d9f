"""Nationalities, religions and political groups (NRP): another of the same kind in its place,
the same one for every mention in a call."""

from __future__ import annotations

from redactdesk.lang.groups import load_groups
from redactdesk.substitute import substitute_conversation


def test_a_group_is_replaced_by_another_of_its_kind_consistently(make_conv, secret):
    groups = load_groups("en")
    for i in range(10):
        conv = make_conv([("customer", "well i'm Nigerian and my wife is Catholic"),
                          ("agent", "thanks so you are Nigerian okay")],
                         [(0, "Nigerian", "NRP"), (0, "Catholic", "NRP"), (1, "Nigerian", "NRP")], cid=f"g{i}")
        res = substitute_conversation(conv, secret=secret)
        by = {}
        for r in res.replacements:
            by.setdefault(r.original, set()).add(r.surrogate)
        (nationality,), (religion,) = by["Nigerian"], by["Catholic"]
        assert groups.kind_of(nationality) == "nationality" and nationality != "Nigerian"
        assert groups.kind_of(religion) == "religion" and religion != "Catholic"
        assert nationality[0].isupper()  # the case as said


def test_a_party_is_replaced_by_another_party(make_conv, secret):
    """A party's name gives a party's name: "a member of the Labour Party" read "a member of the Lib Dem"."""
    groups = load_groups("en")
    seen = set()
    for i in range(8):
        conv = make_conv([("customer", "i am a member of the labour party")], [(0, "labour party", "NRP")], cid=f"p{i}")
        (rep,) = substitute_conversation(conv, secret=secret).replacements
        assert groups.kind_of(rep.surrogate) == "politics" and "party" in rep.surrogate.lower(), rep.surrogate
        seen.add(rep.surrogate.lower())
    assert "labour party" not in seen and len(seen) > 1


def test_the_article_before_a_group_still_fits_its_surrogate(make_conv, secret):
    """"I'm an Italian citizen" became "I'm an Vietnamese citizen": the surrogate fits the article said."""
    for i in range(10):
        conv = make_conv([("customer", "i'm an Italian citizen and my wife is a Nigerian doctor")],
                         [(0, "Italian", "NRP"), (0, "Nigerian", "NRP")], cid=f"art{i}")
        res = substitute_conversation(conv, secret=secret)
        by = {r.original: r.surrogate for r in res.replacements}
        assert by["Italian"][0] in "AEIO", by
        assert by["Nigerian"][0] not in "AEIOU", by


def test_a_spanish_group_said_of_a_woman_or_a_man_keeps_its_gender(make_conv, secret):
    """"mi madre es judía" became "mi madre es católico": the surrogate keeps the word's gender."""
    for i in range(10):
        conv = make_conv([("customer", "mi padre es musulmán y mi madre es judía")],
                         [(0, "musulmán", "NRP"), (0, "judía", "NRP")], cid=f"gen{i}", language="es")
        res = substitute_conversation(conv, secret=secret)
        by = {r.original: r.surrogate for r in res.replacements}
        assert not by["judía"].endswith("o"), by
        assert not by["musulmán"].endswith("a") or by["musulmán"].endswith(("ista", "ita")), by


def test_a_plural_group_gets_a_plural_surrogate_of_its_kind(make_conv, secret):
    """"My neighbours are Brazilians" gave a singular group in the plural's place."""
    groups = load_groups("en")
    for i in range(8):
        conv = make_conv([("customer", "my neighbours are Brazilians and they are Catholics")],
                         [(0, "Brazilians", "NRP"), (0, "Catholics", "NRP")], cid=f"pl{i}")
        by = {r.original: r.surrogate for r in substitute_conversation(conv, secret=secret).replacements}
        for said, kind in (("Brazilians", "nationality"), ("Catholics", "religion")):
            new = by[said]
            assert new != said and groups.kind_of(new) == kind, (said, new)
            assert new.endswith("s") or new.lower().endswith(("ese", "ish", "ch", "ze")), new


def test_a_groups_plural_is_said_as_english_says_it():
    from redactdesk.substitute.places import _group_form

    assert [_group_form(e, "Hindus", "en") for e in ("Peruvian", "Druze", "Japanese", "Sikh")] == [
        "Peruvians", "Druze", "Japanese", "Sikhs"]  # "Druzes" was drawn for "Hindus"
    assert _group_form("musulmán", "colombianos", "es") == "musulmanes"
    assert _group_form("andaluz", "colombianos", "es") == "andaluces"
    assert _group_form("Peruvian", "Frenchwoman", "en") == "Peruvian woman"
