"""Forced alignment with pocketsphinx against synthesised speech with exact word times."""

import numpy as np
import pytest

from redactdesk.asr.align import align_turn, align_words, letter_to_sound, refine_alignment, spoken_variants
from redactdesk.asr.base import AlignmentError
from redactdesk.asr.speakers import build_turns
from redactdesk.core.types import Word

RATE = 16_000


def _rough(clip, shift=0.15):
    """The reference words with times knocked off by ``shift`` s, as a careless edit leaves them."""
    return [Word(w, s + shift, e - shift / 2, speaker="agent") for w, s, e in clip.words]


def test_align_words_recovers_reference_times(clip):
    new, report = align_words(clip.audio, RATE, _rough(clip))
    errs = [abs(a - b) for w, (_, s, e) in zip(new, clip.words, strict=True) for a, b in ((w.start, s), (w.end, e))]
    assert float(np.median(errs)) < 0.05 and max(errs) < 0.35
    assert all(w.aligned and w.speaker == "agent" for w in new)
    assert report.words == len(clip.words) and report.oov == 0
    assert report.median_ms > 0 and report.max_ms >= report.mean_ms >= 0


def test_digits_and_unknown_names_are_aligned(make_clip):
    clip = make_clip("my name is okonkwo and my card is four one one one okay".split())
    by_text = [w for w, _, _ in clip.words]
    texts = ["my", "name", "is", "Okonkwo,", "and", "my", "card", "is", "4111", "okay."]
    ref = clip.words[:8] + [("4111", clip.words[8][1], clip.words[11][2]), clip.words[12]]
    rough = [Word(t, s - 0.1, e + 0.1) for t, (_, s, e) in zip(texts, ref, strict=True)]
    new, report = align_words(clip.audio, RATE, rough)
    assert [w.text for w in new] == texts and by_text[3] == "okonkwo"
    assert report.oov == 1 and not new[3].aligned and all(w.aligned for w in new if w.text != "Okonkwo,")
    assert new[8].start == pytest.approx(ref[8][1], abs=0.1) and new[8].end == pytest.approx(ref[8][2], abs=0.1)


def test_align_turn_retimes_only_that_turn(clip):
    words = _rough(clip)
    words[4:] = [Word(w.text, w.start, w.end, speaker="customer") for w in words[4:]]
    turns = build_turns(words)
    assert len(turns) == 2
    out, report = align_turn(clip.audio, RATE, words, turns[1].start_word, turns[1].end_word)
    assert out[:4] == words[:4]
    assert out[5].start == pytest.approx(clip.words[5][1], abs=0.1)
    assert report.words == len(words) - 4
    with pytest.raises(AlignmentError, match="outside"):
        align_turn(clip.audio, RATE, words, 3, 99)


def test_refine_alignment_reports_and_survives_a_bad_turn(clip):
    words = _rough(clip)
    words.append(Word("extra", 30.0, 30.5, speaker="agent"))  # beyond the audio: cannot be aligned
    turns = build_turns(words)
    out, report = refine_alignment(clip.audio, RATE, words, turns)
    assert report.failed_turns == 1 and report.messages
    assert out[-1] == words[-1]
    assert out[0].start == pytest.approx(clip.words[0][1], abs=0.1)


def test_resampled_input_gives_the_same_times(clip):
    from scipy.signal import resample_poly

    audio44 = resample_poly(clip.audio, 441, 160).astype(np.float32)
    a, _ = align_words(clip.audio, RATE, _rough(clip))
    b, _ = align_words(audio44, 44_100, _rough(clip))
    assert all(abs(x.start - y.start) <= 0.03 for x, y in zip(a, b, strict=True))


def test_spoken_variants_and_letter_to_sound():
    assert ["four", "one", "one", "one"] in spoken_variants("4111")
    assert ["four", "thousand", "one", "hundred", "eleven"] in spoken_variants("4111")
    assert ["twenty", "twenty", "four"] in spoken_variants("2024")
    assert ["oh", "seven"] in spoken_variants("07")
    assert spoken_variants("I'm") == [["i'm"]]
    assert spoken_variants("M-A-R-K") == [["m", "a", "r", "k"]]
    assert spoken_variants("...") == []
    assert letter_to_sound("shop") == "SH OW P"
    assert letter_to_sound("García", "es") == "G AA R S IY AA"


def test_refine_in_pieces_cut_at_silences(make_clip):
    from redactdesk.asr.vad import assign_regions, speech_regions

    clip = make_clip("hello there".split() + ["thanks"] * 1 + "my card is four one one one".split(), gap=0.4)
    regions = speech_regions(lambda a, b: clip.audio[a:b], len(clip.audio), min_silence=0.25)
    assert len(regions) == len(clip.words)  # 0.4 s gaps: one region per word
    assert assign_regions(regions, [w[1] + 0.05 for w in clip.words]) == list(range(len(clip.words)))
    words = _rough(clip, shift=0.12)
    turns = build_turns(words)  # no 1 s pause: a single turn
    out, report = refine_alignment(clip.audio, RATE, words, turns, speech={None: regions})
    assert report.failed_turns == 0
    errs = [abs(a - b) for w, (_, s, e) in zip(out, clip.words, strict=True) for a, b in ((w.start, s), (w.end, e))]
    assert float(np.median(errs)) < 0.05


def test_retime_words_and_refine_file_read_the_audio_themselves(clip, clip_wav):
    from redactdesk.asr.retime import refine_file, retime_words

    words = _rough(clip)
    out, report = retime_words(clip_wav, words, 2, 6)
    assert out[:2] == words[:2] and out[6:] == words[6:]
    assert out[3].start == pytest.approx(clip.words[3][1], abs=0.08)
    assert report.words == 4
    refined, rep = refine_file(clip_wav, words, build_turns(words))
    assert rep.failed_turns == 0
    errs = [abs(w.start - s) for w, (_, s, _) in zip(refined, clip.words, strict=True)]
    assert float(np.median(errs)) < 0.05 and max(errs) < 0.3
    bad = [Word(w.text, w.start, w.end, channel=1) for w in words]
    from redactdesk.asr.base import AsrError

    with pytest.raises(AsrError, match="channel 1"):
        retime_words(clip_wav, bad, 0, 2)
