"""Street addresses as one item, in the orders of several countries, written and spoken."""

import pytest

from redactdesk.detect.gazetteer import match_lists
from redactdesk.detect.sources import DetectDoc


def found(text, lang="en"):
    doc = DetectDoc.from_words(text.split(), lang)
    return [(" ".join(doc.words[h.start_word:h.end_word]).rstrip(".,"), h.category)
            for h in sorted(match_lists(doc), key=lambda h: h.start_word)]


def addresses(text, lang="en"):
    return [t for t, c in found(text, lang) if c == "ADDRESS"]


@pytest.mark.parametrize("address", [
    "123 Main St, Springfield, IL 62704",  # US
    "1600 Pennsylvania Avenue NW, Washington, DC 20500, USA",
    "Apt. 864, 5 Main St",
    "Flat 2, 10 Downing Street, London SW1A 2AA",  # UK
    "PO Box 1234, Toronto, ON M5V 2T6, Canada",  # Canada
    "Hauptstraße 5, 10115 Berlin, Germany",  # Germany
    "Calle Mayor 12, 3º B, 28013 Madrid",  # Spain
    "Avda. de la Constitución, 5, 41001 Sevilla",
    "C/ Mayor, 12, piso 3, puerta 2, 28013 Madrid",
    "12 rue de la Paix, 75002 Paris",  # France
    "Via Roma 10, 00184 Roma RM, Italia",  # Italy
    "Keizersgracht 123, 1015 CJ Amsterdam",  # Netherlands
    "Rua Augusta 100, 1100-053 Lisboa, Portugal",  # Portugal
    "ul. Marszałkowska 1, 00-950 Warszawa",  # Poland
    "Drottninggatan 7, 111 51 Stockholm",  # Sweden
    "PSC 0413, Box 8144, APO AE 12345",  # US military
    "Unit 4523 Box 123, DPO AE 09123",
    "USNS Kirby, FPO AA 12345",
])
def test_written_addresses_are_one_item(address):
    assert addresses(f"Please send it to {address}. Thanks!") == [address]


def test_spoken_address_with_unit_and_town():
    assert addresses("i live at twelve baker street apartment four london") == [
        "twelve baker street apartment four london"]
    assert addresses("vivo en calle mayor doce piso tres madrid", "es") == ["calle mayor doce piso tres madrid"]


def test_street_name_without_number():
    assert found("She lives on Victoria Street now.") == [("Victoria Street", "ADDRESS")]
    assert addresses("we met on baker street") == ["baker street"]


def test_town_alone_stays_a_city_and_look_alikes_are_no_address():
    assert found("She moved to Springfield last year.") == [("Springfield", "CITY")]
    for text in ("what is the square root of forty two", "I have 3 main points to make.",
                 "the street was empty", "He scored 12 goals in 5 games."):
        assert addresses(text) == [], text
