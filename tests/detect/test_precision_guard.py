"""Things that are not personal data stay unflagged: commands, devices, food, media, wake words,
alphabet words, times of day and recurrences."""

from __future__ import annotations

import pytest

from redactdesk.detect.pipeline import detect_texts

NOT_PERSONAL = [
    "turn on the vacuum",
    "order me some chinese food",
    "shuffle the current album of songs",
    "play some jazz music in the kitchen",
    "set an alarm for the marathon event",
    "hey siri what is the weather like",
    "olly remind me to water the plants tonight",
    "define framework",
    "pray every friday at noon",
    "what is the exchange rate of the euro",
]


@pytest.mark.parametrize("text", NOT_PERSONAL)
def test_everyday_commands_hold_no_personal_item(text):
    found = [(text[s["start"]:s["end"]], s["category"]) for s in detect_texts([text], "en")[0]]
    assert [f for f in found if f[1] in ("PERSON", "ORGANIZATION", "LOCATION", "CITY", "COUNTRY")] == [], found


def test_alphabet_words_of_a_spelling_passage_are_no_names_of_their_own():
    text = "my surname is G as in George A as in Adam R as in Robert thanks"
    spans = detect_texts([text], "en")[0]
    pieces = [(text[s["start"]:s["end"]], s["category"]) for s in spans]
    assert len(pieces) == 1 and pieces[0][0].startswith("G as in George") and pieces[0][0].endswith("Robert")


@pytest.mark.parametrize("text", ["The patient, aged 63, was admitted on Monday.",
                                  "We close on Sunday and reopen Tuesday morning."])
def test_a_weekday_is_a_date_and_never_a_name(text):
    found = detect_texts([text], "en")[0]
    assert found and all(s["category"] in ("DATE", "AGE") for s in found)


def test_everyday_words_without_a_capital_in_cased_writing_are_no_name():
    """"He was elected city councilman in 2006" was an organisation; lower-case names in cased
    writing (tweets: "my cousin cicibussey", "moved to paris") stay."""
    def named(text):
        return [text[s["start"]:s["end"]] for s in detect_texts([text], "en")[0]
                if s["category"] in ("PERSON", "ORGANIZATION", "LOCATION", "CITY")]

    assert named("He was elected city councilman in 2006.") == []
    assert named("Happy Birthday to my cousin cicibussey!!! I will never forget.") == ["cicibussey"]
    assert "paris" in named("She moved to paris last year with Tom.")


@pytest.mark.parametrize("text", ["post it on facebook for me", "what is the latest news on the new york times",
                                  "read me yahoo news headlines", "I saw your ad on Facebook last week."])
def test_a_service_or_medium_everybody_uses_is_no_organisation(text):
    assert not any(s["category"] == "ORGANIZATION" for s in detect_texts([text], "en")[0])


@pytest.mark.parametrize("text", ["google the word", "give me the newest new york times",
                                  "can you google the meaning of that word"])
def test_a_platform_a_tagger_ran_on_over_or_stopped_in_is_still_a_platform(text):
    """A tagger read "google the word" as one organisation, and "new york" of "new york times"."""
    assert not any(s["category"] == "ORGANIZATION" for s in detect_texts([text], "en")[0])


def test_a_capitalised_name_that_opens_with_a_platforms_name_stays():
    text = "Individual poems have appeared in The Times Literary Supplement and elsewhere."
    assert any(text[s["start"]:s["end"]].endswith("Literary Supplement") for s in detect_texts([text], "en")[0])


@pytest.mark.parametrize("text,lang", [("who are the greatest hip hop artists", "en"), ("i like r n b", "en"),
                                       ("i am hip hop", "en"), ("pon algo de reggaeton", "es")])
def test_a_kind_of_music_is_no_name(text, lang):
    assert detect_texts([text], lang)[0] == []


@pytest.mark.parametrize("text", ["they were more influenced by the garage rock of the late sixties",
                                  "crazyhead are an english punk rock garage rock band",
                                  "a four piece electro synthpop band based in the city",
                                  "She plays in an alternative rock band."])
def test_a_kind_of_music_with_the_words_said_of_it_is_no_name(text):
    """The taggers read "garage rock", "english punk rock" and "electro synthpop" as organisations
    (the band's own name stays: "crazyhead")."""
    assert not [s for s in detect_texts([text], "en")[0] if "rock" in text[s["start"]:s["end"]]
                or "synthpop" in text[s["start"]:s["end"]]]


@pytest.mark.parametrize("text,name", [("supporting iggy pop on tour", "iggy pop"), ("Rock Hudson starred in it",
                                                                                       "Rock Hudson"),
                                       ("Kid Rock played in a bar.", "Kid Rock"),
                                       ("He played with Black Sabbath.", "Black Sabbath")])
def test_a_name_with_a_genre_word_in_it_stays(text, name):
    assert name in [text[s["start"]:s["end"]] for s in detect_texts([text], "en")[0]]


