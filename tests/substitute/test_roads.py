"""A numbered road keeps its type and gets another number, whatever category its span has: read as a
place or a firm it became a town's or a company's name ("we live just off Kestrel Mutual")."""

import re

import pytest

from redactdesk.lang.roads import is_numbered_road
from redactdesk.risk.leakscan import needles, scan_text
from redactdesk.substitute import substitute_conversation


@pytest.mark.parametrize("text,road,category,shape", [
    ("We live just off Route 9 near the mall.", "Route 9", "ORGANIZATION", r"Route [1-9]\d*"),
    ("There was a crash on Highway 101 this morning.", "Highway 101", "LOCATION", r"Highway [1-9]\d\d"),
    ("take I-95 north to Boston", "I-95 north", "ORGANIZATION", r"I-[1-9]\d north"),
    ("there was a crash on highway one oh one today", "highway one oh one", "LOCATION",
     r"highway( (one|two|three|four|five|six|seven|eight|nine|oh|zero)){3}"),
    ("we live just off route nine near the mall", "route nine", "LOCATION",
     r"route (one|two|three|four|five|six|seven|eight)"),
    ("la salida está en la carretera N-340 a la izquierda", "carretera N-340", "LOCATION", r"carretera N-[1-9]\d\d"),
])
def test_a_numbered_road_keeps_its_type_and_gets_another_number(make_conv, secret, text, road, category, shape):
    conv = make_conv([("c", text)], [(0, road, category)], language="es" if "carretera" in text else "en")
    res = substitute_conversation(conv, secret=secret)
    revised = res.revised_text()
    before, after = text.split(road)
    assert revised.startswith(before) and revised.endswith(after), revised
    new = revised[len(before):len(revised) - len(after)]
    assert re.fullmatch(shape, new) and new != road, revised
    assert not scan_text(revised, "revised", needles([conv]))


@pytest.mark.parametrize("tokens,road", [
    ("Route 9", True), ("U.S. Route 522", True), ("state road 84", True), ("interstate ninety five", True),
    ("SR-84", True), ("Route", False), ("Route 66 diner", False), ("Kestrel Mutual", False), ("highway to hell", False),
])
def test_what_is_a_numbered_road(tokens, road):
    assert is_numbered_road(tokens.split(), "en") is road
