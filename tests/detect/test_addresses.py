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
    "USCGC Jackson, FPO AP 68193",  # a Coast Guard cutter
])
def test_written_addresses_are_one_item(address):
    assert addresses(f"Please send it to {address}. Thanks!") == [address]


def test_spoken_address_with_unit_and_town():
    assert addresses("i live at twelve baker street apartment four london") == [
        "twelve baker street apartment four london"]
    assert addresses("vivo en calle mayor doce piso tres madrid", "es") == ["calle mayor doce piso tres madrid"]


@pytest.mark.parametrize("text,address", [
    ("i live at two hundred west fifty seventh street new york", "two hundred west fifty seventh street new york"),
    ("send it to four hundred east forty second street", "four hundred east forty second street"),
    ("it's three fifty fifth avenue", "three fifty fifth avenue"),
])
def test_a_numbered_street_said_aloud_is_one_address(text, address):
    """Written, "200 West 57th Street" was an address; said, its ordinal's number words were
    function words to the street's name and the house number and the street were nothing."""
    assert addresses(text) == [address]


def test_street_name_without_number():
    assert found("She lives on Victoria Street now.") == [("Victoria Street", "ADDRESS")]
    assert addresses("we met on baker street") == ["baker street"]
    # a numbered street: the ordinal stands where a capital would
    assert addresses("just saw her at Starbucks on 5th Ave") == ["5th Ave"]
    # after "the corner of", both streets: where they meet is the place
    assert addresses("We met at the corner of 42nd Street and Broadway.") == ["42nd Street and Broadway"]
    assert addresses("we live on the 3rd Floor of the building") == []


@pytest.mark.parametrize("text,address", [
    ("We met at a Starbucks on Queen Street West in Toronto.", "Queen Street West"),
    ("we met at a starbucks on queen street west in toronto", "queen street west"),
])
def test_a_named_street_keeps_its_quarter(text, address):
    """"Queen Street West" without a house number lost "West": left in the text, it says which part."""
    assert addresses(text) == [address]


def test_a_direction_said_after_a_street_in_lower_case_is_no_part_of_it():
    assert addresses("I walked down Main Street west of the river.") == ["Main Street"]


def test_town_alone_stays_a_city_and_look_alikes_are_no_address():
    assert found("She moved to Springfield last year.") == [("Springfield", "CITY")]
    for text in ("what is the square root of forty two", "I have 3 main points to make.",
                 "the street was empty", "He scored 12 goals in 5 games."):
        assert addresses(text) == [], text


@pytest.mark.parametrize("address", [
    # the long tail of street types (USPS Publication 28), written with capitals
    "0181 Aguilar Parkways, North Christopher, MT 09657",
    "91390 Williams Forges Apt. 824, Thomasville, OK 40934",
    "8932 Soto Underpass Apt. 174, North Amanda, FM 91391",
    # British flats number the flat, not the building
    "Flat 39w, Mann Stream, Julieland, E37 5HU",
    "Studio 88J, Leonard Coves, East Karlview, E8 8AD",
    # Australian: flat/house numbers, road types, state codes that are also towns elsewhere
    "Flat 14 10 Holland Subway, Mitchellfurt, TAS, 2075",
    "797/43 Holly Expressway, New Aliciamouth, WA, 2929",
    "01 Michael Brace, North Christopher, VIC, 2331",
    # Spanish, Italian, Dutch, German, Portuguese, French shapes
    "Pasadizo de Sancho Nicolau 63, Ávila, 48326",
    "Urbanización Cipriano Rodriguez 2 Apt. 90 , Almería, 15488",
    "Strada Tatiana, 369 Piano 7, 42023, Cadelbosco Di Sopra (RE)",
    "Lizzyhof 2, 8516 ZV, Chaam",
    "Linkeplatz 65/11, 87706 Osterode am Harz",
    "Largo de Brito, S/N, 6785-025 São João da Madeira",
    "rue Stéphane Charrier, 30882 Germain-sur-Poirier",
    "Privada Nuevo León 400 Edif. 390 , Depto. 266, Vieja Zambia, SON 95136",
])
def test_addresses_of_many_countries_are_one_item_with_their_town_and_postcode(address):
    assert addresses(f"Please send it to {address}. Thanks!") == [address]


def test_the_long_tail_of_street_types_needs_capitals_and_a_house_number():
    # in speech (or lower case) these are everyday words: no address
    for text in ("we saw two big mountains", "i counted 5 green lights on the way", "there were 3 small keys",
                 "She has 3 Siblings and 2 Brothers.", "turn left at the Old Mill"):
        assert addresses(text) == [], text
    # a number before a street type that is also an everyday word is no French-style address in speech
    for text in ("i need two place settings", "i drew two diagonal lines on the page", "we have three sector reports",
                 "I drew 2 diagonal lines on the page."):
        assert addresses(text) == [], text
    assert addresses("she lives at twelve rue de la paix") == ["twelve rue de la paix"]


