"""Job titles and occupations said of someone are items (OCCUPATION); job words said of no one — a
thing, a service asked for, a possession, a question — are not."""

from __future__ import annotations

import pytest

from redactdesk.core.types import Span
from redactdesk.detect.pipeline import detect_texts
from redactdesk.detect.said_occupations import occupations_of_people
from redactdesk.detect.sources import DetectDoc
from redactdesk.lang.lexicon import load_lexicon


def spans(text, language="en"):
    return [(text[s["start"]:s["end"]], s["category"]) for s in detect_texts([text], language)[0]]


def jobs(text, language="en"):
    return [t for t, c in spans(text, language) if c == "OCCUPATION"]


@pytest.mark.parametrize("text, job", [
    ("I work as a cardiologist at Mount Sinai Hospital in New York.", "cardiologist"),
    ("i'm a nurse at saint mary's hospital", "nurse"),  # speech: the contraction says who
    ("she's an accountant", "accountant"),
    ("he's a police officer", "police officer"),  # "police" alone is a town of the place list
    ("my dad was a plumber for thirty years", "plumber"),  # a kin word is a person
    ("my sister, who is a nurse, lives here", "nurse"),
    ("She is a 42 year old software engineer from Poland.", "software engineer"),  # the age says who, not what
    ("He served in the Royal Navy as a lieutenant commander.", "lieutenant commander"),
    ("Anna is the head teacher at Lincoln Elementary.", "head teacher"),  # a name is a person
    ("My nephew, a registered nurse, lives in Tacoma.", "registered nurse"),  # set off after a kin word
    ("The patient, a retired firefighter aged 67, was admitted.", "firefighter"),  # between commas; "retired" no job
    ("Priya Raman, CFO, signed the letter.", "CFO"),  # set off after a name
    ("Regards,\nWei Zhang\nSenior Analyst\nTencent", "Senior Analyst"),  # a signature's line after the name
    ("Contact our CFO, Priya Raman, today.", "CFO"),  # right before a name
    ("Chief Executive Officer Tim Cook spoke first.", "Chief Executive Officer"),
    ("Occupation: Surveyor", "Surveyor"),  # a form's label (the tagger read it into a firm)
    ("Thanks,\nDr. Laura Méndez | Chief Medical Officer | Northwind Health", "Chief Medical Officer"),  # a bar
    ("Patient: Margaret O'Neil, 72, retired schoolteacher from Galway.", "schoolteacher"),  # after name and age
    ("The patient is a dermatologist.", "dermatologist"),  # a person of a case note
    ("Please welcome our new intern, Ahmed Al-Farsi, who joins today.", "intern"),
    ("he was a steelworker for years", "steelworker"),  # a compound of a trade's head
    ("In 1885 Hitzig became a professor at the University of Halle.", "professor"),
    ("Greetings from Ms. Ana Lima, Director of Sales at Vandelay Industries.", "Director of Sales"),
    ("She is VP of Engineering and Operations.", "VP of Engineering and Operations"),
    ("i'm the head of marketing at acme", "head of marketing"),  # "head" is a job only of a department
    # head first, as job lists write titles: the qualifier after the comma is the title's
    ("I work as a Engineer, biomedical and love it.", "Engineer, biomedical"),
    ("Occupation: Surveyor, rural practice", "Surveyor, rural practice"),
    ("She works as an Accountant, chartered certified.", "Accountant, chartered certified"),
])
def test_a_job_said_of_someone_is_an_item(text, job):
    assert job in jobs(text)


@pytest.mark.parametrize("text", [
    "is a driver licence required",  # a job word qualifying a thing
    "copper is a conductor of electricity",  # said of no person
    "that's a doctor's note",  # a possession, not a job
    "i need a plumber to fix the sink",  # a service asked for
    "the teacher said hello",
    "who is president of poland",  # a question, not a relative clause
    "I'm a big fan of the show.",
    "As a result, the manager's office moved.",
    'Known as the "Poet of the Piano", he toured.',  # a nickname: "as the", no work cue
    "she is the head of the family",
])
def test_a_job_word_said_of_no_one_is_no_item(text):
    assert jobs(text) == []


