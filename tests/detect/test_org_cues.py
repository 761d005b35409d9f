"""Organisations named by the words around them: a share price's company, an employer, a bank."""

import pytest

from redactdesk.detect.pipeline import detect_texts


def orgs(text, language="en"):
    return [text[s["start"]:s["end"]] for s in detect_texts([text], language)[0] if s["category"] == "ORGANIZATION"]


@pytest.mark.parametrize("text,org", [
    ("give me the opening stock price of apple", "apple"),  # an everyday word after the cue
    ("what's the stock price for tesco", "tesco"),
    ("tell me amd stock prices", "amd"),  # a ticker before the cue
    ("what is the share price of rolls royce", "rolls royce"),
    ("we bank with barclays", "barclays"),
    ("i work for the bbc in london", "bbc"),
    ("my husband worked for zendesk until may", "zendesk"),  # a word of no list stands alone
    ("you've reached deal telecom my name is william", "deal telecom"),  # an agent's greeting
    ("thank you for calling bright river energy how can i help", "bright river energy"),
    ("send a tweet to dominoes about bad delivery", "dominoes"),  # whom a complaint goes to
    ("i want to file a complaint against comcast", "comcast"),
    ("send tweet to united airlines i'm angry you lost my bags", "united airlines"),  # not "i'm"
])
def test_the_company_a_cue_names_is_an_organisation(text, org):
    assert org in orgs(text)


@pytest.mark.parametrize("text", [
    "the opening stock price",  # an everyday word before the cue
    "high stock price",
    "i work at night",
    "i work for the council",
    "i work for myself",
    "she works at home on fridays",
    "i used to work for a bank",
    "i work for fun",  # an everyday word needs a second source
    "thank you for calling customer service this is anna",  # a department
    "you've reached the billing team",
    "i complained to the manager about it",  # a complaint to someone
    "send a tweet to john saying happy birthday",
    "can you complain to my landlord",
])
def test_what_follows_a_cue_is_no_company_by_itself(text):
    assert orgs(text) == []


@pytest.mark.parametrize("text,org,language", [
    ("my insurance is with state farm", "state farm", "en"),
    ("my pension is with fidelity", "fidelity", "en"),
    ("i've been a customer of comcast for ten years", "comcast", "en"),
    ("mi seguro es con mapfre desde hace años", "mapfre", "es"),
    ("tengo una cuenta en bankinter", "bankinter", "es"),
    ("i have my internet with verizon", "verizon", "en"),
])
def test_whom_a_caller_buys_a_service_from_is_an_organisation(text, org, language):
    """An insurer, a pension fund, a provider named after its cue: none of these was flagged."""
    assert org in orgs(text, language), orgs(text, language)


@pytest.mark.parametrize("text,org", [
    ("I work as a Chartered accountant at Hernandez-Hoffman.", "Hernandez-Hoffman"),  # was a double-barrelled person
    ("he's a software engineer at stripe", "stripe"),
])
def test_a_job_and_at_name_the_employer(text, org):
    found = [(text[s["start"]:s["end"]], s["category"]) for s in detect_texts([text], "en")[0]]
    assert (org, "ORGANIZATION") in found, found


@pytest.mark.parametrize("text,org", [
    ("hi this is karen from the billing department at comcast", "comcast"),
    ("he is on the team at google", "google"),
])
def test_a_unit_of_a_company_names_it_and_at_stays_out(text, org):
    """'the billing department at comcast' gave no organisation (an everyday-word name, no cue); with
    the cue, the tagger's "at comcast" kept the preposition, which the surrogate would have eaten."""
    found = [(text[s["start"]:s["end"]], s["category"]) for s in detect_texts([text], "en")[0]]
    assert (org, "ORGANIZATION") in found, found


@pytest.mark.parametrize("text", ["he was a teacher at the time", "the doctor at the clinic said no",
                                  "the team at the clinic was great", "i left it at the front desk at the hotel"])
def test_a_job_and_at_before_no_name_name_nothing(text):
    assert orgs(text) == []


@pytest.mark.parametrize("text", ["my insurance is with my employer", "i'm a customer of yours"])
def test_a_service_cue_with_no_name_after_it_names_nothing(text):
    assert orgs(text) == []


def test_spanish_employer_and_greeting():
    assert "zendesk" in orgs("trabajo en zendesk desde hace dos años", "es")
    assert "seguros cantábrico" in orgs("ha llamado a seguros cantábrico le atiende marta", "es")


