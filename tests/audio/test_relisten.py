"""The re-listen check: spoken-form matching, leak reports, the export gate, and one real tiny.en run."""

import numpy as np
import pytest
import soundfile as sf

from redactdesk.audio import (
    Leak,
    LeakReport,
    MaskError,
    MaskRange,
    leaks_block_export,
    mask_file,
    mask_ranges,
    relisten,
)
from redactdesk.audio.matching import FULL, PARTIAL, match_item, normalise
from redactdesk.audio.relisten import PER_PIECE
from redactdesk.core.types import Conversation, Span, SpanStatus, Word


@pytest.mark.parametrize("item,heard,kind", [
    ("4111 1111 1111 1111", "it's 4111-1111-1111-1111, ok", FULL),
    ("four one one one", "my number is for one one one", FULL),
    ("double five oh seven", "it is 5507", FULL),
    ("M-A-R-K", "my name is Mark", FULL),
    ("john.smith@gmail.com", "John dot Smith at gmail dot com", FULL),
    ("John Smith", "this is Jon Smith speaking", PARTIAL),
    ("4111111111111111", "the last four are 1111", PARTIAL),
    ("Main Street", "down the street", None),
    ("John Smith", "[beep]", None),
])
def test_match_item_written_and_spoken_forms(item, heard, kind):
    assert match_item(item, heard) == kind


def test_normalise_keeps_ordinary_words():
    assert normalise("no one came up to 5") == ["no", "one", "came", "up", "to", "5"]
    assert normalise("cero uno dos", "es") == ["012"]


def fake(words_by_call):
    """A recogniser that returns the given (text, start, end) words, call after call."""
    calls = iter(list(words_by_call))

    def recognise(audio, rate):
        return [Word(t, a, b) for t, a, b in next(calls)]

    return recognise


def conversation():
    words = [Word("call", 0.5, 0.8), Word("John", 1.0, 1.3), Word("Smith", 1.4, 1.8), Word("on", 2.0, 2.1),
             Word("five", 2.2, 2.4), Word("five", 2.5, 2.7), Word("five", 2.8, 3.0), Word("one", 3.1, 3.3)]
    spans = [Span(1, 3, "PERSON", SpanStatus.ACCEPTED, id=1), Span(4, 8, "PHONE", SpanStatus.ACCEPTED, id=2),
             Span(0, 1, "PERSON", SpanStatus.REJECTED, id=3)]
    return Conversation(id="c9", duration=4.0, words=words, spans=spans)


def test_report_names_leaks_without_text(make_audio, tmp_path):
    audio = make_audio(seconds=4.0)
    conv = conversation()
    ranges = mask_ranges(conv)
    calls = []

    def rec(x, rate):  # both ranges are heard in one window starting at 0 s
        calls.append(len(x) / rate)
        return [Word("John", 1.0, 1.3), Word("Smith", 1.4, 1.8), Word("5551", 2.2, 3.3)]

    report = relisten(audio, conv, ranges, recogniser=rec)
    assert calls == [4.0]
    assert [(x.span_id, x.category, x.kind) for x in report.leaks] == [(1, "PERSON", FULL), (2, "PHONE", FULL)]
    assert report.items_checked == 2 and report.ranges_checked == 2
    assert "John" not in str(report.to_dict()) and "Smith" not in report.summary()
    assert LeakReport.from_dict(report.to_dict()) == report
    small = relisten(audio, conv, ranges, recogniser=rec, window=3.0)  # too far apart for one clip: 2 calls
    assert len(calls) == 3 and small.ranges_checked == 2 and small.windows == 2
    packed = relisten(audio, conv, ranges, recogniser=rec, window=3.0, scheme="packed")  # one call, 1 s apart
    assert len(calls) == 4 and packed.windows == 1 and calls[-1] > sum(calls[1:3])