@pytest.mark.parametrize("text, address", [
    # house numbers as people say them: in pairs, digit by digit, as one number
    ("it's ninety four sixteen amy avenue in chicago", "ninety four sixteen amy avenue"),
    ("six one three five gomez road apartment one a miami", "six one three five gomez road apartment one a miami"),
    ("i live at one twenty three main street apartment four b in boston zip oh two one one oh",
     "one twenty three main street apartment four b"),
    # a long-tail street type said aloud, then unit, town (led by an everyday "port"), state, postcode
    ("send it to forty two kelly shores suite three hundred port daniel qld four thousand and twelve thanks",
     "forty two kelly shores suite three hundred port daniel qld four thousand and twelve"),
    # British, Canadian and Dutch postcodes said as letters and numbers
    ("my address is flat nine carter mews west hollyton s w one a two a a please",
     "flat nine carter mews west hollyton s w one a two a a"),
    ("three hundred bay street toronto on m five j two n one", "three hundred bay street toronto on m five j two n one"),
    ("kerkstraat twelve one thousand and fifteen c j amsterdam", "kerkstraat twelve one thousand and fifteen c j amsterdam"),
    # a Portuguese postcode said digit by digit; an Italian province after the town; a foreign street word
    ("rua das flores ninety one four seven zero three four eight four braga",
     "rua das flores ninety one four seven zero three four eight four braga"),
    ("piazza garibaldi two hundred and thirty eight sixteen thousand and thirty two genova ge",
     "piazza garibaldi two hundred and thirty eight sixteen thousand and thirty two genova ge"),
    ("it is alameda dos anjos forty two lisboa", "alameda dos anjos forty two lisboa"),
    # the word after a town's particle is the town's, everyday or not ("mer" of "sur mer")
    ("i moved to fifty one rue hamon twenty seven thousand seven hundred and fifty nine pereira sur mer last year",
     "fifty one rue hamon twenty seven thousand seven hundred and fifty nine pereira sur mer"),
    # a street word that is also an everyday Spanish word, before "de": a street in speech too
    ("please send it to pasaje de baudelio fernández twenty five burgos seventeen thousand three hundred "
     "and eighty five", "pasaje de baudelio fernández twenty five burgos seventeen thousand three hundred and "
     "eighty five"),
    # "via", an English word too, is an Italian street in speech when a postcode follows the house number
    ("the invoice goes to via capecchi two hundred and seventy thirty four thousand and fifteen muggia ts thanks",
     "via capecchi two hundred and seventy thirty four thousand and fifteen muggia ts"),  # the province, then "thanks"
    # "s/n" (no house number) read aloud as letters: the digits after it are the postcode
    ("please send it to rua brito s n five seven one nine two seven seven estarreja",
     "rua brito s n five seven one nine two seven seven estarreja"),
    # a town of four words besides its particle
    ("send it to praça sofia araújo eighty one three eight zero seven four five six vila nova de santo andré thanks",
     "praça sofia araújo eighty one three eight zero seven four five six vila nova de santo andré"),
    # a flat's number of several words before the house number
    ("apt five hundred and fifty ninety two ryan formation west richardstad wa two thousand six hundred and forty seven",
     "apt five hundred and fifty ninety two ryan formation west richardstad wa two thousand six hundred and forty seven"),
    # speech runs the house number into the postcode: the house ends where the rest reads as one
    ("ship it to kerkweg twelve thirty one forty five kl zwolle please",  # 12, 3145 KL
     "kerkweg twelve thirty one forty five kl zwolle"),
    ("send it to travessa do sol three four one zero two six six six viseu thanks",  # 3, 4102-666
     "travessa do sol three four one zero two six six six viseu"),
    # an everyday street word said ("pasaje", "cuesta") counts with a door or a town and postcode after the number
    ("ship to pasaje aurora twenty two sevilla forty one thousand and three thanks",
     "pasaje aurora twenty two sevilla forty one thousand and three"),
    ("send it to cuesta rosales twelve puerta three madrid twenty eight thousand and four",
     "cuesta rosales twelve puerta three madrid twenty eight thousand and four"),
    # a town's article after the postcode belongs to the town
    ("ship to eight rue haute forty five thousand and ten los morales thanks",
     "eight rue haute forty five thousand and ten los morales"),
    # "zero five" is one number of the normaliser, still a digit a word
    ("the address is rua do carmo s n four one two three four zero five porto",
     "rua do carmo s n four one two three four zero five porto"),
])
def test_spoken_addresses_are_one_item_with_their_tail(text, address):
    assert addresses(text) == [address]


