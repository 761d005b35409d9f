"""Written text over lines (a letter's signature, a form, an address block): a line ends a name, firm or
place; an address runs on over its lines."""

import pytest

from redactdesk.detect.pipeline import detect_texts


def spans(text):
    return [(text[s["start"]:s["end"]], s["category"]) for s in detect_texts([text], "en")[0]]


@pytest.mark.parametrize("text,expected", [
    ("Best regards,\nJohn Smith\nAcme Corporation\nPhone: 555-0132",
     [("John Smith", "PERSON"), ("Acme Corporation", "ORGANIZATION")]),
    ("Hello Anna\nRoom 12 is free", [("Anna", "PERSON")]),
])
def test_a_line_ends_a_name_or_firm(text, expected):
    got = spans(text)
    for item in expected:
        assert item in got
    assert not any("\n" in t for t, c in got if c != "ADDRESS")


def test_a_form_field_label_is_no_part_of_its_value():
    got = spans("Name: Anna Kowalski\nCity: Springfield\nEmployer: Google")
    assert ("Anna Kowalski", "PERSON") in got
    assert ("Springfield", "CITY") in got
    assert ("Google", "ORGANIZATION") in got
    assert not any("City" in t or "Employer" in t or "\n" in t for t, _ in got)


def test_a_name_wrapped_over_two_lines_is_still_covered():
    text = "I will meet with John\nSmith tomorrow."
    got = spans(text)
    covered = {i for t, c in got if c == "PERSON" for i in range(text.index(t), text.index(t) + len(t))}
    assert all(i in covered for i in range(text.index("John"), text.index("John") + 4))
    assert all(i in covered for i in range(text.index("Smith"), text.index("Smith") + 5))


def test_an_address_block_stays_one_item_over_its_lines():
    text = "Ship to:\n12 Main Street\nSpringfield, IL 62704\nUSA"
    assert ("12 Main Street\nSpringfield, IL 62704\nUSA", "ADDRESS") in spans(text)


@pytest.mark.parametrize("text,address", [
    ("Invoice to:\nMüller GmbH\nAttn: Klaus Wagner\nFriedrichstraße 112\n10117 Berlin",
     "Friedrichstraße 112\n10117 Berlin"),  # the name on the line above is none of the street's
    ("Ship to:\n268 Smith Place\nRD 7\nHendersonstone 4129\nThanks",
     "268 Smith Place\nRD 7\nHendersonstone 4129"),  # New Zealand's rural delivery on its own line
])
def test_an_address_block_starts_and_ends_on_its_lines(text, address):
    assert (address, "ADDRESS") in spans(text)


def test_a_form_label_alone_is_no_item():
    got = spans("Patient: Rajesh Kumar Iyer\nDOB: 12 Aug 1979\nMRN: 00482913")
    assert ("Rajesh Kumar Iyer", "PERSON") in got
    assert not any(t.rstrip(":") in ("Patient", "DOB", "MRN") for t, _ in got)


def test_a_record_of_fields_separated_by_bars_keeps_each_field_apart():
    got = spans("Name: Tomasz | City: Gdansk | Employer: Orlen")
    assert ("Tomasz", "PERSON") in got
    assert not any("|" in t for t, _ in got)


def test_an_email_in_angle_brackets_is_the_address_alone():
    got = spans("From: Laura Bennett <laura.bennett@example.org>")
    assert ("laura.bennett@example.org", "EMAIL") in got


def test_a_csv_row_is_read_field_by_field():
    text = "id,name,email,phone,city\n1042,Oluwaseun Adeyemi,seun.adeyemi@mail.ng,+234 803 555 0199,Lagos"
    got = spans(text)
    assert ("Oluwaseun Adeyemi", "PERSON") in got
    assert ("seun.adeyemi@mail.ng", "EMAIL") in got
    assert ("+234 803 555 0199", "PHONE") in got
    assert any(t == "Lagos" for t, _ in got)