def test_words_shared_with_a_spoken_surrogate_are_not_leaks(make_audio):
    conv = conversation()
    ranges = [MaskRange(0.95, 1.85, None, (1,), "PERSON")]
    rec = fake([[("Peter", 1.0, 1.3), ("Smith", 1.4, 1.8)]] * 2)
    assert relisten(make_audio(seconds=4.0), conv, ranges, recogniser=rec).leaks[0].kind == PARTIAL
    assert not relisten(make_audio(seconds=4.0), conv, ranges, recogniser=rec, spoken={1: "Peter Smith"}).leaked


def test_words_heard_outside_the_range_do_not_count(make_audio):
    conv = conversation()
    ranges = [MaskRange(1.0, 1.8, None, (1,), "PERSON")]
    rec = fake([[("John", 0.0, 0.3), ("Smith", 2.5, 2.9)]])  # window starts at 0 s: both far outside
    assert not relisten(make_audio(seconds=4.0), conv, ranges, recogniser=rec).leaked


def test_export_gate_and_override():
    clean = LeakReport("c", "a.wav", "tiny.en", 1.0, 2, 2)
    leaky = LeakReport("c", "a.wav", "tiny.en", 1.0, 2, 2, leaks=[])
    leaky.leaks.append(Leak(0, 1.0, 2.0, 1, "PERSON", FULL))
    assert leaks_block_export(None) is True  # no check run: refuse
    assert leaks_block_export(clean) is False
    assert leaks_block_export(leaky) is True
    assert leaks_block_export(leaky, "   ok   ") is True  # not a written reason
    assert leaks_block_export(leaky, "synthetic test voice, names are fake") is False
    with pytest.raises(MaskError, match="written reason"):
        leaky.override("ok")
    done = leaky.override("the name is the agent's public work name", by="rev1")
    assert done.overridden_by == "rev1" and done.overridden_at and not leaks_block_export(done)
    assert leaks_block_export(leaky)  # the original report is unchanged


def test_planted_unmasked_item_is_caught_by_real_recogniser(tmp_path, spoken_conversation):
    """tiny.en for real: the name left in the audio is heard; silenced, it is not."""
    audio, conv = spoken_conversation(["please", "call", "John", "Smith", "today"], [(2, 4, "PERSON")])
    planted = tmp_path / "planted.wav"
    sf.write(str(planted), audio, 16000, subtype="PCM_16")
    ranges = mask_ranges(conv)
    report = relisten(planted, conv, ranges)  # the "masked" file still holds the item
    assert [x.span_id for x in report.leaks] == [1] and leaks_block_export(report)
    mask_file(planted, tmp_path / "silenced.wav", ranges, "silence")
    assert not relisten(tmp_path / "silenced.wav", conv, ranges).leaked



def test_the_check_encodes_each_clip_with_a_short_pad_not_thirty_seconds(monkeypatch, spoken_conversation):
    """Whisper pads every call to 30 s; the re-listen check's encoder reads the clip plus a pad (the
    cost of a short clip falls with it), and the same model transcribing a recording is unchanged."""
    fw = pytest.importorskip("faster_whisper")
    from math import ceil

    from redactdesk.audio.recognise import SHORT_CONTEXT_PAD, _load, whisper_recogniser

    frames: list[int] = []
    encode = fw.WhisperModel.encode
    monkeypatch.setattr(fw.WhisperModel, "encode", lambda self, f: (frames.append(f.shape[-1]), encode(self, f))[1])
    audio, _conv = spoken_conversation(["please", "call", "John", "Smith", "today"], [(2, 4, "PERSON")])
    words = whisper_recogniser("tiny.en", "en")(audio, 16000)
    assert "smith" in " ".join(w.text.lower() for w in words)
    assert frames and set(frames) == {2 * ceil((len(audio) / 16000 + SHORT_CONTEXT_PAD) * 50)}
    frames.clear()
    segments, _ = _load("tiny.en").transcribe(audio, language="en")
    list(segments)
    assert frames == [3000]  # outside the check: Whisper's own 30 s


