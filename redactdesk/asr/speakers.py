"""Who spoke when: channel speakers for stereo calls, pause-split turns for mono, speaker renaming.

Stereo call recordings carry one party per channel (by default channel 0 = agent, 1 = customer):
each channel is transcribed alone and the words are merged in time. Mono recordings keep a
diarizer's labels when the backend produced them, otherwise everything is one speaker whose
turns are split at pauses.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence

from redactdesk.asr.vad import Region, assign_regions, merge_regions
from redactdesk.core.types import Conversation, Turn, Word

DEFAULT_CHANNEL_SPEAKERS = ("agent", "customer")
SINGLE_SPEAKER = "SPEAKER_00"
DEFAULT_PAUSE = 1.0


def channel_speaker(channel: int, speakers: Sequence[str] = DEFAULT_CHANNEL_SPEAKERS) -> str:
    """The speaker name for a channel; channels beyond the given names become ``channel_N``."""
    return speakers[channel] if channel < len(speakers) else f"channel_{channel}"


def merge_channels(
    per_channel: Sequence[Sequence[Word]],
    speakers: Sequence[str] = DEFAULT_CHANNEL_SPEAKERS,
    channels: Sequence[int] | None = None,
) -> list[Word]:
    """Words of separately transcribed channels, labelled with speaker and channel, merged in time.

    ``channels`` gives the channel number of each list (default 0, 1, ...). Ties in start time keep
    channel order, so the merge is deterministic.
    """
    numbers = list(channels) if channels is not None else list(range(len(per_channel)))
    if len(numbers) != len(per_channel):
        raise ValueError("one channel number is needed per word list")
    return [
        dataclasses.replace(per_channel[c][k], speaker=channel_speaker(numbers[c], speakers), channel=numbers[c])
        for c, k in merge_order(per_channel, numbers)
    ]


def merge_order(per_channel: Sequence[Sequence[Word]], channels: Sequence[int]) -> list[tuple[int, int]]:
    """(list index, word index) of every word in the order :func:`merge_channels` puts them."""
    tagged = [(w.start, channels[c], k, c) for c, words in enumerate(per_channel) for k, w in enumerate(words)]
    tagged.sort(key=lambda t: (t[0], t[1], t[2]))
    return [(t[3], t[2]) for t in tagged]


def assign_mono_speakers(words: Sequence[Word], speaker: str = SINGLE_SPEAKER) -> list[Word]:
    """Keep diarization labels if any word has one (unlabelled words take the previous label);
    otherwise every word gets ``speaker``."""
    out = [dataclasses.replace(w) for w in words]
    if not any(w.speaker for w in out):
        for w in out:
            w.speaker = speaker
        return out
    last = next(w.speaker for w in out if w.speaker)
    for w in out:
        if w.speaker:
            last = w.speaker
        else:
            w.speaker = last
    return out


def build_turns(
    words: Sequence[Word],
    *,
    pause: float = DEFAULT_PAUSE,
    speech: Mapping[int | None, Sequence[Region]] | None = None,
) -> list[Turn]:
    """Turns over ``words``: a new turn when the speaker or channel changes or a pause exceeds ``pause`` s.

    With ``speech`` (voice-activity regions per channel, :func:`redactdesk.asr.vad.speech_regions`)
    pauses are measured in the audio; otherwise as gaps between word times (Whisper's word times
    often bridge short silences, so the audio is the better judge).
    """
    utterance: list[int | None] = [None] * len(words)
    if speech:
        for ch, regions in speech.items():
            merged = merge_regions(regions, pause)
            idx = [i for i, w in enumerate(words) if w.channel == ch]
            for i, u in zip(idx, assign_regions(merged, [(words[i].start + words[i].end) / 2 for i in idx]),
                            strict=True):
                utterance[i] = u if u >= 0 else None
    turns: list[Turn] = []
    last_end = None
    for i, w in enumerate(words):
        speaker = w.speaker or SINGLE_SPEAKER
        current = turns[-1] if turns else None
        same = current is not None and current.speaker == speaker and current.channel == w.channel
        if same:
            prev = utterance[i - 1] if i > 0 else None
            if utterance[i] is not None and prev is not None:
                same = utterance[i] == prev
            else:
                same = last_end is None or w.start - last_end <= pause
        if same:
            current.end_word = i + 1
        else:
            turns.append(Turn(speaker=speaker, start_word=i, end_word=i + 1, channel=w.channel))
        last_end = w.end if last_end is None or not same else max(last_end, w.end)
    return turns


def speakers_of(conv: Conversation) -> list[str]:
    """Speaker names in order of first appearance (words, then turns)."""
    seen: dict[str, None] = {}
    for w in conv.words:
        if w.speaker:
            seen.setdefault(w.speaker)
    for t in conv.turns:
        seen.setdefault(t.speaker)
    return list(seen)


def rename_speaker(conv: Conversation, old: str, new: str) -> int:
    """Rename speaker ``old`` to ``new`` in the conversation's words and turns; returns words changed.

    Renaming onto an existing name merges the two speakers (adjacent turns are left as they are).
    """
    new = new.strip()
    if not new:
        raise ValueError("a speaker name cannot be empty")
    if old not in speakers_of(conv):
        raise ValueError(f"there is no speaker {old!r} in conversation {conv.id!r}")
    changed = 0
    for w in conv.words:
        if w.speaker == old:
            w.speaker = new
            changed += 1
    for t in conv.turns:
        if t.speaker == old:
            t.speaker = new
    return changed
