"""The guard against invented and zero-length words, on synthetic word lists and through transcription."""

from types import SimpleNamespace

import pytest

from redactdesk.asr import register_backend, transcribe_file
from redactdesk.asr.base import BackendOutput
from redactdesk.asr.faster_whisper_backend import invented_segment
from redactdesk.asr.guard import (
    MIN_WORD_SECONDS,
    ZERO_SECONDS,
    drop_invented,
    ensure_durations,
    guard_words,
    repeated,
)
from redactdesk.asr.timing import prepare_words, repair_timings
from redactdesk.core.types import Word

SENTENCE = "He began a confused complaint against the wizard, who had vanished behind the curtain on the left."


def timed(text, start=0.0, step=0.3, channel=None):
    """Words of ``text`` one after the other, ``step`` s each."""
    return [Word(t, round(start + k * step, 3), round(start + (k + 1) * step, 3), 0.9, channel=channel)
            for k, t in enumerate(text.split())]


def at(text, t, channel=None):
    """Words of ``text`` all at time ``t`` with no duration, as Whisper's end-of-audio repeats."""
    return [Word(w, t, t, 0.01, channel=channel) for w in text.split()]


def non_empty(words):
    return all(w.end - w.start >= ZERO_SECONDS for w in words)


def texts(words):
    return [w.text for w in words]


def test_zero_length_repeat_at_the_end_is_dropped():
    # the public stereo clip: 17 words at 4.98 s of a 5.00 s file, repeating the sentence's end
    real = timed(SENTENCE, step=0.26)
    tail = at("had vanished behind the curtain on the left, who had vanished behind the curtain on the left.", 4.98)
    out, report = guard_words(real + tail, duration=5.0)
    assert texts(out) == texts(real) and report.repeats == 17 and report.widened == 0
    assert out == real  # real words untouched
    warnings, notes = report.messages()
    assert not warnings and any("17 word(s)" in n and "dropped" in n for n in notes)


def test_zero_length_repeat_in_the_middle_is_dropped():
    first = timed("my card number is four one one one", step=0.3)
    echo = at("card number is four", 2.4)
    later = timed("thank you", start=3.0)
    out, report = guard_words(first + echo + later, duration=10.0)
    assert texts(out) == texts(first + later) and report.repeats == 4


def test_a_repeated_phrase_with_real_durations_is_kept():
    words = timed("four one one one four one one one thank you thank you", step=0.25)
    out, report = guard_words(words, duration=5.0)
    assert out == words and report.dropped == 0 and report.widened == 0


def test_a_zero_length_word_that_repeats_nothing_is_kept_flagged_and_given_a_range():
    words = timed("my name is", step=0.3) + at("Smith", 0.9) + timed("thanks", start=0.9)
    out, report = guard_words(words, duration=3.0)
    assert texts(out) == ["my", "name", "is", "Smith", "thanks"]
    smith = out[3]
    assert not smith.aligned and smith.end - smith.start >= MIN_WORD_SECONDS
    assert smith.start < 0.9 < smith.end  # around where the recogniser put it
    assert report.widened == 1 and report.widened_words == [3] and report.dropped == 0
    assert [w.aligned for w in out] == [True, True, True, False, True]
    warnings, _ = report.messages()
    assert warnings and "no duration" in warnings[0] and "Smith" not in warnings[0]  # no word texts in messages


def test_a_single_zero_length_word_said_before_is_kept():
    # one word is too little evidence of a repeat: a real squeezed word must not be lost
    words = timed("the card is", step=0.3) + at("card", 0.9)
    out, report = guard_words(words, duration=2.0)
    assert texts(out) == ["the", "card", "is", "card"] and report.widened == 1 and non_empty(out)


def test_repeats_count_within_a_channel_only():
    agent = timed("how can I help", channel=0)
    customer = at("how can I help", 1.3, channel=1)  # said by the other party, never on this channel
    out, report = guard_words(agent + customer, duration=3.0)
    assert len(out) == 8 and report.repeats == 0 and report.widened == 4
    assert non_empty(out) and all(not w.aligned for w in out if w.channel == 1)
    # the same run on channel 0 repeats that channel's words: dropped
    out, report = guard_words(agent + at("how can I help", 1.3, channel=0), duration=3.0)
    assert out == agent and report.repeats == 4


def test_a_run_repeating_itself_is_dropped_after_its_first_new_words():
    # "Thank you for calling, how can I help, how can I help, ..." copied from a decoding prompt
    real = timed("it's all the surname for me", step=0.2)
    run = at("Thank you for calling, how can I help, how can I help, how can I help?", 1.3)
    out, report = guard_words(real + run, duration=1.5)
    assert texts(out)[:6] == texts(real)
    assert texts(out)[6:] == ["Thank", "you", "for", "calling,", "how", "can", "I", "help,"]  # new: kept, flagged
    assert report.repeats == 8 and report.widened == 8
    assert non_empty(out) and all(w.end <= 1.5 for w in out)


def test_words_beyond_the_end_are_dropped_and_ends_clipped():
    words = timed("hello there", step=0.5) + [Word("ghost", 5.2, 5.4), Word("tail", 4.9, 5.3)]
    out, report = guard_words(sorted(words, key=lambda w: w.start), duration=5.0)
    assert texts(out) == ["hello", "there", "tail"] and report.beyond_end == 1
    assert out[-1].end == 5.0