@pytest.mark.parametrize("text", [
    "i was born in nineteen eighty four in lake charles",  # a year, then a town with a street-type word
    "i moved to twelve oak lane last year",  # "last year" is no town after the street
    "send it via email two times",  # "via" is an English word: no Italian street in speech
    "the meeting is on floor two of building nine thanks",
    "order two big boxes and three crates on monday",
    "he flew in via de gaulle airport at two",  # "via de" with no house number after the name
    "we drove via paris two hundred people came",  # a town after "via", no postcode
    "take the place of mary three times madrid wins",  # a town after the number, no postcode after it
    "my card is expiring 09 27",  # an everyday word that ends like a glued street type ("-ring")
    "we are offering 5 seats and gathering 12 people",
])
def test_spoken_look_alikes_are_no_address_or_stop_where_the_address_does(text):
    assert addresses(text) in ([], ["twelve oak lane"])


@pytest.mark.parametrize("address", [
    "12, High Street, Leeds LS1 4AB",  # a comma after the house number (British and Indian style)
    "69, Bandi Chowk, Panvel 150211",  # Indian street types, the 6-digit PIN after the town
    "707, Vig Zila, Aurangabad 891225",
    "22, Kari Road, Jhansi-836791",  # the town and its PIN in one word
    "69 Johnson Ground, Bensonstad, ACT, 2631",  # Australian road types (AS/NZS 4819)
    "585 James Corso, Brianchester, ACT, 2619",
    "H.No. 25, Sandhu Nagar, Amaravati 428942",  # "H.No." opens the house number (and is no domain)
    "48 Stevenson Quay, RD 10, Whangaawa 9611",  # New Zealand's rural delivery
])
def test_indian_british_and_australian_writing_of_addresses(address):
    assert addresses(f"Please send it to {address} as soon as possible.") == [address]


@pytest.mark.parametrize("text", ["I have 3, Main concerns about it.", "Call me at 22, Kari said.",
                                  "The Red Line is late."])
def test_numbers_and_names_that_only_look_like_such_addresses(text):
    assert addresses(text) == []


def test_a_forms_label_is_no_part_of_the_address():
    """"Address: Flat 22" read as the street "Address", type "Flat", number 22."""
    from redactdesk.detect.pipeline import detect_texts

    text = "Address: Flat 22, 10 Patricia Court, North Jemma, TN21 4FN"
    (spans,) = detect_texts([text], "en")
    assert [(text[s["start"]:s["end"]], s["category"]) for s in spans] == [(text[9:], "ADDRESS")]


@pytest.mark.parametrize("text,address", [
    ("The office: 1 Main St, Cork T12 XHT3", "1 Main St, Cork T12 XHT3"),  # "office" was a flat's word
    ("Department: 4 Elm Road, Leeds", "4 Elm Road, Leeds"),
])
def test_a_unit_word_written_as_a_label_is_no_part_of_the_address(text, address):
    assert addresses(text) == [address]


@pytest.mark.parametrize("text,address", [
    ("He lives at 14 Herbert Street, Dublin 4, D04 X2Y3, Ireland.", "14 Herbert Street, Dublin 4, D04 X2Y3, Ireland"),
    ("He lives at 14 Herbert Street, Dublin 6W.", "14 Herbert Street, Dublin 6W"),
    ("She moved to 3 Oak Road, Leeds 2 years ago.", "3 Oak Road, Leeds"),  # a count, no district
])
def test_a_towns_postal_district_is_part_of_the_address(text, address):
    assert addresses(text) == [address]


@pytest.mark.parametrize("text,address", [
    ("i live at 5 the green, chipping norton ox7 5nh", "5 the green, chipping norton ox7 5nh"),
    ("ship to 88 rue sainte-catherine, montreal qc h2x 1k4", "88 rue sainte-catherine, montreal qc h2x 1k4"),
    ("its 10 downing st, london sw1a 2aa", "10 downing st, london sw1a 2aa"),
])
def test_an_address_typed_in_lower_case_runs_on_to_its_postcode(text, address):
    """Chats are typed in lower case: the postcode's halves were read in capitals only, so the
    address ended at its town or street and the code and an unlisted town went out."""
    assert addresses(text) == [address]


@pytest.mark.parametrize("text,address", [
    ("He lives at 400 Main St., Austin, Tex., with his wife.", "400 Main St., Austin, Tex"),
    ("Send it to 12 Oak St., Springfield, Ill. 62704 please.", "12 Oak St., Springfield, Ill. 62704"),
    ("He lived at 12 Oak St., Springfield, Ill. 2019 was a good year.", "12 Oak St., Springfield, Ill"),
])
def test_a_us_state_written_short_as_newspapers_do_is_part_of_the_address(text, address):
    assert addresses(text) == [address]


@pytest.mark.parametrize("text,address", [
    ("lives at 77 Harbour View, Auckland 1010.\nBest regards,\nLaura", "77 Harbour View, Auckland 1010"),
    ("Please send it to:\n123 Main St.\nSpringfield, IL 62704\nThanks", "123 Main St.\nSpringfield, IL 62704"),
])
def test_a_postcode_and_its_point_at_a_line_end_end_the_address(text, address):
    """The sign-off on the next line ("Best") was read as the town after the postcode."""
    from redactdesk.detect.pipeline import detect_texts

    got = [text[s["start"]:s["end"]] for s in detect_texts([text], "en")[0] if s["category"] == "ADDRESS"]
    assert got == [address]


