"""Countries, cities and regions from the place list: positives and look-alike negatives."""

import pytest

from redactdesk.detect.gazetteer import match_lists
from redactdesk.detect.places import load_places
from redactdesk.detect.sources import DetectDoc


def places(text, lang="en"):
    doc = DetectDoc.from_words(text.split(), lang)
    return [(" ".join(doc.words[h.start_word:h.end_word]).strip(".,;:"), h.category)
            for h in sorted(match_lists(doc), key=lambda h: h.start_word)
            if h.category in ("CITY", "COUNTRY", "LOCATION")]


def test_place_list_has_countries_in_several_languages_and_cities():
    pl = load_places()
    for key, cat in (("germany", "COUNTRY"), ("alemania", "COUNTRY"), ("deutschland", "COUNTRY"),
                     ("espana", "COUNTRY"), ("new york", "CITY"), ("buenos aires", "CITY"), ("munich", "CITY"),
                     ("bavaria", "LOCATION"), ("europe", "LOCATION")):
        assert pl.get(key) is not None and pl.get(key).category == cat, key
    assert pl.get("reading").common and pl.get("nice").common
    assert pl.match(["new", "york", "times"], 0)[0] == 2


@pytest.mark.parametrize("text,expected", [
    ("She moved from Germany to Buenos Aires last year.", [("Germany", "COUNTRY"), ("Buenos Aires", "CITY")]),
    ("He lives in Reading now.", [("Reading", "CITY")]),
    ("We drove through Bavaria and then Lombardy.", [("Bavaria", "LOCATION"), ("Lombardy", "LOCATION")]),
    ("vivo en sevilla desde enero", [("sevilla", "CITY")]),
    ("i flew to new york and then to cairo", [("new york", "CITY"), ("cairo", "CITY")]),
    ("Shoreview, Minnesota is small.", [("Shoreview", "CITY"), ("Minnesota", "LOCATION")]),
])
def test_places_found(text, expected):
    assert places(text) == expected


@pytest.mark.parametrize("text", [
    "Reading is fun and the weather is nice.",
    "reading books on a nice day in the bath",
    "can you turn up the lights please",
    "My DNI is 20.123.456 and my ACN is 004 085 616.",
    "switch to eastern time zone",
    "la paz de la casa es importante",
])
def test_everyday_words_are_no_places(text):
    assert places(text, "es" if text.startswith("la paz") else "en") == []


@pytest.mark.parametrize("text,expected", [
    ("We moved there in March.", []),
    ("we moved there in march and left in june", []),
    ("He lives in March, Cambridgeshire.", [("March", "CITY"), ("Cambridgeshire", "LOCATION")]),
    ("he lives in march cambridgeshire", [("march", "CITY"), ("cambridgeshire", "LOCATION")]),
])
def test_a_month_is_a_place_only_before_its_region(text, expected):
    assert places(text) == expected


def test_names_that_are_places():
    assert places("Michael Jordan flew to Jordan.") == [("Jordan", "COUNTRY")]
    assert places("David Ferrier and Victoria Beckham came.") == []
    assert places("Paris Hilton stayed in Paris.") == [("Paris", "CITY")]


@pytest.mark.parametrize("text,country", [
    ("He lives in the USA now.", "USA"),  # a country after "in the"
    ("Stoloff was born in Philadelphia, Pennsylvania, USA.", "USA"),  # after a place and a comma
    ("The US record label signed them.", "US"),  # a country in capitals in cased writing
])
def test_a_country_that_is_also_a_word_counts_where_it_reads_as_the_country(text, country):
    assert any(w.rstrip(".,") == country for w, _ in places(text)), places(text)


@pytest.mark.parametrize("text", ["Tell us more about it.", "We met in the Reading room.", "TELL US MORE"])
def test_the_same_words_elsewhere_stay_words(text):
    assert places(text) == []


@pytest.mark.parametrize("text", ["for the rest of the year they toured", "good luck to the team",
                                  "we watched the rugby match", "my reading list"])
def test_a_town_named_like_a_noun_after_the_or_good_is_that_noun_in_speech(text):
    """Said in lower case, "rest", "luck", "rugby", "independence" are towns of the list and everyday
    nouns; after "the", "my", "good" they are the noun (no town's name follows "the")."""
    assert [c for _, c in places(text) if c == "CITY"] == []


