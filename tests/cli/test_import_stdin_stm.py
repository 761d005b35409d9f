"""Transcripts on standard input (`import --transcript -`) and STM transcripts read back."""

from __future__ import annotations

import io
import sys

import numpy as np
import pytest
import soundfile as sf

from redactdesk.cli.main import main
from redactdesk.core.types import Conversation, Turn, Word
from redactdesk.formats import read_transcript
from redactdesk.formats.stm import write_stm
from redactdesk.store import Project

CTM = "call A 0.50 0.30 hello 0.99\ncall A 0.90 0.40 world 0.95\ncall B 1.60 0.30 bye 0.90\n"


@pytest.fixture
def recording(tmp_path):
    path = tmp_path / "call.wav"
    sf.write(str(path), np.zeros(16_000 * 3, dtype=np.float32), 16_000)
    return path


def stdin_of(monkeypatch, data: bytes) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))


def test_a_ctm_on_standard_input_is_imported_with_its_format(tmp_path, recording, monkeypatch, capsys):
    proj = tmp_path / "p.rdproj"
    assert main(["init", str(proj)]) == 0
    stdin_of(monkeypatch, CTM.encode())
    assert main(["import", str(proj), str(recording), "--transcript", "-", "--transcript-format", "ctm",
                 "--id", "call"]) == 0
    with Project.open(proj) as p:
        conv = p.load_conversation("call")
    assert [w.text for w in conv.words] == ["hello", "world", "bye"]
    assert conv.meta["transcript_source"] == {"format": "ctm", "file": "stdin"}


def test_standard_input_without_a_readable_format_or_empty_is_refused(tmp_path, recording, monkeypatch, capsys):
    proj = tmp_path / "p.rdproj"
    assert main(["init", str(proj)]) == 0
    stdin_of(monkeypatch, CTM.encode())  # CTM has no signature: without --transcript-format it cannot be told
    assert main(["import", str(proj), str(recording), "--transcript", "-"]) == 1
    err = capsys.readouterr().err
    assert "not imported" in err and "hello" not in err  # no value from the input in the message
    stdin_of(monkeypatch, b"  \n")
    assert main(["import", str(proj), str(recording), "--transcript", "-"]) == 2
    assert "no transcript" in capsys.readouterr().err
    with Project.open(proj) as p:
        assert p.conversation_ids() == []  # nothing half-imported


def test_stm_transcripts_are_read_back_by_extension(tmp_path):
    words = [Word("good", 0.2, 0.5, speaker="agent", channel=0), Word("morning", 0.5, 0.9, speaker="agent", channel=0),
             Word("hi", 1.2, 1.4, speaker="customer", channel=1)]
    conv = Conversation(id="c1", words=words, turns=[Turn("agent", 0, 2, 0), Turn("customer", 2, 3, 1)], duration=2.0)
    path = write_stm(conv, tmp_path / "c1.stm")
    back = read_transcript(path, audio_duration=2.0)
    assert back.format == "stm" and [w.text for w in back.words] == ["good", "morning", "hi"]
    assert [t.speaker for t in back.turns] == ["agent", "customer"]
    assert back.words[0].start == pytest.approx(0.2) and back.words[-1].end == pytest.approx(1.4)


def test_the_cli_offers_exactly_the_formats_the_readers_know():
    from redactdesk.cli.commands_project import TRANSCRIPT_FORMATS
    from redactdesk.formats import FORMATS

    assert TRANSCRIPT_FORMATS == FORMATS
