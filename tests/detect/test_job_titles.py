"""A job title is no person and no organisation ("promoted to Chief Strategy Officer"): its
surrogate would be somebody's name. Names beside a title, and names that are job words, stay."""

import pytest

from redactdesk.detect.occupations import job_title_at, job_vocabulary
from redactdesk.detect.pipeline import detect_texts

_NAMED = ("PERSON", "ORGANIZATION", "LOCATION")


def named(text, language="en"):
    return [text[s["start"]:s["end"]] for s in detect_texts([text], language)[0] if s["category"] in _NAMED]


@pytest.mark.parametrize("text", [
    "I was promoted to Chief Strategy Officer last year.",
    "I was promoted to Sports Development Officer last year.",
    "I was promoted to Physiotherapist last year.",
    "I was promoted to Television Camera Operator last year.",
    "He works as a Microbiologist at the plant.",
    "Job title: Surveyor, rural practice",
    "Job title: Research officer, trade union",
    "She is the Hydrologist of our team.",
    "I was promoted to Product/Process Development Scientist last year.",
    "Her title is Senior Vice President of Operations.",  # offices of the lexicon are titles too
    "Our CTO will join the call.",
])
def test_a_job_title_alone_is_no_name(text):
    assert named(text) == []


@pytest.mark.parametrize("text, name", [
    ("Kiara Olson, Journalist, Magazine, signed the letter.", "Kiara Olson"),
    ("Jessica Lewis, Buyer, Industrial, signed the letter.", "Jessica Lewis"),
    ("Our Chief Executive Officer, Jane Park, resigned.", "Jane Park"),
])
def test_the_name_beside_a_job_title_is_the_only_item(text, name):
    assert named(text) == [name]


@pytest.mark.parametrize("text, item", [
    ("Please call Mr. Brewer tomorrow about the invoice.", "Mr. Brewer"),
    ("Call Dr. Baker at the clinic.", "Dr. Baker"),
    ("He spoke to Officer Daniels at the scene.", "Officer Daniels"),
    ("The Royal College of Nursing issued a statement.", "Royal College of Nursing"),
    ("She joined the National Union of Teachers in 1990.", "National Union of Teachers"),
    ("The American Medical Association disagreed.", "American Medical Association"),
    ("Habló con el Doctor Ramírez ayer.", "Doctor Ramírez"),
    ("Thailand's ousted Prime Minister waves goodbye.", "Prime Minister"),  # the office of one person
])
def test_names_with_job_words_stay(text, item):
    language = "es" if "Habló" in text else "en"
    assert item in named(text, language)


def test_the_vocabulary_comes_from_the_languages_job_list():
    words, heads = job_vocabulary("en")
    assert {"engineer", "officer", "surveyor"} <= heads
    assert "chief" in words and "chief" not in heads
    assert not {"england", "wales"} & words  # "Chartered legal executive (England and Wales)": places
    es_words, es_heads = job_vocabulary("es")
    assert "ingeniero" in es_heads
    assert job_vocabulary("xx") == (frozenset(), frozenset())


@pytest.mark.parametrize("words, span, expected", [
    ("promoted to television camera operator".split(), (2, 4), True),  # the head follows the span
    ("buyer, industrial signed".split(), (1, 2), True),  # the head comes before, with a comma
    ("the water. engineer".split(), (1, 2), False),  # a title stops at a sentence's end
    ("the royal college of nursing".split(), (1, 5), False),
])
def test_job_title_at(words, span, expected):
    assert job_title_at(words, *span, "en") is expected


@pytest.mark.parametrize("text", ["The Senator from Ohio voted against the bill.",
                                  "The Prime Minister met the Governor yesterday."])
def test_an_office_said_alone_is_no_organisation(text):
    assert [n for n in named(text) if n != "Ohio"] == []


def test_one_office_word_is_no_organisation():
    assert named("The lab is run by Bruce Stillman, President since 2003.") == ["Bruce Stillman"]


@pytest.mark.parametrize("text,item,category,lang", [
    ("who is president of poland", "poland", "LOCATION", "en"),
    ("The Governor of Texas signed it.", "Texas", "LOCATION", "en"),
    ("the mayor of springfield said no", "springfield", None, "en"),
    ("el presidente de colombia habló hoy", "colombia", None, "es"),
])
def test_an_office_of_a_place_or_body_leaves_the_place_or_body(text, item, category, lang):
    """"president of poland" was one organisation; the office names no one, the place stays an item."""
    spans = [(text[s["start"]:s["end"]], s["category"]) for s in detect_texts([text], lang)[0]]
    assert not any(v.lower().startswith(("president", "governor", "presidente", "mayor")) for v, _ in spans), spans
    assert any(v == item and (category is None or c == category) for v, c in spans), spans


def test_a_persons_office_of_everyday_words_leaves_nothing():
    text = "He met the Secretary of State in Washington."
    assert not any(v.startswith(("Secretary", "State")) for v in named(text)), named(text)


@pytest.mark.parametrize("text, items", [
    # the contextual tagger read "Wei Zhang, Senior Analyst" as one organisation: the surrogate of a
    # firm stood for the person, and the title went with it
    ("Contact: Wei Zhang, Senior Analyst, Tencent Holdings Ltd., Shenzhen 518057, China", [("Wei Zhang", "PERSON")]),
    ("Hazza al-Majali, Prime Minister of Jordan (1959\u20131960)", [("Hazza al-Majali", "PERSON")]),
])
def test_a_name_ends_at_the_comma_before_a_job_title(text, items):
    (spans,) = detect_texts([text], "en")
    got = [(text[s["start"]:s["end"]], s["category"]) for s in spans]
    for item in items:
        assert item in got, got
    # the title is no part of a name; set off after the name it is the person's job (OCCUPATION)
    assert not any(("Analyst" in t or "Prime" in t) and c != "OCCUPATION" for t, c in got), got
    assert any(c == "OCCUPATION" and ("Analyst" in t or "Prime" in t) for t, c in got), got


def test_a_job_title_and_a_comma_do_not_open_an_organisation():
    from redactdesk.core.types import Span
    from redactdesk.detect.name_bounds import _cut_at_comma_before_clause
    from redactdesk.detect.sources import DetectDoc

    doc = DetectDoc.from_words("write to Wei Zhang, Senior Analyst, today".split(), "en")
    (s,) = _cut_at_comma_before_clause(doc, [Span(2, 6, "ORGANIZATION")])
    assert (" ".join(doc.words[s.start_word:s.end_word]), s.category) == ("Wei Zhang,", "PERSON")
    doc = DetectDoc.from_words("she is a Senior Analyst, Tencent Holdings in Shenzhen".split(), "en")
    (s,) = _cut_at_comma_before_clause(doc, [Span(3, 7, "ORGANIZATION")])
    assert " ".join(doc.words[s.start_word:s.end_word]) == "Tencent Holdings"
