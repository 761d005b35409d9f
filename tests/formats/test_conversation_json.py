"""The project's own conversation JSON: write, read back, and reject broken files."""

from __future__ import annotations

import json
import os

import pytest

from redactdesk.core.types import Conversation, Span, SpanStatus
from redactdesk.formats import (
    ImportFailed,
    read_conversation_json,
    read_transcript,
    turns_from_words,
    write_conversation_json,
)


def _conv(words, audio_path=None):
    return Conversation(
        id="call_en_001", audio_path=audio_path, audio_sha256="ab" * 32, sample_rate=16000, channels=1,
        duration=3.0, language="en", words=words, turns=turns_from_words(words),
        spans=[Span(4, 5, "PERSON", SpanStatus.ACCEPTED, 0.9, ("ner",), "name after 'my name is'", "e1")],
        meta={"roles": {"AGENT": "agent"}, "seed": 7},
    )


def test_round_trip_preserves_everything(tmp_path, sample_words, same_words):
    audio = tmp_path / "audio" / "call.flac"
    conv = _conv(sample_words, audio_path=str(audio))
    out = write_conversation_json(conv, tmp_path / "gt" / "call.json")
    raw = json.loads(out.read_text(encoding="utf-8"))
    assert raw["format"] == "redactdesk-conversation" and raw["version"] == 1
    assert raw["audio"] == "../audio/call.flac"
    back = read_conversation_json(out)
    same_words(back.words, conv.words, tol=0.0)
    assert [w.to_dict() for w in back.words] == [w.to_dict() for w in conv.words]
    assert back.turns == conv.turns and back.spans == conv.spans and back.meta == conv.meta
    assert os.path.normpath(back.audio_path) == os.path.normpath(str(audio))
    assert (back.id, back.duration, back.sample_rate, back.audio_sha256) == (
        "call_en_001", 3.0, 16000, conv.audio_sha256)
    imp = read_transcript(out)
    assert imp.format == "conversation" and imp.spans == conv.spans and imp.duration == 3.0


def test_explicit_audio_rel_and_atomic_overwrite(tmp_path, sample_words):
    p = tmp_path / "c.json"
    write_conversation_json(_conv(sample_words), p, audio_rel="c.wav")
    write_conversation_json(_conv(sample_words[:2]), p, audio_rel="c.wav")
    assert len(json.loads(p.read_text())["words"]) == 2
    assert [f.name for f in tmp_path.iterdir()] == ["c.json"]  # no temporary file left behind


def test_words_past_own_duration_and_bad_spans(tmp_path, sample_words):
    d = {"format": "redactdesk-conversation", "version": 1, "id": "x", "duration": 2.0,
         "words": [w.to_dict() for w in sample_words],
         "turns": [{"speaker": "A", "start_word": 0, "end_word": 99}],
         "spans": [{"start_word": 2, "end_word": 2, "category": "PERSON"},
                   {"start_word": 5, "end_word": 12, "category": "PHONE"},
                   {"start_word": 1}]}
    p = tmp_path / "x.json"
    p.write_text(json.dumps(d), encoding="utf-8")
    with pytest.raises(ImportFailed) as ei:
        read_transcript(p)
    wheres = [pr.where for pr in ei.value.problems]
    assert "word 7" in wheres  # ends at 2.7 s, past the 2.0 s the file declares
    assert {"turn 1", "span 1", "span 2", "span 3"} <= set(wheres)
    assert "missing 'end_word'" in str(ei.value)


def test_missing_fields_nan_and_newer_version(tmp_path):
    p = tmp_path / "y.json"
    p.write_text('{"format": "redactdesk-conversation", "words": [{"text": "a", "start": 0.0},'
                 '{"start": 0.1, "end": 0.2}, {"text": "c", "start": NaN, "end": 0.3}]}', encoding="utf-8")
    with pytest.raises(ImportFailed) as ei:
        read_conversation_json(p)
    assert [str(pr) for pr in ei.value.problems] == [
        "word 1: missing 'end'", "word 2: missing 'text'", "word 3: start time is missing or not a number"]
    p.write_text('{"format": "redactdesk-conversation", "version": 9, "words": []}', encoding="utf-8")
    with pytest.raises(ImportFailed, match="version is newer"):
        read_conversation_json(p)


def test_words_file_of_transcribe(tmp_path):
    p = tmp_path / "words.json"
    p.write_text(json.dumps({"words": [{"text": "hi", "start": 0.0, "end": 0.2, "speaker": "S", "aligned": False}]}))
    imp = read_transcript(p)
    assert imp.format == "words" and imp.words[0].aligned is False and imp.turns[0].speaker == "S"
