"""The document view's phrase search: the closest phrase before a point, as context rules read it."""

import random

from redactdesk.detect.sources import DetectDoc


def _closest(words, phrases, lo, hi):
    lo, hi = max(0, lo), min(len(words), hi)
    best = None
    for ph in phrases:
        for i in range(hi - len(ph), lo - 1, -1):
            if tuple(words[i:i + len(ph)]) == ph:
                if best is None or i > best[0] or (i == best[0] and len(ph) > len(best[1])):
                    best = (i, ph)
                break
    return best


def test_find_phrase_returns_the_closest_phrase_wholly_inside_the_window():
    rng = random.Random(7)
    vocab = ["card", "number", "the", "is", "my", "code", "security", "expiry", "date", "one", "two"]
    phrases = [("card",), ("card", "number"), ("security", "code"), ("expiry", "date"), ("the", "card", "number")]
    for _ in range(400):
        words = [rng.choice(vocab) for _ in range(rng.randint(1, 30))]
        doc = DetectDoc.from_words(words, "en")
        lo, hi = rng.randint(-5, len(words)), rng.randint(0, len(words) + 5)
        assert doc.find_phrase(phrases, lo, hi) == _closest(words, phrases, lo, hi), (words, lo, hi)


def test_a_phrase_running_past_the_window_is_not_found():
    doc = DetectDoc.from_words("my card number is".split(), "en")
    assert doc.find_phrase([("card", "number")], 0, 2) is None
    assert doc.find_phrase([("card", "number")], 0, 3) == (1, ("card", "number"))


def test_said_gives_the_lexicons_phrases_whose_first_word_is_said_in_their_order():
    doc = DetectDoc.from_words("hi my name is ana and i work for acme".split(), "en")
    said = doc.said("org_cue_employer")
    every = [ph for ph in doc.lex.hot("org_cue_employer") if ph[0] in doc.lower]
    assert said == every and ("work", "for") in said
    assert doc.said("no_such_list") == []