@pytest.mark.parametrize("scheme", ["packed", PER_PIECE])
def test_each_stereo_channel_is_heard_on_its_own(tmp_path, scheme, sound_recogniser):
    rate = 16000
    tone = np.zeros((4 * rate, 2), dtype=np.float32)
    tone[rate:int(1.8 * rate)] = 0.3 * np.sin(np.arange(int(0.8 * rate)) * 0.2)[:, None]  # the name, both sides
    src = tmp_path / "st.wav"
    sf.write(str(src), tone, rate)
    conv = conversation()
    conv.channels = 2
    rec = sound_recogniser("Smith")  # the name wherever the range still holds sound
    one_side = [MaskRange(0.95, 1.85, 0, (1,), "PERSON")]  # the item echoes on channel 1
    mask_file(src, tmp_path / "one.wav", one_side, "silence")
    assert relisten(tmp_path / "one.wav", conv, one_side, recogniser=rec, scheme=scheme).leaks[0].kind == PARTIAL
    both = [MaskRange(0.95, 1.85, None, (1,), "PERSON")]
    mask_file(src, tmp_path / "both.wav", both, "silence")
    assert not relisten(tmp_path / "both.wav", conv, both, recogniser=rec, scheme=scheme).leaked


def test_function_words_inside_an_item_are_no_evidence_of_a_leak():
    """ASR glued "euros con" into a money item; Whisper then 'heard' "con la que" in the beep."""
    from redactdesk.audio.matching import PARTIAL, match_item

    assert match_item("300, 17, e los con 30 y 7, sentimos", "con la que está", "es") is None
    assert match_item("and the number is with", "with the", "en") is None
    assert match_item("Rosalinda Figuerola", "soy rosalinda", "es") == PARTIAL  # a name still counts


VOCAB = ["hello", "this", "is", "Alice", "Jones", "my", "number", "four", "one", "seven", "Bob", "Marley", "thanks"]


def level_recogniser(block=0.05):
    """A recogniser that reads words off the audio itself: a stretch held at level (k+1)/100 is VOCAB[k],
    timed where it lies in the audio it is given (so it hears the same in any window layout)."""

    def recognise(x, rate):
        n = int(block * rate)
        codes = [int(round(float(np.median(x[i:i + n])) * 100)) - 1 for i in range(0, len(x) - n + 1, n)]
        words, i = [], 0
        while i < len(codes):
            j = i
            while j < len(codes) and codes[j] == codes[i]:
                j += 1
            if 0 <= codes[i] < len(VOCAB):
                words.append(Word(VOCAB[codes[i]], i * n / rate, j * n / rate))
            i = j
        return words

    return recognise


def spoken_call(tmp_path, rate=16000):
    """40 s of two-channel "speech" (channel 1 echoes channel 0) and a conversation naming three items."""
    script = [(0.5, "hello"), (1.0, "this"), (1.5, "is"), (2.0, "Alice"), (2.5, "Jones"),
              (15.0, "my"), (15.5, "number"), (16.0, "four"), (16.5, "one"), (17.0, "seven"),
              (30.0, "thanks"), (30.5, "Bob"), (31.0, "Marley"), (32.0, "thanks")]
    x = np.zeros((40 * rate, 2), dtype=np.float32)
    for t, text in script:
        x[int(t * rate):int((t + 0.4) * rate)] = (VOCAB.index(text) + 1) / 100
    path = tmp_path / "call.wav"
    sf.write(str(path), x, rate, subtype="FLOAT")
    words = [Word(text, t, t + 0.4) for t, text in script]
    spans = [Span(3, 5, "PERSON", SpanStatus.ACCEPTED, id=1), Span(7, 10, "PHONE", SpanStatus.ACCEPTED, id=2),
             Span(11, 13, "PERSON", SpanStatus.ACCEPTED, id=3)]
    return path, Conversation(id="c1", duration=40.0, channels=2, words=words, spans=spans)


