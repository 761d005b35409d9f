"""The release scan's prefilter finds exactly what leakscan's line scanner finds."""

from __future__ import annotations

import random

from redactdesk.core.types import Conversation, Span, SpanStatus, Word
from redactdesk.pipeline.release_scan import _literal, blank_structure, scan_lines
from redactdesk.risk.leakscan import needles, scan_text

ORIGINALS = ["John O'Neil", "john at example dot com", "4111 1111 1111 1111", "12 March 1985",
             "noviembre de dos mil treinta", "five five five one two three four", "Smith"]
FILLER = "the caller said that her number was fine and then 19.85 pounds, oh 4111-1111 maybe".split()


def _conv() -> Conversation:
    words, spans = [], []
    for orig in ORIGINALS:
        start = len(words)
        words += [Word(t, 0, 1) for t in orig.split()]
        spans.append(Span(start, len(words), "X", status=SpanStatus.ACCEPTED))
    return Conversation(id="c", words=words, spans=spans)


def test_every_needle_has_a_literal_so_the_prefilter_is_active():
    # letter sequences ("s -m -i -t -h") are prefiltered by their letters standing alone instead
    assert all(_literal(n) for n in needles([_conv()]) if n.variant != "spelled")
    assert all(n.letters for n in needles([_conv()]) if n.variant == "spelled")


def test_prefiltered_scan_equals_the_line_scan():
    ns = needles([_conv()])
    rng = random.Random(5)
    forms = ORIGINALS + ["4111111111111111", "john@example.com", "S-M-I-T-H", "12-march-1985", "555 1234",
                         "S as in Sam M as in Mary I as in Ida T as in Tom H as in Henry", "j, o, h, n"]
    for _ in range(60):
        lines = []
        for _ in range(rng.randint(1, 6)):
            parts = rng.sample(FILLER, 5) + ([rng.choice(forms)] if rng.random() < 0.5 else [])
            rng.shuffle(parts)
            lines.append(" ".join(parts))
        text = "\n".join(lines)
        assert scan_lines(text, "t.txt", ns) == scan_text(text, "t.txt", ns)


def test_structure_blanking_keeps_lines_and_text():
    text = '{"text": "Smith", "start": 19.85}\n{"text": "4111", "end": 20}'
    blanked = blank_structure("a.json", text)
    assert blanked == '{"text": "Smith", "start": #}\n{"text": "4111", "end": #}'
    assert blank_structure("a.TextGrid", 'xmin = 1.5\ntext = "12"') == 'xmin = #\ntext = "12"'
