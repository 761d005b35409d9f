"""Utterances are turns or pause-split segments of at most 30 s, never a whole call (issue 17 item 3)."""

from __future__ import annotations

import dataclasses
import random

from redactdesk.core.types import Conversation, SpanStatus, Turn, Word
from redactdesk.learn.segments import MAX_SECONDS, MAX_WORDS, utterance_segments
from redactdesk.learn.utterances import utterances_from_conversation


def _mono_call(seconds: float = 300.0, seed: int = 0) -> Conversation:
    """One speaker, no turns: words of 0.3 s, sentences of 4-12 words with pauses of 0.4-1.5 s."""
    rng = random.Random(seed)
    words, t = [], 0.0
    while t < seconds:
        for _ in range(rng.randint(4, 12)):
            words.append(Word(rng.choice(["i", "would", "like", "to", "pay", "my", "bill", "today"]), t, t + 0.3))
            t += 0.35
        t += rng.uniform(0.4, 1.5)
    return Conversation(id="mono", words=words)


def test_a_mono_call_without_turns_is_cut_into_segments_of_at_most_30_s():
    conv = _mono_call()
    utts = utterances_from_conversation(conv)
    assert len(utts) > 10  # was one utterance: the whole call
    covered = []
    for u in utts:
        w0, w1 = u.start_word, u.start_word + len(u)
        assert conv.words[w1 - 1].end - conv.words[w0].start <= MAX_SECONDS
        covered += list(range(w0, w1))
    assert covered == list(range(len(conv.words)))  # every word once, in order
    assert [u.turn_index for u in utts] == list(range(len(utts)))


def test_cuts_fall_on_the_longest_pauses():
    words = [Word("a", i * 0.4, i * 0.4 + 0.3) for i in range(60)]  # 24 s, gaps 0.1 s
    words += [Word("b", 30.0 + i * 0.4, 30.0 + i * 0.4 + 0.3) for i in range(60)]  # after a 6 s pause
    segs = utterance_segments(Conversation(id="c", words=words))
    assert [(s.start_word, s.end_word) for s in segs] == [(0, 60), (60, 120)]


def test_short_speaker_turns_are_kept_and_long_ones_split():
    words = [Word("w", i * 0.5, i * 0.5 + 0.4, speaker="agent" if i < 10 else "customer") for i in range(130)]
    conv = Conversation(id="c", words=words, turns=[Turn("agent", 0, 10), Turn("customer", 10, 130)])
    segs = utterance_segments(conv)
    assert (segs[0].start_word, segs[0].end_word) == (0, 10)
    assert len(segs) > 2 and all(s.speaker == "customer" for s in segs[1:])
    assert all(words[s.end_word - 1].end - words[s.start_word].start <= MAX_SECONDS for s in segs)


def test_words_without_times_are_capped_by_count():
    conv = Conversation(id="c", words=[Word("w", 0.0, 0.0) for _ in range(350)])
    segs = utterance_segments(conv)
    assert sum(s.end_word - s.start_word for s in segs) == 350
    assert all(s.end_word - s.start_word <= MAX_WORDS for s in segs)


def test_the_queue_never_holds_a_whole_call_and_scores_do_not_grow_with_length(tmp_path, trained):
    from redactdesk.learn.entropy import score_lists
    from redactdesk.learn.selection import get_strategy
    from redactdesk.learn.service import DEFAULT_SEED_STRATEGY, DEFAULT_STRATEGY, ActiveLearner
    from redactdesk.store import Project
    from redactdesk.synth import generate_corpus

    proj = Project.create(tmp_path / "p.rdproj")
    try:
        for conv in generate_corpus(range(100_100, 100_103)):
            conv.spans = [dataclasses.replace(s, status=SpanStatus.SUGGESTED) for s in conv.spans]
            proj.add_conversation(conv)
        mono = _mono_call(240.0, seed=3)
        proj.add_conversation(mono)
        learner = ActiveLearner(proj, batch=40, source=trained, learner="crf")
        items = learner.queue()
        assert items
        for q in items:
            assert q.end_word - q.start_word <= MAX_WORDS
            if q.conversation_id == mono.id:
                assert mono.words[q.end_word - 1].end - mono.words[q.start_word].start <= MAX_SECONDS
    finally:
        proj.close()
    # the default scorers rank on one scale: a 20 times longer segment of the same words never scores
    # above the most uncertain word (H Sum would score it 20 times higher)
    for spec in (DEFAULT_STRATEGY, DEFAULT_SEED_STRATEGY):
        scorer = get_strategy(spec).params["inner"].params["terms"][0].split("-")[1]
        h = [0.9, 0.1, 0.5, 0.7, 0.2]
        short, long = score_lists([h, h * 20], scorer)
        assert short > 0 and long <= max(h) + 1e-9