@pytest.mark.parametrize("text, job, language", [
    ("she married pierre dubois a french diplomat in nineteen sixty two", "diplomat", "en"),
    ("maria lopez a nurse from leeds was hired", "nurse", "en"),
    ("conocí a juan pérez un médico de sevilla", "médico", "es"),
])
def test_a_job_said_right_after_a_name_in_speech_is_an_item(text, job, language):
    """Speech writes no comma: "pierre dubois a french diplomat" is the apposition a written comma marks
    (the tagger read "diplomat" as a second person, whose surrogate was a name)."""
    got = spans(text, language)
    assert (job, "OCCUPATION") in got and not any(c == "PERSON" and job in t for t, c in got)


@pytest.mark.parametrize("text", ["then i told mark a lawyer would call him", "i met john a friend of mine"])
def test_a_job_after_a_name_said_of_someone_else_is_no_item(text):
    assert jobs(text) == []


def test_a_list_of_jobs_said_of_someone_gives_each():
    assert jobs("Budjana is an Indonesian guitarist, songwriter and composer.") == [
        "guitarist", "songwriter", "composer"]
    assert jobs("Shi Tao, journalist, writer, and poet") == ["journalist", "writer", "poet"]


@pytest.mark.parametrize("text, job", [
    ("soy enfermera en el hospital", "enfermera"),  # the feminine of the listed "enfermero"
    ("mi marido es fontanero", "fontanero"),
    ("trabajo como agente de seguros desde hace diez años", "agente de seguros"),  # Spanish: the head first
    ("trabaja de cajera en el supermercado", "cajera"),
    ("ella es abogada", "abogada"),
    ("Profesión: abogada", "abogada"),
    ("él es profesor de matemáticas en un instituto", "profesor de matemáticas"),  # what is taught, after "de"
    ("soy jefa de ventas en una empresa", "jefa de ventas"),
    ("El director general, Antonio Ruiz, firmó el contrato.", "director general"),  # before the name
    ("Mi hermano Pablo es ingeniero de caminos y vive en Bilbao.", "ingeniero de caminos"),
])
def test_a_spanish_job_said_of_someone_is_an_item(text, job):
    assert job in jobs(text, "es")


@pytest.mark.parametrize("text", ["¿dónde está el cajero automático?", "el médico me dijo que descanse"])
def test_a_spanish_job_word_said_of_no_one_is_no_item(text):
    assert jobs(text, "es") == []


def test_a_timed_transcripts_commas_set_no_job_off():
    """ASR's commas are guesses: "anna, teacher, said" in a timed transcript is no apposition."""
    words = ["anna,", "teacher,", "said", "hello"]
    doc = DetectDoc.from_words(words, "en", starts=[0.0, 0.5, 1.0, 1.5], ends=[0.4, 0.9, 1.4, 1.9])
    doc.lex = doc.lex or load_lexicon("en")
    person = Span(0, 1, "PERSON")
    assert [s.category for s in occupations_of_people(doc, [person])] == ["PERSON"]
    untimed = DetectDoc.from_words(words, "en")
    untimed.lex = untimed.lex or load_lexicon("en")
    assert [s.category for s in occupations_of_people(untimed, [person])] == ["PERSON", "OCCUPATION"]


def test_a_name_that_is_the_title_gives_way_and_other_spans_stay():
    """"works as a Water Engineer" read as a person becomes the job; a span that holds more stays."""
    words = "He works as a Water Engineer in Leeds".split()
    doc = DetectDoc.from_words(words, "en")
    doc.lex = doc.lex or load_lexicon("en")
    out = occupations_of_people(doc, [Span(4, 6, "PERSON"), Span(7, 8, "CITY")])
    assert [(s.start_word, s.end_word, s.category) for s in out] == [(4, 6, "OCCUPATION"), (7, 8, "CITY")]
    held = occupations_of_people(doc, [Span(3, 8, "ADDRESS")])
    assert [s.category for s in held] == ["ADDRESS"]


def test_the_project_allow_list_removes_a_job():
    text = "i'm a nurse at the clinic"
    assert jobs(text) == ["nurse"]
    found = detect_texts([text], "en", allow=["nurse"])[0]
    assert all(s["category"] != "OCCUPATION" for s in found)


def test_a_person_read_where_a_job_is_done_is_the_employer():
    """"a nurse at kaiser permanente" gave the person "kaiser permanente" (its surrogate a person's name);
    one works "for" a person, so a name after "for" stays one."""
    assert ("kaiser permanente", "ORGANIZATION") in spans("my wife maria is a nurse at kaiser permanente")
    assert ("john smith", "PERSON") in spans("i work as a nanny for john smith")


