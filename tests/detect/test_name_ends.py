"""Where a found name ends: never in a joining word, nor in a citation's "et al." (name_bounds)."""

import pytest

from redactdesk.detect.pipeline import detect_texts


def found(text):
    return [(text[s["start"]:s["end"]], s["category"]) for s in detect_texts([text], "en")[0]]


def test_a_name_never_ends_in_a_preposition():
    """The tagger's "olive garden on fifth street" lost the street to the address: "on" stayed the
    organisation's last word."""
    names = [t for t, _ in found("i'm a manager at the olive garden on fifth street")]
    assert "olive garden" in names and not any(t.endswith(" on") for t in names)


@pytest.mark.parametrize(("text", "person"), [
    ("According to Smith et al. (2019), the effect was not significant.", "Smith"),
    ("As shown by Garcia-Lopez et al. 2020, it holds.", "Garcia-Lopez"),
])
def test_a_citations_et_al_is_no_part_of_the_authors_name(text, person):
    people = [t for t, c in found(text) if c == "PERSON"]
    assert people == [person]