@pytest.mark.parametrize("text,org", [
    ("i work at google in the london office", "google"),  # an employer
    ("thank you for calling spotify how can i help", "spotify"),  # the company answering
    ("what are the current stock prices for google", "google"),  # a market's company
    ("She is a reporter at The New York Times.", "The New York Times"),  # a job at it
    ("he's been at google for like three years now", "google"),  # being at it for years: works there
    ("she started at facebook last month", "facebook"),
])
def test_a_service_named_as_an_employer_or_company_stays(text, org):
    assert (org, "ORGANIZATION") in {(text[s["start"]:s["end"]], s["category"]) for s in detect_texts([text], "en")[0]}


@pytest.mark.parametrize("text,lang", [("define swerving", "en"), ("what is the meaning of serendipity", "en"),
                                       ("give me a synonym for happy", "en"), ("qué significa efímero", "es")])
def test_a_word_asked_about_is_no_name(text, lang):
    assert detect_texts([text], lang)[0] == []


@pytest.mark.parametrize("text,name", [("define paris", "paris"),
                                       ("what is the meaning of the name maria", "maria")])
def test_a_listed_name_or_place_asked_about_stays(text, name):
    assert name in [text[s["start"]:s["end"]] for s in detect_texts([text], "en")[0]]


@pytest.mark.parametrize("text,day", [("@jessica_m lol see u at starbucks tmrw", "tmrw"), ("c u 2moro at the gym", "2moro")])
def test_a_day_as_texts_write_it_is_a_relative_date_not_a_place(text, day):
    found = [(text[s["start"]:s["end"]], s["category"]) for s in detect_texts([text], "en")[0]]
    assert (day, "DATE") in found, found


@pytest.mark.parametrize("text", ["olly brighten the lights", "alexa brighten the lights", "olly death metal now"])
def test_a_wake_word_opening_a_command_is_no_part_of_a_name(text):
    assert not any(s["category"] in ("PERSON", "ORGANIZATION") for s in detect_texts([text], "en")[0])


@pytest.mark.parametrize("text,name", [("alexa call adeyemi", "adeyemi"), ("Alexa Johnson called yesterday.", "Alexa Johnson")])
def test_a_name_after_a_wake_word_and_a_person_named_alexa_stay(text, name):
    assert (name, "PERSON") in [(text[s["start"]:s["end"]], s["category"]) for s in detect_texts([text], "en")[0]]


@pytest.mark.parametrize("text", ["Alexa Johnson called yesterday.", "she called today about it"])
def test_a_day_after_called_is_a_date_and_no_name(text):
    found = {text[s["start"]:s["end"]]: s["category"] for s in detect_texts([text], "en")[0]}
    assert found.get("yesterday", found.get("today")) == "DATE", found


def test_a_platform_read_as_a_place_is_none():
    """The contextual tagger read "tiktok" as a place."""
    assert detect_texts(["my mom just discovered tiktok and now she won't stop dancing"], "en")[0] == []


@pytest.mark.parametrize("text", ["the bank called me", "The bank called me.", "the hospital called me back",
                                  "el banco me llamó ayer"])
def test_a_kind_of_body_after_a_determiner_is_no_organisation(text):
    """People speak of their bank or the hospital without naming it: the tagger read "the bank called"
    and "the hospital" as organisations."""
    found = detect_texts([text], "es" if text.startswith("el ") else "en")[0]
    assert not [s for s in found if s["category"] in ("ORGANIZATION", "LOCATION")], found


def test_a_pronoun_and_a_body_word_said_as_a_verb_is_no_organisation():
    """The tagger read "i bank" in "i bank with wells fargo" as an organisation; the bank named stays."""
    text = "i bank with wells fargo and my card was declined"
    found = [(text[s["start"]:s["end"]], s["category"]) for s in detect_texts([text], "en")[0]]
    assert found == [("wells fargo", "ORGANIZATION")]


@pytest.mark.parametrize("text,name", [("I banked with the Royal Bank for years", "Royal Bank"),
                                       ("she was treated at the mayo clinic", "mayo clinic"),
                                       ("the League denies it", "League")])
def test_a_body_with_a_word_or_a_capital_of_its_own_stays_an_organisation(text, name):
    found = [(text[s["start"]:s["end"]], s["category"]) for s in detect_texts([text], "en")[0]]
    assert (name, "ORGANIZATION") in found


def test_the_verb_of_a_request_is_no_person():
    """"please mark my calendar" gave the person "mark"; a name said to or of someone stays."""
    def persons(text):
        return [text[s["start"]:s["end"]] for s in detect_texts([text], "en")[0] if s["category"] == "PERSON"]

    assert persons("please mark my calendar for a holiday in cuba") == []
    assert persons("please tell mark my address") == ["mark"]
    assert persons("please, Mark, the door") == ["Mark"]  # set off by commas: said to Mark
    assert persons("please Mark my words") == ["Mark"]  # written with its capital
