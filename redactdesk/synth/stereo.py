"""Stereo call layout: each party on its own channel, as call-centre recorders store calls.

A voiced call is one mono track in which the parties take turns (the synth never overlaps them).
:func:`to_stereo` moves every turn onto its speaker's channel — agent on channel 0 (left), customer
on channel 1 (right) — cutting between turns in the middle of the silence that separates them, so
no sample of speech changes and every word keeps its exact time; words and turns get their channel.
Per-channel transcription then gives two speakers with no diarizer, and mixing the two channels
down gives back the mono call bit for bit (what ``benchmarks/bench_diarize.py`` measures on).
"""

from __future__ import annotations

import copy
from collections.abc import Sequence

import numpy as np

from redactdesk.core.types import Conversation
from redactdesk.synth.errors import SynthError

CHANNEL_OF = {"agent": 0, "customer": 1}


def speaker_channels(conv: Conversation, order: Sequence[str] = ("agent", "customer")) -> dict[str, int]:
    """Channel per speaker: the names of ``order`` first (agent 0, customer 1), others after them
    in order of first appearance."""
    out = {name: k for k, name in enumerate(order)}
    for t in conv.turns:
        if t.speaker not in out:
            out[t.speaker] = len(out)
    return out


def to_stereo(conv: Conversation, audio: np.ndarray, rate: int) -> tuple[Conversation, np.ndarray]:
    """A copy of ``conv`` laid out as a two-channel call, and its ``(frames, 2)`` samples.

    Every sample belongs to the turn whose stretch (first word's start to last word's end) holds it,
    or, in a silence between turns, to the nearer one (the cut lies half-way); it goes to that turn's
    speaker's channel and the other channel is silent there. ``audio`` is mono, as voiced.
    """
    if audio.ndim != 1:
        raise SynthError(f"{conv.id}: expected mono audio to lay out in stereo, got {audio.ndim} dimensions")
    if not conv.turns:
        raise SynthError(f"{conv.id}: a call without turns cannot be laid out by speaker")
    channels = speaker_channels(conv)
    if max(channels.values()) > 1:
        raise SynthError(f"{conv.id}: more than two speakers do not fit a two-channel call")
    out = np.zeros((len(audio), 2), dtype=audio.dtype)
    stretches = []
    for t in conv.turns:
        words = conv.words[t.start_word : t.end_word]
        if words:
            stretches.append((words[0].start, words[-1].end, channels[t.speaker]))
    cuts = [0]
    for (_, end, _), (start, _, _) in zip(stretches, stretches[1:], strict=False):
        cuts.append(int(round((end + max(start, end)) / 2 * rate)))
    cuts.append(len(audio))
    for (a, b), (_, _, ch) in zip(zip(cuts, cuts[1:], strict=False), stretches, strict=True):
        out[a:b, ch] = audio[a:b]
    stereo = copy.deepcopy(conv)
    for t in stereo.turns:
        t.channel = channels[t.speaker]
        for w in stereo.words[t.start_word : t.end_word]:
            w.channel = t.channel
    stereo.channels = 2
    stereo.meta = {**stereo.meta, "layout": "stereo: agent on channel 0 (left), customer on channel 1 (right)"}
    return stereo, out