@pytest.mark.parametrize("text,expected", [
    ("we moved to rugby last year", [("rugby", "CITY")]),
    ("she was born in independence missouri", [("independence", "CITY")]),
    ("we drove through the landes", [("landes", "LOCATION")]),
    ("they flew to the philippines", [("philippines", "COUNTRY")]),
    ("we live in the hague", [("the hague", "CITY")]),
])
def test_a_town_after_a_place_cue_or_a_region_after_the_stays_a_place(text, expected):
    assert [p for p in places(text) if p in expected] == expected


@pytest.mark.parametrize("text,country", [("he was born in philadelphia pennsylvania usa", "usa"),
                                          ("we flew from london uk yesterday", "uk")])
def test_a_country_said_right_after_a_place_is_the_country(text, country):
    """Written, "Philadelphia, Pennsylvania, USA" has its commas; said, "usa" and "uk" (everyday or
    two-letter words of the lists) follow the place directly."""
    assert (country, "COUNTRY") in places(text)


@pytest.mark.parametrize("text,lang", [("send it to london us please", "en"),
                                       ("vivo en madrid usa el metro cada día", "es")])
def test_a_pronoun_or_a_spanish_verb_after_a_place_is_no_country(text, lang):
    assert not any(c == "COUNTRY" for _, c in places(text, lang))


@pytest.mark.parametrize("text,country", [("what 's the exchange rates between usa and china", "usa"),
                                          ("exchange rate between uk and usa", "uk"), ("what about the uae", "uae")])
def test_a_countrys_short_form_said_alone_is_the_country(text, country):
    """"usa" is an everyday word of the lists (Spanish "uses"), so said alone it was no place."""
    from redactdesk.detect.pipeline import detect_texts

    found = [(text[s["start"]:s["end"]], s["category"]) for s in detect_texts([text], "en")[0]]
    assert (country, "COUNTRY") in found, found


def test_let_us_stays_a_pronoun():
    from redactdesk.detect.pipeline import detect_texts

    assert detect_texts(["let us go to the shop"], "en")[0] == []


@pytest.mark.parametrize(("text", "town"), [("how far is it from manchester to liverpool", "liverpool"),
                                            ("the train to liverpool leaves at six", "liverpool"),
                                            ("we flew from barcelona last night", "barcelona")])
def test_a_listed_town_after_a_place_cue_is_the_town_not_its_club(text, town):
    """The taggers learned sports clubs named after their towns and read the town as a firm: the
    surrogate was a firm's name where a town was said."""
    from redactdesk.detect.pipeline import detect_texts

    spans = {text[s["start"]:s["end"]]: s["category"] for s in detect_texts([text], "en")[0]}
    assert spans.get(town) == "CITY", spans


@pytest.mark.parametrize(("text", "club"), [("liverpool beat chelsea two nil", "liverpool"),
                                            ("he signed for liverpool in may", "liverpool")])
def test_a_club_said_as_one_stays_an_organisation(text, club):
    """(Nor is a place that is also a first name made a town: "an email to chelsea" is a person.)"""
    from redactdesk.detect.pipeline import detect_texts

    spans = {text[s["start"]:s["end"]]: s["category"] for s in detect_texts([text], "en")[0]}
    assert spans.get(club) == "ORGANIZATION", spans


@pytest.mark.parametrize(("text", "name"), [("i will send a message to chelsea after lunch", "chelsea"),
                                            ("i need to talk to jordan about the bill", "jordan")])
def test_a_place_that_is_a_first_name_after_email_to_is_the_person(text, name):
    """"to" is a place cue, but after "email to", "talk to" it names whom the message goes to (before:
    "chelsea" a town to the list, a firm to the taggers, and a firm's name replaced the person's)."""
    from redactdesk.detect.pipeline import detect_texts

    spans = {text[s["start"]:s["end"]]: s["category"] for s in detect_texts([text], "en")[0]}
    assert spans.get(name) == "PERSON", spans


