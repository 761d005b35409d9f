"""Searching the transcripts of a whole project in the project file."""

from __future__ import annotations

from redactdesk.core.types import Conversation, Turn, Word
from redactdesk.store import Project
from redactdesk.store.search import TranscriptIndex, find_words, fold


def conv(cid: str, speakers_texts: list[tuple[str, str]]) -> Conversation:
    words, turns, t = [], [], 0.0
    for speaker, text in speakers_texts:
        first = len(words)
        for token in text.split():
            words.append(Word(token, round(t, 2), round(t + 0.3, 2), speaker=speaker))
            t += 0.4
        turns.append(Turn(speaker, first, len(words)))
    return Conversation(id=cid, words=words, turns=turns, language="en")


def project(tmp_path):
    p = Project.create(tmp_path / "s.rdproj", actor="t")
    p.add_conversation(conv("call_a", [("agent", "hello my name is Sarah"),
                                       ("customer", "hi I am John Smith, from Úbeda")]))
    p.add_conversation(conv("call_b", [("agent", "thank you john"), ("customer", "my number is 5551234")]))
    return p


def test_a_phrase_is_found_across_calls_with_turn_speaker_and_time(tmp_path):
    with project(tmp_path) as p:
        hits, more = find_words(p, "john smi")
        assert not more and [(h.conversation_id, h.start_word, h.end_word) for h in hits] == [("call_a", 8, 10)]
        h = hits[0]
        assert (h.turn, h.speaker, h.text) == (2, "customer", "John Smith,")
        assert h.start == 3.2 and h.before.endswith("I am") and h.after == "from Úbeda"
        single, _ = find_words(p, "JOHN")
        assert [(x.conversation_id, x.start_word) for x in single] == [("call_a", 8), ("call_b", 2)]


def test_case_accents_punctuation_and_digits_inside_words(tmp_path):
    with project(tmp_path) as p:
        assert [h.text for h in find_words(p, "ubeda")[0]] == ["Úbeda"]
        assert [h.text for h in find_words(p, "smith")[0]] == ["Smith,"]
        assert [h.conversation_id for h in find_words(p, "555")[0]] == ["call_b"]
        assert find_words(p, "  ,.; ")[0] == [] and find_words(p, "john jones")[0] == []
        assert fold("Úbeda,") == "ubeda"


def test_the_limit_says_there_were_more(tmp_path):
    with project(tmp_path) as p:
        hits, more = find_words(p, "m", limit=2)
        assert len(hits) == 2 and more


def test_a_kept_index_sees_new_words_of_a_changed_call(tmp_path):
    with project(tmp_path) as p:
        index = TranscriptIndex()
        assert len(find_words(p, "sarah", index=index)[0]) == 1
        new = conv("call_a", [("agent", "hello my name is Maria"), ("customer", "hi I am John Smith, from Úbeda")])
        p.replace_words("call_a", new.words, new.turns)
        assert find_words(p, "sarah", index=index)[0] == []
        assert [(h.conversation_id, h.start_word) for h in find_words(p, "maria", index=index)[0]] == [("call_a", 4)]
        assert len(find_words(p, "john", index=index)[0]) == 2  # the other call was not read again, still found


def test_one_place_per_word_and_words_without_letters_are_stepped_over(tmp_path):
    with Project.create(tmp_path / "t.rdproj", actor="t") as p:
        p.add_conversation(conv("c", [("a", "mummy - mom said mummy")]))
        assert [h.start_word for h in find_words(p, "m")[0]] == [0, 2, 4]  # "mummy" once, not three times
        assert [(h.start_word, h.end_word, h.text) for h in find_words(p, "mummy mom")[0]] == [(0, 3, "mummy - mom")]


def test_a_kept_index_sees_a_change_made_in_the_same_millisecond(tmp_path, monkeypatch):
    # the index reads a call again only when its `updated` stamp changed; two changes within one
    # millisecond kept the stamp, and the search answered "sarah" with the new word "Maria"
    from redactdesk.store import project as project_module

    with project(tmp_path) as p:
        index = TranscriptIndex()
        monkeypatch.setattr(project_module, "utc_now", lambda: "2026-11-28T12:00:00.000+00:00")
        new = conv("call_a", [("agent", "hello my name is Sarah"), ("customer", "hi I am John Smith, from Úbeda")])
        p.replace_words("call_a", new.words, new.turns)
        assert len(find_words(p, "sarah", index=index)[0]) == 1
        new = conv("call_a", [("agent", "hello my name is Maria"), ("customer", "hi I am John Smith, from Úbeda")])
        p.replace_words("call_a", new.words, new.turns)
        assert find_words(p, "sarah", index=index)[0] == []
        assert [h.text for h in find_words(p, "maria", index=index)[0]] == ["Maria"]