def test_packed_and_per_piece_schemes_report_the_same_leaks(tmp_path):
    src, conv = spoken_call(tmp_path)
    ranges = mask_ranges(conv)
    assert len(ranges) == 3
    rec = level_recogniser()
    original = {s: relisten(src, conv, ranges, recogniser=rec, scheme=s) for s in ("packed", PER_PIECE)}
    assert [(x.span_id, x.kind) for x in original["packed"].leaks] == [(1, FULL), (2, FULL), (3, FULL)]
    mask_file(src, tmp_path / "some.wav", [ranges[0], ranges[2]], "silence")  # the phone number left unmasked
    some = {s: relisten(tmp_path / "some.wav", conv, ranges, recogniser=rec, scheme=s) for s in ("packed", PER_PIECE)}
    assert [(x.range_index, x.span_id, x.category, x.kind) for x in some["packed"].leaks] == [(1, 2, "PHONE", FULL)]
    for reports in (original, some):
        packed, alone = reports["packed"], reports[PER_PIECE]
        assert packed.leaks == alone.leaks and packed.items_checked == alone.items_checked == 3
        assert (packed.windows, alone.windows) == (1, 6)  # 3 clips x 2 channels in one call, or one call each


def test_an_unknown_scheme_is_refused(make_audio):
    with pytest.raises(MaskError, match="scheme"):
        relisten(make_audio(seconds=4.0), conversation(), mask_ranges(conversation()), recogniser=fake([]),
                 scheme="everything-at-once")


FILLER = "the weather was fine and we talked about the garden for a long while before we spoke of other things".split()


def test_a_batch_of_clips_gives_each_clip_its_own_words_in_its_own_time(spoken_conversation):
    """Clips of different lengths heard as one batch: each gets the words said in it, timed from its
    own start; a silent clip gets none."""
    from redactdesk.audio.recognise import whisper_batch_recogniser

    long_clip, _ = spoken_conversation(["please", "call", "John", "Smith", "today", *FILLER[:6]], [])
    short_clip, _ = spoken_conversation(["hello", "there"], [])
    silent = np.zeros(16000 * 2, dtype=np.float32)
    heard = whisper_batch_recogniser("tiny.en", "en")([long_clip, silent, short_clip], 16000)
    assert len(heard) == 3 and heard[1] == []
    assert "smith" in " ".join(w.text.lower() for w in heard[0])
    assert "smith" not in " ".join(w.text.lower() for w in heard[2]) and heard[2]
    for words, clip in ((heard[0], long_clip), (heard[2], short_clip)):
        assert all(0.0 <= w.start <= w.end <= len(clip) / 16000 + 0.5 for w in words)


def test_batched_and_one_by_one_checks_hear_the_same_items(tmp_path, spoken_conversation):
    """Two items far apart (two clips of different lengths): the batched check hears both in the
    unmasked audio, as one call per clip does, and neither once they are silenced."""
    audio, conv = spoken_conversation(["please", "call", "John", "Smith", "today", *FILLER, "ask", "for",
                                       "Alice", "Jones", "please"], [(2, 4, "PERSON"), (25, 27, "PERSON")])
    src = tmp_path / "call.wav"
    sf.write(str(src), audio, 16000, subtype="PCM_16")
    ranges = mask_ranges(conv)
    assert len(ranges) == 2
    reports = {b: relisten(src, conv, ranges, batch=b) for b in (1, 8)}
    assert reports[1].windows == reports[8].windows == 2
    assert [x.span_id for x in reports[8].leaks] == [x.span_id for x in reports[1].leaks] == [1, 2]
    mask_file(src, tmp_path / "silenced.wav", ranges, "silence")
    assert not relisten(tmp_path / "silenced.wav", conv, ranges, batch=8).leaked
