"""IPv4 / IPv6 addresses and MAC addresses as written, validated with :mod:`ipaddress`.

MAC addresses come in three written forms: six hex pairs joined by colons or by dashes
("38:F3:D6:D2:99:EA", "10-95-AB-2D-8A-5F") and Cisco's three dotted quads ("7b3d.6e15.c05e"). A
dotted-quad form made only of decimal digits reads like a number, so it needs a context word.
"""

from __future__ import annotations

import functools
import ipaddress
import re

from redactdesk.detect.char_spans import CharSpan
from redactdesk.lang.lexicon import Lexicon, phrases

_IPV4 = re.compile(r"(?<![\w.])(?:\d{1,3}\.){3}\d{1,3}(?:/\d{1,2})?(?![\w]|\.\d)")
# hex groups and colons (a dotted IPv4 tail allowed), optional zone and prefix length
_IPV6 = re.compile(r"(?<![\w:.])(?=[0-9A-Fa-f:]*:[0-9A-Fa-f]*:)[0-9A-Fa-f:]{2,39}(?:\.\d{1,3}){0,3}(?:%\w+)?"
                   r"(?:/\d{1,3})?(?![\w:])")
_MAC_PAIRS = re.compile(r"(?<![\w:.-])[0-9A-Fa-f]{2}([:-])[0-9A-Fa-f]{2}(?:\1[0-9A-Fa-f]{2}){4}(?![\w:-]|\.\w)")
_MAC_CISCO = re.compile(r"(?<![\w:.-])[0-9A-Fa-f]{4}\.[0-9A-Fa-f]{4}\.[0-9A-Fa-f]{4}(?![\w:-]|\.\w)")


@functools.lru_cache(maxsize=4)
def mac_words(lex: Lexicon) -> tuple[tuple[str, ...], ...]:
    """The lexicon's words for a MAC address ("mac address", "hardware address")."""
    return phrases((lex.raw.get("identifier_words") or {}).get("mac") or [])


def _ip(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    addr = text.split("/", 1)[0].split("%", 1)[0]
    try:
        return ipaddress.ip_address(addr)
    except ValueError:
        return None


def find_ips(text: str) -> list[CharSpan]:
    """IPv4 addresses (four octets) and IPv6 addresses in full or compressed form."""
    out: list[CharSpan] = []
    for m in _IPV4.finditer(text):
        if isinstance(_ip(m.group(0)), ipaddress.IPv4Address):
            out.append(CharSpan(m.start(), m.end(), "IP_ADDRESS", 0.9, "IPv4 address (four octets)"))
    for m in _IPV6.finditer(text):
        value = m.group(0)
        addr = _ip(value)
        if not isinstance(addr, ipaddress.IPv6Address):
            continue
        groups = [g for g in re.split(r"::?", value.split("/")[0].split("%")[0]) if g]
        hexdigits = sum(len(g) for g in groups)
        # "::1" or "12::34" say little; a real address has several groups or many hex digits
        if len(groups) < 3 and hexdigits < 6:
            continue
        out.append(CharSpan(m.start(), m.end(), "IP_ADDRESS", 0.9,
                            "IPv6 address" + (" (compressed)" if "::" in value else "")))
    return out


def find_macs(text: str) -> list[CharSpan]:
    """MAC addresses: colon / dash pairs stand alone; an all-digit Cisco form needs a context word."""
    out: list[CharSpan] = []
    for m in _MAC_PAIRS.finditer(text):
        out.append(CharSpan(m.start(), m.end(), "MAC_ADDRESS", 0.9, f"MAC address (six hex pairs, '{m.group(1)}')"))
    for m in _MAC_CISCO.finditer(text):
        digits_only = m.group(0).replace(".", "").isdigit()
        out.append(CharSpan(m.start(), m.end(), "MAC_ADDRESS", 0.85, "MAC address (Cisco dotted form)",
                            "context" if digits_only else ""))
    return out


# "@name" as social networks write a user (not inside an e-mail address, not a price "@ 5")
_HANDLE = re.compile(r"(?<![\w@.+-])@[A-Za-z0-9_](?:[A-Za-z0-9_.]{0,28}[A-Za-z0-9_])?(?![\w@]|\.[A-Za-z]{2,}\b)")


# "u/name" (and "/u/name") as Reddit writes a user; "r/name" is a community, nobody's
_REDDIT_USER = re.compile(r"(?<![\w/.-])/?u/[A-Za-z0-9_-]{3,20}(?![\w/-])")


def find_handles(text: str) -> list[CharSpan]:
    """Social-media handles ("@JuliaRoberts", "@b2s_tera", "u/throwaway_2231"): a username, which
    identifies its owner."""
    out = []
    for m in _HANDLE.finditer(text):
        body = m.group()[1:]
        if body.isdigit():  # "@5" is a price or a count
            continue
        out.append(CharSpan(m.start(), m.end(), "USERNAME", 0.9, "a social-media handle (@name)"))
    for m in _REDDIT_USER.finditer(text):
        out.append(CharSpan(m.start(), m.end(), "USERNAME", 0.9, "a Reddit user (u/name)"))
    return out