def test_a_military_address_is_not_a_foreign_tax_number():
    """"9420 APO AA 90324" is a valid Brazilian CNPJ: it beat the address it is part of."""
    from redactdesk.detect.pipeline import detect_texts

    for text in ("Address: PSC 7428, Box 9420, APO AA 90324", "Send it to PSC 7428, Box 9420\nAPO AA 90324 please"):
        (spans,) = detect_texts([text], "en")
        assert [s["category"] for s in spans] == ["ADDRESS"], spans
        assert text[spans[0]["start"]:spans[0]["end"]].startswith("PSC 7428")


@pytest.mark.parametrize("text,date", [
    ("on april twenty six nineteen ninety the court issued the ruling", "april twenty six nineteen ninety"),
    ("since march twelve high street has been closed", "march twelve"),
])
def test_a_day_after_a_month_is_a_date_not_a_house_number(text, date):
    from redactdesk.detect.pipeline import detect_texts

    found = [(text[s["start"]:s["end"]], s["category"]) for s in detect_texts([text], "en")[0]]
    assert (date, "DATE") in found and not any(c == "ADDRESS" for _, c in found), found


def test_a_house_number_then_the_court_stays_an_address():
    from redactdesk.detect.pipeline import detect_texts

    text = "i live at twenty six the court"
    assert [(text[s["start"]:s["end"]], s["category"]) for s in detect_texts([text], "en")[0]] == [
        ("twenty six the court", "ADDRESS")]


def test_a_brazilian_cep_written_without_its_dash_ends_the_address():
    from redactdesk.detect.pipeline import detect_texts

    value = "Viela de Cirino, 42, Vila Copacabana, 21834062"
    text = f"Ship it to {value} please."
    assert any(text[s["start"]:s["end"]].startswith(value) and s["category"] == "ADDRESS"
               for s in detect_texts([text], "en")[0])


@pytest.mark.parametrize("value", [
    "77/053, Nigam, Sonipat-835060",
    "H.No. 994, Shankar, Jaunpur 622348",
    "98, Datta Nagar, Kalyan-Dombivli-636303",
])
def test_an_indian_address_with_localities_and_a_pin_is_one_item(value):
    from redactdesk.detect.pipeline import detect_texts

    text = f"Ship it to {value} please."
    found = [(text[s["start"]:s["end"]], s["category"]) for s in detect_texts([text], "en")[0]]
    assert (value, "ADDRESS") in found, found


@pytest.mark.parametrize("text", ["I scored 98, Rahul Kumar scored 75.", "Page 12, Chapter Four, was long."])
def test_a_number_then_capitalised_words_without_a_pin_is_no_address(text):
    from redactdesk.detect.pipeline import detect_texts

    assert not any(s["category"] == "ADDRESS" for s in detect_texts([text], "en")[0])


@pytest.mark.parametrize("address", [
    # Colombia's grid: the street's number, "#" or "No.", the plate (cross street - metres)
    "Carrera 7 # 71-21, Bogotá",
    "Calle 26 #13-19, Oficina 401, Bogotá D.C",
    "Cra. 15 No. 93-60 Sur, Torre 2, Medellín",
    "Av. Calle 26 N° 69-76, Bogotá",
    "Diagonal 40A Bis # 20-15",
    "Carrera 5ª # 8-1 Sur, 688563, Barbosa, Santander",
    "Av. Elvira Moreno # 7-6 Este, Apto. 56, Cali",
    "Calle 10 # 5-51, Barrio La Candelaria, Bogotá",
    # Mexico: colonia, C.P., a state written short or in capitals; a street named after a date
    "Calle 5 de Mayo 32, Col. Centro, C.P. 68000, Oaxaca, Oax",
    "Calle Hidalgo 45, Col. Centro, 44100 Guadalajara, Jal",
    "Blvd. Díaz Ordaz 130 Pte., Col. Santa María, 64650 Monterrey, N.L",
    # Argentina: the number sign before the house number, initials in the street's name
    "Avenida 7 N° 329 Dto. 1, San Miguel de Tucumán 4000, Tucumán",
    "Av. J.M. de Rosas N° 113, Córdoba 5000, Córdoba",
    # Brazil and Peru: a district the lists do not know before the town they know
    "Rua Voluntários da Pátria, 190, Botafogo, Rio de Janeiro - RJ, 22270-010",
    "Rua das Laranjeiras, 45, Bairro Os Anjos, Porto Alegre - RS, 90000-000",
    "Av. Javier Prado Este 4200, Santiago de Surco, Lima 15023",
    "Av. Universidad 1200, Col. Centro, 66400 San Nicolás de los Garza, N.L",  # two small words in a town
    # Chile: a region labelled after the town, a postcode of seven digits, an office written short
    "Pasaje Las Rosas 82, Ñuñoa, Región Metropolitana, 7019470",
    "Avda. Los Alerces 945 Of. 1315, Nancagua, Región del Maule",
    # a road and the kilometre on it
    "Ruta 5 Sur, km 42, Región de Los Ríos",
    "Ruta T-88, km 24",
    "Rodovia BR-116, km 23, Curitiba - PR",
])
@pytest.mark.parametrize("lang", ["es", "en"])
def test_latin_american_addresses_are_one_item(address, lang):
    assert addresses(f"Envíelo a {address}. Gracias" if lang == "es" else f"Please send it to {address}. Thanks",
                     lang) == [address]


