"""A run of digits is read as a phone number by its digits only where its groups are a phone's."""

from redactdesk.detect.pipeline import detect_texts
from redactdesk.detect.written_phones import find_phones, grouped_as_phone


def spans(text):
    (found,) = detect_texts([text], "en")
    return [(text[s["start"]:s["end"]], s["category"]) for s in found]


def test_digits_grouped_as_a_phone_somewhere_are_judged_phones():
    for raw in ("415-555-0132", "415 555 0132", "(415) 555-0132", "+44 20 7946 0958", "4155550132",
                "four one five five five five zero one three two"):
        assert grouped_as_phone(raw, "US"), raw


def test_a_brazilian_postcode_is_no_phone_by_its_digits():
    """"13100-000" is a valid North-American number as digits; no one writes a phone in 5-3 groups."""
    assert not grouped_as_phone("13100-000", "US")
    assert find_phones("The CEP is 13100-000.", "US") == []


def test_an_address_ending_in_such_a_postcode_stays_one_item():
    text = "Ship to Fazenda Boa Vista, 120 - Zona Rural, Campinas - SP, 13100-000"
    assert spans(text) == [("Fazenda Boa Vista, 120 - Zona Rural, Campinas - SP, 13100-000", "ADDRESS")]


def test_the_same_digits_after_a_phone_word_stay_a_phone_and_alone_stay_flagged():
    assert ("13100-000", "PHONE") in spans("Call me at 13100-000 tomorrow")
    assert any(t == "13100-000" for t, _ in spans("My number is 13100-000"))  # a reference still: fail closed


def test_a_numbers_decimals_are_no_phone():
    """"Pi is 3.14159265358": the phone matcher took the eleven decimals after the point."""
    assert find_phones("Pi is 3.14159265358.", "US") == []
    assert spans("Pi is 3.14159265358.") == []
    assert ("555.123.4567", "PHONE") in spans("Call 555.123.4567 today.")


def test_phones_listed_without_a_space_after_the_comma_are_covered_whole():
    """"0958,020" was one word of no number: the digits between the two phones stayed in the text."""
    text = "Phones: 020 7946 0958,020 7946 0959"
    (found,) = detect_texts([text], "en")
    covered = {i for s in found for i in range(s["start"], s["end"])}
    assert all(i in covered for i, c in enumerate(text) if c.isdigit())
    assert spans("We sold 11,000 units.") == []  # thousands stay a quantity


def test_an_international_call_prefix_written_for_the_plus_is_a_phone():
    """"call 0049 30 1234567" was a 13-digit reference: the prefix "00" (or North America's "011")
    dials abroad as "+" does. A reference that opens with zeros stays one."""
    for text, phone in (("Visit us or call 0049 30 1234567.", "0049 30 1234567"),
                        ("dial 011 44 20 7946 0958 now", "011 44 20 7946 0958")):
        assert (phone, "PHONE") in spans(text)
    assert [c.category for c in find_phones("Call 0049 30 1234567.", "US")] == ["PHONE"]
    assert ("0012345678", "GENERIC_ID") in spans("the order is 0012345678")


def test_digits_said_with_a_call_prefix_are_a_valid_phone():
    from redactdesk.detect.validators import phone_check

    assert phone_check("0049301234567", "US") == (True, True)  # "zero zero four nine three zero ..."
    assert phone_check("011442079460958", "US")[0]
    assert not phone_check("0012345678", "US")[0]


def test_digits_said_right_after_a_verb_of_calling_are_a_phone():
    """"call five five five one two three four" was a reference (GENERIC_ID): its surrogate an account
    number where a number to dial was said. The verb counts only right before the digits."""
    assert spans("call five five five one two three four") == [("five five five one two three four", "PHONE")]
    assert spans("ring us on oh one six one four nine six oh nine two one") == [
        ("oh one six one four nine six oh nine two one", "PHONE")]
    # a call mentioned earlier in the sentence says nothing of the account number after it
    assert spans("i got a call about account four four seven two one nine three") == [
        ("four four seven two one nine three", "GENERIC_ID")]


def test_spanish_digits_said_after_a_verb_of_calling_are_a_phone():
    (found,) = detect_texts(["llame al nueve uno dos tres cuatro cinco seis siete ocho"], "es")
    assert [s["category"] for s in found] == ["PHONE"]
    (found,) = detect_texts(["mi cuenta es la nueve uno dos tres cuatro cinco seis siete ocho"], "es")
    assert [s["category"] for s in found] == ["GENERIC_ID"]
