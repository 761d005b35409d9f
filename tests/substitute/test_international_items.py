"""Items from outside the English-speaking demo are replaced whole and leave no trace in the revised
text: a name in another script (suggested because the detector cannot read it), an Indian or Colombian address."""

import pytest

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


@pytest.mark.parametrize("before,address,after,originals", [
    ("Ship it to ", "77/053, Nigam, Sonipat-835060", " please.", ("Nigam", "Sonipat", "835060")),  # Indian
    ("Envíelo a ", "Carrera 7 # 71-21, Barrio La Candelaria, Bogotá", " por favor.",  # Colombia's grid
     ("71-21", "Candelaria", "Bogotá")),
])
def test_an_address_of_another_country_is_replaced_whole(make_conv, secret, before, address, after, originals):
    conv = make_conv([("c", before + address + after)], [(0, address, "ADDRESS")])
    res = substitute_conversation(conv, secret=secret)
    text = res.revised_text()
    assert not any(o in text for o in originals), text
    assert not scan_text(text, "revised", needles([conv]))
    assert text.startswith(before) and text.endswith(after), text
