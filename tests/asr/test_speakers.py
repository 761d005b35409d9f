"""Stereo merge, pause-split turns, diarization labels and renaming on synthetic word lists."""

import pytest

from redactdesk.asr.speakers import (
    assign_mono_speakers,
    build_turns,
    merge_channels,
    rename_speaker,
)
from redactdesk.core.types import Conversation, Word


def test_channels_merge_in_time_with_speaker_and_channel():
    agent = [Word("hello", 0.0, 0.4), Word("how", 3.0, 3.2), Word("can", 3.2, 3.4)]
    customer = [Word("hi", 1.0, 1.3), Word("there", 1.3, 1.6), Word("yes", 3.2, 3.5)]
    words = merge_channels([agent, customer])
    assert [w.text for w in words] == ["hello", "hi", "there", "how", "can", "yes"]
    assert [w.speaker for w in words] == ["agent", "customer", "customer", "agent", "agent", "customer"]
    assert [w.channel for w in words] == [0, 1, 1, 0, 0, 1]
    assert agent[0].speaker is None  # inputs untouched
    turns = build_turns(words)
    assert [(t.speaker, t.start_word, t.end_word, t.channel) for t in turns] == [
        ("agent", 0, 1, 0), ("customer", 1, 3, 1), ("agent", 3, 5, 0), ("customer", 5, 6, 1)]


def test_custom_speaker_names_and_channel_numbers():
    words = merge_channels([[Word("a", 0, 1)], [Word("b", 0.5, 1)]], ("caller", "callee"), channels=[1, 0])
    assert [(w.text, w.speaker, w.channel) for w in words] == [("a", "callee", 1), ("b", "caller", 0)]
    with pytest.raises(ValueError):
        merge_channels([[Word("a", 0, 1)]], channels=[0, 1])


def test_mono_turns_split_at_pauses():
    words = assign_mono_speakers([Word("a", 0.0, 0.5), Word("b", 0.6, 1.0), Word("c", 2.5, 3.0), Word("d", 3.1, 3.4)])
    assert {w.speaker for w in words} == {"SPEAKER_00"}
    assert [(t.start_word, t.end_word) for t in build_turns(words, pause=1.0)] == [(0, 2), (2, 4)]
    assert [(t.start_word, t.end_word) for t in build_turns(words, pause=2.0)] == [(0, 4)]


def test_mono_keeps_diarization_labels_and_fills_gaps():
    words = [Word("a", 0, 1, speaker="SPEAKER_01"), Word("b", 1, 2), Word("c", 2, 3, speaker="SPEAKER_00")]
    out = assign_mono_speakers(words)
    assert [w.speaker for w in out] == ["SPEAKER_01", "SPEAKER_01", "SPEAKER_00"]
    assert [t.speaker for t in build_turns(out)] == ["SPEAKER_01", "SPEAKER_00"]


def test_rename_speaker_changes_words_and_turns():
    words = merge_channels([[Word("a", 0, 1)], [Word("b", 1, 2)]])
    conv = Conversation(id="c1", words=words, turns=build_turns(words))
    assert rename_speaker(conv, "customer", "Mrs Patel's line") == 1
    assert [w.speaker for w in conv.words] == ["agent", "Mrs Patel's line"]
    assert conv.turns[1].speaker == "Mrs Patel's line"
    with pytest.raises(ValueError, match="no speaker"):
        rename_speaker(conv, "customer", "x")
    with pytest.raises(ValueError, match="empty"):
        rename_speaker(conv, "agent", "  ")


def test_pauses_come_from_voice_activity_when_given():
    # Whisper-style words with no gaps at all; the audio has a 1.5 s silence between 2.0 and 3.5 s.
    words = assign_mono_speakers([Word("a", 0.0, 1.0), Word("b", 1.0, 2.6), Word("c", 2.6, 4.0), Word("d", 4.0, 5.0)])
    speech = {None: [(0.1, 2.0), (3.5, 5.0)]}
    assert [(t.start_word, t.end_word) for t in build_turns(words)] == [(0, 4)]
    assert [(t.start_word, t.end_word) for t in build_turns(words, speech=speech)] == [(0, 2), (2, 4)]
    assert [(t.start_word, t.end_word) for t in build_turns(words, speech=speech, pause=2.0)] == [(0, 4)]