def test_a_person_after_moving_or_living_somewhere_is_the_place_unless_the_lists_name_it(spans_of):
    """"They moved to Wagga Wagga", "we drove through Llanfairpwll": the taggers read persons, and
    the surrogate was someone's name where a town was said. After a phrase of moving or living
    somewhere (lexicon residence_cues) words no name list knows are the place; a listed name stays
    a person."""
    assert ("Wagga Wagga", "LOCATION") in spans_of("They moved to Wagga Wagga in 1998.")
    assert ("Llanfairpwll", "LOCATION") in spans_of("We drove through Llanfairpwll on the way home.")
    assert ("Sarah Jenkins", "PERSON") in spans_of("The case moved to Sarah Jenkins last week.")


@pytest.mark.parametrize("text, place", [
    ("When we visited Kyoto, our guide took us to Fushimi Inari.", "Fushimi Inari"),
    ("Then we hiked up to Ait Benhaddou.", "Ait Benhaddou"),
    ("We were on the way to Bhaktapur when it rained.", "Bhaktapur"),
    ("He died in Waikabubak in 1963.", "Waikabubak"),
])
def test_a_place_travelled_to_is_no_person(spans_of, place, text):
    """A travel story's destinations ("took us to Fushimi Inari") were persons to the taggers, and the
    revised text took the reader to someone's name."""
    assert (place, "LOCATION") in spans_of(text)


def test_a_listed_name_after_a_travel_phrase_stays_a_person(spans_of):
    assert ("Sarah Jenkins", "PERSON") in spans_of("She returned to Sarah Jenkins with the file.")


@pytest.mark.parametrize("text, place", [
    ("my flight to new delhi", "new delhi"),  # "delhi" is in the word-frequency lists, "new" an everyday word
    ("find me a flight to new delhi next tuesday", "new delhi"),
])
def test_a_big_places_name_said_in_lower_case_is_no_everyday_word(text, place):
    assert place in [t for t, _ in places(text)]


@pytest.mark.parametrize("text, place, lang", [
    ("vivo en suiza", "suiza", "es"),  # also "Swiss" (fem.): the list calls it an everyday word
    ("se mudó a noruega", "noruega", "es"),
    ("vivo en siria", "siria", "es"),
    ("we flew to guinea", "guinea", "en"),
])
def test_a_country_that_is_a_word_too_is_the_country_after_a_place_cue(text, place, lang):
    assert (place, "COUNTRY") in places(text, lang)


def test_an_english_article_is_no_place_cue():
    assert places("he bought a guinea pig") == []


@pytest.mark.parametrize("text,country", [
    ("manuel antonio de varona prime minister of cuba nineteen forty eight nineteen fifty", "cuba"),
    ("** Manuel Antonio de Varona, Prime Minister of Cuba (1948–1950)", "Cuba"),
])
def test_a_country_after_of_is_no_person_though_a_name_too(spans_of, text, country):
    """The tagger read "cuba" of "prime minister of cuba" as a person (Cuba is a surname too)."""
    got = spans_of(text)
    assert (country, "PERSON") not in got and any(t == country for t, _ in got), got


def test_a_name_that_is_a_country_said_of_someone_stays_a_person(spans_of):
    assert ("Jordan", "PERSON") in spans_of("I met Jordan at the party")


@pytest.mark.parametrize("text,lang,expected", [
    ("he met the president of chad yesterday", "en", [("chad", "COUNTRY")]),
    ("He met the President of Chad yesterday.", "en", [("Chad", "COUNTRY")]),
    ("the government of turkey said no", "en", [("turkey", "COUNTRY")]),
    ("el presidente de chad llegó ayer", "es", [("chad", "COUNTRY")]),
])
def test_a_country_said_as_a_state_after_its_office_or_government_is_the_country(text, lang, expected):
    assert places(text, lang) == expected


@pytest.mark.parametrize("text", ["we had turkey for thanksgiving", "can you order a turkey sandwich",
                                  "he met chad yesterday", "a hanging chad"])
def test_a_country_that_is_an_everyday_word_or_a_name_needs_a_cue(text):
    assert places(text) == []


@pytest.mark.parametrize("text,country", [
    ("we moved from turkey in two thousand five", "turkey"),  # the ISO and CLDR name is "Türkiye" now
    ("i was born in yugoslavia", "yugoslavia"),
    ("my parents came from czechoslovakia", "czechoslovakia"),
    ("he served in east germany", "east germany"),
    ("she grew up in swaziland", "swaziland"),
])
def test_countries_by_the_names_people_still_say_and_of_recent_history(text, country):
    assert (country, "COUNTRY") in places(text)