@pytest.mark.parametrize("text", [
    "my therapist doctor okafor says I should journal",
    "my therapist dr okafor says I should journal",
    "My therapist Dr. Okafor says I should journal.",
])
def test_a_title_between_a_job_and_a_name_is_the_names(text):
    """"my therapist doctor okafor" gave the job "therapist doctor" ("doctor" is a head of its own);
    with "dr" (a word of Faker's titles) no job at all. The title is said of the name after it."""
    assert jobs(text) == ["therapist"]


@pytest.mark.parametrize(("text", "groups", "job"), [
    ("He is a Catholic Filipino nurse.", ["Catholic", "Filipino"], "nurse"),
    ("she is a filipino nurse", ["filipino"], "nurse"),
])
def test_groups_said_before_a_job_are_groups_not_the_taggers_firm(text, groups, job):
    """The tagger read "Catholic Filipino nurse" as one organisation and beat the groups and the job."""
    found = spans(text)
    assert [t for t, c in found if c == "NRP"] == groups and jobs(text) == [job]
    assert not any(c == "ORGANIZATION" for _, c in found)


@pytest.mark.parametrize(("text", "job", "group"), [
    ("ella es una enfermera filipina", "enfermera", "filipina"),
    ("mi vecino es un ingeniero alemán muy amable", "ingeniero", "alemán"),
])
def test_a_spanish_job_with_its_nationality_after_it_gives_both(text, job, group):
    """Spanish says the nationality after the job; the job was not found ("filipina" did not end it)."""
    found = spans(text, "es")
    assert (job, "OCCUPATION") in found and (group, "NRP") in found


@pytest.mark.parametrize(("text", "job"), [
    ("He's been a social worker for ten years.", "social worker"),
    ("I've been a nurse since 2001.", "nurse"),
    ("she has always been a teacher", "teacher"),
    ("my dad had been a plumber", "plumber"),
])
def test_a_job_said_with_an_auxiliary_is_said_of_someone(text, job):
    """"He's been a social worker": the word before "been" is no subject, and the job was left."""
    assert jobs(text) == [job]


@pytest.mark.parametrize("text", ["it has been a pleasure working with the doctor", "there has been a doctor here"])
def test_been_after_no_person_says_no_job(text):
    assert jobs(text) == []


def test_a_job_opening_a_sentence_before_a_name_is_an_item():
    """News opens a sentence with the job in lower case after its first word ("Chemical engineer John
    Reyes"); the job had to be written in capitals throughout."""
    assert jobs("Chemical engineer John Reyes will lead the call.") == ["Chemical engineer"]


@pytest.mark.parametrize(("text", "job"), [
    ("mi marido jorge trabaja en telefónica como ingeniero", "ingeniero"),
    ("lo contrataron en el hospital como enfermero", "enfermero"),
])
def test_a_spanish_job_after_como_in_a_clause_of_working_is_an_item(text, job):
    """"trabaja en telefónica como ingeniero": the work cue "trabaja como" has the employer between."""
    assert jobs(text, "es") == [job]


def test_spanish_como_without_a_verb_of_working_says_no_job():
    assert jobs("como ingeniero te digo que no", "es") == []


@pytest.mark.parametrize(("text", "job"), [("es profesor de la universidad", "profesor"),
                                           ("era enfermera en el hospital", "enfermera"),
                                           ("es director de cine", "director de cine")])
def test_a_spanish_job_said_with_ser_and_no_subject_is_an_item(text, job):
    """Spanish drops the subject: "es profesor" says someone is a teacher, and was left."""
    assert jobs(text, "es") == [job]


@pytest.mark.parametrize("text", ["el problema es grave", "la reunión fue larga", "es una buena pregunta"])
def test_spanish_ser_before_no_job_says_none(text):
    assert jobs(text, "es") == []


@pytest.mark.parametrize(("text", "job"), [
    ("Pt is a 74 y/o retired machinist living with his daughter.", "machinist"),
    ("earlier in his career as a physician working in Berlin", "physician"),
])
def test_a_job_before_a_clause_said_of_the_person_is_an_item(text, job):
    """A clinical note's "Pt is a 74 y/o retired machinist living with ..." gave no job (and "Pt" a person)."""
    assert jobs(text) == [job]
    assert not any(t == "Pt" for t, _ in spans(text))


def test_a_job_word_without_its_article_before_an_ing_word_is_none():
    assert jobs("By the mid 90's Angelo was tailor making special events.") == []
