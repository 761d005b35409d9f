"""Items from outside the English-speaking demo are replaced whole and leave no trace in the revised
text: a name in another script (suggested because the detector cannot read it), an Indian address."""

from redactdesk.risk.leakscan import needles, scan_text
from redactdesk.substitute import substitute_conversation


def test_a_name_in_another_script_is_replaced_and_leaves_no_trace(make_conv, secret):
    conv = make_conv([("c", "My colleague 山田 裕樹 called about Дмитрий Иванов yesterday.")],
                     [(0, "山田 裕樹", "PERSON"), (0, "Дмитрий Иванов", "PERSON")])
    res = substitute_conversation(conv, secret=secret)
    text = res.revised_text()
    assert "山田" not in text and "裕樹" not in text and "Дмитрий" not in text and "Иванов" not in text
    assert not scan_text(text, "revised", needles([conv]))
    assert "My colleague" in text and "called about" in text


def test_an_indian_address_is_replaced_whole(make_conv, secret):
    conv = make_conv([("c", "Ship it to 77/053, Nigam, Sonipat-835060 please.")],
                     [(0, "77/053, Nigam, Sonipat-835060", "ADDRESS")])
    res = substitute_conversation(conv, secret=secret)
    text = res.revised_text()
    assert "Nigam" not in text and "Sonipat" not in text and "835060" not in text, text
    assert not scan_text(text, "revised", needles([conv]))


def test_a_colombian_grid_address_is_replaced_whole(make_conv, secret):
    conv = make_conv([("c", "Envíelo a Carrera 7 # 71-21, Barrio La Candelaria, Bogotá por favor.")],
                     [(0, "Carrera 7 # 71-21, Barrio La Candelaria, Bogotá", "ADDRESS")])
    res = substitute_conversation(conv, secret=secret)
    text = res.revised_text()
    assert "71-21" not in text and "Candelaria" not in text and "Bogotá" not in text, text
    assert not scan_text(text, "revised", needles([conv]))
    assert text.startswith("Envíelo a ") and text.endswith(" por favor."), text
