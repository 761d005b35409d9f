"""Vote rules: majority, trusted sources, strong hits, families, overlaps, the source registry hook."""

from dataclasses import dataclass

import pytest

from redactdesk.detect.errors import SourceParamsError, UnknownSourceError
from redactdesk.detect.registry import get_source, register_source, unregister_source
from redactdesk.detect.sources import Hit, check_params
from redactdesk.detect.vote import VotePolicy, combine


@dataclass
class Src:
    name: str
    categories: frozenset
    trusted: frozenset = frozenset()

    def validate(self, params):
        return check_params(self.name, params, {})

    def apply(self, docs, params):
        return [[] for _ in docs]


A = Src("a", frozenset({"PERSON", "CITY", "DATE"}), frozenset({"DATE"}))
B = Src("b", frozenset({"PERSON", "CITY"}))
C = Src("c", frozenset({"PERSON", "DATE_OF_BIRTH"}))
SOURCES = [A, B, C]


def h(s, e, cat, src, score=0.6, strong=False):
    return Hit(s, e, cat, score, src, f"{src} says {cat}", strong)


def test_majority_stands_and_keeps_every_source():
    spans = combine([h(0, 2, "PERSON", "a"), h(1, 2, "PERSON", "b")], SOURCES)
    assert len(spans) == 1
    s = spans[0]
    assert (s.start_word, s.end_word, s.category) == (0, 2, "PERSON")
    assert s.sources == ("a", "b")
    assert 0.6 < s.score <= 0.99
    assert s.reason.startswith("a says PERSON") and "also b" in s.reason


def test_lone_untrusted_source_is_dropped_unless_minority_kept():
    assert combine([h(0, 1, "PERSON", "b")], SOURCES) == []
    kept = combine([h(0, 1, "PERSON", "b")], SOURCES, VotePolicy(keep_minority=True))
    assert len(kept) == 1 and kept[0].score == pytest.approx(0.3)


def test_trusted_source_and_strong_hit_stand_alone():
    assert [s.category for s in combine([h(0, 3, "DATE", "a")], SOURCES)] == ["DATE"]
    assert [s.category for s in combine([h(0, 1, "PERSON", "b", strong=True)], SOURCES)] == ["PERSON"]
    # the policy can trust a source for a category
    pol = VotePolicy(trusted={"b": frozenset({"PERSON"})})
    assert len(combine([h(0, 1, "PERSON", "b")], SOURCES, pol)) == 1


def test_single_eligible_source_is_a_majority():
    # only "a" and "b" can say CITY: one of two is not a majority, two of two is
    assert combine([h(0, 1, "CITY", "a")], SOURCES) == []
    assert len(combine([h(0, 1, "CITY", "a"), h(0, 1, "CITY", "b")], SOURCES)) == 1
    solo = Src("solo", frozenset({"IBAN"}))
    assert len(combine([h(0, 5, "IBAN", "solo")], [solo])) == 1


def test_family_members_agree_and_extent_comes_from_the_trusted_hit():
    spans = combine([h(0, 4, "DATE", "a", 0.7), h(0, 2, "DATE_OF_BIRTH", "c", 0.9)], SOURCES)
    assert len(spans) == 1
    assert spans[0].category == "DATE"  # the trusted hit decides
    assert (spans[0].start_word, spans[0].end_word) == (0, 4)


def test_overlaps_resolved_by_priority_and_spans_ordered():
    solo = Src("p", frozenset({"EMAIL", "PERSON"}), frozenset({"EMAIL", "PERSON"}))
    spans = combine([h(5, 6, "PERSON", "p"), h(0, 7, "EMAIL", "p"), h(8, 9, "PERSON", "p")], [solo])
    assert [(s.start_word, s.category) for s in spans] == [(0, "EMAIL"), (8, "PERSON")]
    # a loser keeps the stretch it proposed on its own
    spans = combine([h(0, 2, "ORGANIZATION", "p2", strong=True), h(2, 3, "PERSON", "p2")],
                    [Src("p2", frozenset({"ORGANIZATION", "PERSON"}), frozenset({"PERSON"}))])
    assert [(s.start_word, s.end_word) for s in spans] == [(0, 2), (2, 3)]


def test_forced_hits_win():
    spans = combine([h(0, 3, "DATE", "a")], SOURCES, forced=[Hit(1, 2, "GENERIC_ID", 1.0, "deny_list", "deny")])
    cats = {s.category for s in spans}
    assert "GENERIC_ID" in cats