@pytest.mark.parametrize("text,lang", [
    ("La Carrera 7 estará cerrada el domingo.", "es"),  # a grid street with no sign and plate
    ("Ganó la carrera 7 de 10.", "es"),
    ("The score was 71-21 in game 7 # 2.", "en"),
    ("Llegó el 5 de mayo a la oficina 4.", "es"),
    ("Calle 26 is closed today.", "en"),
    ("La Ruta 5 estuvo cortada en el km 42 ayer.", "es"),  # the road and its kilometre apart
    ("I have 5 Of. them", "en"),
])
def test_grid_and_date_look_alikes_are_no_address(text, lang):
    assert addresses(text, lang) == []


@pytest.mark.parametrize("text,address", [
    ("vivo en la carrera siete numero setenta y uno veintiuno en bogota", "carrera siete numero setenta y uno veintiuno"),
    ("mi dirección es calle veintiséis número trece guion diecinueve oficina cuatrocientos uno",
     "calle veintiséis número trece guion diecinueve oficina cuatrocientos uno"),
    ("es avenida calle veintiséis número sesenta y nueve setenta y seis sur",
     "avenida calle veintiséis número sesenta y nueve setenta y seis sur"),
    ("calle cuarenta a bis número veinte quince", "calle cuarenta a bis número veinte quince"),
])
def test_a_grid_address_said_aloud_is_one_item(text, address):
    assert addresses(text, "es") == [address]


@pytest.mark.parametrize("text", ["ganó la carrera siete número dos", "en la carrera siete número dos ganó juan"])
def test_a_race_and_its_number_are_no_grid_address(text):
    assert addresses(text, "es") == []


@pytest.mark.parametrize("address", [
    # a street named with no type word: the postcode and town after the comma are the evidence
    "Pobřežní 3, 216 72 Telč",
    "Nad Návsí 146, 626 37 Olešnice",
    "Klouzková 7, 302 02 Újezd u Brna",  # small words of a Czech town's name
    "Adélčina 6, 232 28 Kynšperk nad Ohří",
    "Rasmussenringen 6A, 5818 Tomberg",
    "Gunnel Nymanin katu 167, 92194 Inkoo",
    # Polish and Hungarian types: "pl." before the name; "utca", "út" after it in lower case
    "pl. Kościuszki 25/33, 59-704 Bolesławiec",
    "Dunaújvárosi utca 38., H-4221 Ózd",
])
def test_central_and_northern_european_addresses_are_one_item(address):
    assert addresses(f"Please send it to {address}. Thanks") == [address]


def written_addresses(text):
    from redactdesk.detect.pipeline import detect_texts

    return [text[s["start"]:s["end"]] for s in detect_texts([text], "en")[0] if s["category"] == "ADDRESS"]


@pytest.mark.parametrize("address", [
    # a letter or form writes the street on one line and the postcode and town on the next, with no comma
    "Podléšková 880\n730 21 Mníšek pod Brdy",
    "Zálesí 14\n551 45 Morkovice-Slížany",
    "Gadolininpolku 9\n25481 Multia",
    "Rasmussenringen 6A\n5818 Tomberg",
    "Na Zlatej nohe 12\n905 60 Močiar",  # named by where it lies: lower-case words after "Na"
    "Na paši 3\n821 52 Chminianska Nová Ves",
    "H.No. 468\nKarnik\nVadodara 455944",  # India: house, locality and town with its PIN, a line each
])
def test_a_street_without_type_word_over_two_lines_is_one_item(address):
    assert written_addresses(f"Ship to:\n{address}\nThanks") == [address]


@pytest.mark.parametrize("address", [
    # Chile: a street with no type word, an optional flat or office, the commune, then its region by label
    "Arturo Prat 658, Toltén, Región de La Araucanía, 1898930",
    "Santa Rosa 931 Piso 13\nCatemu, Región de Valparaíso, 2367380",
    "Los Aromos 533 Dpto. 720\nRancagua, Región del Libertador General Bernardo O'Higgins",
    "Mónica Aravena 6291\nCuracaví, Región Metropolitana",
    # the regions' official names run long and join with "y de la"
    "Calle Colo Colo 2760\nRío Verde, Región de Magallanes y de la Antártica Chilena",
    "Calle Mario Valencia 958, Coyhaique, Región de Aysén del General Carlos Ibáñez del Campo",
])
def test_a_chilean_street_without_type_word_before_a_commune_and_region_is_one_item(address):
    assert written_addresses(f"I live at {address}, near the station.") == [address]


