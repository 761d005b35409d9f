"""Spelling alphabets, letter names and Whisper's fused spellings."""

from redactdesk.lang.alphabet import NATO, NATO_WORDS, fused_spelling, plain_letters, spelling_words
from redactdesk.lang.lexicon import load_lexicon


def test_spelling_words_are_one_list_for_substitution_and_the_demo_calls():
    from redactdesk.substitute.gazetteer import load_gazetteer
    from redactdesk.synth.spoken import spell

    assert spelling_words("en")["M"] == "Mary" and spelling_words("es")["Ñ"] == "ñandú"
    assert load_gazetteer("es").spelling_words == spelling_words("es")
    assert spell("Paz", "es", style="as_in") == ["P", "de", "París", "A", "de", "Antonio", "Z", "de", "Zaragoza"]


def test_nato_words_take_the_other_spellings_callers_use():
    assert NATO["J"] == "Juliett"
    assert {"juliet", "juliett", "alpha", "alfa", "whisky", "whiskey", "x-ray", "xray"} <= NATO_WORDS


def test_plain_letters_are_what_a_caller_spells():
    assert plain_letters("Muñoz-García") == "MUÑOZGARCIA"
    assert plain_letters("O'Brien") == "OBRIEN"


def test_fused_spellings_are_read_back_only_in_spanish():
    es, en = load_lexicon("es"), load_lexicon("en")
    assert fused_spelling("udeúbeda", None, es) == ("u", "de", "úbeda", False)
    assert fused_spelling("pede", "parís", es) == ("p", "de", "parís", True)
    assert fused_spelling("puede", None, es) is None  # the word after "de" must start with the letter
    assert fused_spelling("udeúbeda", None, en) is None