@pytest.mark.parametrize("text,lang,expected", [
    ("I live in the City of Panaji now", "en", ["Panaji"]),
    ("which has a seat in the city of oranienbau", "en", ["oranienbau"]),
    ("we moved to the state of texas last year", "en", ["texas", "last year"]),
    ("the city of chicago sued the company", "en", ["city of chicago"]),  # the body that sues
    ("She has worked for the City of Springfield since May", "en", ["City of Springfield", "May"]),
    ("vivo en la ciudad de méxico", "es", ["ciudad de méxico"]),  # the list's name of the city
])
def test_a_place_said_with_its_kind_is_the_name_after_of(text, lang, expected):
    from redactdesk.detect.pipeline import detect_texts

    assert [text[s["start"]:s["end"]] for s in detect_texts([text], lang)[0]] == expected


@pytest.mark.parametrize("text,expected", [
    # a tagger's firm "denver for college" became "pellham tessaly college" in the revised text
    ("i grew up outside of tulsa and moved to denver for college",
     [("tulsa", "CITY"), ("denver", "CITY")]),
    ("i used to work in their dublin office", [("dublin", "CITY")]),
    ("the london branch closed last year", [("london", "CITY"), ("last year", "DATE")]),
])
def test_a_place_opening_a_taggers_organisation_before_a_small_word_or_premises_is_the_place(text, expected):
    from redactdesk.detect.pipeline import detect_texts

    assert [(text[s["start"]:s["end"]], s["category"]) for s in detect_texts([text], "en")[0]] == expected


@pytest.mark.parametrize("text,name", [("talk to jordan for a bit", "jordan"), ("send an email to chelsea", "chelsea")])
def test_a_place_that_is_a_name_said_to_someone_stays_the_person(text, name):
    from redactdesk.detect.pipeline import detect_texts

    assert [(text[s["start"]:s["end"]], s["category"]) for s in detect_texts([text], "en")[0]] == [(name, "PERSON")]


def test_a_firm_named_x_of_y_after_a_place_cue_stays_the_firm():
    from redactdesk.detect.pipeline import detect_texts

    text = "i want to go to bank of america give me directions"  # "bank" is a town of the list too
    assert [(text[s["start"]:s["end"]], s["category"]) for s in detect_texts([text], "en")[0]] == [
        ("bank of america", "ORGANIZATION")]


@pytest.mark.parametrize("text,expected", [
    # "texas" is a first name to the lists, and after "houston" (another) it was a surname: "usa" was lost
    ("I live in houston texas usa", [("houston", "CITY"), ("texas", "LOCATION"), ("usa", "COUNTRY")]),
])
def test_a_region_right_after_its_town_is_the_region_though_a_first_name_precedes(text, expected):
    assert places(text) == expected


def test_a_first_name_then_a_place_that_is_a_name_stays_a_person():
    assert places("Michael Jordan played") == []


@pytest.mark.parametrize("text,country", [
    ("they filmed it in the People's Republic of China in 2004", "People's Republic of China"),
    ("he was born in the Republic of Ireland", "Republic of Ireland"),
    ("vivo en la república de chile", "república de chile"),
])
def test_a_country_said_as_its_state_is_one_country(text, country):
    from redactdesk.detect.pipeline import detect_texts

    lang = "es" if text.startswith("vivo") else "en"
    assert (country, "COUNTRY") in [(text[s["start"]:s["end"]], s["category"]) for s in detect_texts([text], lang)[0]]


@pytest.mark.parametrize("text,expected", [
    ("Our guide led us across the Mara River at dawn.", [("Mara River", "LOCATION")]),  # was a person
    ("the Grace Bridge was closed all week", [("Grace Bridge", "LOCATION")]),
    ("I met Mara River at the party.", [("Mara River", "PERSON")]),
])
def test_a_name_and_a_landmark_after_the_is_the_landmark(text, expected):
    from redactdesk.detect.pipeline import detect_texts

    assert [(text[s["start"]:s["end"]], s["category"]) for s in detect_texts([text], "en")[0]] == expected