@pytest.mark.parametrize("text", [
    "He played Game 7, Boston, Region 3 finals.",
    "Team Rocket 12, Lyon, Region wide results.",
])
def test_a_count_before_a_town_and_a_region_word_is_no_address(text):
    assert written_addresses(text) == []


def test_a_building_named_after_the_street_is_part_of_the_address():
    address = "Flat 12, Sea View Apartments, Bandra West, Mumbai 400050, India"
    assert written_addresses(f"Ship to: Aarav Sharma, {address}") == [address]
    assert written_addresses("We met at 12 Main Street House party last week.") == ["12 Main Street"]


def test_a_label_before_a_street_without_type_word_is_no_part_of_it():
    assert written_addresses("Address: Pobřežní 3, 216 72 Telč") == ["Pobřežní 3, 216 72 Telč"]


@pytest.mark.parametrize("text", [
    "Thanks Maria\nGame 7\n2016 World Series",
    "Chapter 3\n2160 Pages in total.",
    "We met U nás 5, 2016 was fun.",
])
def test_a_count_at_the_end_of_a_line_is_no_street_without_type(text):
    assert written_addresses(text) == []


@pytest.mark.parametrize("text", [
    "On January 24, 2004, Regions merged with Union Planters.",  # a date and a year, no house and postcode
    "Chapter 3, 2160 Pages in total.",
    "He pitched in Game 7, 2016 World Series.",
])
def test_a_date_or_a_count_before_a_comma_is_no_street_without_type(text):
    assert addresses(text) == []


@pytest.mark.parametrize("text, address", [
    ("Send it to 4521 Oak Ridge Drive, Apt 12B, Boulder, CO 80301, USA.",
     "4521 Oak Ridge Drive, Apt 12B, Boulder, CO 80301, USA"),
    ("She moved to 77 Park Lane Road, Leeds LS6 2AB last May.", "77 Park Lane Road, Leeds LS6 2AB"),
])
def test_a_street_name_ending_in_a_type_word_takes_the_type_after_it(text, address):
    assert addresses(text) == [address]


@pytest.mark.parametrize("address", [
    "Jardim das Flores, 45, Bairro Centro, Curitiba",
    "Trecho de Araújo, 196, Estrela Do Oriente, 82462-819 Novais da Serra / AM",
    "Fazenda Santa Rita, 12, Zona Rural, Campinas",
    "Viaduto Santa Ifigênia, 266, Centro, São Paulo",
])
def test_brazils_other_kinds_of_street_with_the_rest_of_the_address(address):
    assert address in addresses(f"Please send it to {address} as soon as possible.")


@pytest.mark.parametrize("text", [
    "We moved to Campo Grande, 2010 was a good year.",
    "Lago Maggiore 2019 was lovely.",
    "Our trip to Praia Grande 2 days later was fun.",
    "Feira de Santana, 2008 was the year she left.",
])
def test_a_town_or_sight_opened_by_such_a_word_and_a_number_is_no_address(text):
    assert addresses(text) == []


def test_a_dash_with_nothing_of_the_address_after_it_is_left_out():
    assert addresses("Avenida Paulista, 1578 - call me after six") == ["Avenida Paulista, 1578"]


def test_a_street_whose_name_holds_a_number_then_the_house_number_and_postcode():
    assert addresses("Address: Avenida da Expo 98, 860 1815-055 Vila Real de Santo António") == [
        "Avenida da Expo 98, 860 1815-055 Vila Real de Santo António"]
    assert addresses("I live at 12 Main Street, 45 people came") == ["12 Main Street"]


@pytest.mark.parametrize("address", [
    "Circunvalación Poniente 1200, Col. Centro, 44100 Guadalajara, Jal",
    "Ampliación Juárez 45, Col. Roma, 06700 Ciudad de México",
])
def test_mexicos_circunvalacion_and_ampliacion_open_a_street(address):
    assert address in addresses(f"Send it to {address}. please")


@pytest.mark.parametrize("text,address", [
    ("I live at 41 Kingsway, Manchester M19 2AB", "41 Kingsway, Manchester M19 2AB"),
    ("my old address was flat three forty one kingsway manchester m nineteen two a b",
     "flat three forty one kingsway manchester m nineteen two a b"),
    ("we're at nine broadway new york new york one zero zero zero four",
     "nine broadway new york new york one zero zero zero four"),
    # the town's province or state between it and the postcode
    ("Send the invoice to 1180 Kingsway, Vancouver, BC V5V 3C8.", "1180 Kingsway, Vancouver, BC V5V 3C8"),
    ("She lives at 77 Broadway, Cambridge, Massachusetts 02142.", "77 Broadway, Cambridge, Massachusetts 02142"),
])
def test_a_street_named_without_a_type_word_before_a_town_and_postcode_is_one_address(text, address):
    """"Kingsway", "Broadway": the type is glued into the name, and the house number (and the flat)
    went unflagged beside a town and a postcode."""
    assert address in addresses(text)