def test_a_number_with_a_thousands_comma_stays_one_word():
    from redactdesk.detect.pipeline import word_offsets

    text = "2,500 EUR, 1,2 and Smith,John"
    assert [text[a:b] for a, b in word_offsets(text)] == ["2,500", "EUR,", "1,2", "and", "Smith,", "John"]


@pytest.mark.parametrize("email", ["seun.adeyemi@mail.ng", "ana.kaya@firma.com.tr", "bob@uni.ac.za"])
def test_a_written_email_of_any_country_domain_is_an_email(email):
    assert (email, "EMAIL") in spans(f"Write to {email} today")


def test_a_spoken_email_keeps_to_the_known_domains():
    assert not any(c == "EMAIL" for _, c in spans("send it to john at gmail dot ng please"))


@pytest.mark.parametrize("url", ["www.hospital.ng", "https://kliniken.example.co.za/x"])
def test_a_written_web_address_with_its_www_or_scheme_takes_any_country_domain(url):
    assert (url, "URL") in spans(f"Visit {url} for details.")


def test_a_bare_dotted_word_of_an_unlisted_domain_is_no_web_address():
    assert not any(c == "URL" for _, c in spans("He lived on St.Louis road, see No.5 and fig.ng later."))


@pytest.mark.parametrize("newline", ["\r\n", "\r", "\u2028"])
def test_every_kind_of_line_end_ends_a_line(newline):
    text = newline.join(["Best regards,", "John Smith", "Acme Corporation"])
    got = spans(text)
    assert ("John Smith", "PERSON") in got
    assert ("Acme Corporation", "ORGANIZATION") in got


@pytest.mark.parametrize("text,expected", [
    # the cased tagger read the words without their punctuation and joined two speakers' names
    ("Interviewer: When did you first meet Professor Okafor? Dr. Lindqvist: It was in Uppsala.",
     [("Professor Okafor", "PERSON"), ("Dr. Lindqvist", "PERSON")]),
    # the walk after a title ran over the full stop
    ("I saw Dr. Smith. Jones was there too.", [("Dr. Smith", "PERSON"), ("Jones", "PERSON")]),
    # a title's abbreviation is no sentence's end
    ("This is Dr. Ana de la Cruz speaking.", [("Dr. Ana de la Cruz", "PERSON")]),
])
def test_a_sentence_end_inside_a_name_ends_it(text, expected):
    got = spans(text)
    for item in expected:
        assert item in got, got


@pytest.mark.parametrize("text,person,other", [
    ("He met J. R. R. Tolkien at Oxford.", "J. R. R. Tolkien", "Oxford"),
    ("Ask Maria in Accounts about it.", "Maria", None),
])
def test_in_cased_writing_a_preposition_between_capitals_ends_a_person(text, person, other):
    """The cased tagger gave the person "J. R. R. Tolkien at Oxford"."""
    got = spans(text)
    assert (person, "PERSON") in got, got
    assert not any(" at " in t or " in " in t for t, _ in got), got
    if other:
        assert any(t == other for t, _ in got), got


def test_a_person_may_hold_of_and_and_between_capitals():
    assert ("Catherine of Aragon", "PERSON") in spans("Catherine of Aragon married Henry.")


def test_a_timed_transcripts_full_stops_cut_no_name():
    """ASR puts full stops inside names ("Leonor. Palomino"): in a transcript with word times the
    taggers' and the cues' names run over them; in written text they end the name."""
    from redactdesk.detect.pipeline import detect_docs
    from redactdesk.detect.sources import DetectDoc

    words = "I saw Dr. Smith. Jones was there too.".split()
    timed = DetectDoc.from_words(words, starts=[float(k) for k in range(len(words))],
                                 ends=[k + 0.5 for k in range(len(words))])
    got = [" ".join(words[s.start_word:s.end_word]) for s in detect_docs([timed])[0] if s.category == "PERSON"]
    assert "Dr. Smith. Jones" in got, got