def test_a_capitalised_employer_that_is_also_an_everyday_word():
    """"Telefónica" is an everyday Spanish word too ("línea telefónica"): written with its capital
    after "trabajo en" it is the employer; spaCy's place reading had cancelled it out."""
    assert orgs("Trabajo en Telefónica desde 2010.", "es") == ["Telefónica"]
    assert orgs("trabajo en la oficina desde 2010", "es") == []


@pytest.mark.parametrize("text,org", [
    ("My brother works at Boeing, he's been there twelve years.", "Boeing"),
    ("She works for Globex; her husband is a teacher.", "Globex"),
    ("He works at Initech\nSee you on Monday", "Initech"),
])
def test_in_writing_an_employer_ends_at_a_comma_a_clause_or_a_line(text, org):
    """The walk after "works at" ran over the comma into "he's"."""
    assert org in orgs(text) and not any("," in o or "\n" in o or " " in o for o in orgs(text)), orgs(text)


def _cue_orgs(text, language="en"):
    from redactdesk.detect.org_cues import find_organisations_by_cue
    from redactdesk.detect.sources import DetectDoc

    doc = DetectDoc.from_words(text.split(), language=language)
    return [" ".join(doc.words[h.start_word:h.end_word]) for h in find_organisations_by_cue(doc, lambda a, b: True)]


@pytest.mark.parametrize("text,org", [
    ("just got hired at Chick-fil-A lets gooo", "Chick-fil-A"),  # a capitalised name ends at a small word
    ("she has a shift at kroger tonight", "kroger"),  # when is no part of where
    ("he interned at zendesk yesterday", "zendesk"),
    ("my manager at walmart said no", "walmart"),
    ("my sister works at google called me", "google"),  # what the person did: "google called" was the firm
    ("she got hired by lockheed last spring", "lockheed"),
    ("tengo turno en mercadona hoy", None),  # no cue: nothing
    ("trabajo en mercadona hoy", "mercadona"),
])
def test_an_employer_said_after_its_cue_ends_where_the_name_does(text, org):
    """"Chick-fil-A lets gooo" and "kroger tonight" were the employers; "hired at", "interned at",
    "manager at" named none."""
    lang = "es" if text.startswith(("tengo", "trabajo")) else "en"
    assert _cue_orgs(text, lang) == ([org] if org else [])


def test_a_county_named_is_a_place():
    """"from County Cork" was an organisation (a name after the generic word "county")."""
    text = "my mom's side of the family is all from County Cork."
    got = {(text[s["start"]:s["end"]], s["category"]) for s in detect_texts([text], "en")[0]}
    assert ("County Cork", "LOCATION") in got, got


def test_a_spanish_article_after_the_employer_cue_opens_no_name_and_ends_none():
    """"trabajo para la caixa": the article stopped the walk, and the employer went unflagged."""
    assert _cue_orgs("trabajo para la caixa desde marzo", "es") == ["caixa"]
    assert "caixa" in orgs("trabajo para la caixa desde marzo", "es")


@pytest.mark.parametrize("text", ["My brother Tom works at", "Since 2010 Maria Lopez has worked for"])
def test_a_cue_that_ends_the_text_names_no_employer_and_breaks_nothing(text):
    """Written text that ends on its employer cue raised IndexError (the walk read the word after it)."""
    assert _cue_orgs(text) == []
    assert orgs(text) == []


@pytest.mark.parametrize("text,org", [
    ("so proud of my little bro kevin for graduating from UCLA!!", "UCLA"),  # capitals in a lower-case tweet
    ("i studied at the university of leeds", "university of leeds"),
    ("my son is a student at lincoln high", "lincoln high"),
    ("me gradué en la universidad de los andes", "universidad de los andes"),
])
def test_where_someone_studies_is_an_organisation(text, org):
    language = "es" if text.startswith("me ") else "en"
    assert org in orgs(text, language)


@pytest.mark.parametrize("text", ["i study at home", "he dropped out of college"])
def test_a_place_of_study_said_in_everyday_words_is_none(text):
    assert orgs(text) == []


@pytest.mark.parametrize("text,org", [("today 's closing price for google", "google"),
                                      ("what is the market cap of nvidia", "nvidia"),
                                      ("what's the opening price for tesco", "tesco")])
def test_a_price_quoted_for_a_company_names_it(text, org):
    assert org in orgs(text)


@pytest.mark.parametrize("text", ["what was the closing price yesterday", "keep the beef stock in the fridge"])
def test_a_price_or_stock_of_nothing_named_is_no_company(text):
    assert orgs(text) == []


@pytest.mark.parametrize("text,firm", [("my mobile is with vodafone", "vodafone"),
                                       ("my electricity is with edf", "edf"),
                                       ("i bank with santander and my savings are with nationwide", "nationwide")])