def test_a_zero_length_word_at_the_edges_stays_inside_the_audio():
    out = ensure_durations([Word("hi", 0.0, 0.0)] + at("bye", 2.0), duration=2.0)
    assert out[0].start == 0.0 and out[0].end >= MIN_WORD_SECONDS
    assert out[1].end == pytest.approx(2.0) and out[1].end - out[1].start >= MIN_WORD_SECONDS


def test_untimed_words_between_touching_neighbours_get_a_range():
    # timing repair alone spreads them over a zero-length gap
    words = [Word("card", 1.0, 1.5), Word("4111", float("nan"), float("nan")), Word("ok", 1.5, 1.8)]
    assert repair_timings(words)[1].end == repair_timings(words)[1].start
    out, report = prepare_words(words, duration=3.0)
    assert texts(out) == ["card", "4111", "ok"] and non_empty(out) and not out[1].aligned
    assert report.guard.widened_words == [1]


def test_prepare_words_drops_repeats_before_splitting_numbers():
    words = timed("my card is 4111 1111", step=0.4) + at("is 4111 1111", 2.0)
    out, report = prepare_words(words, duration=2.1)
    assert texts(out) == ["my", "card", "is", "4111", "1111"] and report.guard.repeats == 3


def test_repeated_covers_only_stretches_of_two_or_more_words():
    earlier = "a b c d".split()
    assert repeated(earlier, "b c x c d".split()) == [True, True, False, True, True]
    assert repeated(earlier, ["d"]) == [False]
    assert repeated([], "x y x y".split()) == [False, False, True, True]


def test_input_lists_are_not_modified():
    words = timed("a b") + at("a b", 0.6)
    before = [(w.text, w.start, w.end, w.aligned) for w in words]
    drop_invented(words, duration=0.5)
    ensure_durations(words)
    assert [(w.text, w.start, w.end, w.aligned) for w in words] == before


def _segment(no_speech, spans):
    words = [SimpleNamespace(word=f" w{k}", start=a, end=b) for k, (a, b) in enumerate(spans)]
    return SimpleNamespace(no_speech_prob=no_speech, words=words)


def test_the_backend_drops_speechless_segments_of_placeless_words():
    # measured on the stereo clip: no_speech_prob 0.74, 17 of 18 words at one instant
    assert invented_segment(_segment(0.74, [(4.52, 4.98)] + [(4.98, 4.98)] * 17))
    assert not invented_segment(_segment(0.74, [(0.0, 0.3), (0.3, 0.6), (0.6, 0.6)]))  # words have durations
    assert not invented_segment(_segment(0.2, [(4.98, 4.98)] * 5))  # Whisper hears speech: the guard decides
    assert not invented_segment(_segment(0.9, []))


class _RepeatingBackend:
    """A recogniser that ends like Whisper did on the stereo clip, plus one squeezed real word."""

    name = "repeating"

    def __init__(self, model="x", **_):
        self.model = model

    def available(self):
        return True, "ready"

    def transcribe(self, audio, rate, *, language=None, progress=None, cancel=None):
        end = round(len(audio) / rate - 0.02, 3)
        words = timed("my name is", start=0.5) + at("Smith", 1.4) + timed("on the left", start=1.4)
        words += at("is Smith on the left, on the left", end) + [Word("ghost", end + 1.0, end + 1.2)]
        return BackendOutput(words=words, language=language or "en")


def test_transcription_drops_invented_words_and_flags_placeless_ones(clip_wav):
    register_backend("repeating", _RepeatingBackend)
    result = transcribe_file(clip_wav, backend="repeating", model="x", refine=False)
    assert texts(result.words) == ["my", "name", "is", "Smith", "on", "the", "left"]
    assert non_empty(result.words) and all(0 <= w.start < w.end <= result.duration for w in result.words)
    assert [w.aligned for w in result.words] == [True, True, True, False, True, True, True]
    assert result.dropped == 9 and result.flagged == 1
    assert result.summary()["dropped"] == 9 and result.summary()["flagged"] == 1
    assert any("no duration" in w for w in result.warnings)
    assert any("dropped" in n for n in result.notes)


class _SqueezingBackend:
    """The clip's words with their true times, but 'john' squeezed to nothing at the end of 'is'."""

    name = "squeezing"
    words: list = []

    def __init__(self, model="x", **_):
        self.model = model

    def available(self):
        return True, "ready"

    def transcribe(self, audio, rate, *, language=None, progress=None, cancel=None):
        out = [Word(t, s, e) for t, s, e in self.words]
        john = next(k for k, w in enumerate(out) if w.text == "john")
        out[john].start = out[john].end = out[john - 1].end
        return BackendOutput(words=out, language="en")


def test_a_flagged_word_stays_flagged_after_forced_alignment(clip, clip_wav):
    _SqueezingBackend.words = clip.words
    register_backend("squeezing", _SqueezingBackend)
    result = transcribe_file(clip_wav, backend="squeezing", model="x", refine=True)
    assert result.alignment["failed_turns"] == 0 and result.flagged == 1
    john = next(w for w in result.words if w.text == "john")
    ref = next(w for w in clip.words if w[0] == "john")
    assert john.start == pytest.approx(ref[1], abs=0.1)  # the aligner found it ...
    assert not john.aligned and non_empty(result.words)  # ... but it stays marked for review
    assert sum(not w.aligned for w in result.words) == 1