def test_registry_hook_for_new_sources():
    class Model:
        name = "al_model_test"
        categories = frozenset({"PERSON"})
        trusted = frozenset()

        def validate(self, params):
            return check_params(self.name, params, {"threshold": 0.5})

        def apply(self, docs, params):
            return [[Hit(0, 1, "PERSON", 0.8, self.name, "model")] for _ in docs]

    register_source(Model())
    try:
        assert get_source("al_model_test").validate({"threshold": 0.7}) == {"threshold": 0.7}
        with pytest.raises(SourceParamsError, match="no parameter 'x'"):
            get_source("al_model_test").validate({"x": 1})
        with pytest.raises(SourceParamsError, match="already registered"):
            register_source(Model())
        from redactdesk.detect.pipeline import detect_texts

        out = detect_texts(["mark it please"], "en", sources=["al_model_test", "gazetteer"])
        assert out == [[]]  # one vote of two eligible: not a majority
        out = detect_texts(["jennifer said hi"], "en", sources=["al_model_test", "gazetteer"])
        assert out[0][0]["category"] == "PERSON" and out[0][0]["source"] == "al_model_test+gazetteer"
    finally:
        unregister_source("al_model_test")
    with pytest.raises(UnknownSourceError, match="no detection source named"):
        get_source("al_model_test")


def test_a_city_and_its_region_said_together_are_one_place():
    from redactdesk.detect.pipeline import detect_texts

    text = "she was born in philadelphia pennsylvania in the spring"
    spans = detect_texts([text], "en")[0]
    assert "philadelphia pennsylvania" in [text[s["start"]:s["end"]] for s in spans]


def test_a_strong_name_strictly_inside_a_strong_item_of_another_kind_gives_way():
    """"RY" of the postcode "6846 RY": a tagger's person inside it took the letters and the postcode lost."""
    src = [A, B, Src("ids", frozenset({"POSTCODE"}))]
    spans = combine([h(0, 2, "POSTCODE", "ids", 0.75, strong=True), h(1, 2, "PERSON", "b", 0.8, strong=True)], src)
    assert [(s.start_word, s.end_word, s.category) for s in spans] == [(0, 2, "POSTCODE")]
    # the same name beside the item, or a name holding the item, keeps its priority
    spans = combine([h(0, 2, "POSTCODE", "ids", 0.75, strong=True), h(1, 3, "PERSON", "b", 0.8, strong=True)], src)
    assert ("PERSON", 1, 3) in {(s.category, s.start_word, s.end_word) for s in spans}


def test_words_that_better_supported_names_of_other_kinds_tile_are_those_names():
    """"Cardiff, Wales": a city and a region to two sources each, an organisation to one."""
    src = [A, B, Src("org", frozenset({"ORGANIZATION", "LOCATION"}))]
    hits = [h(0, 1, "CITY", "a", 0.8, strong=True), h(0, 1, "CITY", "b", 0.5),
            h(1, 2, "LOCATION", "org", 0.8, strong=True), h(1, 2, "LOCATION", "a", 0.5),
            h(0, 2, "ORGANIZATION", "b", 0.6, strong=True)]
    src[0] = Src("a", frozenset({"PERSON", "CITY", "LOCATION"}))
    spans = combine(hits, src)
    assert {s.category for s in spans} == {"CITY", "LOCATION"}
    # a place that covers only part of the organisation ("Bank of America") leaves it the organisation
    hits = [h(2, 3, "CITY", "a", 0.8, strong=True), h(2, 3, "CITY", "b", 0.5),
            h(0, 3, "ORGANIZATION", "b", 0.6, strong=True)]
    assert [(s.start_word, s.end_word, s.category) for s in combine(hits, src)] == [(0, 3, "ORGANIZATION")]


def test_a_person_or_place_strictly_inside_a_strong_organisation_is_part_of_it():
    """"Nicholson's Limited": the tagger's person "Nicholson's" won the overlap and the firm was lost."""
    src = [A, B, Src("org", frozenset({"ORGANIZATION"}))]
    hits = [h(0, 2, "ORGANIZATION", "org", 0.85, strong=True), h(0, 1, "PERSON", "b", 0.8, strong=True)]
    assert [(s.start_word, s.end_word, s.category) for s in combine(hits, src)] == [(0, 2, "ORGANIZATION")]
    # side by side, or the person wider, the person stands (and holds the firm's word beyond it:
    # test_a_strong_name_that_loses_words_to_an_overlapping_name_leaves_the_rest_to_it)
    hits = [h(1, 3, "ORGANIZATION", "org", 0.85, strong=True), h(0, 2, "PERSON", "b", 0.8, strong=True)]
    assert [(s.category, s.start_word, s.end_word) for s in combine(hits, src)] == [("PERSON", 0, 3)]
    hits = [h(2, 4, "ORGANIZATION", "org", 0.85, strong=True), h(0, 2, "PERSON", "b", 0.8, strong=True)]
    assert [(s.category, s.start_word, s.end_word) for s in combine(hits, src)] == [
        ("PERSON", 0, 2), ("ORGANIZATION", 2, 4)]


