"""Geographic coordinates as written: where someone lives, works or is, to a few metres.

- decimal degrees with their hemispheres: "40.7128° N, 74.0060° W", "N 51.5007 W 0.1246", and as ASR
  writes them said: "40.7128 north, 74.0060 west";
- each half after its label: "latitude 51.5007, longitude -0.1246";
- degrees, minutes and seconds: "40°42'46\"N 74°00'21\"W";
- read aloud, with "point" and hemisphere words ("forty point seven one two eight north seventy four
  point zero zero six zero west"): :func:`said_coordinates` over the normalised words;
- a signed decimal pair as maps and phones share it: "40.7128, -74.0060" (four decimals or more on
  both, latitude within 90 and longitude within 180, and a negative half, five decimals or a word
  that says so: "3.1415, 2.7182" is no place).

A pair is one item (category GEO_COORDINATES); its surrogate keeps the shape with other digits.
"""

from __future__ import annotations

import re

from redactdesk.detect.char_spans import CharSpan

CATEGORY = "GEO_COORDINATES"

_DEG = r"(?:°|º|deg\b)"
# a hemisphere as a letter or, as ASR writes one said, a word ("40.7128 north, 74.0060 west"; Spanish too)
_NS = r"(?:[NS]|(?i:north|south|norte|sur))"
_EW = r"(?:[EW]|(?i:east|west|este|oeste))"
_DECIMAL = re.compile(
    rf"(?<![\w.])(\d{{1,2}}(?:\.\d+)?)\s?{_DEG}?\s?({_NS})\b[,;]?\s+(\d{{1,3}}(?:\.\d+)?)\s?{_DEG}?\s?({_EW})\b"
    rf"|(?<![\w.])([NS])\s?(\d{{1,2}}(?:\.\d+)?)\s?{_DEG}?[,;]?\s+([EW])\s?(\d{{1,3}}(?:\.\d+)?)\s?{_DEG}?(?![\w.])")
# each half after its label: "latitude 51.5007, longitude -0.1246", "lat: 40.71 lng: -74.00"
_LABELLED = re.compile(
    r"(?i:\b(?:lat(?:itude|itud)?)\b)[:=]?\s?(-?\d{1,2}\.\d+)\s?°?[,;]?\s+(?:(?i:and|y)\s+)?"
    r"(?i:\b(?:long(?:itude|itud)?|lng|lon)\b)[:=]?\s?(-?\d{1,3}\.\d+)°?(?![\w.])")
_DMS_PART = r"\d{1,3}\s?[°º]\s?\d{1,2}\s?['′]\s?(?:\d{1,2}(?:\.\d+)?\s?[\"″]|\d{1,2}(?:\.\d+)?\s?'')?\s?"
_DMS = re.compile(rf"(?<![\w.]){_DMS_PART}[NS]\b[,;]?\s*{_DMS_PART}[EW]\b")
_CUE = re.compile(r"\b(?:coordinates?|gps|lat(?:itude)?|long(?:itude)?|location|position|maps?|located)\b",
                  re.IGNORECASE)
_SIGNED_PAIR = re.compile(r"(?<![\w.\-])(-?\d{1,2}\.\d{4,}),\s?(-?\d{1,3}\.\d{4,})(?![\w.])")


def find_coordinates(text: str) -> list[CharSpan]:
    """Coordinate pairs in written ``text`` (see the module docstring)."""
    if not any(c.isdigit() for c in text):
        return []
    out: list[CharSpan] = []
    for m in _DECIMAL.finditer(text):
        lat, lon = (m.group(1), m.group(3)) if m.group(1) else (m.group(6), m.group(8))
        if m.group(1) and len(m.group(2)) > 1 and not ("." in lat and "." in lon):
            continue  # hemispheres as words need decimals: "Route 12 north, 5 east" is a way, no place
        if float(lat) <= 90 and float(lon) <= 180:
            out.append(CharSpan(m.start(), m.end(), CATEGORY, 0.9, "latitude and longitude with their hemispheres"))
    for m in _LABELLED.finditer(text):
        if abs(float(m.group(1))) <= 90 and abs(float(m.group(2))) <= 180:
            out.append(CharSpan(m.start(), m.end(), CATEGORY, 0.9, "latitude and longitude after their labels"))
    for m in _DMS.finditer(text):
        out.append(CharSpan(m.start(), m.end(), CATEGORY, 0.9, "latitude and longitude in degrees and minutes"))
    for m in _SIGNED_PAIR.finditer(text):
        lat, lon = m.group(1), m.group(2)
        if abs(float(lat)) > 90 or abs(float(lon)) > 180:
            continue
        # a map's pair: a negative half, five decimals or more, or a word that says so ("3.1415, 2.7182" is none)
        mapped = "-" in lat + lon or min(len(lat.split(".")[1]), len(lon.split(".")[1])) >= 5
        if mapped or _CUE.search(text, max(0, m.start() - 40), m.start()):
            out.append(CharSpan(m.start(), m.end(), CATEGORY, 0.8, "a latitude and longitude pair"))
    out.sort(key=lambda c: (c.start, -c.end))
    kept: list[CharSpan] = []
    for c in out:
        if not kept or c.start >= kept[-1].end:
            kept.append(c)
    return kept


# "40 point 7 1 2 8 north 74 point 006 0 west": the normalised words of coordinates read aloud
_SAID = re.compile(
    r"(?<![\w.])(\d{1,2}) (?:point|punto|coma) ((?:\d+ ?){1,8}?) ?(?:degrees |grados )?(north|south|norte|sur),? "
    r"(\d{1,3}) (?:point|punto|coma) ((?:\d+ ?){1,8}?) ?(?:degrees |grados )?(east|west|este|oeste)(?![\w])")


def said_coordinates(norm_text: str) -> list[tuple[int, int]]:
    """Character ranges of coordinates read aloud in ``norm_text`` (the normaliser's words, numbers
    as digits): degrees, "point", the decimals said digit by digit, and the hemisphere, twice. Three
    decimals or more on each half, as a map gives them, so "twelve point five north" is no place."""
    out = []
    for m in _SAID.finditer(norm_text):
        lat_dec, lon_dec = m.group(2).replace(" ", ""), m.group(5).replace(" ", "")
        if len(lat_dec) >= 3 and len(lon_dec) >= 3 and int(m.group(1)) <= 90 and int(m.group(4)) <= 180:
            out.append((m.start(), m.end()))
    return out