@pytest.mark.parametrize("text", [
    "he died on twenty eight june nineteen seventy eight at bournemouth",  # a date and a town
    "and won two stanley cups in one nine three eight one nine three nine",  # years said digit by digit
    "born 12 March 1987 in Leeds",
    "I bought 2 tickets Manchester M1 2AB",
    "we sold 3 units, London W1",
    "We had 3 kids, London, Ontario was home.",
])
def test_a_number_and_a_word_before_a_town_are_no_street_without_a_postcode_no_year_can_be(text):
    assert addresses(text) == []


def test_a_flat_with_its_letter_said_before_the_street_joins_the_address():
    """"apartment five b": the letter stood between the flat's number and the house number, and the
    flat went unflagged."""
    assert addresses("send it to apartment five b two twenty west end avenue") == [
        "apartment five b two twenty west end avenue"]


@pytest.mark.parametrize(("text", "address"), [
    ("i live in apartment twelve at the sunrise towers on oak street",
     "apartment twelve at the sunrise towers on oak street"),
    ("my address is unit five maple house forty two king street", "unit five maple house forty two king street"),
    ("flat nine in the grange court on the london road", "flat nine in the grange court on the london road"),
    ("suite four hundred at the empire building on fifth avenue",
     "suite four hundred at the empire building on fifth avenue"),
    ("Apartment 3B, Riverside Lofts, 200 Water Street, Boston MA 02110",
     "Apartment 3B, Riverside Lofts, 200 Water Street, Boston MA 02110"),
])
def test_a_flat_in_a_named_building_before_its_street_is_one_address(text, address):
    """The flat's number was left unflagged beside the street (and the building read as a firm): a
    caller's "apartment twelve" next to "oak street" narrows the street down to one household."""
    assert address in addresses(text)


@pytest.mark.parametrize(("text", "address"), [
    ("the tower on oak street is tall", "oak street"),  # a building word with no name and no flat
    ("we met at the sunrise towers on oak street", "oak street"),  # a building with no flat before it
    ("he booked 2 nights at the maple house on king street", "king street"),  # a number that is no flat's
])
def test_a_building_with_no_flat_before_it_stays_out_of_the_street(text, address):
    assert addresses(text) == [address]


@pytest.mark.parametrize("text,item", [
    ("It's 1 2 3 Main Street, Unit 5.", "1 2 3 Main Street, Unit 5"),  # digits said one by one, as ASR writes them
    ("it's 1 2 3 main street", "1 2 3 main street"),
    ("I live at 4 5 Oak Avenue.", "4 5 Oak Avenue"),
])
def test_a_house_number_written_digit_by_digit_is_part_of_the_address(text, item):
    """"1 2 3 Main Street" left "1 2" in the text (the address began at "3") or flagged nothing."""
    assert item in addresses(text), found(text)


@pytest.mark.parametrize("text,item,lang", [
    ("my house number is 22", "22", "en"),
    ("house number is 2 2 and the street is Elm Road", "2 2", "en"),
    ("flat number seven", "seven", "en"),
    ("el número de portal es el siete", "siete", "es"),
])
def test_a_house_or_flat_number_after_its_label_is_an_address_item(text, item, lang):
    assert item in addresses(text, lang), found(text, lang)


@pytest.mark.parametrize("text", ["what is your house number", "the house number is on the door"])
def test_a_house_number_label_with_no_number_is_no_item(text):
    assert addresses(text) == []


@pytest.mark.parametrize("text,lang,crossing", [
    ("i live on the corner of elm and fifth", "en", "elm and fifth"),
    ("we are at the corner of fifth and main right now", "en", "fifth and main"),
    ("meet me at the corner of elm street and fifth avenue", "en", "elm street and fifth avenue"),
    ("the accident was at the intersection of maple road and route nine", "en", "maple road and route nine"),
    ("I'm at the corner of 5th Ave and 42nd St.", "en", "5th Ave and 42nd St"),
    ("The shop is on the corner of Oak Street and Pine Avenue, next to the bank.", "en",
     "Oak Street and Pine Avenue"),
    ("vivo en la esquina de la calle alcalá con goya", "es", "la calle alcalá con goya"),
    ("vivo en la esquina de gran vía con alcalá", "es", "gran vía con alcalá"),  # "alcalá" was a person
    ("estamos en el cruce de la avenida de américa con la calle cartagena", "es",
     "la avenida de américa con la calle cartagena"),
])
def test_two_streets_that_meet_after_the_corner_of_are_one_address(text, lang, crossing):
    assert crossing in addresses(text, lang)


@pytest.mark.parametrize("text", [
    "it's in the corner of the room and the door is open",
    "the corner of happiness and sadness",
    "she stood at the corner of her desk and cried",
    "from the corner of my eye and then it was gone",
])
def test_a_corner_of_things_that_are_no_streets_is_no_address(text):
    assert addresses(text) == []