def test_a_strong_name_that_loses_words_to_an_overlapping_name_leaves_the_rest_to_it():
    """"my doctor at kaiser permanente": the contextual tagger's organisation "kaiser permanente" lost
    "kaiser" to a person two sources agreed on, and "permanente" was left unflagged beside it."""
    from redactdesk.detect.pipeline import detect_texts

    src = [A, B, Src("org", frozenset({"ORGANIZATION"}))]
    hits = [h(3, 5, "ORGANIZATION", "org", 0.8, strong=True), h(2, 4, "PERSON", "a", 0.8, strong=True),
            h(3, 4, "PERSON", "b", 0.6)]
    assert [(s.category, s.start_word, s.end_word) for s in combine(hits, src)] == [("PERSON", 2, 5)]
    # the loser's words before the winner, too; a loser that is no strong hit leaves nothing
    hits = [h(0, 3, "ORGANIZATION", "org", 0.8, strong=True), h(2, 4, "PERSON", "a", 0.8, strong=True),
            h(2, 4, "PERSON", "b", 0.6)]
    assert [(s.category, s.start_word, s.end_word) for s in combine(hits, src)] == [("PERSON", 0, 4)]
    hits = [h(3, 5, "ORGANIZATION", "org", 0.5), h(3, 5, "ORGANIZATION", "a", 0.5),
            h(2, 4, "PERSON", "a", 0.8, strong=True)]
    assert [(s.category, s.start_word, s.end_word) for s in combine(hits, src)] == [("PERSON", 2, 4)]
    text = "my doctor at kaiser permanente said it's fine"
    (spans,) = detect_texts([text], "en")
    assert any(text[s["start"]:s["end"]].endswith("kaiser permanente") for s in spans), spans


def test_a_name_strictly_inside_a_strong_name_of_another_kind_is_part_of_it():
    from redactdesk.detect.pipeline import detect_texts

    for text, item, cat in (("Ship it to Saint Kitts and Nevis, please.", "Saint Kitts and Nevis", "COUNTRY"),
                            ("The office in Libyan Arab Jamahiriya is closed.", "Libyan Arab Jamahiriya", "LOCATION")):
        (spans,) = detect_texts([text], "en")
        assert (item, cat) in [(text[s["start"]:s["end"]], s["category"]) for s in spans], spans


class _ListSource:
    """A source of ``cats`` that no category trusts."""

    def __init__(self, name, cats):
        self.name, self.categories, self.trusted = name, frozenset(cats), frozenset()


def _address_and_phone(phone_start, phone_end):
    hits = [Hit(0, 9, "ADDRESS", 0.9, "gazetteer", "street address", True),
            Hit(phone_start, phone_end, "PHONE", 0.9, "identifiers", "valid phone", True)]
    spans = combine(hits, [_ListSource("gazetteer", {"ADDRESS"}), _ListSource("identifiers", {"PHONE"})])
    return [(s.start_word, s.end_word, s.category) for s in spans]


def test_an_address_cut_by_a_validated_number_keeps_the_rest_of_itself():
    """A whole address whose postcode some validator reads as a phone keeps its street and town."""
    assert _address_and_phone(8, 9) == [(0, 8, "ADDRESS"), (8, 9, "PHONE")]


def test_a_value_after_the_password_word_is_a_password_not_the_username_its_shape_suggests():
    from redactdesk.detect.pipeline import detect_texts

    text = "the wifi password is sunshine2024 and my login is jdoe_admin"
    items = [(text[s["start"]:s["end"]], s["category"]) for s in detect_texts([text], "en")[0]]
    assert ("sunshine2024", "PASSWORD") in items
    assert ("jdoe_admin", "USERNAME") in items


def test_an_address_cut_in_the_middle_keeps_both_sides():
    """A number read inside an address (a house number some format validates) leaves the street
    before it and the town after it: both stay suggested, not only the longer one."""
    assert _address_and_phone(3, 4) == [(0, 3, "ADDRESS"), (3, 4, "PHONE"), (4, 9, "ADDRESS")]


@pytest.mark.parametrize("category", ["GENERIC_ID", "USERNAME", "DATE"])
def test_an_identifier_cut_by_a_stronger_name_keeps_every_piece_left_of_it(category):
    """A reference, a user name or a date that a tagger's strong name cuts keeps its words on both
    sides of the name (it kept only the longest piece a source had proposed on its own: none, so the
    digits of "skywalker ninety nine" after the person "skywalker" went unflagged)."""
    hits = [Hit(0, 6, category, 0.6, "patterns", "value after its name", False),
            Hit(2, 3, "PERSON", 0.9, "tagger", "person", True)]
    spans = combine(hits, [_ListSource("patterns", {category}), _ListSource("tagger", {"PERSON"})])
    assert [(s.start_word, s.end_word, s.category) for s in spans] == [
        (0, 2, category), (2, 3, "PERSON"), (3, 6, category)]