def test_whom_a_caller_is_with_is_an_organisation_not_a_person(text, firm):
    """The taggers read a one-word firm after "is with" as a person, and a person outranks an
    organisation in the vote: a name's surrogate replaced the supplier."""
    from redactdesk.detect.pipeline import detect_texts

    found = [(text[s["start"]:s["end"]], s["category"]) for s in detect_texts([text], "en")[0]]
    assert (firm, "ORGANIZATION") in found, found


def test_a_listed_name_after_such_a_cue_stays_a_person():
    from redactdesk.detect.pipeline import detect_texts

    text = "i work with john on the night shift"
    assert ("john", "PERSON") in [(text[s["start"]:s["end"]], s["category"]) for s in detect_texts([text], "en")[0]]


@pytest.mark.parametrize("text,firm,lang", [("soy cliente de movistar desde hace diez años", "movistar", "es"),
                                            ("soy clienta de jazztel", "jazztel", "es"),
                                            ("ive been a customer of vodafone for years", "vodafone", "en")])
def test_the_firm_someone_is_a_customer_of_stands_alone(text, firm, lang):
    """Brand names are on the everyday-word lists, so the word after "cliente de" waited for a
    second source; Spanish has no contextual tagger to give one, and "movistar" went unflagged."""
    from redactdesk.detect.pipeline import detect_texts

    found = [(text[s["start"]:s["end"]], s["category"]) for s in detect_texts([text], lang)[0]]
    assert found == [(firm, "ORGANIZATION")], found


@pytest.mark.parametrize("text,lang", [("soy cliente de toda la vida", "es"), ("soy cliente de este banco", "es"),
                                       ("im a customer of twenty years", "en"), ("a loyal customer of yours", "en")])
def test_no_firm_after_a_customer_cue_without_a_name(text, lang):
    from redactdesk.detect.pipeline import detect_texts

    assert detect_texts([text], lang)[0] == []


@pytest.mark.parametrize("text,org", [
    ("hi i'm calling from british gas about your boiler service", "british gas"),  # ends in a generic word
    ("we're calling on behalf of octopus energy", "octopus energy"),
    ("this is dave calling from zendesk", "zendesk"),  # a word of no list
])
def test_whom_an_agent_calls_for_is_an_organisation(text, org):
    """"calling from british gas": an agent names the company as the greeting does; "british" a group
    and "gas" an everyday word, nothing else read it."""
    assert org in orgs(text)


@pytest.mark.parametrize("text", [
    "i'm calling from spain on my mobile",  # a place
    "i'm calling from new york",
    "i'm calling on behalf of mr smith",  # someone
    "i'm calling from upstairs",  # an everyday word alone needs a second voice
    "i'm calling from home",
])
def test_a_place_or_a_person_an_agent_calls_from_is_no_organisation(text):
    assert orgs(text) == []


def test_spanish_agents_name_the_company_they_call_for():
    assert orgs("buenos días le llamo de parte de iberdrola por su factura", "es") == ["iberdrola"]
    assert orgs("le llamo desde madrid", "es") == []


@pytest.mark.parametrize("text,org,language", [
    ("buenas tardes le atiende carmen de movistar en qué puedo ayudarle", "movistar", "es"),  # a brand on the everyday lists
    ("soy ana de vodafone", "vodafone", "es"),
    ("hi this is dave from british gas", "british gas", "en"),
    ("this is dave from tesco how can i help", "tesco", "en"),
])
def test_the_company_an_agent_names_after_their_own_name_is_an_organisation(text, org, language):
    assert org in orgs(text, language)


@pytest.mark.parametrize("text,language", [
    ("le atiende carmen de la torre", "es"),  # a surname's particle
    ("soy carmen de madrid", "es"),  # a place
    ("soy laura de atención al cliente", "es"),  # a department
    ("soy marta de facturación", "es"),
    ("this is sarah from leeds", "en"),
    ("this is tom from accounts", "en"),
    ("this is tom from upstairs", "en"),
])
def test_a_surname_place_or_department_after_an_agents_name_is_no_company(text, language):
    assert orgs(text, language) == []


@pytest.mark.parametrize("text,org", [("the bank of england raised rates", "the bank of england"),
                                      ("bank of america sent me a letter", "bank of america")])
def test_a_body_of_a_place_said_aloud_ends_with_the_place(text, org):
    """"the bank of england raised rates" was one organisation: said, nothing ends the name but a place
    of the list does."""
    from redactdesk.detect.pipeline import detect_texts

    got = [text[s["start"]:s["end"]] for s in detect_texts([text], "en")[0] if s["category"] == "ORGANIZATION"]
    assert got == [org], got
