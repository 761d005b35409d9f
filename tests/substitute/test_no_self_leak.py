"""A surrogate never carries its own original inside it (it would leak through the release)."""

from redactdesk.core import Conversation, Span, SpanStatus, Word
from redactdesk.substitute import substitute_conversation
from redactdesk.substitute.engine import Replacement, _contains_original


def test_containment_is_checked_on_whole_words():
    assert _contains_original(Replacement(1, "CARD_EXPIRY", "zero five thirty", "zero five thirty two", 0, 3, 0, 4))
    assert not _contains_original(Replacement(1, "PERSON", "Ann", "Annabel", 0, 1, 0, 1))


def test_expiry_surrogates_never_contain_the_original_across_many_secrets():
    words = [Word(t, i * 0.4, i * 0.4 + 0.3) for i, t in enumerate("it expires zero five thirty thanks".split())]
    conv = Conversation(id="c", words=words, spans=[Span(2, 5, "CARD_EXPIRY", status=SpanStatus.ACCEPTED, id=1)])
    for k in range(60):
        res = substitute_conversation(conv, secret=f"secret-{k}")
        assert not any(_contains_original(r) for r in res.replacements), res.replacements[0].surrogate