def test_a_name_cut_by_a_stronger_item_keeps_only_its_longest_proposed_piece():
    hits = [Hit(0, 6, "ORGANIZATION", 0.6, "tagger", "organisation", False),
            Hit(2, 3, "PHONE", 0.9, "identifiers", "valid phone", True)]
    spans = combine(hits, [_ListSource("tagger", {"ORGANIZATION"}), _ListSource("identifiers", {"PHONE"})])
    assert [(s.start_word, s.end_word, s.category) for s in spans] == [(2, 3, "PHONE")]


def test_a_reference_read_around_a_validated_number_becomes_that_numbers_whole_item():
    """"e x 63 49 1 95 e": the NIE's validator read the digits, the reference reader the whole; the
    letters were left out, then (every piece kept) three suggestions for one item."""
    hits = [Hit(0, 7, "GENERIC_ID", 0.6, "patterns", "letters and digits", False),
            Hit(2, 6, "NATIONAL_ID", 0.9, "identifiers", "valid NIE", True)]
    spans = combine(hits, [_ListSource("patterns", {"GENERIC_ID"}), _ListSource("identifiers", {"NATIONAL_ID"})])
    assert [(s.start_word, s.end_word, s.category) for s in spans] == [(0, 7, "NATIONAL_ID")]


def test_a_place_a_tagger_calls_a_location_is_the_country_another_source_read_over_the_same_words():
    places = [Src("tagger", frozenset({"LOCATION"})), Src("lists", frozenset({"COUNTRY", "CITY"}))]
    spans = combine([h(4, 5, "LOCATION", "tagger", 0.6, strong=True), h(4, 5, "COUNTRY", "lists", 0.5)], places)
    assert [(s.start_word, s.end_word, s.category) for s in spans] == [(4, 5, "COUNTRY")]
    # a country inside a longer place the tagger read stays that place ("new mexico" is no country)
    spans = combine([h(3, 5, "LOCATION", "tagger", 0.6, strong=True), h(4, 5, "COUNTRY", "lists", 0.5)], places)
    assert [(s.start_word, s.end_word, s.category) for s in spans] == [(3, 5, "LOCATION")]


def test_a_country_after_a_rulers_office_is_said_as_another_country():
    from redactdesk.detect.pipeline import detect_texts

    text = "the prime minister of cuba arrived"
    assert [(text[s["start"]:s["end"]], s["category"]) for s in detect_texts([text], "en")[0]] == [("cuba", "COUNTRY")]


def test_a_country_inside_a_longer_place_is_no_country():
    """"We camped by the Jordan River" was a COUNTRY, and the revised text said "by the Chile"."""
    places = [Src("tagger", frozenset({"LOCATION"})), Src("lists", frozenset({"COUNTRY", "CITY"}))]
    spans = combine([h(4, 6, "LOCATION", "tagger", 0.6, strong=True), h(4, 5, "COUNTRY", "lists", 0.8, strong=True)],
                    places)
    assert [(s.start_word, s.end_word, s.category) for s in spans] == [(4, 6, "LOCATION")]


def test_two_sources_that_read_one_name_as_different_kinds_keep_it():
    """"for her job at rio tinto": a firm to the employer pattern, a place to the tagger; neither
    family had a majority and the employer was lost."""
    srcs = [Src("patterns", frozenset({"ORGANIZATION", "PERSON"})),
            Src("tagger", frozenset({"ORGANIZATION", "LOCATION", "PERSON"})),
            Src("lists", frozenset({"ORGANIZATION", "LOCATION", "CITY", "PERSON"})),
            Src("spacy", frozenset({"ORGANIZATION", "PERSON"}))]
    spans = combine([h(5, 7, "ORGANIZATION", "patterns", 0.7), h(5, 7, "LOCATION", "tagger", 0.6)], srcs)
    assert [(s.start_word, s.end_word, s.category) for s in spans] == [(5, 7, "ORGANIZATION")]
    # a group (NRP) and a name over one word are no such agreement
    srcs += [Src("groups", frozenset({"NRP"})), Src("nrp_tagger", frozenset({"NRP"}))]
    assert combine([h(3, 4, "NRP", "groups", 0.5), h(3, 4, "PERSON", "tagger", 0.5)], srcs) == []


def test_an_employer_a_tagger_read_as_a_place_is_kept():
    from redactdesk.detect.pipeline import detect_texts

    text = "my wife siobhan and i are moving to perth next month for her job at rio tinto"
    assert ("rio tinto", "ORGANIZATION") in [(text[s["start"]:s["end"]], s["category"])
                                             for s in detect_texts([text], "en")[0]]
