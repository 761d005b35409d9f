"""A surrogate never carries its own original inside it (it would leak through the release)."""

from redactdesk.core import Conversation, Span, SpanStatus, Word
from redactdesk.substitute import substitute_conversation
from redactdesk.substitute.engine import Replacement, _contains_original, _keeps_a_number


def test_containment_is_checked_on_whole_words():
    assert _contains_original(Replacement(1, "CARD_EXPIRY", "zero five thirty", "zero five thirty two", 0, 3, 0, 4))
    assert not _contains_original(Replacement(1, "PERSON", "Ann", "Annabel", 0, 1, 0, 1))


def test_expiry_surrogates_never_contain_the_original_across_many_secrets():
    words = [Word(t, i * 0.4, i * 0.4 + 0.3) for i, t in enumerate("it expires zero five thirty thanks".split())]
    conv = Conversation(id="c", words=words, spans=[Span(2, 5, "CARD_EXPIRY", status=SpanStatus.ACCEPTED, id=1)])
    for k in range(60):
        res = substitute_conversation(conv, secret=f"secret-{k}")
        assert not any(_contains_original(r) for r in res.replacements), res.replacements[0].surrogate


def test_a_number_token_left_in_the_surrogate_counts_as_kept():
    assert _keeps_a_number(Replacement(1, "GENERIC_ID", "J -H704725", "K -H704725", 0, 2, 0, 2))
    assert not _keeps_a_number(Replacement(1, "GENERIC_ID", "J -H704725", "K -B118290", 0, 2, 0, 2))
    assert not _keeps_a_number(Replacement(1, "MONEY", "12 dollars", "12 euros", 0, 2, 0, 2))  # two digits


def test_a_written_code_heard_by_the_recogniser_is_replaced_whole():
    """Whisper writes a spelled reference "J H seven zero four ..." as "J -H704725" or "JH704755"."""
    for said in (["J", "-H704725."], ["JH704755"], ["XB-033008"], ["PT", "-182946."]):
        words = [Word(t, i * 0.4, i * 0.4 + 0.3) for i, t in enumerate(["reference", *said, "thanks"])]
        conv = Conversation(id="c", words=words,
                            spans=[Span(1, 1 + len(said), "GENERIC_ID", status=SpanStatus.ACCEPTED, id=1)])
        for k in range(20):
            res = substitute_conversation(conv, secret=f"secret-{k}")
            surrogate = res.replacements[0].surrogate
            digits = "".join(c for c in " ".join(said) if c.isdigit())
            assert digits[:4] not in surrogate and not res.warnings, surrogate
            assert len([c for c in surrogate if c.isalnum()]) == len([c for c in "".join(said) if c.isalnum()])


def test_an_organisation_of_generic_words_only_is_replaced_not_kept():
    """What ASR left of a bank's name ("... and Savings Bank") was kept as it was said, because every word
    is generic; the release's leak scan then found the accepted item in the text and refused it."""
    from redactdesk.risk.leakscan import needles, scan_text

    words = [Word(t, i * 0.4, i * 0.4 + 0.3) for i, t in enumerate("thank you for calling and Savings Bank".split())]
    conv = Conversation(id="c", words=words, spans=[Span(4, 7, "ORGANIZATION", status=SpanStatus.ACCEPTED, id=1)])
    for k in range(10):
        res = substitute_conversation(conv, secret=f"secret-{k}")
        assert res.replacements[0].surrogate.lower() != "and savings bank"
        assert not scan_text(res.revised_text(), "revised", needles([conv]))


def test_a_code_typed_in_lower_case_gets_new_letters_too():
    """"reg is ab12 cde": the digits generator kept the lower-case letter group ("KC21 cde"), part
    of the plate; a national number's letters became words ("meadow 89 83 28 hazel")."""
    cases = [("reg is ab12 cde ok", 2, 4, "GENERIC_ID"), ("my ni number is jg 10 37 58 a", 4, 9, "NATIONAL_ID")]
    for text, a, b, cat in cases:
        toks = text.split()
        words = [Word(t, i * 0.4, i * 0.4 + 0.3) for i, t in enumerate(toks)]
        conv = Conversation(id="c", words=words, spans=[Span(a, b, cat, status=SpanStatus.ACCEPTED, id=1)])
        for k in range(10):
            surrogate = substitute_conversation(conv, secret=f"secret-{k}").replacements[0].surrogate
            new = surrogate.lower().split()
            assert len(new) == b - a, surrogate
            for old, fresh in zip(toks[a:b], new, strict=True):
                assert len(fresh) == len(old) and fresh.isalpha() == old.isalpha(), surrogate
                assert not (old.isalpha() and fresh == old and len(old) > 1), surrogate  # the letters changed


def test_a_japanese_postcode_keeps_its_postal_mark_and_gets_new_digits():
    """"〒150-0041" came back as the placeholder "[POSTCODE]": the mark glued to the digits was no
    character any generator reads. It is kept as written, like punctuation; the digits are new."""
    import re

    toks = "My address in Japan is 〒150-0041 Tokyo.".split()
    words = [Word(t, i * 0.4, i * 0.4 + 0.3) for i, t in enumerate(toks)]
    conv = Conversation(id="c", words=words, spans=[Span(5, 6, "POSTCODE", status=SpanStatus.ACCEPTED, id=1)])
    for k in range(5):
        surrogate = substitute_conversation(conv, secret=f"secret-{k}").replacements[0].surrogate
        assert re.fullmatch(r"〒\d{3}-\d{4}", surrogate) and surrogate != "〒150-0041", surrogate