@pytest.mark.parametrize("text", [
    "despite that he was back in the ring two months later",  # was "the ring two"
    "we met at the plaza three days ago",
    "she moved to the avenue five weeks ago",
])
def test_a_number_that_counts_time_is_no_house_number(text):
    assert addresses(text) == []


@pytest.mark.parametrize("text,address", [
    ("i live at twelve second street", "twelve second street"),
    ("the office is at one times square", "one times square"),
    ("vivo en la plaza mayor tres hace dos años", "plaza mayor tres"),
])
def test_a_street_named_like_a_time_keeps_its_house_number(text, address):
    assert address in addresses(text, "es" if "vivo" in text else "en")


@pytest.mark.parametrize("text, address", [
    ("Please ship it to 3-14-7 Shibuya, Shibuya-ku, Tokyo 150-0002, Japan. Thanks a lot.",
     "3-14-7 Shibuya, Shibuya-ku, Tokyo 150-0002, Japan"),
    ("The shop is at 8 Chome-2-1 Ginza, Chuo City, Tokyo 104-0061.", "8 Chome-2-1 Ginza, Chuo City, Tokyo 104-0061"),
    ("Our Osaka office: 2-4-9 Umeda, Kita-ku, Osaka 530-0001", "2-4-9 Umeda, Kita-ku, Osaka 530-0001"),
])
def test_a_japanese_block_address_in_latin_letters_is_one_item(text, address):
    """Block numbers, district, ward or city, prefecture, postcode: the numbers were a reference, the
    ward ("Shibuya-ku") no item at all, and the block numbers ("1-1-2") left in the release."""
    assert addresses(text) == [address]


@pytest.mark.parametrize("text", [
    "The score was 3-1-0 after the first round.",
    "They won 2-1 in Tokyo on Sunday.",
    "Ratios of 1-2-1 Training Sessions are set.",
])
def test_block_numbers_without_a_ward_city_or_postcode_are_no_japanese_address(text):
    assert addresses(text) == []


@pytest.mark.parametrize("text, address", [
    # a flat, "at", then the house: the flat's number was left out of the item, or read as a firm
    ("I live in apartment 4B at 310 West 72nd Street, New York.", "apartment 4B at 310 West 72nd Street, New York"),
    ("it's apartment two oh four at fifteen hundred main street", "apartment two oh four at fifteen hundred main street"),
    # a flat's number said in pieces, right before the house number
    ("it's apartment two oh four fifteen hundred main street", "apartment two oh four fifteen hundred main street"),
])
def test_a_flat_said_before_the_house_is_part_of_the_address(text, address):
    assert addresses(text) == [address]


def test_a_word_that_is_no_flat_before_at_and_an_address_stays_out():
    assert addresses("I was on the floor at 12 Main Street") == ["12 Main Street"]


@pytest.mark.parametrize("text, address", [
    # a street with no type word, its town, the province spelled, the postcode: the address stopped at
    # the town and the province went with the postcode
    ("it's eleven eighty kingsway vancouver b c v five v three c eight",
     "eleven eighty kingsway vancouver b c v five v three c eight"),
    ("it's twelve forty five yonge street toronto o n m four w one a one",
     "twelve forty five yonge street toronto o n m four w one a one"),
])
def test_a_canadian_address_said_aloud_with_its_province_spelled_is_one_item(text, address):
    assert addresses(text) == [address]


def test_letters_that_are_no_region_code_do_not_join_a_street_to_a_postcode():
    assert addresses("it's eleven eighty kingsway vancouver q q v five v three c eight") == []


@pytest.mark.parametrize("text, address", [
    ("Q. Where were you living? A. On Maple Avenue in Dayton.", "Maple Avenue"),  # a transcript's answer
    ("I said, At Oak Street near the school.", "Oak Street"),
    ("She lives at 12 The Strand, London.", "12 The Strand, London"),  # "The" does open a street's name
    ("We met at thirty eight May Place Boston.", "thirty eight May Place Boston"),  # so does a month
])
def test_a_capitalised_preposition_or_pronoun_opens_no_street(text, address):
    assert address in addresses(text)


@pytest.mark.parametrize("text, address", [
    # streets of Spanish names written the American way: the house number was left out of the item
    ("Mail it to 1200 Camino del Mar, Del Mar, CA 92014.", "1200 Camino del Mar, Del Mar, CA 92014"),
    ("Our office is at 500 Avenida de la Playa, La Jolla.", "500 Avenida de la Playa, La Jolla"),
    ("He lives at 300 Paseo de Peralta in Santa Fe.", "300 Paseo de Peralta"),
    ("it's twelve hundred camino del mar", "twelve hundred camino del mar"),
    ("Send it to 15 Calle Mayor, Madrid.", "15 Calle Mayor, Madrid"),
])
def test_a_number_then_a_romance_street_type_is_one_address(text, address):
    assert address in addresses(text)
