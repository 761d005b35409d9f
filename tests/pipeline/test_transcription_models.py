"""transcribe_project: a model per language (the app's preferences) and on_commit after each call's transaction."""

from __future__ import annotations

import numpy as np
import pytest
import soundfile as sf

from redactdesk.core.types import Conversation, ConversationStatus, Word
from redactdesk.pipeline.transcription import transcribe_project
from redactdesk.store import Project


class _LastFirst:
    """Not the in-process executor (so the stage takes its cluster path) but runs here, last task first."""

    workers = 2

    sent: list[str] = []

    def run(self, fn, tasks, **kw):
        self.sent = [t.key for t in tasks]
        for task in reversed(list(tasks)):
            yield task, fn(*task.arguments(), **task.kwargs)


@pytest.fixture
def two_languages(tmp_path, words_backend):
    words_backend([Word("hola", 0.1, 0.4), Word("buenas", 0.5, 0.9)], "es", name="two-words")
    path = tmp_path / "p.rdproj"
    with Project.create(path, actor="tester") as p:
        for cid, language, seconds in (("en_call", "en", 1.0), ("es_call", "es", 2.0), ("auto_call", "detect", 1.5)):
            wav = tmp_path / f"{cid}.wav"
            sf.write(str(wav), np.zeros(int(16000 * seconds), dtype=np.float32), 16000)
            p.add_conversation(Conversation(id=cid, audio_path=str(wav), sample_rate=16000, channels=1,
                                            duration=seconds, language=language))
    return path


@pytest.mark.parametrize("executor", [None, _LastFirst()], ids=["here", "on-an-executor"])
def test_each_language_gets_its_model_and_each_call_is_announced_once_committed(two_languages, executor):
    committed = []
    with Project.open(two_languages, actor="tester") as p:
        def on_commit(outcome):
            conv = p.load_conversation(outcome.conversation_id)
            committed.append((outcome.conversation_id, conv.status, len(conv.words) == outcome.words))

        transcribe_project(p, ["en_call", "es_call", "auto_call"], backend="two-words", speakers=0,
                           model={"en": "small.en", "detect": "medium"}, executor=executor, on_commit=on_commit)
        models = {cid: p.load_conversation(cid).meta["asr"]["model"] for cid in p.conversation_ids()}
    assert models == {"en_call": "small.en", "es_call": "base", "auto_call": "medium"}  # es: not named, the default
    assert sorted(committed) == sorted((cid, ConversationStatus.TRANSCRIBED, True) for cid in models)
    if executor is not None:  # announced as they finish: the executor's order, not the list's
        assert [c[0] for c in committed] == executor.sent[::-1]
