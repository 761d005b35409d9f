"""Any accepted spans over any words: substitution finishes and its output stays consistent."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from redactdesk.core.types import Conversation, Span, SpanStatus, Turn, Word
from redactdesk.resources import load_taxonomy
from redactdesk.substitute import substitute_conversation

VOCAB = {
    "en": ("zero oh one two three four forty eleven hundred thousand and double at dot com the Mr Smith John Mary "
           "A B X March third nineteen eighty May 4111 555-0123 john.smith@example.com street apartment , .").split(),
    "es": ("cero uno dos diez veintiún cuarenta y cien ciento mil un arroba punto de del señora María José García "
           "L N marzo primero calle número piso tercero euros con céntimos").split(),
}
CATEGORIES = load_taxonomy().ids()


@st.composite
def conversations(draw):
    lang = draw(st.sampled_from(["en", "es"]))
    toks = draw(st.lists(st.sampled_from(VOCAB[lang]), min_size=1, max_size=25))
    words = [Word(t, i * 0.4, i * 0.4 + 0.3, speaker="a") for i, t in enumerate(toks)]
    spans = []
    for k in range(draw(st.integers(0, 4))):
        a = draw(st.integers(0, len(toks) - 1))
        b = draw(st.integers(a + 1, min(len(toks), a + 8)))
        spans.append(Span(a, b, draw(st.sampled_from(CATEGORIES)), SpanStatus.ACCEPTED,
                          entity=draw(st.sampled_from([None, "e1", "e2"])), id=k + 1))
    return Conversation(id="h", language=lang, words=words, turns=[Turn("a", 0, len(words))], spans=spans)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(conversations(), st.sampled_from(["pseudonym", "placeholder", "generalise"]))
def test_substitution_never_breaks_the_transcript(conv, mode):
    res = substitute_conversation(conv, secret="s", mode=mode)
    n = len(res.revised_words)
    assert all(w.text for w in res.revised_words)
    assert res.revised_turns[0].start_word == 0 and res.revised_turns[-1].end_word == n
    prev = 0
    for rep in res.replacements:
        assert prev <= rep.revised_start < rep.revised_end <= n
        prev = rep.revised_end
    untouched = [w.text for i, w in enumerate(conv.words)
                 if not any(r.start_word <= i < r.end_word for r in res.replacements)]
    kept = [w.text for i, w in enumerate(res.revised_words)
            if not any(r.revised_start <= i < r.revised_end for r in res.replacements)]
    assert untouched == kept
