"""Detection never crashes on what a recogniser can produce: any mix of words, digits, codes, symbols."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from redactdesk.core.types import Conversation, Word
from redactdesk.detect import detect_conversation

TOKENS = [
    "34k", "4k", "b4", "3rd", "23rd", "1st", "-1", "+34", "4111", "1,250", "$250", "€", "12.5", "06/27",
    "a", "b", "J", "Y", "o", "oh", "double", "triple", "doble", "dot", "at", "arroba", "punto", "underscore",
    "four", "twenty", "hundred", "y", "cinco", "mil", "card", "number", "phone", "zip", "account", "es",
    "Smith", "María", "calle", "street", "my", "is", "the", "de", "as", "in", "Mary", "," , "...", "-", "@",
    "x7", "ab12", "2b", "DNI", "12345678z", "ES91", "example.com", "john.smith", "http", "www",
]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(TOKENS), min_size=1, max_size=25), st.sampled_from(["en", "es"]))
def test_any_token_mix_gives_valid_spans(tokens, language):
    words = [Word(t, i * 0.4, i * 0.4 + 0.3) for i, t in enumerate(tokens)]
    conv = Conversation(id="fuzz", language=language, words=words)
    spans = detect_conversation(conv, sources=["patterns", "gazetteer"])
    for s in spans:
        assert 0 <= s.start_word < s.end_word <= len(words)


def test_a_word_longer_than_the_network_reads_is_read_not_a_crash():
    """A 40,000-character "word" (a run of initials, a pasted blob) made one window of 40,003 pieces:
    ONNX Runtime failed and detection with it. Each word is now read by its first pieces."""
    from redactdesk.detect.pipeline import detect_texts

    text = "Please call John Smith about " + "A.B.C.D." * 5000 + " tomorrow."
    (spans,) = detect_texts([text], "en")
    assert ("John Smith", "PERSON") in [(text[s["start"]:s["end"]], s["category"]) for s in spans]
