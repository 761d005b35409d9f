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
    ("Previous work (Nguyen, 2018; García-López et al., 2020) has shown it.", "García-López"),  # the tagger's firm
])
def test_a_citations_et_al_is_no_part_of_the_authors_name(text, person):
    people = [t for t, c in found(text) if c == "PERSON"]
    assert people[-1:] == [person] and not any("et al" in t for t, _ in found(text))


@pytest.mark.parametrize(("text", "person"), [
    ("my landlord a guy named rick delgado won't return my deposit", "rick delgado"),
    ("my boss mike doesn't care", "mike"),
    ("a guy named rick won't call", "rick"),
])
def test_a_verbs_short_form_is_no_part_of_a_name(text, person):
    """Spoken, the name list read "won't" and "doesn't" as the name's last word (a word of no list after
    a name cue), and a tagger's organisation "rick won't" took the person that three sources agreed on."""
    assert [(t, c) for t, c in found(text) if c in ("PERSON", "ORGANIZATION")] == [(person, "PERSON")]


def test_a_verbs_short_form_left_over_names_nothing():
    """A tagger's organisation "can't come": without the verb's short form, an everyday word is no name."""
    assert found("my friend sarah can't come") == [("sarah", "PERSON")]


@pytest.mark.parametrize("name", ["Sean O'Neil", "D'Angelo Russell", "Mr. Sa'd"])
def test_names_with_an_apostrophe_stay_whole(name):
    assert any(t == name and c == "PERSON" for t, c in found(f"I spoke to {name} yesterday"))


def test_a_written_name_ends_at_a_comma_before_a_lower_case_word():
    """A tagger's person "Thomas, postmarked" ran over the comma into the clause after it."""
    assert ("Thomas", "PERSON") in found("Eleanor read the letter from her brother Thomas, postmarked Edinburgh.")
    assert not any("postmarked" in t for t, _ in found("Eleanor read the letter from her brother Thomas, "
                                                       "postmarked Edinburgh."))


def test_a_particle_after_a_comma_stays_in_the_name():
    assert any(t == "García, de la Torre y Asociados" for t, _ in found("García, de la Torre y Asociados"))


@pytest.mark.parametrize("text", ["The Museo del Prado is closed on Mondays; buy tickets online.",
                                  "We are open on Saturdays."])
def test_a_weekday_alone_is_no_name(text):
    """A tagger read "Mondays" as an organisation."""
    assert not any(t in ("Mondays", "Saturdays") for t, _ in found(text))


def test_a_title_before_a_bracket_is_no_part_of_the_name_in_it():
    """"my professor (dr. huang)": the title list joined "professor" over the bracket into the name."""
    assert found("My professor (Dr. Huang) said the midterm moved.")[:2] == [("professor", "OCCUPATION"),
                                                                             ("Dr. Huang", "PERSON")]


@pytest.mark.parametrize(("text", "person"), [
    ("my husband gary handles the bills usually", "gary"),
    ("rocky killed the second verse", "rocky"),
])
def test_an_everyday_verb_before_its_object_is_no_part_of_a_spoken_name(text, person):
    """Spoken, "gary handles" was one person: "handles" is a word of no name list after a kin cue."""
    assert [t for t, c in found(text) if c == "PERSON"] == [person]


@pytest.mark.parametrize(("text", "person"), [
    ("notable alumni include rebecca wisocky and sam freed", "sam freed"),
    ("i met john woods in the park", "john woods"),
])
def test_a_surname_in_s_or_ed_stays_in_the_name(text, person):
    assert person in [t for t, c in found(text) if c == "PERSON"]


@pytest.mark.parametrize("text", ["Take I-95 north to exit 12.",
                                  "It is connected to Salisbury Dock to the north and Trafalgar Dock to the south."])
def test_a_direction_written_in_lower_case_alone_is_no_place(text):
    assert not any(t.lower() in ("north", "south") for t, _ in found(text))


def test_a_capitalised_region_stays_a_place():
    assert ("North", "LOCATION") in found("They live in the North.")


@pytest.mark.parametrize("text", ["His name—John Carter—was on the list.", "Meet John Carter – he is new."])
def test_a_name_glued_to_the_words_around_it_by_dashes_is_found_without_them(text):
    """"name—John Carter—was": one word to the tokenizer on each side, and no source found the name."""
    assert ("John Carter", "PERSON") in found(text)


@pytest.mark.parametrize(("text", "item"), [
    ("Saludos, Carlos", ("Carlos", "PERSON")), ("Atentamente, Luis Pérez", ("Luis Pérez", "PERSON")),
    ("Gracias, Ana", ("Ana", "PERSON")), ("Best, Anna", ("Anna", "PERSON")),
])
def test_a_letters_closing_is_no_part_of_the_name_after_it_nor_a_place(text, item):
    """An English document signed "Saludos, Carlos" gave the person "Saludos, Carlos"; "Best," was a town."""
    assert found(text) == [item]


def test_a_closing_alone_on_its_line_is_no_place():
    assert found("Thanks for the update.\nSaludos\nCarlos") == [("Carlos", "PERSON")]


@pytest.mark.parametrize("text,name", [
    ("account holder siobhan mac aodha iban ie two nine a i b k nine three one one", "siobhan mac aodha"),
    ("my name is priya raman email priya at gmail dot com", "priya raman"),
])
def test_an_identifiers_label_after_a_name_is_no_part_of_it(text, name):
    """Speech writes no colon: "siobhan mac aodha iban" was one person, whose surrogate then swallowed the
    label."""
    got = [text[s["start"]:s["end"]] for s in detect_texts([text], "en")[0] if s["category"] == "PERSON"]
    assert name in got and not any(g.endswith(("iban", "email")) for g in got), got


@pytest.mark.parametrize(("text", "person"), [
    ("(Okafor et al., 2020)", "Okafor"),  # the tagger's place ran over "et al., 2020"
    ("Previous work (e.g., Lee & Park, 2018; Okafor et al., 2020) found similar effects.", "Lee & Park"),
    ("(Lee and Park, 2018)", "Lee and Park"),  # authors cited with their year: no firm
])
def test_cited_authors_are_people(text, person):
    assert (person, "PERSON") in found(text)


@pytest.mark.parametrize("text", ["Use a solvent, e.g. ethanol.", "That is, i.e., the same.",
                                  "Previous work (e.g., Lee and Park) found effects."])
def test_e_g_and_i_e_spell_nothing(text):
    assert not [t for t, c in found(text) if c == "SPELLED_LETTERS"]
